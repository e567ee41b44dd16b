# SPDX-License-Identifier: MIT
# Sourced by docs/eval-data/finetune-results.sh, finetune-labels.sh and finetune-mix.sh (issue 55):
# the one fine-tune of their nets. finetune_r4 NAME INIT LAMBDA INPUT... trains
# runs/eval-ft/NAME.nnue (with NAME.csv and NAME.json) from the net INIT on the INPUTs (shards or
# run folders), LAMBDA the weight of each game's result; r4's sigmoid scale (508.7 cp,
# data/nets/janggi-r4.json) kept, so the net's centipawns stay r4's; a small batch, so that an epoch
# takes enough optimiser steps for the weights to move by more than their rounding (docs/nnue.md,
# "Fine-tunes and quantisation"); on a million positions it overfits, where the loop's 16384 does
# not (docs/eval-audit.md, "Beside self-play, and the fine-tune's own cost"). EPOCHS (8), LR
# (0.0002, falling to 0.00001), BATCH (1024) and THREADS (1) from the environment; seed 55. NNUE:
# the trainer (build/tuner/nnue/hansu-nnue).
finetune_r4() {
  local name=$1 init=$2 lambda=$3 dir=runs/eval-ft
  shift 3
  mkdir -p "$dir"
  "${NNUE:-build/tuner/nnue/hansu-nnue}" --out "$dir/$name.nnue" --init "$init" \
    --lambda "$lambda" --sigmoid-s 508.7341946 --epochs "${EPOCHS:-8}" --lr "${LR:-0.0002}" \
    --lr-min 0.00001 --batch "${BATCH:-1024}" --threads "${THREADS:-1}" --seed 55 \
    --csv "$dir/$name.csv" --json "$dir/$name.json" "$@"
}
