// SPDX-License-Identifier: MIT
// Board set-up, make/unmake with incremental Zobrist keys, the attack test, and the
// consistency check asserted after every make/unmake in Debug builds.
#include "board.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "geometry.h"
#include "variant.h"
#include "zobrist.h"

#ifndef NDEBUG
#define ASSERT_CONSISTENT(b) assert(board_is_consistent((b), NULL, 0))
#else
#define ASSERT_CONSISTENT(b) ((void)0)
#endif

void board_clear(Board *b) { board_clear_variant(b, variant_default()); }

void board_clear_variant(Board *b, const Variant *v) {
    b->variant = v;
    b->geo = v->geometry;
    memset(b->squares, 0, sizeof b->squares);
    memset(b->count, 0, sizeof b->count);
    b->general[CHO] = b->general[HAN] = SQ_NONE;
    b->side = CHO;
    b->start_ply = 0;
    b->nstates = 1;
    memset(&b->states[0], 0, sizeof b->states[0]);
}

static void add_piece(Board *b, Piece pc, Square sq) {
    b->squares[sq] = pc;
    b->index[sq] = b->count[pc];
    b->list[pc][b->count[pc]++] = (uint8_t)sq;
}

static void remove_piece(Board *b, Square sq) {
    Piece pc = b->squares[sq];
    uint8_t last = b->list[pc][--b->count[pc]];
    b->index[last] = b->index[sq];
    b->list[pc][b->index[sq]] = last;
    b->squares[sq] = EMPTY;
}

static void move_piece(Board *b, Square from, Square to) {
    Piece pc = b->squares[from];
    b->squares[to] = pc;
    b->squares[from] = EMPTY;
    b->index[to] = b->index[from];
    b->list[pc][b->index[to]] = (uint8_t)to;
}

void board_put(Board *b, Piece pc, Square sq) {
    assert(b->squares[sq] == EMPTY && b->count[pc] < 5);
    add_piece(b, pc, sq);
    if (piece_kind(pc) == GENERAL)
        b->general[piece_side(pc)] = sq;
}

static int total_pieces(const Board *b) {
    int n = 0;
    for (int pc = 0; pc < PIECE_NB; pc++)
        n += b->count[pc];
    return n;
}

void board_finish_setup(Board *b, Side side, int start_ply, int halfmove) {
    b->side = side;
    b->start_ply = start_ply;
    b->nstates = 1;
    StateInfo *st = &b->states[0];
    memset(st, 0, sizeof *st);
    st->key = board_compute_key(b);
    st->piece_count = (uint8_t)total_pieces(b);
    st->halfmove = (uint16_t)halfmove;
    // Where the FEN's clock counts captures only (xiangqi), it is the plies without a capture
    // before the root: the capture-free limit counts them.
    st->since_capture = b->variant->halfmove_captures_only ? (uint16_t)halfmove : 0;
    st->facing = board_generals_facing(b);
    st->in_check = b->general[side] != SQ_NONE && board_general_attacked(b, side);
    st->exposed = b->general[!side] != SQ_NONE && board_general_attacked(b, !side);
}

uint64_t board_compute_key(const Board *b) {
    uint64_t key = b->side == HAN ? zobrist.side : 0;
    for (Square sq = 0; sq < SQUARE_NB; sq++)
        key ^= zobrist.piece[b->squares[sq]][sq];
    return key;
}

bool board_generals_facing(const Board *b) {
    Square g = b->general[CHO], h = b->general[HAN];
    if (g == SQ_NONE || h == SQ_NONE || square_file(g) != square_file(h))
        return false;
    for (Square sq = g + FILE_NB; sq < h; sq += FILE_NB)
        if (b->squares[sq] != EMPTY)
            return false;
    return true;
}

// Sliding attacks along one ray: the first piece is hit by a chariot; the piece after a
// cannon's screen is hit by a cannon. Rays include the palace diagonals (janggi).
bool board_ray_attacked(const Board *b, Square sq, int r, Side by) {
    const Piece chariot = piece_make(by, CHARIOT), cannon = piece_make(by, CANNON);
    const Ray *ray = &b->geo->rays[sq][r];
    int i = ray_next_piece(b, ray, 0);
    if (i == ray->len)
        return false;
    Piece screen = b->squares[ray->sq[i]];
    if (screen == chariot)
        return true;
    if ((!cannon_may_jump(screen) && b->variant->cannon == CANNON_JANGGI) || !b->count[cannon])
        return false;
    i = ray_next_piece(b, ray, i + 1);
    return i < ray->len && b->squares[ray->sq[i]] == cannon;
}

