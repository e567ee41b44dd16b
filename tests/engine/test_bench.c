// SPDX-License-Identifier: MIT
// bench: the node count of the compiled-in positions at BENCH_DEPTH is the engine's
// signature; a change of search or evaluation changes it, and the commit says so.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bench.h"
#include "engine.h"
#include "nnue.h"
#include "variant.h"

// The signature of the current search and compiled-in janggi net: `hansu bench` (state it in
// the commit: "Bench: N").
#define BENCH_SIGNATURE 983597ull
// The classical evaluation's (the search with the weights header; `hansu bench --classical`):
// the engine of the Texel loop.
#define BENCH_SIGNATURE_CLASSICAL 1253081ull
// Xiangqi's (data/bench-xiangqi.fen) with its compiled-in net: `hansu bench --variant xiangqi`.
#define BENCH_SIGNATURE_XIANGQI_NET 562945ull
// Xiangqi's classical evaluation (its own weights): `hansu bench --variant xiangqi --classical`.
#define BENCH_SIGNATURE_XIANGQI 761170ull

// The Sanitize build (HANSU_BENCH_SHORT, tests/engine/CMakeLists.txt) checks memory, not the
// signatures, which the Release build checks: it runs the same bench paths at a smaller depth,
// each twice for the same node count.
#ifdef HANSU_BENCH_SHORT
#define TEST_DEPTH 5
#else
#define TEST_DEPTH BENCH_DEPTH
#endif
#if defined(HANSU_BENCH_SHORT) || defined(HANSU_CUSTOM_WEIGHTS)
#define CHECK_SIGNATURES 0
#else
#define CHECK_SIGNATURES 1
#endif

static void test_bench_signature(void **state) {
    (void)state;
    BenchResult res;
    ErrorInfo err;
    assert_int_equal(bench_run(variant_default(), bench_default_text(), TEST_DEPTH, BENCH_HASH_MB,
                               NULL, &res, &err),
                     STATUS_OK);
    assert_true(res.positions >= 48);
    print_message("bench --classical: %d positions, depth %d, %llu nodes\n", res.positions,
                  TEST_DEPTH, (unsigned long long)res.nodes);
#if CHECK_SIGNATURES
    assert_int_equal(res.nodes, BENCH_SIGNATURE_CLASSICAL);
#else
    BenchResult again;
    assert_int_equal(bench_run(variant_default(), bench_default_text(), TEST_DEPTH, BENCH_HASH_MB,
                               NULL, &again, &err),
                     STATUS_OK);
    assert_int_equal(res.nodes, again.nodes);
#endif
}

// `hansu bench`: the compiled-in janggi net (nnue_load_selected, as the front ends choose it);
// every kernel gives the same count (test_nnue_search).
static void test_bench_signature_net(void **state) {
    (void)state;
    BenchResult res;
    ErrorInfo err;
    NnueNet *net;
    assert_int_equal(nnue_load_selected(variant_default(), NULL, false, &net, &err), STATUS_OK);
    assert_non_null(net); // janggi ships a net (engine/janggi/net.nnue)
    assert_int_equal(bench_run_net(variant_default(), bench_default_text(), TEST_DEPTH,
                                   BENCH_HASH_MB, net, nnue_path_best(), NULL, &res, &err),
                     STATUS_OK);
    print_message("bench: %d positions, depth %d, %llu nodes\n", res.positions, TEST_DEPTH,
                  (unsigned long long)res.nodes);
#if CHECK_SIGNATURES
    assert_int_equal(res.nodes, BENCH_SIGNATURE);
#else
    BenchResult again;
    assert_int_equal(bench_run_net(variant_default(), bench_default_text(), TEST_DEPTH,
                                   BENCH_HASH_MB, net, nnue_path_best(), NULL, &again, &err),
                     STATUS_OK);
    assert_int_equal(res.nodes, again.nodes);
#endif
    free(net);
}

// `hansu bench --variant xiangqi`: the compiled-in xiangqi net (engine/xiangqi/net.nnue).
static void test_bench_signature_xiangqi_net(void **state) {
    (void)state;
    BenchResult res, again;
    ErrorInfo err;
    NnueNet *net;
    const char *text = bench_text(&VARIANT_XIANGQI);
    assert_int_equal(nnue_load_selected(&VARIANT_XIANGQI, NULL, false, &net, &err), STATUS_OK);
    assert_non_null(net); // xiangqi ships a net (engine/xiangqi/net.nnue)
    assert_int_equal(bench_run_net(&VARIANT_XIANGQI, text, TEST_DEPTH, BENCH_HASH_MB, net,
                                   nnue_path_best(), NULL, &res, &err),
                     STATUS_OK);
    assert_int_equal(bench_run_net(&VARIANT_XIANGQI, text, TEST_DEPTH, BENCH_HASH_MB, net,
                                   nnue_path_best(), NULL, &again, &err),
                     STATUS_OK);
    assert_int_equal(res.nodes, again.nodes);
    print_message("bench --variant xiangqi: %d positions, depth %d, %llu nodes\n", res.positions,
                  TEST_DEPTH, (unsigned long long)res.nodes);
#if CHECK_SIGNATURES
    assert_int_equal(res.nodes, BENCH_SIGNATURE_XIANGQI_NET);
#endif
    free(net);
}

// Xiangqi's classical bench: its own positions, the same count on every run (a cleared searcher
// each).
static void test_bench_xiangqi(void **state) {
    (void)state;
    BenchResult res, again;
    ErrorInfo err;
    const char *text = bench_text(&VARIANT_XIANGQI);
    assert_ptr_not_equal(text, bench_default_text());
    assert_ptr_equal(bench_text(&VARIANT_JANGGI), bench_default_text());
    assert_int_equal(bench_run(&VARIANT_XIANGQI, text, TEST_DEPTH, BENCH_HASH_MB, NULL, &res, &err),
                     STATUS_OK);
    assert_int_equal(
        bench_run(&VARIANT_XIANGQI, text, TEST_DEPTH, BENCH_HASH_MB, NULL, &again, &err),
        STATUS_OK);
    assert_true(res.positions >= 40);
    assert_int_equal(res.nodes, again.nodes);
    print_message("xiangqi bench: %d positions, depth %d, %llu nodes\n", res.positions, TEST_DEPTH,
                  (unsigned long long)res.nodes);
#if CHECK_SIGNATURES
    assert_int_equal(res.nodes, BENCH_SIGNATURE_XIANGQI);
#endif
    // The positions are read as xiangqi: an elephant across the river is refused.
    assert_int_equal(bench_run(&VARIANT_XIANGQI, "4k4/9/9/9/2B6/9/9/9/9/4K4 w - - 0 1\n", 2, 1,
                               NULL, &res, &err),
                     STATUS_SYNTAX);
    assert_non_null(strstr(err.msg, "line 1"));
}

static void test_bench_bad_text(void **state) {
    (void)state;
    BenchResult res;
    ErrorInfo err;
    assert_int_equal(
        bench_run(variant_default(), "# comment\n\nnot a fen\n", 2, 1, NULL, &res, &err),
        STATUS_SYNTAX);
    assert_non_null(strstr(err.msg, "line 3"));
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bench_bad_text),
        cmocka_unit_test(test_bench_signature),
        cmocka_unit_test(test_bench_signature_net),
        cmocka_unit_test(test_bench_xiangqi),
        cmocka_unit_test(test_bench_signature_xiangqi_net),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
