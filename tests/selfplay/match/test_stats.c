// SPDX-License-Identifier: MIT
// The match statistics against known values: fastchess's published pentanomial case, zero-draw
// (janggi) WDL and pentanomial cases worked by hand, LLRs for wide bounds against a brute-force
// maximum, and a seeded simulation of SPRT's error rates.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "stats.h"

#define assert_near(x, want, tol) assert_true(fabs((x) - (want)) <= (tol))

// fastchess's README case: Ptnml(0-2) 379/10170/21828/10640/343, SPRT [0, 2] normalised Elo:
// "nElo: 3.05 +/- 2.31", "LLR: 2.95". ± is the half-width of the 95% interval (1.96 standard
// errors) on the normalised scale; the LLR is 2.946 (2.9455 by the exact MLE, 2.9462 by the
// older closed-form approximation).
static void test_fastchess_case(void **state) {
    (void)state;
    const long penta[PENTA_NB] = {379, 10170, 21828, 10640, 343};
    EloEstimate e = stats_elo_penta(penta);
    assert_near(e.nelo, 3.0505, 0.001);
    assert_near(e.nelo_error, 2.3124, 0.001);
    assert_near(e.elo, 1.5946, 0.001);
    assert_true(e.los > 0.99 && e.los < 1.0);
    Sprt s;
    assert_true(stats_sprt_init(&s, 0.0, 2.0, 0.05, 0.05));
    assert_near(s.upper, 2.944, 0.001);
    assert_near(s.lower, -2.944, 0.001);
    double llr = stats_sprt_llr_penta(&s, penta);
    assert_near(llr, 2.946, 0.002);
    assert_int_equal(stats_sprt_decide(&s, llr), SPRT_H1);
}

// 60 wins, 40 losses, no draws: score 0.6, variance 0.24 per game.
static void test_zero_draw_wdl(void **state) {
    (void)state;
    EloEstimate e = stats_elo_wdl(60, 0, 40);
    assert_near(e.score, 0.6, 1e-12);
    assert_near(e.elo, 70.4365, 0.001);
    assert_near(e.elo_error, 70.5712, 0.001);
    assert_near(e.elo_upper - e.elo_lower, 2 * 70.5712, 0.002);
    assert_true(e.elo_lower < e.elo && e.elo < e.elo_upper);
    assert_near(e.nelo, 70.9200, 0.001);
    assert_near(e.nelo_error, 68.0961, 0.001);
    assert_near(e.los, 0.979387, 1e-5);
    Sprt s;
    assert_true(stats_sprt_init(&s, 0.0, 20.0, 0.05, 0.05));
    // The maximum-likelihood LLR is 0.98525 (the same with or without the empty draw class);
    // the older closed-form approximation (s1 - s0)(2s - s0 - s1) / (2 var / N) gives 1.0093.
    double llr = stats_sprt_llr_wdl(&s, 60, 0, 40);
    assert_true(isfinite(llr));
    assert_near(llr, 0.98525, 0.001);
}

// Zero-draw pairs: 10 lost both, 20 split, 20 won both (no LD/WD class at all).
static void test_zero_draw_penta(void **state) {
    (void)state;
    const long penta[PENTA_NB] = {10, 0, 20, 0, 20};
    EloEstimate e = stats_elo_penta(penta);
    assert_near(e.score, 0.6, 1e-12);
    assert_near(e.elo_error, 76.4255, 0.001);
    assert_near(e.nelo, 65.6592, 0.001);
    assert_near(e.nelo_error, 68.0961, 0.001);
    assert_near(e.los, 0.970609, 1e-5);
    Sprt s;
    assert_true(stats_sprt_init(&s, 0.0, 5.0, 0.05, 0.05));
    double llr = stats_sprt_llr_penta(&s, penta);
    assert_true(isfinite(llr) && llr > 0.0);
    const long none[PENTA_NB] = {0};
    assert_true(stats_sprt_llr_penta(&s, none) == 0.0);
    EloEstimate z = stats_elo_penta(none);
    assert_true(z.elo == 0.0 && z.nelo == 0.0);
    const long even[PENTA_NB] = {0, 0, 4, 0, 0}; // no spread: no error, not NaN
    z = stats_elo_penta(even);
    assert_true(z.nelo == 0.0 && z.nelo_error == 0.0 && z.los == 0.5);
}

