#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""hansu-match lets engines ponder (issue 41): Hansu against Hansu on a clock, both with `ponder`
(one spelt `ponder=on`): each game's PGN carries PonderHits (the `go ponder` searches each side
started and how many its opponent's move turned into a ponderhit); some ponder searches hit,
some miss (stopped), and no game is lost by a crash, an illegal move or the clock; the state
file names the pondering engines. An engine without ponder starts none. `ponder=maybe`, ponder
at a node limit and ponder over CECP are refused before any game.

Usage: ponder_cli.py HANSU_MATCH HANSU WORK_DIR"""
import os
import re
import shutil
import subprocess
import sys

MATCH, HANSU, WORK = sys.argv[1:4]
FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print(f"FAIL: {what}")


def run(argv, timeout=300):
    return subprocess.run([MATCH] + argv, capture_output=True, text=True, timeout=timeout)


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    pgn = os.path.join(WORK, "p.pgn")
    r = run(["--engine", f"cmd={HANSU}", "name=A", "ponder", "--engine", f"cmd={HANSU}",
             "name=B", "ponder=on", "--tc", "3+0.05", "--margin", "400", "--games", "2",
             "--seed", "11", "--pgn", pgn])
    check(r.returncode == 0, f"the pondering match ran (exit {r.returncode}: {r.stderr[-300:]})")
    text = open(pgn).read() if os.path.exists(pgn) else ""
    hits = re.findall(r'\[PonderHits "Cho (\d+) of (\d+), Han (\d+) of (\d+)"\]', text)
    check(len(hits) == 2, f"each game carries PonderHits: {hits}")
    started = sum(int(h[1]) + int(h[3]) for h in hits)
    hit = sum(int(h[0]) + int(h[2]) for h in hits)
    check(started > 10 and 0 < hit < started,
          f"ponder searches started {started}, of which hits {hit}: some hit, some miss")
    terms = re.findall(r'\[Termination "([^"]*)"\]', text)
    check(not any(t in ("time", "crash", "illegal move") for t in terms),
          f"no game lost by a fault: {terms}")
    state = open(pgn + ".state").read() if os.path.exists(pgn + ".state") else ""
    check(" ponder=1,1" in state, "the state file names the pondering engines")
    # One side pondering: the other starts no ponder search.
    pgn2 = os.path.join(WORK, "q.pgn")
    r = run(["--engine", f"cmd={HANSU}", "name=A", "ponder", "--engine", f"cmd={HANSU}",
             "name=B", "--tc", "1+0.02", "--margin", "400", "--games", "2", "--seed", "12",
             "--pgn", pgn2])
    text = open(pgn2).read() if os.path.exists(pgn2) else ""
    for white, h in zip(re.findall(r'\[White "(\w)"\]', text),
                        re.findall(r'\[PonderHits "Cho (\d+) of (\d+), Han (\d+) of (\d+)"\]',
                                   text)):
        b_started = int(h[3]) if white == "A" else int(h[1])
        check(b_started == 0, f"B, without ponder, started {b_started} ponder searches")
    # Refusals, before any game.
    for extra, says in ((["ponder=maybe"], "ponder is on or off"),
                        (["ponder", "nodes=100"], "ponder needs a UCI engine"),
                        (["ponder", "proto=xboard"], "ponder needs a UCI engine")):
        r = run(["--engine", f"cmd={HANSU}", "name=A", "tc=1+0.01"] + extra +
                ["--engine", f"cmd={HANSU}", "name=B", "tc=1+0.01", "--games", "2"], timeout=30)
        check(r.returncode != 0 and says in r.stderr, f"{extra} refused: {r.stderr.strip()[:200]}")
    if FAILURES:
        sys.exit(1)
    print("ponder_cli: ok")


if __name__ == "__main__":
    main()
