#!/usr/bin/env python3
"""Compares Qilin's renju forbidden points with an independent engine's (Rapfi).

For every position, `qilin referee gomoku --rule renju --forbidden` lists black's forbidden
points; the engine gets the same stones through Piskvork `YXBOARD` (stones in move order,
black first, so that black is to move) and answers `YXSHOWFORBID` with `FORBID xxyy...`.
Any difference is printed with the position; the exit status is 1 when there is one.

Positions: random games of 10-60 stones played near the centre (seeded; a game is dropped
when the referee says it ended, by a five or by a forbidden black move on the way), the
rule check of GomocupJudge in data/gomoku/rule-checks.txt, and the renju VCF puzzles in
data/gomoku/ (stones interleaved black, white, ...; black to move in every one of them).

The engine is a test oracle built by the user, never a dependency of the project:
    python3 scripts/renju-forbid-crosscheck.py --qilin target/release/qilin \
        --engine ../sparring/rapfi/pbrain-rapfi --positions 2000 --seed 1
Rapfi reports forbidden points only with black to move and takes the first stone of a
board as black; it can miss a command sent in the same instant as its previous answer, so
the script waits a few milliseconds between positions.

Positions where black to move already has a five point are skipped unless --keep-fives is
given: black wins at once there, so no forbidden point matters, and the two programs read
one corner of the rule differently in them. Rapfi counts a three as real only when its
straight-four point makes a flex four or a five on the same line, not when the point also
makes a five on another line; Qilin follows the rule text (the point is not forbidden, so
the three is real). That case needs a black four already on the board.
"""

import argparse
import os
import random
import subprocess
import sys
import time

SIZE = 15
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data", "gomoku")


def has_five(stones, x, y, colour):
    """True when (x, y), of `colour`, is in a run of five or more (either rule's five)."""
    for dx, dy in DIRECTIONS:
        run = 1
        for sign in (1, -1):
            k = 1
            while stones.get((x + sign * k * dx, y + sign * k * dy)) == colour:
                run += 1
                k += 1
        if run >= 5:
            return True
    return False


def black_has_five(moves):
    """True when black (to move) makes exactly five somewhere with one stone."""
    stones = {m: i % 2 for i, m in enumerate(moves)}
    for x in range(SIZE):
        for y in range(SIZE):
            if (x, y) in stones:
                continue
            for dx, dy in DIRECTIONS:
                run = 1
                for sign in (1, -1):
                    k = 1
                    while stones.get((x + sign * k * dx, y + sign * k * dy)) == 0:
                        run += 1
                        k += 1
                if run == 5:
                    return True
    return False


def random_game(rng):
    """A move list of 10-60 stones, even length (black to move), with no five on the way."""
    target = rng.randrange(10, 61)
    target -= target % 2
    radius = rng.choice((4, 5, 6))
    stones = {}
    moves = []
    attempts = 0
    while len(moves) < target and attempts < 5000:
        attempts += 1
        x = 7 + rng.randint(-radius, radius)
        y = 7 + rng.randint(-radius, radius)
        if (x, y) in stones:
            continue
        colour = len(moves) % 2
        stones[(x, y)] = colour
        if has_five(stones, x, y, colour):
            del stones[(x, y)]
            continue
        moves.append((x, y))
    if len(moves) % 2:
        moves.pop()
    return moves


def puzzle_games():
    """Black-to-move renju puzzles from data/gomoku, stones interleaved black, white, ..."""
    games = []
    for name in ("renju-vcf-black.tsv", "renju-vcf-intro.tsv"):
        path = os.path.join(DATA, name)
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("#") or not line.strip():
                    continue
                fields = line.rstrip("\n").split("\t")
                if len(fields) < 6 or fields[1] != "15" or fields[3] != "black":
                    continue
                black = [tuple(map(int, p.split(","))) for p in fields[4].split()]
                white = [tuple(map(int, p.split(","))) for p in fields[5].split()]
                if len(black) != len(white):
                    continue
                moves = []
                for b, w in zip(black, white):
                    moves += [b, w]
                games.append(("%s #%s" % (name, fields[0]), moves))
    return games


