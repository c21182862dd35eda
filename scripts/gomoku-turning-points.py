#!/usr/bin/env python3
"""Where a Gomoku engine lost its games: each lost game replayed with a judge's evaluation.

usage: scripts/gomoku-turning-points.py --judge ENGINE --engine NAME [--turn-ms 300]
           [--games N] [--drop 300] RECORDS.jsonl ...

For every game in the `qilin match --results` records that NAME lost, asks the judge (a
Piskvork engine, e.g. Rapfi with its classical evaluation from
scripts/build-gomoku-sparring.sh) for its evaluation before each of NAME's moves after the
opening, with NAME to move, and again after the move, and reports the move after which the
judge's evaluation for NAME fell the most: the turning point. The judge's own move there is
printed beside NAME's. A fall of DROP or more, or from a playable position to a lost one (the
judge finds a win for the opponent), is counted as a blunder; the closing lines count them
and the plies at which they came. Evaluations are the judge's units, from NAME's side; a
found win is +/-100000.
"""
import argparse
import importlib.util
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from match_records import records  # noqa: E402

_spec = importlib.util.spec_from_file_location(
    "balanced_openings", os.path.join(HERE, "gomoku-balanced-openings.py"))
_openings = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_openings)
Engine = _openings.Engine

WIN = 100000
EVAL = re.compile(r"(?:\|\s*Eval|\bev)\s+([-+]?)(M?)(\d+)")


def parse_eval(lines):
    """The last evaluation in the judge's MESSAGE lines, signed, wins as +/-WIN."""
    value = None
    for line in lines:
        if not line.startswith("MESSAGE"):
            continue
        for m in EVAL.finditer(line):
            sign = -1 if m.group(1) == "-" else 1
            value = sign * (WIN if m.group(2) else int(m.group(3)))
    return value


def point(text):
    x, y = text.split(",")
    return int(x), int(y)


def ask(engine, size, rule, turn_ms, moves):
    """The judge's evaluation (side to move) and move for the position after `moves`."""
    engine.send("RESTART")
    engine.until(lambda l: l.strip() == "OK", 10)
    engine.send(f"INFO rule {rule}")
    engine.send(f"INFO timeout_turn {turn_ms}")
    engine.send("INFO timeout_match 0")
    engine.send("BOARD")
    to_move = len(moves) % 2
    for i, (x, y) in enumerate(moves):
        engine.send(f"{x},{y},{1 if i % 2 == to_move else 2}")
    engine.send("DONE")
    lines = engine.until(lambda l: re.fullmatch(r"\d+,\d+", l.strip()) is not None,
                         turn_ms / 1000 * 5 + 10)
    # Rapfi can drop a command sent at once after its move (see gomoku-balanced-openings.py).
    _openings.time.sleep(0.1)
    return parse_eval(lines), lines[-1].strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--judge", required=True)
    ap.add_argument("--engine", required=True, help="the engine whose losses are examined")
    ap.add_argument("--turn-ms", type=int, default=300)
    ap.add_argument("--games", type=int, default=0, help="at most this many lost games (0: all)")
    ap.add_argument("--drop", type=int, default=300)
    ap.add_argument("records", nargs="+")
    args = ap.parse_args()

    lost = []
    for r in records(args.records):
        colour = "black" if r["black"] == args.engine else "white" if r["white"] == args.engine else None
        if colour is None:
            continue
        if (colour == "black" and r["result"] == "0-1") or (colour == "white" and r["result"] == "1-0"):
            lost.append((r, colour))
    if args.games:
        lost = lost[:args.games]
    if not lost:
        print(f"no lost games of {args.engine}")
        return 0

    engine = None
    size = None
    blunders = []
    try:
        for r, colour in lost:
            if engine is None or size != r["width"]:
                if engine is not None:
                    engine.close()
                size = r["width"]
                engine = Engine(args.judge.split())
                engine.send(f"START {size}")
                engine.until(lambda l: l.strip() == "OK", 10)
            moves = [point(m) for m in r["moves"].split()]
            first = 0 if colour == "black" else 1
            worst = None
            for ply in range(max(r["book_plies"], 0), len(moves)):
                if ply % 2 != first:
                    continue
                before, best = ask(engine, size, r["rule"], args.turn_ms, moves[:ply])
                if ply + 1 >= len(moves):
                    break
                after_theirs, _ = ask(engine, size, r["rule"], args.turn_ms, moves[:ply + 1])
                if before is None or after_theirs is None:
                    continue
                after = -after_theirs
                fall = before - after
                if worst is None or fall > worst[0]:
                    worst = (fall, ply, before, after, best)
                if before > -WIN // 2 and after <= -WIN // 2:
                    break
            if worst is None:
                print(f"game {r['game']}: no evaluation")
                continue
            fall, ply, before, after, best = worst
            played = "{},{}".format(*moves[ply])
            blunder = fall >= args.drop or (before > -WIN // 2 and after <= -WIN // 2)
            if blunder:
                blunders.append(ply)
            print(f"game {r['game']} ({colour}, {len(moves)} plies): ply {ply + 1} "
                  f"played {played}, judge {best}: {before} -> {after}"
                  + ("  BLUNDER" if blunder else ""))
            sys.stdout.flush()
    finally:
        if engine is not None:
            engine.close()
    print(f"{len(blunders)} blunders in {len(lost)} lost games"
          + (f", at plies {sorted(p + 1 for p in blunders)}" if blunders else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
