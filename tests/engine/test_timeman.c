// SPDX-License-Identifier: MIT
// engine/timeman.c: the soft and hard budgets of one move from the UCI clock fields, as
// timeman.h states them (sudden death, increments, movestogo, the caps, Move Overhead, the side
// to move's own clock, the tunable tm_* constants), and the monotonic clock.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "search.h"
#include "search_params.h"
#include "timeman.h"

static void expect_budget(SearchLimits lim, Side us, const SearchParams *p, int64_t soft,
                          int64_t hard) {
    TimeBudget tb = timeman_budget(&lim, us, p ? p : &SEARCH_PARAMS_DEFAULT);
    if (tb.soft != soft || tb.hard != hard)
        fail_msg("soft %lld hard %lld, expected %lld %lld", (long long)tb.soft, (long long)tb.hard,
                 (long long)soft, (long long)hard);
}

static void test_no_limit(void **state) {
    (void)state;
    expect_budget((SearchLimits){.depth = 5}, CHO, NULL, 0, 0);
    expect_budget((SearchLimits){.nodes = 1000}, CHO, NULL, 0, 0);
    expect_budget((SearchLimits){.infinite = true, .time = {60000, 60000}}, CHO, NULL, 0, 0);
    expect_budget((SearchLimits){.time = {0, 60000}}, CHO, NULL, 0, 0); // Cho has no clock
    expect_budget((SearchLimits){.time = {-100, 5000}}, CHO, NULL, 0, 0);
}

static void test_movetime(void **state) {
    (void)state;
    expect_budget((SearchLimits){.movetime = 500}, CHO, NULL, 0, 500);
    expect_budget((SearchLimits){.movetime = 500, .move_overhead = 30}, HAN, NULL, 0, 470);
    expect_budget((SearchLimits){.movetime = 10, .move_overhead = 30}, CHO, NULL, 0, 1);
}

// Sudden death: a 30th of the clock plus 3/4 of the increment, hard 4 times that, both at most a
// third of the clock; the side to move's clock and increment only.
static void test_clock(void **state) {
    (void)state;
    expect_budget((SearchLimits){.time = {60000, 1000}}, CHO, NULL, 2000, 8000);
    expect_budget((SearchLimits){.time = {60000, 30000}}, HAN, NULL, 1000, 4000);
    expect_budget((SearchLimits){.time = {60000, 60000}, .inc = {1000, 0}}, CHO, NULL, 2750, 11000);
    expect_budget((SearchLimits){.time = {60000, 60000}, .inc = {1000, 0}}, HAN, NULL, 2000, 8000);
    // The cap: 100 + 1500 over a third of 3000.
    expect_budget((SearchLimits){.time = {3000, 3000}, .inc = {2000, 2000}}, CHO, NULL, 1000, 1000);
    // Move Overhead comes off the clock first; a clock below it leaves 1 ms.
    expect_budget((SearchLimits){.time = {60030, 0}, .move_overhead = 30}, CHO, NULL, 2000, 8000);
    expect_budget((SearchLimits){.time = {50, 0}, .move_overhead = 100}, CHO, NULL, 1, 1);
}

// movestogo divides the clock instead of 30 (at most 40); the last move before the control
// may use 9/10 of the clock.
static void test_movestogo(void **state) {
    (void)state;
    expect_budget((SearchLimits){.time = {40000, 0}, .movestogo = 10}, CHO, NULL, 4000, 13333);
    expect_budget((SearchLimits){.time = {40000, 0}, .movestogo = 100}, CHO, NULL, 1000, 4000);
    expect_budget((SearchLimits){.time = {10000, 0}, .movestogo = 1}, CHO, NULL, 9000, 9000);
}

// Byo-yomi: with the clock spent the period is the move's whole time (less the overhead, no
// soft budget); while the clock runs the period counts as an increment and the hard cap gets the
// whole period on top; the other side's clock plays no part.
static void test_byoyomi(void **state) {
    (void)state;
    expect_budget((SearchLimits){.byoyomi = 30000}, CHO, NULL, 0, 30000);
    expect_budget((SearchLimits){.time = {0, 60000}, .byoyomi = 30000, .move_overhead = 50}, CHO,
                  NULL, 0, 29950);
    // 40 ms of clock under an overhead of 50: in byo-yomi, the 40 ms on top of the period.
    expect_budget((SearchLimits){.time = {40, 0}, .byoyomi = 1000, .move_overhead = 50}, CHO, NULL,
                  0, 990);
    expect_budget((SearchLimits){.byoyomi = 20, .move_overhead = 50}, HAN, NULL, 0, 1);
    // 5 min + 30 s: soft 300000 / 30 + 3/4 of 30000 = 32500, hard 4 x soft capped at a third
    // of the clock plus the period, 130000.
    expect_budget((SearchLimits){.time = {300000, 300000}, .byoyomi = 30000}, HAN, NULL, 32500,
                  130000);
    // 3 s left with 10 s periods: soft 100 + 7500 over the cap of 1000 + 10000.
    expect_budget((SearchLimits){.time = {3000, 0}, .byoyomi = 10000}, CHO, NULL, 7600, 11000);
    // No byo-yomi: unchanged (and a spent clock still has no budget here: the UCI front end
    // makes it a move-now search).
    expect_budget((SearchLimits){.time = {300000, 0}}, CHO, NULL, 10000, 40000);
    expect_budget((SearchLimits){.time = {0, 300000}}, CHO, NULL, 0, 0);
}

