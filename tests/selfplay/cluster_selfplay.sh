#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A run split into parts plays exactly the games of the one-process run (issue 15): a small run
# once in one process, once as --part 1/2 + 2/2 side by side in one folder (and, given MPIRUN,
# as mpirun -np 2), compared game by game (ids, seeds, pairings, moves, scores, results) by
# tests/cluster_games.py; verify and merge read the parts' folder as one run; a part killed
# with SIGKILL mid-run, then --resume, loses nothing; the folder's locks still refuse a second
# writer (the same part twice, a whole-run writer, a split into another K) while parts coexist.
# With MPIRUN, hansu-tune (HANSU_TUNE) under mpirun -np 2 emits the weights of one process.
# Usage: cluster_selfplay.sh HANSU_SELFPLAY WORKDIR [MPIRUN [HANSU_TUNE]]  (MPIRUN: MPI test)
set -uo pipefail
BIN=$1
WORK=$2
MPIRUN=${3:-}
TUNE=${4:-}
HERE=$(cd "$(dirname "$0")" && pwd)
COMPARE=(/usr/bin/python3 "$HERE/cluster_games.py")
GAMES=24
FLAGS=(--games "$GAMES" --nodes 200 --hash 1 --seed 15 --no-bench --progress 1000)
rm -rf "$WORK" && mkdir -p "$WORK" || exit 1
cd "$WORK" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
# Both ranks of hansu-tune's output $1 hold between 45 % and 55 % of the training and of the
# validation positions, and trace at most 55 % of all (plus the refused ones, traced once more).
halves() {
  /usr/bin/python3 - "$1" <<'PY' || { cat "$1"; fail "a rank holds more than its share"; }
import re, sys
lines = re.findall(r"rank (\d) of 2 holds (\d+) of (\d+) training and (\d+) of (\d+) validation "
                   r"positions .*; traced (\d+) positions", open(sys.argv[1]).read())
refused = int(re.search(r"^trace parity: (\d+) refused", open(sys.argv[1]).read(), re.M).group(1))
assert sorted(l[0] for l in lines) == ["0", "1"], lines
for _, a, n, b, m, traced in lines:
    a, n, b, m, traced = map(int, (a, n, b, m, traced))
    assert n > 100 and m > 20 and 0.45 * n <= a <= 0.55 * n and 0.45 * m <= b <= 0.55 * m, lines
    assert traced <= 0.55 * (n + m + refused) + a + b if refused else traced == a + b, lines
PY
}

"$BIN" "${FLAGS[@]}" --threads 2 --out one >one.out 2>&1 || { cat one.out; fail "one-process run"; }

