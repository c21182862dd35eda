#!/usr/bin/env python3
"""Drives `qilin serve`'s page in headless Chromium as a person would, and keeps screenshots.

usage: scripts/serve-browser-test.py SCREENSHOT_DIR [--qilin PATH]

Installs Debian's chromium and chromium-driver (and a CJK font for the piece characters)
with apt-get when they are missing, starts `qilin serve` on a free loopback port and
chromedriver, and speaks chromedriver's W3C WebDriver HTTP API with the standard library
only. It plays a full Xiangqi game and a full Gomoku game against the engine by clicking
board points (with undo, hint, analyse and stop, save and load on the way), shows renju
forbidden points from a loaded position, opens a second tab with its own game while the
first goes on, sends bad requests to the API, and writes PNG screenshots to SCREENSHOT_DIR.
Exits non-zero on the first failed check.
"""

import base64
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def log(text):
    print(text, flush=True)


def ensure_packages():
    """apt-get installs what is missing: chromium, chromedriver, a CJK font."""
    wanted = []
    if not shutil.which("chromium"):
        wanted.append("chromium")
    if not shutil.which("chromedriver"):
        wanted.append("chromium-driver")
    fonts = subprocess.run(["fc-list", ":lang=zh"], capture_output=True, text=True)
    if fonts.returncode != 0 or not fonts.stdout.strip():
        wanted.append("fonts-wqy-zenhei")
    if wanted:
        log(f"installing {' '.join(wanted)} with apt-get")
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", *wanted], check=True, env=env)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(method, url, body=None, timeout=120):
    """One HTTP request; returns (status, parsed JSON or text)."""
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            status, text = reply.status, reply.read().decode()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read().decode()
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text


class Check(Exception):
    pass


def check(condition, what):
    if not condition:
        raise Check(what)


class Browser:
    """A chromedriver session over the W3C WebDriver HTTP API."""

    def __init__(self, driver_url, profile):
        self.driver = driver_url
        args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                f"--user-data-dir={profile}", "--window-size=1280,900", "--lang=en-US"]
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": shutil.which("chromium"), "args": args}}}}
        status, reply = http("POST", f"{driver_url}/session", caps)
        check(status == 200, f"new WebDriver session: {reply}")
        self.session = f"{driver_url}/session/{reply['value']['sessionId']}"

    def cmd(self, method, path, body=None):
        status, reply = http(method, self.session + path, body)
        if status != 200:
            raise Check(f"WebDriver {method} {path}: {status} {reply}")
        return reply["value"]

    def go(self, url):
        self.cmd("POST", "/url", {"url": url})

    def js(self, script, *args):
        return self.cmd("POST", "/execute/sync", {"script": script, "args": list(args)})

    def find(self, css):
        found = self.cmd("POST", "/elements", {"using": "css selector", "value": css})
        return [next(iter(e.values())) for e in found]

    def click(self, css):
        elements = self.find(css)
        check(elements, f"no element {css}")
        self.cmd("POST", f"/element/{elements[0]}/click", {})

    def set_value(self, css, text):
        element = self.find(css)[0]
        self.cmd("POST", f"/element/{element}/clear", {})
        self.cmd("POST", f"/element/{element}/value", {"text": text})

    def select(self, css, value):
        self.js(f"const s = document.querySelector({json.dumps(css)}); s.value = arguments[0];"
                "s.dispatchEvent(new Event('change'));", value)

    def screenshot(self, path, css=None):
        if css:
            element = self.find(css)[0]
            data = self.cmd("GET", f"/element/{element}/screenshot")
        else:
            data = self.cmd("GET", "/screenshot")
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
        log(f"screenshot {path}")

    def state(self):
        return self.js("return typeof state === 'undefined' ? null : state;")

    def wait(self, what, predicate, timeout=90):
        deadline = time.time() + timeout
        while time.time() < deadline:
            state = self.state()
            if state and predicate(state):
                return state
            time.sleep(0.1)
        raise Check(f"timed out waiting for {what}: {json.dumps(self.state())[:400]}")

    def quit(self):
        try:
            http("DELETE", self.session)
        except Exception:
            pass


