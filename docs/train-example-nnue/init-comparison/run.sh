#!/bin/bash
# Iteration 1's nnue.init comparison: candidates trained on iter-001's self-play, each SPRT
# against the first engine (net r3) with the loop's match settings.
set -e
R=/work/main/runs/nnue-proof
B=$R/builds/a0e1b61f6284
O=/work/main/runs/init-cmp
train() { # name epochs lr init...
  local n=$1 e=$2 lr=$3; shift 3
  [ -f $O/$n.nnue ] || $B/tuner/nnue/hansu-nnue $R/iter-001/selfplay --out $O/$n.nnue --json $O/$n.json --csv $O/$n.csv \
    --epochs $e --batch 16384 --lr $lr --lr-min 0.00001 --lambda 0.5 --seed 1001 --threads 2 "$@" > $O/$n.train.log 2>&1
}
sprt() { # name
  $B/selfplay/match/hansu-match --engine cmd=$B/engine/hansu name=$1 option.EvalFile=$O/$1.nnue "option.Use NNUE=true" \
    --engine cmd=$B/engine/hansu name=initial option.EvalFile=$R/nets/initial.nnue "option.Use NNUE=true" \
    --nodes 1000 --games 2000 --concurrency 2 --pgn $O/$1.pgn --seed 1001 --random-plies 2 \
    --sprt elo0=0 elo1=20 alpha=0.05 beta=0.1 --json $O/$1.match.json > $O/$1.match.txt 2>&1
}
for spec in "$@"; do
  set -- $spec
  n=$1; shift
  train $n "$@"; sprt $n
  tail -3 $O/$n.match.txt
done