def rule_check_games():
    """The renju line of rule-checks.txt: GomocupJudge pos strings (letter = x, number = y+1)."""
    games = []
    path = os.path.join(DATA, "rule-checks.txt")
    if not os.path.exists(path):
        return games
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            fields = [f.strip() for f in line.split("|")]
            if line.startswith("#") or len(fields) < 4 or fields[1] != "4":
                continue
            text, moves, i = fields[3], [], 0
            while i < len(text):
                x = ord(text[i]) - ord("a")
                j = i + 1
                while j < len(text) and text[j].isdigit():
                    j += 1
                moves.append((x, int(text[i + 1 : j]) - 1))
                i = j
            # Black to move: drop a trailing black stone if the count is odd.
            if len(moves) % 2:
                moves.pop()
            games.append(("rule-checks " + fields[0], moves))
    return games


def qilin_forbidden(qilin, moves):
    """(verdict line, set of forbidden points) from the referee."""
    text = " ".join("%d,%d" % m for m in moves)
    out = subprocess.run(
        [qilin, "referee", "gomoku", "--size", str(SIZE), "--rule", "renju",
         "--moves", text, "--forbidden"],
        capture_output=True, text=True, check=False,
    )
    if out.returncode != 0:
        raise RuntimeError("referee failed: %s" % out.stderr.strip())
    lines = out.stdout.splitlines()
    verdict = lines[0] if lines else ""
    points = set()
    for line in lines[1:]:
        if line.startswith("forbidden:"):
            for p in line[len("forbidden:"):].split():
                x, y = p.split(",")
                points.add((int(x), int(y)))
    return verdict, points


class Engine:
    """A Piskvork engine process answering YXSHOWFORBID."""

    def __init__(self, command):
        self.proc = subprocess.Popen(
            [command], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1,
            cwd=os.path.dirname(os.path.abspath(command)),
        )
        self.send("INFO rule 4")
        self.send("START %d" % SIZE)
        self.expect("OK")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def expect(self, word):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            line = line.strip()
            if line.split(" ")[0] == word or line.startswith(word):
                return line

    def forbidden(self, moves):
        time.sleep(0.005)
        self.send("START %d" % SIZE)
        self.expect("OK")
        self.send("YXBOARD")
        for index, (x, y) in enumerate(moves):
            self.send("%d,%d,%d" % (x, y, 1 if index % 2 == 0 else 2))
        self.send("DONE")
        self.send("YXSHOWFORBID")
        line = self.expect("FORBID")
        body = line[len("FORBID"):].strip().rstrip(".")
        points = set()
        for i in range(0, len(body) - 3, 4):
            points.add((int(body[i:i + 2]), int(body[i + 2:i + 4])))
        return points

    def close(self):
        try:
            self.send("END")
            self.proc.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--qilin", default="target/release/qilin")
    parser.add_argument("--engine", required=True, help="a Piskvork engine with YXSHOWFORBID")
    parser.add_argument("--positions", type=int, default=2000,
                        help="random positions to compare")
    parser.add_argument("--keep-fives", action="store_true",
                        help="also compare positions where black has a five point")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-data", action="store_true", help="skip the data/gomoku positions")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    games = [] if args.no_data else rule_check_games() + puzzle_games()
    random_count = 0
    engine = Engine(args.engine)
    compared = dropped = skipped = disagreements = with_forbidden = total_points = 0
    random_compared = 0
    start = time.time()
    queue = games[:]
    index = 0
    while queue or random_compared < args.positions:
        index += 1
        if queue:
            label, moves = queue.pop(0)
        else:
            random_count += 1
            label = "random #%d" % random_count
            moves = random_game(rng)
        if not args.keep_fives and black_has_five(moves):
            skipped += 1
            continue
        verdict, ours = qilin_forbidden(args.qilin, moves)
        if verdict != "result: ongoing":
            dropped += 1
            continue
        if label.startswith("random"):
            random_compared += 1
        theirs = engine.forbidden(moves)
        compared += 1
        total_points += len(ours)
        with_forbidden += bool(ours)
        if ours != theirs:
            disagreements += 1
            print("DISAGREE %s: qilin only %s, engine only %s; moves %s" % (
                label, sorted(ours - theirs), sorted(theirs - ours),
                " ".join("%d,%d" % m for m in moves)))
        if index % 250 == 0:
            print("... %d positions compared, %d disagreements" % (compared, disagreements),
                  file=sys.stderr)
    engine.close()
    print("compared %d positions (%d random; %d with forbidden points, %d points in all), "
          "dropped %d finished games, skipped %d with a black five point, "
          "%d disagreements, %.0f s"
          % (compared, random_compared, with_forbidden, total_points, dropped, skipped,
             disagreements, time.time() - start))
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
