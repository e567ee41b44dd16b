// SPDX-License-Identifier: MIT
// Xiangqi's evaluation: one pass over the pieces of both sides that counts every term of
// xiangqi/eval_terms.def and sums the counts with the generated weights of xiangqi/eval_weights.h
// (optionally into a trace). The formula is eval.h's; the terms are the common ones of xiangqi
// engines (material, piece-square tables, mobility, a blocked horse leg, the cannon aimed at the
// general over a screen, the general's missing defenders), then hanging pieces and the danger
// index against each general (attacks.h, the same account as janggi's with xiangqi's cannon).
#include "xiangqi/eval_layout.h"

#include <assert.h>
#include <string.h>

#include "attacks.h"
#include "board.h"
#include "geometry.h"
#include "variant.h"

// The weights header: engine/xiangqi/eval_weights.h, or the one named by
// -DHANSU_XIANGQI_EVAL_WEIGHTS (engine/CMakeLists.txt).
#define S(mg, eg)                                                                                  \
    { (mg), (eg) }
#ifdef HANSU_EVAL_WEIGHTS_FILE
#include HANSU_EVAL_WEIGHTS_FILE
#else
#include "xiangqi/eval_weights.h"
#endif
#undef S

_Static_assert(sizeof EVAL_WEIGHTS_DATA / sizeof EVAL_WEIGHTS_DATA[0] == XQ_EVAL_PARAM_NB,
               "xiangqi/eval_weights.h does not match xiangqi/eval_terms.def");
_Static_assert((int)XQ_EVAL_PARAM_NB <= (int)EVAL_PARAM_MAX,
               "xiangqi's layout is larger than a trace");

// The SHA-256 of the weights header, set by engine/CMakeLists.txt.
#ifndef HANSU_EVAL_WEIGHTS_SHA256
#define HANSU_EVAL_WEIGHTS_SHA256 "none"
#endif

// Counts n occurrences of flat parameter `param` for side (eval.h).
static inline void add(EvalAcc *a, int param, Side side, int n) {
    eval_acc_add(a, EVAL_WEIGHTS_DATA, param, side, n, false);
}

// Counts n occurrences of the danger parameter `param` for side (its attack on the enemy
// general): into the side's danger index, squared at the end (eval.h).
static inline void add_danger(EvalAcc *a, int param, Side side, int n) {
    assert(param >= XQ_EVAL_OFF_DANGER_ATTACKER);
    eval_acc_add(a, EVAL_WEIGHTS_DATA, param, side, n, true);
}

_Static_assert(XQ_EVAL_OFF_DANGER_OFFSET + 1 == XQ_EVAL_PARAM_NB &&
                   XQ_EVAL_OFF_DANGER_ATTACKER == XQ_EVAL_END_HANGING + 1,
               "the danger terms form one block at the end of xiangqi/eval_terms.def");

// Rank of sq as side sees it (0 = own back rank).
static inline int own_rank(Side side, Square sq) {
    return side == CHO ? square_rank(sq) : RANK_NB - 1 - square_rank(sq);
}

// A cannon's moves: the empty points before its screen on each line, and the enemy piece it
// would capture over that screen (any kind screens and is captured, cannons included: the
// xiangqi cannon). The other kinds' moves are their attacks on empty or enemy points (attacks.h).
static int cannon_moves(const Board *b, const Geometry *geo, Square from, Side us) {
    int moves = 0;
    for (int r = 0; r < geo->ray_count[from]; r++) {
        const Ray *ray = &geo->rays[from][r];
        int i = 0;
        for (; i < ray->len && b->squares[ray->sq[i]] == EMPTY; i++)
            moves++;
        if (i == ray->len)
            continue;
        int j = ray_next_piece(b, ray, i + 1);
        if (j < ray->len && piece_side(b->squares[ray->sq[j]]) != us)
            moves++;
    }
    return moves;
}

// A cannon on the enemy general's file with at least one piece between them: it pins that
// screen, or gives check the moment a second piece steps in.
static bool cannon_aims(const Board *b, Square sq, Side us) {
    Square g = b->general[!us];
    if (square_file(g) != square_file(sq))
        return false;
    int step = g > sq ? FILE_NB : -FILE_NB;
    for (Square s = sq + step; s != g; s += step)
        if (b->squares[s] != EMPTY)
            return true;
    return false;
}

static int eval_phase(const Board *b) {
    int phase = 0;
    for (Kind k = GENERAL; k <= SOLDIER; k++)
        phase += EVAL_PHASE_WEIGHT_DATA[k] * (board_count(b, CHO, k) + board_count(b, HAN, k));
    return phase < EVAL_PHASE_MAX_DATA ? phase : EVAL_PHASE_MAX_DATA;
}

// Point values for "attacked by a cheaper piece": advisor 2, chariot 9, cannon 4.5 (5 here),
// horse 4, elephant 2, soldier 1, the general above all.
static const uint8_t KIND_VALUE[KIND_NB] = {0, 100, 2, 9, 5, 4, 2, 1};

// The danger terms that need both sides' attacks, and the hanging pieces (attacks.h; the
// attackers and ring attacks were counted piece by piece).
static void eval_safety(const Board *b, const Geometry *geo, const Maps *m, EvalAcc *a) {
    const SafetyLayout layout = {.hanging = XQ_EVAL_OFF_HANGING,
                                 .weak_ring = XQ_EVAL_OFF_DANGER_WEAK_RING,
                                 .safe_check = XQ_EVAL_OFF_DANGER_SAFE_CHECK,
                                 .unsafe_check = XQ_EVAL_OFF_DANGER_UNSAFE_CHECK,
                                 .pinned = XQ_EVAL_OFF_DANGER_PINNED,
                                 .offset = XQ_EVAL_OFF_DANGER_OFFSET};
    attacks_eval_safety(b, geo, m, a, EVAL_WEIGHTS_DATA, layout, CANNON_XIANGQI, KIND_VALUE);
}

