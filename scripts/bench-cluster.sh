#!/bin/sh
# SPDX-License-Identifier: MIT
# Cluster benchmark (issue 15; a measurement, not a test): games/s of 1 MPI rank against 2
# ranks of 1 thread each on the same games, for self-play (the goal: >= 1.9x) and for
# hansu-match (1 game at a time on each rank). Prints both ratios and one JSON line (also
# written to JSON_FILE when given). Run it on an idle machine: the figures count only then.
# Usage: scripts/bench-cluster.sh [BUILD_DIR] [GAMES] [NODES] [JSON_FILE]
#   BUILD_DIR  a Release build with -DHANSU_MPI=ON (hansu-selfplay, hansu-match, hansu) [build-mpi]
#   GAMES      games of each self-play run (the match plays half as many)              [160]
#   NODES      nodes per move                                                          [800]
# Environment: MPIRUN (default mpirun), KEEP=1 keeps the runs. About 2 minutes on 2 cores.
set -eu
BUILD=${1:-build-mpi}
GAMES=${2:-160}
NODES=${3:-800}
OUTJSON=${4:-}
MPIRUN=${MPIRUN:-mpirun}
SP="$BUILD/selfplay/hansu-selfplay"
MATCH="$BUILD/selfplay/match/hansu-match"
ENGINE="$BUILD/engine/hansu"
for b in "$SP" "$MATCH" "$ENGINE"; do
    [ -x "$b" ] || { echo "no $b: build $BUILD with -DHANSU_MPI=ON first" >&2; exit 2; }
done
command -v "$MPIRUN" >/dev/null || { echo "no $MPIRUN (Open MPI: scripts/setup.sh)" >&2; exit 2; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench-cluster.XXXXXX")
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$WORK"' EXIT
MPI="$MPIRUN --allow-run-as-root --oversubscribe --bind-to none -np 2"
LOAD=$(cut -d' ' -f1-3 /proc/loadavg)

field() { # field FILE KEY: a number of a --json result (docs/json-outputs.md)
    /usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"
}
now() { date +%s.%N; }

echo "hansu cluster benchmark: $(nproc) cores, load $LOAD; $GAMES games, $NODES nodes per move"
SPF="--games $GAMES --nodes $NODES --seed 5 --no-bench --threads 1 --progress 100000"
# shellcheck disable=SC2086
"$SP" $SPF --out "$WORK/sp1" --json "$WORK/sp1.json" >"$WORK/sp1.txt" 2>&1
# shellcheck disable=SC2086
$MPI "$SP" $SPF --out "$WORK/sp2" --json "$WORK/sp2.json" >"$WORK/sp2.txt" 2>&1
s1=$(field "$WORK/sp1.json" games_per_s)
s2=$(field "$WORK/sp2.json" games_per_s)

MG=$((GAMES / 2 / 2 * 2))
MF="--engine cmd=$ENGINE name=A option.Hash=16 --engine cmd=$ENGINE name=B option.Hash=16
    --nodes $NODES --games $MG --random-plies 6 --seed 5 --concurrency 1"
t0=$(now)
# shellcheck disable=SC2086
"$MATCH" $MF --json "$WORK/m1.json" >"$WORK/m1.txt" 2>&1
t1=$(now)
# shellcheck disable=SC2086
$MPI "$MATCH" $MF --json "$WORK/m2.json" >"$WORK/m2.txt" 2>&1
t2=$(now)

/usr/bin/python3 - "$s1" "$s2" "$t0" "$t1" "$t2" "$MG" "$GAMES" "$NODES" "$(nproc)" "$LOAD" \
    "$OUTJSON" <<'EOF'
import json, sys
s1, s2, t0, t1, t2 = map(float, sys.argv[1:6])
mg, games, nodes, cores = map(int, sys.argv[6:10])
m1, m2 = mg / (t1 - t0), mg / (t2 - t1)
print("self-play: 1 rank %.3f games/s, 2 ranks %.3f games/s: %.2fx (goal >= 1.9x)" % (s1, s2, s2 / s1))
print("match:     1 rank %.3f games/s, 2 ranks %.3f games/s: %.2fx (wall clock, engines' start"
      " included)" % (m1, m2, m2 / m1))
out = {"cores": cores, "load": sys.argv[10], "nodes": nodes,
       "selfplay": {"games": games, "ranks1_games_per_s": s1, "ranks2_games_per_s": s2,
                    "ratio": s2 / s1},
       "match": {"games": mg, "ranks1_games_per_s": m1, "ranks2_games_per_s": m2,
                 "ratio": m2 / m1}}
line = json.dumps(out)
print(line)
if sys.argv[11]:
    open(sys.argv[11], "w").write(line + "\n")
EOF
