# SPDX-License-Identifier: MIT
# The gauntlets of the strength limiter's tournaments (D, E, X, X2), sourced first by their
# play.sh: it makes the programs absolute (MATCH, HANSU, FSF from the environment, relative to the
# caller's folder or absolute; by default the build's hansu-match and hansu and Debian's
# Fairy-Stockfish) as M, H and F, and goes into play.sh's folder, where the games are written.
# play.sh then sets CONC (games at once) and GAUNTLET_FLAGS (its own hansu-match flags: rounds,
# openings, variant) and calls gauntlet.
_gauntlet_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
M=$(realpath -s -m -- "${MATCH:-$_gauntlet_root/build/selfplay/match/hansu-match}")
H=$(realpath -s -m -- "${HANSU:-$_gauntlet_root/build/engine/hansu}")
F=$(realpath -s -m -- "${FSF:-/usr/games/fairy-stockfish}")
. "$_gauntlet_root/scripts/runs.sh"
cd "$(dirname "$0")"
level() { echo "--engine cmd=$H name=Hansu-Elo-$1 option.UCI_LimitStrength=true option.UCI_Elo=$1 tc=60+0.6"; }
fsf() { echo "--engine cmd=$F name=FSF-n$1 nodes=$2"; }
# gauntlet NAME SEED ENGINE-ARGS...: the first engine against each of the others, as its own
# hansu-match tournament (NAME.pgn, NAME.json, NAME.log); resumed where a state exists, passed
# over once NAME.done is there.
gauntlet() {
  local name=$1 seed=$2; shift 2
  [ -f "$name.done" ] && return 0
  local resume=() gz
  for gz in "$name"-*.pgn.gz; do [ -f "$gz" ] && runs_unpack "${gz%.gz}"; done
  ls "$name"-*.pgn.state >/dev/null 2>&1 && resume=(--resume)
  "$M" --tournament gauntlet "$@" "${GAUNTLET_FLAGS[@]}" --seed "$seed" \
    --concurrency "$CONC" --rating-interval 0 --pgn "$name.pgn" --json "$name.json" \
    "${resume[@]}" >"$name.log" 2>&1
  touch "$name.done"
}
