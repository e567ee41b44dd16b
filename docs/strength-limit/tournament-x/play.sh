#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Tournament X (issue 54, item 8): xiangqi's table (engine/xiangqi/variant.c, the fit of the
# earlier xiangqi tournament, seed 4604) verified on games not used to make it, with tournament
# D's design: anchors each level can lose to. Part 1 (`nodes`) is load-independent: Fairy-
# Stockfish 11.1 (UCI_Variant xiangqi) at fixed nodes (500 ... 128k a move) and Hansu's xiangqi
# levels, whose node caps bind long before their 60 s + 0.6 s clock, from the xiangqi suite
# (data/openings-xiangqi.fen). Part 2 (`clock`) ties those anchors to xiangqi's scale,
# Fairy-Stockfish 11.1 xiangqi at 5 s + 0.05 s = 2500, and must run on an otherwise idle machine.
# (MaxQi, the other xiangqi engine here, cannot set up a position over CECP, so it could play
# only from the start position; at a fixed depth its games would repeat.) Each gauntlet is its
# own hansu-match tournament; running this again continues it (--resume where a state exists).
# Usage: play.sh nodes|clock [CONCURRENCY]
set -euo pipefail
. "$(dirname "$0")/../gauntlet.sh"
CONC=${2:-1}
# gauntlet NAME SEED ENGINE-ARGS...: the first engine against each of the others, 16 game pairs
# a pairing (16 openings of the suite from a seeded shuffle, colours swapped).
GAUNTLET_FLAGS=(--variant xiangqi --rounds 16 --openings-order random)
case ${1:-} in
nodes)
  gauntlet x1700 5451 $(level 1700) $(fsf 500 500) $(fsf 2k 2000) $(fsf 8k 8000) $(level 1900)
  gauntlet x1900 5452 $(level 1900) $(fsf 500 500) $(fsf 2k 2000) $(fsf 8k 8000) $(fsf 32k 32000) $(level 2100)
  gauntlet x2100 5453 $(level 2100) $(fsf 2k 2000) $(fsf 8k 8000) $(fsf 32k 32000) $(level 2300)
  gauntlet x2300 5454 $(level 2300) $(fsf 2k 2000) $(fsf 8k 8000) $(fsf 32k 32000) $(fsf 128k 128000) $(level 2450)
  gauntlet x2450 5455 $(level 2450) $(fsf 8k 8000) $(fsf 32k 32000) $(fsf 128k 128000) $(level 2550)
  # x2550 (seed 5456) was not played: the table of then gave 2450 and 2550 the same x (0.967), so
  # it was x2450's engine against the same anchors.
  ;;
clock)
  gauntlet xclock 5457 --engine cmd=$F name=FSF-11.1 tc=5+0.05 $(fsf 32k 32000) $(fsf 128k 128000) \
    $(level 2100) $(level 2300) $(level 2450) $(level 2550)
  ;;
*) echo "usage: play.sh nodes|clock [CONCURRENCY]" >&2; exit 2 ;;
esac
