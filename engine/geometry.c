// SPDX-License-Identifier: MIT
// The tables every variant derives the same way from its own move tables (see geometry.h):
// the reverse (attacker) tables and the lines and legs through which a change of occupancy
// can create an attack.
#include "geometry.h"

void geometry_add_horse_steps(Geometry *g) {
    static const int orth[4][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};
    for (Square sq = 0; sq < SQUARE_NB; sq++)
        for (int d = 0; d < 4; d++)
            for (int side = -1; side <= 1; side += 2) {
                // The outward diagonal keeps the orthogonal component and adds a sideways one.
                int of = orth[d][0], orr = orth[d][1];
                int df = of != 0 ? of : side, dr = orr != 0 ? orr : side;
                int lf = square_file(sq) + of, lr = square_rank(sq) + orr;
                int tf = lf + df, tr = lr + dr;
                if (tf < 0 || tf >= FILE_NB || tr < 0 || tr >= RANK_NB)
                    continue;
                HorseStep *h = &g->horse[sq][g->horse_count[sq]++];
                h->leg = (uint8_t)square_make(lf, lr);
                h->to = (uint8_t)square_make(tf, tr);
            }
}

static void derive_reverse(Geometry *g, Square sq) {
    for (int i = 0; i < g->horse_count[sq]; i++) {
        HorseStep h = g->horse[sq][i];
        HorseStep *rev = &g->horse_from[h.to][g->horse_from_count[h.to]++];
        rev->leg = h.leg, rev->to = (uint8_t)sq;
    }
    for (int i = 0; i < g->elephant_count[sq]; i++) {
        ElephantStep e = g->elephant[sq][i];
        ElephantStep *rev = &g->elephant_from[e.to][g->elephant_from_count[e.to]++];
        rev->leg1 = e.leg1, rev->leg2 = e.leg2, rev->to = (uint8_t)sq;
    }
    for (int side = 0; side < SIDE_NB; side++)
        for (int i = 0; i < g->soldier_count[side][sq]; i++) {
            int to = g->soldier[side][sq][i];
            g->soldier_from[side][to][g->soldier_from_count[side][to]++] = (uint8_t)sq;
            g->soldier_points[side][sq] |= (Points)1 << to;
        }
    for (int i = 0; i < g->palace_step_count[sq]; i++)
        g->palace_step_points[sq] |= (Points)1 << g->palace_steps[sq][i];
    for (int i = 0; i < g->guard_step_count[sq]; i++)
        g->guard_step_points[sq] |= (Points)1 << g->guard_steps[sq][i];
    if (g->palace_of[sq] >= 0)
        g->palace_points[g->palace_of[sq]] |= (Points)1 << sq;
}

// The horse's leg and the elephant's points lie one or two diagonal steps from the square
// they attack (in both variants); ray_of follows the variant's own rays.
static void derive_lines_and_legs(Geometry *g, Square at) {
    int gf = square_file(at), gr = square_rank(at);
    for (Square s = 0; s < SQUARE_NB; s++) {
        int df = square_file(s) - gf, dr = square_rank(s) - gr;
        int adf = df < 0 ? -df : df, adr = dr < 0 ? -dr : dr;
        g->leg_of[at][s] = (uint8_t)(adf == adr && adf >= 1 && adf <= 2);
        g->ray_of[at][s] = -1;
    }
    for (int r = 0; r < g->ray_count[at]; r++)
        for (int i = 0; i < g->rays[at][r].len; i++) {
            g->ray_of[at][g->rays[at][r].sq[i]] = (int8_t)r;
            g->ray_points[at][r] |= (Points)1 << g->rays[at][r].sq[i];
        }
}

void geometry_derive(Geometry *g) {
    for (Square sq = 0; sq < SQUARE_NB; sq++) {
        derive_reverse(g, sq);
        derive_lines_and_legs(g, sq);
    }
}
