#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Hansu's xiangqi FEN and UCI moves in Fairy-Stockfish's `xiangqi` convention (Red = upper case
# = `w`, ranks 1-10 in moves): for each position below, `position ... moves ...` then `d` in
# both engines must give the same FEN (counters included), and the legal moves there (Hansu's
# `perft --divide`, Fairy-Stockfish's `go perft 1`) must be the same list. Skipped (exit 77)
# without Fairy-Stockfish. Usage: tests/xiangqi_fsf_io.sh HANSU [FSF]
set -u
HANSU=${1:?usage: xiangqi_fsf_io.sh HANSU [FSF]}
FSF=${2:-/usr/games/fairy-stockfish}
if [ ! -x "$FSF" ]; then
  echo "xiangqi_fsf_io: no Fairy-Stockfish at $FSF: skipped"
  exit 77
fi
X04="fen r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1"
# position | moves: quiet moves of every kind, captures (a cannon over a screen, a soldier),
# a soldier's sideways step across the river, ranks 10 in moves, Black to move with counters.
CASES=(
  "startpos|h3e3 h10g8 h1g3 i10h10 i1h1 b8e8"
  "startpos|h3h10 i10h10 e4e5 e7e6 e5e6 g7g6 c4c5 b10c8 c5c6 a10b10 c6d6"
  "$X04|f4f9 e9f9 b7c9 c3c2 d3d9"
  "fen 4k4/8R/9/9/9/9/9/9/9/rrBA1K3 w - - 0 1|i9i10 e10e9 i10i9 e9e10 i9i10 e10e9 i10i9 e9e10"
  "fen 3k5/9/9/9/9/2c6/9/9/4A4/4K4 b - - 7 31|c5c1 e2d3 d10d9 e1e2"
  "startpos|"
)
fail=0
for c in "${CASES[@]}"; do
  pos=${c%%|*} moves=${c#*|}
  cmd="position $pos${moves:+ moves $moves}"
  ours=$(printf 'setoption name UCI_Variant value xiangqi\n%s\nd\nquit\n' "$cmd" | "$HANSU" |
    sed -n 's/^Fen: //p')
  theirs=$(printf 'uci\nsetoption name UCI_Variant value xiangqi\n%s\nd\nquit\n' "$cmd" |
    timeout 30 "$FSF" 2>/dev/null | sed -n 's/^Fen: //p')
  if [ -z "$ours" ] || [ "$ours" != "$theirs" ]; then
    echo "xiangqi_fsf_io: $cmd: Hansu's FEN '$ours', Fairy-Stockfish's '$theirs'" >&2
    fail=1
    continue
  fi
  ours_moves=$("$HANSU" perft --variant xiangqi --fen "$ours" --depth 1 --divide |
    sed -n 's/^\([a-i][0-9]*[a-i][0-9]*\): 1$/\1/p' | sort | tr '\n' ' ')
  theirs_moves=$(printf 'uci\nsetoption name UCI_Variant value xiangqi\nposition fen %s\ngo perft 1\nquit\n' \
    "$ours" | timeout 30 "$FSF" 2>/dev/null | sed -n 's/^\([a-i][0-9]*[a-i][0-9]*\): 1$/\1/p' |
    sort | tr '\n' ' ')
  if [ -z "$ours_moves" ] || [ "$ours_moves" != "$theirs_moves" ]; then
    echo "xiangqi_fsf_io: $ours: Hansu's moves [$ours_moves], Fairy-Stockfish's [$theirs_moves]" >&2
    fail=1
    continue
  fi
  echo "ok  $ours  ($(wc -w <<<"$ours_moves") moves)"
done
[ "$fail" -eq 0 ] && echo "xiangqi_fsf_io: ${#CASES[@]} positions agree with Fairy-Stockfish"
exit "$fail"
