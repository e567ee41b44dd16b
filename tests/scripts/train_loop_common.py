# SPDX-License-Identifier: MIT
"""What test_train_loop.py and test_train_nets.py share: scripts/ on the path and train_loop
imported as train, check(), and a run whose log is kept in memory and whose state is not saved
(make_run)."""
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "scripts"))
import train_loop as train  # noqa: E402


def check(cond, msg):
    if not cond:
        print("FAIL: " + msg, file=sys.stderr)
        sys.exit(1)


class QuietRun(train.Run):
    def log(self, text):
        self.logged.append(text)

    def save_state(self):
        pass

    def ensure_selfplay(self, k):
        pass  # no self-play data here; played again in test_train_nnue.py's carried run


def make_run(work, overrides):
    run = QuietRun(work, train.load_config(None, overrides))
    run.logged, run.state = [], {}
    return run
