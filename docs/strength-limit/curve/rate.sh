#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The limiter's tables as one curve through the levels (docs/strength-limit.md, "One curve
# through the levels"): each variant's tournaments rated together on the levels' games against
# Fairy-Stockfish 11.1 alone (each level as the path position x it played at, --played-with),
# twice:
#   VARIANT-scale: only the scale's anchor held (Fairy-Stockfish 11.1 at 5 s + 0.05 s = 2500):
#     each level's and the curve's error on the scale, the chain of anchors included;
#   VARIANT-levels: every anchor also held, at its Elo from the first: the errors of the levels'
#     own games, the curve's weights, and the table (--fit).
# Writes VARIANT-{scale,levels}.{json,md} here (CURVE_OUT: another folder). The tournaments: D
# and E (janggi), X, X2 and X3 (xiangqi); TOURNAMENTS_JANGGI / TOURNAMENTS_XIANGQI name others
# (folders under docs/strength-limit, space-separated). Usage: rate.sh [janggi|xiangqi ...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cal=$here/../../../scripts/calibrate-strength
out=${CURVE_OUT:-$here}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$here/.."
rate() { # VARIANT NAME ARGS...
  local variant=$1 name=$2; shift 2
  "$cal" rate "$@" --variant "$variant" --no-level-pairings --fit --out "/tmp/curve-$$" >/dev/null
  cp "/tmp/curve-$$/calibration.json" "$out/$name.json"
  cp "/tmp/curve-$$/calibration.md" "$out/$name.md"
  rm -rf "/tmp/curve-$$"
}
anchors_of() { # JSON: --anchor NAME=ELO for each Fairy-Stockfish engine rated in it
  python3 -c 'import json, sys
for p in json.load(open(sys.argv[1]))["players"]:
    if p["engine"].startswith("FSF-"):
        print("--anchor %s=%d" % (p["engine"], round(p["elo"])))' "$1"
}
[ $# -gt 0 ] || set -- janggi xiangqi
for v in "$@"; do
  case $v in
  janggi) tournaments=(${TOURNAMENTS_JANGGI:-tournament-d tournament-e}) ;;
  xiangqi) tournaments=(${TOURNAMENTS_XIANGQI:-tournament-x tournament-x2 tournament-x3}) ;;
  *) echo "rate.sh: unknown variant '$v' (janggi or xiangqi)" >&2; exit 2 ;;
  esac
  jsons=() with=()
  for t in "${tournaments[@]}"; do
    for f in "$t"/*.json; do
      [ "$(basename "$f")" = calibration.json ] && continue
      jsons+=("$f")
      with+=(--played-with "$f=$t/strength-table.c")
    done
  done
  args=("${jsons[@]}" "${with[@]}")
  rate "$v" "$v-scale" "${args[@]}" --anchor FSF-11.1=2500
  # shellcheck disable=SC2046
  rate "$v" "$v-levels" "${args[@]}" $(anchors_of "$out/$v-scale.json")
done
