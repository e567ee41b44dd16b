# SPDX-License-Identifier: MIT
# Sourced by docs/eval-data/label.sh and finetune-results.sh (issue 55, item 3): sets pgns, the
# paths from the repository's top.
# Every committed janggi match of full-strength Hansu against Fairy-Stockfish 11.1 but the goal
# matches at 40 s + 0.4 s (tc-40+0.4-*-fsf-starts and data/games/eval-experiment/*-40s), the
# audit's held-out games; in a fixed order: the order decides the games' ids and shards, so a
# resumed run reads the same list (its run_config names the inputs' digest: a changed list is
# another run). The deepest games first (the 1 M-node arms, then the 150 k ones), so that a
# campaign stopped part way has labelled those: the results of the shallow games teach a net
# what wins against a shallow opponent (docs/eval-audit.md, "Fine-tunes on the games' results").
pgns=(
  data/games/eval-experiment/net-1m.pgn.gz
  data/games/eval-experiment/blend25-1m.pgn.gz
  data/games/eval-experiment/blend25-150k.pgn.gz
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
)

