#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/train_report.py on a copy of docs/train-example (which keeps no self-play files):
the self-play game counts stay as they were (not rewritten to 0) and the plots drawn from
those files are kept; corrupt inputs give a one-line error naming the file, no traceback.
With BUILD_DIR: report.html's viewer holds as many games as the [report] caps say (the run's
config, then --set), and a cap that is not a whole number of games >= 0 or an unknown one is
refused in one line naming it.

Usage: test_train_report.py WORK_DIR [BUILD_DIR]"""
import filecmp
import gzip
import json
import os
import re
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(REPO, "docs", "train-example")
REPORT = os.path.join(REPO, "scripts", "train_report.py")


def report(run, *args):
    return subprocess.run([sys.executable, REPORT, run, *args], capture_output=True, text=True)


def games_column(path):
    rows = [l.split("|") for l in open(path) if l.startswith("| ") and l[2].isdigit()]
    return [r[3].strip() for r in rows]


def fresh(work, name):
    run = os.path.join(work, name)
    shutil.rmtree(run, ignore_errors=True)
    shutil.copytree(EXAMPLE, run)
    return run


def expect_one_line_error(run, needle, what, *args):
    r = report(run, *args)
    lines = r.stderr.strip().splitlines()
    ok = r.returncode == 1 and len(lines) == 1 and needle in lines[0] and "Traceback" not in r.stderr
    print(f"{'ok' if ok else 'FAIL'}: {what}: rc {r.returncode}: {r.stderr.strip()[:300]}")
    return ok


def viewer_groups(run):
    """How many games of each set report.html's viewer holds."""
    with open(os.path.join(run, "report.html"), encoding="utf-8") as f:
        data = re.search(r'id="hansu-games">(.*?)</script>', f.read(), re.S).group(1)
    counts = {}
    for g in json.loads(data)["games"]:
        counts[g["group"]] = counts.get(g["group"], 0) + 1
    return counts


def set_report_config(run, caps, iterations=None):
    """state.json's config.report set to caps; with iterations, only that many iterations kept
    (fewer plots to draw)."""
    path = os.path.join(run, "state.json")
    with open(path) as f:
        state = json.load(f)
    state["config"]["report"] = caps
    if iterations is not None:
        state["iterations"] = state["iterations"][:iterations]
        state["iteration"] = iterations
    with open(path, "w") as f:
        json.dump(state, f)


def selfplay(build, run, *args):
    """A short self-play run (60 nodes a move) into the run's iter-001/selfplay."""
    return subprocess.run([os.path.join(build, "selfplay", "hansu-selfplay"), *args, "--nodes",
                           "60", "--threads", "1", "--hash", "1", "--no-bench", "--progress",
                           "1000", "--out", os.path.join(run, "iter-001", "selfplay")],
                          capture_output=True, text=True)


def test_caps(work, build):
    """The viewer's game caps from the run's [report] and --set; bad caps refused."""
    ok = True
    run = fresh(work, "caps")
    r = selfplay(build, run, "--games", "12")
    if r.returncode != 0:
        print(f"FAIL: self-play: {r.stderr}")
        return False
    with gzip.open(os.path.join(REPO, "docs", "match-report", "nodes-20000.pgn.gz"), "rt") as f:
        eight = "[Event ".join(f.read().split("[Event ")[:9])  # its first 8 games
    os.makedirs(os.path.join(run, "gauntlet"))
    with open(os.path.join(run, "iter-001", "match.pgn"), "w") as f:
        f.write(eight)
    # The gauntlet's PGN compressed, as docs/ keeps its PGNs: read as gauntlet/final.pgn would be.
    with gzip.open(os.path.join(run, "gauntlet", "final.pgn.gz"), "wt") as f:
        f.write(eight)
    set_report_config(run, {"selfplay_games": 1, "match_games": 6, "gauntlet_games": 4}, 1)
    import h5py  # the sample: one game of each end reason that occurred, then 1 more
    reasons = set()
    for name in os.listdir(os.path.join(run, "iter-001", "selfplay")):
        if name.endswith(".h5"):
            with h5py.File(os.path.join(run, "iter-001", "selfplay", name)) as f:
                reasons |= set(int(x) for x in f["games"]["reason"][:])
    cases = [((), {"self-play": len(reasons) + 1, "match": 6, "gauntlet final": 4}),
             (("--set", "report.match_games=0", "--set", "report.selfplay_games=3"),
              {"self-play": len(reasons) + 3, "match": 8, "gauntlet final": 4})]
    for args, want in cases:
        r = report(run, "--build", build, *args)
        got = viewer_groups(run) if r.returncode == 0 else r.stderr
        print(f"{'ok' if got == want else 'FAIL'}: caps {args or 'of the run'}: {got}")
        ok &= got == want
    for bad, where in (("-1", "state.json"), ("2.5", "state.json"), ('"all"', "state.json")):
        set_report_config(run, {"match_games": json.loads(bad)})
        ok &= expect_one_line_error(run, f"report.match_games = {json.loads(bad)!r}",
                                    f"report.match_games = {bad} in {where}", "--build", build)
    set_report_config(run, {"matches": 3})
    ok &= expect_one_line_error(run, "unknown setting report.matches", "unknown cap",
                                "--build", build)
    set_report_config(run, {})
    for item in ("report.gauntlet_games=-4", "report.gauntlet_games=x", "match.games=3"):
        ok &= expect_one_line_error(run, f"--set '{item}'", f"--set {item}", "--build", build,
                                    "--set", item)
    return ok


def test_xiangqi(work, build):
    """A xiangqi run's report: one start position and draws (its pairings plot has one cell)."""
    run = fresh(work, "xiangqi")
    r = selfplay(build, run, "--variant", "xiangqi", "--games", "6")
    if r.returncode != 0:
        print(f"FAIL: xiangqi self-play: {r.stderr}")
        return False
    if "wins              Red " not in r.stdout or " Black " not in r.stdout:
        print(f"FAIL: xiangqi self-play's summary does not name Red and Black: {r.stdout}")
        return False
    path = os.path.join(run, "state.json")
    with open(path) as f:
        state = json.load(f)
    state["config"].setdefault("run", {})["variant"] = "xiangqi"
    state["iterations"] = state["iterations"][:1]
    state["iteration"] = 1
    with open(path, "w") as f:
        json.dump(state, f)
    r = report(run, "--build", build)
    with open(os.path.join(run, "report.md")) as f:
        text = f.read() if r.returncode == 0 else ""
    ok = r.returncode == 0 and "Red's score per start" in text
    print(f"{'ok' if ok else 'FAIL'}: xiangqi run report: {r.stderr.strip()[-300:]}")
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
    if len(sys.argv) > 2:
        ok &= test_caps(work, sys.argv[2])
        ok &= test_xiangqi(work, sys.argv[2])
    else:
        print("no BUILD_DIR: the viewer's caps and a xiangqi run are not checked")
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
