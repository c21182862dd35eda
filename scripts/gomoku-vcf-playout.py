#!/usr/bin/env python3
"""Plays out renju VCF puzzles: the attacker engine must win against a strong defence.

Each puzzle of data/gomoku/renju-vcf-*.tsv gives black and white stones and the side to move,
which has a VCF. The attacker (the engine under test) gets the position with `BOARD` and
moves under `INFO timeout_turn` (1 s by default). After each attacker move: a five ends the
puzzle (solved); a four (a point that would complete the attacker's five) gets its forced
block; any other move is answered by the defending engine (`--defender`, for example
Rapfi). The puzzle fails when the attacker plays a forbidden point (black under renju,
judged by `qilin referee gomoku`), runs past --max-moves, or the defender makes five first.
Every finished game is replayed with the referee, which must agree.

    python3 scripts/gomoku-vcf-playout.py --attacker target/release/qilin \\
        --defender ../sparring/rapfi/pbrain-rapfi --set black --count 50

Run it again with `--attacker ../sparring/rapfi/pbrain-rapfi` for the comparison: the
script prints solved, forbidden moves and the attacker's total thinking time.
"""

import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data", "gomoku")
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


def load(name, count, first):
    path = os.path.join(DATA, "renju-vcf-%s.tsv" % name)
    puzzles = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("#") or not line.strip():
                continue
            f = line.rstrip("\n").split("\t")
            black = [tuple(map(int, p.split(","))) for p in f[4].split()]
            white = [tuple(map(int, p.split(","))) for p in f[5].split()]
            puzzles.append((f[0], int(f[1]), f[3], black, white))
    return puzzles[first:first + count]


def run_length(stones, point, colour):
    """Longest run of `colour` through `point` if it held a `colour` stone."""
    best = 0
    x, y = point
    for dx, dy in DIRECTIONS:
        run = 1
        for sign in (1, -1):
            k = 1
            while stones.get((x + sign * k * dx, y + sign * k * dy)) == colour:
                run += 1
                k += 1
        best = max(best, run)
    return best


def makes_five(stones, point, colour):
    run = run_length(stones, point, colour)
    return run == 5 if colour == "b" else run >= 5


def five_points(stones, colour, size):
    return [(x, y) for x in range(size) for y in range(size)
            if (x, y) not in stones and makes_five(stones, (x, y), colour)]


class Engine:
    def __init__(self, command, size, turn_ms):
        command = os.path.abspath(command)
        self.proc = subprocess.Popen(
            [command], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1,
            cwd=os.path.dirname(os.path.abspath(command)))
        self.send("INFO rule 4")
        self.send("START %d" % size)
        self.read_until_ok()
        self.send("INFO timeout_turn %d" % turn_ms)
        self.send("INFO timeout_match 0")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until_ok(self):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            if line.strip() == "OK":
                return

    def move(self, order, own):
        """Sends the position (stones in move order, black first) and reads the move."""
        time.sleep(0.005)
        self.send("BOARD")
        for (x, y), colour in order:
            self.send("%d,%d,%d" % (x, y, 1 if colour == own else 2))
        self.send("DONE")
        start = time.time()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            line = line.strip()
            if not line or line.split(" ")[0] in ("MESSAGE", "DEBUG"):
                continue
            x, y = line.split(",")
            return (int(x), int(y)), time.time() - start

    def close(self):
        try:
            self.send("END")
            self.proc.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


def referee_verdict(qilin, size, black, white, played):
    """The referee's verdict on the puzzle's stones (set up) followed by the played moves."""
    text = lambda points: " ".join("%d,%d" % p for p in points)
    out = subprocess.run([qilin, "referee", "gomoku", "--size", str(size), "--rule", "renju",
                          "--black", text(black), "--white", text(white),
                          "--moves", text(p for p, _ in played)],
                         capture_output=True, text=True, check=False)
    return out.stdout.strip() or out.stderr.strip()


def interleave(black, white):
    """The stones as a move order starting with black (the puzzles have equal counts when
    black is to move, one more black when white is)."""
    order = []
    for i in range(max(len(black), len(white))):
        if i < len(black):
            order.append((black[i], "b"))
        if i < len(white):
            order.append((white[i], "w"))
    return order


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--attacker", required=True)
    parser.add_argument("--defender", required=True)
    parser.add_argument("--qilin", default="target/release/qilin", help="for the referee")
    parser.add_argument("--set", default="black", choices=["black", "intro"])
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--turn-ms", type=int, default=1000)
    parser.add_argument("--max-moves", type=int, default=40)
    args = parser.parse_args()

    puzzles = load(args.set, args.count, args.first)
    solved = forbidden = failed = 0
    think = 0.0
    start = time.time()
    for pid, size, side, black, white in puzzles:
        attacker = Engine(args.attacker, size, args.turn_ms)
        defender = Engine(args.defender, size, 1000)
        order = interleave(black, white)
        setup = len(order)
        stones = {p: c for p, c in order}
        me = "b" if side == "black" else "w"
        them = "w" if me == "b" else "b"
        result = "unfinished"
        for _ in range(args.max_moves):
            move, seconds = attacker.move(order, me)
            think += seconds
            if move in stones:
                result = "occupied %s" % (move,)
                break
            order.append((move, me))
            stones[move] = me
            if makes_five(stones, move, me):
                result = "five"
                break
            threats = five_points(stones, me, size)
            if threats:
                reply = threats[0]
            else:
                reply, _ = defender.move(order, them)
            if reply in stones:
                result = "defender error"
                break
            order.append((reply, them))
            stones[reply] = them
            if makes_five(stones, reply, them):
                result = "defender five"
                break
        verdict = referee_verdict(args.qilin, size, black, white, order[setup:])
        attacker.close()
        defender.close()
        if result == "five" and verdict.startswith("result: %s-wins reason: five"
                                                   % ("black" if me == "b" else "white")):
            solved += 1
        elif "wins reason: " in verdict and "five" not in verdict:
            forbidden += 1
            print("puzzle %s: forbidden move (%s)" % (pid, verdict))
        else:
            failed += 1
            print("puzzle %s: %s (%s)" % (pid, result, verdict))
    total = len(puzzles)
    print("%s: solved %d of %d (%.1f%%), forbidden moves %d, failed %d; attacker thinking "
          "%.1f s, wall %.1f s" % (os.path.basename(args.attacker), solved, total,
                                   100.0 * solved / max(total, 1), forbidden, failed, think,
                                   time.time() - start))
    return 0 if solved == total else 1


if __name__ == "__main__":
    sys.exit(main())