static void test_sprt_bounds_checked(void **state) {
    (void)state;
    Sprt s;
    assert_false(stats_sprt_init(&s, 2.0, 0.0, 0.05, 0.05));
    assert_false(stats_sprt_init(&s, 0.0, 2.0, 0.0, 0.05));
    assert_false(stats_sprt_init(&s, 0.0, 2.0, 0.6, 0.5));
}

// One LLR worked independently: bounds, counts from the lowest score (LL..WW pairs, or losses,
// draws, wins) and the LLR.
typedef struct LlrCase {
    double elo0, elo1;
    int n; // 5: pentanomial, 3: W/D/L
    long count[PENTA_NB];
    double llr;
} LlrCase;

// Values of tests/selfplay/match/sprt_reference.py, which maximises the likelihood by brute force
// (a grid, every root of the constraint, SLSQP), not by the Lagrange multipliers of stats.c.
// clang-format off
static const LlrCase WIDE_BOUNDS[] = {
    {0, 40, 5, {10, 0, 20, 0, 20}, 1.44639693},
    {0, 40, 5, {3, 12, 30, 15, 6}, 0.635966461},
    {0, 40, 5, {0, 0, 0, 0, 25}, 3.72564969},
    {0, 40, 5, {0, 0, 16, 0, 0}, -0.41249644},
    {0, 40, 5, {25, 0, 0, 0, 0}, -4.37983671},
    {0, 40, 3, {40, 0, 60}, 1.63914999},
    {0, 40, 3, {12, 30, 18}, 0.581502408},
    {0, 40, 3, {0, 0, 25}, 2.70724597},
    {0, 40, 3, {0, 20, 0}, -0.25818209},
    {0, 40, 3, {60, 0, 40}, -2.95593004},
    {0, 250, 5, {10, 0, 20, 0, 20}, -7.82453012},
    {0, 250, 5, {3, 12, 30, 15, 6}, -22.2227991},
    {0, 250, 5, {0, 0, 0, 0, 25}, 13.4592838},
    {0, 250, 5, {0, 0, 16, 0, 0}, -11.3650144},
    {0, 250, 5, {25, 0, 0, 0, 0}, -31.2304901},
    {0, 250, 3, {40, 0, 60}, -7.48974303},
    {0, 250, 3, {12, 30, 18}, -7.93991819},
    {0, 250, 3, {0, 0, 25}, 11.4992373},
    {0, 250, 3, {0, 20, 0}, -8.33673258},
    {0, 250, 3, {60, 0, 40}, -34.2344986},
    {-500, 500, 5, {10, 0, 20, 0, 20}, 36.6776062},
    {-500, 500, 5, {3, 12, 30, 15, 6}, 19.6381252},
    {-500, 500, 5, {0, 0, 0, 0, 25}, 72.9665267},
    {-500, 500, 5, {0, 0, 16, 0, 0}, 0},
    {-500, 500, 5, {25, 0, 0, 0, 0}, -72.9665267},
    {-500, 500, 3, {40, 0, 60}, 46.4206166},
    {-500, 500, 3, {12, 30, 18}, 19.2572523},
    {-500, 500, 3, {0, 0, 25}, 58.0245866},
    {-500, 500, 3, {0, 20, 0}, 0},
    {-500, 500, 3, {60, 0, 40}, -46.4206166},
    {0, 1000, 5, {10, 0, 20, 0, 20}, -65.3201455},
    {0, 1000, 5, {3, 12, 30, 15, 6}, -133.570321},
    {0, 1000, 5, {0, 0, 0, 0, 25}, 16.9624109},
    {0, 1000, 5, {0, 0, 16, 0, 0}, -45.8564454},
    {0, 1000, 5, {25, 0, 0, 0, 0}, -88.6253849},
    {0, 1000, 3, {40, 0, 60}, -75.8328386},
    {0, 1000, 3, {12, 30, 18}, -74.4513982},
    {0, 1000, 3, {0, 0, 25}, 16.6239358},
    {0, 1000, 3, {0, 20, 0}, -44.5591396},
    {0, 1000, 3, {60, 0, 40}, -147.00198},
};
// clang-format on

