// SPDX-License-Identifier: MIT
// Static evaluation: a tapered linear sum over the terms of a variant's eval_terms.def, weights
// from its generated header eval_weights.h (janggi: engine/janggi/, xiangqi: engine/xiangqi/).
// The variant's EvalSpec (Variant.eval) names its term list, layout, weights and phase numbers;
// the printer, the trace and the tuner read a spec, never a variant's name.
//
// The formula, exactly (integer arithmetic, the tuner reproduces it from a trace):
//   d_mg = sum_i w_mg[i] * (count[i][CHO] - count[i][HAN])
//   d_eg = sum_i w_eg[i] * (count[i][CHO] - count[i][HAN])
//   t    = (d_mg * phase + d_eg * (EVAL_PHASE_MAX - phase)) / EVAL_PHASE_MAX
//          (C division: truncated toward zero)
//   eval = t from Cho's view; the side to move's view is t for Cho, -t for Han.
// Danger terms (shapes DANGER and DANGER_KIND, one contiguous block of the layout,
// EvalSpec.danger_begin .. danger_end) do not enter d_mg and d_eg linearly: per side s they sum
// into a danger index against the enemy general, and its square is added instead:
//   D_mg[s] = sum_{i danger} w_mg[i] * count[i][s]        (D_eg[s] alike with w_eg)
//   d_mg   += eval_danger(D_mg[CHO]) - eval_danger(D_mg[HAN])   (d_eg alike)
//   eval_danger(x) = max(x, 0)^2 / EVAL_DANGER_DIV          (C division, 64-bit)
// so attackers, weak points and checks that come together weigh more than each alone, and the
// penalty has the same shape in the endgame as in the midgame (its fade is the eg weights').
// phase = min(EVAL_PHASE_MAX, sum over pieces of EVAL_PHASE_WEIGHT[kind]): EVAL_PHASE_MAX at
// the start (midgame), 0 with no chariot, cannon, horse or elephant left (endgame).
// The result is clamped to +-EVAL_SCORE_MAX (eval_clamp), far below SCORE_DECISIVE.
//
// The janggi evaluation is described below; xiangqi's (xiangqi/eval.c) uses the same formula
// with its own terms and phase weights, and has no POINTS_LATE (no point rule, no ply limit).
//
// Symmetry: every term is counted the same way for both sides on a board mirrored top-bottom,
// so the mirrored position (colours and side to move swapped) scores the same from the other
// side, except POINTS_LATE, the one term that models Han's 1.5-point bonus (its counts are the
// rules' half points, bonus included). POINTS_LATE is zero until ply 160 (EVAL_POINTS_WINDOW
// plies before the 200-ply limit) and depends on the game ply, so the search does not cache
// evaluations there.
#pragma once

#include <stdint.h>

#include "types.h"

/// One weight: midgame and endgame value, centipawns.
typedef struct EvalWeight {
    int mg, eg;
} EvalWeight;

// Shapes of the term list (eval_terms.def) and their sizes.
enum {
    EVAL_SHAPE_SCALAR_N = 1,
    EVAL_SHAPE_KIND_N = KIND_NB,
    EVAL_SHAPE_PST_N = KIND_NB * SQUARE_NB
};
enum { EVAL_SHAPE_DANGER_N = 1, EVAL_SHAPE_DANGER_KIND_N = KIND_NB };
typedef enum {
    EVAL_SHAPE_SCALAR,
    EVAL_SHAPE_KIND,
    EVAL_SHAPE_PST,
    EVAL_SHAPE_DANGER,     // like SCALAR, summed into the danger index (see the formula)
    EVAL_SHAPE_DANGER_KIND // like KIND, summed into the danger index
} EvalShape;

/// Divisor of the squared danger index (formula above): an index of 320 costs 100 cp.
enum { EVAL_DANGER_DIV = 1024 };

/// The danger penalty of the formula above, in integers, the one place it is written.
static inline int64_t eval_danger(int64_t x) { return x > 0 ? x * x / EVAL_DANGER_DIV : 0; }

