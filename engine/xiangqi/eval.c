// SPDX-License-Identifier: MIT
// Xiangqi's evaluation: one pass over the pieces of both sides that counts every term of
// xiangqi/eval_terms.def and sums the counts with the generated weights of xiangqi/eval_weights.h
// (optionally into a trace). The formula is eval.h's; the terms are the common ones of xiangqi
// engines (material, piece-square tables, mobility, a blocked horse leg, the cannon aimed at the
// general over a screen, the general's missing defenders) with hand-set starting values.
#include "xiangqi/eval_layout.h"

#include <assert.h>
#include <string.h>

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

// Running sums in Red's view, and the trace when one is wanted.
typedef struct Acc {
    int mg, eg;
    EvalTrace *trace;
} Acc;

// Counts n occurrences of flat parameter `param` for side.
static inline void add(Acc *a, int param, Side side, int n) {
    int signed_n = side == CHO ? n : -n;
    a->mg += EVAL_WEIGHTS_DATA[param].mg * signed_n;
    a->eg += EVAL_WEIGHTS_DATA[param].eg * signed_n;
    if (a->trace)
        a->trace->count[param][side] = (int16_t)(a->trace->count[param][side] + n);
}

// Rank of sq as side sees it (0 = own back rank).
static inline int own_rank(Side side, Square sq) {
    return side == CHO ? square_rank(sq) : RANK_NB - 1 - square_rank(sq);
}

// A target point counts for mobility when it is empty or holds an enemy piece.
static inline int target_counts(const Board *b, Square to, Side us) {
    Piece t = b->squares[to];
    return t == EMPTY || piece_side(t) != us;
}

// Chariot: the points up to and including the first piece (if an enemy). Cannon: the empty
// points before its screen, and the enemy piece it would capture over that screen (any kind
// screens and is captured, cannons included: the xiangqi cannon).
static int slider_moves(const Board *b, const Geometry *geo, Square from, Side us, bool cannon) {
    int moves = 0;
    for (int r = 0; r < geo->ray_count[from]; r++) {
        const Ray *ray = &geo->rays[from][r];
        int i = 0;
        for (; i < ray->len && b->squares[ray->sq[i]] == EMPTY; i++)
            moves++;
        if (i == ray->len)
            continue;
        if (!cannon) {
            moves += target_counts(b, ray->sq[i], us);
            continue;
        }
        int j = ray_next_piece(b, ray, i + 1);
        if (j < ray->len && piece_side(b->squares[ray->sq[j]]) != us)
            moves++;
    }
    return moves;
}

// Targets of the stepping pieces; horse legs blocked are counted apart.
static int stepper_moves(const Board *b, const Geometry *geo, Acc *a, Square from, Side us,
                         Kind k) {
    int moves = 0;
    if (k == HORSE) {
        int blocked = 0;
        for (int i = 0; i < geo->horse_count[from]; i++) {
            HorseStep h = geo->horse[from][i];
            if (b->squares[h.leg] != EMPTY)
                blocked++;
            else
                moves += target_counts(b, h.to, us);
        }
        add(a, XQ_EVAL_OFF_HORSE_BLOCKED, us, blocked);
    } else if (k == ELEPHANT) {
        for (int i = 0; i < geo->elephant_count[from]; i++) {
            ElephantStep e = geo->elephant[from][i];
            if (b->squares[e.leg1] == EMPTY && b->squares[e.leg2] == EMPTY)
                moves += target_counts(b, e.to, us);
        }
    } else {
        const uint8_t *steps = k == SOLDIER ? geo->soldier[us][from]
                               : k == GUARD ? geo->guard_steps[from]
                                            : geo->palace_steps[from];
        int n = k == SOLDIER ? geo->soldier_count[us][from]
                : k == GUARD ? geo->guard_step_count[from]
                             : geo->palace_step_count[from];
        for (int i = 0; i < n; i++)
            moves += target_counts(b, steps[i], us);
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

static Score evaluate(const Board *b, EvalTrace *trace) {
    const Geometry *geo = b->geo;
    Acc a = {0, 0, trace};
    for (Side us = CHO; us <= HAN; us++) {
        for (Kind k = GENERAL; k <= SOLDIER; k++) {
            Piece pc = piece_make(us, k);
            for (int i = 0; i < b->count[pc]; i++) {
                Square sq = b->list[pc][i];
                int row = RANK_NB - 1 - own_rank(us, sq);
                add(&a, XQ_EVAL_OFF_MATERIAL + k, us, 1);
                add(&a, XQ_EVAL_OFF_PST + k * SQUARE_NB + row * FILE_NB + square_file(sq), us, 1);
                int moves = k == CHARIOT || k == CANNON ? slider_moves(b, geo, sq, us, k == CANNON)
                                                        : stepper_moves(b, geo, &a, sq, us, k);
                add(&a, XQ_EVAL_OFF_MOBILITY + k, us, moves);
                if (k == CANNON && cannon_aims(b, sq, us))
                    add(&a, XQ_EVAL_OFF_CANNON_SCREEN, us, 1);
            }
        }
        // Without its advisors and elephants the general falls to the enemy's chariots and
        // cannons (the cannon wants screens, the chariot open lines): the pieces count for more
        // than their material while such attackers remain.
        if (board_count(b, !us, CHARIOT) + board_count(b, !us, CANNON) > 0)
            add(&a, XQ_EVAL_OFF_GUARDS_MISSING, us,
                4 - board_count(b, us, GUARD) - board_count(b, us, ELEPHANT));
    }
    add(&a, XQ_EVAL_OFF_TEMPO, b->side, 1);
    int phase = eval_phase(b);
    if (trace)
        trace->phase = phase;
    int t = (int)eval_clamp(eval_taper(a.mg, a.eg, phase, EVAL_PHASE_MAX_DATA));
    return b->side == CHO ? t : -t;
}

static Score evaluate_untraced(const Board *b) { return evaluate(b, NULL); }

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
    .phase_note = "// Not tuned (engine/eval.h): phase weight per kind (none, general, advisor, "
                  "chariot,\n// cannon, horse, elephant, soldier) and the phase of the full "
                  "set.\n",
    .kind_names = VARIANT_XIANGQI.kind_names,
    .weights_sha256 = HANSU_EVAL_WEIGHTS_SHA256,
    .evaluate = evaluate,
    .evaluate_fast = evaluate_untraced,
};
