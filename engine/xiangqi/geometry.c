// SPDX-License-Identifier: MIT
// Builds xiangqi's move tables (geometry.h) from the rules page's description of each piece
// (docs/rules-xiangqi.md, "How pieces move").
#include "xiangqi/xiangqi.h"

#include <string.h>

Geometry xiangqi_geometry;

// The tables being built (the functions below fill them in place).
static Geometry *const G = &xiangqi_geometry;

static const int ORTH[4][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};
static const int DIAG[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

static bool on_board(int file, int rank) {
    return file >= 0 && file < FILE_NB && rank >= 0 && rank < RANK_NB;
}

// The palaces: files d..f, ranks 1-3 (Red) and 8-10 (Black), as in janggi.
static int palace_of(int file, int rank) {
    if (!on_board(file, rank) || file < 3 || file > 5)
        return -1;
    return rank <= 2 ? CHO : rank >= 7 ? HAN : -1;
}

// The centre of a palace (e2, e9).
static bool is_centre(int file, int rank) { return file == 4 && (rank == 1 || rank == 8); }

// Rank counted from side's own back rank (0 = its rank 1).
static int own_rank(Side side, int rank) { return side == CHO ? rank : RANK_NB - 1 - rank; }

bool xiangqi_own_half(Side side, Square sq) { return own_rank(side, square_rank(sq)) <= 4; }

bool xiangqi_elephant_point(Side side, Square sq) {
    int f = square_file(sq), r = own_rank(side, square_rank(sq));
    return r <= 4 && f % 2 == 0 && r % 2 == 0 && (f / 2 + r / 2) % 2 == 1;
}

bool xiangqi_soldier_point(Side side, Square sq) {
    int f = square_file(sq), r = own_rank(side, square_rank(sq));
    return r >= 5 || (r >= 3 && f % 2 == 0);
}

static void init_rays(Square sq) {
    int f0 = square_file(sq), r0 = square_rank(sq);
    for (int d = 0; d < 4; d++) {
        Ray *ray = &G->rays[sq][d];
        for (int f = f0 + ORTH[d][0], r = r0 + ORTH[d][1]; on_board(f, r);
             f += ORTH[d][0], r += ORTH[d][1])
            ray->sq[ray->len++] = (uint8_t)square_make(f, r);
    }
    G->ray_count[sq] = 4;
}

// General: one point orthogonally; advisor: one point diagonally; both inside the palace.
// The palace's diagonals join its corners through its centre, so a diagonal step inside the
// palace always has the centre at one end.
static void init_palace_steps(Square sq) {
    int f = square_file(sq), r = square_rank(sq), p = palace_of(f, r);
    if (p < 0)
        return;
    for (int d = 0; d < 4; d++) {
        int nf = f + ORTH[d][0], nr = r + ORTH[d][1];
        if (palace_of(nf, nr) == p)
            G->palace_steps[sq][G->palace_step_count[sq]++] = (uint8_t)square_make(nf, nr);
        nf = f + DIAG[d][0], nr = r + DIAG[d][1];
        if (palace_of(nf, nr) == p && (is_centre(f, r) || is_centre(nf, nr)))
            G->guard_steps[sq][G->guard_step_count[sq]++] = (uint8_t)square_make(nf, nr);
    }
}

// Elephant: two points diagonally, blocked by the point between (the eye, stored as both legs),
// never across the river (its tables keep each half to itself). The horse's steps are the
// core's (geometry_add_horse_steps).
static void init_elephants(Square sq) {
    int f = square_file(sq), r = square_rank(sq);
    for (int d = 0; d < 4; d++) {
        int ef = f + 2 * DIAG[d][0], er = r + 2 * DIAG[d][1];
        Side half = r <= 4 ? CHO : HAN;
        if (on_board(ef, er) && xiangqi_own_half(half, square_make(ef, er))) {
            ElephantStep *e = &G->elephant[sq][G->elephant_count[sq]++];
            e->leg1 = e->leg2 = (uint8_t)square_make(f + DIAG[d][0], r + DIAG[d][1]);
            e->to = (uint8_t)square_make(ef, er);
        }
    }
}

// Soldier: one point forward; past the river also one point sideways; never backward.
static void init_soldier(Side side, Square sq) {
    int f = square_file(sq), r = square_rank(sq), fwd = side == CHO ? 1 : -1;
    uint8_t *out = G->soldier[side][sq];
    uint8_t *n = &G->soldier_count[side][sq];
    if (on_board(f, r + fwd))
        out[(*n)++] = (uint8_t)square_make(f, r + fwd);
    if (!xiangqi_own_half(side, sq))
        for (int df = -1; df <= 1; df += 2)
            if (on_board(f + df, r))
                out[(*n)++] = (uint8_t)square_make(f + df, r);
}

void xiangqi_geometry_init(void) {
    memset(G, 0, sizeof *G);
    for (Square sq = 0; sq < SQUARE_NB; sq++) {
        G->palace_of[sq] = (int8_t)palace_of(square_file(sq), square_rank(sq));
        init_rays(sq);
        init_palace_steps(sq);
        init_elephants(sq);
        init_soldier(CHO, sq);
        init_soldier(HAN, sq);
    }
    geometry_add_horse_steps(G);
    geometry_derive(G);
}
