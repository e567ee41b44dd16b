#!/bin/sh
# SPDX-License-Identifier: MIT
# Cluster benchmark (issue 15; a measurement, not a test): games/s of self-play on the same
# games played four ways, each ROUNDS times in turn (so slow and fast minutes of a shared host
# fall on every way alike), and the medians' ratios:
#   1 rank          one process, 1 thread
#   2 MPI ranks     mpirun -np 2, 1 thread each (the goal: >= 1.9x the 1 rank)
#   2 processes     --part 1/2 and --part 2/2 started together, no MPI: the same split with
#                   nothing shared, i.e. what 2 cores of this host give two independent
#                   programs (the ceiling for any parallel form of these games)
#   2 threads       one process, --threads 2 (OpenMP)
# then a match of half as many games in one process and over 2 ranks (1 game at a time each).
# Every rate is games / wall seconds of the command (process and mpirun start included).
# Prints the ratios and one JSON line (also written to JSON_FILE when given). Run it on an idle
# machine: the figures count only then.
# Usage: scripts/bench-cluster.sh [BUILD_DIR] [GAMES] [NODES] [JSON_FILE] [ROUNDS]
#   BUILD_DIR  a Release build with -DHANSU_MPI=ON (hansu-selfplay, hansu-match, hansu) [build-mpi]
#   GAMES      games of each self-play run (the match plays half as many)              [160]
#   NODES      nodes per move                                                          [800]
#   ROUNDS     rounds of the four self-play runs                                       [3]
# Environment: MPIRUN (default mpirun), KEEP=1 keeps the runs. About 5 minutes on 2 cores.
set -eu
BUILD=${1:-build-mpi}
GAMES=${2:-160}
NODES=${3:-800}
OUTJSON=${4:-}
ROUNDS=${5:-3}
MPIRUN=${MPIRUN:-mpirun}
SP="$BUILD/selfplay/hansu-selfplay"
MATCH="$BUILD/selfplay/match/hansu-match"
ENGINE="$BUILD/engine/hansu"
for b in "$SP" "$MATCH" "$ENGINE"; do
    [ -x "$b" ] || { echo "no $b: build $BUILD with -DHANSU_MPI=ON first" >&2; exit 2; }
done
command -v "$MPIRUN" >/dev/null || { echo "no $MPIRUN (Open MPI: scripts/setup.sh)" >&2; exit 2; }
case "$ROUNDS" in '' | *[!0-9]* | 0) echo "ROUNDS must be a positive integer, not '$ROUNDS'" >&2; exit 2 ;; esac
WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench-cluster.XXXXXX")
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$WORK"' EXIT
MPI="$MPIRUN --allow-run-as-root --oversubscribe --bind-to none -np 2"
LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
now() { date +%s.%N; }
TIMES="$WORK/times"
: >"$TIMES"
timed() { # timed WAY COMMAND...: run it, append "WAY seconds" to $TIMES
    way=$1
    shift
    t0=$(now)
    "$@" >"$WORK/$way.txt" 2>&1 || { echo "$way failed:" >&2; tail -5 "$WORK/$way.txt" >&2; exit 1; }
    t1=$(now)
    echo "$way $(echo "$t1 - $t0" | bc)" >>"$TIMES"
}
parts() { # the two halves of the schedule as two plain processes at once, one folder
    "$SP" $SPF --part 1/2 --out "$WORK/parts" & p=$!
    "$SP" $SPF --part 2/2 --out "$WORK/parts"
    wait $p
}

echo "hansu cluster benchmark: $(nproc) cores, load $LOAD; $GAMES games, $NODES nodes per move," \
    "$ROUNDS rounds"
SPF="--games $GAMES --nodes $NODES --seed 5 --no-bench --threads 1 --progress 100000"
r=1
while [ "$r" -le "$ROUNDS" ]; do
    rm -rf "$WORK/one" "$WORK/mpi" "$WORK/parts" "$WORK/threads"
    mkdir "$WORK/parts"
    # shellcheck disable=SC2086
    timed one "$SP" $SPF --out "$WORK/one"
    # shellcheck disable=SC2086
    timed mpi $MPI "$SP" $SPF --out "$WORK/mpi"
    timed parts parts
    # shellcheck disable=SC2086
    timed threads "$SP" $SPF --out "$WORK/threads" --threads 2
    echo "round $r of $ROUNDS: $(grep -c . "$TIMES") runs timed"
    r=$((r + 1))
done

MG=$((GAMES / 2 / 2 * 2))
MF="--engine cmd=$ENGINE name=A option.Hash=16 --engine cmd=$ENGINE name=B option.Hash=16
    --nodes $NODES --games $MG --random-plies 6 --seed 5 --concurrency 1"
# shellcheck disable=SC2086
timed match1 "$MATCH" $MF --pgn "$WORK/m1.pgn"
# shellcheck disable=SC2086
timed match2 $MPI "$MATCH" $MF --pgn "$WORK/m2.pgn"

/usr/bin/python3 - "$TIMES" "$GAMES" "$MG" "$NODES" "$(nproc)" "$LOAD" "$ROUNDS" "$OUTJSON" <<'PY'
import json, statistics, sys
times, games, mg, nodes, cores, load, rounds, outjson = sys.argv[1:]
games, mg, nodes, cores, rounds = int(games), int(mg), int(nodes), int(cores), int(rounds)
runs = {}
for line in open(times):
    way, secs = line.split()
    runs.setdefault(way, []).append(float(secs))
rate = {w: [(mg if w.startswith("match") else games) / s for s in v] for w, v in runs.items()}
med = {w: statistics.median(v) for w, v in rate.items()}
name = {"one": "1 rank", "mpi": "2 MPI ranks", "parts": "2 processes (no MPI)",
        "threads": "2 threads (OpenMP)"}
print("self-play, games/s (median of %d; each run's rate in brackets):" % rounds)
for w in ("one", "mpi", "parts", "threads"):
    print("  %-22s %7.3f  [%s]  %.2fx the 1 rank" % (name[w], med[w],
          " ".join("%.2f" % x for x in rate[w]), med[w] / med["one"]))
print("2 MPI ranks against 2 processes without MPI: %.3f (1 = MPI costs nothing)"
      % (med["mpi"] / med["parts"]))
print("self-play goal: 2 MPI ranks >= 1.9x the 1 rank: %s (%.2fx; this host gives two"
      " independent processes %.2fx)" % ("met" if med["mpi"] / med["one"] >= 1.9 else "not met",
                                          med["mpi"] / med["one"], med["parts"] / med["one"]))
print("match: 1 rank %.3f games/s, 2 ranks %.3f games/s: %.2fx" %
      (med["match1"], med["match2"], med["match2"] / med["match1"]))
out = {"cores": cores, "load": load, "nodes": nodes, "rounds": rounds,
       "selfplay": {"games": games,
                    "games_per_s": {w: med[w] for w in ("one", "mpi", "parts", "threads")},
                    "runs_games_per_s": {w: rate[w] for w in ("one", "mpi", "parts", "threads")},
                    "ratio_mpi": med["mpi"] / med["one"],
                    "ratio_parts": med["parts"] / med["one"],
                    "ratio_threads": med["threads"] / med["one"],
                    "mpi_over_parts": med["mpi"] / med["parts"]},
       "match": {"games": mg, "ranks1_games_per_s": med["match1"],
                 "ranks2_games_per_s": med["match2"], "ratio": med["match2"] / med["match1"]}}
line = json.dumps(out)
print(line)
if outjson:
    open(outjson, "w").write(line + "\n")
PY
