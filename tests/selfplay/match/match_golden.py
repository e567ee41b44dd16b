#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A two-engine match (no --tournament) writes the PGN, state file and JSON that hansu-match wrote
before tournaments existed (issue 43): golden/two-engines.* were written by the hansu-match of
commit 633e6ae with the same flags (the JSON again by the parent of the tournaments' merge, which
added first_mover_wins, issue 39). Only the date differs from run to run: the PGN's [Date] tag,
and so the PGN's SHA-256 and each line's checksum at the end of the state file's pair lines; the
test puts the golden date in and checks those digests against the PGN it got.

Usage: match_golden.py HANSU_MATCH FAKE_ENGINE WORK_DIR"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

MATCH, FAKE, WORK = sys.argv[1:4]
GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")
FLAGS = ["--engine", f"cmd={FAKE}", "arg=good", "name=A",
         "--engine", f"cmd={FAKE}", "arg=crash", "arg=60", "name=B",
         "--nodes", "1", "--games", "8", "--random-plies", "4", "--seed", "7"]


def read(path):
    with open(path, "rb") as f:
        return f.read()


def undated(pgn):
    return re.sub(rb'\[Date "[0-9.]+"\]', b'[Date "DATE"]', pgn)


def state_lines(state):
    """The state file's lines, each pair line without its PGN digest and checksum."""
    out = []
    for line in state.decode().splitlines():
        out.append(" ".join(line.split()[:-2]) if line.startswith("pair ") else line)
    return out


def digests_match(state, pgn):
    """Each pair line's PGN length and SHA-256 are those of the PGN it sits beside."""
    for line in state.decode().splitlines():
        if line.startswith("pair "):
            f = line.split()
            end, digest = int(f[-3]), f[-2]
            if hashlib.sha256(pgn[:end]).hexdigest() != digest:
                return False
    return True


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    pgn = os.path.join(WORK, "m.pgn")
    js = os.path.join(WORK, "m.json")
    r = subprocess.run([MATCH] + FLAGS + ["--pgn", pgn, "--json", js], capture_output=True,
                       text=True, timeout=60)
    if r.returncode != 0:
        print(r.stdout, r.stderr)
        return 1
    fails = []
    got_pgn, want_pgn = read(pgn), read(os.path.join(GOLDEN, "two-engines.pgn"))
    if undated(got_pgn) != undated(want_pgn):
        fails.append("PGN differs from golden/two-engines.pgn (dates aside)")
    got_state = read(pgn + ".state")
    if state_lines(got_state) != state_lines(read(os.path.join(GOLDEN, "two-engines.pgn.state"))):
        fails.append("state file differs from golden/two-engines.pgn.state (digests aside)")
    if not digests_match(got_state, got_pgn):
        fails.append("state file's PGN digests are not those of the PGN")
    if read(js) != read(os.path.join(GOLDEN, "two-engines.json")):
        fails.append("JSON differs from golden/two-engines.json")
    json.loads(read(js))
    for f in fails:
        print("FAIL:", f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
