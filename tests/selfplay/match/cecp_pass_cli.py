#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A janggi pass over CECP: Hansu as an XBoard engine (proto=xboard: `xboard` is its first
command) against Hansu over UCI, from a position where Cho's only legal move is a pass and Han
then mates in one. In the game where the XBoard engine is Cho it passes ("move @@@@"), which
must reach the referee as a pass; in the other it is told the UCI engine's pass ("usermove
@@@@") and mates. The pass was dropped: the XBoard engine lost by "hang" and the match still
exited 0.

Usage: cecp_pass_cli.py HANSU_MATCH HANSU WORK_DIR"""
import json
import os
import re
import shutil
import subprocess
import sys

MATCH, HANSU, WORK = sys.argv[1:4]
# Cho: the general on e1 alone; d1 and f1 are held by the chariots on d6 and f6, e2 by the horse
# on c3, and nothing gives check, so Cho must pass. Then Rd1 (guarded by the horse) mates.
FEN = "9/3k5/9/9/3r1r3/9/9/2n6/9/4K4 w - - 0 1"
FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print(f"FAIL: {what}")


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    book, pgn, js = (os.path.join(WORK, n) for n in ("pass.fen", "m.pgn", "m.json"))
    with open(book, "w") as f:
        f.write(FEN + "\n")
    r = subprocess.run([MATCH, "--engine", f"cmd={HANSU}", "name=X", "proto=xboard", "depth=3",
                        "--engine", f"cmd={HANSU}", "name=U", "depth=3", "--games", "2",
                        "--openings", book, "--watchdog", "5000", "--pgn", pgn, "--json", js],
                       capture_output=True, text=True, timeout=60)
    check(r.returncode == 0, f"match: {r.stderr}")
    if r.returncode == 0:
        data = json.load(open(js))
        for name, f in data["faults"].items():
            check(f == {"time": 0, "illegal-move": 0, "crash": 0, "restarts": 0},
                  f"faults of {name}: {f}")
        check(data["reasons"] == {"X": {"checkmate": 1}, "U": {"checkmate": 1}},
              f"each engine mates once as Han: {data['reasons']}")
        text = open(pgn).read()
        moves = re.findall(r"^1\. (.*)$", text, re.M)
        check(moves == ["e1e1 d6d1", "e1e1 d6d1"], f"each game a pass, then the mate: {moves}")
    print(f"{len(FAILURES)} failed")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
