#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The tuner's speed figures (a benchmark, not a test). Every ratio is measured inside one run
# of hansu-tune-bench, so a busy machine skews both sides alike:
#   - loading from HDF5 including decoding and trace building, positions/s, 1 and 2 threads
#     (goal >= 200,000/s)
#   - memory per stored position (goal <= 24 bytes + 4 per non-zero term)
#   - one epoch (gradient and loss in one pass) with 1 and 2 threads, per 1M positions, and
#     their ratio (goals <= 0.25 s with 2 threads, ratio >= 1.8)
# Usage: scripts/bench-tune.sh [FILE.h5]
#   Without FILE it writes (once) about 1M positions of random-move games, through the real
#   HDF5 store, to ${BENCH_DIR:-/tmp/hansu-tune-bench}/synth-7500.h5.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-tune}
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$BUILD" -j "${JOBS:-2}" hansu-tune-bench >/dev/null
BENCH=$BUILD/tuner/hansu-tune-bench

FILE=${1:-}
if [ -z "$FILE" ]; then
  DIR=${BENCH_DIR:-/tmp/hansu-tune-bench}
  mkdir -p "$DIR"
  FILE=$DIR/synth-7500.h5
  [ -f "$FILE" ] || "$BENCH" make "$FILE" 7500 1
fi
echo "== $FILE ($(du -h "$FILE" | cut -f1)), $(nproc) cores, load average $(cut -d' ' -f1 /proc/loadavg)"
# Passive waiting: threads that wait for a descheduled peer sleep instead of spinning, so the
# processor-time figures stay meaningful on a shared machine.
OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive} "$BENCH" run "$FILE" "${REPEATS:-5}"
