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
# The goal matches (blend25-40s, blend50-40s) play a candidate blend at issue 55's goal clock,
# 40 s + 0.4 s, seed 9595, in the setting of a1fb57d's goal match (docs/scaling.md, "The goal
# match": +25.5 +- 68.1), so the two pair game for game; the clock charges the blend's cost.
# The material arms (issue 55; docs/eval-audit.md, "What predicts the results beyond material")
# play main's build (HANSU, at the commit their docs row names) at the goal clock as the blend's
# goal matches: net-40s its net alone (eval_blend 0), the parent of every evaluation setting;
# material100-40s the net with 100 cp a point of material added (eval_material 100), which
# costs no nodes/s. With the blend arms and a1fb57d's goal match they pair round by round.
# The net arm resdeep-40s plays the same at the goal clock with the candidate net
# data/nets/janggi-r4-resdeep.nnue (r4 fine-tuned on the deep games' results; data/nets/README.md)
# as EvalFile: a net costs no nodes/s, so it pairs with net-40s round by round; bl50-40s the
# same with data/nets/janggi-r4-bl50.nnue (r4 fine-tuned on 50 % blend searches' labels).
# The search arm defaults-40s plays the build of issue 56's new search defaults (tt_eval,
# net_scale_pct 145, see_prune; f8132fa, Bench: 997828) with the shipped net at the goal clock:
# net-40s's setting with the search changed, so the two pair round by round.
# The time arm tm16-40s plays defaults-40s's build and setting with the clock spent as
# Fairy-Stockfish spends it (tm_moves 16, tm_inc_pct 100): in defaults-40s Hansu searched 2.2-2.3
# times Fairy-Stockfish's nodes in plies 1-80, where the games are decided (it used 0.8 of
# Fairy-Stockfish's time a move there), and ended its games with 10 s unspent, against 3 s
# (docs/scaling.md, "Where the clock goes"); it pairs with defaults-40s round by round, and
# tm16-5s, the same at 5 s + 0.05 s, with defaults-5s.
# The blitz arms check issue 55's "nothing lost at blitz" goals with the build HANSU (f8132fa for
# the rows of docs/results.md): defaults-5s at 5 s + 0.05 s from the formation starts, seed 9191,
# a1fb57d's setting (+359.9 +- 68.1; those games are not kept, so the two do not pair);
# defaults-xiangqi-40s xiangqi at 40 s + 0.4 s from data/openings-xiangqi.fen, seed 9696, as
# docs/match-report/tc-40+0.4-tmadapt-fsf-xiangqi (+202.1 +- 68.1), so the two pair.
# Usage: [CONCURRENCY=N] play.sh ARM, ARM one of net-150k classical-150k net-1m classical-1m
#   blend25-150k blend25-1m blend25-40s blend50-40s net-40s material100-40s resdeep-40s bl50-40s
#   defaults-40s tm16-40s tm16-5s defaults-5s defaults-xiangqi-40s
# CONCURRENCY: games at once (default 1) at fixed nodes, where the games do not depend on it, so
# a match may resume at another; a timed match plays one game at a time, beside at most one
# other single-core job.
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(cd ../../.. && pwd)
M=${MATCH:-$ROOT/build/selfplay/match/hansu-match}
H=${HANSU:-$ROOT/build/engine/hansu}
F=${FSF:-/usr/games/fairy-stockfish}
arms="net-150k classical-150k net-1m classical-1m blend25-150k blend25-1m blend25-40s blend50-40s
  net-40s material100-40s resdeep-40s bl50-40s defaults-40s tm16-40s
  tm16-5s defaults-5s defaults-xiangqi-40s"
clock=()
games=(--openings starts)
tm16=("option.tm_moves=16" "option.tm_inc_pct=100") # the time arms' budget
case ${1:-} in
net-150k) hn=150000 fn=46000 seed=5501 opt=() ;;
classical-150k) hn=150000 fn=46000 seed=5501 opt=("option.Use NNUE=false") ;;
net-1m) hn=1000000 fn=300000 seed=5502 opt=() ;;
classical-1m) hn=1000000 fn=300000 seed=5502 opt=("option.Use NNUE=false") ;;
blend25-150k) hn=100000 fn=46000 seed=5501 opt=("option.eval_blend=25") ;;
blend25-1m) hn=650000 fn=300000 seed=5502 opt=("option.eval_blend=25") ;;
blend25-40s) clock=(--tc 40+0.4) seed=9595 opt=("option.eval_blend=25") ;;
blend50-40s) clock=(--tc 40+0.4) seed=9595 opt=("option.eval_blend=50") ;;
net-40s | defaults-40s) clock=(--tc 40+0.4) seed=9595 opt=("option.eval_blend=0") ;;
material100-40s) clock=(--tc 40+0.4) seed=9595 opt=("option.eval_blend=0"
  "option.eval_material=100") ;;
resdeep-40s) clock=(--tc 40+0.4) seed=9595 opt=("option.eval_blend=0"
  "option.EvalFile=$ROOT/data/nets/janggi-r4-resdeep.nnue") ;;
tm16-40s) clock=(--tc 40+0.4) seed=9595 opt=("option.eval_blend=0" "${tm16[@]}") ;;
defaults-5s) clock=(--tc 5+0.05) seed=9191 opt=() ;;
tm16-5s) clock=(--tc 5+0.05) seed=9191 opt=("option.eval_blend=0" "${tm16[@]}") ;;
defaults-xiangqi-40s) clock=(--tc 40+0.4) seed=9696 opt=()
  games=(--variant xiangqi --openings "$ROOT/data/openings-xiangqi.fen") ;;
bl50-40s) clock=(--tc 40+0.4) seed=9595 opt=("option.eval_blend=0"
  "option.EvalFile=$ROOT/data/nets/janggi-r4-bl50.nnue") ;;
*) echo "usage: play.sh ARM, ARM one of: $arms" >&2
  exit 2 ;;
esac
# A finished match is kept as $1.pgn.gz with its state dropped: nothing to play again (a match
# under way keeps its state beside its PGN.gz: scripts/runs.sh).
. "$ROOT/scripts/runs.sh"
if ((${#clock[@]})); then
  runs_match "$1" "$M" --engine cmd="$H" name=Hansu "${opt[@]}" --engine cmd="$F" name=FSF-11.1 \
    "${clock[@]}" --games 100 "${games[@]}" --seed $seed --concurrency 1 --move-info
else
  runs_fsf_nodes "$1" "$M" "$H" $hn "$F" $fn $seed "${CONCURRENCY:-1}" "${opt[@]}"
fi
