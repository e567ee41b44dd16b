#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/runs.sh, runs_match: a new match gets --pgn/--json and no --resume, its output
appended to NAME.txt; a committed run under way (PGN.gz and state, no plain PGN) is unpacked
byte for byte and resumed; a finished one (PGN.gz, no state) is not played again and returns
0; the match's exit status is returned; a name with spaces and quotes stays one argument.
runs_fsf_nodes: both engines at their nodes, Hansu's options (one with a space) its own, the
formation starts' 100 games at the seed and concurrency given.
Usage: test_runs_match.py"""
import gzip
import os
import subprocess
import sys
import tempfile

RUNS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "runs.sh")

# A stand-in for hansu-match: prints its arguments one a line, and what the PGN holds.
FAKE = """#!/bin/bash
for a in "$@"; do echo "arg:$a"; done
pgn=""
while [ $# -gt 0 ]; do [ "$1" = --pgn ] && pgn=$2; shift; done
[ -f "$pgn" ] && echo "pgn:$(cat "$pgn")"
exit ${FAKE_RC:-0}
"""


def run_match(folder, name, rc=0):
    env = dict(os.environ, FAKE_RC=str(rc))
    script = f'set -euo pipefail; . "{RUNS}"; runs_match "$1" ./fake --x 1'
    return subprocess.run(["bash", "-c", script, "runs", name], cwd=folder, env=env,
                          capture_output=True, text=True)


def main():
    failures = []

    def check(cond, what):
        if not cond:
            failures.append(what)

    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "fake"), "w") as f:
            f.write(FAKE)
        os.chmod(os.path.join(d, "fake"), 0o755)
        name = "m 'x\""
        # A new match.
        p = run_match(d, name)
        check(p.returncode == 0, f"new: rc {p.returncode} {p.stderr}")
        log = open(os.path.join(d, name + ".txt")).read()
        check(f"arg:--pgn\narg:{name}.pgn\narg:--json\narg:{name}.json\n" in log, "new: --pgn/--json")
        check("arg:--x\narg:1\n" in log, "new: the command's own arguments")
        check("--resume" not in log, "new: no --resume")
        # A committed run under way: PGN.gz and state, no plain PGN.
        text = b"[Event \"e\"]\n\n1. a1a2 *\n"
        with open(os.path.join(d, name + ".pgn.gz"), "wb") as f:
            f.write(gzip.compress(text))
        open(os.path.join(d, name + ".pgn.state"), "w").write("state\n")
        p = run_match(d, name)
        check(p.returncode == 0, f"resume: rc {p.returncode} {p.stderr}")
        check(open(os.path.join(d, name + ".pgn"), "rb").read() == text, "resume: PGN unpacked")
        log = open(os.path.join(d, name + ".txt")).read()
        check(log.count("arg:--resume") == 1, "resume: --resume once, appended to the log")
        check("pgn:[Event" in log, "resume: the match saw the unpacked PGN")
        # The match's failure is returned.
        p = run_match(d, name, rc=3)
        check(p.returncode == 3, f"failure: rc {p.returncode}, expected 3")
        # Finished: PGN.gz without a state.
        os.remove(os.path.join(d, name + ".pgn.state"))
        before = open(os.path.join(d, name + ".txt")).read()
        p = run_match(d, name)
        check(p.returncode == 0 and "finished" in p.stdout, f"finished: {p.returncode} {p.stdout}")
        check(open(os.path.join(d, name + ".txt")).read() == before, "finished: not played")
        # runs_fsf_nodes: the fixed-node match against Fairy-Stockfish, one argument a line.
        script = ('set -euo pipefail; . "$0"; runs_fsf_nodes fsf ./fake /h 1000000 /f 300000 5502 '
                  '2 "option.Use NNUE=false" option.x=1')
        p = subprocess.run(["bash", "-c", script, RUNS], cwd=d, capture_output=True, text=True)
        check(p.returncode == 0, f"fsf: rc {p.returncode} {p.stderr}")
        args = [a[4:] for a in open(os.path.join(d, "fsf.txt")).read().split("\n")
                if a.startswith("arg:")]
        want = ["--engine", "cmd=/h", "name=Hansu", "nodes=1000000", "option.Use NNUE=false",
                "option.x=1", "--engine", "cmd=/f", "name=FSF-11.1", "nodes=300000", "--games",
                "100", "--openings", "starts", "--seed", "5502", "--concurrency", "2",
                "--move-info", "--watchdog", "60000", "--pgn", "fsf.pgn", "--json", "fsf.json"]
        check(args == want, f"fsf: arguments {args}")
    for f in failures:
        print("FAIL:", f)
    print(f"test_runs_match: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
