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
# (default 1) from the environment; the labels do not depend on THREADS.
set -euo pipefail
cd "$(dirname "$0")/../.."
NODES=${NODES:-50000}
S=${SELFPLAY:-build/selfplay/hansu-selfplay}
out=${OUT:-data/labelled/janggi-fsf-pv-$NODES}
# Every committed janggi match of full-strength Hansu against Fairy-Stockfish 11.1 but the two
# goal matches at 40 s + 0.4 s (tc-40+0.4-*-fsf-starts), in a fixed order: the order decides the
# games' ids and shards, so a resumed run reads the same list (its run_config names the inputs'
# digest: a changed list is another run). The deepest games last: the blend's 150 k match and the
# decisive experiment's 1 M-node one.
pgns=(
  data/games/eval-experiment/net-150k.pgn.gz
  data/games/eval-experiment/classical-150k.pgn.gz
  docs/match-report/tc-5+0.05-net-r4-fsf-starts.pgn.gz
  docs/match-report/tc-5+0.05-net-r3-fsf-starts.pgn.gz
  docs/match-report/tc-5+0.05-qschecks.pgn.gz
  docs/match-report/tc-5+0.05-safety.pgn.gz
  docs/match-report/tc-5+0.05.pgn.gz
  docs/match-report/nodes-20000-qschecks.pgn.gz
  docs/match-report/nodes-20000-safety.pgn.gz
  docs/match-report/nodes-20000-vs-2000.pgn.gz
  docs/match-report/nodes-20000.pgn.gz
  docs/general-safety/suite-20k.pgn.gz
  docs/scaling-profile/nodes-20000.pgn.gz
  docs/scaling-profile/nodes-80000.pgn.gz
  docs/scaling-profile/tc-5+0.05.pgn.gz
  docs/scaling-profile/tc-20+0.2.pgn.gz
  docs/train-example-nnue/gauntlet/initial.pgn.gz
  docs/train-example-nnue/gauntlet/iter-019.pgn.gz
  data/games/eval-experiment/blend25-150k.pgn.gz
  data/games/eval-experiment/net-1m.pgn.gz
)
resume=()
[ -d "$out" ] && [ -n "$(ls "$out"/shard-*.h5 2>/dev/null)" ] && resume=(--resume)
mkdir -p data/labelled
"$S" label --out "$out" --nodes "$NODES" --threads "${THREADS:-1}" --skip-plies 8 \
  --shard-games 64 --pv-ends --json "$out.json" "${resume[@]}" "${pgns[@]}"
