// SPDX-License-Identifier: MIT
// engine/geometry.c and each variant's geometry.c (engine/janggi/, engine/xiangqi/): the move
// tables of both variants checked against each other and against the board: the orthogonal
// rays run nearest first to the edge (17 points from every point); every ray, palace step and
// soldier step agrees with its point set; ray_of names the ray through a point; the reverse
// tables (horse_from, elephant_from, soldier_from) hold exactly the forward steps turned round;
// horse steps go one straight and one diagonal from their leg; palace_of marks 9 points a side.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>

#include <cmocka.h>

#include "engine.h"
#include "geometry.h"
#include "variant.h"

static int setup(void **state) {
    (void)state;
    engine_init();
    return 0;
}

static Points bit(int sq) { return (Points)1 << sq; }

static void check_rays(const Geometry *g) {
    for (Square s = 0; s < SQUARE_NB; s++) {
        assert_true(g->ray_count[s] >= 4);
        int orth = 0;
        for (int r = 0; r < g->ray_count[s]; r++) {
            const Ray *ray = &g->rays[s][r];
            Points set = 0;
            int prev = s;
            for (int i = 0; i < ray->len; i++) {
                int q = ray->sq[i];
                // Nearest first: each point one step (orthogonal or diagonal) from the last.
                int df = abs(square_file(q) - square_file(prev));
                int dr = abs(square_rank(q) - square_rank(prev));
                assert_true(df <= 1 && dr <= 1 && df + dr >= 1);
                if (r < 4)
                    assert_true(df + dr == 1);
                set |= bit(q);
                assert_int_equal(g->ray_of[s][q], r);
                prev = q;
            }
            assert_true(set == g->ray_points[s][r]);
            if (r < 4)
                orth += ray->len;
            else
                assert_true(g->palace_of[s] >= 0); // diagonals only inside a palace
        }
        assert_int_equal(orth, FILE_NB - 1 + RANK_NB - 1);
        assert_int_equal(g->ray_of[s][s], -1);
    }
}

static void check_steps(const Geometry *g) {
    int palace[SIDE_NB] = {0, 0};
    for (Square s = 0; s < SQUARE_NB; s++) {
        if (g->palace_of[s] >= 0)
            palace[g->palace_of[s]]++;
        Points set = 0;
        for (int i = 0; i < g->palace_step_count[s]; i++) {
            assert_true(g->palace_of[g->palace_steps[s][i]] == g->palace_of[s]);
            set |= bit(g->palace_steps[s][i]);
        }
        assert_true(set == g->palace_step_points[s]);
        for (int side = 0; side < SIDE_NB; side++) {
            set = 0;
            for (int i = 0; i < g->soldier_count[side][s]; i++)
                set |= bit(g->soldier[side][s][i]);
            assert_true(set == g->soldier_points[side][s]);
        }
        for (int i = 0; i < g->horse_count[s]; i++) {
            const HorseStep *h = &g->horse[s][i];
            int lf = square_file(h->leg) - square_file(s),
                lr = square_rank(h->leg) - square_rank(s);
            int tf = square_file(h->to) - square_file(h->leg);
            int tr = square_rank(h->to) - square_rank(h->leg);
            assert_int_equal(abs(lf) + abs(lr), 1);
            assert_true(abs(tf) == 1 && abs(tr) == 1);
            assert_true(tf * lf >= 0 && tr * lr >= 0); // outward from the leg
        }
    }
    assert_int_equal(palace[CHO], 9);
    assert_int_equal(palace[HAN], 9);
}

// The reverse tables: (from, leg) in x_from[to] exactly when (leg, to) in x[from].
static void check_reverse(const Geometry *g) {
    int fwd = 0, rev = 0;
    for (Square s = 0; s < SQUARE_NB; s++) {
        for (int i = 0; i < g->horse_count[s]; i++) {
            const HorseStep *h = &g->horse[s][i];
            bool found = false;
            for (int j = 0; j < g->horse_from_count[h->to]; j++)
                found |= g->horse_from[h->to][j].to == s && g->horse_from[h->to][j].leg == h->leg;
            assert_true(found);
            fwd++;
        }
        rev += g->horse_from_count[s];
        for (int i = 0; i < g->elephant_count[s]; i++) {
            const ElephantStep *e = &g->elephant[s][i];
            bool found = false;
            for (int j = 0; j < g->elephant_from_count[e->to]; j++) {
                const ElephantStep *f = &g->elephant_from[e->to][j];
                found |= f->to == s && ((f->leg1 == e->leg1 && f->leg2 == e->leg2) ||
                                        (f->leg1 == e->leg2 && f->leg2 == e->leg1));
            }
            assert_true(found);
        }
        for (int side = 0; side < SIDE_NB; side++)
            for (int i = 0; i < g->soldier_count[side][s]; i++) {
                int to = g->soldier[side][s][i];
                bool found = false;
                for (int j = 0; j < g->soldier_from_count[side][to]; j++)
                    found |= g->soldier_from[side][to][j] == s;
                assert_true(found);
            }
    }
    assert_int_equal(fwd, rev);
    int efwd = 0, erev = 0, sfwd = 0, srev = 0;
    for (Square s = 0; s < SQUARE_NB; s++) {
        efwd += g->elephant_count[s];
        erev += g->elephant_from_count[s];
        for (int side = 0; side < SIDE_NB; side++) {
            sfwd += g->soldier_count[side][s];
            srev += g->soldier_from_count[side][s];
        }
    }
    assert_int_equal(efwd, erev);
    assert_int_equal(sfwd, srev);
}

static void test_janggi(void **state) {
    (void)state;
    const Geometry *g = VARIANT_JANGGI.geometry;
    check_rays(g);
    check_steps(g);
    check_reverse(g);
    // Janggi's palace diagonals: the palace centre has 4 of them, its corners 1.
    assert_int_equal(g->ray_count[square_make(4, 1)], 8);
    assert_int_equal(g->ray_count[square_make(3, 0)], 5);
    assert_int_equal(g->ray_count[square_make(4, 0)], 4);
}

static void test_xiangqi(void **state) {
    (void)state;
    const Geometry *g = VARIANT_XIANGQI.geometry;
    check_rays(g);
    check_steps(g);
    check_reverse(g);
    // No palace lines for the chariot and cannon in xiangqi.
    for (Square s = 0; s < SQUARE_NB; s++)
        assert_int_equal(g->ray_count[s], 4);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_janggi),
        cmocka_unit_test(test_xiangqi),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
