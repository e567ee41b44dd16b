#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/surprise-suite.py (issue 40): `extract` takes the positions before each engine's
surprised moves from a hand-written --move-info PGN (the hand-counted ones, as the game reached
them); `run` searches them with two settings of Hansu and counts the moves avoided; `replies` searches
the positions after each surprised move and after the game's reply; bad input is
refused in one line before any search (an illegal move in a suite, a damaged or foreign suite,
a name not in the games, bad flags, a folder as an output).
Usage: test_surprise_suite.py HANSU WORK_DIR"""
import gzip
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "surprise-suite.py")
HANSU, WORK = sys.argv[1:3]

# A's scores 50, -120, 250, 300 (plies 1, 3, 5, 7): one fall of 170, so its move at ply 1 (scored
# +50, and -120 by its next move) is a surprised one. B's 40, -10, -300, -250: one fall of 290,
# its move at ply 4. Every move legal from the start.
PGN = """[Event "t"]
[White "A"]
[Black "B"]
[Result "1-0"]
[Variant "janggi"]

1. c4c5 {+0.50/9 0.1s sd=9 n=9} 1... g7g6 {+0.40/9 0.1s sd=9 n=9} 2. c5c6 {-1.20/9 0.1s sd=9
n=9} 2... g6g5 {-0.10/9 0.1s sd=9 n=9} 3. c6c7 {+2.50/9 0.1s sd=9 n=9} 3... g5g4
{-3.00/9 0.1s sd=9 n=9} 4. c7c8 {+3.00/9 0.1s sd=9 n=9} 4... g4g3 {-2.50/9 0.1s sd=9 n=9} 1-0
"""


def sign_test_values():
    """The screen's exact sign test: 10 to 0 is 2 / 2^10, 7 to 3 is 2 (1 + 10 + 45 + 120) / 2^10,
    an even split and no pair at all 1."""
    import importlib.machinery
    import importlib.util
    loader = importlib.machinery.SourceFileLoader("surprise_suite", SCRIPT)
    spec = importlib.util.spec_from_loader("surprise_suite", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    assert mod.sign_test(10, 0) == 2 / 1024 and mod.sign_test(0, 10) == 2 / 1024
    assert abs(mod.sign_test(7, 3) - 352 / 1024) < 1e-12
    assert mod.sign_test(5, 5) == 1.0 and mod.sign_test(0, 0) == 1.0


def run(args):
    return subprocess.run([sys.executable, SCRIPT] + args, capture_output=True, text=True,
                          timeout=300)


def refused(args, says):
    r = run(args)
    assert (r.returncode == 1 and says in r.stderr and r.stderr.count("\n") == 1 and
            "Traceback" not in r.stderr), (args, r.returncode, r.stderr)


def main():
    sign_test_values()
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    pgn = os.path.join(WORK, "g.pgn")
    with open(pgn, "w") as f:
        f.write(PGN)
    suite = os.path.join(WORK, "a.json")
    r = run(["extract", "--pgn", pgn, "--name", "A", "--out", suite])
    assert r.returncode == 0, r.stderr
    s = json.load(open(suite))
    assert s["schema"] == 1 and s["variant"] == "janggi" and s["engine"] == "A", s
    assert len(s["positions"]) == 1, s
    p = s["positions"][0]
    assert p["id"] == "g.pgn#1:1" and p["start"] == "startpos", p
    assert p["moves"] == [] and p["played"] == "c4c5" and p["reply"] == "g7g6", p
    assert (p["score_cp"], p["next_cp"], p["fall_cp"]) == (50, -120, 170), p
    # B's surprise; a threshold above its fall finds none (refused: nothing to write).
    r = run(["extract", "--pgn", pgn, "--name", "B", "--out", os.path.join(WORK, "b.json")])
    assert r.returncode == 0, r.stderr
    b = json.load(open(os.path.join(WORK, "b.json")))["positions"]
    assert [(x["id"], x["played"], x["fall_cp"]) for x in b] == [("g.pgn#1:4", "g6g5", 290)], b
    assert b[0]["moves"] == ["c4c5", "g7g6", "c5c6"] and b[0]["reply"] == "c6c7", b
    refused(["extract", "--pgn", pgn, "--name", "B", "--surprise-cp", "300", "--out",
             os.path.join(WORK, "c.json")], "no move of B")
    refused(["extract", "--pgn", pgn, "--name", "Nobody", "--out", os.path.join(WORK, "c.json")],
            "no move of Nobody")
    refused(["extract", "--pgn", os.path.join(WORK, "none.pgn"), "--name", "A", "--out",
             os.path.join(WORK, "c.json")], "No such file")
    refused(["extract", "--pgn", pgn, "--name", "A", "--out", WORK], "a folder")
    assert not os.path.exists(os.path.join(WORK, "c.json"))
    # Both suites' positions, searched by two settings of one binary.
    both = dict(s, positions=s["positions"] + b)
    with open(suite, "w") as f:
        json.dump(both, f)
    out = os.path.join(WORK, "r.json")
    r = run(["run", "--suite", suite, "--engine", f"D={HANSU}", "--engine", f"S={HANSU}",
             "--option", "S:se_depth=4", "--nodes", "3000", "--json", out,
             "--md", os.path.join(WORK, "r.md")])
    assert r.returncode == 0, r.stderr
    res = json.load(open(out))
    assert res["schema"] == 1 and res["nodes"] == 3000, res
    rows = {e["name"]: e for e in res["engines"]}
    assert rows["S"]["options"] == {"se_depth": "4"} and rows["D"]["options"] == {}, rows
    for name in ("D", "S"):
        got = res["results"][name]
        assert [x["id"] for x in got] == ["g.pgn#1:1", "g.pgn#1:4"], got
        avoided = sum(x["best"] != y["played"] for x, y in zip(got, both["positions"]))
        assert rows[name]["avoided"] == avoided and rows[name]["positions"] == 2, rows
        assert all(x["depth"] >= 1 and 0 < x["nodes"] <= 3000 for x in got), got
    assert "| S | se_depth=4 |" in open(os.path.join(WORK, "r.md")).read()
    # The paired screen: S against D position by position, counted from the results.
    f = rows["S"]["against_first"]
    dres, sres = res["results"]["D"], res["results"]["S"]
    only_s = sum(x["best"] != p["played"] and y["best"] == p["played"]
                 for x, y, p in zip(sres, dres, both["positions"]))
    assert f["avoided_only_here"] == only_s and "against_first" not in rows["D"], rows
    assert 0 < f["p_avoided"] <= 1 and f["kept_only_here"] == f["kept_only_first"] == 0, f
    assert "Paired with D" in open(os.path.join(WORK, "r.md")).read()
    # The replies: the position after each surprised move (the opponent's search, which must
    # name its move and whether it is the game's reply) and after the reply.
    r = run(["replies", "--suite", suite, "--engine", f"D={HANSU}", "--nodes", "3000",
             "--json", out, "--md", os.path.join(WORK, "p.md")])
    assert r.returncode == 0, r.stderr
    res = json.load(open(out))
    got = res["results"]["D"]
    assert [(x["id"], x["reply"]) for x in got] == [("g.pgn#1:1", "g7g6"),
                                                    ("g.pgn#1:4", "c6c7")], got
    assert all(x["found"] == (x["best"] == x["reply"]) and x["best"] for x in got), got
    assert all(isinstance(x["after_cp"], int) or isinstance(x["after_mate"], int)
               for x in got), got
    row = res["engines"][0]
    assert row["found"] == sum(x["found"] for x in got) and row["positions"] == 2, row
    falls = [p["score_cp"] - x["after_cp"] for x, p in zip(got, both["positions"])
             if x["after_cp"] is not None]
    assert abs(row["fall_seen"] - sum(falls) / len(falls)) < 1e-9, (row, falls)
    gaps = [-x["after_cp"] - x["cp"] for x in got
            if not x["found"] and x["cp"] is not None and x["after_cp"] is not None]
    assert row["misses"] == 2 - row["found"], row
    assert (row["miss_gap"] is None) == (not gaps), (row, gaps)
    assert not gaps or abs(row["miss_gap"] - sum(gaps) / len(gaps)) < 1e-9, (row, gaps)
    assert "| D | - |" in open(os.path.join(WORK, "p.md")).read()
    # --alone: the reply searched alone (searchmoves) is the engine's move there, and the
    # summary counts the misses whose reply scores above the choice.
    r = run(["replies", "--suite", suite, "--engine", f"D={HANSU}", "--nodes", "3000",
             "--alone", "--json", out])
    assert r.returncode == 0, r.stderr
    res = json.load(open(out))
    got, row = res["results"]["D"], res["engines"][0]
    assert all(x["alone_best"] == x["reply"] for x in got), got
    assert all(isinstance(x["alone_cp"], int) or isinstance(x["alone_mate"], int)
               for x in got), got
    alone = [x["alone_cp"] - x["cp"] for x in got
             if not x["found"] and x["cp"] is not None and x["alone_cp"] is not None]
    assert row["alone_above"] == sum(g > 0 for g in alone), (row, alone)
    assert (row["alone_gap"] is None) == (not alone), (row, alone)
    assert "misses scoring the reply above the choice" in r.stdout, r.stdout
    # extract --control: A's moves whose score held (plies 3 and 5) join as controls; `run`
    # counts them apart, and `trace` searches each played move alone (searchmoves) with Trace
    # Replies and finds how its search treated the game's reply.
    ctl = os.path.join(WORK, "ctl.json")
    r = run(["extract", "--pgn", pgn, "--name", "A", "--control", "5", "--out", ctl])
    assert r.returncode == 0, r.stderr
    c = json.load(open(ctl))["positions"]
    assert [(x["id"], x.get("control", False)) for x in c] == [
        ("g.pgn#1:1", False), ("g.pgn#1:3", True), ("g.pgn#1:5", True)], c
    r = run(["run", "--suite", ctl, "--engine", f"D={HANSU}", "--nodes", "2000", "--json", out])
    assert r.returncode == 0, r.stderr
    row = json.load(open(out))["engines"][0]
    assert row["positions"] == 1 and row["controls"] == 2, row
    md = os.path.join(WORK, "t.md")
    r = run(["trace", "--suite", ctl, "--engine", f"D={HANSU}", "--nodes", "5000", "--json", out,
             "--md", md])
    assert r.returncode == 0, r.stderr
    res = json.load(open(out))
    got = res["results"]["D"]
    assert [(x["id"], x["played"], x["reply"], x["control"]) for x in got] == [
        ("g.pgn#1:1", "c4c5", "g7g6", False), ("g.pgn#1:3", "c5c6", "g6g5", True),
        ("g.pgn#1:5", "c6c7", "g5g4", True)], got
    for x in got:
        assert x["traced"] > 0 and x["depth"] >= 1, x
        if x["seen"]:
            assert x["number"] >= 1 and x["node_depth"] >= 0, x
            assert x["pruned"] or (x["reduction"] >= 0 and x["short"] is not None), x
    row = res["engines"][0]
    assert row["surprises"]["positions"] == 1 and row["controls"]["positions"] == 2, row
    assert row["surprises"]["seen"] + row["controls"]["seen"] == sum(x["seen"] for x in got)
    assert "| D | - | surprises | 1 |" in open(md).read(), open(md).read()
    refused(["extract", "--pgn", pgn, "--name", "A", "--control", "-1", "--out",
             os.path.join(WORK, "c.json")], "--control")
    # Refusals before any search: an illegal move in a position, a damaged or foreign suite,
    # bad flags; no output is written.
    bad = os.path.join(WORK, "bad.json")
    with open(bad, "w") as f:
        json.dump(dict(s, positions=[dict(p, moves=["c4c5", "a1a9"])]), f)
    out2 = os.path.join(WORK, "r2.json")
    refused(["run", "--suite", bad, "--engine", f"D={HANSU}", "--nodes", "100", "--json",
             out2], "refuses position g.pgn#1:1")
    for text, says in (("{", "not JSON"), ('{"schema": 2}', "not a suite of schema 1"),
                       (json.dumps(dict(s, positions=[{"id": "x"}])), "lacks one of")):
        with open(bad, "w") as f:
            f.write(text)
        refused(["run", "--suite", bad, "--engine", f"D={HANSU}", "--nodes", "100", "--json",
                 out2], says)
    refused(["run", "--suite", suite, "--engine", f"D={HANSU}", "--nodes", "0", "--json", out2],
            "--nodes")
    # A gzipped suite (as docs/ keeps them) is read as the plain one; a cut or foreign one is
    # refused.
    gz = os.path.join(WORK, "suite.json.gz")
    with open(suite, "rb") as f, open(gz, "wb") as g:
        g.write(gzip.compress(f.read()))
    r = run(["run", "--suite", gz, "--engine", f"D={HANSU}", "--nodes", "500", "--json", out2])
    assert r.returncode == 0, r.stderr
    assert len(json.load(open(out2))["results"]["D"]) == 2
    os.remove(out2)
    with open(gz, "rb") as f:
        cut = f.read()[:30]
    with open(gz, "wb") as g:
        g.write(cut)
    refused(["run", "--suite", gz, "--engine", f"D={HANSU}", "--nodes", "100", "--json", out2],
            "a damaged gzip file")
    with open(gz, "wb") as g:
        g.write(b"{}")
    refused(["run", "--suite", gz, "--engine", f"D={HANSU}", "--nodes", "100", "--json", out2],
            "not a gzip file")
    # A suite written before replies were kept, and one whose only surprise ended its game.
    with open(bad, "w") as f:
        json.dump(dict(s, positions=[{k: v for k, v in p.items() if k != "reply"}]), f)
    refused(["replies", "--suite", bad, "--engine", f"D={HANSU}", "--nodes", "9", "--json",
             out2], "have no reply")
    with open(bad, "w") as f:
        json.dump(dict(s, positions=[dict(p, reply=None)]), f)
    refused(["replies", "--suite", bad, "--engine", f"D={HANSU}", "--nodes", "9", "--json",
             out2], "no position has a reply")
    with open(bad, "w") as f:
        json.dump(dict(s, positions=[dict(p, reply="a1a9")]), f)
    refused(["replies", "--suite", bad, "--engine", f"D={HANSU}", "--nodes", "9", "--json",
             out2], "refuses position g.pgn#1:1")
    with open(bad, "w") as f:
        json.dump(dict(s, positions=[dict(p, reply=7)]), f)
    refused(["replies", "--suite", bad, "--engine", f"D={HANSU}", "--nodes", "9", "--json",
             out2], "a move or start that is not one")
    refused(["run", "--suite", suite, "--engine", "D=/no/such", "--nodes", "9", "--json", out2],
            "not an executable file")
    refused(["run", "--suite", suite, "--engine", f"D={HANSU}", "--option", "E:x=1", "--nodes",
             "9", "--json", out2], "no engine named E")
    assert not os.path.exists(out2)
    print("test_surprise_suite: ok")


if __name__ == "__main__":
    main()