// The tunable constants replace the defaults.
static void test_params(void **state) {
    (void)state;
    SearchParams p = SEARCH_PARAMS_DEFAULT;
    p.tm_moves = 20;
    p.tm_inc_pct = 50;
    p.tm_hard_mult = 2;
    p.tm_cap_div = 5;
    expect_budget((SearchLimits){.time = {60000, 0}, .inc = {1000, 0}}, CHO, &p, 3500, 7000);
    expect_budget((SearchLimits){.time = {60000, 0}, .inc = {1000, 0}}, CHO, NULL, 2750, 11000);
}

static void test_clock_monotonic(void **state) {
    (void)state;
    int64_t last = timeman_now_ms();
    assert_true(last >= 0);
    for (int i = 0; i < 100000; i++) {
        int64_t now = timeman_now_ms();
        assert_true(now >= last);
        last = now;
    }
}

// The soft budget's scale: 100 while tm_adapt is off (on by default since its SPRT), early, or for
// a decided score; with it on, a best move that just changed, a falling score and a small share of
// the nodes on the best move each take more time, a stable best move, a rising score and a large
// share less; the product stays within 40..250 %.
static void test_scale(void **state) {
    (void)state;
    SearchParams p = SEARCH_PARAMS_DEFAULT;
    TimeSignals base = {
        .depth = 10, .stable = 3, .score = 50, .prev = 50, .best_nodes = 500, .nodes = 1000};
    assert_int_equal(p.tm_adapt, 1); // on by default (docs/strength-log.md)
    p.tm_adapt = 0;
    assert_int_equal(timeman_scale(&base, &p), 100); // off: the plain budget
    p.tm_adapt = 1;
    int mid = timeman_scale(&base, &p);
    // stab 140 - 65 * 3 / 6 = 108, drop 100, node 160 - 80 * 50 / 100 = 120: 129 %.
    assert_int_equal(mid, 108 * 100 / 100 * 120 / 100);
    TimeSignals t = base;
    t.stable = 0;
    assert_true(timeman_scale(&t, &p) > mid);
    t.stable = 20;
    assert_true(timeman_scale(&t, &p) < mid);
    t = base;
    t.score = 20; // fell by 30 cp: +30 %
    assert_int_equal(timeman_scale(&t, &p), 108 * 130 / 100 * 120 / 100);
    t.score = -500; // a fall past the cap: + tm_drop_max
    assert_int_equal(timeman_scale(&t, &p), 108 * 150 / 100 * 120 / 100);
    t.score = 400; // a rise: at most 15 % off
    assert_int_equal(timeman_scale(&t, &p), 108 * 85 / 100 * 120 / 100);
    t = base;
    t.best_nodes = 950;
    assert_true(timeman_scale(&t, &p) < mid);
    t.best_nodes = 50;
    assert_true(timeman_scale(&t, &p) > mid);
    t = base;
    t.depth = 4;
    assert_int_equal(timeman_scale(&t, &p), 100);
    t = base;
    t.decided = true;
    assert_int_equal(timeman_scale(&t, &p), 100);
    // The clamp: everything pointing one way.
    t = (TimeSignals){
        .depth = 10, .stable = 0, .score = -900, .prev = 0, .best_nodes = 0, .nodes = 1000};
    p.tm_stab_max = 250, p.tm_drop_max = 150, p.tm_node_base = 250;
    assert_int_equal(timeman_scale(&t, &p), 250);
    t = (TimeSignals){
        .depth = 10, .stable = 9, .score = 900, .prev = 0, .best_nodes = 1000, .nodes = 1000};
    p.tm_stab_min = 30, p.tm_node_base = 100, p.tm_node_mult = 200;
    assert_int_equal(timeman_scale(&t, &p), 40);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_limit), cmocka_unit_test(test_movetime),
        cmocka_unit_test(test_clock),    cmocka_unit_test(test_movestogo),
        cmocka_unit_test(test_params),   cmocka_unit_test(test_clock_monotonic),
        cmocka_unit_test(test_scale),    cmocka_unit_test(test_byoyomi),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
