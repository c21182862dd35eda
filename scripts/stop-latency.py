#!/usr/bin/env python3
"""How fast Qilin answers `stop`: the time from writing `stop` to reading `bestmove`.

usage: scripts/stop-latency.py [--qilin PATH] [--tries N] [--threads N]

Over UCI, N times (20) in turn `go infinite` and `go wtime 600000 btime 600000` from the
position after h2e2, `stop` 40 ms after `go`; prints the tries, the median and the worst.
This is a benchmark (the test suite only checks that `stop` is answered within a second):
its figures depend on the machine's load.
"""
import argparse
import sys
import time

from match_records import UciEngine


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--qilin", default="target/release/qilin")
    parser.add_argument("--tries", type=int, default=20)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    engine = UciEngine(args.qilin, "qilin")
    engine.send(f"setoption name Threads value {args.threads}")
    engine.ask("isready", "readyok")
    latencies = []
    for i in range(args.tries):
        go = "go infinite" if i % 2 == 0 else "go wtime 600000 btime 600000"
        engine.send("position startpos moves h2e2")
        engine.send(go)
        time.sleep(0.04)
        sent = time.monotonic()
        engine.ask("stop", "bestmove")
        latencies.append((time.monotonic() - sent) * 1000)
    engine.quit()
    latencies.sort()
    print(f"stop answered {len(latencies)} times: median {latencies[len(latencies) // 2]:.1f} ms, "
          f"worst {latencies[-1]:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
