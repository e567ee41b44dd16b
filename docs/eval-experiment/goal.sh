#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 55's goal match with a candidate evaluation: Hansu against Fairy-Stockfish 11.1 at
# 40 s + 0.4 s from the 16 formation starts, 100 games, one thread and 16 MB each, concurrency 1,
# seed 9595: the setting of the a1fb57d goal match (docs/scaling.md, "The goal match";
# +25.5 ± 68.1), so the two pair game for game. The blend's cost in nodes/s is charged by the
# clock. A match stopped part way continues when this is run again (--resume); being timed, it
# should play beside at most one other single-core job.
# Usage: [HANSU=<build>] goal.sh blend25-40s|blend50-40s
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(cd ../.. && pwd)
M=${MATCH:-$ROOT/build/selfplay/match/hansu-match}
H=${HANSU:-$ROOT/build/engine/hansu}
F=${FSF:-/usr/games/fairy-stockfish}
case ${1:-} in
blend25-40s) opt=("option.eval_blend=25") ;;
blend50-40s) opt=("option.eval_blend=50") ;;
*) echo "usage: goal.sh blend25-40s|blend50-40s" >&2
  exit 2 ;;
esac
. "$ROOT/scripts/runs.sh"
runs_match "$1" "$M" --engine cmd="$H" name=Hansu "${opt[@]}" --engine cmd="$F" name=FSF-11.1 \
  --tc 40+0.4 --games 100 --openings starts --seed 9595 --concurrency 1 --move-info
