#!/usr/bin/env python3
"""Mate puzzles from match records, set by a strong UCI engine and put to Qilin.

usage: scripts/xiangqi-mate-check.py --qilin PATH (--judge PATH --records RESULTS.jsonl [...]
                                     | --puzzles FILE) [--max-mate N] [--judge-ms MS]
                                     [--qilin-ms MS] [--limit K] [--out FILE]

For every game of the records that ended in checkmate, the judge (Pikafish-HCE) looks at the
positions 2N-1 plies before the mate, with the winner to move, for N from --max-mate (5) down
to 1, each for --judge-ms (1000) ms; the first position where it announces a mate of its own
(in M <= --max-mate moves) is that game's puzzle. A puzzle is the position's FEN alone (as
Qilin's `d` prints it), without the game's history, so no repetition rule decides it. Qilin is then asked `go mate M` (which must
report `mate in M found` with a mate score of at most M moves) and, from a fresh table,
`go movetime MS` (--qilin-ms, 3000; which must end with a mate score of at most M moves).
Prints each puzzle Qilin misses and the totals; exits 1 if any puzzle is missed by both.
--limit stops after K puzzles; --out FILE writes the puzzles as `FEN;M` lines, which
--puzzles FILE reads back (skipping `#` lines) instead of asking a judge. Both engines speak UCI with ranks 0-9,
as the records do.
"""
import argparse
import sys
import time

import match_records
from match_records import UciEngine


class Uci(UciEngine):
    """A UCI engine asked for searches from bare positions."""

    def search(self, fen, go):
        """The info and bestmove lines of `go` from `fen`, from a fresh table."""
        self.send("ucinewgame")
        self.ask("isready", "readyok")
        self.send(f"position fen {fen}")
        return self.ask(go, "bestmove")

    def fen_after(self, fen, moves):
        """The FEN after `moves` from `fen`, from Qilin's `d`."""
        self.send(f"position fen {fen} moves {' '.join(moves)}".rstrip())
        line = self.ask("d", "FEN: ")[-1]
        return line[len("FEN: "):]


def last_mate(lines):
    """Moves to mate of the last exact mate score in `lines` (positive: the side to move
    mates), or None when the last exact score is not a mate."""
    mate = None
    for line in lines:
        words = line.split()
        if "score" not in words or "lowerbound" in words or "upperbound" in words:
            continue
        i = words.index("score")
        mate = int(words[i + 2]) if words[i + 1] == "mate" else None
    return mate


def within(got, mate):
    """True when `got` (from last_mate) is a mate for the side to move in at most `mate` moves."""
    return got is not None and 0 < got <= mate


def depth_found(lines, mate):
    """The first iteration depth whose exact score is a mate in at most `mate` moves, or None."""
    for line in lines:
        words = line.split()
        if "depth" in words and within(last_mate([line]), mate):
            return int(words[words.index("depth") + 1])
    return None


def puzzles(records, judge, qilin, max_mate, judge_ms):
    """(game, FEN, M) for each checkmate game the judge sets a mate puzzle in."""
    for g in match_records.records(records):
        if g.get("reason") != "checkmate" or "red" not in g:
            continue
        plies = g["moves"].split()
        for n in range(max_mate, 0, -1):
            cut = len(plies) - (2 * n - 1)
            if cut < 0:
                continue
            fen = qilin.fen_after(g["fen"], plies[:cut])
            mate = last_mate(judge.search(fen, f"go movetime {judge_ms}"))
            if within(mate, max_mate):
                yield g["game"], fen, mate
                break


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--judge")
    ap.add_argument("--qilin", required=True)
    ap.add_argument("--records", nargs="+")
    ap.add_argument("--puzzles")
    ap.add_argument("--max-mate", type=int, default=5)
    ap.add_argument("--judge-ms", type=int, default=1000)
    ap.add_argument("--qilin-ms", type=int, default=3000)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--out")
    args = ap.parse_args()
    if not args.puzzles and not (args.judge and args.records):
        ap.error("give --puzzles FILE, or --judge PATH and --records FILE...")

    qilin = Uci(args.qilin, "qilin")
    judge = None if args.puzzles else Uci(args.judge, "judge")
    if args.puzzles:
        with open(args.puzzles, encoding="utf-8") as f:
            rows = [
                line.strip().rsplit(";", 1) for line in f if line.strip() and not line.startswith("#")
            ]
        source = ((i + 1, fen, int(m)) for i, (fen, m) in enumerate(rows))
    else:
        source = puzzles(args.records, judge, qilin, args.max_mate, args.judge_ms)
    total = by_mate = by_time = missed = 0
    depths = []
    slowest = 0.0
    out = open(args.out, "w", encoding="utf-8") if args.out else None
    for game, fen, mate in source:
        total += 1
        if out:
            out.write(f"{fen};{mate}\n")
            out.flush()
        start = time.monotonic()
        lines = qilin.search(fen, f"go mate {mate}")
        took = time.monotonic() - start
        found = any(line == f"info string mate in {mate} found" for line in lines)
        got = last_mate(lines)
        mate_ok = found and within(got, mate)
        if mate_ok:
            slowest = max(slowest, took)
        timed = qilin.search(fen, f"go movetime {args.qilin_ms}")
        got_timed = last_mate(timed)
        depth = depth_found(timed, mate)
        if depth is not None:
            depths.append((depth, mate))
        timed_ok = within(got_timed, mate)
        by_mate += mate_ok
        by_time += timed_ok
        missed += not (mate_ok or timed_ok)
        if not (mate_ok and timed_ok):
            print(
                f"game {game}: judge mate {mate}; go mate: {got if mate_ok else 'missed'}; "
                f"go movetime {args.qilin_ms}: {got_timed}; {fen}"
            )
        if args.limit and total >= args.limit:
            break
    if judge:
        judge.quit()
    qilin.quit()
    print(
        f"{total} puzzles: "
        f"go mate solved {by_mate} (slowest {slowest:.2f} s), "
        f"go movetime {args.qilin_ms} solved {by_time}"
    )
    if depths:
        worst = max(depths, key=lambda d: d[0] - 2 * d[1])
        print(
            f"depth of the first mate in <= M: median {sorted(d for d, _ in depths)[len(depths) // 2]}, "
            f"most beyond 2M plies: depth {worst[0]} for M = {worst[1]}"
        )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
