# SPDX-License-Identifier: MIT
"""What test_train_loop.py, test_train_nets.py and test_train_labelled.py share: scripts/ on the
path and train_loop imported as train, check(), a run whose log is kept in memory and whose state
is not saved (make_run), and the stub programs of a build of nets (STUB_HEAD, STUB_SELFPLAY,
stub_build)."""
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


# The start of a stub program: its arguments, its name (tool) and flag(NAME), the value after
# --NAME; then each test's own lines, which log the call where the test looks for it.
STUB_HEAD = """#!/usr/bin/python3
import glob, json, os, shutil, subprocess, sys
args, tool = sys.argv[1:], os.path.basename(sys.argv[0])
flag = lambda name: args[args.index(name) + 1] if name in args else None
"""

# A stub's self-play branch (the body of `if tool == "hansu-selfplay":`): one empty shard and
# the --json that scripts/train reads of two games.
STUB_SELFPLAY = """    os.makedirs(flag("--out"), exist_ok=True)
    open(os.path.join(flag("--out"), "stub-shard.dat"), "w").close()
    with open(flag("--json"), "w") as f:
        json.dump({"schema": 1, "games_saved": 2, "positions_saved": 200, "wins": [1, 1],
                   "reasons": {}, "shards": [{"path": "stub-shard.dat"}]}, f)
"""


def stub_build(work, text):
    """WORK/stub-build: a build folder whose programs (train.NNUE_TOOLS) are all the script
    text, which tells them apart by its name; returns its path."""
    build = os.path.join(work, "stub-build")
    for tool in train.NNUE_TOOLS:
        path = os.path.join(build, tool)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o755)
    return build
