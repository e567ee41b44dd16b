#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 55, item 3: the positions of Hansu's committed janggi games against Fairy-Stockfish 11.1,
# scored by Hansu searches at fixed nodes (hansu-selfplay label), as training data that holds the
# refutations a deeper opponent found, and beside each searched position the end of its search's
# principal variation (--pv-ends: where Hansu's own search steers, scored by a search of its own;
# docs/data-format.md "PV ends"). The 40 s + 0.4 s goal matches are left out: they are the
# evaluation audit's held-out games (docs/eval-audit.md). Writes data/labelled/janggi-fsf-pv-NODES/
# (a run folder of the store, committed as it grows: its shards are hours of searches) and
# continues with --resume when the folder holds a run. NODES (default 50000) and THREADS
# (default 1) from the environment; the labels do not depend on THREADS. BLEND=P labels with
# searches whose evaluation is the net blended with P % of the classical one (`--blend`: on the
# held-out goal match a 50 % blend's 50 k-node searches are calibrated, gap +0.007 against the
# net's +0.094; docs/eval-audit.md, "Labels that do not share the net's optimism"), into
# data/labelled/janggi-fsf-blendP[-pv]-NODES; PV=0 leaves the PV ends out (half the searches).
# A resume is refused by a build whose bench differs from the one its run_config names: the
# campaigns here were started at Bench 983597 (a6316aa and before, the search defaults before issue
# 56's), so they continue with SELFPLAY=<hansu-selfplay of such a build>.
# Usage: [NODES=N] [THREADS=T] [BLEND=P] [PV=0] [SELFPLAY=PATH] label.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
NODES=${NODES:-50000}
S=${SELFPLAY:-build/selfplay/hansu-selfplay}
blend=()
pv=(--pv-ends)
[ "${PV:-1}" = 0 ] && pv=()
name=janggi-fsf-pv-$NODES
if [ -n "${BLEND:-}" ]; then
  blend=(--blend "$BLEND")
  name=janggi-fsf-blend$BLEND${pv:+-pv}-$NODES
fi
out=${OUT:-data/labelled/$name}
# The games (fsf-games.sh): their order decides the games' ids and shards.
. docs/eval-data/fsf-games.sh
resume=()
[ -d "$out" ] && [ -n "$(ls "$out"/shard-*.h5 2>/dev/null)" ] && resume=(--resume)
mkdir -p data/labelled
"$S" label --out "$out" --nodes "$NODES" --threads "${THREADS:-1}" --skip-plies 8 \
  --shard-games 64 "${pv[@]}" "${blend[@]}" --json "$out.json" "${resume[@]}" "${pgns[@]}"
