// SPDX-License-Identifier: MIT
// Pseudo-legal generation from the geometry tables, and a legality test that makes the move
// on the mailbox only when the move can change an attack on the mover's general.
#include "movegen.h"

#include <assert.h>

#include "board.h"
#include "geometry.h"
#include "variant.h"

static inline void push(MoveList *list, Square from, Square to) {
    assert(list->count < MAX_MOVES);
    list->moves[list->count++] = move_make(from, to);
}

// Adds from->to when the target fits the wanted type: empty for quiets, enemy for captures.
static inline void add_step(const Board *b, MoveList *list, Square from, Square to, Side us,
                            GenType type) {
    Piece target = b->squares[to];
    if (target == EMPTY) {
        if (type != GEN_CAPTURES)
            push(list, from, to);
    } else if (piece_side(target) != us && type != GEN_QUIETS)
        push(list, from, to);
}

static void gen_chariot(const Board *b, MoveList *list, Square from, Side us, GenType type) {
    const Geometry *geo = b->geo;
    for (int r = 0; r < geo->ray_count[from]; r++) {
        const Ray *ray = &geo->rays[from][r];
        for (int i = 0; i < ray->len; i++) {
            Square to = ray->sq[i];
            add_step(b, list, from, to, us, type);
            if (b->squares[to] != EMPTY)
                break;
        }
    }
}

// The cannon rule (board.h): the points past a screen it may jump, the first piece there if it
// may take it.
static void gen_cannon(const Board *b, MoveList *list, Square from, Side us, GenType type) {
    const Geometry *geo = b->geo;
    for (int r = 0; r < geo->ray_count[from]; r++) {
        const Ray *ray = &geo->rays[from][r];
        int i = ray_next_piece(b, ray, 0);
        if (i == ray->len || !cannon_may_jump(b->squares[ray->sq[i]]))
            continue;
        for (i++; i < ray->len; i++) {
            Square to = ray->sq[i];
            Piece target = b->squares[to];
            if (target == EMPTY) {
                if (type != GEN_CAPTURES)
                    push(list, from, to);
                continue;
            }
            if (piece_side(target) != us && cannon_may_capture(target) && type != GEN_QUIETS)
                push(list, from, to);
            break;
        }
    }
}

// The xiangqi cannon (CANNON_XIANGQI): quiet moves as a chariot's up to the first piece; a
// capture of the first enemy piece past that screen, whatever the kinds of both.
static void gen_cannon_xiangqi(const Board *b, MoveList *list, Square from, Side us, GenType type) {
    const Geometry *geo = b->geo;
    for (int r = 0; r < geo->ray_count[from]; r++) {
        const Ray *ray = &geo->rays[from][r];
        int i = 0;
        for (; i < ray->len && b->squares[ray->sq[i]] == EMPTY; i++)
            if (type != GEN_CAPTURES)
                push(list, from, ray->sq[i]);
        if (type == GEN_QUIETS || i == ray->len)
            continue;
        i = ray_next_piece(b, ray, i + 1);
        if (i < ray->len && piece_side(b->squares[ray->sq[i]]) != us)
            push(list, from, ray->sq[i]);
    }
}

