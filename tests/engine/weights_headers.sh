#!/bin/sh
# SPDX-License-Identifier: MIT
# Every weights header kept in data/weights/ still builds the engine's evaluation (its entry
# count and layout match its variant's eval_terms.def): each is compiled into engine/eval.c (or
# engine/xiangqi/eval.c) as -DHANSU_EVAL_WEIGHTS (-DHANSU_XIANGQI_EVAL_WEIGHTS) would. Usage: weights_headers.sh SOURCE_DIR C_COMPILER
set -u
src=$1 cc=$2 failed=0 n=0
for h in "$src"/data/weights/*.h; do
    n=$((n + 1))
    # A header names its variant in its banner ("// variant: xiangqi"); janggi's may not.
    if grep -q '^// variant: xiangqi' "$h"; then
        def=HANSU_XIANGQI_EVAL_WEIGHTS_FILE unit=$src/engine/xiangqi/eval.c
    else
        def=HANSU_EVAL_WEIGHTS_FILE unit=$src/engine/eval.c
    fi
    if "$cc" -std=c11 -fsyntax-only -I"$src/engine" -D"$def"="\"$h\"" "$unit" \
        2>/tmp/weights_headers.$$; then
        echo "ok: $h"
    else
        echo "FAIL: $h does not build the evaluation:"; head -5 /tmp/weights_headers.$$
        failed=1
    fi
done
rm -f /tmp/weights_headers.$$
[ "$n" -gt 0 ] || { echo "FAIL: no header in $src/data/weights"; exit 1; }
exit $failed