/// The same in real numbers (no truncation), for the tuner.
static inline double eval_danger_real(double x) { return x > 0 ? x * x / EVAL_DANGER_DIV : 0; }

/// d eval_danger_real(x) / dx, for the tuner's chain rule.
static inline double eval_danger_slope(double x) { return x > 0 ? 2 * x / EVAL_DANGER_DIV : 0; }

// Term ids, in list order.
typedef enum {
#define EVAL_TERM(ID, name, SHAPE, meaning) EVAL_TERM_##ID,
#include "janggi/eval_terms.def"
#undef EVAL_TERM
    EVAL_TERM_NB
} EvalTerm;

// Flat parameter layout: EVAL_OFF_<ID> is the first element of a term, EVAL_PARAM_NB the total.
enum {
    EVAL_OFF_START_ = -1,
#define EVAL_TERM(ID, name, SHAPE, meaning)                                                        \
    EVAL_OFF_##ID, EVAL_END_##ID = EVAL_OFF_##ID + EVAL_SHAPE_##SHAPE##_N - 1,
#include "janggi/eval_terms.def"
#undef EVAL_TERM
    EVAL_PARAM_NB
};

// Xiangqi's layout (xiangqi/eval_terms.def), the same expansion with the prefix XQ_EVAL_.
typedef enum {
#define EVAL_TERM(ID, name, SHAPE, meaning) XQ_EVAL_TERM_##ID,
#include "xiangqi/eval_terms.def"
#undef EVAL_TERM
    XQ_EVAL_TERM_NB
} XqEvalTerm;

enum {
    XQ_EVAL_OFF_START_ = -1,
#define EVAL_TERM(ID, name, SHAPE, meaning)                                                        \
    XQ_EVAL_OFF_##ID, XQ_EVAL_END_##ID = XQ_EVAL_OFF_##ID + EVAL_SHAPE_##SHAPE##_N - 1,
#include "xiangqi/eval_terms.def"
#undef EVAL_TERM
    XQ_EVAL_PARAM_NB
};

/// The largest layout of any variant: the size of a trace.
enum {
    EVAL_PARAM_MAX =
        (int)EVAL_PARAM_NB > (int)XQ_EVAL_PARAM_NB ? (int)EVAL_PARAM_NB : (int)XQ_EVAL_PARAM_NB
};

/// Janggi's numbers under their first names (EVAL_TERMS, EVAL_WEIGHTS_FLAT and the phase below
/// are janggi's; EVAL_SPEC_JANGGI holds the same). Phase weight of each kind (KIND_NB entries,
/// index Kind), the phase of the full set, and the plies before the 200-ply limit at which
/// POINTS_LATE starts to count. Part of the formula above and not tuned; like every evaluation
/// number they come from the weights header (EVAL_PHASE_WEIGHT_DATA, EVAL_PHASE_MAX_DATA,
/// EVAL_POINTS_WINDOW_DATA), which the printer copies from the header it was built with.
extern const int *const EVAL_PHASE_WEIGHT;
extern const int EVAL_PHASE_MAX;
extern const int EVAL_POINTS_WINDOW;

/// The taper of the formula above, the one place it is written (the tuner's rebuild uses it
/// too): (mg * phase + eg * (phase_max - phase)) / phase_max, C division, 64-bit products.
static inline int64_t eval_taper(int64_t mg, int64_t eg, int phase, int phase_max) {
    return (mg * phase + eg * (phase_max - phase)) / phase_max;
}

/// Bound of the static evaluation, centipawns: eval_evaluate() returns the formula's value
/// clamped to [-EVAL_SCORE_MAX, EVAL_SCORE_MAX], far below the search's decided scores
/// (SCORE_DECISIVE) and inside the TT's and the trace store's 16 bits. Only POINTS_LATE reaches
/// it (a large point lead a few plies before the move limit, with tuned weights), where the
/// game is all but decided: the tuner's sigmoid is flat there, so it fits the unclamped linear
/// formula; its parity check compares after this clamp.
enum { EVAL_SCORE_MAX = 20000 };

