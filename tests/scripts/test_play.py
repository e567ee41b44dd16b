#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/play's server without a browser (issue 58): its HTTP API in this process, on a free
port of 127.0.0.1, with the engine HANSU at a few hundred nodes per move.
- the page is served with the shared board drawing (board.js) and the play script;
- a janggi game with chosen formations: the start FEN is the pairing's, the legal moves are
  the engine's own `go perft 1` list, an illegal move is refused, a move gets Hansu's answer;
  the pass (the general's square twice); takeback to the person's turn;
- the person as Han: Hansu opens; a strength in Elo (UCI_LimitStrength) plays a move;
- the end of a game from the engine: a position where the side to move is mated shows its
  reason, winner and (janggi) points as `go` at that position answers them;
- analysis: go infinite gives MultiPV lines with scores and WDL, stop ends it;
- FEN and PGN: a bad FEN and a PGN with a bad move are refused with the engine's reason (and
  the game's number, the move's number and text), the game kept; a saved PGN (Variant, FEN
  tags) loads back to the same moves;
- a PGN of four games (WXF, SAN with a pass, Chinese notation, ICCS) is listed with its tags
  and each game loads to the UCI moves the test reads in it; a move that names no legal move,
  or two, is refused; WXF is no janggi notation;
- the set-up editor's positions: the start positions in the page are the engine's; five FENs
  the engine refuses (a general outside its palace, the side not to move in check, three
  chariots, a xiangqi advisor off its points, facing generals) are refused with its reason;
  positions it takes are loaded and analysed;
- faults: an engine killed (SIGKILL) or hung (SIGSTOP) is restarted, the page told, the game
  kept; two pages have two engines; closing a page, or a page that stops calling, ends its
  engine.