// Bounds far from 0 and degenerate counts (all won, all drawn or split, all lost): the LLR is
// finite and the constrained maximum's. From |nElo| about 232 (pentanomial) or 347 (W/D/L) the
// fixed-point MLE left the probabilities and every LLR was NaN, reported as "continue".
static void test_sprt_wide_bounds(void **state) {
    (void)state;
    for (size_t k = 0; k < sizeof WIDE_BOUNDS / sizeof WIDE_BOUNDS[0]; k++) {
        const LlrCase *c = &WIDE_BOUNDS[k];
        Sprt s;
        assert_true(stats_sprt_init(&s, c->elo0, c->elo1, 0.05, 0.05));
        double llr = c->n == PENTA_NB
                         ? stats_sprt_llr_penta(&s, c->count)
                         : stats_sprt_llr_wdl(&s, c->count[2], c->count[1], c->count[0]);
        if (!(fabs(llr - c->llr) <= 1e-6 * (1.0 + fabs(c->llr))))
            fail_msg("case %zu: [%g, %g] LLR %.10g, want %.10g", k, c->elo0, c->elo1, llr, c->llr);
    }
    // Every bound hansu-match and scripts/train accept, on counts of each kind: finite, and 0
    // with no games.
    const long penta[][PENTA_NB] = {
        {10, 0, 20, 0, 20}, {0, 0, 0, 0, 7}, {0, 0, 9, 0, 0}, {379, 10170, 21828, 10640, 343}, {0}};
    for (int e0 = -1000; e0 < 1000; e0 += 125)
        for (int e1 = e0 + 5; e1 <= 1000; e1 += 165) {
            Sprt s;
            assert_true(stats_sprt_init(&s, e0, e1, 0.05, 0.05));
            for (size_t i = 0; i < sizeof penta / sizeof penta[0]; i++) {
                double lp = stats_sprt_llr_penta(&s, penta[i]);
                double lw = stats_sprt_llr_wdl(&s, penta[i][4], penta[i][2], penta[i][0]);
                if (!isfinite(lp) || !isfinite(lw))
                    fail_msg("[%d, %d] counts %zu: LLR %g, %g", e0, e1, i, lp, lw);
            }
            const long none[PENTA_NB] = {0};
            assert_true(stats_sprt_llr_penta(&s, none) == 0.0);
            assert_true(stats_sprt_llr_wdl(&s, 0, 0, 0) == 0.0);
        }
}

static uint64_t rng_next(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// Runs SPRTs on zero-draw game pairs, each game won with probability p. Returns how many of
// `runs` accepted H1.
static int simulate(const Sprt *s, double p, int runs, uint64_t seed) {
    int h1 = 0;
    for (int r = 0; r < runs; r++) {
        long penta[PENTA_NB] = {0};
        for (int pair = 0; pair < 20000; pair++) {
            int wins = 0;
            for (int g = 0; g < 2; g++)
                wins += (double)(rng_next(&seed) >> 11) * 0x1.0p-53 < p;
            penta[2 * wins]++;
            SprtResult res = stats_sprt_decide(s, stats_sprt_llr_penta(s, penta));
            if (res != SPRT_CONTINUE) {
                h1 += res == SPRT_H1;
                break;
            }
        }
    }
    return h1;
}

// With no draws a game pair scores 0, 1/2 or 1 and nElo = (p - 1/2) / sqrt(p (1 - p)) * 800/ln 10.
// At elo0 the rate of accepting H1 should be near alpha; at elo1 accepting H0 near beta.
static void test_sprt_error_rates(void **state) {
    (void)state;
    const double nelo1 = 40.0, t = nelo1 / (800.0 / M_LN10);
    Sprt s;
    assert_true(stats_sprt_init(&s, 0.0, nelo1, 0.05, 0.05));
    const int runs = 300;
    double p1 = 0.5 + t * sqrt(0.25 / (1.0 + t * t));
    double false_pos = simulate(&s, 0.5, runs, 12345) / (double)runs;
    double false_neg = 1.0 - simulate(&s, p1, runs, 67890) / (double)runs;
    print_message("SPRT simulation: false positives %.3f, false negatives %.3f\n", false_pos,
                  false_neg);
    // Wald's bounds keep each rate near or below its target; 300 runs give a standard error
    // of about 0.013.
    assert_true(false_pos <= 0.09 && false_pos >= 0.01);
    assert_true(false_neg <= 0.09 && false_neg >= 0.01);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fastchess_case),   cmocka_unit_test(test_zero_draw_wdl),
        cmocka_unit_test(test_zero_draw_penta),  cmocka_unit_test(test_sprt_bounds_checked),
        cmocka_unit_test(test_sprt_wide_bounds), cmocka_unit_test(test_sprt_error_rates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
