#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A SIGKILL of scripts/train leaves no child running: its self-play child (run by the very
run_step the loop uses) stops, saves its finished games and releases the folder's lock, so
the suggested --resume is not a second writer.

Usage: test_train_children.py HANSU_SELFPLAY WORK_DIR"""
import fcntl
import os
import shutil
import signal
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Runs one step as scripts/train does; this process is the one killed.
HELPER = r"""
import sys
sys.path.insert(0, sys.argv[1])
import train_loop as train
class Stub:
    def log(self, msg):
        pass
train.Run.run_step(Stub(), "self-play", sys.argv[3:], sys.argv[2])
"""


def alive(pid):
    """True while pid runs (a zombie waiting for its reaper counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False


def wait_until(cond, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return cond()


def main():
    binary, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    out = os.path.join(work, "selfplay")
    argv = [binary, "--games", "1000000", "--nodes", "50", "--threads", "1", "--hash", "1",
            "--no-bench", "--checkpoint-s", "0.2", "--progress", "1000", "--out", out]
    helper = subprocess.Popen([sys.executable, "-c", HELPER, os.path.join(REPO, "scripts"),
                               os.path.join(work, "selfplay.log")] + argv)
    lock = os.path.join(out, ".hansu-lock")
    if not wait_until(lambda: os.path.exists(os.path.join(out, "shard-000000.h5")), 120):
        helper.kill()
        print("FAIL: self-play did not start", file=sys.stderr)
        return 1
    with open(lock) as f:
        child = int(f.read().strip())
    os.kill(helper.pid, signal.SIGKILL)
    helper.wait()
    gone = wait_until(lambda: not alive(child), 30)
    if not gone:
        os.kill(child, signal.SIGKILL)
        print(f"FAIL: self-play child {child} still runs after SIGKILL of its parent",
              file=sys.stderr)
        return 1
    # Its lock is gone with it: a --resume would not be refused.
    if os.path.exists(lock):
        with open(lock) as f:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    verify = subprocess.run([binary, "verify", out], capture_output=True, text=True)
    print(verify.stdout.strip(), verify.stderr.strip())
    if verify.returncode != 0:
        print("FAIL: the run folder does not verify", file=sys.stderr)
        return 1
    print(f"OK: child {child} ended with its parent; the folder verifies")
    return 0


if __name__ == "__main__":
    sys.exit(main())