if [ -n "$MPIRUN" ]; then
  # Rank r plays part r+1 of 2, with its own shards in the one folder.
  $MPIRUN --allow-run-as-root --oversubscribe --bind-to none -np 2 \
    "$BIN" "${FLAGS[@]}" --threads 1 --out mpi >mpi.out 2>&1 || { cat mpi.out; fail "mpirun -np 2"; }
  grep -q "^ranks  *2 (MPI)" mpi.out || { cat mpi.out; fail "no summary of both ranks"; }
  grep -q "^games played  *$GAMES " mpi.out || { cat mpi.out; fail "rank 0 does not count all games"; }
  "${COMPARE[@]}" one -- mpi --count "$GAMES" || fail "mpirun -np 2 played other games"
  # A rank killed mid-run ends the job; mpirun -np 2 --resume completes it, nothing lost.
  $MPIRUN --allow-run-as-root --oversubscribe --bind-to none -np 2 \
    "$BIN" "${FLAGS[@]}" --threads 1 --checkpoint-games 1 --checkpoint-s 0.01 --out mpikill \
    >mpikill.out 2>&1 &
  mp=$!
  for _ in $(seq 1 2000); do
    [ -e mpikill/shard-000000.h5 ] || [ -e mpikill/shard-000001.h5 ] && break
    sleep 0.01
  done
  ranks=$(ps --ppid "$mp" -o pid=,args=)
  rank=$(echo "$ranks" | awk '/hansu-selfplay/ {print $1; exit}')
  [ -n "$rank" ] && kill -9 "$rank"
  wait "$mp"
  rc=$?
  [ "$rc" -ne 0 ] || { echo "$ranks"; ls mpikill; fail "the MPI job ended before a rank was killed"; }
  $MPIRUN --allow-run-as-root --oversubscribe --bind-to none -np 2 \
    "$BIN" "${FLAGS[@]}" --threads 1 --resume --out mpikill >mpiresume.out 2>&1 ||
    { cat mpiresume.out; fail "mpirun --resume"; }
  "${COMPARE[@]}" one -- mpikill --count "$GAMES" || fail "mpirun --resume after a kill lost games"
  # The tuner: mpirun -np 2 --threads 1 emits the header of one process with --threads 2 (the
  # gradient's shares summed in thread order over the ranks), and the same JSON numbers.
  if [ -n "$TUNE" ]; then
    TFLAGS=(one --epochs 4 --batch 400 --valid 0.2 --k 1.0)
    "$TUNE" "${TFLAGS[@]}" --threads 2 --out one.h --json one.json >tune1.out 2>&1 ||
      { cat tune1.out; fail "hansu-tune, one process"; }
    $MPIRUN --allow-run-as-root --oversubscribe --bind-to none -np 2 \
      "$TUNE" "${TFLAGS[@]}" --threads 1 --out mpi.h --json mpi.json >tune2.out 2>&1 ||
      { cat tune2.out; fail "hansu-tune under mpirun -np 2"; }
    cmp one.h mpi.h || fail "mpirun -np 2 hansu-tune wrote other weights"
    diff <(grep -v '"seconds"\|"out"' one.json) <(grep -v '"seconds"\|"out"' mpi.json) ||
      fail "mpirun -np 2 hansu-tune reported other numbers"
    [ "$(grep -c '^epoch ' tune2.out)" -eq 4 ] || { cat tune2.out; fail "not one report of rank 0"; }
    # Each rank holds and traces only its shares: about half of either set.
    halves tune2.out
    # Several files (the shuffle across files), K fitted, and parity refusals (simulated: every
    # 7th row), which the ranks exchange before they trace their shares of the kept ones again.
    TFLAGS=(one mpi --epochs 3 --batch 300 --valid 0.2)
    HANSU_TUNE_TEST_REFUSE=7 "$TUNE" "${TFLAGS[@]}" --threads 2 --out one-r.h --json one-r.json \
      >tune3.out 2>&1 || { cat tune3.out; fail "hansu-tune with refusals, one process"; }
    grep -q "^trace parity: [1-9][0-9]* refused" tune3.out || { cat tune3.out; fail "no refusals"; }
    HANSU_TUNE_TEST_REFUSE=7 $MPIRUN --allow-run-as-root --oversubscribe --bind-to none -np 2 \
      -x HANSU_TUNE_TEST_REFUSE "$TUNE" "${TFLAGS[@]}" --threads 1 --out mpi-r.h --json mpi-r.json \
      >tune4.out 2>&1 || { cat tune4.out; fail "hansu-tune with refusals under mpirun -np 2"; }
    cmp one-r.h mpi-r.h || fail "mpirun -np 2 hansu-tune with refusals wrote other weights"
    diff <(grep -v '"seconds"\|"out"' one-r.json) <(grep -v '"seconds"\|"out"' mpi-r.json) ||
      fail "mpirun -np 2 hansu-tune with refusals reported other numbers"
    halves tune4.out
  fi
  echo "mpi: identical to one process, and after a killed rank and --resume"
  exit 0
fi

