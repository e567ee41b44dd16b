#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Tournament X3 (issue 54, item 8): xiangqi's table made as one curve through tournaments X and
# X2 (docs/strength-limit.md, "One curve through the levels"), checked on games not used to make
# it at the levels it moved: 1700 (x 0.262 -> 0.310, about 80 Elo stronger), 1900 (0.400 ->
# 0.430), 2100 (0.536 -> 0.556) and 2300 (0.670 -> 0.687); 2450 and 2550 keep X2's x within
# 0.004, which X2 measured. Each level plays the two Fairy-Stockfish 11.1 xiangqi anchors nearest
# it below and above (by curve/xiangqi-scale.md: FSF-n500 1552, n2k 1767, n8k 2084, n32k 2455),
# and no other level, 32 game pairs a pairing from the xiangqi suite in a seeded order, its node
# cap binding long before its 60 s + 0.6 s clock: games the machine's load does not change.
# Rated with the anchors held at their Elo there:
#   scripts/calibrate-strength rate docs/strength-limit/tournament-x3/x3-*.json --variant xiangqi \
#     --anchor FSF-n500=1552 --anchor FSF-n2k=1767 --anchor FSF-n8k=2084 --anchor FSF-n32k=2455
# Each gauntlet is its own hansu-match tournament; running this again continues it.
# Usage: play.sh [CONCURRENCY]
set -euo pipefail
. "$(dirname "$0")/../gauntlet.sh"
CONC=${1:-1}
GAUNTLET_FLAGS=(--variant xiangqi --rounds 32 --openings-order random)
gauntlet x3-1700 5471 $(level 1700) $(fsf 500 500) $(fsf 2k 2000)
gauntlet x3-1900 5472 $(level 1900) $(fsf 2k 2000) $(fsf 8k 8000)
gauntlet x3-2100 5473 $(level 2100) $(fsf 8k 8000) $(fsf 32k 32000)
gauntlet x3-2300 5474 $(level 2300) $(fsf 8k 8000) $(fsf 32k 32000)
