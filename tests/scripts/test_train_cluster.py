#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/train's [cluster] launcher (issue 15): its self-play and tuning steps, run as the loop
runs them with launcher = mpirun -np 2, give the games of one process (the same ids, moves and
results) and the weights header of one process with twice the threads; a launcher that is not
a list of words is refused by name.

Usage: test_train_cluster.py MPI_BUILD_DIR MPIRUN WORK_DIR"""
import filecmp
import json
import os
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "scripts"))
import train_loop as train  # noqa: E402


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def replaced(argv, flag, value):
    """argv with the value after flag replaced."""
    out = list(argv)
    out[out.index(flag) + 1] = value
    return out


def main():
    build, mpirun, work = sys.argv[1], sys.argv[2], sys.argv[3]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    launcher = [mpirun, "--allow-run-as-root", "--oversubscribe", "--bind-to", "none", "-np", "2"]
    try:
        train.load_config(None, ['cluster.launcher="mpirun -np 2"'])
        fail("a launcher given as one string was accepted")
    except train.TrainError as e:
        if "cluster.launcher" not in str(e):
            fail(f"no clear refusal: {e}")
    config = train.load_config(None, ["cluster.launcher=" + json.dumps(launcher),
                                      "selfplay.games=24", "selfplay.nodes=200", "run.threads=1",
                                      "tune.epochs=3", "tune.batch=500", 'selfplay.extra=["--no-bench"]'])
    run = train.Run(work, config)
    run.state = {}
    run.log = lambda text: None
    seen = []
    original = train.Run.run_step
    run.run_step = lambda name, argv, log, **kw: (seen.append(argv), original(run, name, argv, log, **kw))
    os.makedirs(run.iter_dir(1))
    run.step_selfplay(1, build)
    if seen[-1][:len(launcher)] != launcher:
        fail(f"self-play not launched by the launcher: {seen[-1]}")
    with open(os.path.join(run.iter_dir(1), "selfplay.json")) as f:
        result = json.load(f)
    if result.get("ranks") != 2 or result["games_saved"] != 24:
        fail(f"self-play over 2 ranks: {result}")
    one = replaced(replaced(seen[-1][len(launcher):], "--out", os.path.join(work, "one")),
                   "--json", os.path.join(work, "one.json"))
    subprocess.run(one, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    subprocess.run(["/usr/bin/python3", os.path.join(REPO, "tests", "selfplay", "cluster_games.py"),
                    os.path.join(work, "one"), "--", os.path.join(run.iter_dir(1), "selfplay"),
                    "--count", "24"], check=True)
    run.step_tune(1, build, {})
    if seen[-1][:len(launcher)] != launcher:
        fail(f"tuning not launched by the launcher: {seen[-1]}")
    tune = replaced(replaced(replaced(seen[-1][len(launcher):], "--threads", "2"), "--out",
                             os.path.join(work, "one.h")), "--loss-csv", os.path.join(work, "one.csv"))
    subprocess.run(tune, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if not filecmp.cmp(os.path.join(work, "one.h"), os.path.join(run.iter_dir(1), "candidate.h"),
                       shallow=False):
        fail("the tuning step over 2 ranks wrote other weights than one process with 2 threads")
    # The match step: the same totals over 2 ranks as one process with the same seed.
    run.match_tool = os.path.join(build, "selfplay", "match", "hansu-match")
    two = run.match(1, "cluster-match", (build, "a"), (build, "b"), 8, None)
    if seen[-1][:len(launcher)] != launcher:
        fail(f"the match not launched by the launcher: {seen[-1]}")
    solo = replaced(replaced(seen[-1][len(launcher):], "--pgn", os.path.join(work, "one.pgn")),
                    "--json", os.path.join(work, "one-match.json"))
    subprocess.run(solo, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(os.path.join(work, "one-match.json")) as f:
        one_match = json.load(f)
    with open(os.path.join(run.iter_dir(1), "cluster-match.json")) as f:
        two_match = json.load(f)
    keys = ("games", "score", "pentanomial", "cho_wins")
    if [two_match.get(k) for k in keys] != [one_match.get(k) for k in keys] or not two["games"]:
        fail(f"the match over 2 ranks: {[two_match.get(k) for k in keys]}, one process: "
             f"{[one_match.get(k) for k in keys]}")
    print("train [cluster]: self-play, tuning and a match over 2 ranks as one process")


if __name__ == "__main__":
    main()
