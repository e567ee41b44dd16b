#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""hansu-match --move-info and scripts/match-profile.py (issue 40, item 1): a match at fixed
nodes with --move-info writes a {score/depth time sd= n= hf=} comment after every move that
agrees with the engine (its nodes are the node limit or just under; its depths > 0), and a
clock's comment carries clk=; the profile of a hand-written PGN gives the hand-computed
figures (depth, nodes/s, EBF, time, nodes and clock by stage, moves at low clock, results by
termination, an engine playing itself), and of a game made for it the hand-counted surprises,
foresight and scale; the profile's refusals.
Usage: test_match_profile.py HANSU_MATCH HANSU WORK_DIR"""
import gzip
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "match-profile.py")
MATCH, HANSU, WORK = sys.argv[1:4]

PGN = """[Event "t"]
[White "A"]
[Black "B"]
[Result "1-0"]
[FEN "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"]
[TimeControl "10+0.1"]
[Termination "checkmate"]

1. c4c5 {+0.30/10 1.000s sd=15 n=1024 hf=10 clk=9.100s} 1... g7g6
{-0.20/8 0.500s sd=12 n=256 clk=0.900s} 2. b1c3 {+M3/12 2.000s sd=20 n=4096 hf=30
clk=7.200s} {Cho mates} 1-0

[Event "t"]
[White "B"]
[Black "A"]
[Result "1-0"]
[FEN "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"]
[TimeControl "10+0.1"]
[Termination "bikjang"]

1. c4c5 {n/a/0 0.500s sd=0 n=0} 1... g7g6 {-M2/4 0.500s sd=4 n=16} 1-0
"""


# A 1-0 game for the turning points. A's scores 50, -120, 250, 300 (plies 1, 3, 5, 7): one fall
# of 170; from ply 5 on at least +200. B's 40, -10, -300, -250: one fall of 290; from ply 6 on
# at most -200. So A saw the end a ply before B (lead 1), and each was surprised once in 3.
TURN = """[Event "t"]
[White "A"]
[Black "B"]
[Result "1-0"]
[Termination "checkmate"]

1. c4c5 {+0.50/9 0.1s sd=9 n=9} 1... g7g6 {+0.40/9 0.1s sd=9 n=9} 2. c5c6 {-1.20/9 0.1s sd=9
n=9} 2... g6g5 {-0.10/9 0.1s sd=9 n=9} 3. c6c7 {+2.50/9 0.1s sd=9 n=9} 3... g5g4
{-3.00/9 0.1s sd=9 n=9} 4. c7c8 {+3.00/9 0.1s sd=9 n=9} 4... g4g3 {-2.50/9 0.1s sd=9 n=9} 1-0
"""


def load(name, text):
    """The script as a module, and text written to WORK/name."""
    spec = importlib.util.spec_from_file_location("match_profile", SCRIPT)
    mp = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mp)
    path = os.path.join(WORK, name)
    with open(path, "w") as f:
        f.write(text)
    return mp, path


def turning_points():
    mp, path = load("turn.pgn", TURN)
    rows = {r["engine"]: r for r in mp.profile(mp.read_games(path))}
    a, b = rows["A"], rows["B"]
    assert a["surprises"] == 1 and b["surprises"] == 1, (a, b)
    assert abs(a["surprises_per_100"] - 100 / 3) < 1e-9, a
    assert a["wins_seen_first"] == 1 and a["wins_seen_by_loser_first"] == 0, a
    assert a["win_lead_plies"] == 1 and b["win_lead_plies"] is None, (a, b)
    assert a["score_scale"] == 185 and b["score_scale"] == 145, (a, b)
    # A larger threshold counts only B's fall; a lead threshold of 260 leaves A only its last
    # move (ply 7) and B none (ply 8, the game's length).
    rows = {r["engine"]: r for r in mp.profile(mp.read_games(path), 200, 260)}
    assert rows["A"]["surprises"] == 0 and rows["B"]["surprises"] == 1, rows
    assert rows["A"]["win_lead_plies"] == 1, rows
    r = run([path, "--surprise-cp", "0"])
    assert r.returncode == 1 and "--surprise-cp" in r.stderr and "Traceback" not in r.stderr


# An engine against itself: both sides' clocks count (9 and 5 after their moves in plies 1-40).
SELF = """[Event "t"]
[White "A"]
[Black "A"]
[Result "1-0"]
[Termination "checkmate"]

