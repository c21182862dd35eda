#!/usr/bin/env python3
"""How long Qilin takes to answer a move at a fixed time per move, with many search threads.

usage: scripts/move-latency.py [--game xiangqi|gomoku] [--threads N] [--moves M]
                               [--movetime MS] [--qilin PATH] [--keep DIR]

Plays Qilin against itself with `qilin match` (one game at a time, `--log`), Xiangqi over UCI
at `go movetime MS` with `option.Threads=N`, or Gomoku 15x15 freestyle at `--turn-time MS`
(`INFO timeout_turn`) with `option.thread_num=N`, until at least M moves were played. Each
move is timed from the runner's protocol log: from the line that asks for a move (`go`,
`BEGIN`, `TURN`, or the `DONE` of a `BOARD` block) to the answer (`bestmove`, or `x,y`), as
the reader thread stamped them (1 ms resolution). Prints the number of moves, the mean and
the maximum, and how many took longer than MS. Threads default to four per core
(`os.cpu_count()`), moves to 200, the time to 100 ms.

This is a benchmark, not a test: its figures depend on the machine and its load.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ASK = re.compile(r"^(go\b|BEGIN$|TURN |DONE$)")
ANSWER = re.compile(r"^(bestmove\b|\d+,\d+$)")
LINE = re.compile(r"^(\d+)\.(\d{3}) (\S+) ([<>!]) (.*)$")


def move_times(log_path):
    """Milliseconds from each request of a move to its answer, per engine process."""
    asked = {}
    times = []
    with open(log_path) as log:
        for line in log:
            m = LINE.match(line.rstrip("\n"))
            if not m:
                continue
            ms = int(m.group(1)) * 1000 + int(m.group(2))
            who, direction, text = m.group(3), m.group(4), m.group(5)
            if direction == ">" and ASK.match(text):
                asked[who] = ms
            elif direction == "<" and ANSWER.match(text) and who in asked:
                times.append(ms - asked.pop(who))
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=["xiangqi", "gomoku"], default="xiangqi")
    parser.add_argument("--threads", type=int, default=4 * (os.cpu_count() or 1))
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--movetime", type=int, default=100)
    parser.add_argument("--qilin", default="target/release/qilin")
    parser.add_argument("--keep", help="folder for the match log and records (kept)")
    args = parser.parse_args()
    qilin = os.path.abspath(args.qilin)
    out = args.keep or tempfile.mkdtemp(prefix="move-latency-")
    os.makedirs(out, exist_ok=True)
    log = os.path.join(out, "match.log")
    # Short games, so that the moves come from several openings.
    plies = 40
    games = max(2, -(-args.moves // plies))
    if args.game == "xiangqi":
        engine = f"cmd={qilin} proto=uci option.Threads={args.threads}"
        game_args = ["--movetime", str(args.movetime)]
    else:
        engine = f"cmd={qilin} proto=piskvork option.thread_num={args.threads}"
        game_args = ["--game", "gomoku", "--size", "15", "--turn-time", str(args.movetime)]
    times = []
    rounds = 0
    while len(times) < args.moves and rounds < 20:
        rounds += 1
        command = [qilin, "match", *game_args,
                   "--engine", "name=a", *engine.split(),
                   "--engine", "name=b", *engine.split(),
                   "--games", str(games), "--maxplies", str(plies),
                   "--seed", str(rounds), "--concurrency", "1", "--log", log,
                   "--results", os.path.join(out, f"results-{rounds}.jsonl")]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times += move_times(log)
    if not times:
        sys.exit("no moves were timed")
    late = sum(1 for t in times if t > args.movetime)
    print(f"{args.game}, {args.threads} threads, {args.movetime} ms a move: {len(times)} moves, "
          f"mean {sum(times) / len(times):.1f} ms, max {max(times)} ms, "
          f"{late} over {args.movetime} ms")
    if args.keep:
        print(f"log and records in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
