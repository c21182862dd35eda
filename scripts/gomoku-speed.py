#!/usr/bin/env python3
"""Side-by-side speed of Piskvork engines: nodes per second and depth at a fixed time.

usage: scripts/gomoku-speed.py --engine NAME=CMD [--engine NAME=CMD ...] [--turn-ms 1000]
           [--repeat 1] [--cpu N]

Gives every engine the same positions (the move-sequence positions of `qilin bench gomoku`:
15x15 and 20x20 freestyle, 15x15 standard and renju; caro and the renju puzzles given as stone
lists are left out, as not every engine plays caro), one at a time, with TURN_MS of thought on
an otherwise empty match clock, and reads its closing report: Qilin's last
'MESSAGE depth D-S ev E n N n/s R tm T' line, Rapfi's 'MESSAGE Speed R | Depth D-S | ... |
Node N | Time T' line. Prints a row per position and engine, then per engine the total nodes
over the total time searched (nodes/s) and the median depth. Engines run one after the other,
never together; --cpu pins each (taskset) to one core, so that both see the same machine.
Only ratios taken in one run mean anything on a shared machine.

Example (Rapfi classical from scripts/build-gomoku-sparring.sh):
    scripts/gomoku-speed.py --cpu 1 --engine qilin=target/release/qilin \\
        --engine rapfi=/path/to/rapfi/Rapfi/build/pbrain-rapfi
"""
import argparse
import importlib.util
import os
import re
import shlex
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "balanced_openings", os.path.join(HERE, "gomoku-balanced-openings.py"))
_openings = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_openings)
Engine = _openings.Engine

# (description, board side, Piskvork rule number, moves alternating from black): the
# move-sequence entries of BENCH_POSITIONS in src/gomoku/search/bench.rs.
POSITIONS = [
    ("15 freestyle, opening", 15, 0, "7,7 8,8 7,10"),
    ("15 freestyle, middle game", 15, 0, "7,5 5,6 5,5 8,5 6,4 4,6 6,6 4,4"),
    ("20 freestyle, opening", 20, 0, "3,2 4,1 7,1"),
    ("20 freestyle, middle game", 20, 0, "10,8 8,9 8,8 9,8 7,10 9,7 9,9 11,7"),
    ("15 standard, middle game", 15, 1, "7,5 5,6 5,5 4,5 6,7 6,4 7,7 4,4"),
    ("15 renju, opening", 15, 4, "7,7 7,6 8,6"),
    ("15 renju, middle game", 15, 4,
     "7,5 5,6 5,5 6,4 6,7 8,5 4,7 4,8 4,4 3,6 6,6 7,7 3,3 2,2 2,4 2,6"),
]

SUFFIX = {"": 1, "K": 1e3, "M": 1e6, "G": 1e9}
QILIN = re.compile(r"depth (\d+)-\d+ .*\bn (\d+) n/s (\d+) tm (\d+)")
RAPFI = re.compile(
    r"Speed ([\d.]+)([KMG]?) \| Depth (\d+)-\d+ .*\| Node ([\d.]+)([KMG]?) \| Time ([\d.]+)(ms|s)")


def parse_report(lines):
    """(depth, nodes, elapsed ms) from the last report line of either form, or None."""
    found = None
    for line in lines:
        if not line.startswith("MESSAGE"):
            continue
        m = QILIN.search(line)
        if m:
            found = (int(m.group(1)), int(m.group(2)), int(m.group(4)))
            continue
        m = RAPFI.search(line)
        if m:
            nodes = float(m.group(4)) * SUFFIX[m.group(5)]
            ms = float(m.group(6)) * (1000 if m.group(7) == "s" else 1)
            found = (int(m.group(3)), int(nodes), int(ms))
    return found


def think(engine, size, rule, turn_ms, moves):
    """The engine's report after TURN_MS on the position after `moves` (a fresh game)."""
    engine.send(f"START {size}")
    engine.until(lambda l: l.strip() == "OK", 30)
    engine.send(f"INFO rule {rule}")
    engine.send(f"INFO timeout_turn {turn_ms}")
    engine.send("INFO timeout_match 0")
    stones = moves.split()
    to_move = len(stones) % 2
    engine.send("BOARD")
    for i, cell in enumerate(stones):
        engine.send(f"{cell},{1 if i % 2 == to_move else 2}")
    engine.send("DONE")
    lines = engine.until(lambda l: re.fullmatch(r"\d+,\d+", l.strip()) is not None,
                         turn_ms / 1000 * 5 + 10)
    time.sleep(0.1)
    return parse_report(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", action="append", required=True, help="NAME=COMMAND")
    ap.add_argument("--turn-ms", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=1, help="times each position is searched")
    ap.add_argument("--cpu", type=int, help="pin every engine to this core (taskset)")
    args = ap.parse_args()

    engines = []
    for spec in args.engine:
        name, sep, cmd = spec.partition("=")
        if not sep or not cmd:
            sys.exit(f"--engine wants NAME=COMMAND, got {spec!r}")
        argv = shlex.split(cmd)
        if args.cpu is not None:
            argv = ["taskset", "-c", str(args.cpu)] + argv
        engines.append((name, argv))

    totals = {name: [0, 0, []] for name, _ in engines}
    print(f"{'position':28} {'engine':10} {'depth':>5} {'nodes':>10} {'ms':>6} {'nodes/s':>10}")
    for desc, size, rule, moves in POSITIONS:
        for name, argv in engines:
            engine = Engine(argv)
            try:
                for _ in range(args.repeat):
                    report = think(engine, size, rule, args.turn_ms, moves)
                    if report is None:
                        print(f"{desc:28} {name:10} no report")
                        continue
                    depth, nodes, ms = report
                    total = totals[name]
                    total[0] += nodes
                    total[1] += ms
                    total[2].append(depth)
                    rate = nodes * 1000 // max(ms, 1)
                    print(f"{desc:28} {name:10} {depth:5} {nodes:10} {ms:6} {rate:10}",
                          flush=True)
            finally:
                engine.close()
    print()
    print(f"{'engine':10} {'nodes/s':>10} {'median depth':>13} {'positions':>10}")
    for name, _ in engines:
        nodes, ms, depths = totals[name]
        rate = nodes * 1000 // max(ms, 1)
        median = statistics.median(depths) if depths else 0
        print(f"{name:10} {rate:10} {median:13} {len(depths):10}")


if __name__ == "__main__":
    main()
