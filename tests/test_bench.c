// SPDX-License-Identifier: MIT
// bench: the node count of the compiled-in positions at BENCH_DEPTH is the engine's
// signature; a change of search or evaluation changes it, and the commit says so.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "bench.h"
#include "engine.h"

// The signature of the current search and weights (state it in the commit: "Bench: N").
#define BENCH_SIGNATURE 1219682ull

static void test_bench_signature(void **state) {
    (void)state;
    BenchResult res;
    ErrorInfo err;
    assert_int_equal(bench_run(bench_default_text(), BENCH_DEPTH, BENCH_HASH_MB, NULL, &res, &err),
                     STATUS_OK);
    assert_true(res.positions >= 48);
    print_message("bench: %d positions, depth %d, %llu nodes\n", res.positions, BENCH_DEPTH,
                  (unsigned long long)res.nodes);
#ifndef HANSU_CUSTOM_WEIGHTS
    assert_int_equal(res.nodes, BENCH_SIGNATURE);
#endif
}

static void test_bench_bad_text(void **state) {
    (void)state;
    BenchResult res;
    ErrorInfo err;
    assert_int_equal(bench_run("# comment\n\nnot a fen\n", 2, 1, NULL, &res, &err), STATUS_SYNTAX);
    assert_non_null(strstr(err.msg, "line 3"));
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bench_bad_text),
        cmocka_unit_test(test_bench_signature),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
