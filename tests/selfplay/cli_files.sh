#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The front ends' output files (issue 23 §5): hansu-tune past a file size limit (ulimit -f)
# reports "File too large" and leaves no OUT.tmp (it died by SIGXFSZ, rc 153); a second
# hansu-tune on one --out is refused while the first holds OUT.lock; hansu-selfplay merge
# refuses an existing -o without --force.
# Usage: cli_files.sh HANSU_SELFPLAY HANSU_TUNE WORKDIR
set -uo pipefail
SELFPLAY=$1
TUNE=$2
WORK=$3
rm -rf "$WORK" && mkdir -p "$WORK" || exit 1
cd "$WORK" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
"$SELFPLAY" --games 4 --nodes 20 --threads 1 --hash 1 --no-bench --progress 1000 --out run \
    >/dev/null || fail "self-play of the fixture"
TUNE_FLAGS=(run --threads 1 --epochs 1)

# A header (about 20 KB) past an 8 KB limit: a clear error, rc 1, no file and no .tmp left.
(ulimit -f 8 && "$TUNE" "${TUNE_FLAGS[@]}" --out big.h >tune.out 2>&1)
rc=$?
[ "$rc" = 1 ] || { cat tune.out; fail "hansu-tune under ulimit -f 8: rc $rc, want 1"; }
grep -q "big.h: File too large" tune.out || { cat tune.out; fail "no 'File too large'"; }
[ ! -e big.h.tmp ] || fail "big.h.tmp left behind"
[ ! -e big.h ] || fail "big.h written past the limit"

# One writer of an --out: while its lock is held (here by flock(1)), a tuner is refused before
# reading the data, and the header is left as it was.
echo keep >same.h
flock same.h.lock "$TUNE" "${TUNE_FLAGS[@]}" --out same.h >lock.out 2>&1
rc=$?
[ "$rc" = 1 ] || { cat lock.out; fail "hansu-tune on a locked --out: rc $rc, want 1"; }
grep -q "same.h.lock: locked by another writer" lock.out || { cat lock.out; fail "no lock error"; }
grep -q "^loaded" lock.out && fail "the data was read before the lock was taken"
[ "$(cat same.h)" = keep ] || fail "same.h changed"
"$TUNE" "${TUNE_FLAGS[@]}" --out same.h >free.out 2>&1 || { cat free.out; fail "lock not freed"; }
[ ! -e same.h.lock ] || fail "same.h.lock left behind"

# merge -o: a new file is written; an existing one is replaced only with --force.
"$SELFPLAY" merge -o m.h5 run >merge1.out 2>&1 || { cat merge1.out; fail "first merge"; }
sum=$(sha256sum m.h5)
"$SELFPLAY" merge -o m.h5 run >merge2.out 2>&1
rc=$?
[ "$rc" = 1 ] || { cat merge2.out; fail "merge over an existing -o: rc $rc, want 1"; }
grep -q "m.h5 already exists: give --force" merge2.out || { cat merge2.out; fail "no message"; }
[ "$(sha256sum m.h5)" = "$sum" ] || fail "m.h5 changed"
"$SELFPLAY" merge -o m.h5 --force run >merge3.out 2>&1 || { cat merge3.out; fail "--force"; }
echo "cli files: all checks passed"
