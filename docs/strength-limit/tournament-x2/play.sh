#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Tournament X2 (issue 54, item 8): xiangqi's table refitted on tournament X (its levels' x and
# their Elo on the anchors' games alone), verified on games not used to make it. Each level asked
# for (1700 ... 2550) plays, with the refitted table, the two Fairy-Stockfish 11.1 xiangqi anchors
# nearest it by X at fixed nodes, and no other level (levels against levels exaggerate their gaps:
# docs/strength-limit.md), 32 game pairs a pairing from the xiangqi suite in a seeded order, its
# node cap binding long before its 60 s + 0.6 s clock: load-independent games. Rated with the
# anchors held at their Elo from X:
#   scripts/calibrate-strength rate docs/strength-limit/tournament-x2/x2-*.json --variant xiangqi \
#     --anchor FSF-n500=... (docs/strength-limit.md, "Tournament X2").
# Each gauntlet is its own hansu-match tournament; running this again continues it.
# Usage: play.sh [CONCURRENCY]
set -euo pipefail
. "$(dirname "$0")/../gauntlet.sh"
CONC=${1:-1}
GAUNTLET_FLAGS=(--variant xiangqi --rounds 32 --openings-order random)
# The two anchors nearest each level by X (FSF-n500 1531, n2k 1794, n8k 2062, n32k 2460, n128k
# 2684 on xiangqi's scale, the anchors' games alone, X's 2450 and 2550 one player).
gauntlet x2-1700 5461 $(level 1700) $(fsf 500 500) $(fsf 2k 2000)
gauntlet x2-1900 5462 $(level 1900) $(fsf 2k 2000) $(fsf 8k 8000)
gauntlet x2-2100 5463 $(level 2100) $(fsf 8k 8000) $(fsf 32k 32000)
gauntlet x2-2300 5464 $(level 2300) $(fsf 8k 8000) $(fsf 32k 32000)
gauntlet x2-2450 5465 $(level 2450) $(fsf 32k 32000) $(fsf 128k 128000)
gauntlet x2-2550 5466 $(level 2550) $(fsf 32k 32000) $(fsf 128k 128000)
