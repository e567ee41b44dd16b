# SPDX-License-Identifier: MIT
# Long runs kept in docs/ or data/games/ (matches, SPRTs, tournaments that outlast a session)
# commit their PGNs gzipped: a run's PGN.gz beside its PGN.state, the plain PGN ignored by git
# (.gitignore).
# scripts/pack-runs writes the .gz of every run under way, before its state is committed; a
# runner sources this file and calls runs_unpack on its PGNs before it resumes, so that a fresh
# checkout continues from the committed .gz.

# runs_unpack PGN...: each PGN missing beside its PGN.gz is written back from it (byte for byte:
# hansu-match's state names the PGN's length, and resuming cuts the PGN back to it).
runs_unpack() {
  local p
  for p in "$@"; do
    if [ ! -e "$p" ] && [ -f "$p.gz" ]; then
      gzip -dc -- "$p.gz" >"$p.tmp" && mv -- "$p.tmp" "$p"
    fi
  done
}

# runs_match NAME MATCH-COMMAND...: plays the match NAME, or resumes it where NAME.pgn.state is
# (after runs_unpack NAME.pgn): the command gets --pgn NAME.pgn --json NAME.json [--resume],
# its output appended to NAME.txt. A finished match (NAME.pgn.gz without a state) is not played
# again: it says so and returns 0.
runs_match() {
  local name=$1
  shift
  if [ -f "$name.pgn.gz" ] && [ ! -f "$name.pgn.state" ]; then
    echo "$name: finished ($name.pgn.gz, $name.json)"
    return 0
  fi
  runs_unpack "$name.pgn"
  local resume=()
  [ -f "$name.pgn.state" ] && resume=(--resume)
  "$@" --pgn "$name.pgn" --json "$name.json" "${resume[@]}" >>"$name.txt" 2>&1
}

# runs_fsf_nodes NAME MATCH HANSU HANSU_NODES FSF FSF_NODES SEED CONCURRENCY [ENGINE-ARG...]: the
# match NAME (runs_match) of Hansu against Fairy-Stockfish 11.1 at fixed nodes a move, 100 games
# from the 16 formation starts, one thread each; ENGINE-ARGs (option.X=V) go to Hansu. One
# definition for every runner of these matches (issue 55's play.sh, issue 56's confirm.sh), so
# that matches of one seed pair game for game.
runs_fsf_nodes() {
  local name=$1 match=$2 hansu=$3 hn=$4 fsf=$5 fn=$6 seed=$7 conc=$8
  shift 8
  runs_match "$name" "$match" --engine cmd="$hansu" name=Hansu nodes="$hn" "$@" \
    --engine cmd="$fsf" name=FSF-11.1 nodes="$fn" --games 100 --openings starts --seed "$seed" \
    --concurrency "$conc" --move-info --watchdog 60000
}
