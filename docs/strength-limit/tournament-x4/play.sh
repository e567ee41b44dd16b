#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Tournament X4 (issue 54, item 8): xiangqi's table made as one curve through tournaments X, X2
# and X3 (docs/strength-limit.md, "One curve through the levels"), checked on games not used to
# make it at the four levels X3 checked (x now 0.294, 0.406, 0.528, 0.662), X3's design: each level
# against the two Fairy-Stockfish 11.1 xiangqi anchors nearest it below and above (by
# curve/xiangqi-scale.md: FSF-n500 1544, n2k 1784, n8k 2135, n32k 2446), and no other level, 32
# game pairs a pairing from the xiangqi suite in a seeded order, the node caps binding long before
# the 60 s + 0.6 s clock: games the machine's load does not change. Rated with the anchors held:
#   scripts/calibrate-strength rate docs/strength-limit/tournament-x4/x4-*.json --variant xiangqi \
#     --anchor FSF-n500=1544 --anchor FSF-n2k=1784 --anchor FSF-n8k=2135 --anchor FSF-n32k=2446
# Each gauntlet is its own hansu-match tournament; running this again continues it.
# Usage: play.sh [CONCURRENCY]
set -euo pipefail
. "$(dirname "$0")/../gauntlet.sh"
CONC=${1:-1}
GAUNTLET_FLAGS=(--variant xiangqi --rounds 32 --openings-order random)
gauntlet x4-1700 5481 $(level 1700) $(fsf 500 500) $(fsf 2k 2000)
gauntlet x4-1900 5482 $(level 1900) $(fsf 2k 2000) $(fsf 8k 8000)
gauntlet x4-2100 5483 $(level 2100) $(fsf 2k 2000) $(fsf 8k 8000)
gauntlet x4-2300 5484 $(level 2300) $(fsf 8k 8000) $(fsf 32k 32000)
