#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""An XBoard (CECP) engine in hansu-match (issue 43): MaxQi (Debian's fairymax package) plays
xiangqi against Hansu with proto=xboard, every move refereed, no fault of either engine, its
thinking read as scores (an adjudication uses them); a position it cannot be told (no setboard),
a node limit and a variant it does not name are refused before any game. Skipped (77) without
/usr/games/maxqi.

Usage: maxqi_cli.py HANSU_MATCH HANSU WORK_DIR"""
import json
import os
import re
import shutil
import subprocess
import sys

MATCH, HANSU, WORK = sys.argv[1:4]
MAXQI = "/usr/games/maxqi"
FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print(f"FAIL: {what}")


def run(argv):
    return subprocess.run([MATCH] + argv, capture_output=True, text=True, timeout=120)


def main():
    if not os.access(MAXQI, os.X_OK):
        print(f"SKIP: no {MAXQI} (apt install fairymax)")
        return 77
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    pgn, js = os.path.join(WORK, "m.pgn"), os.path.join(WORK, "m.json")
    engines = ["--variant", "xiangqi", "--engine", f"cmd={MAXQI}", "name=MaxQi", "proto=xboard",
               "depth=3", "--engine", f"cmd={HANSU}", "name=Hansu", "depth=3"]
    # Four games: MaxQi's choices vary from run to run, and in about one game in three Hansu
    # mates before MaxQi's own score admits the loss, so two games left no adjudication at all
    # about one run in eight; four at 300 cp make that a few in a thousand.
    r = run(engines + ["--games", "4", "--openings", "starts", "--pgn", pgn, "--json", js,
                       "--resign", "movecount=2", "score=300"])
    check(r.returncode == 0, f"match: {r.stderr}")
    if r.returncode == 0:
        data = json.load(open(js))
        for name, f in data["faults"].items():
            check(f == {"time": 0, "illegal-move": 0, "crash": 0, "restarts": 0},
                  f"faults of {name}: {f}")
        text = open(pgn).read()
        plies = [int(p) for p in re.findall(r'\[PlyCount "(\d+)"\]', text)]
        ends = re.findall(r'\[Termination "([^"]*)"\]', text)
        # MaxQi at depth 3 can blunder a piece within ten plies, and the resign rule (two moves
        # of each engine past 300 cp) then ends the game early: a short game is no fault, but
        # every game must end on the board or by that rule, after both engines moved twice.
        check(len(plies) == 4 and min(plies) >= 4, f"games too short: {plies}")
        faults = {"none", "unknown", "time", "illegal-move", "crash"}
        check(len(ends) == 4 and not set(ends) & faults,
              f"games not ended on the board or by resignation: {ends}")
        check(data["games"] == 4, "four games")
        # Both engines' scores reached the adjudication (MaxQi's through its thinking output):
        # Hansu wins these games by far, so both pass 300 cp before the end in most of them.
        check(data.get("adjudication", {}).get("resign", 0) >= 1,
              f"no game adjudicated: {data.get('adjudication')}")
    refusals = [
        (engines + ["--games", "2", "--openings", "starts", "--random-plies", "2"],
         "engine MaxQi offers no setboard (CECP): it can play only from the start position"),
        (["--variant", "xiangqi", "--engine", f"cmd={MAXQI}", "name=MaxQi", "proto=xboard",
          "nodes=100", "--engine", f"cmd={HANSU}", "nodes=100", "--games", "2"],
         "engine MaxQi (proto=xboard): nodes= cannot be told over CECP"),
        (engines[2:] + ["--games", "2", "--openings", "starts"],
         "engine MaxQi: its UCI_Variant option does not offer janggi (it offers: xiangqi"),
    ]
    for argv, want in refusals:
        r = run(argv)
        check(r.returncode == 1 and want in r.stderr, f"refusal {want!r}: {r.stderr}")
    print(f"{len(FAILURES)} failures")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
