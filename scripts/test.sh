#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds Hansu and runs its default test suite: Release tests, the same tests under
# AddressSanitizer + UndefinedBehaviorSanitizer, the MPI tests in build-mpi/ (when Open MPI is there),
# and each fuzzer for a bounded time.
# Long checks (label `slow`) are left out; run them with: ctest --test-dir build -L slow
# The browser tests (label `browser`: report.html, scripts/play) run with the others when
# Chromium is present (scripts/setup.sh installs it) and are reported as skipped when not.
# Usage: scripts/test.sh [--quick]   (--quick: Release tests only, in this checkout)
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-$(nproc)}
PASSED=0  # tests and checks passed, for the closing line
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT

# Runs ctest and adds its test count to PASSED (ctest exits non-zero on any failure).
run_ctest() {
  ctest "$@" 2>&1 | tee "$LOG"
  local rc=${PIPESTATUS[0]}
  [ "$rc" -eq 0 ] || exit "$rc"
  PASSED=$((PASSED + $(sed -n 's/.*tests passed, 0 tests failed out of \([0-9]*\).*/\1/p' "$LOG")))
}

bash scripts/setup.sh --deps-only

echo "== Format check (clang-format, .clang-format)"
bash scripts/format.sh --check
PASSED=$((PASSED + 1))

# Hansu stands on its own: a clone into an empty folder, with nothing of this workplace beside
# it, builds and passes the default suite (it holds only committed files: commit first).
clone_suite() {
  echo "== A clone with nothing beside it: Release build and default tests"
  alone=$(mktemp -d)
  git clone -q "$PWD" "$alone/hansu"
  cmake -S "$alone/hansu" -B "$alone/hansu/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C "$alone/hansu/build" >/dev/null
  run_ctest --test-dir "$alone/hansu/build" -LE slow --output-on-failure -j "$JOBS"
  rm -rf "$alone"
}
# A working tree that is its commit (nothing uncommitted, no untracked file git does not ignore)
# builds and tests exactly as the clone does: the Release suite then runs once, in the clone, and
# here only the check that looks beside the checkout (oracle_sync). --quick stays in this tree.
same_as_clone=false
if [ "${1:-}" != "--quick" ] && git rev-parse --is-inside-work-tree >/dev/null 2>&1 &&
  [ -z "$(git status --porcelain)" ]; then
  same_as_clone=true
fi

if $same_as_clone; then
  clone_suite
  echo "== This checkout: the tests of what lies beside it (the tree is its commit, tested above)"
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  run_ctest --test-dir build -R '^oracle_sync$' --output-on-failure
else
  echo "== Release build and tests"
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C build
  run_ctest --test-dir build -LE slow --output-on-failure -j "$JOBS"
fi

if [ "${1:-}" = "--quick" ]; then
  echo "test.sh: $PASSED passed, 0 failed"
  exit 0
fi

# The MPI build (build-mpi/, made here when Open MPI is installed, as setup.sh installs it):
# mpirun -np 2 self-play, tuner and match against one process.
if command -v mpirun >/dev/null && command -v mpicc >/dev/null; then
  echo "== MPI build (build-mpi, -DHANSU_MPI=ON) and its tests (label mpi)"
  cmake -S . -B build-mpi -G Ninja -DCMAKE_BUILD_TYPE=Release -DHANSU_MPI=ON >/dev/null
  ninja -C build-mpi hansu-selfplay hansu-tune hansu-match hansu fake_engine test_cluster_wait
  run_ctest --test-dir build-mpi -L mpi --output-on-failure -j "$JOBS"
else
  echo "test.sh: no Open MPI (mpirun, mpicc): the MPI tests are skipped (scripts/setup.sh installs it)"
fi

# Both variants ship a net, so the default build never runs the paths of a variant without one
# (Use NNUE true with no net loaded, a new variant dropping the old one's net): a build with the
# nets left out runs the UCI and NNUE search tests, which assert those paths there.
echo "== A build without the compiled-in nets (build-nonet, -DHANSU_EMBED_NETS=OFF): UCI and NNUE search tests"
cmake -S . -B build-nonet -G Ninja -DCMAKE_BUILD_TYPE=Release -DHANSU_EMBED_NETS=OFF >/dev/null
ninja -C build-nonet test_uci test_uci_go test_nnue_search
run_ctest --test-dir build-nonet -R '^(test_uci|test_uci_go|test_nnue_search)$' --output-on-failure -j "$JOBS"

# A tree with changes of its own: its committed state is tested in a clone besides.
if $same_as_clone; then
  : # done first, above
elif git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "test.sh: note: uncommitted or untracked changes are not in the clone"
  clone_suite
else
  echo "test.sh: not a git checkout: the clone check is skipped"
fi

echo "== Sanitize build (ASan + UBSan) and tests"
cmake -S . -B build-san -G Ninja -DCMAKE_BUILD_TYPE=Sanitize >/dev/null
ninja -C build-san
# Left out here, run in the Release suite: the tests that run no C code of this build (pure
# Python or shell over the sources), which the sanitizers cannot check.
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  run_ctest --test-dir build-san -LE "slow|nosan" \
  -E '^(docs_self_contained|docs_figures|layers_check|layers_check_catches|oracle_sync|weights_headers_build|spsa_py)$' \
  --output-on-failure -j "$JOBS"

# Lazy SMP shares the TT, the stop flag and the node counts between threads: the TSan build runs
# its test (threads searching the bench positions of both variants, a stop, a node limit, a TT
# hammered by four threads) and a multi-threaded bench, and fails on any data race. The CECP
# front end's search thread shares the game and the output with the command loop: its pipe test
# runs on the TSan hansu too.
echo "== TSan build (build-tsan): Lazy SMP, CECP"
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=TSan >/dev/null
ninja -C build-tsan test_smp hansu
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
  run_ctest --test-dir build-tsan -R '^(test_smp|test_cecp_py)$' --output-on-failure
TSAN_OPTIONS="halt_on_error=1" build-tsan/engine/hansu bench --threads 4 4 >/dev/null
PASSED=$((PASSED + 1))

if [ -x scripts/fuzz.sh ] || [ -f scripts/fuzz.sh ]; then
  echo "== Fuzzers (bounded)"
  bash scripts/fuzz.sh "${FUZZ_SECONDS:-20}"
  PASSED=$((PASSED + 2))
fi
echo "== End-to-end smoke of the training loop (tiny numbers)"
smoke=$(mktemp -d)
scripts/train --run "$smoke/run" --set run.weights_dir="\"$smoke/weights\"" \
  --set selfplay.games=32 --set selfplay.nodes=150 --set tune.epochs=3 \
  --set 'tune.extra=["--valid", "0"]' \
  --set match.games=8 --set match.nodes=150 --set match.elo_games=0 > "$smoke/train.out" 2>&1 ||
  { cat "$smoke/train.out"; echo "test.sh: training loop smoke failed" >&2; exit 1; }
grep -q "iteration 1: candidate iter-001" "$smoke/train.out" && test -s "$smoke/run/report.md" &&
  test -s "$smoke/run/pairings.png" && grep -q '"group":"self-play"' "$smoke/run/report.html" ||
  { cat "$smoke/train.out"; echo "test.sh: training loop smoke incomplete" >&2; exit 1; }
rm -rf "$smoke"
PASSED=$((PASSED + 1))
echo "test.sh: $PASSED passed, 0 failed"
