# SPDX-License-Identifier: MIT
"""scripts/train's child processes and its run folder's lock: children that die with the loop
(die_with_parent), their process groups ended (end_group), their CPU seconds counted (add_cpu),
and one scripts/train per run folder (lock_folder). Imported by the loop (scripts/train_loop.py);
it imports train_config, never the loop."""
import ctypes
import fcntl
import os
import resource
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_config import TrainError  # noqa: E402


PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
try:  # looked up once here: the child between fork and exec should import nothing
    PRCTL = ctypes.CDLL(None, use_errno=True).prctl
except (OSError, AttributeError):
    PRCTL = None  # not Linux: children are still ended by end_group, not on SIGKILL


def die_with_parent(parent):
    """In a child, before exec: SIGTERM (a clean stop: hansu-selfplay saves its finished
    games) when the script dies, even by SIGKILL. A parent already gone is caught by the
    getppid check."""
    if PRCTL is None or PRCTL(PR_SET_PDEATHSIG, signal.SIGTERM) != 0:
        return
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGTERM)


def end_group(proc, grace_s=10):
    """Ends a child's process group: waits grace_s for the child to stop by itself (after the
    SIGINT sent to it), then SIGTERM, then SIGKILL for whatever is left of the group."""
    for sig in (None, signal.SIGTERM, signal.SIGKILL):
        if sig is not None:
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                return
        try:
            proc.wait(timeout=grace_s)
            if sig is None:
                os.killpg(proc.pid, signal.SIGKILL)  # helpers the child left behind
            return
        except subprocess.TimeoutExpired:
            pass
        except ProcessLookupError:
            return


def add_cpu(run, kind, seconds):
    """Adds a step's CPU seconds (its programs' user + system time) to state.json's cpu_s."""
    state = getattr(run, "state", None)
    if isinstance(state, dict):
        cpu = state.setdefault("cpu_s", {})
        cpu[kind] = round(cpu.get(kind, 0.0) + seconds, 3)


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def lock_folder(folder):
    """An exclusive flock(2) on FOLDER/.hansu-lock, held for the process's life (the open file
    is returned: keep it), with this process's pid written in it: a second scripts/train on the
    same run folder (a new run or --resume) is refused, naming the holder's pid."""
    path = os.path.join(folder, ".hansu-lock")
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    lock = os.fdopen(fd, "r+")
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = lock.read().strip() or "?"
        lock.close()
        raise TrainError(f"{folder} is in use by another scripts/train (pid {holder}, "
                         f"{path} is locked); wait for it or stop it")
    lock.truncate(0)
    lock.write(f"{os.getpid()}\n")
    lock.flush()
    return lock