# Two parts side by side in one folder, as two tasks of a Slurm job array.
"$BIN" "${FLAGS[@]}" --threads 1 --part 1/2 --out split >p1.out 2>&1 &
p1=$!
"$BIN" "${FLAGS[@]}" --threads 1 --part 2/2 --out split >p2.out 2>&1 || { cat p2.out; fail "part 2/2"; }
wait "$p1" || { cat p1.out; fail "part 1/2"; }
"${COMPARE[@]}" one -- split --count "$GAMES" || fail "--part 1/2 + 2/2 played other games"
"$BIN" verify split >verify.out 2>&1 || { cat verify.out; fail "verify of the parts' folder"; }
grep -q "files: $GAMES games" verify.out || { cat verify.out; fail "verify did not read all games"; }
"$BIN" merge -o merged.h5 split >merge.out 2>&1 || { cat merge.out; fail "merge of the parts' folder"; }
"${COMPARE[@]}" one -- merged.h5 || fail "the merged file holds other games"
# A part again without --resume is refused; a whole run's --resume sees a complete run.
"$BIN" "${FLAGS[@]}" --threads 1 --part 1/2 --out split >again.out 2>&1 &&
  fail "part 1/2 started again over its own shards"
grep -q "already holds shards of part 1/2" again.out || { cat again.out; fail "no clear refusal"; }

# Locks: while part 1/2 plays, the same part, a split into 3 and a whole-run writer are refused.
"$BIN" --games 100000 --nodes 200 --hash 1 --seed 15 --no-bench --progress 1000 --threads 1 \
  --checkpoint-games 1 --part 1/2 --out locks >locks1.out 2>&1 &
holder=$!
for _ in $(seq 1 2000); do [ -e locks/shard-000000.h5 ] && break; sleep 0.01; done
LOCKFLAGS=(--games 100000 --nodes 200 --hash 1 --seed 15 --no-bench --threads 1 --out locks)
"$BIN" "${LOCKFLAGS[@]}" --part 1/2 --resume >same.out 2>&1 && fail "the same part twice"
grep -q "locked by another writer, pid $holder" same.out || { cat same.out; fail "same part"; }
"$BIN" "${LOCKFLAGS[@]}" --part 1/3 --resume >other.out 2>&1 && fail "a split into 3 beside 2"
grep -q "parts of a split into 2 are being written" other.out || { cat other.out; fail "split"; }
"$BIN" "${LOCKFLAGS[@]}" --resume >whole.out 2>&1 && fail "a whole-run writer beside a part"
grep -q "locked by another writer" whole.out || { cat whole.out; fail "whole-run writer"; }
"$BIN" merge -o locks/merged.h5 one >lmerge.out 2>&1 && fail "a merge into a folder parts write"
kill -TERM "$holder"
wait "$holder"
[ -e locks/.hansu-lock-part-1-of-2 ] && fail "the part's own lock file left behind"
# Once the parts are done, a whole-run writer goes ahead (nothing left to play here).
"$BIN" "${FLAGS[@]}" --threads 1 --resume --out split >whole-after.out 2>&1 ||
  { cat whole-after.out; fail "a whole-run --resume after the parts"; }
grep -q "^games played  *0 " whole-after.out || { cat whole-after.out; fail "games replayed"; }

# Part 1/2 killed with SIGKILL mid-run (after its first shard), then --resume: nothing lost.
"$BIN" "${FLAGS[@]}" --threads 1 --checkpoint-games 1 --checkpoint-s 0.01 --part 1/2 \
  --out killed >k1.out 2>&1 &
victim=$!
for _ in $(seq 1 2000); do [ -e killed/shard-000000.h5 ] && break; sleep 0.01; done
kill -9 "$victim"
wait "$victim"
[ $? -eq 137 ] || fail "part 1/2 finished before the kill (make it longer)"
"$BIN" "${FLAGS[@]}" --threads 1 --part 2/2 --out killed >k2.out 2>&1 || { cat k2.out; fail "part 2/2"; }
"$BIN" "${FLAGS[@]}" --threads 1 --part 1/2 --resume --out killed >k3.out 2>&1 ||
  { cat k3.out; fail "--resume of part 1/2"; }
"${COMPARE[@]}" one -- killed --count "$GAMES" || fail "a killed part and --resume lost games"
echo "parts: identical to one process; verify, merge, locks and a killed part's --resume sound"