1. c4c5 {+0.50/9 0.1s sd=9 n=100 clk=9.000s} 1... g7g6 {+0.40/9 0.1s sd=9 n=200 clk=5.000s} 1-0
"""


def self_play():
    mp, path = load("self.pgn", SELF)
    (a,) = mp.profile(mp.read_games(path))
    assert a["nodes_per_move_by_stage"]["1-40"] == 150, a
    assert a["clock_after_stage"]["1-40"] == 7.0, a


def run(args):
    return subprocess.run([sys.executable, SCRIPT] + args, capture_output=True, text=True)


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    pgn = os.path.join(WORK, "h.pgn")
    with open(pgn, "w") as f:
        f.write(PGN)
    out = os.path.join(WORK, "p.json")
    r = run([pgn, "--json", out])
    assert r.returncode == 0, r.stderr
    rows = {x["engine"]: x for x in json.load(open(out))["engines"]}
    a, b = rows["A"], rows["B"]
    # A: game 1 plies 1 and 3 (depth 10, then 12 with a mate score), game 2 ply 2 (depth 4, a
    # mate score): depths and EBF only over the move without a mate score, nodes/s over all.
    assert a["moves"] == 3 and a["decided_moves"] == 2 and a["depth"] == 10, a
    assert a["seldepth"] == 15, a
    assert abs(a["nps"] - (1024 + 4096 + 16) / 3.5) < 1e-6, a
    assert abs(a["ebf"] - 1024 ** 0.1) < 1e-9, a
    assert a["hashfull"] == 20 and a["low_clock_moves"] == 0, a
    assert a["seconds_per_move_by_stage"]["1-40"] == 3.5 / 3, a
    # Nodes per move by stage over all three; the clock after the stage from game 1 alone
    # (its last move there, ply 3, left 7.2 s; game 2's comment has no clk=).
    assert a["nodes_per_move_by_stage"]["1-40"] == (1024 + 4096 + 16) / 3, a
    assert a["clock_after_stage"] == {"1-40": 7.2, "41-80": None, "81-120": None,
                                      "121-": None}, a
    assert b["nodes_per_move_by_stage"]["1-40"] == 128 and b["clock_after_stage"]["1-40"] == 0.9
    assert a["wins"] == {"checkmate": 1} and a["losses"] == {"bikjang": 1}, a
    # B: game 1 ply 2 (0.9 s left of a 10 s base: low clock), game 2 ply 1 (no score).
    assert b["moves"] == 2 and b["low_clock_moves"] == 1 and b["hashfull"] is None, b
    assert b["losses"] == {"checkmate": 1} and b["wins"] == {"bikjang": 1}, b
    # The same games compressed (h.pgn.gz, as docs/ keeps its PGNs) give the same profile; a
    # damaged gzip stream is refused in one line naming the file.
    with open(pgn, "rb") as f, gzip.open(pgn + ".gz", "wb") as g:
        g.write(f.read())
    r = run([pgn + ".gz", "--json", out + ".gz.json"])
    assert r.returncode == 0, r.stderr
    assert json.load(open(out + ".gz.json"))["engines"] == json.load(open(out))["engines"]
    with open(pgn + ".gz", "rb") as f:
        damaged = f.read()[:40]
    with open(os.path.join(WORK, "cut.pgn.gz"), "wb") as f:
        f.write(damaged)
    r = run([os.path.join(WORK, "cut.pgn.gz")])
    assert (r.returncode == 1 and "cut.pgn.gz: a damaged gzip file" in r.stderr and
            r.stderr.count("\n") == 1 and "Traceback" not in r.stderr), r.stderr
    # A real match at fixed nodes with --move-info: every move has its comment.
    mpgn = os.path.join(WORK, "m.pgn")
    r = subprocess.run([MATCH, "--engine", f"cmd={HANSU}", "name=X", "--engine",
                        f"cmd={HANSU}", "name=Y", "--nodes", "300", "--games", "2", "--seed", "4",
                        "--move-info", "--pgn", mpgn], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    text = open(mpgn).read()
    body = "\n".join(ln for ln in text.splitlines() if not ln.startswith("["))
    moves = re.findall(r"[a-i]\d+[a-i]\d+", re.sub(r"\{[^}]*\}", " ", body))
    infos = re.findall(r"\{([^}]*)\}", body)
    infos = [x for x in infos if "/" in x and " n=" in x]
    assert len(infos) == len(moves) and moves, (len(infos), len(moves))
    for x in infos:
        m = re.search(r"/(\d+) [\d.]+s sd=\d+ n=(\d+) hf=\d+$", x.replace("\n", " "))
        # The node limit is armed once depth 1 completes: only a depth-1 search may pass it.
        assert m and int(m.group(1)) >= 1 and 0 < int(m.group(2)), x
        assert int(m.group(2)) <= 300 or int(m.group(1)) == 1, x
    assert " move_info=1" in open(mpgn + ".state").read()
    r = run([mpgn])
    assert r.returncode == 0 and "| X |" in r.stdout, r.stderr
    # Refusals.
    plain = os.path.join(WORK, "plain.pgn")
    with open(plain, "w") as f:
        f.write(re.sub(r"\{[^}]*\}", "", PGN))
    for args, says in (([os.path.join(WORK, "none.pgn")], "No such file"),
                       ([plain], "no move carries a --move-info comment"),
                       ([pgn, "--json", WORK], "a folder, not a file")):
        r = run(args)
        assert r.returncode == 1 and says in r.stderr and "Traceback" not in r.stderr, (args,
                                                                                          r.stderr)
    turning_points()
    self_play()
    print("test_match_profile: ok")


if __name__ == "__main__":
    main()
