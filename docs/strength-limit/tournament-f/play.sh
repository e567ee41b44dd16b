#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Tournament F (issue 54, item 8): janggi's table made as one curve through tournaments D and E
# (docs/strength-limit.md, "One curve through the levels"), checked on games not used to make it
# at the levels it moved: 1700 (x 0.287 -> 0.238, about 60 Elo weaker), 1900 (0.411 -> 0.399)
# and 2100 (0.570 -> 0.557); from 2300 up it keeps E's x within 0.003, which E measured. Each
# level plays the Fairy-Stockfish 11.1 anchors just below and above it (by curve/janggi-scale.md:
# FSF-n500 1431, n2k 1827, n8k 2063, n32k 2414), and no other level, 24 game pairs a pairing from
# the 16 formation starts, its node cap binding long before its 60 s + 0.6 s clock: games the
# machine's load does not change.
# Rated with the anchors held at their Elo there:
#   scripts/calibrate-strength rate docs/strength-limit/tournament-f/f*.json \
#     --anchor FSF-n500=1431 --anchor FSF-n2k=1827 --anchor FSF-n8k=2063 --anchor FSF-n32k=2414
# Each gauntlet is its own hansu-match tournament; running this again continues it.
# Usage: play.sh [CONCURRENCY]
set -euo pipefail
. "$(dirname "$0")/../gauntlet.sh"
CONC=${1:-1}
GAUNTLET_FLAGS=(--rounds 24 --openings starts)
gauntlet f1700 5421 $(level 1700) $(fsf 500 500) $(fsf 2k 2000)
gauntlet f1900 5422 $(level 1900) $(fsf 2k 2000) $(fsf 8k 8000)
gauntlet f2100 5423 $(level 2100) $(fsf 8k 8000) $(fsf 32k 32000)
# The same levels and anchors again, 40 game pairs a pairing on seeds of their own: 256 games a
# level in all, so that each is measured to about +-60 by F alone (the first part gave +-76 to
# +-97 at 96 games).
GAUNTLET_FLAGS=(--rounds 40 --openings starts)
gauntlet f1700b 5424 $(level 1700) $(fsf 500 500) $(fsf 2k 2000)
gauntlet f1900b 5425 $(level 1900) $(fsf 2k 2000) $(fsf 8k 8000)
gauntlet f2100b 5426 $(level 2100) $(fsf 8k 8000) $(fsf 32k 32000)
