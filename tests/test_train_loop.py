#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/train's data window and verdicts, without running any program (issue 12):
- the window is counted in positions: newest iterations first while the total stays within
  tune.window_positions, always the newest one, so the data grows until the bound;
- a candidate is accepted only when its SPRT accepts H1 and, with match.confirm, a second
  SPRT with another seed accepts H1 too; the second is not played after an H0 or an
  inconclusive first;
- the old setting tune.window is refused with a message naming its replacement.

Usage: test_train_loop.py WORK_DIR"""
import importlib.machinery
import os
import shutil
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
train = importlib.machinery.SourceFileLoader(
    "train", os.path.join(REPO, "scripts", "train")).load_module()


def check(cond, msg):
    if not cond:
        print("FAIL: " + msg, file=sys.stderr)
        sys.exit(1)


class QuietRun(train.Run):
    def log(self, text):
        self.logged.append(text)

    def save_state(self):
        pass


def make_run(work, overrides):
    run = QuietRun(work, train.load_config(None, overrides))
    run.logged, run.state = [], {}
    return run


def test_window(work):
    run = make_run(work, ["tune.window_positions=2500"])
    for k, n in [(1, 1000), (2, 1200), (3, 900), (4, 3000)]:
        os.makedirs(run.iter_dir(k))
        with open(os.path.join(run.iter_dir(k), "selfplay.log"), "w") as f:
            # a resumed folder: the last line counts the whole folder
            f.write(f"run folder  {n // 2} games, {n // 2} positions saved, 1 bytes\n"
                    f"run folder  {n // 2} games, {n} positions saved, 1 bytes\n")
    got = [run.tune_window(k) for k in (1, 2, 3, 4)]
    check(got == [([1], 1000), ([1, 2], 2200), ([2, 3], 2100), ([4], 3000)],
          f"windows of 2500 positions: {got}")
    run.config["tune"]["window_positions"] = 0
    check(run.tune_window(4) == ([1, 2, 3, 4], 6100), "window 0 takes every iteration")
    os.remove(os.path.join(run.iter_dir(2), "selfplay.log"))
    try:
        run.tune_window(4)
        check(False, "a missing self-play log is an error")
    except train.TrainError as e:
        check("iteration 2" in str(e), str(e))
    # A run started before window_positions, l2 and confirm existed resumes with its own
    # setting: the last `window` iterations, and no confirming SPRT.
    old = train.load_config(None, [])
    for section, key in [("tune", "window_positions"), ("tune", "l2"), ("match", "confirm")]:
        del old[section][key]
    old["tune"]["window"] = 2
    train.check_config(old)
    run.config = old
    check(run.tune_window(4) == ([3, 4], 3900), f"old window of 2 iterations: {run.tune_window(4)}")
    check(run.verdict(4, {"match": {"sprt": "H1 accepted"}}, None, None), "old runs: one SPRT")


def test_verdict(work):
    for first, second, confirm, want, played in [
            ("H1 accepted", "H1 accepted", True, True, 1),
            ("H1 accepted", "H0 accepted", True, False, 1),
            ("H1 accepted", "continue (no bound crossed)", True, False, 1),
            ("H0 accepted", "H1 accepted", True, False, 0),
            ("continue (no bound crossed)", "H1 accepted", True, False, 0),
            ("H1 accepted", "H0 accepted", False, True, 0)]:
        run = make_run(work, [f"match.confirm={'true' if confirm else 'false'}"])
        seeds = []

        def fake_match(k, name, engine, opponent, games, sprt, seed=None):
            seeds.append(seed)
            check(name == "confirm" and sprt == run.config["match"]["sprt"], name)
            return {"sprt": second, "score": "1-0", "nelo": "1"}
        run.match = fake_match
        record = {"match": {"sprt": first}}
        got = run.verdict(3, record, ("cand", "iter-003"), ("cur", "initial"))
        check(got == want and len(seeds) == played,
              f"{first} then {second}, confirm {confirm}: accepted {got}, {len(seeds)} played")
        if played:
            check(seeds[0] != run.config["run"]["seed"] * 1000 + 3, "the confirming SPRT's seed "
                  "must differ from the first's")
            # resumed after the confirming match: it is not played again
            check(run.verdict(3, record, ("c", "n"), ("c", "n")) == want and len(seeds) == 1,
                  "the confirming result is kept in the record")


def test_renamed_setting():
    try:
        train.load_config(None, ["tune.window=3"])
        check(False, "tune.window accepted")
    except train.TrainError as e:
        check("tune.window_positions" in str(e), str(e))


def main():
    work = sys.argv[1]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    test_window(os.path.join(work, "window"))
    test_verdict(os.path.join(work, "verdict"))
    test_renamed_setting()
    print("ok: window in positions, confirmed verdicts, renamed setting")
    return 0


if __name__ == "__main__":
    sys.exit(main())
