#!/usr/bin/env python3
"""Labels Gomoku tuning positions with a judge engine's search: its score and its move.

Reads positions in the `size;rule;moves;result;score` form of `scripts/gomoku-positions.py`
and `gomoku_datagen` (result and score from black's point of view), gives each position to a
Piskvork judge (Rapfi classical, say) with a fixed node count or a fixed turn time, and writes

  --out FILE     the same line with the score replaced by the judge's evaluation, from black's
                 point of view (for `examples/gomoku_tune`); positions where the judge
                 announces a win or a loss are left out, or with --mate-score N written
                 as +-N (the sign of the announced result); positions where it prints no
                 evaluation are left out;
  --policy FILE  the position with the judge's move appended as its last move (for
                 `examples/gomoku_policy_tune`, whose target is a line's last move).

Positions are labelled in input order by --jobs judges side by side (one process each) and
written in input order. RESTART does not clear Rapfi's hash table, so before each position the
judge is told YXHASHCLEAR and its answer awaited: each label then depends on its position
alone, whatever --jobs (--keep-hash skips this, for a judge that does not answer it). The run
resumes: with --resume, the input lines already accounted for in --out's companion progress
file (FILE.done, one count) are skipped.

    scripts/gomoku-label.py --judge /path/to/pbrain-rapfi --nodes 200000 --jobs 2 \\
        --out labelled.txt --policy policy.txt positions.txt
"""

import argparse
import os
import queue
import re
import runpy
import sys
import threading
import time

# The Piskvork engine driver of the balanced-openings script (one command at a time) and its
# patterns for a closing report's evaluation and announced win.
_OPENINGS = runpy.run_path(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "gomoku-balanced-openings.py"),
    run_name="gomoku_balanced_openings")
Engine = _OPENINGS["Engine"]
EVAL_PATTERNS = _OPENINGS["EVAL_PATTERNS"]
MATE = _OPENINGS["MATE_PATTERN"]
MOVE = re.compile(r"(\d+),(\d+)")
# The sign of an announced result: "Eval -M12" is a loss for the side to move.
MATE_SIGN = re.compile(r"\b(?:ev|Eval)\s+([-+]?)M", re.I)


class Judge(Engine):
    """One Piskvork engine process, answering one position at a time."""

    def __init__(self, cmd, size, rule, nodes, turn_ms, clear_hash):
        # Run in the binary's folder: Rapfi reads its config.toml and model files from there.
        folder = os.path.dirname(os.path.abspath(cmd[0])) if os.sep in cmd[0] else None
        super().__init__(cmd, cwd=folder)
        self.size, self.rule, self.nodes, self.turn_ms = size, rule, nodes, turn_ms
        self.clear_hash = clear_hash
        self.send(f"START {size}")
        self.until(lambda line: line.strip() == "OK", 30)

    def label(self, moves):
        """The judge's (evaluation for the side to move or None, mate: +1 for a win the
        judge announces for the side to move, -1 for a loss, 0 for none, move 'x,y')."""
        self.send("RESTART")
        self.until(lambda line: line.strip() == "OK", 30)
        if self.clear_hash:
            self.send("YXHASHCLEAR")
            self.until(lambda line: line.startswith("MESSAGE") and "cleared" in line, 30)
        self.send(f"INFO rule {self.rule}")
        self.send("INFO timeout_match 0")
        if self.nodes:
            self.send("INFO timeout_turn 600000")
            self.send(f"INFO max_node {self.nodes}")
        else:
            self.send(f"INFO timeout_turn {self.turn_ms}")
        self.send("BOARD")
        to_move = len(moves) % 2
        for i, (x, y) in enumerate(moves):
            self.send(f"{x},{y},{1 if i % 2 == to_move else 2}")
        self.send("DONE")
        lines = self.until(lambda line: MOVE.fullmatch(line.strip()) is not None, 600)
        # Rapfi can drop a command that arrives while its search thread winds down.
        time.sleep(0.02)
        value, mate = None, 0
        for line in lines[:-1]:
            if not line.startswith("MESSAGE"):
                continue
            if MATE.search(line):
                sign = MATE_SIGN.search(line)
                mate = -1 if sign and sign.group(1) == "-" else 1
            for pattern in EVAL_PATTERNS:
                m = pattern.search(line)
                if m:
                    value = int(m.group(1))
                    mate = 0
        return value, mate, lines[-1].strip()