Usage: test_play.py HANSU"""
import importlib.machinery
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "scripts"))
import play_engine  # noqa: E402
import play_session  # noqa: E402

play = importlib.machinery.SourceFileLoader("play",
                                           os.path.join(REPO, "scripts", "play")).load_module()


def check(cond, msg):
    if not cond:
        print("FAIL: " + msg, file=sys.stderr)
        sys.exit(1)


class Client:
    def __init__(self, base):
        self.base, self.id = base, None

    def post(self, name, **body):
        req = urllib.request.Request(self.base + "/api/" + name,
                                     json.dumps(dict(body, id=self.id)).encode(), method="POST")
        with urllib.request.urlopen(req, timeout=60) as r:
            state = json.load(r)
        if name == "open":
            self.id = state["id"]
        return state

    def get(self, path):
        with urllib.request.urlopen(self.base + path, timeout=30) as r:
            return r.read().decode("utf-8")


def engine_answer(engine, variant, fen, moves, cmd):
    """What a fresh engine answers to `cmd` at the position (fen None: the variant's start):
    the test's own referee."""
    pos = (f"position fen {fen}" if fen else "position startpos") + (
        " moves " + " ".join(moves) if moves else "")
    r = subprocess.run([engine], input=f"setoption name UCI_Variant value {variant}\n{pos}\n"
                       f"{cmd}\n", capture_output=True, text=True, timeout=60)
    return r.stdout


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[1].split()[0] != "Z"
    except OSError:
        return False


def wait_until(cond, timeout, what):
    end = time.time() + timeout
    while time.time() < end:
        if cond():
            return
        time.sleep(0.1)
    check(False, f"{what} within {timeout} s")


def main(argv):
    engine = os.path.abspath(argv[1])
    server = play.Server(("127.0.0.1", 0), engine, "janggi")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    c = Client(base)

    page = c.get("/")
    check("window.HansuBoard" in page and "window.hansuPlay" in page and "octagon" in page,
          "the page lacks the shared board drawing or the play script")

    # A janggi game: Cho ma-sang-sang-ma, Han sang-ma-ma-sang, the person as Cho.
    s = c.post("open")
    s = c.post("new", variant="janggi", cho="ma-sang-sang-ma", han="sang-ma-ma-sang", human="w",
               strength={"mode": "nodes", "nodes": 300})
    check(s["error"] is None and s["start_fen"].startswith("rbna1anbr/") and
          s["start_fen"].endswith("/RNBA1ABNR w - - 0 1"), f"formation start: {s['start_fen']}")
    perft = engine_answer(engine, "janggi", s["fen"], [], "go perft 1")
    want = sorted(re.findall(r"^([a-i]\d+[a-i]\d+): 1$", perft, re.M))
    check(sorted(s["legal"]) == want and "e2e2" in want, f"legal moves {s['legal']} != {want}")
    s = c.post("move", move="a1a9")
    check(s["error"] and "not a legal move" in s["error"] and s["moves"] == [],
          "illegal move taken")
    s = c.post("move", move="b1c3")
    check(s["error"] is None and len(s["moves"]) == 2 and s["moves"][0] == "b1c3" and
          s["scores"][1] and s["scores"][1]["nodes"] <= 400, f"Hansu's answer: {s}")
    s = c.post("move", move="e2e2")  # the pass
    check(s["error"] is None and s["moves"][2] == "e2e2" and len(s["moves"]) == 4, "the pass")
    s = c.post("takeback")
    check(s["moves"] == s["moves"][:2] and len(s["moves"]) == 2 and s["ply"] == 2, "takeback")
    print("janggi game: formations, legal moves = go perft 1, Hansu answers, pass, takeback ok",
          flush=True)

    # Faults: killed, then hung; the game is kept.
    moves = list(s["moves"])
    pid = s["engine_pid"]
    os.kill(pid, signal.SIGKILL)
    notes = []

    def restarted():
        notes.extend(c.post("state")["notes"])
        return notes
    wait_until(restarted, 5, "a note of the restart")
    s = c.post("state")
    check(s["engine_pid"] != pid and s["moves"] == moves and
          any("restarted" in n for n in notes), f"killed engine: {notes}")
    s = c.post("move", move=s["legal"][0])
    check(s["error"] is None and len(s["moves"]) == 4, "a move after the restart")
    play_engine.COMMAND_TIMEOUT = play_session.SEARCH_SLACK = 2.0
    pid = s["engine_pid"]
    os.kill(pid, signal.SIGSTOP)
    moves = list(s["moves"])
    s = c.post("move", move=s["legal"][0])
    check(s["error"] is None and s["moves"][:4] == moves and len(s["moves"]) == 6 and
          s["engine_pid"] != pid and any("hung" in n for n in s["notes"]) and not alive(pid),
          f"hung engine: {s['error']} {s['notes']}")
    play_engine.COMMAND_TIMEOUT, play_session.SEARCH_SLACK = 10.0, 20.0
    print("engine killed and engine hung: restarted, the page told, the game kept ok")

    # Save and load: the PGN has the match tool's tags and loads back to the same moves.
    pgn = c.get(f"/api/pgn?id={c.id}")
    for tag in ('[Variant "janggi"]', '[SetUp "1"]', f'[FEN "{s["start_fen"]}"]',
                '[Opening "ma-sang-sang-ma vs sang-ma-ma-sang"]', '[Result "*"]'):
        check(tag in pgn, f"PGN lacks {tag}:\n{pgn}")
    moves, fen = list(s["moves"]), s["fen"]
    bad = pgn.split("\n\n")[0] + "\n\n" + " ".join(moves[:3]) + " a1i10 *\n"
    s = c.post("pgn", pgn=bad)
    check(s["error"] and s["error"].startswith("PGN: game 1, move 2... a1i10 (ply 4): ") and
          "not legal" in s["error"] and s["moves"] == moves, f"bad PGN: {s['error']}")
    s = c.post("pgn", pgn="1. b1c3 Nc3 *")
    check(s["error"] and s["error"].startswith("PGN: game 1, move 1... Nc3 (ply 2): 'Nc3': no "
                                               "horse of the side to move can go to c3") and
          s["moves"] == moves, f"a SAN move that names no legal move: {s['error']}")
    s = c.post("fen", fen="rnba1abnr/4k4/9 w - - 0 1")
    check(s["error"] and "FEN" in s["error"] and s["moves"] == moves, f"bad FEN: {s['error']}")
    s = c.post("pgn", pgn=pgn)
    check(s["error"] is None and s["moves"] == moves and s["fen"] == fen and s["human"] == "both",
          "the saved PGN loaded back")
    s = c.post("goto", ply=2)
    check(s["ply"] == 2 and s["fen"] == engine_fen(engine, "janggi", s["start_fen"], moves[:2]),
          "stepping through a loaded PGN")
    print("PGN saved with Variant/FEN/Opening, loaded back; bad PGN and FEN refused ok")

    notations_and_games(c, engine)
    set_up_positions(c, engine, page)

    # Analysis at the cursor: MultiPV lines with scores and WDL; stop.
    s = c.post("analyse", multipv=3)
    wait_until(lambda: len((c.post("state")["analysis"] or {}).get("lines", [])) == 3, 20,
               "three analysis lines")
    s = c.post("stop")
    a = s["analysis"]
    check(not a["running"] and all(l["pv"] and "wdl" in l and (l["cp"] is not None or l["mate"])
                                   for l in a["lines"]), f"analysis lines: {a}")
    nodes = [l["nodes"] for l in a["lines"]]
    time.sleep(0.5)
    check([l["nodes"] for l in c.post("state")["analysis"]["lines"]] == nodes, "stop did not stop")
    print("analysis: 3 lines with score, WDL and pv; stop ok")

    # The end of a game comes from the engine: a position at janggi's move limit, won on
    # points (Cho 2 : Han 1.5).
    ended = "4k4/9/9/9/9/9/4P4/9/4K4/9 w - - 0 101"
    over = engine_answer(engine, "janggi", ended, [], "go depth 1")
    got = re.search(r"info string game over: (.*)", over)
    s = c.post("fen", fen=ended)
    check(got and s["over"] and s["over"]["text"] == "game over: " + got.group(1) and
          s["over"]["result"] == "1-0" and s["over"]["points"] == [2.0, 1.5] and
          s["over"]["reason"] == "move-limit" and s["legal"] == [],
          f"game end: {s['over']} vs engine '{got and got.group(1)}'")
    print(f"game end from the engine: {s['over']['text']} ok")

    # Hansu opens when the person is Han; an Elo strength plays.
    s = c.post("new", variant="xiangqi", human="b",
               strength={"mode": "elo", "elo": 1500, "movetime": 200})
    check(s["error"] is None and len(s["moves"]) == 1 and s["variant"] == "xiangqi" and
          s["fen"].split()[1] == "b" and s["formations"] is None, f"Hansu as Red: {s}")
    check(not any(m[:len(m) // 2] == m[len(m) // 2:] for m in s["legal"]), "a pass in xiangqi")
    print("xiangqi, the person as Black at Elo 1500: Hansu opens ok")

    # A page whose session ended gets its game back; another site's page is refused.
    r = Client(base)
    g = {k: s[k] for k in ("variant", "start_fen", "moves", "ply", "human", "strength",
                           "formations")}
    s2 = r.post("open", restore=g)
    check(s2["moves"] == s["moves"] and s2["human"] == "b" and s2["fen"] == s["fen"] and
          any("restored" in n for n in s2["notes"]), f"restore: {s2['notes']}")
    r.post("close")
    s2 = r.post("open", restore=dict(g, moves=["a1a9"]))
    check(s2["moves"] == [] and any("could not be restored" in n for n in s2["notes"]),
          f"a bad restore: {s2['notes']}")
    r.post("close")
    req = urllib.request.Request(base + "/api/open", b"{}", method="POST",
                                 headers={"Origin": "http://example.com"})
    try:
        urllib.request.urlopen(req, timeout=10)
        check(False, "a request from another site's page was served")
    except urllib.error.HTTPError as e:
        check(e.code == 403, f"another site's page: HTTP {e.code}")
    print("a page's game restored into a new session; another site's page refused ok")

    # A game on the clock: Hansu searches on wtime/btime, the person's time runs out.
    s = c.post("new", variant="janggi", human="w", strength={"mode": "clock", "clock": 1.5,
                                                            "inc": 0})
    check(s["clock"] and s["clock"]["running"] == "w" and s["clock"]["w"] <= 1500, "clock")
    s = c.post("move", move="b1c3")
    check(len(s["moves"]) == 2 and s["clock"]["running"] == "w" and 0 < s["clock"]["b"] < 1500,
          f"Hansu on the clock: {s['clock']}")
    time.sleep(1.6)
    s = c.post("state")
    check(s["over"] and s["over"]["reason"] == "time" and s["over"]["result"] == "0-1" and
          s["clock"]["w"] == 0 and s["clock"]["running"] is None, f"time: {s['over']}")
    s = c.post("takeback")
    check(s["error"] and "lost on time" in s["error"] and len(s["moves"]) == 2, "takeback")
    pgn = c.get(f"/api/pgn?id={c.id}")
    check('[TimeControl "1.5+0"]' in pgn and '[Termination "time"]' in pgn and
          '[Result "0-1"]' in pgn, f"clock PGN:\n{pgn}")
    print("a game on the clock: Hansu on wtime/btime, the person's fall ends it ok")

    # Two pages, two engines; closing a page ends its engine; a silent page is reaped.
    d = Client(base)
    s2 = d.post("open")
    pid1, pid2 = c.post("state")["engine_pid"], s2["engine_pid"]
    check(pid1 != pid2 and alive(pid1) and alive(pid2), "two pages share an engine")
    d.post("close")
    wait_until(lambda: not alive(pid2), 5, "the closed page's engine to end")
    play.IDLE_S = 1.0
    wait_until(lambda: not alive(pid1), 8, "a silent page's engine to end")
    print("two pages, two engines; closed and silent pages end theirs ok")
    server.shutdown()
    server.close_all()
    return 0


# A PGN text of four games as people paste them: xiangqi in WXF, janggi in SAN with a pass,
# xiangqi in Chinese notation (its last move names no legal move) and in ICCS (its Format tag);
# each game's moves in UCI, as the test reads them itself (files from the mover's right in WXF;
# ICCS counts ranks from 0). test_play_browser loads them too.
GAMES = """[Event "WXF"]
[Round "1"]
[White "Red one"]
[Black "Black one"]
[Variant "xiangqi"]
[Result "*"]

1. C2=5 H8+7 2. H2+3 R9=8 3. R1=2 C8.9 *

[Event "SAN"]
[Round "2"]
[White "Cho two"]
[Black "Han two"]
[Variant "janggi"]

1. Nc3 Nc8 2. pass Ra9+ 3. Ra2! e7e6 *

[Event "Chinese"]
[Round "3"]
[White "Red three"]
[Variant "xiangqi"]

1. 炮二平五 马８进７ 2. 马二进三 车９平８ 3. Ng3 *

[Event "ICCS"]
[Round "4"]
[Variant "xiangqi"]
[Format "ICCS"]

1. H2-E2 H9-G7 2. H0-G2 I9-H9 *
"""
WANT = {1: ["h3e3", "h10g8", "h1g3", "i10h10", "i1h1", "h8i8"],
        2: ["b1c3", "b10c8", "e2e2", "a10a9", "a1a2", "e7e6"],
        3: ["h3e3", "h10g8", "h1g3", "i10h10"], 4: ["h3e3", "h10g8", "h1g3", "i10h10"]}


def notations_and_games(c, engine):
    """Several games in one text: listed with their tags, any one loaded; moves in WXF, Chinese,
    ICCS and SAN read as the engine's legal moves; a bad game refused by number and move."""
    before = c.post("state")
    s = c.post("pgn", pgn=GAMES)
    games = s.get("pgn_games") or []
    check(s["error"] is None and [g["number"] for g in games] == [1, 2, 3, 4] and
          games[1]["tags"]["White"] == "Cho two" and games[1]["tags"]["Round"] == "2" and
          games[1]["tags"]["Variant"] == "janggi" and [g["plies"] for g in games] == [6, 6, 5, 4]
          and s["moves"] == before["moves"], f"the games of a PGN listed: {s.get('pgn_games')}")
    for n in (1, 2, 4):
        s = c.post("pgn", pgn=GAMES, game=n)
        variant = "janggi" if n == 2 else "xiangqi"
        check(s["error"] is None and s["variant"] == variant and s["moves"] == WANT[n] and
              s["fen"] == engine_fen(engine, variant, s["start_fen"], WANT[n]),
              f"game {n}: {s['error']} {s['moves']}")
    # Game 3's last move names no legal move: the game's number, the move's number and text.
    s = c.post("pgn", pgn=GAMES, game=3)
    check(s["error"] == "PGN: game 3, move 3. Ng3 (ply 5): 'Ng3': no horse of the side to move "
          "can go to g3" and s["moves"] == WANT[4], f"game 3 refused: {s['error']}")
    s = c.post("pgn", pgn=GAMES, game=5)
    check(s["error"] == "PGN: no game 5 (the text has 4)", f"game 5: {s['error']}")
    # Two chariots that both go to one file: WXF's file names both, the front one names one.
    two = ('[Variant "xiangqi"]\n[FEN "4k4/9/9/9/9/9/9/R8/R8/3K5 w - - 0 1"]\n\n'
           "1. R9=8 *")
    s = c.post("pgn", pgn=two)
    check(s["error"] and "'R9=8' names 2 legal moves here" in s["error"], f"R9=8: {s['error']}")
    s = c.post("pgn", pgn=two.replace("R9=8", "+R=8"))
    check(s["error"] is None and s["moves"] == ["a3b3"], f"+R=8: {s['error']} {s['moves']}")
    # WXF is xiangqi's: in janggi it is no notation; a move after a FEN with Han to move is
    # numbered from the FEN's move number.
    s = c.post("pgn", pgn='[Variant "janggi"]\n[FEN "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/'
               '1C5C1/4K4/RNBA1ABNR b - - 0 7"]\n\n7... Nc8 8. C2=5 *')
    check(s["error"] and s["error"].startswith("PGN: game 1, move 8. C2=5 (ply 2): 'C2=5' is not"
                                               " a move in a notation Hansu reads"),
          f"janggi WXF: {s['error']}")
    print("PGN of 4 games listed with their tags; WXF, Chinese, ICCS and SAN games loaded; a bad "
          "game refused by number and move ok")

    # A Korean .gib record, read by the engine's .gib reader (hansu-selfplay gib): the moves of
    # its golden PGN; a bad record among two is named in the notes, a text of bad ones refused.
    gib_dir = os.path.join(REPO, "tests", "data", "gib")
    with open(os.path.join(gib_dir, "short-game.gib"), encoding="utf-8") as f:
        short = f.read()
    with open(os.path.join(gib_dir, "samples.pgn"), encoding="utf-8") as f:
        golden = [g for g in play_session.game_viewer.parse_pgn(f.read())
                  if g["tags"].get("GibSource") == "short-game.gib:1"][0]
    tool = os.path.join(os.path.dirname(os.path.dirname(engine)), "selfplay", "hansu-selfplay")
    s = c.post("pgn", pgn=short)
    if not os.access(tool, os.X_OK):  # a build without the self-play tool (no HDF5)
        check(s["error"] and "reading .gib records needs" in s["error"], f"no {tool}: {s}")
        print(f".gib records: {s['error']} ok")
        return
    check(s["error"] is None and s["moves"] == golden["moves"] and s["variant"] == "janggi" and
          s["start_fen"] == golden["tags"]["FEN"], f".gib record: {s['error']} {s['moves']}")
    bad = short.replace("1. 79졸78", "1. 99차11", 1)
    s = c.post("pgn", pgn=short + "\n" + bad)
    check(s["error"] is None and s["moves"] == golden["moves"] and
          any("refused record 2" in n and "'99차11'" in n for n in s["notes"]),
          f"a bad .gib record among two: {s['error']} {s['notes']}")
    s = c.post("pgn", pgn=bad)
    check(s["error"] and s["error"].startswith("GIB: refused record 1") and "'99차11'" in
          s["error"] and s["moves"] == golden["moves"], f"a bad .gib record: {s['error']}")
    print(".gib records read by the engine's reader; a bad one named, one alone refused ok")


def set_up_positions(c, engine, page):
    """The set-up editor's FENs go to the engine: a position it refuses is refused with its
    reason; one it takes is analysed. The editor's start positions are the engine's."""
    data = json.loads(re.search(r'<script type="application/json" id="hansu-play">(.*?)</script>',
                                page, re.S).group(1))
    s = c.post("new", variant="janggi", cho="sang-ma-sang-ma", han="ma-sang-ma-sang", human="w",
               strength={"mode": "nodes", "nodes": 300})
    check(data["starts"]["janggi"]["sang-ma-sang-ma|ma-sang-ma-sang"] == s["start_fen"] and
          len(data["starts"]["janggi"]) == 16 and
          data["starts"]["xiangqi"] == engine_fen(engine, "xiangqi", None, []),
          "the editor's start positions")
    moves = s["moves"]
    for variant, fen in (("janggi", "4k4/9/9/9/9/9/9/9/9/K8 w - - 0 1"),  # outside the palace
                         ("janggi", "3k5/9/9/9/9/9/9/9/4K4/3R5 w - - 0 1"),  # Han in check
                         ("janggi", "4k4/9/9/9/9/9/9/9/RR2K4/R8 w - - 0 1"),  # three chariots
                         ("xiangqi", "4k4/9/9/9/9/9/9/9/9/3KA4 w - - 0 1"),  # an advisor
                         ("xiangqi", "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1")):  # the generals face
        reason = re.search(r"info string (?:error: )?(.*)",
                           engine_answer(engine, variant, fen, [], "d"))
        s = c.post("fen", fen=fen, variant=variant)
        check(reason and s["error"] == reason.group(1) and s["moves"] == moves,
              f"set-up {fen}: {s['error']} (the engine: {reason and reason.group(1)})")
    fen = "3k5/4a4/9/9/9/9/9/9/4R4/4K4 w - - 0 1"
    s = c.post("fen", fen=fen, variant="xiangqi")
    check(s["error"] is None and s["fen"] == engine_fen(engine, "xiangqi", fen, []) and
          s["human"] == "both" and s["legal"], f"a set-up position taken: {s['error']}")
    s = c.post("analyse", multipv=1)
    wait_until(lambda: len((c.post("state")["analysis"] or {}).get("lines", [])) == 1, 20,
               "an analysis line of the set-up position")
    c.post("stop")
    fen = "4k4/9/9/9/4c4/9/9/9/4K4/R8 b - - 0 1"
    s = c.post("fen", fen=fen, variant="janggi")
    check(s["error"] is None and s["variant"] == "janggi" and
          s["fen"] == engine_fen(engine, "janggi", fen, []), f"a janggi set-up: {s['error']}")
    print("set-up positions: the engine's reasons for 5 refused, two taken, one analysed ok")


def engine_fen(engine, variant, fen, moves):
    return re.search(r"^Fen: (.*)$", engine_answer(engine, variant, fen, moves, "d"), re.M).group(1)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
