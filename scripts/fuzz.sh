#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the libFuzzer targets with clang (ASan + UBSan, assertions on) in build-fuzz and runs
# each for a bounded time on a copy of its seed corpus. Exits non-zero when a target crashes
# (the crashing input is left in build-fuzz/artifacts/).
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET]   (default 30)
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-30}
BUILD=${FUZZ_BUILD_DIR:-build-fuzz}
case "$SECS" in '' | *[!0-9]*) echo "fuzz.sh: seconds must be a whole number" >&2; exit 2 ;; esac
command -v clang >/dev/null || { echo "fuzz.sh: clang not found" >&2; exit 2; }

cmake -S . -B "$BUILD" -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
  -DHANSU_FUZZ=ON -DHANSU_TESTS=OFF -DHANSU_NATIVE=OFF >/dev/null
ninja -C "$BUILD" -j "${FUZZ_JOBS:-2}" fuzz_fen fuzz_move fuzz_gib fuzz_nnue

status=0
mkdir -p "$BUILD/artifacts"
# Runs fuzz_$1 for SECS seconds; its report goes to $BUILD/fuzz_$1.report.
fuzz_one() {
  local target=$1 corpus="$BUILD/corpus/$1"
  mkdir -p "$corpus"
  {
    echo "== fuzz_$target for ${SECS}s"
    # New inputs go to the first folder; the committed seeds stay as they are.
    if ! ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
        "$BUILD/fuzz/fuzz_$target" -max_total_time="$SECS" -max_len=600 -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$BUILD/artifacts/$target-" \
        "$corpus" "fuzz/corpus/$target" 2>"$BUILD/fuzz_$target.log"; then
      echo "fuzz_$target: FAILED (log: $BUILD/fuzz_$target.log)"
      tail -n 40 "$BUILD/fuzz_$target.log"
      return 1
    fi
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$BUILD/fuzz_$target.log" || true
    echo "fuzz_$target: no crash"
  } >"$BUILD/fuzz_$target.report"
}
# The targets side by side, their reports in turn.
pids=()
for target in fen move gib nnue; do
  fuzz_one "$target" &
  pids+=($!)
done
for pid in "${pids[@]}"; do
  wait "$pid" || status=1
done
for target in fen move gib nnue; do
  cat "$BUILD/fuzz_$target.report"
done
exit $status
