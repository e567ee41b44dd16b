#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# clang-format over Hansu's C sources (.clang-format at the root), generated weights headers left
# as their emitter writes them. Usage: scripts/format.sh          (formats the files in place)
#                                      scripts/format.sh --check  (lists unformatted files, exit 1)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "format.sh: clang-format is not installed" >&2; exit 2; }
# A generated header says so in its banner (engine/eval_header.c writes "do not edit").
sources() {
  git ls-files '*.c' '*.h' | while read -r f; do
    head -n 8 "$f" | grep -qi "do not edit" || echo "$f"
  done
}
if [ "${1:-}" = "--check" ]; then
  # One clang-format a file, as many at once as there are cores (CI's time).
  bad=$(sources | xargs -P "$(nproc)" -n 16 sh -c \
    'for f; do clang-format --dry-run -Werror "$f" >/dev/null 2>&1 || echo "$f"; done' _ | sort)
  if [ -n "$bad" ]; then
    echo "format.sh: not clang-formatted (run scripts/format.sh):" >&2
    echo "$bad" | sed 's/^/  /' >&2
    exit 1
  fi
  echo "format.sh: $(sources | wc -l) C files clang-formatted"
elif [ -z "${1:-}" ]; then
  sources | xargs clang-format -i
else
  echo "usage: scripts/format.sh [--check]" >&2
  exit 2
fi
