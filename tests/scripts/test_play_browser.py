#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/play in a real browser (issue 58): the server started as a person starts it
(`scripts/play --no-open --port 0`), its page opened in headless Chromium and driven by mouse
clicks through the DevTools protocol (test_viewer_browser.py's session helpers). For janggi:
- a new game (formations chosen, the person as Cho, Hansu at 200 nodes per move); a clicked
  piece shows exactly the engine's legal moves from its point; a click on one of them plays it,
  Hansu answers, the last move is framed;
- the pass button passes (the general's square twice), takeback goes back to the person's turn;
- the engine killed (SIGKILL) mid-game: the page says it was restarted, the game is kept and
  goes on;
- analysis: go infinite shows three MultiPV lines with scores, the WDL bar and the best-move
  arrow; stop stops them;
- a bad FEN is refused with the engine's reason on the page, the game kept;
- the game played on by clicks (random legal moves, seeded) to its end: the page shows the
  result, the reason and the points that the test's own engine gives for that position;
- the saved PGN carries Result and Termination and loads back to the same game;
- the set-up editor: pieces placed and removed by clicks in janggi; a position without Han's
  general refused with the engine's own reason, the editor kept open; Han's general added, Han
  to move, the position taken (the engine's FEN) and analysed; in xiangqi, its start, an
  elephant put off its points refused with the engine's reason, then taken;
- a PGN of four games (test_play.GAMES: WXF, SAN, Chinese, ICCS) listed with their tags; game 2
  (janggi) and game 1 (xiangqi) loaded and stepped through, each position the engine's; game 3
  refused, naming the game, the move's number and text.
Then xiangqi: round pieces, no pass, a game to its end, one lost on the clock. The page closed
ends its engine; no script error is thrown. Screenshots: WORK_DIR/play.png, play-setup.png,
play-pgn.png and play-xiangqi.png. Exit 77 (skipped) without Chromium or Debian's
python3-websocket.

Usage: test_play_browser.py HANSU WORK_DIR"""
import base64
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import test_viewer_browser as vb  # noqa: E402  (the DevTools session and Chromium's start)
from test_play import GAMES, WANT, alive, engine_answer  # noqa: E402

sys.path.insert(0, os.path.join(REPO, "scripts"))
from game_viewer import parse_pgn as vb_pgn  # noqa: E402

check = vb.check


class Page:
    """The play page in one Chromium tab."""

    def __init__(self, cdp):
        self.cdp = cdp

    def js(self, expr):
        return self.cdp.js(expr)

    def state(self):
        return self.js("window.hansuPlay.state()")

    def idle(self, timeout=60):
        end = time.time() + timeout
        while time.time() < end:
            if not self.js("window.hansuPlay.busy()"):
                return self.state()
            time.sleep(0.05)
        check(False, f"the page still waits for the server after {timeout} s")

    def until(self, pred, timeout=60):
        """The page's state once pred holds of it and the page is idle (a click's request may
        start after the click returns), or the last state seen after timeout seconds."""
        end = time.time() + timeout
        st = self.idle(timeout)
        while not pred(st) and time.time() < end:
            time.sleep(0.05)
            st = self.idle(timeout)
        return st

    def mouse(self, x, y):
        for kind in ("mousePressed", "mouseReleased"):
            self.cdp.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left",
                          clickCount=1)

    def click(self, selector):
        x, y = self.js(f"(() => {{ const e = document.querySelector({json.dumps(selector)}); "
                       "e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect(); "
                       "return [r.left + r.width / 2, r.top + r.height / 2]; })()")
        self.mouse(x, y)

    def click_square(self, sq):
        x, y = self.js(
            "(() => { const svg = document.getElementById('board'); "
            "svg.scrollIntoView({block: 'center'}); const r = svg.getBoundingClientRect(); "
            f"const [f, k] = HansuBoard.parseSquare({json.dumps(sq)}); "
            "const [x, y] = HansuBoard.xy(f, k, window.hansuPlay.flipped()); "
            "return [r.left + x * r.width / 470, r.top + y * r.height / 520]; })()")
        self.mouse(x, y)

    def set(self, selector, value):
        self.js(f"document.querySelector({json.dumps(selector)}).value = {json.dumps(value)}")

    def choose(self, selector, value):
        """A select's value chosen as a person does: set and its change event fired in one
        turn of the page's event loop, so that no render in between (a status poll's) puts the
        old value back before the page reads it."""
        self.js(f"(() => {{ const e = document.querySelector({json.dumps(selector)}); "
                f"e.value = {json.dumps(value)}; e.dispatchEvent(new Event('change')); }})()")

    def text(self, selector):
        return self.js(f"document.querySelector({json.dumps(selector)}).textContent")


def targets(page):
    return sorted(page.js("[...document.querySelectorAll('#pieces .target')]"
                          ".map(e => e.dataset.square)"))


def split(mv):
    frm = re.match(r"[a-i]\d+", mv).group(0)
    return frm, mv[len(frm):]


def play_move(page, mv):
    frm, to = split(mv)
    page.click_square(frm)
    page.click_square(to)
    return page.idle()


def new_game(page, variant, nodes):
    page.choose("#variant", variant)
    if variant == "janggi":
        page.set("#cho", "sang-ma-sang-ma")
        page.set("#han", "ma-sang-ma-sang")
    page.set("#human", "w")
    page.set("#mode", "nodes")
    page.set("#strength", str(nodes))
    page.click("#new")
    s = page.idle()
    check(s["variant"] == variant and s["moves"] == [] and s["error"] is None,
          f"new {variant} game: {s}")
    return s


def play_to_end(page, engine, rng, limit=400):
    """Clicks random legal moves (no pass) until the game ends; checks the end shown."""
    s = page.state()
    for _ in range(limit):
        if s["over"]:
            break
        moves = [m for m in s["legal"] if split(m)[0] != split(m)[1]] or s["legal"]
        s = play_move(page, rng.choice(moves))
    check(s["over"], f"no result after {limit} moves")
    answer = engine_answer(engine, s["variant"], s["start_fen"], s["moves"], "go depth 1")
    want = re.search(r"info string game over: (.*)", answer)
    check(want and s["over"]["text"] == "game over: " + want.group(1),
          f"the end shown {s['over']} is not the engine's {answer[-200:]}")
    check(page.text("#status") == "Game over: " + s["over"]["text"].removeprefix("game over: ") and
          s["over"]["reason"] in page.text("#result") and
          page.text("#result").startswith(s["over"]["result"]), "the result on the page")
    if s["over"]["points"]:
        p = s["over"]["points"]
        check(page.text("#points").startswith(f"Cho {p[0]:g} : Han {p[1]:g}"),
              f"points shown {page.text('#points')} are not the engine's {p}")
    return s


def screenshot(cdp, path):
    shot = cdp.call("Page.captureScreenshot", format="png")
    with open(path, "wb") as f:
        f.write(base64.b64decode(shot["data"]))


def janggi(page, engine, work):
    s = new_game(page, "janggi", 200)
    check(page.js("document.getElementById('cho').closest('label').offsetParent !== null"),
          "janggi's formations not shown")
    # A clicked piece shows the engine's legal moves from its point, and only those.
    page.click_square("b1")
    want = sorted(split(m)[1] for m in s["legal"] if split(m)[0] == "b1")
    check(want and targets(page) == want, f"targets of b1 {targets(page)} != {want}")
    s = play_move(page, f"b1{want[0]}")
    check(len(s["moves"]) == 2 and s["moves"][0] == f"b1{want[0]}", f"Hansu's answer: {s}")
    framed = page.js("[...document.querySelectorAll('#pieces .lastmove')].length")
    check(framed == 2 and page.text("#status") == "Your move", "the last move framed")
    page.click("#pass")
    s = page.idle()
    check(len(s["moves"]) == 4 and split(s["moves"][2])[0] == split(s["moves"][2])[1],
          f"the pass: {s['moves']}")
    page.click("#takeback")
    s = page.idle()
    check(len(s["moves"]) == 2 and s["ply"] == 2, f"takeback: {s['moves']}")
    print("janggi: legal targets from the engine, a move, Hansu's answer, pass, takeback ok",
          flush=True)

    # The engine killed mid-game: reported, restarted, the game kept.
    moves, pid = list(s["moves"]), s["engine_pid"]
    os.kill(pid, signal.SIGKILL)
    end = time.time() + 10
    while time.time() < end and "restarted" not in page.text("#notes"):
        time.sleep(0.1)
    s = page.idle()
    check("restarted" in page.text("#notes") and s["moves"] == moves and s["engine_pid"] != pid,
          f"killed engine: notes '{page.text('#notes')}'")
    print("janggi: engine killed mid-game, restarted, game kept ok", flush=True)

    # The page's session ended on the server (as after a long silence): the page opens a new
    # one and restores its game.
    base = page.js("location.origin")
    req = urllib.request.Request(base + "/api/close", json.dumps(
        {"id": page.js("window.hansuPlay.id()")}).encode(), method="POST")
    urllib.request.urlopen(req, timeout=10).read()
    end = time.time() + 10
    while time.time() < end and "restored" not in page.text("#notes"):
        time.sleep(0.1)
    s = page.idle()
    check("restored" in page.text("#notes") and s["moves"] == moves and s["engine_pid"] != pid,
          f"session restored: notes '{page.text('#notes')}'")
    print("janggi: session ended on the server, the page restored its game ok", flush=True)

    # Analysis: three lines, the WDL bar, the arrow; stop.
    page.set("#multipv", "3")
    page.click("#analyse")
    end = time.time() + 30
    while time.time() < end and page.js("document.querySelectorAll('#lines li').length") < 3:
        time.sleep(0.1)
    check(page.js("document.querySelectorAll('#lines li').length") == 3 and
          page.js("!!document.querySelector('#pieces .arrow')") and
          page.js("document.getElementById('wdl').title").startswith("win "),
          "analysis lines, WDL and arrow")
    page.click("#stop")
    s = page.idle()
    lines = page.text("#lines")
    time.sleep(1.5)
    check(not s["analysis"]["running"] and page.text("#lines") == lines and
          not page.js("document.getElementById('stop').disabled === false"), "stop")
    print(f"janggi: analysis lines appeared and stopped ({lines[:60]}...) ok", flush=True)

    # A bad FEN, refused with the engine's reason; the game kept.
    page.set("#fen-input", "rnba1abnr/4k4/9 w - - 0 1")
    page.click("#load-fen")
    s = page.idle()
    check(page.text("#error").startswith("FEN:") and s["moves"] == moves,
          f"bad FEN: '{page.text('#error')}'")
    print(f"janggi: bad FEN refused: {page.text('#error')} ok", flush=True)
    screenshot(page.cdp, os.path.join(work, "play.png"))

    s = play_to_end(page, engine, random.Random(58))
    print(f"janggi: game to its end in {len(s['moves'])} plies: {s['over']['text']} ok",
          flush=True)
    pgn = page.js("window.hansuPlay.savePgn()")
    check(f'[Result "{s["over"]["result"]}"]' in pgn and
          f'[Termination "{s["over"]["reason"]}"]' in pgn and '[Variant "janggi"]' in pgn,
          f"saved PGN:\n{pgn[:600]}")
    page.set("#pgn-input", pgn)
    page.click("#load-pgn")
    s2 = page.idle()
    check(s2["moves"] == s["moves"] and s2["over"] == s["over"], "the saved PGN loaded back")
    print("janggi: PGN saved and loaded back ok", flush=True)

    # Stepping through the loaded game: back, forward, a move of the list; each position the
    # engine's for those moves.
    n = len(s["moves"])
    for selector, ply in (("#back", n - 1), ("#back", n - 2), ("#forward", n - 1),
                          ("#moves .mv[data-ply='5']", 5)):
        page.click(selector)
        st = page.until(lambda st, ply=ply: st["ply"] == ply)
        want = re.search(r"^Fen: (.*)$", engine_answer(engine, "janggi", st["start_fen"],
                                                       s["moves"][:ply], "d"), re.M).group(1)
        check(st["ply"] == ply and st["fen"] == want and page.text("#fen") == want and
              page.text("#moves .mv.current") == s["moves"][ply - 1],
              f"{selector} to ply {ply}: at {st['ply']}, {page.text('#fen')}")
    # A PGN with a move the engine refuses: its reason and ply on the page, the game kept.
    tags = pgn.split("\n\n")[0]
    page.set("#pgn-input", f"{tags}\n\n{' '.join(s['moves'][:5])} a1i10 *\n")
    page.click("#load-pgn")
    s6 = page.idle()
    check(page.text("#error").startswith("PGN: game 1, move 3... a1i10 (ply 6): ") and
          s6["moves"] == s["moves"],
          f"bad PGN: '{page.text('#error')}'")
    print(f"janggi: stepped through the loaded PGN; bad PGN refused: {page.text('#error')} ok",
          flush=True)


def shown(page, selector):
    return page.js(f"(() => {{ const e = document.querySelector({json.dumps(selector)}); "
                   "return !!e && e.offsetParent !== null; })()")


def engine_refusal(engine, variant, fen):
    """The engine's own reason for refusing a FEN (its `info string`), or None."""
    m = re.search(r"info string (?:error: )?(.*)", engine_answer(engine, variant, fen, [], "d"))
    return m and m.group(1)


def place(page, piece, squares):
    """Chooses piece (a FEN letter, or x: remove) in the editor's palette and clicks squares."""
    page.click(f"#palette button[data-piece='{piece}']")
    for sq in squares:
        page.click_square(sq)


def set_up(page, engine, work):
    """The set-up editor in both variants: pieces placed and removed by clicks; a position the
    engine refuses shows the engine's reason and keeps the editor open; one it takes is
    analysed."""
    before = page.state()
    page.click("#setup-open")
    check(shown(page, "#setup-tools") and page.js("window.hansuPlay.editing()") ==
          " ".join(before["fen"].split()[:2]) + " - - 0 1",
          "the editor opens on the position shown")
    page.choose("#setup-variant", "janggi")
    page.click("#setup-clear")
    check(page.js("document.querySelectorAll('#pieces .piece').length") == 0, "clear")
    place(page, "K", ["d1"])
    place(page, "R", ["a1", "b1", "b1"])     # a second click on a piece removes it
    place(page, "c", ["e5"])
    fen = page.js("window.hansuPlay.editing()")
    check(fen == "9/9/9/9/9/4c4/9/9/9/R2K5 w - - 0 1" and
          page.text("#setup-fen") == fen, f"placed: {fen}")
    # Han has no general: the engine's reason on the page, the editor still open, game kept.
    page.click("#setup-done")
    st = page.idle()
    want = engine_refusal(engine, "janggi", fen)
    check(want and page.text("#error") == want and shown(page, "#setup-tools") and
          st["moves"] == before["moves"], f"refused set-up: '{page.text('#error')}' != {want}")
    screenshot(page.cdp, os.path.join(work, "play-setup.png"))
    print(f"set-up (janggi): refused with the engine's reason: {want} ok", flush=True)
    place(page, "k", ["f10"])
    page.choose("#setup-side", "b")
    fen = page.js("window.hansuPlay.editing()")
    page.click("#setup-done")
    st = page.until(lambda st: st["fen"].split()[0] == fen.split()[0])
    want = re.search(r"^Fen: (.*)$", engine_answer(engine, "janggi", fen, [], "d"), re.M).group(1)
    check(st["fen"] == want and st["fen"].split()[1] == "b" and st["human"] == "both" and
          not shown(page, "#setup-tools") and page.text("#error") == "",
          f"a set-up position taken: {st['fen']} (the engine: {want})")
    page.click("#analyse")
    end = time.time() + 30
    while time.time() < end and page.js("document.querySelectorAll('#lines li').length") < 1:
        time.sleep(0.1)
    check(page.js("document.querySelectorAll('#lines li').length") >= 1 and
          page.js("!!document.querySelector('#pieces .arrow')"), "the set-up position analysed")
    page.click("#stop")
    page.until(lambda st: not (st["analysis"] or {}).get("running"))
    print(f"set-up (janggi): {fen} taken and analysed ok", flush=True)

    # Xiangqi: its start, a Red elephant put off its points (refused), taken back, accepted.
    page.click("#setup-open")
    page.choose("#setup-variant", "xiangqi")
    check(page.js("document.querySelectorAll('#pieces .piece circle').length") == 32 and
          not shown(page, "#setup-cho"), "the editor's xiangqi start")
    place(page, "x", ["g1"])
    place(page, "B", ["f2"])
    fen = page.js("window.hansuPlay.editing()")
    page.click("#setup-done")
    page.idle()
    reason = engine_refusal(engine, "xiangqi", fen)
    check(reason and "elephant" in reason and page.text("#error") == reason and
          shown(page, "#setup-tools"), f"xiangqi refused set-up: '{page.text('#error')}'")
    place(page, "B", ["f2", "g1"])
    fen = page.js("window.hansuPlay.editing()")
    start = page.js("JSON.parse(document.getElementById('hansu-play').textContent).starts.xiangqi")
    check(fen == start, f"the elephant clicked back to g1: {fen}")
    page.click("#setup-done")
    st = page.until(lambda st: st["variant"] == "xiangqi")
    want = re.search(r"^Fen: (.*)$", engine_answer(engine, "xiangqi", fen, [], "d"), re.M).group(1)
    check(st["variant"] == "xiangqi" and st["fen"] == want and not shown(page, "#setup-tools"),
          f"xiangqi set-up taken: {st['fen']} (the engine: {want})")
    print(f"set-up (xiangqi): refused: {reason}; then taken ok", flush=True)


def pgn_games(page, engine, work):
    """A PGN of several games: listed with their tags; game 2 (janggi, SAN) and game 1
    (xiangqi, WXF) loaded and stepped through; game 3 refused naming its bad move."""
    page.set("#pgn-input", GAMES)
    page.click("#load-pgn")
    page.until(lambda st: page.js("(window.hansuPlay.pgnGames() || []).length") == 4)
    items = page.js("[...document.querySelectorAll('#pgn-games li')].map(e => e.textContent)")
    check(len(items) == 4 and "Cho two – Han two" in items[1] and "round 2" in items[1] and
          "janggi" in items[1] and "6 plies" in items[1], f"the games listed: {items}")
    for n in (2, 1):
        page.click(f"#pgn-games li[data-game='{n}'] button")
        st = page.until(lambda st, n=n: st["moves"] == WANT[n])
        variant = "janggi" if n == 2 else "xiangqi"
        check(st["moves"] == WANT[n] and st["variant"] == variant and page.text("#error") == "" and
              page.js(f"document.querySelector(\"#pgn-games li[data-game='{n}']\").className")
              == "loaded", f"game {n} loaded: {st['moves']} {page.text('#error')}")
        for selector, ply in (("#first", 0), ("#forward", 1), ("#forward", 2),
                              ("#moves .mv[data-ply='5']", 5), ("#back", 4)):
            page.click(selector)
            st = page.until(lambda st, ply=ply: st["ply"] == ply)
            want = re.search(r"^Fen: (.*)$", engine_answer(engine, variant, st["start_fen"],
                                                           WANT[n][:ply], "d"), re.M).group(1)
            check(st["ply"] == ply and st["fen"] == want and page.text("#fen") == want,
                  f"game {n}, {selector} to ply {ply}: at {st['ply']}, {page.text('#fen')}")
        print(f"PGN game {n} of 4 ({variant}) loaded and stepped through ok", flush=True)
    screenshot(page.cdp, os.path.join(work, "play-pgn.png"))
    page.click("#pgn-games li[data-game='3'] button")
    st = page.until(lambda st: page.text("#error") != "")
    check(page.text("#error").startswith("PGN: game 3, move 3. Ng3 (ply 5): 'Ng3'") and
          st["moves"] == WANT[1], f"game 3 refused: '{page.text('#error')}'")
    print(f"PGN game 3 refused: {page.text('#error')} ok", flush=True)

    # A .gib file in CP949 chosen in the file box: decoded on the page, read by the engine's
    # .gib reader, its two records listed; the second loads to its golden PGN's moves.
    gib_dir = os.path.join(REPO, "tests", "data", "gib")
    with open(os.path.join(gib_dir, "samples.pgn"), encoding="utf-8") as f:
        golden = [g for g in vb_pgn(f.read())
                  if g["tags"].get("GibSource") == "two-records-cp949.gib:12"][0]
    root = page.cdp.call("DOM.getDocument")["root"]["nodeId"]
    node = page.cdp.call("DOM.querySelector", nodeId=root, selector="#pgn-file")["nodeId"]
    page.cdp.call("DOM.setFileInputFiles", nodeId=node,
                  files=[os.path.join(gib_dir, "two-records-cp949.gib")])
    page.until(lambda st: page.js("(window.hansuPlay.pgnGames() || []).length") == 2)
    items = page.js("[...document.querySelectorAll('#pgn-games li')].map(e => e.textContent)")
    check(len(items) == 2 and golden["tags"]["Event"] in items[1], f".gib records: {items}")
    page.click("#pgn-games li[data-game='2'] button")
    st = page.until(lambda st: st["moves"] == golden["moves"])
    check(st["moves"] == golden["moves"] and st["start_fen"] == golden["tags"]["FEN"],
          f".gib record 2: {st['moves']} {page.text('#error')}")
    print(f".gib file (CP949): 2 records listed, record 2 loaded ({len(st['moves'])} plies) ok",
          flush=True)


def xiangqi(page, engine, work):
    s = new_game(page, "xiangqi", 200)
    shown = "(id) => document.getElementById(id).closest('label').offsetParent !== null"
    check(not page.js(f"({shown})('cho')") and not page.js(f"({shown})('inc')"),
          "xiangqi shows janggi's formations or the clock's increment")
    check(page.js("document.getElementById('pass').disabled") and
          page.js("document.querySelectorAll('#pieces .piece circle').length") == 32,
          "xiangqi: round pieces and no pass")
    s = play_to_end(page, engine, random.Random(59))
    screenshot(page.cdp, os.path.join(work, "play-xiangqi.png"))
    print(f"xiangqi: game to its end in {len(s['moves'])} plies: {s['over']['text']} ok",
          flush=True)

    # On the clock: 6 s each (room for a move on a loaded machine); one move, then the
    # person's time runs out on the page.
    page.choose("#mode", "clock")
    page.set("#strength", "0.1")
    page.set("#inc", "0")
    page.click("#new")
    s = page.idle()
    check(s["clock"] and page.text("#clock").startswith("Red 0:0"),
          f"clock: {page.text('#clock')}")
    s = play_move(page, s["legal"][0])
    s = page.until(lambda st: len(st["moves"]) == 2 or st["over"])
    check(len(s["moves"]) == 2 and s["clock"]["running"] == "w",
          f"a move on the clock: {s['moves']}, {s['clock']}, {s['over']}")
    end = time.time() + 20
    while time.time() < end and not page.text("#status").startswith("Game over"):
        time.sleep(0.1)
    s = page.idle()
    check(s["over"] and s["over"]["reason"] == "time" and
          page.text("#status").startswith("Game over: time, black wins") and
          page.text("#clock").startswith("Red 0:00"), f"time: {page.text('#status')}")
    print(f"xiangqi on the clock: {page.text('#status')} ok", flush=True)


def main(argv):
    engine, work = os.path.abspath(argv[1]), argv[2]
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if not binary:
        print("skipped: no chromium (scripts/setup.sh installs Debian's chromium)")
        return vb.SKIP
    try:
        import websocket
    except ImportError:
        print("skipped: no websocket module (Debian's python3-websocket; scripts/setup.sh)")
        return vb.SKIP
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    server = subprocess.Popen(["/usr/bin/python3", os.path.join(REPO, "scripts", "play"),
                               "--no-open", "--port", "0", "--engine", engine],
                              stdout=subprocess.PIPE, text=True)
    profile = tempfile.mkdtemp(prefix="hansu-chromium-")
    proc = None
    try:
        line = server.stdout.readline()
        m = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
        check(m, f"scripts/play printed no URL: {line!r}")
        proc, ws_url = vb.start_chromium(binary, profile)
        cdp = vb.Cdp(ws_url, websocket)
        target = cdp.call("Target.createTarget", url="about:blank")["targetId"]
        cdp.session = cdp.call("Target.attachToTarget", targetId=target,
                               flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "DOM"):
            cdp.call(domain + ".enable")
        cdp.call("Page.navigate", url=m.group(1))
        cdp.wait_event("Page.loadEventFired")
        page = Page(cdp)
        page.js("window.hansuPlay.ready.then(() => true)")
        page.idle()
        janggi(page, engine, work)
        set_up(page, engine, work)
        pgn_games(page, engine, work)
        xiangqi(page, engine, work)
        errors = [e for e in cdp.events if e.get("method") == "Runtime.exceptionThrown"]
        check(not errors, f"script errors: {errors[:2]}")
        pid = page.state()["engine_pid"]
        cdp.session = None
        cdp.call("Target.closeTarget", targetId=target)
        end = time.time() + 10
        while time.time() < end and alive(pid):
            time.sleep(0.1)
        check(not alive(pid), "the closed page's engine still runs")
        print(f"page closed, its engine ended; screenshots {work}/play*.png")
    finally:
        if proc:
            proc.kill()
            proc.wait()
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(profile, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
