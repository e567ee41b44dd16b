#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 55, item 3: net r4 fine-tuned on the label campaign's shards (label.sh: the positions of
# Hansu's games against Fairy-Stockfish 11.1 and the ends of its searches' principal variations,
# scored by 50 k-node searches; the deepest games first), with LAMBDA the weight of each game's
# result (r4 was trained at 0.5). Reads the shards finished so far (a shard appears whole, by a
# rename, so a campaign still running is safe to read); SHARDS (default all) keeps the first N of
# the positions' shards and their PV ends' (shard K + 32). r4's sigmoid scale (508.7 cp) is kept,
# so the net's centipawns stay r4's (finetune-r4.sh, the fine-tune both scripts run). Writes
# runs/eval-ft/NAME.nnue, .json and .csv (a minute to make again); scripts/eval-audit compares it
# with r4 on the held-out goal matches (docs/eval-audit.md, "Labels from deep searches").
# INIT (default r4) starts from another net of r4's scale (a results fine-tune, say).
# Usage: [INIT=NET] [LAMBDA=0.2] [SHARDS=N] [EPOCHS=8] [LR=0.0002] [BATCH=1024] [THREADS=1]
#        [LABELS=DIR] finetune-labels.sh NAME
set -euo pipefail
cd "$(dirname "$0")/../.."
name=${1:?usage: finetune-labels.sh NAME}
labels=${LABELS:-data/labelled/janggi-fsf-pv-50000}
files=()
for f in "$labels"/shard-*.h5; do
  [ -e "$f" ] || continue
  n=$(basename "$f" .h5)
  n=$((10#${n#shard-}))
  k=$((n % 32))
  if [ -n "${SHARDS:-}" ] && [ "$k" -ge "$SHARDS" ]; then continue; fi
  files+=("$f")
done
if [ ${#files[@]} -eq 0 ]; then
  echo "finetune-labels.sh: no shards in $labels" >&2
  exit 1
fi
echo "finetune-labels.sh: ${#files[@]} shards of $labels" >&2
. docs/eval-data/finetune-r4.sh
finetune_r4 "$name" "${INIT:-data/nets/janggi-r4.nnue}" "${LAMBDA:-0.2}" "${files[@]}"
