#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Tournament E (issue 54, item 8): janggi's table refitted on tournament D, verified on games not
# used to make it. The levels asked for (1700 ... 2550) play, with the refitted table, the two
# Fairy-Stockfish 11.1 anchors at fixed nodes nearest them and the next level up, 24 game pairs a
# pairing from the 16 formation starts, their node caps binding long before their 60 s + 0.6 s
# clock: load-independent games. Rated with the anchors held at their Elo from tournament D and
# its clock part (several anchors: each level's error is its own games'), by
#   scripts/calibrate-strength rate docs/strength-limit/tournament-e/e*.json \
#     --anchor FSF-n500=... --anchor FSF-n2k=... (docs/strength-limit.md, "Tournament E").
# Each gauntlet is its own hansu-match tournament; running this again continues it.
# Usage: play.sh [CONCURRENCY]
set -euo pipefail
. "$(dirname "$0")/../gauntlet.sh"
CONC=${1:-1}
GAUNTLET_FLAGS=(--rounds 24 --openings starts)
# The anchors of each level: the two nearest it by tournament D's fit (FSF-n500 1332, n2k 1761,
# n8k 2017, n32k 2382, n128k 2748 on the scale), and the next level up.
gauntlet e1700 5411 $(level 1700) $(fsf 2k 2000) $(fsf 8k 8000) $(level 1900)
gauntlet e1900 5412 $(level 1900) $(fsf 2k 2000) $(fsf 8k 8000) $(level 2100)
gauntlet e2100 5413 $(level 2100) $(fsf 8k 8000) $(fsf 32k 32000) $(level 2300)
gauntlet e2300 5414 $(level 2300) $(fsf 8k 8000) $(fsf 32k 32000) $(level 2450)
gauntlet e2450 5415 $(level 2450) $(fsf 32k 32000) $(fsf 128k 128000) $(level 2550)
gauntlet e2550 5416 $(level 2550) $(fsf 32k 32000) $(fsf 128k 128000)