bool board_leaper_attacked(const Board *b, Square sq, Side by) {
    const Piece horse = piece_make(by, HORSE), elephant = piece_make(by, ELEPHANT);
    const Geometry *geo = b->geo;
    if (b->count[horse])
        for (int i = 0; i < geo->horse_from_count[sq]; i++) {
            HorseStep h = geo->horse_from[sq][i];
            if (b->squares[h.to] == horse && b->squares[h.leg] == EMPTY)
                return true;
        }
    if (b->count[elephant])
        for (int i = 0; i < geo->elephant_from_count[sq]; i++) {
            ElephantStep e = geo->elephant_from[sq][i];
            if (b->squares[e.to] == elephant && b->squares[e.leg1] == EMPTY &&
                b->squares[e.leg2] == EMPTY)
                return true;
        }
    return false;
}

// The attacks on sq that no line carries: horses and elephants (board_leaper_attacked),
// soldiers, and the general and guards along their palace's lines.
static bool step_attacked(const Board *b, Square sq, Side by) {
    const Geometry *geo = b->geo;
    if (board_leaper_attacked(b, sq, by))
        return true;
    const Piece soldier = piece_make(by, SOLDIER);
    if (b->count[soldier])
        for (int i = 0; i < geo->soldier_from_count[by][sq]; i++)
            if (b->squares[geo->soldier_from[by][sq][i]] == soldier)
                return true;
    // General and guard reach only points of their own palace along its lines. The steps are
    // symmetric: a general (guard) one step from sq is one of sq's general (guard) steps.
    if (geo->palace_of[sq] == (int8_t)by) {
        for (int i = 0; i < geo->palace_step_count[sq]; i++)
            if (b->squares[geo->palace_steps[sq][i]] == piece_make(by, GENERAL))
                return true;
        for (int i = 0; i < geo->guard_step_count[sq]; i++)
            if (b->squares[geo->guard_steps[sq][i]] == piece_make(by, GUARD))
                return true;
    }
    return false;
}

bool board_attacked(const Board *b, Square sq, Side by) {
    const Geometry *geo = b->geo;
    if (b->count[piece_make(by, CHARIOT)] || b->count[piece_make(by, CANNON)])
        for (int r = 0; r < geo->ray_count[sq]; r++)
            if (board_ray_attacked(b, sq, r, by))
                return true;
    return step_attacked(b, sq, by);
}

// Whether us, having just played from -> to, attacks the enemy general g, which no piece of us
// attacked before the move (the move before it was legal). Only what the move changed can
// attack g now: a line of g through `from` opened (a chariot's, or a cannon's screen gone), a
// line through `to` (the moved piece's own, a new cannon screen, or a screen that changed kind,
// which a janggi cannon tells apart), a leg freed at `from`, and the moved piece's own step or
// leap. So the lines of g through `from` and `to` are tested, and every step attack (cheap),
// as the legality test of movegen.c tests the own general. The flying general is the caller's.
static bool move_gives_check(const Board *b, Square g, Square from, Square to, Side us) {
    const int ray_from = b->geo->ray_of[g][from], ray_to = b->geo->ray_of[g][to];
    return (ray_from >= 0 && board_ray_attacked(b, g, ray_from, us)) ||
           (ray_to >= 0 && ray_to != ray_from && board_ray_attacked(b, g, ray_to, us)) ||
           step_attacked(b, g, us);
}

bool board_general_attacked(const Board *b, Side side) {
    return board_attacked(b, b->general[side], !side) ||
           (b->variant->flying_general && board_generals_facing(b));
}

