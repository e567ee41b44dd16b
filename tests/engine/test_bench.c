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
#define BENCH_SIGNATURE 997828ull
// The classical evaluation's (the search with the weights header; `hansu bench --classical`):
// the engine of the Texel loop.
#define BENCH_SIGNATURE_CLASSICAL 1127286ull
// Xiangqi's (data/bench-xiangqi.fen) with its compiled-in net: `hansu bench --variant xiangqi`.
#define BENCH_SIGNATURE_XIANGQI_NET 595609ull
// Xiangqi's classical evaluation (its own weights): `hansu bench --variant xiangqi --classical`.
#define BENCH_SIGNATURE_XIANGQI 628800ull

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

// Every older net (data/nets: janggi r1-r4, xiangqi r1-r2, format version 1) loads into this
// binary by file and benches as the current search makes it (docs/nnue.md's "Version 1" gives
// the counts under the search each was shipped with; a commit that changes the search's defaults
// updates these with the signatures), which new architectures (palace buckets, L1, output
// buckets) must not change.
static void test_bench_older_nets(void **state) {
    (void)state;
    static const struct {
        const char *net;
        unsigned long long nodes;
    } OLD[] = {{"janggi-r1", 1375676ull}, {"janggi-r2", 1275484ull}, {"janggi-r3", 1410925ull},
               {"janggi-r4", 997828ull},  {"xiangqi-r1", 698659ull}, {"xiangqi-r2", 595609ull}};
    for (size_t i = 0; i < sizeof OLD / sizeof OLD[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/data/nets/%s.nnue", HANSU_SOURCE_DIR, OLD[i].net);
        const Variant *v = OLD[i].net[0] == 'j' ? &VARIANT_JANGGI : &VARIANT_XIANGQI;
        NnueNet *net;
        BenchResult res;
        ErrorInfo err;
        if (nnue_load_selected(v, path, false, &net, &err) != STATUS_OK)
            fail_msg("%s", err.msg);
        assert_int_equal(net->out_buckets, 1);
        assert_int_equal(bench_run_net(v, bench_text(v), TEST_DEPTH, BENCH_HASH_MB, net,
                                       nnue_path_best(), NULL, &res, &err),
                         STATUS_OK);
        print_message("%s: %llu nodes at depth %d\n", OLD[i].net, (unsigned long long)res.nodes,
                      TEST_DEPTH);
#if CHECK_SIGNATURES
        assert_int_equal(res.nodes, OLD[i].nodes);
#endif
        free(net);
    }
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
        cmocka_unit_test(test_bench_older_nets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
