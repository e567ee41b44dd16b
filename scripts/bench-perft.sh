#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Perft speed against Fairy-Stockfish 11.1 in the same run, for both variants: perft DEPTH
# (default 5) from the standard start, Hansu (`hansu perft [--variant xiangqi]`, Release build
# in build-bench) and Fairy-Stockfish (`UCI_Variant janggicasual`, then `UCI_Variant xiangqi`;
# `go perft`), best of RUNS (default 3) each, one thread each; a ratio line per variant.
# Wall time is measured around each whole run, process start-up included for both; the
# start-up cost is shown separately (perft 1). Both count the last ply in bulk: the legal
# move list is counted at depth 1, not made, as Stockfish's perft does. Goal: ratio >= 4.
# Usage: scripts/bench-perft.sh [DEPTH] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
DEPTH=${1:-5}
RUNS=${2:-3}
FSF=${FSF:-/usr/games/fairy-stockfish}
BUILD=${BENCH_BUILD_DIR:-build-bench}
[ -x "$FSF" ] || { echo "bench-perft.sh: no Fairy-Stockfish at $FSF" >&2; exit 2; }

# A folder that is already configured (BENCH_BUILD_DIR=build, say) keeps its options: only a new
# one is configured here, Release without the tests.
[ -f "$BUILD"/CMakeCache.txt ] || cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHANSU_TESTS=OFF >/dev/null
ninja -C "$BUILD" -j "${BENCH_JOBS:-2}" hansu >/dev/null
HANSU="$BUILD/engine/hansu"

now_ns() { date +%s%N; }

# The variant measured: Hansu's name and Fairy-Stockfish's UCI_Variant for it.
VARIANT=janggi
FSF_VARIANT=janggicasual

# hansu_run DEPTH -> "nodes nanoseconds"
hansu_run() {
  local t0 t1 out
  t0=$(now_ns)
  out=$("$HANSU" perft --variant "$VARIANT" --depth "$1")
  t1=$(now_ns)
  echo "$(sed -n 's/^Nodes searched: //p' <<<"$out") $((t1 - t0))"
}

# fsf_run DEPTH -> "nodes nanoseconds": from process start to the `Nodes searched` line.
fsf_run() {
  local t0 t1 line nodes=""
  t0=$(now_ns)
  coproc FSFPROC { exec "$FSF" 2>/dev/null; }
  printf 'setoption name UCI_Variant value %s\nposition startpos\ngo perft %d\n' \
    "$FSF_VARIANT" "$1" >&"${FSFPROC[1]}"
  while IFS= read -r line <&"${FSFPROC[0]}"; do
    case "$line" in "Nodes searched: "*) nodes=${line#Nodes searched: }; break ;; esac
  done
  t1=$(now_ns)
  echo quit >&"${FSFPROC[1]}"
  wait "$FSFPROC_PID" 2>/dev/null || true
  echo "$nodes $((t1 - t0))"
}

# best NAME DEPTH -> fastest of RUNS: "nodes nanoseconds"; the node count must not change.
best() {
  local fn=$1 depth=$2 best_ns="" nodes="" n ns
  for _ in $(seq "$RUNS"); do
    read -r n ns < <("$fn" "$depth")
    [ -n "$nodes" ] && [ "$n" != "$nodes" ] && { echo "node counts differ: $n $nodes" >&2; exit 1; }
    nodes=$n
    if [ -z "$best_ns" ] || [ "$ns" -lt "$best_ns" ]; then best_ns=$ns; fi
  done
  echo "$nodes $best_ns"
}

# measure VARIANT FSF_VARIANT: the table and the ratio line of one variant.
measure() {
  VARIANT=$1 FSF_VARIANT=$2
  local h_nodes h_ns f_nodes f_ns h_start f_start
  echo "$VARIANT (Fairy-Stockfish UCI_Variant $FSF_VARIANT):"
  read -r h_nodes h_ns < <(best hansu_run "$DEPTH")
  read -r f_nodes f_ns < <(best fsf_run "$DEPTH")
  read -r _ h_start < <(best hansu_run 1)
  read -r _ f_start < <(best fsf_run 1)
  if [ "$h_nodes" != "$f_nodes" ]; then
    echo "bench-perft.sh: $VARIANT node counts differ: Hansu $h_nodes, Fairy-Stockfish $f_nodes" >&2
    exit 1
  fi
  awk -v v="$VARIANT" -v hn="$h_nodes" -v hns="$h_ns" -v fn="$f_nodes" -v fns="$f_ns" \
      -v hs="$h_start" -v fs="$f_start" 'BEGIN {
    hr = hn / (hns / 1e9); fr = fn / (fns / 1e9)
    printf "%-16s %12s %10s %14s %12s\n", "engine", "nodes", "seconds", "nodes/s", "start-up s"
    printf "%-16s %12d %10.3f %14.0f %12.3f\n", "Hansu", hn, hns / 1e9, hr, hs / 1e9
    printf "%-16s %12d %10.3f %14.0f %12.3f\n", "Fairy-Stockfish", fn, fns / 1e9, fr, fs / 1e9
    printf "%s ratio Hansu/Fairy-Stockfish nodes/s: %.2f (goal >= 4; start-up included, nothing subtracted)\n", v, hr / fr
  }'
}

echo "perft $DEPTH from the standard start, best of $RUNS, wall time, one thread each"
echo "both count the last ply in bulk (the move list size at depth 1, as Stockfish's perft)"
measure janggi janggicasual
measure xiangqi xiangqi
