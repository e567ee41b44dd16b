#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""How long `stop` takes to bring the bestmove, by thread count (Lazy SMP, docs/scaling.md).

For each --threads count the engine (one UCI process, `setoption name Threads value N`) searches
--reps positions with `go infinite`; after --think-ms it is sent `stop`, and the time from
writing `stop` to reading `bestmove` is the stop latency. After the bestmove
`setoption name Threads value N` (the same count: it changes nothing but waits for every helper
thread, as the next `go`, `ucinewgame` or `setoption` does) and `isready` are sent, and the time
from `stop` to that `readyok` is the settle time: when every thread of the search has ended.
Then `ucinewgame` and `isready` are sent, and the time from `ucinewgame` to that `readyok` is the
new-game time: what clearing every thread's tables costs the GUI (each helper's own tables are
cleared by its own thread at its next search, so it should not grow with threads).
The table gives the median and the maximum of each per thread count; the machine's load average
(os.getloadavg) is printed and recorded beside them, since on a loaded machine the figures
measure the load as much as the engine.

Usage:
  scripts/stop-latency.py [--engine build/engine/hansu] [--threads 1,2,4,8,16,32,64,128,256]
                          [--reps 5] [--think-ms 500] [--json FILE]
Exit status 1 with a one-line message on bad input or an engine that does not answer; the JSON
(docs/json-outputs.md) is written whole or not at all.
"""
import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci_engine import Engine, EngineError, write_whole  # noqa: E402

PROG = "stop-latency"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Positions searched in turn (UCI moves from the janggi start), so that the TT does not answer
# a repeated search at once.
LINES = ["", "c4c5", "c4c5 g7g6", "b1c3", "h1g3 h10g8", "e4f4", "c1d3", "g4f4"]


def fail(msg):
    sys.exit(f"{PROG}: {msg}")


def parse_args(argv):
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default=os.path.join(ROOT, "build", "engine", "hansu"))
    ap.add_argument("--threads", default="1,2,4,8,16,32,64,128,256")
    ap.add_argument("--reps", default="5")
    ap.add_argument("--think-ms", default="500")
    ap.add_argument("--json")
    a = ap.parse_args(argv)
    try:
        a.threads = [int(t) for t in a.threads.split(",")]
    except ValueError:
        fail(f"--threads '{a.threads}': expected counts separated by commas, e.g. 1,2,4")
    if not a.threads or any(t < 1 or t > 1024 for t in a.threads):
        fail("--threads: each count must be 1..1024")
    try:
        a.reps, a.think_ms = int(a.reps), int(a.think_ms)
    except ValueError:
        fail(f"--reps '{a.reps}' and --think-ms '{a.think_ms}' must be whole numbers")
    if a.reps < 1 or a.think_ms < 0:
        fail("--reps must be 1 or more and --think-ms 0 or more")
    if not os.access(a.engine, os.X_OK):
        fail(f"--engine {a.engine}: not an executable (build first)")
    return a


def wait_for(e, prefix):
    """Reads lines up to the one that starts with prefix; returns the time it was read."""
    e.wait_for(prefix)
    return time.monotonic()


def measure(e, threads, reps, think_ms):
    """Stop latency, settle time and new-game time (ms) of reps infinite searches on threads
    threads."""
    e.send(f"setoption name Threads value {threads}")
    e.ready()
    stop_ms, ready_ms, newgame_ms = [], [], []
    for r in range(reps):
        moves = LINES[r % len(LINES)]
        e.send("position startpos" + (" moves " + moves if moves else ""))
        e.send("go infinite")
        time.sleep(think_ms / 1000)
        t0 = time.monotonic()
        e.send("stop")
        t1 = wait_for(e, "bestmove")
        e.send(f"setoption name Threads value {threads}")  # waits for every helper thread
        e.send("isready")
        t2 = wait_for(e, "readyok")
        t3 = time.monotonic()
        e.send("ucinewgame")
        e.send("isready")
        t4 = wait_for(e, "readyok")
        stop_ms.append((t1 - t0) * 1000)
        ready_ms.append((t2 - t0) * 1000)
        newgame_ms.append((t4 - t3) * 1000)
    return stop_ms, ready_ms, newgame_ms


def row(threads, stop_ms, ready_ms, newgame_ms):
    return {"threads": threads, "reps": len(stop_ms),
            "stop_ms": [round(x, 2) for x in stop_ms],
            "stop_median_ms": round(statistics.median(stop_ms), 2),
            "stop_max_ms": round(max(stop_ms), 2),
            "ready_ms": [round(x, 2) for x in ready_ms],
            "ready_median_ms": round(statistics.median(ready_ms), 2),
            "ready_max_ms": round(max(ready_ms), 2),
            "newgame_ms": [round(x, 2) for x in newgame_ms],
            "newgame_median_ms": round(statistics.median(newgame_ms), 2),
            "newgame_max_ms": round(max(newgame_ms), 2)}


def main(argv):
    a = parse_args(argv)
    load_before = os.getloadavg()
    print(f"{PROG}: {a.engine}, {a.reps} stops per count after {a.think_ms} ms of go infinite; "
          f"load average {load_before[0]:.2f} on {os.cpu_count()} cores")
    print(f"{'threads':>7} {'stop median':>12} {'stop max':>10} {'ready median':>13} "
          f"{'ready max':>10} {'newgame median':>15} {'newgame max':>12}  (ms)")
    rows = []
    try:
        e = Engine([a.engine], {})
        for t in a.threads:
            r = row(t, *measure(e, t, a.reps, a.think_ms))
            rows.append(r)
            print(f"{t:>7} {r['stop_median_ms']:>12.1f} {r['stop_max_ms']:>10.1f} "
                  f"{r['ready_median_ms']:>13.1f} {r['ready_max_ms']:>10.1f} "
                  f"{r['newgame_median_ms']:>15.1f} {r['newgame_max_ms']:>12.1f}", flush=True)
        e.send("quit")
        e.p.wait(timeout=60)
    except EngineError as err:
        fail(str(err))
    load_after = os.getloadavg()
    print(f"load average after: {load_after[0]:.2f}")
    if a.json:
        doc = {"schema": 1, "engine": a.engine, "think_ms": a.think_ms, "cores": os.cpu_count(),
               "loadavg_before": [round(x, 2) for x in load_before],
               "loadavg_after": [round(x, 2) for x in load_after], "rows": rows}
        err = write_whole(a.json, json.dumps(doc, indent=1) + "\n")
        if err:
            fail(err)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
