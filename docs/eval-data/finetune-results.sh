#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 55, item 3, a probe before the label campaign (label.sh: hours of searches): do the
# results of Hansu's games against Fairy-Stockfish 11.1, alone, correct the net where its search
# steers? Net r4 fine-tuned on the positions of those games with each game's result as the only
# target (--lambda 1), so the positions need no search: `hansu-selfplay label --nodes 1` stores
# them, with a 1-node score that a lambda-1 training does not read. r4's sigmoid scale (508.7 cp,
# data/nets/janggi-r4.json) is kept, so the net's centipawns stay r4's. scripts/eval-audit then
# compares it with r4 on held-out goal matches (docs/eval-audit.md, "Fine-tunes on the games'
# results"). SET: `all`, the games of fsf-games.sh (1,992; the 40 s goal matches held out), or
# `deep`, the 400 deepest: the 1 M-node arms (net-1m, blend25-1m) and the blends' goal matches
# (blend25-40s, blend50-40s), a1fb57d's goal match and net-40s held out. About 285 k (all) or
# 77 k (deep) positions train (mirrors included), seconds an epoch; the batch is small (1024) so
# that an epoch takes enough optimiser steps for the weights to move by more than their rounding
# (docs/nnue.md, "Fine-tunes and quantisation"). Everything it writes is in runs/eval-ft/ (a
# minute to make again): the store of SET once, then NAME.nnue, NAME.json, NAME.csv.
# Usage: [LAMBDA=1] [EPOCHS=8] [LR=0.0002] [BATCH=1024] [THREADS=1] finetune-results.sh SET NAME
set -euo pipefail
cd "$(dirname "$0")/../.."
usage="usage: finetune-results.sh all|deep NAME"
set_name=${1:?$usage}
name=${2:?$usage}
S=${SELFPLAY:-build/selfplay/hansu-selfplay}
case $set_name in
all) . docs/eval-data/fsf-games.sh ;;
deep)
  e=data/games/eval-experiment
  pgns=("$e/net-1m.pgn.gz" "$e/blend25-1m.pgn.gz" "$e/blend25-40s.pgn.gz"
    "$e/blend50-40s.pgn.gz") ;;
*) echo "$usage" >&2
  exit 2 ;;
esac
dir=runs/eval-ft
store=$dir/$set_name-1node
mkdir -p "$dir"
# The store is written once (its JSON last); a store left part way is written again.
if [ ! -f "$store.json" ]; then
  rm -rf "$store"
  "$S" label --out "$store" --nodes 1 --threads 1 --skip-plies 8 --shard-games 256 --no-bench \
    "${pgns[@]}" --json "$store.json.tmp"
  mv "$store.json.tmp" "$store.json"
fi
. docs/eval-data/finetune-r4.sh
finetune_r4 "$name" data/nets/janggi-r4.nnue "${LAMBDA:-1}" "$store"
