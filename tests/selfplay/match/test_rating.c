// SPDX-License-Identifier: MIT
// The tournament's rating list (rating.h, issue 43) against cases worked by hand and against
// simulated tournaments of players with known Elo: the fit finds them, its 95% errors hold the
// truth about 95% of the time, and the errors come from the game pairs (pentanomial).
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "rating.h"

#define assert_near(x, want, tol) assert_true(fabs((x) - (want)) <= (tol))

// 400 log10(3): the Elo difference of a 75 % score.
static const double ELO_75 = 190.848501887865;

// A pairing of a and b: pairs pairs WW and as many WL+DD from a's side: a scores 75 %.
static RatingPairing three_quarters(int a, int b, long pairs) {
    return (RatingPairing){.a = a, .b = b, .penta = {0, 0, pairs, 0, pairs}};
}

static RatingPairing even(int a, int b, long pairs) {
    return (RatingPairing){.a = a, .b = b, .penta = {0, 0, pairs, 0, 0}};
}

// Two players, 75 %: the difference is 400 log10(0.75 / 0.25), split about a mean of 0.
static void test_two_players(void **state) {
    (void)state;
    RatingPairing g[] = {three_quarters(0, 1, 10)};
    double elo[2];
    rating_fit(2, g, 1, elo);
    assert_near(elo[0], ELO_75 / 2, 1e-6);
    assert_near(elo[1], -ELO_75 / 2, 1e-6);
}

// A chain A-B, B-C at 75 % each and no A-C games: A - C = 2 x 190.85; with C anchored at 100.
static void test_chain_anchored(void **state) {
    (void)state;
    RatingPairing g[] = {three_quarters(0, 1, 8), three_quarters(1, 2, 20)};
    RatingList r;
    rating_list(3, g, 2, 2, 100.0, 0, 1, &r);
    assert_near(r.elo[2], 100.0, 0.0);
    assert_near(r.elo[1], 100.0 + ELO_75, 1e-6);
    assert_near(r.elo[0], 100.0 + 2 * ELO_75, 1e-6);
    assert_int_equal(r.order[0], 0);
    assert_int_equal(r.order[2], 2);
    assert_near(r.points[1], 8 + 60, 1e-9); // 25 % of 32 games, 75 % of 80
    assert_int_equal(r.games[1], 32 + 80);
    assert_false(r.prior[0]);
}

// A beats B and C by 75 %, B and C break even: the likelihood's gradient is zero at
// A - B = A - C = 190.85, B = C (each player's expected score equals its score).
static void test_star(void **state) {
    (void)state;
    RatingPairing g[] = {three_quarters(0, 1, 6), three_quarters(0, 2, 6), even(1, 2, 9)};
    double elo[3];
    rating_fit(3, g, 3, elo);
    assert_near(elo[0] - elo[1], ELO_75, 1e-6);
    assert_near(elo[0] - elo[2], ELO_75, 1e-6);
    assert_near(elo[0] + elo[1] + elo[2], 0.0, 1e-6);
}

// A pairing won whole counts one drawn game more: 8 wins of 8 fit as 8.5 of 9.
static void test_whole_pairing(void **state) {
    (void)state;
    RatingPairing g[] = {{.a = 0, .b = 1, .penta = {0, 0, 0, 0, 4}}};
    RatingList r;
    rating_list(2, g, 1, 1, 0.0, 200, 1, &r);
    assert_near(r.elo[0], 400 * log10(8.5 / 0.5), 1e-6);
    assert_true(r.prior[0] && r.prior[1]);
    assert_true(r.error[0] > 0); // its simulations still differ
    assert_near(r.error[1], 0.0, 0.0);
}

