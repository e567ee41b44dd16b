// SPDX-License-Identifier: MIT
// Static exchange evaluation (see.h): a small boolean minimax over the captures on one point,
// the attackers found again on the changed board after every capture, by the Board's variant.
#include "see.h"

#include <assert.h>

#include "board.h"
#include "variant.h"

enum { SEE_MAX_ATTACKERS = 24 };

typedef struct SeeSearch {
    Board *b; // its squares and general points follow the exchange; counts and lists do not
    Square to;
    Side us;       // the side that played the first move
    int threshold; // what us must keep, in half points
} SeeSearch;

static int piece_value(const Board *b, Piece pc) {
    return b->variant->exchange_half[piece_kind(pc)];
}

// The variant's cannon rule (variant.h, CannonRule): janggi's cannon jumps no cannon and takes
// none (board.h); xiangqi's jumps one screen of any kind and takes any enemy piece.
static bool cannon_takes_over(const Board *b, Piece screen, Piece target) {
    return b->variant->cannon == CANNON_XIANGQI ||
           (cannon_may_jump(screen) && cannon_may_capture(target));
}

// Cheapest attacker first, so that the usual answer is found on the first branch; the general
// (worth 0 points, but it takes only where nothing can take back) comes last.
static int order_key(const Board *b, Piece pc) {
    return piece_kind(pc) == GENERAL ? 1000 : piece_value(b, pc);
}

static void push(const Board *b, Square *out, int *n, Square from) {
    int i = (*n)++;
    int key = order_key(b, b->squares[from]);
    assert(*n <= SEE_MAX_ATTACKERS);
    while (i > 0 && order_key(b, b->squares[out[i - 1]]) > key) {
        out[i] = out[i - 1];
        i--;
    }
    out[i] = from;
}

// The squares of the pieces of `by` that may capture on `to` on the current board (the move
// rules of board_attacked, enumerated), cheapest first; their legality is not tested here.
static int attackers(const Board *b, Square to, Side by, Square *out) {
    const Geometry *geo = b->geo;
    const Piece target = b->squares[to];
    const Piece chariot = piece_make(by, CHARIOT), cannon = piece_make(by, CANNON);
    int n = 0;
    for (int r = 0; r < geo->ray_count[to]; r++) {
        const Ray *ray = &geo->rays[to][r];
        int i = ray_next_piece(b, ray, 0);
        if (i == ray->len)
            continue;
        Piece first = b->squares[ray->sq[i]];
        if (first == chariot)
            push(b, out, &n, ray->sq[i]); // and it may also be the screen of a cannon behind
        if (!cannon_takes_over(b, first, target))
            continue;
        int j = ray_next_piece(b, ray, i + 1);
        if (j < ray->len && b->squares[ray->sq[j]] == cannon)
            push(b, out, &n, ray->sq[j]);
    }
    const Piece horse = piece_make(by, HORSE), elephant = piece_make(by, ELEPHANT);
    for (int i = 0; i < geo->horse_from_count[to]; i++) {
        HorseStep h = geo->horse_from[to][i];
        if (b->squares[h.to] == horse && b->squares[h.leg] == EMPTY)
            push(b, out, &n, h.to);
    }
    for (int i = 0; i < geo->elephant_from_count[to]; i++) {
        ElephantStep e = geo->elephant_from[to][i];
        if (b->squares[e.to] == elephant && b->squares[e.leg1] == EMPTY &&
            b->squares[e.leg2] == EMPTY)
            push(b, out, &n, e.to);
    }
    const Piece soldier = piece_make(by, SOLDIER);
    for (int i = 0; i < geo->soldier_from_count[by][to]; i++)
        if (b->squares[geo->soldier_from[by][to][i]] == soldier)
            push(b, out, &n, geo->soldier_from[by][to][i]);
    // General and guard take only on points of their own palace, each by its own steps (janggi:
    // both along the palace lines; xiangqi: the general orthogonally, the advisor diagonally).
    // The steps are symmetric, as board_attacked() uses them.
    if (geo->palace_of[to] == (int8_t)by) {
        const Piece guard = piece_make(by, GUARD);
        for (int i = 0; i < geo->guard_step_count[to]; i++)
            if (b->squares[geo->guard_steps[to][i]] == guard)
                push(b, out, &n, geo->guard_steps[to][i]);
        for (int i = 0; i < geo->palace_step_count[to]; i++)
            if (b->squares[geo->palace_steps[to][i]] == piece_make(by, GENERAL))
                push(b, out, &n, geo->palace_steps[to][i]);
    }
    return n;
}

// stm to move on ss->to, where the last capture left us with `balance` (the piece now on `to`
// not yet lost). True when us ends with at least the threshold. Each side may stop: us as soon
// as the balance is enough, the opponent as soon as it is not; and a capture helps the side
// that makes it only if the balance it leaves is on its side of the threshold, so a capture
// that cannot change the answer is never searched.
static bool exchange(SeeSearch *ss, Side stm, int balance) {
    Board *b = ss->b;
    const bool ours = stm == ss->us;
    if (ours ? balance >= ss->threshold : balance < ss->threshold)
        return ours;
    const Piece target = b->squares[ss->to];
    const int after = ours ? balance + piece_value(b, target) : balance - piece_value(b, target);
    if (ours ? after < ss->threshold : after >= ss->threshold)
        return !ours; // even the capture, were the other side to stop, does not turn it
    Square from[SEE_MAX_ATTACKERS];
    const int n = attackers(b, ss->to, stm, from);
    for (int i = 0; i < n; i++) {
        const Piece pc = b->squares[from[i]];
        const bool general = piece_kind(pc) == GENERAL;
        b->squares[ss->to] = pc;
        b->squares[from[i]] = EMPTY;
        if (general)
            b->general[stm] = ss->to;
        // The variant's legality test (an illegal capture is no way out for stm): the general
        // not attacked, nor facing the enemy one under the flying-general rule.
        const bool result = board_general_attacked(b, stm) ? !ours : exchange(ss, !stm, after);
        if (general)
            b->general[stm] = from[i];
        b->squares[from[i]] = pc;
        b->squares[ss->to] = target;
        if (ours ? result : !result)
            return result;
    }
    return !ours;
}

bool see_ge(Board *b, Move m, int threshold) {
    if (move_is_pass(m))
        return 0 >= threshold;
    const Square from = move_from(m), to = move_to(m);
    const Piece pc = b->squares[from], captured = b->squares[to];
    const int gain = captured == EMPTY ? 0 : piece_value(b, captured);
    if (gain < threshold)
        return false; // the opponent may always stop at once
    if (piece_kind(pc) != GENERAL && gain - piece_value(b, pc) >= threshold)
        return true; // we lose at most the mover, and may stop after its loss
    SeeSearch ss = {b, to, b->side, threshold};
    const bool general = piece_kind(pc) == GENERAL;
    if (general)
        b->general[b->side] = to;
    b->squares[to] = pc;
    b->squares[from] = EMPTY;
    bool result = exchange(&ss, !b->side, gain);
    b->squares[from] = pc;
    b->squares[to] = captured;
    if (general)
        b->general[b->side] = from;
    return result;
}

int see_value(Board *b, Move m) {
    // The value lies between -(mover) and +(captured): bisect on see_ge.
    const Square from = move_from(m), to = move_to(m);
    int lo = move_is_pass(m) ? 0 : -piece_value(b, b->squares[from]);
    int hi = move_is_pass(m) || b->squares[to] == EMPTY ? 0 : piece_value(b, b->squares[to]);
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (see_ge(b, m, mid))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}
