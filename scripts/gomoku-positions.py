#!/usr/bin/env python3
"""Turns Gomoku match records into tuning positions for the Gomoku tuners.

Reads the JSON lines of `qilin match --game gomoku --results FILE` and writes one line per
position in the `size;rule;moves;result;score` form that `examples/gomoku_tune` (evaluation,
labelled by the game's result) and `examples/gomoku_policy_tune` (move ordering, the last
move of the line is the move played) read. Every position from the first move after the
opening to `--tail` plies before the end is written; only square boards and games decided
on the board (five, full board) are used, as forfeits say nothing about the position.

    python3 scripts/gomoku-positions.py --out positions.txt results.jsonl ...
"""

import argparse
import json
import sys

RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
DECIDED = {"five", "full-board"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="+", help="match result files (JSON lines)")
    parser.add_argument("--out", required=True, help="positions file to write")
    parser.add_argument(
        "--tail", type=int, default=8, help="plies left out at the end of each game (8)"
    )
    parser.add_argument("--rule", type=int, help="only games of this rule number")
    args = parser.parse_args()

    games = positions = skipped = 0
    with open(args.out, "w", encoding="utf-8") as out:
        for path in args.records:
            with open(path, encoding="utf-8") as records:
                for line in records:
                    line = line.strip()
                    if not line:
                        continue
                    try:
                        game = json.loads(line)
                        width, height = game["width"], game["height"]
                        rule = game["rule"]
                        result = RESULTS.get(game["result"])
                        moves = game["moves"].split()
                        book = game["book_plies"]
                    except (ValueError, KeyError, AttributeError):
                        skipped += 1
                        continue
                    if (
                        width != height
                        or result is None
                        or game.get("reason") not in DECIDED
                        or (args.rule is not None and rule != args.rule)
                    ):
                        skipped += 1
                        continue
                    games += 1
                    for plies in range(book + 1, len(moves) - args.tail + 1):
                        out.write(f"{width};{rule};{' '.join(moves[:plies])};{result:g};0\n")
                        positions += 1
    print(f"{games} games, {positions} positions ({skipped} records skipped)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