def new_game(b, game, first, second, movetime=None, depth=None, size=None, rule=None):
    b.select("#game", game)
    b.select("#first", first)
    b.select("#second", second)
    if movetime:
        b.set_value("#movetime", str(movetime))
    b.set_value("#depth", "" if depth is None else str(depth))
    if size:
        b.set_value("#size", str(size))
    if rule:
        b.select("#rule", rule)
    old = (b.state() or {}).get("id")
    b.click("#new")
    return b.wait(f"a new {game} game", lambda s: s["game"] == game and s["id"] != old)


def human_turn(s):
    return s["ending"] or (s["thinking"] is None and s["players"][s["to_move"]] == "human")


def click_xiangqi_move(b, mv):
    before = len(b.state()["moves"])
    b.click(f'rect.point[data-sq="{mv[:2]}"]')
    check(b.find("circle.target"), "legal destinations are highlighted after picking a piece")
    b.click(f'rect.point[data-sq="{mv[2:]}"]')
    return b.wait(f"move {mv} played", lambda s: len(s["moves"]) > before)


def save(b, fmt, mark):
    """Saves the game in `fmt` with the page's Save button; returns the record's text once
    it holds `mark`."""
    b.select("#format", fmt)
    b.click("#save")
    deadline = time.time() + 30
    while True:
        text = b.js("return document.getElementById('record').value")
        if mark in text:
            return text
        check(time.time() < deadline, f"the {fmt} record appears")
        time.sleep(0.1)


def hint_undo_analyse(b, play, min_lines, shot):
    """With two moves played: a hint (shown, not played) which `play` then plays, the
    engine's reply, undo back to two moves, an analysis of at least `min_lines` lines
    (screenshot to `shot`), stop."""
    b.click("#hint")
    s = b.wait("a hint", lambda s: s["hint"] is not None and s["thinking"] is None)
    check(len(s["moves"]) == 2, "a hint plays no move")
    check(b.find("circle.hint"), "the hint is drawn")
    play(s["hint"])
    b.wait("the engine's reply", human_turn)
    b.click("#undo")
    b.wait("the undo", lambda s: len(s["moves"]) == 2)
    b.click("#analyse")
    b.wait("analysis lines", lambda s: s["thinking"] == "analyse" and len(s["lines"]) >= min_lines)
    time.sleep(1.0)
    if shot:
        b.screenshot(shot)
    b.click("#stop")
    return b.wait("the analysis to stop", lambda s: s["thinking"] is None)


def play_xiangqi(b, shots, rng):
    log("xiangqi: red (person) against black (Qilin, depth 3)")
    s = new_game(b, "xiangqi", "human", "engine", movetime=300, depth=3)
    check(len(b.find("g.piece")) == 32, "32 pieces drawn")
    s = click_xiangqi_move(b, "h2e2")
    s = b.wait("black's reply", human_turn)
    check(len(s["moves"]) == 2, "the engine answered")
    b.screenshot(f"{shots}/xiangqi-opening.png")
    s = hint_undo_analyse(b, lambda mv: click_xiangqi_move(b, mv), 2,
                          f"{shots}/xiangqi-analysis.png")
    check(len(s["moves"]) == 2, "an analysis plays no move")
    # Save as PGN, load it back.
    pgn = save(b, "pgn", '[Game "Chinese Chess"]')
    check('[Result "*"]' in pgn, "an unfinished game's PGN has result *")
    b.click("#load")
    s = b.wait("the PGN loaded", lambda s: s["moves"] == s["moves"][:2] and len(s["moves"]) == 2)
    # Play on to the end: red picks captures first, else a random legal move.
    while not s["ending"]:
        if len(s["moves"]) > 160:
            b.click("#resign")
            s = b.wait("the resignation", lambda s: s["ending"] is not None)
            break
        legal = s["board"]["legal"]
        board = b.js("return xiangqiPosition(null);")
        captures = [m for m in legal if m[2:] in board]
        mv = rng.choice(captures or legal)
        s = click_xiangqi_move(b, mv)
        s = b.wait("black's reply", human_turn)
        if len(s["moves"]) == 20:
            b.screenshot(f"{shots}/xiangqi-middlegame.png")
    log(f"xiangqi: {s['ending']} after {len(s['moves'])} plies")
    b.screenshot(f"{shots}/xiangqi-end.png")
    b.screenshot(f"{shots}/xiangqi-board.png", "#board")
    # The move list navigates: back to move 10 and forward again.
    b.click("#nav-first")
    for _ in range(10):
        b.click("#nav-next")
    check("viewing move 10" in b.js("return document.getElementById('status').textContent"),
          "navigation shows move 10")
    b.screenshot(f"{shots}/xiangqi-move-10.png")
    b.click("#nav-last")
    return s


