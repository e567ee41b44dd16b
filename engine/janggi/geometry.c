// SPDX-License-Identifier: MIT
// Builds janggi's move tables (geometry.h) from the rules page's description of each piece.
#include "janggi/janggi.h"

#include <string.h>

Geometry janggi_geometry;

// The tables being built (the functions below fill them in place).
static Geometry *const G = &janggi_geometry;

static bool on_board(int file, int rank) {
    return file >= 0 && file < FILE_NB && rank >= 0 && rank < RANK_NB;
}

static int palace_of(int file, int rank) {
    if (!on_board(file, rank) || file < 3 || file > 5)
        return -1;
    if (rank <= 2)
        return CHO;
    if (rank >= 7)
        return HAN;
    return -1;
}

// The drawn diagonals join the palace corners through the centre. A diagonal step between
// two palace points exists only when one of them is the centre (file e, rank 2 or 9).
static bool palace_diagonal_step(int f1, int r1, int f2, int r2) {
    int p = palace_of(f1, r1);
    if (p < 0 || palace_of(f2, r2) != p)
        return false;
    int centre_rank = p == CHO ? 1 : 8;
    bool c1 = f1 == 4 && r1 == centre_rank, c2 = f2 == 4 && r2 == centre_rank;
    return (c1 || c2) && f1 != f2 && r1 != r2;
}

static void add_ray(Square sq, int df, int dr, bool diagonal) {
    Ray *ray = &G->rays[sq][G->ray_count[sq]];
    int f = square_file(sq), r = square_rank(sq);
    ray->len = 0;
    for (;;) {
        int nf = f + df, nr = r + dr;
        if (!on_board(nf, nr))
            break;
        if (diagonal && !palace_diagonal_step(f, r, nf, nr))
            break;
        ray->sq[ray->len++] = (uint8_t)square_make(nf, nr);
        f = nf, r = nr;
    }
    if (!diagonal || ray->len > 0)
        G->ray_count[sq]++;
}

static void init_rays(Square sq) {
    static const int orth[4][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};
    static const int diag[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    for (int d = 0; d < 4; d++)
        add_ray(sq, orth[d][0], orth[d][1], false);
    for (int d = 0; d < 4; d++)
        add_ray(sq, diag[d][0], diag[d][1], true);
}

static void init_palace_steps(Square sq) {
    int f = square_file(sq), r = square_rank(sq);
    if (palace_of(f, r) < 0)
        return;
    for (int df = -1; df <= 1; df++)
        for (int dr = -1; dr <= 1; dr++) {
            int nf = f + df, nr = r + dr;
            if ((df == 0 && dr == 0) || palace_of(nf, nr) != palace_of(f, r))
                continue;
            if (df != 0 && dr != 0 && !palace_diagonal_step(f, r, nf, nr))
                continue;
            G->palace_steps[sq][G->palace_step_count[sq]++] = (uint8_t)square_make(nf, nr);
        }
    // The guard moves as the general does.
    memcpy(G->guard_steps[sq], G->palace_steps[sq], sizeof G->guard_steps[sq]);
    G->guard_step_count[sq] = G->palace_step_count[sq];
}

// Elephant: one point straight, then two diagonally outward, blocked by any piece on an
// intermediate point. The horse's steps are the core's (geometry_add_horse_steps).
static void init_elephants(Square sq) {
    static const int orth[4][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};
    int f = square_file(sq), r = square_rank(sq);
    for (int d = 0; d < 4; d++) {
        int of = orth[d][0], orr = orth[d][1];
        for (int side = -1; side <= 1; side += 2) {
            // The outward diagonal keeps the orthogonal component and adds a sideways one.
            int df = of != 0 ? of : side, dr = orr != 0 ? orr : side;
            int lf = f + of, lr = r + orr;
            if (on_board(lf + 2 * df, lr + 2 * dr)) {
                ElephantStep *e = &G->elephant[sq][G->elephant_count[sq]++];
                e->leg1 = (uint8_t)square_make(lf, lr);
                e->leg2 = (uint8_t)square_make(lf + df, lr + dr);
                e->to = (uint8_t)square_make(lf + 2 * df, lr + 2 * dr);
            }
        }
    }
}

// Soldier: forward or sideways; inside the enemy palace also forward along a drawn diagonal.
static void init_soldier(Side side, Square sq) {
    int f = square_file(sq), r = square_rank(sq), fwd = side == CHO ? 1 : -1;
    uint8_t *out = G->soldier[side][sq];
    uint8_t *n = &G->soldier_count[side][sq];
    if (on_board(f, r + fwd))
        out[(*n)++] = (uint8_t)square_make(f, r + fwd);
    for (int df = -1; df <= 1; df += 2) {
        if (on_board(f + df, r))
            out[(*n)++] = (uint8_t)square_make(f + df, r);
        if (palace_of(f, r) == (int)(1 - side) && palace_diagonal_step(f, r, f + df, r + fwd))
            out[(*n)++] = (uint8_t)square_make(f + df, r + fwd);
    }
}

void janggi_geometry_init(void) {
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
