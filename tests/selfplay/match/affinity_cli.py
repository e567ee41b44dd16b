#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""hansu-match --affinity (issue 43): each game's engines run on a core of their own (fake
engines log the CPUs they may use at each `go`), the two games at once on different cores, in a
match and in a tournament; without the flag the engines keep every CPU; and the warning when the
games at once want more cores than there are (then nothing is pinned).

Usage: affinity_cli.py HANSU_MATCH FAKE_ENGINE WORK_DIR"""
import os
import shutil
import subprocess
import sys

MATCH, FAKE, WORK = sys.argv[1:4]
FAILURES = []
CPUS = sorted(os.sched_getaffinity(0))


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print(f"FAIL: {what}")


def play(tag, argv):
    """Runs hansu-match with slow fake engines; returns (result, {pid: set of CPU lists})."""
    log = os.path.join(WORK, tag + ".log")
    env = dict(os.environ, FAKE_ENGINE_AFFINITY=log)
    r = subprocess.run([MATCH] + argv + ["--each", f"cmd={FAKE}", "arg=slow", "arg=1",
                                         "--nodes", "1"],
                       capture_output=True, text=True, timeout=120, env=env)
    seen = {}
    if os.path.exists(log):
        for line in open(log):
            pid, cpus = line.split()
            seen.setdefault(pid, set()).add(cpus)
    return r, seen


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    two = ["--engine", "name=A", "--engine", "name=B"]
    everything = ",".join(map(str, CPUS))
    r, seen = play("free", two + ["--games", "4", "--concurrency", "2"])
    check(r.returncode == 0 and seen and all(s == {everything} for s in seen.values()),
          f"no --affinity: engines pinned {seen} {r.stderr}")
    if len(CPUS) < 2:
        r, seen = play("few", two + ["--games", "4", "--concurrency", "2", "--affinity"])
        check("Warning: 2 games at once x 1 thread per engine want 2 cores" in r.stdout and
              "so --affinity pinned nothing" in r.stdout, f"one CPU: {r.stdout[-300:]}")
        print(f"{len(FAILURES)} failures (one CPU: pinning not checked)")
        return 1 if FAILURES else 0
    # A match: each worker's engines on one core of their own, the two workers apart.
    r, seen = play("match", two + ["--games", "8", "--concurrency", "2", "--affinity"])
    check(r.returncode == 0 and "pinned to 1 core of their own" in r.stdout,
          f"match: {r.stdout[-300:]} {r.stderr}")
    cores = [s for s in seen.values()]
    check(all(len(s) == 1 and "," not in next(iter(s)) for s in cores),
          f"match: an engine on more than one core: {seen}")
    used = set().union(*cores) if cores else set()
    check(used == {str(CPUS[0]), str(CPUS[1])}, f"match: cores used {used}")
    # A tournament: every go on a single core, both cores used.
    r, seen = play("tournament", ["--tournament", "round-robin"] + two +
                   ["--engine", "name=C", "--rounds", "2", "--concurrency", "2", "--affinity"])
    check(r.returncode == 0, f"tournament: {r.stderr}")
    lists = set().union(*seen.values()) if seen else set()
    check(lists == {str(CPUS[0]), str(CPUS[1])}, f"tournament: cores used {lists}")
    # More games at once than cores: a warning, nothing pinned.
    n = len(CPUS) + 1
    r, seen = play("over", two + ["--games", "4", "--concurrency", str(n), "--affinity"])
    want = f"{n} games at once x 1 thread per engine want {n} cores, more than the {len(CPUS)}"
    check(want in r.stdout and "so --affinity pinned nothing" in r.stdout and want in r.stderr,
          f"overbooked: {r.stdout[-300:]} {r.stderr}")
    check(all(s == {everything} for s in seen.values()), f"overbooked: pinned {seen}")
    print(f"{len(FAILURES)} failures")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
