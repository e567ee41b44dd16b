#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 56, item 4 (c): the confirming match of a kept bundle, Hansu 1 M nodes a move against
# Fairy-Stockfish 11.1 at 300 k, 100 games from the 16 formation starts, one thread each, seed
# 5502: the setting of issue 55's net-1m (data/games/eval-experiment/play.sh, main a1fb57d's
# figure, +86.7 +- 68.1), so the two pair game for game. Fixed nodes: the games do not depend on
# the machine's load, so CONCURRENCY (default 1) may differ between a start and a resume.
# A match stopped part way continues when this is run again (--resume, scripts/runs.sh).
# HANSU: the build (its commit in docs/strength-log.md); OPTION=VALUE words are given to it as
# UCI options (a bundle not yet the default), none for a build whose defaults hold it.
# DEPTH=150k plays the shallower arm of issue 55's node-ratio goal instead (Hansu 150 k against
# 46 k, seed 5501: net-150k's setting, +375.3 +- 68.1 at a1fb57d), as NAME-150k.
# Usage: HANSU=... [CONCURRENCY=N] [DEPTH=1m|150k] confirm.sh NAME [OPTION=VALUE...]
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(cd ../../.. && pwd)
M=${MATCH:-$ROOT/build/selfplay/match/hansu-match}
H=${HANSU:?HANSU: the engine build of the match}
F=${FSF:-/usr/games/fairy-stockfish}
name=${1:?usage: confirm.sh NAME [OPTION=VALUE...]}
shift
case $name in
*[!A-Za-z0-9._-]* | .*) echo "confirm.sh: NAME '$name': letters, digits, '.', '_', '-' only" >&2
  exit 2 ;;
esac
depth=${DEPTH:-1m}
case $depth in
1m) hn=1000000 fn=300000 seed=5502 ;;
150k) hn=150000 fn=46000 seed=5501 ;;
*) echo "confirm.sh: DEPTH '$depth': 1m or 150k" >&2
  exit 2 ;;
esac
opt=()
for o in "$@"; do opt+=("option.$o"); done
. "$ROOT/scripts/runs.sh"
runs_fsf_nodes "$name-$depth" "$M" "$H" $hn "$F" $fn $seed "${CONCURRENCY:-1}" "${opt[@]}"
