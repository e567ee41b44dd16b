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
- janggi's points row shows each side's points (the rules page's values, Han +1.5) of the
  pieces drawn;
- a xiangqi page (scripts/view-pgn of a short xiangqi self-play run exported as PGN, made
  here): the start position, the pieces after N steps against the rules core's FEN (told
  UCI_Variant xiangqi), the marked move; the river drawn, xiangqi's pieces as round discs with
  their own hanja (帥/將, 仕/士, 相/象, 俥/車, 傌/馬, 炮/砲, 兵/卒), no points row;
- docs/train-example/report.html, the committed example (under 1 MB, its games embedded
  gzip-compressed and unpacked by the browser): a match game of it stepped N plies against the
  rules core's replay of the page's moves from its first FEN;
- a page whose names hold "<!--" and "<script>" (scripts/view-pgn of a match game with
  [Event "<!--"] and [White "<script>"], issue 23): its viewer still runs, the pieces are drawn
  and N steps show the rules core's position, the names shown as written;
- no request leaves any page (Network events: only the page's own file and data: URIs; a
  load that the page's Content-Security-Policy blocks still shows there, and is logged too) and
  no script error is thrown.
Screenshots are kept as WORK_DIR/viewer.png (janggi), viewer-xiangqi.png and
viewer-example.png. Exit 77
(skipped) without Chromium or Debian's python3-websocket.

Usage: test_viewer_browser.py BUILD_DIR WORK_DIR"""
import base64
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
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


# The hanja the viewer must draw, per variant and side (upper case: Cho / Red).
HANJA = {"janggi": {"K": "楚", "k": "漢", "P": "卒", "p": "兵"},
         "xiangqi": {"K": "帥", "k": "將", "A": "仕", "a": "士", "B": "相", "b": "象", "R": "俥",
                     "r": "車", "N": "傌", "n": "馬", "C": "炮", "c": "砲", "P": "兵", "p": "卒"}}
POINTS = {"R": 13, "C": 7, "N": 5, "B": 3, "A": 3, "P": 2, "K": 0}  # janggi, rules page


def engine_fen(engine, fen, moves, variant="janggi"):
    """The rules core's FEN after moves from fen: one full replay, as a GUI would send it."""
    cmd = f"position fen {fen}" + (" moves " + " ".join(moves) if moves else "")
    setup = "" if variant == "janggi" else f"setoption name UCI_Variant value {variant}\n"
    r = subprocess.run([engine], input=f"{setup}{cmd}\nd\nquit\n", capture_output=True,
                       text=True, timeout=20)
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
    # Compressed, as docs/ keeps its PGNs: the report reads iter-001/match.pgn.gz.
    shutil.copyfile(os.path.join(REPO, "docs", "match-report", "nodes-20000.pgn.gz"),
                    os.path.join(run, "iter-001", "match.pgn.gz"))
    r = subprocess.run(["/usr/bin/python3", os.path.join(REPO, "scripts", "train_report.py"),
                        run, "--build", build], capture_output=True, text=True)
    check(r.returncode == 0 and "report.html" in r.stdout, f"train_report: {r.stdout}{r.stderr}")
    return run


def make_xiangqi_page(build, work):
    """A xiangqi page: 4 self-play games at 60 nodes, exported as PGN, through scripts/view-pgn."""
    sp, pgn, page = (os.path.join(work, n) for n in ("xq-selfplay", "xq.pgn", "xq.html"))
    for argv in ([os.path.join(build, "selfplay", "hansu-selfplay"), "--variant", "xiangqi",
                  "--games", "4", "--nodes", "60", "--threads", "1", "--hash", "1", "--no-bench",
                  "--progress", "1000", "--out", sp],
                 [os.path.join(build, "selfplay", "hansu-selfplay"), "export", "--pgn", pgn, sp],
                 ["/usr/bin/python3", os.path.join(REPO, "scripts", "view-pgn"), pgn, "-o", page,
                  "--engine", os.path.join(build, "engine", "hansu")]):
        r = subprocess.run(argv, capture_output=True, text=True)
        check(r.returncode == 0, f"{' '.join(argv[:3])}: {r.stdout}{r.stderr}")
    return pgn, page


def make_hostile_page(build, work):
    """The first match game of docs/match-report with [Event "<!--"] and [White "<script>"],
    through scripts/view-pgn: (the game as parsed, the page)."""
    with gzip.open(os.path.join(REPO, "docs", "match-report", "nodes-20000.pgn.gz"), "rt") as f:
        game = f.read().split("\n\n[Event")[0]
    game = re.sub(r'^\[Event "[^"]*"\]$', '[Event "<!--"]', game, count=1, flags=re.M)
    game = re.sub(r'^\[White "[^"]*"\]$', '[White "<script>"]', game, count=1, flags=re.M)
    pgn, page = os.path.join(work, "hostile.pgn"), os.path.join(work, "hostile.html")
    with open(pgn, "w") as f:
        f.write(game + "\n")
    r = subprocess.run(["/usr/bin/python3", os.path.join(REPO, "scripts", "view-pgn"), pgn, "-o",
                        page, "--engine", os.path.join(build, "engine", "hansu")],
                       capture_output=True, text=True)
    check(r.returncode == 0, f"view-pgn on the hostile PGN: {r.stdout}{r.stderr}")
    sys.path.insert(0, os.path.join(REPO, "scripts"))
    import game_viewer
    games = game_viewer.read_pgn(pgn)
    check(len(games) == 1 and games[0]["tags"]["White"] == "<script>", "hostile PGN not read")
    return games[0], page


PIECES = "[...document.querySelectorAll('#pieces .piece')].map(g => " \
         "g.dataset.square + '=' + g.dataset.piece).sort()"


def pick(cdp, where):
    """Selects the game for which the JS condition `where` (on g, a page record) holds, as a user
    picks it in the game list; returns its index."""
    index = cdp.js(f"""hansuViewer.ready.then(() => hansuViewer.games().findIndex(g => {where}))""")
    check(index is not None and index >= 0, f"no game with {where} in the page")
    cdp.js(f"""(() => {{ const s = document.getElementById('game-select');
        s.value = '{index}'; s.dispatchEvent(new Event('change')); }})()""")
    return index


def step_and_check(cdp, engine, want, n, variant, label=None):
    """The start position drawn, then n forward steps (arrow keys, then the forward button for
    the last two) against the rules core's FEN after n moves; the move list marks move n.
    label names the page in messages (default: the variant)."""
    start, rules = want["tags"]["FEN"], variant
    variant = label or variant
    shown = cdp.js(PIECES)
    check(shown == pieces_of(start), f"{variant} start: board shows {shown}, FEN tag is {start}")
    check(cdp.js("document.querySelectorAll('#moves .mv.current').length") == 0,
          f"{variant}: a move is marked at the start")
    cdp.js("document.getElementById('board').focus()")
    for _ in range(n - 2):
        cdp.key("ArrowRight", 39)
    for _ in range(2):
        cdp.js("document.getElementById('forward').click()")
    fen_n = engine_fen(engine, start, want["moves"][:n], rules)
    shown = cdp.js(PIECES)
    check(shown == pieces_of(fen_n), f"{variant} after {n} moves: board shows {shown}, the "
          f"rules core gives {fen_n}")
    check(cdp.js("document.getElementById('fen').textContent") == fen_n,
          f"{variant} after {n} moves: the FEN shown is not {fen_n}")
    marked = cdp.js("[...document.querySelectorAll('#moves .mv.current')].map(e => "
                    "[e.dataset.ply, e.textContent])")
    check(marked == [[str(n), want["moves"][n - 1]]],
          f"{variant}: move list marks {marked}, want move {n} ({want['moves'][n - 1]})")
    check(cdp.js("document.getElementById('ply').textContent").startswith(f"{n} / "),
          f"{variant}: the ply shown is not N")
    return fen_n


def glyphs(cdp):
    """[FEN letter, text drawn, shape] of every piece drawn."""
    return cdp.js("[...document.querySelectorAll('#pieces .piece')].map(g => [g.dataset.piece, "
                  "g.querySelector('text').textContent, g.querySelector('circle, polygon')"
                  ".tagName])")


def screenshot(cdp, path):
    cdp.js("document.getElementById('viewer-section').scrollIntoView()")
    shot = cdp.call("Page.captureScreenshot", format="png")
    with open(path, "wb") as f:
        f.write(base64.b64decode(shot["data"]))


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
    pgn = game_viewer.read_pgn(os.path.join(run, "iter-001", "match.pgn.gz"))
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
        pick(cdp, f"g.group === 'match' && g.tags.Round === '2' && "
                  f"g.tags.White === {json.dumps(want['tags']['White'])}")
        start = want["tags"]["FEN"]
        fen_n = step_and_check(cdp, engine, want, n, "janggi")
        drawn = glyphs(cdp)
        check(all(shape == "polygon" for _, _, shape in drawn), "janggi pieces are not octagons")
        check(all(t == HANJA["janggi"][c] for c, t, _ in drawn if c in HANJA["janggi"]),
              f"janggi hanja: {drawn}")
        pts = [sum(POINTS[p[-1].upper()] for p in pieces_of(fen_n) if p[-1].isupper() == side)
               for side in (True, False)]
        want_points = f"Cho {pts[0]:g} : Han {pts[1] + 1.5:g}"
        check(cdp.js("document.getElementById('points').textContent") == want_points and
              not cdp.js("document.getElementById('points').hidden"),
              f"janggi points shown are not {want_points}")
        check(not cdp.js("!!document.getElementById('river')"), "a river on the janggi board")
        screenshot(cdp, os.path.join(work, "viewer.png"))

        cdp.key("End", 35)
        final = engine_fen(engine, start, want["moves"])
        check(cdp.js(PIECES) == pieces_of(final), "End does not show the final position")
        cdp.js("document.getElementById('hanja').click()")
        letters = cdp.js("[...document.querySelectorAll('#pieces .piece')].map(g => "
                         "g.dataset.piece === g.textContent).every(x => x)")
        check(letters, "the letters toggle does not draw the FEN letters")

        # A self-play game with its comments: ply 1 of the first one is a random ply.
        sp = cdp.js("""(() => { const s = document.getElementById('f-set');
            s.value = 'self-play'; s.dispatchEvent(new Event('change'));
            return hansuViewer.state().game; })()""")
        check(cdp.js(f"hansuViewer.games()[{sp}].group") == "self-play",
              "the set filter did not apply")

        # The xiangqi page: the longest of its games, N steps, the river, pieces and no points.
        xq_pgn, xq_page = make_xiangqi_page(build, work)
        xq_games = game_viewer.read_pgn(xq_pgn)
        xq = max(range(len(xq_games)), key=lambda i: len(xq_games[i]["moves"]))
        check(len(xq_games[xq]["moves"]) >= n, f"the xiangqi games are shorter than {n} plies")
        xq_url = "file://" + os.path.abspath(xq_page)
        cdp.events = [e for e in cdp.events if e.get("method") != "Page.loadEventFired"]
        cdp.call("Page.navigate", url=xq_url)
        cdp.wait_event("Page.loadEventFired")
        pick(cdp, f"g.variant === 'xiangqi' && g.tags.GameId === "
                  f"{json.dumps(xq_games[xq]['tags']['GameId'])}")
        step_and_check(cdp, engine, xq_games[xq], n, "xiangqi")
        check(cdp.js("!!document.getElementById('river')"), "no river on the xiangqi board")
        drawn = glyphs(cdp)
        check(all(shape == "circle" for _, _, shape in drawn), f"xiangqi pieces: {drawn}")
        check(all(t == HANJA["xiangqi"][c] for c, t, _ in drawn), f"xiangqi hanja: {drawn}")
        check(cdp.js("document.getElementById('points').hidden && "
                     "document.getElementById('points-label').hidden"),
              "xiangqi has no points, but a points row is shown")
        screenshot(cdp, os.path.join(work, "viewer-xiangqi.png"))

        # The committed example: a game of the accepted iter-010's match against the first
        # engine, its moves as the page holds them, replayed by the rules core.
        example = os.path.join(REPO, "docs", "train-example", "report.html")
        size = os.path.getsize(example)
        check(size < 1 * 2**20, f"{example}: {size} bytes, not under 1 MB")
        with open(example, encoding="utf-8") as f:
            check('data-encoding="gzip-base64"' in f.read(),
                  f"{example}: its games are not embedded compressed")
        ex_url = "file://" + os.path.abspath(example)
        cdp.events = [e for e in cdp.events if e.get("method") != "Page.loadEventFired"]
        cdp.call("Page.navigate", url=ex_url)
        cdp.wait_event("Page.loadEventFired")
        ex = pick(cdp, "g.group === 'vs-first' && g.iteration === 10 && g.moves.length >= 37")
        rec = cdp.js(f"hansuViewer.games()[{ex}]")
        step_and_check(cdp, engine, {"tags": {"FEN": rec["fens"][0]}, "moves": rec["moves"]}, n,
                       "janggi", "docs/train-example")
        screenshot(cdp, os.path.join(work, "viewer-example.png"))

        # Names that would open an HTML comment and a script inside the JSON block.
        hostile, hostile_page = make_hostile_page(build, work)
        hostile_url = "file://" + os.path.abspath(hostile_page)
        cdp.events = [e for e in cdp.events if e.get("method") != "Page.loadEventFired"]
        cdp.call("Page.navigate", url=hostile_url)
        cdp.wait_event("Page.loadEventFired")
        check(cdp.js("typeof window.hansuViewer") == "object",
              "the viewer's script did not run on a page with '<!--' and '<script>' in names")
        pick(cdp, "g.tags.White === '<script>' && g.tags.Event === '<!--'")
        step_and_check(cdp, engine, hostile, n, "janggi", "names with <!-- and <script>")
        shown = cdp.js("document.getElementById('players').textContent + ' | ' + "
                       "document.getElementById('event').textContent")
        check("<script>" in shown and "<!--" in shown, f"names shown as {shown!r}")

        requests = [e["params"]["request"]["url"] for e in cdp.events
                    if e.get("method") == "Network.requestWillBeSent"]
        away = [u for u in requests
                if u not in (url, xq_url, ex_url, hostile_url) and not u.startswith("data:")]
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
    print(f"browser: janggi, xiangqi, docs/train-example and hostile names: start, {n} steps, move list, "
          f"points, river and pieces as the rules core gives, End and letters; {len(requests)} "
          f"requests, none leaving the pages; screenshots {work}/viewer*.png")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
