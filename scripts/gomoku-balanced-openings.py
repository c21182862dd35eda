#!/usr/bin/env python3
"""Balanced Gomoku openings judged by an engine, for held-out gauntlets.

usage: scripts/gomoku-balanced-openings.py --judge ENGINE [--size 15] [--rule 0] [--count 100]
           [--stones 3..5] [--window 7] [--turn-ms 1000] [--max-eval 60] [--seed 1]
           [--exclude FILE ...] > openings.txt

Draws random openings (STONES stones, alternating black and white, inside the WINDOW x WINDOW
square at the centre of the board; a range like 3..5 draws the count too), asks the judge (a
Piskvork engine, e.g. Rapfi with its classical evaluation from scripts/build-gomoku-sparring.sh)
for its evaluation of each after TURN_MS of thought, and keeps those whose evaluation is within
MAX_EVAL of zero (the judge's own units; Rapfi's 'Eval' of its closing 'MESSAGE Speed ...'
line, or Qilin's 'ev' of its last 'MESSAGE depth' line). Openings equal, up to the board's
eight symmetries, to one already kept or to one in an --exclude file (the repository's files,
so that the output is held out) are skipped. Output: one opening a line in the Piskvork
manager's format that `qilin match --openings` reads (offsets from the centre), with the
judge's evaluation as a comment line before it.
"""
import argparse
import random
import re
import subprocess
import sys
import threading
import time
import queue

EVAL_PATTERNS = [re.compile(r"\|\s*Eval\s+(-?\d+)"), re.compile(r"\bev\s+(-?\d+)\b")]
MATE_PATTERN = re.compile(r"\bev\s+[-+]?M|\bEval\s+[-+]?M", re.I)


class Engine:
    """A Piskvork engine driven one command at a time."""

    def __init__(self, cmd, cwd=None):
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1,
                                     cwd=cwd)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def until(self, predicate, timeout):
        """Lines up to and including the first one `predicate` accepts."""
        seen = []
        while True:
            line = self.lines.get(timeout=timeout)
            if line is None:
                raise RuntimeError("the judge exited; last lines: " + " / ".join(seen[-5:]))
            seen.append(line)
            if predicate(line):
                return seen

    def close(self):
        try:
            self.send("END")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


def symmetries(stones):
    """The eight images of a list of (dx, dy) offsets, each as a sorted tuple per colour."""
    images = []
    for fx, fy, swap in [(a, b, s) for a in (1, -1) for b in (1, -1) for s in (False, True)]:
        image = []
        for i, (x, y) in enumerate(stones):
            x, y = (y, x) if swap else (x, y)
            image.append((i % 2, fx * x, fy * y))
        images.append(tuple(sorted(image)))
    return images


def canonical(stones):
    return min(symmetries(stones))


def read_openings(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#")[0].strip()
            if not line:
                continue
            numbers = [int(t) for t in re.findall(r"-?\d+", line)]
            yield list(zip(numbers[0::2], numbers[1::2]))


def judge(engine, size, rule, turn_ms, stones):
    centre = size // 2
    engine.send("RESTART")
    engine.until(lambda l: l.strip() == "OK", 10)
    engine.send(f"INFO rule {rule}")
    engine.send(f"INFO timeout_turn {turn_ms}")
    engine.send("INFO timeout_match 0")
    to_move = len(stones) % 2  # 0: black to move, 1: white
    engine.send("BOARD")
    for i, (x, y) in enumerate(stones):
        engine.send(f"{centre + x},{centre + y},{1 if i % 2 == to_move else 2}")
    engine.send("DONE")
    lines = engine.until(lambda l: re.fullmatch(r"\d+,\d+", l.strip()) is not None,
                         turn_ms / 1000 * 5 + 10)
    # Rapfi can drop a command that arrives just after its move, while its search thread
    # winds down (a RESTART then never gets its OK): give it a moment.
    time.sleep(0.1)
    value = None
    for line in lines:
        if not line.startswith("MESSAGE"):
            continue
        if MATE_PATTERN.search(line):
            value = 10**6
        for pattern in EVAL_PATTERNS:
            m = pattern.search(line)
            if m:
                value = int(m.group(1))
    return value


def parse_range(text):
    if ".." in text:
        lo, hi = text.split("..")
        return int(lo), int(hi)
    return int(text), int(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--judge", required=True, help="Piskvork engine command")
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--rule", type=int, default=0)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--stones", default="3..5")
    ap.add_argument("--window", type=int, default=7)
    ap.add_argument("--turn-ms", type=int, default=1000)
    ap.add_argument("--max-eval", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--exclude", action="append", default=[])
    ap.add_argument("--max-tries", type=int, default=0, help="give up after this many (0: 50 x count)")
    args = ap.parse_args()

    seen = set()
    for path in args.exclude:
        for stones in read_openings(path):
            seen.add(canonical(stones))
    rng = random.Random(args.seed)
    lo, hi = parse_range(args.stones)
    half = args.window // 2
    engine = Engine(args.judge.split())
    engine.send(f"START {args.size}")
    engine.until(lambda l: l.strip() == "OK", 10)
    kept = tries = 0
    max_tries = args.max_tries or 50 * args.count
    try:
        while kept < args.count and tries < max_tries:
            tries += 1
            n = rng.randint(lo, hi)
            cells = [(dx, dy) for dx in range(-half, half + 1) for dy in range(-half, half + 1)]
            stones = rng.sample(cells, n)
            key = canonical(stones)
            if key in seen:
                continue
            seen.add(key)
            value = judge(engine, args.size, args.rule, args.turn_ms, stones)
            if value is None or abs(value) > args.max_eval:
                continue
            kept += 1
            print(f"# judge eval {value} (side to move), try {tries}")
            print(", ".join(f"{x},{y}" for x, y in stones))
            sys.stdout.flush()
            print(f"{kept}/{args.count} kept after {tries} tries", file=sys.stderr)
    finally:
        engine.close()
    return 0 if kept == args.count else 1


if __name__ == "__main__":
    sys.exit(main())
