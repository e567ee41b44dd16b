#!/bin/sh
# SPDX-License-Identifier: MIT
# Self-play runner benchmark (issue 4; a measurement, not a test):
#  1. thread scaling: games/s with 1 and 2 threads on the same games at the same fixed nodes
#     (goal: ratio >= 1.8);
#  2. writer time share of the run (goal <= 5%);
#  3. bytes per position on disk, per column (goal <= 8 with everything stored);
#  4. games/hour/core at the default settings.
# Usage: scripts/bench-selfplay.sh [BUILD_DIR] [GAMES] [NODES]
#   BUILD_DIR  a Release build folder holding selfplay/hansu-selfplay   [build]
#   GAMES      games of the scaling runs                                [128]
#   NODES      nodes per move of the scaling runs                       [500]
# Environment: DEFAULT_GAMES (games of the default-settings run, 32), KEEP=1 keeps the runs.
set -eu
BUILD=${1:-build}
GAMES=${2:-128}
NODES=${3:-500}
DEFAULT_GAMES=${DEFAULT_GAMES:-32}
BIN="$BUILD/selfplay/hansu-selfplay"
[ -x "$BIN" ] || { echo "no $BIN: build it first (cmake --build $BUILD)" >&2; exit 2; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench-selfplay.XXXXXX")
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$WORK"' EXIT

run() { # run NAME THREADS GAMES [extra options...]
    name=$1 threads=$2 games=$3
    shift 3
    "$BIN" --games "$games" --threads "$threads" --no-bench --progress 100000 \
        --out "$WORK/$name" --json "$WORK/$name.json" "$@" >"$WORK/$name.txt" 2>"$WORK/$name.err"
}
field() { # field NAME KEY: a number of the run's --json result (docs/json-outputs.md)
    /usr/bin/python3 -c 'import json, sys; print("%.4g" % json.load(open(sys.argv[1]))[sys.argv[2]])' \
        "$WORK/$1.json" "$2"
}

echo "hansu-selfplay benchmark: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "scaling runs: $GAMES games, $NODES nodes per move, seed 1"
run one 1 "$GAMES" --nodes "$NODES"
run two 2 "$GAMES" --nodes "$NODES"
g1=$(field one games_per_s)
g2=$(field two games_per_s)
c1=$(field one cores_busy)
c2=$(field two cores_busy)
echo "  1 thread : $g1 games/s ($c1 cores busy)"
echo "  2 threads: $g2 games/s ($c2 cores busy)"
awk -v a="$g1" -v b="$g2" 'BEGIN { printf "  ratio    : %.2f (goal >= 1.8)\n", b / a }'
if [ "$(awk -v c="$c2" 'BEGIN { print (c < 1.8) }')" = 1 ]; then
    echo "  note: the 2-thread run got only $c2 cores: other load on the machine bounds the ratio"
fi
# Games per CPU-second: equal for 1 and 2 threads means no loss from the threading itself.
awk -v a="$g1" -v ca="$c1" -v b="$g2" -v cb="$c2" 'BEGIN {
    printf "  games per busy core: %.2f (1 thread), %.2f (2 threads): parallel efficiency %.2f\n",
           a / ca, b / cb, (b / cb) / (a / ca) }'
"$BIN" verify "$WORK/two" | sed 's/^/  /'
awk -v w="$(field two writer_s)" -v e="$(field two elapsed_s)" 'BEGIN {
    printf "writer share (2 threads): %.2f%% of the run (goal <= 5%%)\n", 100 * w / e }'
echo "bytes per position: $(field two bytes_per_position) (goal <= 8)"
if /usr/bin/python3 -c "import h5py" 2>/dev/null; then
    /usr/bin/python3 - "$WORK/two" <<'PY'
import glob, os, sys
import h5py
files = sorted(glob.glob(os.path.join(sys.argv[1], "shard-*.h5")))
total, n, cols = 0, 0, {}
for name in files:
    total += os.path.getsize(name)
    with h5py.File(name, "r") as f:
        n += f["positions/ply"].shape[0]
        for group in ("games", "positions"):
            for k, d in f[group].items():
                cols[group + "/" + k] = cols.get(group + "/" + k, 0) + d.id.get_storage_size()
print("  per column (bytes/position):",
      ", ".join("%s %.2f" % (k.split("/")[1], v / n) for k, v in sorted(cols.items(), key=lambda kv: -kv[1])[:5]))
print("  without the board column: %.2f" % ((total - cols["positions/board"]) / n))
PY
fi
echo "default settings ($(nproc) threads, $DEFAULT_GAMES games):"
run defaults 0 "$DEFAULT_GAMES"
echo "  $(grep '^games played' "$WORK/defaults.txt")"
echo "  $(grep '^cpu' "$WORK/defaults.txt")"
awk -v g="$DEFAULT_GAMES" -v c="$(field defaults cpu_s)" 'BEGIN {
    printf "  games/hour per busy core: %.0f\n", g / c * 3600 }'
