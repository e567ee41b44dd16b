#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every front end's output files (issue 39 §1, §4).
# - Past a file size limit (ulimit -f) each built front end says "File too large" and exits 1,
#   not killed by SIGXFSZ (rc 153), and leaves no *.tmp; every main() starts with cli_init() and
#   every front end built from engine/, selfplay/ and tuner/ has its case here.
# - An output named by a link writes the link's target, in another folder, and keeps the link;
#   one naming a device is written into and stays a device (private nodes made by mknod, root
#   only): a full device's error is reported by name.
# Usage: cli_outputs.sh SOURCE_DIR WORKDIR NAME=BINARY...
set -uo pipefail
SRC=$1
WORK=$2
shift 2
declare -A BIN
for nb in "$@"; do BIN[${nb%%=*}]=${nb#*=}; done
rm -rf "$WORK" && mkdir -p "$WORK" || exit 1
cd "$WORK" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
CASES="hansu hansu-selfplay hansu-match hansu-tune hansu-tune-bench hansu-eval hansu-nnue"

# Every front end has a case, and every main() makes the one start-up call.
for name in $(grep -ho 'add_executable([a-z-]*' "$SRC"/engine/CMakeLists.txt \
              "$SRC"/selfplay/CMakeLists.txt "$SRC"/selfplay/match/CMakeLists.txt \
              "$SRC"/tuner/CMakeLists.txt "$SRC"/tuner/nnue/CMakeLists.txt | cut -d'(' -f2); do
    [[ " $CASES " == *" $name "* ]] || fail "front end $name has no case in cli_outputs.sh"
    [ -n "${BIN[$name]:-}" ] || fail "front end $name not given to cli_outputs.sh"
done
for f in $(grep -rl --include='*.c' '^int main(' "$SRC"/engine "$SRC"/selfplay "$SRC"/tuner); do
    grep -A1 '^int main(' "$f" | grep -q '^    cli_init();' || fail "$f: main() does not start with cli_init()"
done

"${BIN[hansu-selfplay]}" --games 16 --nodes 20 --threads 1 --hash 1 --no-bench --progress 1000 \
    --out run >/dev/null || fail "self-play of the fixture"

# limited NAME BLOCKS OUT COMMAND...: COMMAND under ulimit -f BLOCKS fails with rc 1 and
# "File too large", and leaves no *.tmp (OUT: the file that must not be left either, or -).
limited() {
    local name=$1 blocks=$2 out=$3
    shift 3
    (ulimit -f "$blocks" && exec "$@") >"$name.stdout" 2>"$name.err"
    local rc=$?
    [ "$rc" = 1 ] || { cat "$name.err"; fail "$name under ulimit -f $blocks: rc $rc, want 1"; }
    grep -q "File too large" "$name.err" || { cat "$name.err"; fail "$name: no 'File too large'"; }
    [ -z "$(find . -name '*.tmp')" ] || fail "$name left $(find . -name '*.tmp')"
    [ "$out" = - ] || [ ! -e "$out" ] || fail "$name wrote $out past the limit"
}
limited hansu 4 - "${BIN[hansu]}" print-weights
limited hansu-selfplay 8 lim.plain "${BIN[hansu-selfplay]}" export --plain lim.plain run
limited hansu-match 1 - "${BIN[hansu-match]}" --engine "cmd=${BIN[hansu]}" \
    --engine "cmd=${BIN[hansu]}" --nodes 20 --games 2 --pgn lim.pgn
limited hansu-tune 8 lim.h "${BIN[hansu-tune]}" run --threads 1 --epochs 1 --out lim.h
limited hansu-tune-bench 8 lim.h5 "${BIN[hansu-tune-bench]}" make lim.h5 20
seq 2000 | sed 's|.*|rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1|' \
    >fens.txt
limited hansu-eval 1 - sh -c "exec '${BIN[hansu-eval]}' <fens.txt"
limited hansu-nnue 64 lim.nnue "${BIN[hansu-nnue]}" --out lim.nnue --epochs 1 --valid 0.3 run
rm -f ./*.stdout ./*.err lim.*
"${BIN[hansu-tune-bench]}" make lim-run.h5 20 >/dev/null || fail "hansu-tune-bench make"

# A failed write to standard output (here /dev/full) is an error naming it, rc 1, in every front
# end (cli_init's exit check): bench, a UCI session, show, verify and --help said nothing, rc 0.
full_case() { # NAME COMMAND...
    local name=$1
    shift
    "$@" >/dev/full 2>full.err
    local rc=$?
    [ "$rc" = 1 ] && grep -q "^$name: standard output: No space left on device" full.err ||
        { cat full.err; fail "$name: $* >/dev/full: rc $rc, no 'standard output' error"; }
}
full_case hansu "${BIN[hansu]}" bench
full_case hansu "${BIN[hansu]}" --help
full_case hansu sh -c "printf 'uci\nisready\nquit\n' | exec '${BIN[hansu]}'"
full_case hansu-selfplay "${BIN[hansu-selfplay]}" show "$(ls run/*.h5 | head -1)"
full_case hansu-selfplay "${BIN[hansu-selfplay]}" verify run
full_case hansu-selfplay "${BIN[hansu-selfplay]}" --help
full_case hansu-match "${BIN[hansu-match]}" --help
full_case hansu-tune "${BIN[hansu-tune]}" --help
full_case hansu-tune-bench "${BIN[hansu-tune-bench]}" run lim-run.h5 1
full_case hansu-eval sh -c "exec '${BIN[hansu-eval]}' <fens.txt"
full_case hansu-nnue "${BIN[hansu-nnue]}" --help
(ulimit -f 1 && exec "${BIN[hansu]}" bench >big.out) 2>full.err
[ $? = 1 ] && grep -q "^hansu: standard output: File too large" full.err ||
    { cat full.err; fail "hansu bench past ulimit -f 1: no 'File too large', rc 1"; }
rm -f full.err big.out lim-run.h5

# A full device as an output other than standard output: the cause is named, and hansu-nnue says
# that its net was written (the state said "write failed" alone; exit 1 hid the written net).
if [ -c /dev/full ]; then
    "${BIN[hansu-match]}" --engine "cmd=${BIN[hansu]}" --engine "cmd=${BIN[hansu]}" --nodes 20 \
        --games 2 --state /dev/full >full.out 2>&1 && fail "--state /dev/full: rc 0"
    grep -q "state /dev/full: write failed (No space left on device)" full.out ||
        { cat full.out; fail "--state /dev/full: no cause"; }
    "${BIN[hansu-nnue]}" --out full.nnue --json /dev/full --epochs 1 --valid 0.3 run \
        >full.out 2>&1 && fail "hansu-nnue --json /dev/full: rc 0"
    grep -q "the net was written to full.nnue; the JSON could not be: /dev/full: No space" \
        full.out && [ -s full.nnue ] || { cat full.out; fail "hansu-nnue --json /dev/full"; }
    rm -f full.*
fi

# Links: each output flag named by a link into another folder writes the link's target.
mkdir -p links real
link() { ln -s "../real/$1" "links/$1"; }
OUTS="e.plain e.pgn s.json m.h5 t.h t.json t.csv n.nnue n.json n.csv n.ckpt x.json x.pgn"
ln -s ../real/x.pgn links/x2.pgn # a second name of x.pgn
for f in $OUTS; do link "$f"; done
echo old >real/m.h5 # merge --force replaces the target, not the link
"${BIN[hansu-selfplay]}" export --plain links/e.plain --pgn links/e.pgn run >/dev/null 2>&1 ||
    fail "export into links"
"${BIN[hansu-selfplay]}" merge -o links/m.h5 --force run >/dev/null || fail "merge into a link"
"${BIN[hansu-selfplay]}" --games 2 --nodes 20 --threads 1 --hash 1 --no-bench --progress 1000 \
    --out run2 --json links/s.json >/dev/null 2>&1 || fail "self-play --json into a link"
"${BIN[hansu-tune]}" run --threads 1 --epochs 1 --out links/t.h --json links/t.json \
    --loss-csv links/t.csv >/dev/null 2>&1 || fail "hansu-tune into links"
"${BIN[hansu-nnue]}" --out links/n.nnue --json links/n.json --csv links/n.csv \
    --checkpoint links/n.ckpt --epochs 1 --valid 0.3 run >/dev/null 2>&1 || fail "hansu-nnue"
"${BIN[hansu-match]}" --engine "cmd=${BIN[hansu]}" --engine "cmd=${BIN[hansu]}" --nodes 20 \
    --games 2 --pgn links/x.pgn --json links/x.json >/dev/null 2>&1 || fail "hansu-match"
for f in $OUTS; do
    [ -L "links/$f" ] || fail "links/$f was replaced: no longer a link"
    [ -s "real/$f" ] || fail "real/$f: the link's target got no output"
done
! echo old | cmp -s - real/m.h5 || fail "merge -o a link: its target not replaced"
[ -z "$(find . -name '*.tmp')" ] || fail "left $(find . -name '*.tmp')"
# A file beside an output (the match's state) goes beside the link's target, as its lock does.
[ -s real/x.pgn.state ] && [ ! -e links/x.pgn.state ] || fail "x.pgn.state not beside real/x.pgn"

# Locks sit beside a link's target: while this shell holds real/F.lock (flock(1)), a run
# writing F through links/F is refused naming that lock (both ran, and a PGN lost games).
locked_case() { # LOCKED_FILE COMMAND...
    local file=$1
    shift
    local fd
    exec {fd}>"real/$file.lock" && flock -n "$fd" || fail "cannot lock real/$file.lock"
    "$@" >lock.out 2>&1 {fd}>&-
    local rc=$?
    exec {fd}>&-
    [ "$rc" = 1 ] && grep -q "real/$file.lock: locked by another writer" lock.out ||
        { cat lock.out; fail "$* (rc $rc): not refused by real/$file.lock"; }
}
locked_case x.pgn "${BIN[hansu-match]}" --engine "cmd=${BIN[hansu]}" --engine "cmd=${BIN[hansu]}" \
    --nodes 20 --games 2 --pgn links/x2.pgn --resume
locked_case n.nnue "${BIN[hansu-nnue]}" --out links/n.nnue --epochs 1 --valid 0.3 run
locked_case t.h "${BIN[hansu-tune]}" run --threads 1 --epochs 1 --out links/t.h
rm -f lock.out real/*.lock

# A FIFO (or device) as output is written into, and no file is made beside it (--pgn dev/null
# left dev/null.state and --out dev/null dev/null.ckpt): no lock, no state (nothing to resume).
mkdir fifo && mkfifo fifo/x.pgn || fail "mkfifo"
cat fifo/x.pgn >fifo.got &
"${BIN[hansu-match]}" --engine "cmd=${BIN[hansu]}" --engine "cmd=${BIN[hansu]}" --nodes 20 \
    --games 2 --pgn fifo/x.pgn >fifo.out 2>&1 || { cat fifo.out; fail "hansu-match --pgn a FIFO"; }
wait
[ "$(grep -c '^\[Result' fifo.got)" = 2 ] || fail "--pgn a FIFO: its reader got no 2 games"
[ "$(ls fifo)" = x.pgn ] || fail "--pgn a FIFO made files beside it: $(ls fifo)"
"${BIN[hansu-match]}" --engine "cmd=${BIN[hansu]}" --engine "cmd=${BIN[hansu]}" --nodes 20 \
    --games 2 --pgn fifo/x.pgn --resume >fifo.out 2>&1 && fail "--resume --pgn a FIFO: not refused"
grep -q -- "--resume: --pgn fifo/x.pgn is a device or FIFO" fifo.out || { cat fifo.out; fail "--resume --pgn a FIFO: no message"; }
"${BIN[hansu-match]}" --engine "cmd=${BIN[hansu]}" --engine "cmd=${BIN[hansu]}" \
    --engine "cmd=${BIN[hansu]}" --tournament round-robin --nodes 20 --games 2 --pgn fifo/x.pgn \
    >fifo.out 2>&1 && fail "a tournament's --pgn a FIFO: not refused"
grep -q "fifo/x.pgn is a device or FIFO, not a file" fifo.out || { cat fifo.out; fail "tournament --pgn a FIFO: no message"; }
[ "$(ls fifo)" = x.pgn ] || fail "a tournament's --pgn a FIFO made files beside it: $(ls fifo)"
# hansu-tune --out a FIFO: the header reaches the reader, and the run ends (it used to read its
# output back to hash it, and hung on the FIFO).
mkfifo fifo/t.h || fail "mkfifo"
cat fifo/t.h >fifo.got &
timeout 60 "${BIN[hansu-tune]}" run --threads 1 --epochs 1 --out fifo/t.h >fifo.out 2>&1 ||
    { cat fifo.out; fail "hansu-tune --out a FIFO did not end well"; }
wait
grep -q "DO NOT EDIT" fifo.got || fail "hansu-tune --out a FIFO: its reader got no header"
# A FIFO nothing reads: hansu-match waits for a reader, and SIGINT or SIGTERM ends the wait (it
# was blocked in open(2), deaf to both) with a message naming the file.
for out in "--pgn fifo/x.pgn" "--pgn fifo.pgn --state fifo/x.pgn" "--json fifo/x.pgn"; do
    for sig in INT TERM; do
        # shellcheck disable=SC2086
        "${BIN[hansu-match]}" --engine "cmd=${BIN[hansu]}" --engine "cmd=${BIN[hansu]}" \
            --nodes 20 --games 2 $out >fifo.out 2>&1 &
        pid=$!
        sleep 0.5
        kill -$sig $pid
        for _ in $(seq 50); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
        kill -0 $pid 2>/dev/null && { kill -9 $pid; fail "hansu-match $out: SIG$sig did not stop it"; }
        wait $pid
        rc=$?
        [ $rc = 1 ] && grep -q "x.pgn: stopped while waiting for a reader of the FIFO" fifo.out ||
            { cat fifo.out; fail "hansu-match $out, SIG$sig: rc $rc"; }
        rm -f fifo.pgn*
    done
done
rm -rf fifo fifo.out fifo.got

# Devices (root only): written into, never replaced; a full one's error names it.
if mknod dev-null c 1 3 2>/dev/null && mknod dev-full c 1 7 2>/dev/null &&
    echo probe >dev-null 2>/dev/null; then
    device_case() { # WANT_RC DEVICE COMMAND...
        local want=$1 dev=$2
        shift 2
        "$@" >dev.out 2>&1
        local rc=$?
        [ "$rc" = "$want" ] || { cat dev.out; fail "$* on $dev: rc $rc, want $want"; }
        [ -c "$dev" ] || fail "$*: $dev is no longer a device"
        [ "$want" = 0 ] || grep -q "$dev: No space left on device" dev.out ||
            { cat dev.out; fail "$*: no 'No space left on device' naming $dev"; }
    }
    for dev in dev-null dev-full; do
        want=$([ $dev = dev-null ] && echo 0 || echo 1)
        device_case "$want" $dev "${BIN[hansu-selfplay]}" export --plain $dev run
        device_case "$want" $dev "${BIN[hansu-selfplay]}" export --pgn $dev run
        device_case "$want" $dev "${BIN[hansu-selfplay]}" --games 2 --nodes 20 --threads 1 \
            --hash 1 --no-bench --progress 1000 --out run-$dev --json $dev
        device_case "$want" $dev "${BIN[hansu-tune]}" run --threads 1 --epochs 1 --out t-$dev.h \
            --json $dev
        device_case "$want" $dev "${BIN[hansu-nnue]}" --out n-$dev.nnue --json $dev --epochs 1 \
            --valid 0.3 run
        device_case "$want" $dev "${BIN[hansu-match]}" --engine "cmd=${BIN[hansu]}" \
            --engine "cmd=${BIN[hansu]}" --nodes 20 --games 2 --json $dev
    done
    "${BIN[hansu-selfplay]}" merge -o dev-null --force run >dev.out 2>&1 &&
        fail "merge -o a device: not refused"
    grep -q "dev-null: not a regular file" dev.out || { cat dev.out; fail "merge: no message"; }
    [ -c dev-null ] || fail "merge -o dev-null replaced the device"
    [ -z "$(find . -name '*.tmp')" ] || fail "left $(find . -name '*.tmp')"
else
    echo "devices: skipped (mknod needs root and a mount that allows devices)"
fi
echo "cli outputs: all checks passed"
