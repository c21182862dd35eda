"""Shared by the Python scripts: a UCI engine driven one command at a time, and the game
records of `qilin match --results`."""
import json
import os
import subprocess
import sys


class UciEngine:
    """A UCI engine process, started in its own folder (for its evaluation files), that
    answers one command at a time."""

    def __init__(self, path, name="engine"):
        self.name = name
        self.proc = subprocess.Popen(
            [os.path.abspath(path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=os.path.dirname(os.path.abspath(path)),
        )
        self.ask("uci", "uciok")

    def send(self, command):
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()

    def ask(self, command, until):
        """Sends `command`; the lines up to and including the first starting with `until`."""
        self.send(command)
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit(f"{self.name} ended while answering '{command}'")
            line = line.strip()
            lines.append(line)
            if line.startswith(until):
                return lines

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def records(paths):
    """Every game record (a dict) in the JSON-lines files `paths`, in order."""
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    yield json.loads(line)
