// SPDX-License-Identifier: MIT
// Static exchange evaluation (see.h): a small boolean minimax over the captures on one point,
// the attackers found again on the changed board after every capture.
#include "see.h"

#include <assert.h>

#include "board.h"
#include "variant.h"

enum { SEE_MAX_ATTACKERS = 24 };

typedef struct SeeSearch {
    Board *b;
    Square to;
    Side us;       // the side that played the first move
    int threshold; // what us must keep, in half points
    Square general[SIDE_NB];
} SeeSearch;

static int piece_value(const Board *b, Piece pc) { return b->variant->points_half[piece_kind(pc)]; }

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
        if (!cannon_may_jump(first) || !cannon_may_capture(target))
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
    // General and guard take only on points of their own palace, along its lines.
    if (geo->palace_of[to] == (int8_t)by)
        for (int i = 0; i < geo->palace_step_count[to]; i++) {
            Square from = geo->palace_steps[to][i];
            Piece pc = b->squares[from];
            if (pc != EMPTY && piece_side(pc) == by &&
                (piece_kind(pc) == GENERAL || piece_kind(pc) == GUARD))
                push(b, out, &n, from);
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
        const Square g = general ? ss->to : ss->general[stm];
        bool result = !ours; // an illegal capture is no way out for stm
        if (!board_attacked(b, g, !stm)) {
            ss->general[stm] = g;
            result = exchange(ss, !stm, after);
            ss->general[stm] = general ? from[i] : g;
        }
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
    SeeSearch ss = {b, to, b->side, threshold, {b->general[CHO], b->general[HAN]}};
    if (piece_kind(pc) == GENERAL)
        ss.general[b->side] = to;
    b->squares[to] = pc;
    b->squares[from] = EMPTY;
    bool result = exchange(&ss, !b->side, gain);
    b->squares[from] = pc;
    b->squares[to] = captured;
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
