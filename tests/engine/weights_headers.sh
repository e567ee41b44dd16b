#!/bin/sh
# SPDX-License-Identifier: MIT
# Every weights header kept in data/weights/ still builds the engine's evaluation (its entry
# count and layout match its variant's eval_terms.def): each is compiled into its variant's
# engine/<variant>/eval.c as -DHANSU_<VARIANT>_EVAL_WEIGHTS would (engine/CMakeLists.txt).
# Usage: weights_headers.sh SOURCE_DIR C_COMPILER
set -u
src=$1 cc=$2 failed=0 n=0
for h in "$src"/data/weights/*.h; do
    n=$((n + 1))
    # A header names its variant in its banner ("// variant: xiangqi"); janggi's may not.
    variant=$(sed -n 's|^// variant: \([a-z0-9_]*\)$|\1|p' "$h" | head -1)
    unit=$src/engine/${variant:-janggi}/eval.c
    if "$cc" -std=c11 -fsyntax-only -I"$src/engine" -DHANSU_EVAL_WEIGHTS_FILE="\"$h\"" "$unit" \
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
