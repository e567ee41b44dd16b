#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 55, the decisive experiment: Hansu against Fairy-Stockfish 11.1 at a fixed node ratio
# (about 3.3 : 1), at two depths, with the shipped net and with the classical evaluation, from the
# 16 formation starts, 100 games each, one thread each. Fixed nodes: the games do not depend on
# the machine's load. A match stopped part way continues when this is run again (--resume).
# The blend arms (issue 55, item 5) evaluate with the net blended with 25 % of the classical
# evaluation (eval_blend 25), which costs nodes: it searches at 0.65 of the net's nodes/s
# (alternated `hansu bench` pairs, docs/eval-audit.md "A blend of the two evaluations"), so it
# is given 0.65 of the net's nodes, the same time: 100 k against 46 k, 650 k against 300 k.
# Usage: [CONCURRENCY=N] play.sh net-150k|classical-150k|net-1m|classical-1m|blend25-150k|blend25-1m
# CONCURRENCY: games at once (default 1); at fixed nodes the games do not depend on it, so a
# match may resume at another.
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(cd ../.. && pwd)
M=${MATCH:-$ROOT/build/selfplay/match/hansu-match}
H=${HANSU:-$ROOT/build/engine/hansu}
F=${FSF:-/usr/games/fairy-stockfish}
case ${1:-} in
net-150k) hn=150000 fn=46000 seed=5501 opt=() ;;
classical-150k) hn=150000 fn=46000 seed=5501 opt=("option.Use NNUE=false") ;;
net-1m) hn=1000000 fn=300000 seed=5502 opt=() ;;
classical-1m) hn=1000000 fn=300000 seed=5502 opt=("option.Use NNUE=false") ;;
blend25-150k) hn=100000 fn=46000 seed=5501 opt=("option.eval_blend=25") ;;
blend25-1m) hn=650000 fn=300000 seed=5502 opt=("option.eval_blend=25") ;;
*) echo "usage: play.sh net-150k|classical-150k|net-1m|classical-1m|blend25-150k|blend25-1m" >&2
  exit 2 ;;
esac
# A finished match is kept as $1.pgn.gz with its state dropped: nothing to play again (a match
# under way keeps its state beside its PGN.gz: scripts/runs.sh).
. "$ROOT/scripts/runs.sh"
runs_match "$1" "$M" --engine cmd="$H" name=Hansu nodes=$hn "${opt[@]}" \
  --engine cmd="$F" name=FSF-11.1 nodes=$fn --games 100 --openings starts --seed $seed \
  --concurrency "${CONCURRENCY:-1}" --move-info --watchdog 60000