/// The clamp above, the one place it is written.
static inline int64_t eval_clamp(int64_t v) {
    return v > EVAL_SCORE_MAX ? EVAL_SCORE_MAX : v < -EVAL_SCORE_MAX ? -EVAL_SCORE_MAX : v;
}

/// The same taper in real numbers (no truncation), for the tuner's gradient.
static inline double eval_taper_real(double mg, double eg, int phase, int phase_max) {
    return (mg * phase + eg * (phase_max - phase)) / phase_max;
}

/// Description of one term of the list, for the tuner and the header printer.
typedef struct EvalTermInfo {
    const char *id;   // "MATERIAL"
    const char *name; // "material"
    EvalShape shape;
    int offset, size; // first flat index and number of elements
    const char *meaning;
} EvalTermInfo;

/// Janggi's term list, EVAL_TERM_NB entries in list order.
extern const EvalTermInfo EVAL_TERMS[EVAL_TERM_NB];

/// Janggi's compiled-in weights as a flat vector of EVAL_PARAM_NB elements (layout above).
extern const EvalWeight *const EVAL_WEIGHTS_FLAT;

/// What one evaluation counted: count[i][side] for each flat parameter i of the variant's
/// layout (EvalSpec.param_count of EVAL_PARAM_MAX used), plus the phase.
typedef struct EvalTrace {
    int phase;
    int16_t count[EVAL_PARAM_MAX][SIDE_NB];
} EvalTrace;

/// One variant's evaluation: its term list and layout, compiled-in weights, the untuned numbers
/// of the formula, and where its files live. Reached by Variant.eval.
typedef struct EvalSpec {
    const char *variant;           // "janggi", "xiangqi" (Variant.name)
    const char *terms_file;        // "engine/janggi/eval_terms.def", for the header's banner
    const char *weights_file;      // "engine/janggi/eval_weights.h", the tuner's default output
    const EvalTermInfo *terms;     // term_count entries in list order
    int term_count, param_count;   // param_count <= EVAL_PARAM_MAX
    const EvalWeight *weights;     // compiled-in, param_count entries
    const int *phase_weight;       // KIND_NB entries
    int phase_max;                 // phase of the full set
    int points_window;             // janggi's EVAL_POINTS_WINDOW; 0 where no term counts plies
    int danger_begin, danger_end;  // flat range of the danger terms (formula); equal: none
    const char *phase_note;        // the header's comment over the untuned numbers
    const char *const *kind_names; // kinds as the header names them (the variant's)
    // Evaluates b (side to move's view, cp); fills *trace (already cleared) when not NULL.
    Score (*evaluate)(const Board *b, EvalTrace *trace);
} EvalSpec;

/// Janggi's (eval.c) and xiangqi's (xiangqi/eval.c) evaluations.
extern const EvalSpec EVAL_SPEC_JANGGI;
extern const EvalSpec EVAL_SPEC_XIANGQI;

/// The evaluation of the variant called name, NULL if unknown.
const EvalSpec *eval_spec_find(const char *name);

/// Evaluation of b in centipawns from the side to move's view, by its variant's spec (janggi's
/// called directly, the others through EvalSpec.evaluate). Does not judge the game end.
Score eval_evaluate(const Board *b);

/// Like eval_evaluate(), and fills *trace (cleared first) with every count and the phase.
Score eval_trace(const Board *b, EvalTrace *trace);

/// Rebuilds the evaluation (side to move's view, cp) from a trace and a flat weight vector of
/// spec's layout by the formula above, clamped as the engine is (eval_clamp). eval_rebuild(spec, t,
/// spec->weights, side) == eval_trace(b, t) for a board b of spec's variant.
Score eval_rebuild(const EvalSpec *spec, const EvalTrace *trace, const EvalWeight *weights,
                   Side side_to_move);
