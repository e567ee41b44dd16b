#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/train_report.py on a copy of docs/train-example (which keeps no self-play files):
the self-play game counts stay as they were (not rewritten to 0) and the plots drawn from
those files are kept; corrupt inputs give a one-line error naming the file, no traceback.

Usage: test_train_report.py WORK_DIR"""
import filecmp
import os
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(REPO, "docs", "train-example")
REPORT = os.path.join(REPO, "scripts", "train_report.py")


def report(run):
    return subprocess.run([sys.executable, REPORT, run], capture_output=True, text=True)


def games_column(path):
    rows = [l.split("|") for l in open(path) if l.startswith("| ") and l[2].isdigit()]
    return [r[3].strip() for r in rows]


def fresh(work, name):
    run = os.path.join(work, name)
    shutil.rmtree(run, ignore_errors=True)
    shutil.copytree(EXAMPLE, run)
    return run


def expect_one_line_error(run, needle, what):
    r = report(run)
    lines = r.stderr.strip().splitlines()
    ok = r.returncode == 1 and len(lines) == 1 and needle in lines[0] and "Traceback" not in r.stderr
    print(f"{'ok' if ok else 'FAIL'}: {what}: rc {r.returncode}: {r.stderr.strip()[:300]}")
    return ok


def main():
    work = sys.argv[1]
    os.makedirs(work, exist_ok=True)
    ok = True
    run = fresh(work, "example")
    r = report(run)
    want, got = games_column(os.path.join(EXAMPLE, "report.md")), games_column(
        os.path.join(run, "report.md"))
    if r.returncode != 0 or not want or got != want:
        print(f"FAIL: self-play games {got[:5]}... instead of {want[:5]}...: {r.stderr}")
        ok = False
    for plot in ("reasons.png", "pairings.png"):
        if not filecmp.cmp(os.path.join(EXAMPLE, plot), os.path.join(run, plot), shallow=False):
            print(f"FAIL: {plot} was redrawn without the self-play files")
            ok = False
    run = fresh(work, "bad-json")
    with open(os.path.join(run, "state.json"), "w") as f:
        f.write('{"iterations": [')
    ok &= expect_one_line_error(run, "state.json", "truncated state.json")
    with open(os.path.join(run, "state.json"), "w") as f:
        f.write("[1, 2]")
    ok &= expect_one_line_error(run, "state.json", "state.json of another shape")
    run = fresh(work, "bad-csv")
    with open(os.path.join(run, "iter-002", "loss.csv"), "a") as f:
        f.write("7,zz,0.1\n")
    ok &= expect_one_line_error(run, os.path.join("iter-002", "loss.csv"), "corrupt loss.csv")
    run = fresh(work, "bad-shard")
    os.makedirs(os.path.join(run, "iter-001", "selfplay"))
    with open(os.path.join(run, "iter-001", "selfplay", "shard-000000.h5"), "wb") as f:
        f.write(b"\x89HDF\r\n\x1a\n" + bytes(200))
    ok &= expect_one_line_error(run, os.path.join("iter-001", "selfplay"), "corrupt shard")
    ok &= expect_one_line_error(os.path.join(work, "missing"), "state.json", "no run folder")
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
