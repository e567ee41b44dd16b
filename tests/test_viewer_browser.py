#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""report.html in a real browser (issue 16): a run folder with fresh self-play games and a match
PGN gets its report (scripts/train_report.py), which headless Chromium opens from disk, driven
through the DevTools protocol. From the live page:
- the board shows the selected game's start position (the pieces drawn, read from the SVG);
- after N forward steps (arrow keys through the browser's input, and the forward button) the
  pieces drawn equal the position after N moves that this test gets from the rules core on
  its own (one `position fen START moves m1 .. mN` and `d`, not the page's FEN list), and the
  FEN shown is that FEN;
- the move list marks move N, and only it; End shows the final position; the letters toggle
  draws the FEN letters;
- no request leaves the page (Network events: only the page's own file and data: URIs; a load
  that the page's Content-Security-Policy blocks still shows there, and is logged too) and no
  script error is thrown.
A screenshot of the page is kept as WORK_DIR/viewer.png. Exit 77 (skipped) without Chromium
or Debian's python3-websocket.

Usage: test_viewer_browser.py BUILD_DIR WORK_DIR"""
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SKIP = 77


def check(cond, msg):
    if not cond:
        print("FAIL: " + msg, file=sys.stderr)
        sys.exit(1)


def pieces_of(fen):
    """The pieces of a FEN as "square=letter" strings, sorted (square names a1..i10)."""
    out = []
    for i, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for n, c in re.findall(r"(\d+)|([A-Za-z])", row):
            if n:
                f += int(n)
            else:
                out.append(f"{'abcdefghi'[f]}{10 - i}={c}")
                f += 1
    return sorted(out)


def engine_fen(engine, fen, moves):
    """The rules core's FEN after moves from fen: one full replay, as a GUI would send it."""
    cmd = f"position fen {fen}" + (" moves " + " ".join(moves) if moves else "")
    r = subprocess.run([engine], input=f"{cmd}\nd\nquit\n", capture_output=True, text=True,
                       timeout=20)
    check("info string" not in r.stdout, f"engine refused {cmd[:80]}...: {r.stdout}")
    return re.search(r"^Fen: (.*)$", r.stdout, re.M).group(1)


class Cdp:
    """A DevTools protocol session on one page target, over websocket-client."""

    def __init__(self, ws_url, websocket):
        self.ws = websocket.create_connection(ws_url, timeout=20, suppress_origin=True)
        self.next_id, self.events, self.session = 0, [], None

    def call(self, method, **params):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params}
        if self.session:
            msg["sessionId"] = self.session
        self.ws.send(json.dumps(msg))
        while True:
            reply = json.loads(self.ws.recv())
            if reply.get("id") == self.next_id:
                check("error" not in reply, f"{method}: {reply.get('error')}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_event(self, name, timeout=20):
        end = time.time() + timeout
        while time.time() < end:
            if any(e.get("method") == name for e in self.events):
                return
            self.events.append(json.loads(self.ws.recv()))
        check(False, f"no {name} within {timeout} s")

    def js(self, expr):
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True,
                      awaitPromise=True)
        check("exceptionDetails" not in r, f"{expr[:60]}: {r.get('exceptionDetails')}")
        return r["result"].get("value")

    def key(self, name, code):
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=name, code=name,
                      windowsVirtualKeyCode=code)


def make_run(build, work):
    """A run folder: docs/train-example's records, iteration 1 with fresh self-play and a
    match PGN from docs/match-report; its report written with this build's tools."""
    run = os.path.join(work, "run")
    shutil.copytree(os.path.join(REPO, "docs", "train-example"), run)
    sp = os.path.join(run, "iter-001", "selfplay")
    r = subprocess.run([os.path.join(build, "selfplay", "hansu-selfplay"), "--games", "12",
                        "--nodes", "60", "--threads", "1", "--hash", "1", "--no-bench",
                        "--progress", "1000", "--out", sp], capture_output=True, text=True)
    check(r.returncode == 0, f"self-play: {r.stderr}")
    shutil.copyfile(os.path.join(REPO, "docs", "match-report", "nodes-20000.pgn"),
                    os.path.join(run, "iter-001", "match.pgn"))
    r = subprocess.run(["/usr/bin/python3", os.path.join(REPO, "scripts", "train_report.py"),
                        run, "--build", build], capture_output=True, text=True)
    check(r.returncode == 0 and "report.html" in r.stdout, f"train_report: {r.stdout}{r.stderr}")
    return run


def start_chromium(binary, profile):
    proc = subprocess.Popen([binary, "--headless=new", "--no-sandbox", "--disable-gpu",
                             "--no-first-run", "--remote-debugging-port=0",
                             "--remote-allow-origins=*", f"--user-data-dir={profile}",
                             "--window-size=1200,1000", "about:blank"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    end = time.time() + 20
    while time.time() < end:
        line = proc.stderr.readline()
        m = re.search(r"DevTools listening on (ws://\S+)", line)
        if m:
            return proc, m.group(1)
        if not line and proc.poll() is not None:
            break
    proc.kill()
    check(False, "chromium did not start its DevTools endpoint")


def main(argv):
    build, work = argv[1], argv[2]
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if not binary:
        print("skipped: no chromium (scripts/setup.sh installs Debian's chromium)")
        return SKIP
    try:
        import websocket
    except ImportError:
        print("skipped: no websocket module (Debian's python3-websocket; scripts/setup.sh)")
        return SKIP
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    engine = os.path.join(build, "engine", "hansu")
    run = make_run(build, work)
    report = os.path.join(run, "report.html")
    url = "file://" + os.path.abspath(report)
    sys.path.insert(0, os.path.join(REPO, "scripts"))
    import game_viewer  # only to read the PGN's moves: the positions come from engine_fen
    pgn = game_viewer.read_pgn(os.path.join(run, "iter-001", "match.pgn"))
    want = pgn[2]  # the third game of the match: round 2, Fairy-Stockfish as Cho
    n = 37

    profile = tempfile.mkdtemp(prefix="hansu-chromium-")
    proc, ws_url = start_chromium(binary, profile)
    try:
        browser = Cdp(ws_url, websocket)
        target = browser.call("Target.createTarget", url="about:blank")["targetId"]
        browser.session = browser.call("Target.attachToTarget", targetId=target,
                                       flatten=True)["sessionId"]
        cdp = browser
        for domain in ("Network", "Page", "Runtime", "Log"):
            cdp.call(domain + ".enable")
        cdp.call("Page.navigate", url=url)
        cdp.wait_event("Page.loadEventFired")

        # The match game through the game list, as a user picks it.
        index = cdp.js(f"""(() => {{
            const d = JSON.parse(document.getElementById('hansu-games').textContent).games;
            return d.findIndex(g => g.group === 'match' && g.tags.Round === '2' &&
                               g.tags.White === {json.dumps(want['tags']['White'])});
        }})()""")
        check(index is not None and index >= 0, "the match game is not in the page")
        cdp.js(f"""(() => {{ const s = document.getElementById('game-select');
            s.value = '{index}'; s.dispatchEvent(new Event('change')); }})()""")
        pieces = "[...document.querySelectorAll('#pieces .piece')].map(g => " \
                 "g.dataset.square + '=' + g.dataset.piece).sort()"
        shown = cdp.js(pieces)
        start = want["tags"]["FEN"]
        check(shown == pieces_of(start), f"start: board shows {shown}, FEN tag is {start}")
        check(cdp.js("document.querySelectorAll('#moves .mv.current').length") == 0,
              "a move is marked at the start")

        cdp.js("document.getElementById('board').focus()")
        for _ in range(n - 2):
            cdp.key("ArrowRight", 39)
        for _ in range(2):
            cdp.js("document.getElementById('forward').click()")
        fen_n = engine_fen(engine, start, want["moves"][:n])
        shown = cdp.js(pieces)
        check(shown == pieces_of(fen_n), f"after {n} moves: board shows {shown}, the rules core "
              f"gives {fen_n}")
        check(cdp.js("document.getElementById('fen').textContent") == fen_n,
              f"after {n} moves: the FEN shown is not {fen_n}")
        marked = cdp.js("[...document.querySelectorAll('#moves .mv.current')].map(e => "
                        "[e.dataset.ply, e.textContent])")
        check(marked == [[str(n), want["moves"][n - 1]]],
              f"move list marks {marked}, want move {n} ({want['moves'][n - 1]})")
        check(cdp.js("document.getElementById('ply').textContent").startswith(f"{n} / "),
              "the ply shown is not N")
        cdp.js("document.getElementById('viewer-section').scrollIntoView()")
        shot = cdp.call("Page.captureScreenshot", format="png")
        with open(os.path.join(work, "viewer.png"), "wb") as f:
            f.write(base64.b64decode(shot["data"]))

        cdp.key("End", 35)
        final = engine_fen(engine, start, want["moves"])
        check(cdp.js(pieces) == pieces_of(final), "End does not show the final position")
        cdp.js("document.getElementById('hanja').click()")
        letters = cdp.js("[...document.querySelectorAll('#pieces .piece')].map(g => "
                         "g.dataset.piece === g.textContent).every(x => x)")
        check(letters, "the letters toggle does not draw the FEN letters")

        # A self-play game with its comments: ply 1 of the first one is a random ply.
        sp = cdp.js("""(() => { const s = document.getElementById('f-set');
            s.value = 'self-play'; s.dispatchEvent(new Event('change'));
            return hansuViewer.state().game; })()""")
        check(cdp.js(f"JSON.parse(document.getElementById('hansu-games').textContent)"
                     f".games[{sp}].group") == "self-play", "the set filter did not apply")

        requests = [e["params"]["request"]["url"] for e in cdp.events
                    if e.get("method") == "Network.requestWillBeSent"]
        away = [u for u in requests if u != url and not u.startswith("data:")]
        check(not away, f"the page made requests: {away[:5]}")
        errors = [e["params"] for e in cdp.events if e.get("method") == "Runtime.exceptionThrown"]
        check(not errors, f"script errors: {errors[:2]}")
        blocked = [e["params"]["entry"]["text"] for e in cdp.events
                   if e.get("method") == "Log.entryAdded" and
                   "Content Security Policy" in e["params"]["entry"].get("text", "")]
        check(not blocked, f"loads blocked by the page's policy: {blocked[:2]}")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(profile, ignore_errors=True)
    shutil.rmtree(run)
    print(f"browser: start, {n} steps, move list, End and letters as the rules core gives; "
          f"{len(requests)} requests, none leaving the page; screenshot {work}/viewer.png")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
