#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Tournament D (issue 54, item 8): the strength limiter's janggi levels resolved against anchors
# they can lose to. Part 1 (this script's `nodes` part) is load-independent: Fairy-Stockfish 11.1
# at fixed nodes (500 ... 128k a move) and Hansu's levels, whose node caps bind long before their
# 60 s + 0.6 s clock. Part 2 (`clock`) ties those anchors to the scale's definition,
# Fairy-Stockfish 11.1 at 5 s + 0.05 s = 2500, and must run on an otherwise idle machine.
# Each gauntlet is its own hansu-match tournament (its own PGN, JSON and resume state); a run
# stopped part way is continued by running this script again (it passes --resume where a state
# exists). Usage: play.sh nodes|clock [CONCURRENCY]
set -euo pipefail
. "$(dirname "$0")/../gauntlet.sh"
CONC=${2:-1}
# gauntlet NAME SEED ENGINE-ARGS...: the first engine against each of the others, 16 game pairs
# a pairing (each of the 16 formation starts once, colours swapped).
GAUNTLET_FLAGS=(--rounds 16 --openings starts)
case ${1:-} in
nodes)
  gauntlet d1700 5401 $(level 1700) $(fsf 500 500) $(fsf 2k 2000) $(fsf 8k 8000) $(level 1900)
  gauntlet d1900 5402 $(level 1900) $(fsf 500 500) $(fsf 2k 2000) $(fsf 8k 8000) $(fsf 32k 32000) $(level 2100)
  gauntlet d2100 5403 $(level 2100) $(fsf 500 500) $(fsf 2k 2000) $(fsf 8k 8000) $(fsf 32k 32000) $(level 2300)
  gauntlet d2300 5404 $(level 2300) $(fsf 2k 2000) $(fsf 8k 8000) $(fsf 32k 32000) $(fsf 128k 128000) $(level 2450)
  gauntlet d2450 5405 $(level 2450) $(fsf 8k 8000) $(fsf 32k 32000) $(fsf 128k 128000) $(level 2550)
  gauntlet d2550 5406 $(level 2550) $(fsf 8k 8000) $(fsf 32k 32000) $(fsf 128k 128000)
  ;;
clock)
  gauntlet dclock 5407 --engine cmd=$F name=FSF-11.1 tc=5+0.05 $(fsf 32k 32000) $(fsf 128k 128000) \
    $(level 2300) $(level 2450) $(level 2550)
  ;;
*) echo "usage: play.sh nodes|clock [CONCURRENCY]" >&2; exit 2 ;;
esac
