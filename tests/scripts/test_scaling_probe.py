#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/scaling-probe.py with two Hansu engines at tiny times: positions from a FEN file and
from a PGN's middlegames (through the engine's `d`), the JSON and markdown it writes (one row
per engine and time, depths and nodes/s of real searches, agreement with the reference move),
and its one-line refusals of bad input before any search.
Usage: test_scaling_probe.py HANSU"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "scaling-probe.py")

FENS = """# two janggi middlegames
r1ba1abnr/4k4/1cn4c1/p1p1p1pp1/9/9/P1P1P1P1P/2N1C2C1/4K4/R1BA1ABNR w - - 2 3
rnba1abnr/4k4/1c5c1/p1p1p3p/6p2/2P6/P3P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 2
"""

PGN = """[White "A"]
[Black "B"]
[Result "1-0"]

1. c4c5 g7g6 2. b1c3 b10c8 3. h1g3 h10g8 4. b3e3 h8e8 5. e2e1 i7h7 1-0
"""


def run(args):
    return subprocess.run([sys.executable, SCRIPT] + args, capture_output=True, text=True)


def main():
    hansu = sys.argv[1]
    with tempfile.TemporaryDirectory() as d:
        fens, pgn = os.path.join(d, "p.fen"), os.path.join(d, "g.pgn")
        with open(fens, "w") as f:
            f.write(FENS)
        with open(pgn, "w") as f:
            f.write(PGN)
        out, md = os.path.join(d, "probe.json"), os.path.join(d, "probe.md")
        engines = ["--engine", f"A={hansu}", "--engine", f"B={hansu}",
                   "--option", "B:Skill Level=0"]
        r = run(engines + ["--positions", fens, "--times", "0.02,0.06", "--reference", "A",
                           "--reference-time", "0.1", "--json", out, "--md", md])
        assert r.returncode == 0, r.stderr
        res = json.load(open(out))
        assert len(res["positions"]) == 2 and len(res["reference_moves"]) == 2
        rows = res["summary"]
        assert sorted((x["engine"], x["seconds"]) for x in rows) == [
            ("A", 0.02), ("A", 0.06), ("B", 0.02), ("B", 0.06)], rows
        for x in rows:
            assert x["positions"] == 2 and x["depth"] >= 1 and x["nps"] > 0, x
            assert 0 <= x["agreement"] <= 1, x
        # Skill Level 0 searches one ply: shallower than the full engine at the same time.
        depth = {(x["engine"], x["seconds"]): x["depth"] for x in rows}
        assert depth[("B", 0.06)] <= 1 < depth[("A", 0.06)], depth
        assert "| A | 0.02 |" in open(md).read()
        # From a PGN: positions every 2 plies from ply 2 to 8, 3 of them, FENs from `d`.
        r = run(engines[:2] + ["--pgn", pgn, "--from", "2", "--to", "8", "--every", "2",
                               "--count", "3", "--times", "0.02", "--reference-time", "0.02",
                               "--json", out])
        assert r.returncode == 0, r.stderr
        res = json.load(open(out))
        assert len(res["positions"]) == 3 and all(len(p.split()) == 6 for p in res["positions"])
        # --carry: the first player's positions of each game in order (plies 2, 4, 6, 8 of the
        # game above, from the start position: no FEN tag), each searched to the nodes with the
        # hash kept and cleared.
        r = run(engines[:2] + ["--pgn", pgn, "--from", "2", "--to", "8", "--carry", "3000",
                               "--json", out, "--md", md])
        assert r.returncode == 0, r.stderr
        carry = json.load(open(out))["carry"]["A"]
        for mode in ("kept", "cleared"):
            assert carry[mode]["positions"] == 4 and carry[mode]["depth"] >= 2, carry
        assert "A: depth at 3000 nodes, hash kept" in open(md).read()
        # Bad input: one line naming the problem, exit 1, nothing written.
        os.remove(out)
        bad = [
            ([], "no --engine given"),
            (["--engine", "A"], "expected NAME=COMMAND"),
            (["--engine", f"A={d}/none"], "not an executable file"),
            (engines[:2] + ["--engine", f"A={hansu}"], "named twice"),
            (engines[:2] + ["--option", "C:Hash=1"], "no engine named C"),
            (engines[:2] + ["--times", "1,x"], "expected seconds"),
            (engines[:2] + ["--times", "-1"], "must be in"),
            (engines[:2], "give either --positions or --pgn"),
            (engines[:2] + ["--positions", fens, "--pgn", pgn], "give either"),
            (engines[:2] + ["--positions", f"{d}/missing"], "No such file"),
            (engines[:2] + ["--pgn", f"{d}/missing.pgn"], "no such file"),
            (engines[:2] + ["--pgn", pgn, "--from", "40"], "reaches ply 40"),
            (engines[:2] + ["--positions", fens, "--reference", "Z"], "no engine of that name"),
            (engines[:2] + ["--positions", fens, "--carry", "100"], "needs NODES >= 1 and --pgn"),
            (engines[:2] + ["--pgn", pgn, "--carry", "-5"], "needs NODES >= 1 and --pgn"),
        ]
        for args, says in bad:
            r = run(args + ["--json", out])
            assert r.returncode == 1 and says in r.stderr and "Traceback" not in r.stderr, (
                args, r.returncode, r.stderr)
            assert not os.path.exists(out), args
        r = run(engines[:2] + ["--positions", fens, "--json", d])
        assert r.returncode == 1 and "cannot be written" in r.stderr, r.stderr
    print("test_scaling_probe: ok")


if __name__ == "__main__":
    main()
