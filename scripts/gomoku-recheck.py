#!/usr/bin/env python3
"""Re-checks every game of a `qilin match --game gomoku --results FILE` with the referee.

For each JSON line the moves are replayed with `qilin referee gomoku` on the game's board
and rule. A game decided by the rules (five, overline, double-four, double-three,
full-board) must get the same result and reason from the referee; a game lost by a
forfeit (timeout, crash, illegal-move, ...) must be ongoing after its recorded moves,
except an illegal-move forfeit, whose last recorded move is the legal one before it.

    python3 scripts/gomoku-recheck.py --qilin target/release/qilin results.jsonl ...

Prints one line per disagreement and a summary; exit status 1 when any game disagrees.
"""

import argparse
import json
import subprocess
import sys

RULE_REASONS = {"five", "overline", "double-four", "double-three", "full-board"}


def referee(qilin, game):
    command = [qilin, "referee", "gomoku", "--rect", "%d,%d" % (game["width"], game["height"]),
               "--rule", str(game["rule"]), "--moves", game["moves"]]
    out = subprocess.run(command, capture_output=True, text=True, check=False)
    return out.returncode, out.stdout.strip(), out.stderr.strip()


def expected_line(game):
    reason = game["reason"]
    if game["result"] == "1/2-1/2":
        return "result: draw reason: %s" % reason
    winner = "black" if game["result"] == "1-0" else "white"
    return "result: %s-wins reason: %s" % (winner, reason)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--qilin", default="target/release/qilin")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    checked = bad = 0
    reasons = {}
    for path in args.files:
        with open(path, encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                game = json.loads(line)
                checked += 1
                reasons[game["reason"]] = reasons.get(game["reason"], 0) + 1
                status, verdict, error = referee(args.qilin, game)
                if game["reason"] in RULE_REASONS:
                    want = expected_line(game)
                else:
                    want = "result: ongoing"
                if status != 0 or verdict != want:
                    bad += 1
                    print("%s:%d game %s: record says '%s' (%s), referee says '%s' %s"
                          % (path, number, game["game"], want, game["reason"], verdict, error))
    print("re-checked %d games, %d disagreements; reasons %s"
          % (checked, bad, ", ".join("%s %d" % kv for kv in sorted(reasons.items()))))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
