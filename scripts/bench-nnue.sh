#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The NNUE trainer's speed (a benchmark, not a test): hansu-nnue at L1 = 256 trains the same
# positions with 1 and then 2 threads, back to back in one run of this script, and prints each
# epoch's positions per wall-clock second and per CPU-second (the rate the threads got: on a
# machine shared with other work the wall figure understates, docs/nnue.md). Goal: >= 500,000
# positions/s per epoch on 2 threads.
# Usage: scripts/bench-nnue.sh [RUN_DIR|FILE.h5...]
#   Without inputs it plays (once) 2000 self-play games at 200 nodes, about 210k positions, into
#   ${BENCH_DIR:-/tmp/hansu-nnue-bench}/run200 (a couple of minutes on 2 free cores).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$BUILD" -j "${JOBS:-2}" hansu-nnue hansu-selfplay >/dev/null
DIR=${BENCH_DIR:-/tmp/hansu-nnue-bench}
mkdir -p "$DIR"
if [ $# -eq 0 ]; then
  if [ ! -d "$DIR/run200" ]; then
    "$BUILD/selfplay/hansu-selfplay" --games 2000 --nodes 200 --threads 2 --seed 7 --no-bench \
      --progress 60 --out "$DIR/run200"
  fi
  set -- "$DIR/run200"
fi
echo "== $*: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for t in 1 2; do
  # Passive waiting: a thread waiting for a descheduled peer sleeps instead of spinning, so the
  # CPU-second figure stays meaningful on a shared machine.
  OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive} "$BUILD/tuner/nnue/hansu-nnue" --threads "$t" \
    --epochs "${EPOCHS:-2}" --out "$DIR/bench-$t.nnue" "$@" | grep '^epoch'
done
echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