def gomoku_neighbours(s):
    width, height = s["board"]["width"], s["board"]["height"]
    taken = {tuple(map(int, m.split(","))) for m in s["moves"]}
    near = set()
    for (x, y) in taken:
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                p = (x + dx, y + dy)
                if 0 <= p[0] < width and 0 <= p[1] < height and p not in taken:
                    near.add(p)
    return sorted(near) or [(width // 2, height // 2)]


def click_gomoku(b, x, y):
    before = len(b.state()["moves"])
    b.click(f'rect.point[data-x="{x}"][data-y="{y}"]')
    return b.wait(f"stone {x},{y}", lambda s: len(s["moves"]) > before)


def play_gomoku(b, shots, rng):
    log("gomoku: black (person) against white (Qilin, 300 ms), 15x15 freestyle")
    s = new_game(b, "gomoku", "human", "engine", movetime=300, size=15, rule="freestyle")
    s = click_gomoku(b, 7, 7)
    s = b.wait("white's reply", human_turn)
    s = hint_undo_analyse(b, lambda mv: click_gomoku(b, *map(int, mv.split(","))), 1, None)
    save(b, "sgf", "(;GM[4]")
    save(b, "psq", "Piskvorky 15x15")
    b.click("#load")
    s = b.wait("the PSQ loaded", lambda s: len(s["moves"]) == 2 and s["thinking"] is None)
    while not s["ending"]:
        x, y = rng.choice(gomoku_neighbours(s))
        s = click_gomoku(b, x, y)
        s = b.wait("white's reply", human_turn)
        check(len(s["moves"]) < 225, "the game ends")
    log(f"gomoku: {s['ending']} after {len(s['moves'])} moves")
    if s["ending"]["reason"] == "five":
        check(b.find("line.win-line"), "the winning line is drawn")
    b.screenshot(f"{shots}/gomoku-end.png")
    b.screenshot(f"{shots}/gomoku-board.png", "#board")

    log("gomoku: renju, a loaded position where black has a forbidden point")
    s = new_game(b, "gomoku", "human", "human", size=15, rule="renju")
    b.set_value("#record", "7,5 0,0 7,6 14,0 5,7 0,14 6,7 14,14")
    b.click("#load")
    s = b.wait("the position loaded", lambda s: len(s["moves"]) == 8)
    check([7, 7] in s["board"]["forbidden"], f"7,7 is forbidden: {s['board']['forbidden']}")
    check(b.find("g.forbidden"), "forbidden points are drawn")
    b.screenshot(f"{shots}/gomoku-renju-forbidden.png", "#board")
    # Black plays the forbidden point and loses by the rule.
    s = click_gomoku(b, 7, 7)
    check(s["ending"] and s["ending"]["reason"] == "double-three", f"double three loses: {s['ending']}")
    return s


def two_tabs(b, base, shots):
    log("two tabs: each its own game")
    first = b.state()
    handles = b.cmd("GET", "/window/handles")
    tab = b.cmd("POST", "/window/new", {"type": "tab"})["handle"]
    b.cmd("POST", "/window", {"handle": tab})
    b.go(base + "/")
    s = b.wait("the second tab's game", lambda s: s["id"] != first["id"])
    s = new_game(b, "gomoku", "human", "engine", movetime=200, size=13, rule="standard")
    s = click_gomoku(b, 6, 6)
    s = b.wait("white's reply", human_turn)
    b.screenshot(f"{shots}/second-tab-gomoku-13x13.png")
    b.cmd("POST", "/window", {"handle": handles[0]})
    again = b.state()
    check(again["id"] == first["id"] and again["moves"] == first["moves"],
          "the first tab kept its game")
    status, reply = http("GET", base + "/api/status")
    check(status == 200 and reply["sessions"] >= 2, f"two sessions open: {reply}")
    log(f"status: {reply}")


def bad_requests(base):
    log("bad requests to the API")
    status, game = http("POST", base + "/api/games", {"game": "xiangqi", "red": "human",
                                                       "black": "human"})
    check(status == 201, f"new game: {game}")
    path = f"{base}/api/games/{game['id']}"
    for body in (b'{"move":', b"[1]", b'{"move": 3}'):
        status, reply = http("POST", path + "/move", body)
        check(status == 400 and "error" in reply, f"{body!r} refused: {status} {reply}")
    status, reply = http("POST", path + "/move", {"move": "a0a9"})
    check(status == 400 and "error" in reply, f"illegal move refused: {reply}")
    status, reply = http("POST", path + "/move", b'{"move":"' + b"x" * 100_000 + b'"}')
    check(status == 413 and "error" in reply, f"huge body refused: {status} {reply}")
    status, reply = http("GET", path)
    check(status == 200 and reply["moves"] == [], "the game is unchanged")
    http("DELETE", path)


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        print(__doc__)
        return 2
    shots = os.path.abspath(sys.argv[1])
    os.makedirs(shots, exist_ok=True)
    qilin = os.path.join(ROOT, "target", "release", "qilin")
    if "--qilin" in sys.argv:
        qilin = sys.argv[sys.argv.index("--qilin") + 1]
    if not os.path.exists(qilin):
        subprocess.run(["cargo", "build", "--release"], cwd=ROOT, check=True)
    ensure_packages()
    server = subprocess.Popen([qilin, "serve", "--port", "0", "--searches", "2"],
                              stdout=subprocess.PIPE, text=True)
    first = server.stdout.readline().strip()
    base = first.split("listening on ")[-1].rstrip("/")
    log(f"server: {first}")
    port = free_port()
    driver = subprocess.Popen(["chromedriver", f"--port={port}"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    profile = tempfile.mkdtemp(prefix="qilin-chromium-")
    browser = None
    try:
        driver_url = f"http://127.0.0.1:{port}"
        deadline = time.time() + 30
        while True:
            try:
                if http("GET", driver_url + "/status", timeout=5)[0] == 200:
                    break
            except OSError:
                pass
            check(time.time() < deadline, "chromedriver starts")
            time.sleep(0.2)
        browser = Browser(driver_url, profile)
        browser.go(base + "/")
        browser.wait("the first game", lambda s: s["id"])
        rng = random.Random(35)
        play_xiangqi(browser, shots, rng)
        two_tabs(browser, base, shots)
        play_gomoku(browser, shots, rng)
        browser.cmd("POST", "/window/rect", {"width": 412, "height": 915})
        browser.screenshot(f"{shots}/phone-gomoku.png")
        new_game(browser, "xiangqi", "human", "engine", movetime=200)
        browser.screenshot(f"{shots}/phone-xiangqi.png")
        bad_requests(base)
        log("all checks passed")
        return 0
    except Check as failure:
        log(f"FAILED: {failure}")
        if browser:
            try:
                browser.screenshot(f"{shots}/failure.png")
            except Check:
                pass
        return 1
    finally:
        if browser:
            browser.quit()
        driver.terminate()
        server.terminate()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
