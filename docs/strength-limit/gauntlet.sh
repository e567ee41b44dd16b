# SPDX-License-Identifier: MIT
# The gauntlets of the strength limiter's tournaments (D, E, X), sourced by their play.sh, which
# set M (hansu-match), H (hansu), F (Fairy-Stockfish), CONC (games at once) and GAUNTLET_FLAGS
# (the tournament's own hansu-match flags: rounds, openings, variant).
level() { echo "--engine cmd=$H name=Hansu-Elo-$1 option.UCI_LimitStrength=true option.UCI_Elo=$1 tc=60+0.6"; }
fsf() { echo "--engine cmd=$F name=FSF-n$1 nodes=$2"; }
# gauntlet NAME SEED ENGINE-ARGS...: the first engine against each of the others, as its own
# hansu-match tournament (NAME.pgn, NAME.json, NAME.log); resumed where a state exists, passed
# over once NAME.done is there.
gauntlet() {
  local name=$1 seed=$2; shift 2
  [ -f "$name.done" ] && return 0
  local resume=()
  ls "$name"-*.pgn.state >/dev/null 2>&1 && resume=(--resume)
  "$M" --tournament gauntlet "$@" "${GAUNTLET_FLAGS[@]}" --seed "$seed" \
    --concurrency "$CONC" --rating-interval 0 --pgn "$name.pgn" --json "$name.json" \
    "${resume[@]}" >"$name.log" 2>&1
  touch "$name.done"
}
