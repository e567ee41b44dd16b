#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 55, item 3: net r4 fine-tuned on its own kind of data, self-play at 1000 nodes as the
# loop of nets plays it (data/train-2core-nnue.toml), with the label campaign's shards beside it
# as a small share, REPEAT times each (the loop's nnue.labelled_repeat). The fine-tunes on the
# labels alone (finetune-labels.sh) fit the results but rank moves worse (docs/eval-audit.md, "At
# the board"); the self-play keeps what r4 knew. The self-play (SELFPLAY, default
# runs/sp-r4-1k: 6000 games of the shipped net from the suite + 2 random plies, 900-1100 nodes a
# move, seed 5505; ~15 minutes of one core) is played first when its folder is missing, and
# continued when it is short: the same games each time (game i's stream from the seed and i),
# so it stays out of git. LABELS (default data/labelled/janggi-fsf-blend50-50000, the 50 % blend's
# labels) is read whole. LAMBDA (default 0.5, the loop's) weighs each game's result for both.
# Writes runs/eval-ft/NAME.nnue, .json and .csv (finetune-r4.sh); then
# docs/eval-data/selfplay-check.sh and scripts/eval-audit measure it.
# Usage: [SELFPLAY=DIR] [GAMES=6000] [LABELS=DIR] [REPEAT=2] [LAMBDA=0.5] [EPOCHS=4]
#        [LR=0.0002] [BATCH=1024] [THREADS=1] finetune-mix.sh NAME
set -euo pipefail
cd "$(dirname "$0")/../.."
name=${1:?usage: finetune-mix.sh NAME}
sp=${SELFPLAY:-runs/sp-r4-1k}
labels=${LABELS:-data/labelled/janggi-fsf-blend50-50000}
repeat=${REPEAT:-2}
case $repeat in '' | *[!0-9]* | 0) echo "finetune-mix.sh: REPEAT '$repeat': 1 or more" >&2
  exit 2 ;;
esac
SP=${SELFPLAY_BIN:-build/selfplay/hansu-selfplay}
resume=()
[ -d "$sp" ] && resume=(--resume)
"$SP" --games "${GAMES:-6000}" --threads 1 --nodes 1000 --nodes-spread 0.1 --random-plies 2 \
  --openings data/openings-janggi.fen --seed 5505 --out "$sp" --progress 60 "${resume[@]}" >&2
files=("$sp")
for _ in $(seq "$repeat"); do files+=("$labels"); done
echo "finetune-mix.sh: $sp and $labels x $repeat" >&2
. docs/eval-data/finetune-r4.sh
EPOCHS=${EPOCHS:-4} finetune_r4 "$name" data/nets/janggi-r4.nnue "${LAMBDA:-0.5}" "${files[@]}"