// The pieces of side us and kind k: material, PST, moves, the blocked horse legs, the aimed
// cannons, and their attacks into the maps and on the enemy general's ring (the danger index).
static inline __attribute__((always_inline)) void eval_kind(const Board *b, const Geometry *geo,
                                                            Maps *m, EvalAcc *a, Side us, Kind k) {
    Piece pc = piece_make(us, k);
    Points occupied = m->occupied[CHO] | m->occupied[HAN];
    int moves = 0, blocked = 0, aims = 0, ring = 0, attackers = 0;
    for (int i = 0; i < b->count[pc]; i++) {
        Square sq = b->list[pc][i];
        int row = RANK_NB - 1 - own_rank(us, sq);
        add(a, XQ_EVAL_OFF_PST + k * SQUARE_NB + row * FILE_NB + square_file(sq), us, 1);
        Reach r = piece_reach(b, geo, occupied, sq, us, k, CANNON_XIANGQI);
        moves +=
            k == CANNON ? cannon_moves(b, geo, sq, us) : points_count(r.attacks & ~m->occupied[us]);
        blocked += r.blocked;
        aims += k == CANNON && cannon_aims(b, sq, us);
        int hits = maps_add(m, us, k, r.attacks);
        ring += hits;
        attackers += hits > 0;
    }
    add(a, XQ_EVAL_OFF_MATERIAL + k, us, b->count[pc]);
    add(a, XQ_EVAL_OFF_MOBILITY + k, us, moves);
    if (k == HORSE)
        add(a, XQ_EVAL_OFF_HORSE_BLOCKED, us, blocked);
    else if (k == CANNON)
        add(a, XQ_EVAL_OFF_CANNON_SCREEN, us, aims);
    add_danger(a, XQ_EVAL_OFF_DANGER_ATTACKER + k, us, attackers);
    add_danger(a, XQ_EVAL_OFF_DANGER_RING_ATTACK, us, ring);
}

// The evaluation (eval.h's formula); written once, inlined into the two callers below so that
// the search's copy, with no trace, drops every trace test.
static inline __attribute__((always_inline)) Score evaluate_terms(const Board *b,
                                                                  EvalTrace *trace) {
    const Geometry *geo = b->geo;
    EvalAcc a = {.trace = trace};
    Maps m;
    maps_init(b, geo, &m);
    for (Side us = CHO; us <= HAN; us++) {
        for (Kind k = GENERAL; k <= SOLDIER; k++)
            eval_kind(b, geo, &m, &a, us, k);
        // Without its advisors and elephants the general falls to the enemy's chariots and
        // cannons (the cannon wants screens, the chariot open lines): the pieces count for more
        // than their material while such attackers remain.
        if (board_count(b, !us, CHARIOT) + board_count(b, !us, CANNON) > 0)
            add(&a, XQ_EVAL_OFF_GUARDS_MISSING, us,
                4 - board_count(b, us, GUARD) - board_count(b, us, ELEPHANT));
    }
    eval_safety(b, geo, &m, &a);
    add(&a, XQ_EVAL_OFF_TEMPO, b->side, 1);
    int phase = eval_phase(b);
    if (trace)
        trace->phase = phase;
    int t = (int)eval_clamp(eval_taper(a.mg, a.eg, phase, EVAL_PHASE_MAX_DATA));
    return b->side == CHO ? t : -t;
}

static Score evaluate(const Board *b, EvalTrace *trace) { return evaluate_terms(b, trace); }

static Score evaluate_untraced(const Board *b) { return evaluate_terms(b, NULL); }

static const EvalTermInfo XQ_TERMS[XQ_EVAL_TERM_NB] = {
#define EVAL_TERM(ID, name, SHAPE, meaning)                                                        \
    {#ID, #name, EVAL_SHAPE_##SHAPE, XQ_EVAL_OFF_##ID, EVAL_SHAPE_##SHAPE##_N, meaning},
#include "xiangqi/eval_terms.def"
#undef EVAL_TERM
};

const EvalSpec EVAL_SPEC_XIANGQI = {
    .variant = "xiangqi",
    .terms_file = "engine/xiangqi/eval_terms.def",
    .weights_file = "engine/xiangqi/eval_weights.h",
    .terms = XQ_TERMS,
    .term_count = XQ_EVAL_TERM_NB,
    .param_count = XQ_EVAL_PARAM_NB,
    .weights = EVAL_WEIGHTS_DATA,
    .phase_weight = EVAL_PHASE_WEIGHT_DATA,
    .phase_max = EVAL_PHASE_MAX_DATA,
    .points_window = 0,
    .danger_begin = XQ_EVAL_OFF_DANGER_ATTACKER,
    .danger_end = XQ_EVAL_PARAM_NB,
    .phase_note = "// Not tuned (engine/eval.h): phase weight per kind (none, general, advisor, "
                  "chariot,\n// cannon, horse, elephant, soldier) and the phase of the full "
                  "set.\n",
    .kind_names = VARIANT_XIANGQI.kind_names,
    .weights_sha256 = HANSU_EVAL_WEIGHTS_SHA256,
    .evaluate = evaluate,
    .evaluate_fast = evaluate_untraced,
};