static void gen_piece(const Board *b, MoveList *list, Square from, Side us, GenType type) {
    const Geometry *geo = b->geo;
    switch (piece_kind(b->squares[from])) {
    case GENERAL:
        for (int i = 0; i < geo->palace_step_count[from]; i++)
            add_step(b, list, from, geo->palace_steps[from][i], us, type);
        break;
    case GUARD:
        for (int i = 0; i < geo->guard_step_count[from]; i++)
            add_step(b, list, from, geo->guard_steps[from][i], us, type);
        break;
    case CHARIOT:
        gen_chariot(b, list, from, us, type);
        break;
    case CANNON:
        if (b->variant->cannon == CANNON_JANGGI)
            gen_cannon(b, list, from, us, type);
        else
            gen_cannon_xiangqi(b, list, from, us, type);
        break;
    case HORSE:
        for (int i = 0; i < geo->horse_count[from]; i++) {
            HorseStep h = geo->horse[from][i];
            if (b->squares[h.leg] == EMPTY)
                add_step(b, list, from, h.to, us, type);
        }
        break;
    case ELEPHANT:
        for (int i = 0; i < geo->elephant_count[from]; i++) {
            ElephantStep e = geo->elephant[from][i];
            if (b->squares[e.leg1] == EMPTY && b->squares[e.leg2] == EMPTY)
                add_step(b, list, from, e.to, us, type);
        }
        break;
    case SOLDIER:
        for (int i = 0; i < geo->soldier_count[us][from]; i++)
            add_step(b, list, from, geo->soldier[us][from][i], us, type);
        break;
    default:
        assert(0);
    }
}

void movegen_pseudo(const Board *b, MoveList *list, GenType type) {
    Side us = b->side;
    list->count = 0;
    for (Kind k = GENERAL; k <= SOLDIER; k++) {
        Piece pc = piece_make(us, k);
        for (int i = 0; i < b->count[pc]; i++)
            gen_piece(b, list, b->list[pc][i], us, type);
    }
}

// Not in check, a move of a piece other than the general can only expose the general by
// what it changes: the point it leaves (a chariot line opens, a cannon gains or loses a
// screen, a horse or elephant leg is freed, the file between the generals opens) and the
// point it takes (a new cannon screen). So only the rays through those two points, and the
// leapers when a leg was freed, are tested; and, under the flying-general rule, whether the
// generals now face. `flying` is the variant's rule, a constant in each caller's loop, so
// janggi's test is compiled without it.
static inline bool is_legal(Board *b, Move m, bool flying) {
    const bool in_check = board_in_check(b);
    if (move_is_pass(m))
        return !in_check && b->variant->pass;
    const Side us = b->side, them = !us;
    const Square from = move_from(m), to = move_to(m);
    const Piece pc = b->squares[from], captured = b->squares[to];
    const bool general_moves = piece_kind(pc) == GENERAL;
    const Square g = general_moves ? to : b->general[us];
    const Geometry *geo = b->geo;
    const int ray_from = geo->ray_of[g][from], ray_to = geo->ray_of[g][to];
    const bool leg = geo->leg_of[g][from];
    if (!in_check && !general_moves && ray_from < 0 && ray_to < 0 && !leg)
        return true;
    b->squares[to] = pc;
    b->squares[from] = EMPTY;
    bool attacked;
    if (in_check || general_moves)
        attacked = board_attacked(b, g, them);
    else
        attacked = (ray_from >= 0 && board_ray_attacked(b, g, ray_from, them)) ||
                   (ray_to >= 0 && ray_to != ray_from && board_ray_attacked(b, g, ray_to, them)) ||
                   (leg && board_leaper_attacked(b, g, them));
    if (flying && !attacked) {
        Square saved = b->general[us];
        b->general[us] = g;
        attacked = board_generals_facing(b);
        b->general[us] = saved;
    }
    b->squares[from] = pc;
    b->squares[to] = captured;
    return !attacked;
}

bool movegen_is_legal(Board *b, Move m) {
    return b->variant->flying_general ? is_legal(b, m, true) : is_legal(b, m, false);
}

bool movegen_is_pseudo_legal(const Board *b, Move m) {
    Square from = move_from(m), to = move_to(m);
    if (m == MOVE_NONE || from >= SQUARE_NB || to >= SQUARE_NB || (m >> 14))
        return false;
    if (from == to)
        return from == b->general[b->side] && b->variant->pass;
    Piece pc = b->squares[from];
    if (pc == EMPTY || piece_side(pc) != b->side)
        return false;
    MoveList list;
    list.count = 0;
    gen_piece(b, &list, from, b->side, GEN_ALL);
    for (int i = 0; i < list.count; i++)
        if (list.moves[i] == m)
            return true;
    return false;
}

