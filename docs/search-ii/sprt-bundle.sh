#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 56, item 3: a bundle of search changes against its parent at fixed 250 k nodes a move, a
# gain's nElo bounds [0, 40], the janggi suite, colours swapped in each pair. Each change of a
# bundle is a UCI option of search_params.def, off by default, so one build plays both sides: NEW
# with the bundle's options on, BASE with the defaults (the parent's search, bench for bench).
# Continues with --resume when its state exists; HANSU: the build (its commit in
# docs/strength-log.md), one build for the whole run.
# A change that is no option (a fix of the evaluation, say) plays two builds: BASE the parent's
# build (default: HANSU itself), and BOUNDS the SPRT's (default "elo0=0 elo1=40", a gain; a fix:
# BOUNDS="elo0=-30 elo1=0").
# VARIANT=xiangqi plays xiangqi from its suite (data/openings-xiangqi.fen; a xiangqi-only change,
# row 10's null-move guard); the state is then sprt-NAME-xiangqi-250k.
# CLOCK=BASE+INC (10+0.1, say) plays at that clock instead of 250 k nodes, for what fixed nodes
# cannot see (the time budget, row 8's stop rule); the state is then sprt-NAME[-VARIANT]-tc-CLOCK
# (resume with CLOCK written the same way). A timed SPRT plays one game at a time (CONC unset or
# 1) on its own core.
# Usage: HANSU=... [BASE=...] [BOUNDS=...] [VARIANT=V] [CLOCK=C] sprt-bundle.sh NAME SEED
#   [OPTION=VALUE...]
#   (the options that turn NEW's on)
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(cd ../.. && pwd)
M=${MATCH:-$ROOT/build/selfplay/match/hansu-match}
H=${HANSU:?HANSU: the engine build of the run}
B=${BASE:-$H}
read -r -a bounds <<<"${BOUNDS:-elo0=0 elo1=40}"
name=${1:?usage: sprt-bundle.sh NAME SEED OPTION=VALUE...}
seed=${2:?usage: sprt-bundle.sh NAME SEED OPTION=VALUE...}
shift 2
on=()
for o in "$@"; do on+=("option.$o"); done
. "$ROOT/scripts/runs.sh"
variant=()
limit=(--nodes 250000)
depth=250k
if [ -n "${CLOCK:-}" ]; then
  if ! [[ $CLOCK =~ ^[0-9]+(\.[0-9]+)?\+[0-9]+(\.[0-9]+)?$ ]] || [[ $CLOCK =~ ^0*(\.0*)?\+ ]]; then
    echo "sprt-bundle.sh: CLOCK '$CLOCK': BASE+INC seconds, BASE > 0, e.g. 10+0.1" >&2
    exit 2
  fi
  if [ "${CONC:-1}" != 1 ]; then
    echo "sprt-bundle.sh: CLOCK plays one game at a time: CONC must be 1" >&2
    exit 2
  fi
  limit=(--tc "$CLOCK")
  depth=tc-$CLOCK
fi
run=sprt-$name-$depth
if [ -n "${VARIANT:-}" ] && [ "$VARIANT" != janggi ]; then
  variant=(--variant "$VARIANT")
  run=sprt-$name-$VARIANT-$depth
fi
runs_match "$run" "$M" --engine cmd="$H" name="$name" "${on[@]}" \
  --engine cmd="$B" name=base "${limit[@]}" --sprt "${bounds[@]}" --games 4000 --seed "$seed" \
  --concurrency "${CONC:-1}" "${variant[@]}"
