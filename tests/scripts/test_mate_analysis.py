#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/mate-analysis.py's parts that need no engine: the PGN reader, which games Hansu lost
by checkmate, the FEN reader and the count of the pieces around Hansu's general, and its
one-line refusal of a missing file.
Usage: test_mate_analysis.py"""
import gzip
import importlib.util
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "mate-analysis.py")
spec = importlib.util.spec_from_file_location("mate_analysis", SCRIPT)
ma = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ma)

PGN = """[White "Hansu"]
[Black "FSF"]
[Result "0-1"]
[FEN "r1ba1abnr/4k4/1cn4c1/p1p1p1pp1/9/9/P1P1P1P1P/2N1C2C1/4K4/R1BA1ABNR w - - 2 3"]
[Termination "checkmate"]

1. a4b4 b8e8 2. e2e2
{Han mates} 0-1

[White "FSF"]
[Black "Hansu"]
[Result "0-1"]
[FEN "r1ba1abnr/4k4/1cn4c1/p1p1p1pp1/9/9/P1P1P1P1P/2N1C2C1/4K4/R1BA1ABNR w - - 2 3"]
[Termination "checkmate"]

1. a4b4 b8e8 {Han mates} 0-1
"""


def main():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "g.pgn")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(PGN)
        games = ma.read_pgn(path)
        assert len(games) == 2, games
        # Move numbers, comments and the result are not moves; a pass (e2e2) is.
        assert games[0]["moves"] == ["a4b4", "b8e8", "e2e2"], games[0]["moves"]
        assert [ma.hansu_lost_by_mate(g, "Hansu") for g in games] == ["w", None]
        # The same file gzip-compressed (g.pgn.gz, as docs/ keeps its PGNs) reads the same.
        with gzip.open(path + ".gz", "wt", encoding="utf-8") as fh:
            fh.write(PGN)
        assert ma.read_pgn(path + ".gz") == games
        with open(os.path.join(d, "cut.pgn.gz"), "wb") as fh:
            fh.write(open(path + ".gz", "rb").read()[:30])
        r = subprocess.run([sys.executable, SCRIPT, "--pgn", os.path.join(d, "cut.pgn.gz"),
                            "--hansu", path, "--fsf", path, "--out-json", os.path.join(d, "o.json"),
                            "--out-md", os.path.join(d, "o.md")], capture_output=True, text=True)
        assert (r.returncode == 1 and r.stderr.count("\n") == 1 and
                "cut.pgn.gz: a damaged gzip file" in r.stderr), r
        r = subprocess.run([sys.executable, SCRIPT, "--pgn", os.path.join(d, "none.pgn"),
                            "--out-json", os.path.join(d, "o.json"), "--out-md",
                            os.path.join(d, "o.md")], capture_output=True, text=True)
        assert r.returncode == 1 and r.stderr.count("\n") == 1 and "none.pgn" in r.stderr, r
    board = ma.parse_fen(games[0]["tags"]["FEN"])
    assert board[(4, 2)] == "K" and board[(4, 9)] == "k" and board[(0, 10)] == "r", board
    s = ma.surroundings("3a1a3/4nk3/R8/9/9/9/9/4A4/4AK3/9 w - - 0 60", True)
    assert s["general"] == "f2" and s["hansu_guards"] == 2, s
    assert s["palace_defenders"] == ["guard", "guard"] and s["material_hansu"] == 13 + 6, s
    assert s["material_fsf"] == 5 + 6 and s["zone_attackers"] == [], s
    s = ma.surroundings("3a1a3/4nk3/R8/9/9/9/9/4A4/4AK3/9 w - - 0 60", False)
    assert s["general"] == "f9" and s["palace_attackers"] == [] and s["palace_defenders"] == [
        "guard", "guard", "horse"], s
    print("mate-analysis: PGN, FEN and palace counts as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