def parse(line):
    fields = line.strip().split(";")
    if len(fields) != 5:
        return None
    size, rule, moves, result, _ = fields
    cells = [tuple(int(v) for v in m.split(",")) for m in moves.split()]
    return int(size), int(rule), cells, result


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("positions", help="input positions (size;rule;moves;result;score)")
    ap.add_argument("--judge", required=True, help="Piskvork engine command")
    ap.add_argument("--nodes", type=int, default=0, help="nodes a position (INFO max_node)")
    ap.add_argument("--turn-ms", type=int, default=200, help="time a position without --nodes")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--policy")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--mate-score", type=int, default=0,
                    help="write announced wins and losses as +-N instead of leaving them out")
    ap.add_argument("--keep-hash", action="store_true",
                    help="do not clear the judge's hash table before each position")
    args = ap.parse_args()

    with open(args.positions, encoding="utf-8") as f:
        items = [line.strip() for line in f if line.strip()]
    done_path = args.out + ".done"
    start = 0
    if args.resume and os.path.exists(done_path):
        with open(done_path, encoding="utf-8") as f:
            start = int(f.read().strip() or 0)
    mode = "a" if start else "w"
    out = open(args.out, mode, encoding="utf-8")
    policy = open(args.policy, mode, encoding="utf-8") if args.policy else None

    tasks = queue.Queue()
    for index in range(start, len(items)):
        tasks.put(index)
    results = {}
    lock = threading.Condition()
    errors = []

    def work():
        judges = {}
        try:
            while True:
                try:
                    index = tasks.get_nowait()
                except queue.Empty:
                    return
                parsed = parse(items[index])
                answer = None
                if parsed:
                    size, rule, moves, _ = parsed
                    if (size, rule) not in judges:
                        judges[(size, rule)] = Judge(args.judge.split(), size, rule,
                                                     args.nodes, args.turn_ms,
                                                     not args.keep_hash)
                    answer = judges[(size, rule)].label(moves)
                with lock:
                    results[index] = (parsed, answer)
                    lock.notify_all()
        except Exception as e:  # noqa: BLE001 - reported by the main thread
            with lock:
                errors.append(e)
                lock.notify_all()
        finally:
            for judge in judges.values():
                judge.close()

    workers = [threading.Thread(target=work, daemon=True) for _ in range(args.jobs)]
    for w in workers:
        w.start()
    kept = mates = 0
    began = time.time()
    next_index = start
    while next_index < len(items):
        with lock:
            while next_index not in results and not errors:
                lock.wait()
            if errors:
                raise errors[0]
            parsed, answer = results.pop(next_index)
        if parsed and answer:
            size, rule, moves, result = parsed
            value, mate, move = answer
            black_to_move = len(moves) % 2 == 0
            text = " ".join(f"{x},{y}" for x, y in moves)
            if mate:
                mates += 1
                if args.mate_score:
                    value = mate * args.mate_score
                else:
                    value = None
            if value is not None:
                black = value if black_to_move else -value
                out.write(f"{size};{rule};{text};{result};{black}\n")
                kept += 1
            if policy and MOVE.fullmatch(move):
                policy.write(f"{size};{rule};{(text + ' ' + move).strip()};{result};0\n")
        next_index += 1
        written = next_index - start
        if written % 200 == 0 or next_index == len(items):
            out.flush()
            if policy:
                policy.flush()
            with open(done_path, "w", encoding="utf-8") as f:
                f.write(str(next_index))
            rate = written / max(time.time() - began, 1e-9)
            print(f"{next_index}/{len(items)} positions, {kept} scored, {mates} mates, "
                  f"{rate:.1f}/s", file=sys.stderr, flush=True)
    out.close()
    if policy:
        policy.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
