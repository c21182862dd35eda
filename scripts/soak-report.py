#!/usr/bin/env python3
"""The soak test's report: for each setting, games played, crashes, time losses, illegal
moves and other engine failures (from the `reason` of each record), and each engine's
peak resident memory (from the GNU time lines `name:KB` in <setting>.mem).

usage: scripts/soak-report.py OUT_DIR SETTING [SETTING ...]
Exit status 1 when any game ended by a crash, a time loss or an illegal move.
"""
import json
import os
import sys

FAILURES = {
    "crash": "crashes",
    "start-failure": "crashes",
    "timeout": "time losses",
    "illegal-move": "illegal moves",
    "garbage": "protocol errors",
}


def main(args):
    if any(a in ("-h", "--help") for a in args):
        print(__doc__.strip())
        return 0
    if len(args) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out, settings = args[0], args[1:]
    bad = False
    for setting in settings:
        path = os.path.join(out, setting + ".jsonl")
        counts = {"crashes": 0, "time losses": 0, "illegal moves": 0, "protocol errors": 0}
        games = 0
        details = []
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                for line in f:
                    if not line.strip():
                        continue
                    record = json.loads(line)
                    games += 1
                    kind = FAILURES.get(record.get("reason", ""))
                    if kind:
                        counts[kind] += 1
                        details.append(f"game {record.get('game')}: {record.get('reason')}"
                                       f" {record.get('detail', '')}")
        peaks = {}
        mem = os.path.join(out, setting + ".mem")
        if os.path.exists(mem):
            with open(mem, encoding="utf-8") as f:
                for line in f:
                    name, _, kb = line.strip().rpartition(":")
                    if name and kb.isdigit():
                        peaks[name] = max(peaks.get(name, 0), int(kb))
        memory = ", ".join(f"{n} {kb / 1024:.1f} MB" for n, kb in sorted(peaks.items()))
        failures = ", ".join(f"{v} {k}" for k, v in counts.items())
        print(f"{setting}: {games} games; {failures}; peak memory {memory or 'n/a'}")
        for d in details[:10]:
            print("   ", d)
        if counts["crashes"] or counts["time losses"] or counts["illegal moves"]:
            bad = True
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
