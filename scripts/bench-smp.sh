#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Lazy SMP: nodes/s on the bench positions with N threads against one, in one run (the bench at
# a fixed depth: with more than one thread its node count varies, so this measures speed, not
# the signature), and how long `stop` takes to bring a bestmove from an infinite search on N
# threads (the median of a few stops). Run it on an otherwise idle machine with at least N
# cores. Usage: scripts/bench-smp.sh [THREADS] [DEPTH]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${HANSU_BUILD:-$root/build}"
threads=${1:-2}
depth=${2:-11}
[ -x "$build/engine/hansu" ] || { echo "bench-smp.sh: no $build/engine/hansu (build first)" >&2; exit 1; }
case "$threads" in '' | *[!0-9]*) echo "bench-smp.sh: THREADS '$threads' is not a number" >&2; exit 1 ;; esac

nps() { "$build/engine/hansu" bench --threads "$1" "$depth" | awk -F': ' '/^Nodes\/second/ {print $2}'; }
one=$(nps 1)
many=$(nps "$threads")
echo "bench depth $depth: 1 thread $one nodes/s, $threads threads $many nodes/s, ratio $(python3 -c "print(f'{$many / $one:.2f}')")"

python3 - "$build/engine/hansu" "$threads" <<'PY'
import statistics, subprocess, sys, time
exe, threads = sys.argv[1], int(sys.argv[2])
p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s): p.stdin.write(s + "\n"); p.stdin.flush()
def wait(token):
    for line in p.stdout:
        if line.startswith(token): return line
send("uci"); wait("uciok")
send(f"setoption name Threads value {threads}"); send("isready"); wait("readyok")
lat = []
for moves in ("", "c4c5", "c4c5 g7g6", "b1c3", "h1g3 h10g8", "e4f4"):
    send("position startpos" + (" moves " + moves if moves else "")); send("go infinite")
    time.sleep(1.0)
    t = time.monotonic(); send("stop"); wait("bestmove")
    lat.append((time.monotonic() - t) * 1000)
send("quit")
print(f"stop on {threads} threads: bestmove after {statistics.median(lat):.1f} ms (median of "
      f"{len(lat)}, max {max(lat):.1f} ms)")
PY
