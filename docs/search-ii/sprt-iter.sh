#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 56, item 1: the interrupted iteration's finished root moves kept, against its parent, at
# fixed 250 k nodes a move (a fix: nElo bounds [-30, 0]), the janggi suite. Continues with
# --resume when its state exists. NEW and BASE: the two builds (the paths of this session's run
# are in docs/strength-log.md).
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(cd ../.. && pwd)
M=${MATCH:-$ROOT/build/selfplay/match/hansu-match}
. "$ROOT/scripts/runs.sh"
runs_match sprt-iter-250k "$M" --engine cmd="$NEW" name=iter --engine cmd="$BASE" name=base \
  --nodes 250000 --sprt elo0=-30 elo1=0 --games 4000 --seed 5601 --concurrency "${CONC:-1}"