// The errors come from the pairs: the same 50 % score is surer when every pair splits (WL)
// than when pairs are won or lost whole (WW / LL), which a count of games cannot tell apart.
static void test_errors_from_pairs(void **state) {
    (void)state;
    RatingPairing split[] = {even(0, 1, 100)};
    RatingPairing whole[] = {{.a = 0, .b = 1, .penta = {45, 0, 10, 0, 45}}};
    RatingList a, b;
    rating_list(2, split, 1, 1, 0.0, 500, 7, &a);
    rating_list(2, whole, 1, 1, 0.0, 500, 7, &b);
    assert_near(a.elo[0], 0.0, 1e-9);
    assert_near(b.elo[0], 0.0, 1e-9);
    assert_true(a.error[0] < 1e-9);
    assert_true(b.error[0] > 50);
}

// SplitMix64 for the simulated games.
static double uniform(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (double)((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
}

// One game of a against b (true Elo difference d): 2 a win, 1 a draw (20 % of the games where
// the expected score allows), 0 a loss, in half points.
static int game(double d, uint64_t *rng) {
    double e = 1.0 / (1.0 + pow(10.0, -d / 400.0));
    double draw = 0.2, win = e - draw / 2, u = uniform(rng);
    return u < win ? 2 : u < win + draw ? 1 : 0;
}

static const double TRUTH[] = {0.0, 60.0, 150.0, -100.0};
enum { PLAYERS = 4 };

// A round robin of the TRUTH players, pairs pairs a pairing, into g; returns the pairings.
static int simulate(long pairs, uint64_t *rng, RatingPairing *g) {
    int n = 0;
    for (int a = 0; a < PLAYERS; a++)
        for (int b = a + 1; b < PLAYERS; b++) {
            g[n] = (RatingPairing){.a = a, .b = b};
            for (long i = 0; i < pairs; i++) {
                int h = game(TRUTH[a] - TRUTH[b], rng) + game(TRUTH[a] - TRUTH[b], rng);
                g[n].penta[h]++; // the pair's half points 0..4: its class
            }
            n++;
        }
    return n;
}

// A large simulated round robin: the fit, anchored on player 0, lies near the truth, and the
// order and LOS are right where the truth is far apart.
static void test_simulated_fit(void **state) {
    (void)state;
    uint64_t rng = 43;
    RatingPairing g[6];
    int ng = simulate(2000, &rng, g);
    RatingList r;
    rating_list(PLAYERS, g, ng, 0, 0.0, 300, 5, &r);
    for (int i = 1; i < PLAYERS; i++) {
        assert_true(r.error[i] > 3 && r.error[i] < 30);
        assert_true(fabs(r.elo[i] - TRUTH[i]) < 1.5 * r.error[i]);
    }
    int want[] = {2, 1, 0, 3};
    for (int k = 0; k < PLAYERS; k++)
        assert_int_equal(r.order[k], want[k]);
    assert_true(r.los_next[0] > 0.999 && r.los_next[2] > 0.999);
}

// Over many small simulated round robins the 95 % error bars hold the truth about 95 % of the
// time (each player against the anchor, player 0).
static void test_simulated_coverage(void **state) {
    (void)state;
    uint64_t rng = 4343;
    int inside = 0, total = 0;
    for (int t = 0; t < 150; t++) {
        RatingPairing g[6];
        int ng = simulate(60, &rng, g);
        RatingList r;
        rating_list(PLAYERS, g, ng, 0, 0.0, 200, (uint64_t)t, &r);
        for (int i = 1; i < PLAYERS; i++, total++)
            inside += fabs(r.elo[i] - TRUTH[i]) <= r.error[i];
    }
    double coverage = (double)inside / total;
    print_message("coverage of the 95 %% bars: %.3f\n", coverage);
    assert_true(coverage > 0.90 && coverage < 0.985);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_players),
        cmocka_unit_test(test_chain_anchored),
        cmocka_unit_test(test_star),
        cmocka_unit_test(test_whole_pairing),
        cmocka_unit_test(test_errors_from_pairs),
        cmocka_unit_test(test_simulated_fit),
        cmocka_unit_test(test_simulated_coverage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
