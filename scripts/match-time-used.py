#!/usr/bin/env python3
"""Time used per move by each engine, and losses on time, from `qilin match --results` records.

usage: scripts/match-time-used.py RESULTS.jsonl [more.jsonl ...]

For Xiangqi records (red/black): each side's `<colour>_time_ms` over the moves it made (the
side to move in `fen` made the first one). For Gomoku records (black/white): the same over the
stones each engine placed after the opening's `book_plies` (black places the first stone of an
empty board). Prints one line per engine:
    NAME: M moves, A ms a move, T time losses in G games
A time loss is a game ended for the `timeout` reason and lost by that engine.
"""
import sys

from match_records import records


def main(paths):
    if any(a in ("-h", "--help") for a in paths):
        print(__doc__.strip())
        return 0
    if not paths:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    totals = {}
    for g in records(paths):
        if "red" in g:
            sides = ("red", "black")
            plies = len(g["moves"].split())
            first_to_move = 1 if g["fen"].split()[1] == "b" else 0
        elif "black" in g:
            sides = ("black", "white")
            plies = len(g["moves"].split()) - g.get("book_plies", 0)
            first_to_move = g.get("book_plies", 0) % 2
        else:
            continue
        first, second = (plies + 1) // 2, plies // 2
        counts = [0, 0]
        counts[first_to_move], counts[1 - first_to_move] = first, second
        for index, colour in enumerate(sides):
            name = g[colour]
            t = totals.setdefault(name, {"ms": 0, "moves": 0, "games": 0, "lost": 0})
            t["ms"] += g[f"{colour}_time_ms"]
            t["moves"] += counts[index]
            t["games"] += 1
            lost = "0-1" if index == 0 else "1-0"
            if g.get("reason") == "timeout" and g.get("result") == lost:
                t["lost"] += 1
    for name, t in totals.items():
        per_move = t["ms"] / max(1, t["moves"])
        print(f"{name}: {t['moves']} moves, {per_move:.1f} ms a move, "
              f"{t['lost']} time losses in {t['games']} games")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