void board_make(Board *b, Move m) {
    assert(b->nstates < (int)(sizeof b->states / sizeof b->states[0]));
    const StateInfo *prev = &b->states[b->nstates - 1];
    StateInfo *st = &b->states[b->nstates++];
    Side us = b->side;
    uint64_t key = prev->key ^ zobrist.side;
    st->move = m;
    st->captured = EMPTY;
    st->exposed = 0;
    st->piece_count = prev->piece_count;
    st->since_capture = (uint16_t)(prev->since_capture + 1);
    st->halfmove = (uint16_t)(prev->halfmove + 1);
    if (!move_is_pass(m)) {
        Square from = move_from(m), to = move_to(m);
        Piece pc = b->squares[from], cap = b->squares[to];
        if (cap != EMPTY) {
            key ^= zobrist.piece[cap][to];
            remove_piece(b, to);
            st->captured = cap;
            st->piece_count--;
            st->since_capture = st->halfmove = 0;
        }
        key ^= zobrist.piece[pc][from] ^ zobrist.piece[pc][to];
        move_piece(b, from, to);
        if (piece_kind(pc) == GENERAL)
            b->general[us] = to;
        else if (piece_kind(pc) == SOLDIER)
            st->halfmove = 0;
    }
    b->side = !us;
    st->key = key;
    st->facing = board_generals_facing(b);
    // A pass changes no attack: each general stays as attacked as it was (a pass in check, as
    // the chase rule's replay makes, leaves the passer's general attacked: exposed). After a
    // move the enemy general is tested whole where a set-up or such a pass left it attacked.
    bool attacked;
    if (move_is_pass(m)) {
        attacked = prev->exposed;
        st->exposed = prev->in_check;
    } else if (prev->exposed) {
        attacked = board_attacked(b, b->general[!us], us);
    } else {
        attacked = move_gives_check(b, b->general[!us], move_from(m), move_to(m), us);
    }
    st->in_check = attacked || (st->facing && b->variant->flying_general);
    ASSERT_CONSISTENT(b);
}

void board_unmake(Board *b) {
    assert(b->nstates > 1);
    const StateInfo *st = &b->states[--b->nstates];
    Move m = st->move;
    b->side = !b->side;
    if (!move_is_pass(m)) {
        Square from = move_from(m), to = move_to(m);
        move_piece(b, to, from);
        if (piece_kind(b->squares[from]) == GENERAL)
            b->general[b->side] = from;
        if (st->captured != EMPTY)
            add_piece(b, st->captured, to);
    }
    ASSERT_CONSISTENT(b);
}

bool board_is_consistent(const Board *b, char *why, int why_len) {
    char dummy[8];
    if (!why)
        why = dummy, why_len = (int)sizeof dummy;
    int seen[PIECE_NB] = {0};
    for (Square sq = 0; sq < SQUARE_NB; sq++) {
        Piece pc = b->squares[sq];
        if (pc == EMPTY)
            continue;
        if (pc >= PIECE_NB || piece_kind(pc) == KIND_NONE) {
            snprintf(why, (size_t)why_len, "bad piece code %d on square %d", pc, sq);
            return false;
        }
        seen[pc]++;
        if (b->index[sq] >= b->count[pc] || b->list[pc][b->index[sq]] != sq) {
            snprintf(why, (size_t)why_len, "piece list does not hold square %d", sq);
            return false;
        }
    }
    for (int pc = 0; pc < PIECE_NB; pc++)
        if (seen[pc] != b->count[pc]) {
            snprintf(why, (size_t)why_len, "count of piece %d is %d, board has %d", pc,
                     b->count[pc], seen[pc]);
            return false;
        }
    for (int s = 0; s < SIDE_NB; s++) {
        Piece g = piece_make((Side)s, GENERAL);
        if (b->count[g] != 1 || b->list[g][0] != b->general[s]) {
            snprintf(why, (size_t)why_len, "general of side %d is not where recorded", s);
            return false;
        }
    }
    const StateInfo *st = board_state(b);
    if (st->in_check != board_general_attacked(b, b->side)) {
        snprintf(why, (size_t)why_len, "check flag %d, the side to move's general attacked %d",
                 st->in_check, board_general_attacked(b, b->side));
        return false;
    }
    // Exact along legal play; a move made only to be tested (an illegal one, unmade at once)
    // leaves its mover's general attacked with the flag 0. A flag that claims an attack is wrong.
    if (st->exposed && !board_general_attacked(b, !b->side)) {
        snprintf(why, (size_t)why_len, "exposed flag set, the other general not attacked");
        return false;
    }
    if (st->key != board_compute_key(b)) {
        snprintf(why, (size_t)why_len, "incremental key differs from the recomputed key");
        return false;
    }
    if (st->piece_count != total_pieces(b)) {
        snprintf(why, (size_t)why_len, "state piece count %d, board has %d", st->piece_count,
                 total_pieces(b));
        return false;
    }
    return true;
}