static void keep_legal(Board *b, MoveList *list) {
    int n = 0;
    if (b->variant->flying_general) {
        for (int i = 0; i < list->count; i++)
            if (is_legal(b, list->moves[i], true))
                list->moves[n++] = list->moves[i];
    } else
        for (int i = 0; i < list->count; i++)
            if (is_legal(b, list->moves[i], false))
                list->moves[n++] = list->moves[i];
    list->count = n;
}

void movegen_legal(Board *b, MoveList *list) {
    movegen_pseudo(b, list, GEN_ALL);
    keep_legal(b, list);
    if (!board_in_check(b) && b->variant->pass)
        push(list, b->general[b->side], b->general[b->side]);
}

void movegen_captures(Board *b, MoveList *list) {
    movegen_pseudo(b, list, GEN_CAPTURES);
    keep_legal(b, list);
}

// True when the quiet pseudo-legal move m of the side to move attacks the enemy general g. The
// side to move gives no check before m, so an attack after it is made along a line through a
// point m changes (from: a line opened or a leg freed; to: the moved piece's own line or a new
// cannon screen), or by the moved piece's own leap or step. The move is made on the mailbox
// only (a quiet move changes no piece count, which the attack tests read).
static bool quiet_gives_check(Board *b, Move m, Square g) {
    const Side us = b->side;
    const Square from = move_from(m), to = move_to(m);
    const Piece pc = b->squares[from];
    const Kind kind = piece_kind(pc);
    const Geometry *geo = b->geo;
    const int ray_from = geo->ray_of[g][from], ray_to = geo->ray_of[g][to];
    const bool leaper = kind == HORSE || kind == ELEPHANT || geo->leg_of[g][from];
    if (ray_from < 0 && ray_to < 0 && !leaper && kind != SOLDIER)
        return false;
    b->squares[to] = pc;
    b->squares[from] = EMPTY;
    bool check = (ray_from >= 0 && board_ray_attacked(b, g, ray_from, us)) ||
                 (ray_to >= 0 && ray_to != ray_from && board_ray_attacked(b, g, ray_to, us)) ||
                 (leaper && board_leaper_attacked(b, g, us));
    for (int i = 0; kind == SOLDIER && !check && i < geo->soldier_from_count[us][g]; i++)
        check = geo->soldier_from[us][g][i] == to;
    b->squares[from] = pc;
    b->squares[to] = EMPTY;
    return check;
}

void movegen_quiet_checks(Board *b, MoveList *list) {
    assert(!board_in_check(b));
    const Square g = b->general[!b->side];
    movegen_pseudo(b, list, GEN_QUIETS);
    int n = 0;
    for (int i = 0; i < list->count; i++)
        if (g != SQ_NONE && quiet_gives_check(b, list->moves[i], g) &&
            movegen_is_legal(b, list->moves[i]))
            list->moves[n++] = list->moves[i];
    list->count = n;
}

void movegen_evasions(Board *b, MoveList *list) {
    assert(board_in_check(b));
    movegen_pseudo(b, list, GEN_ALL);
    keep_legal(b, list);
}

int movegen_count_legal(Board *b) {
    MoveList list;
    movegen_pseudo(b, &list, GEN_ALL);
    int n = !board_in_check(b) && b->variant->pass; // the pass
    if (b->variant->flying_general)
        for (int i = 0; i < list.count; i++)
            n += is_legal(b, list.moves[i], true);
    else
        for (int i = 0; i < list.count; i++)
            n += is_legal(b, list.moves[i], false);
    return n;
}

bool movegen_has_legal(Board *b) {
    if (!board_in_check(b) && b->variant->pass)
        return true; // the pass
    MoveList list;
    movegen_pseudo(b, &list, GEN_ALL);
    for (int i = 0; i < list.count; i++)
        if (movegen_is_legal(b, list.moves[i]))
            return true;
    return false;
}
