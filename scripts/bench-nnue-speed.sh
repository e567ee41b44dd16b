#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Nodes/s of the NNUE engine against the classical one on the bench positions (a benchmark, not a
# test; issue 26 goal: NNUE >= 0.8x classical). Runs PAIRS alternated pairs in one run, each pair
# `hansu bench` classical then `hansu bench --evalfile NET`, so that a load on a shared machine
# falls on both alike; prints each pair's nodes/s and both ratios, then the medians.
# Without a trained net NET is a random one (scripts/nnue_random.py): the node counts differ from
# the classical search's, the cost per node is what is measured.
# Usage: scripts/bench-nnue-speed.sh [NET.nnue]   (env: PAIRS=5, DEPTH=9, VARIANT=janggi, BUILD)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
PAIRS=${PAIRS:-5}
DEPTH=${DEPTH:-9}
VARIANT=${VARIANT:-janggi}
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$BUILD" -j "${JOBS:-2}" hansu >/dev/null
HANSU="$BUILD/engine/hansu"
NET=${1:-}
if [ -z "$NET" ]; then
  NET=$(mktemp /tmp/hansu-random-XXXXXX.nnue)
  trap 'rm -f "$NET"' EXIT
  python3 scripts/nnue_random.py "$NET" --variant "$VARIANT" --seed 1
fi
nps() { "$HANSU" bench --variant "$VARIANT" "$@" "$DEPTH" | sed -n 's/^Nodes\/second: //p'; }
echo "== $VARIANT bench depth $DEPTH, $PAIRS alternated pairs, net $NET"
echo "== $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-5s %14s %14s %12s %12s\n' pair classical_nps nnue_nps nnue/class class/nnue
ratios=()
for i in $(seq 1 "$PAIRS"); do
  c=$(nps --classical)
  n=$(nps --evalfile "$NET")
  r=$(python3 -c "print(f'{$n / $c:.3f} {$c / $n:.3f}')")
  ratios+=("${r%% *}")
  printf '%-5s %14s %14s %12s %12s\n' "$i" "$c" "$n" ${r}
done
python3 - "${ratios[@]}" <<'PY'
import statistics, sys
r = sorted(float(x) for x in sys.argv[1:])
m = statistics.median(r)
print(f"median nnue/classical {m:.3f}  classical/nnue {1 / m:.3f}  (range {r[0]:.3f}..{r[-1]:.3f})")
PY
