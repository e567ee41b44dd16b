#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 55: the gate a candidate net passes before a goal match. The audit (scripts/eval-audit)
# says how well a net's scores match the results of positions other nets chose; it does not say
# how well the net ranks the moves its own search compares. So a candidate first plays the
# shipped net r4 (the compiled-in one) at fixed nodes: NODES (default 20000) a move, GAMES
# (default 60) games from the janggi suite, seed 77, one game at a time; fixed nodes, so the
# figure does not depend on the machine's load. A candidate that loses beyond the error does not
# go to a two-hour match (docs/eval-audit.md, "At the board: the blend's labels cost strength").
# Writes runs/eval-ft/check-NAME.{pgn,json,txt} (minutes to play again).
# Usage: [NODES=N] [GAMES=G] selfplay-check.sh NET.nnue
set -euo pipefail
cd "$(dirname "$0")/../.."
net=${1:?usage: selfplay-check.sh NET.nnue}
[ -f "$net" ] || { echo "selfplay-check.sh: $net: no such file" >&2; exit 1; }
H=${HANSU:-build/engine/hansu}
M=${MATCH:-build/selfplay/match/hansu-match}
name=$(basename "$net" .nnue)
out=runs/eval-ft/check-$name
mkdir -p runs/eval-ft
rm -f "$out.pgn" "$out.pgn.state" "$out.json"
"$M" --engine cmd="$H" name="$name" "option.EvalFile=$(realpath "$net")" --engine cmd="$H" name=r4 \
  --nodes "${NODES:-20000}" --games "${GAMES:-60}" --seed 77 --concurrency 1 --pgn "$out.pgn" \
  --json "$out.json" | tee "$out.txt"
