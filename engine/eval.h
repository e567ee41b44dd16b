// SPDX-License-Identifier: MIT
// Static evaluation: a tapered linear sum over the terms of a variant's eval_terms.def, weights
// from its generated header eval_weights.h (janggi: engine/janggi/, xiangqi: engine/xiangqi/).
// The variant's EvalSpec (Variant.eval) names its term list, layout, weights and phase numbers;
// the printer, the trace and the tuner read a spec, never a variant's name.
//
// The formula, exactly (integer arithmetic, the tuner reproduces it from a trace):
//   d_mg = sum_i w_mg[i] * (count[i][CHO] - count[i][HAN])
//   d_eg = sum_i w_eg[i] * (count[i][CHO] - count[i][HAN])
//   t    = (d_mg * phase + d_eg * (phase_max - phase)) / phase_max
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
// phase = min(phase_max, sum over pieces of phase_weight[kind]) (the variant's EvalSpec): phase_max
// at the start (midgame), 0 with no chariot, cannon, horse or elephant left (endgame). The result
// is clamped to +-EVAL_SCORE_MAX (eval_clamp), far below SCORE_DECISIVE.
//
// Each variant's evaluation lives in its folder (engine/<variant>/eval.c, eval.h, eval_terms.def,
// eval_weights.h) and is reached through its EvalSpec (Variant.eval); this file holds what every
// variant shares: the shapes, the formula's pieces (taper, danger, clamp), the trace, the spec.
// Janggi's terms and their symmetry are described in janggi/eval_layout.h, xiangqi's in
// xiangqi/eval_layout.h.
#pragma once

#include <stdbool.h>
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

/// The most flat parameters a variant's layout may have: the size of a trace. Each variant
/// asserts that its own layout fits.
enum { EVAL_PARAM_MAX = 1024 };

/// The taper of the formula above, the one place it is written (the tuner's rebuild uses it
/// too): (mg * phase + eg * (phase_max - phase)) / phase_max, C division, 64-bit products.
static inline int64_t eval_taper(int64_t mg, int64_t eg, int phase, int phase_max) {
    return (mg * phase + eg * (phase_max - phase)) / phase_max;
}

/// Bound of the static evaluation, centipawns: eval_evaluate() returns the formula's value
/// clamped to [-EVAL_SCORE_MAX, EVAL_SCORE_MAX], far below the search's decided scores
/// (SCORE_DECISIVE) and inside the TT's and the trace store's 16 bits. Only janggi's POINTS_LATE
/// reaches it (a large point lead a few plies before the move limit, with tuned weights), where the
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

/// What one evaluation counted: count[i][side] for each flat parameter i of the variant's
/// layout (EvalSpec.param_count of EVAL_PARAM_MAX used), plus the phase.
typedef struct EvalTrace {
    int phase;
    int16_t count[EVAL_PARAM_MAX][SIDE_NB];
} EvalTrace;

/// The running sums of an evaluation: d_mg and d_eg of the formula in Cho's view, each side's
/// danger index D_mg and D_eg, and the trace when one is wanted (NULL: the search's copy).
typedef struct EvalAcc {
    int mg, eg;
    int danger_mg[SIDE_NB], danger_eg[SIDE_NB];
    EvalTrace *trace;
} EvalAcc;

/// Counts n occurrences of flat parameter param (weights w, the variant's) for side: a linear
/// term, or with danger into side's danger index against the enemy general.
static inline void eval_acc_add(EvalAcc *a, const EvalWeight *w, int param, Side side, int n,
                                bool danger) {
    if (danger) {
        a->danger_mg[side] += w[param].mg * n;
        a->danger_eg[side] += w[param].eg * n;
    } else {
        int signed_n = side == CHO ? n : -n;
        a->mg += w[param].mg * signed_n;
        a->eg += w[param].eg * signed_n;
    }
    if (a->trace)
        a->trace->count[param][side] = (int16_t)(a->trace->count[param][side] + n);
}

/// Adds both sides' squared danger indices to d_mg and d_eg (the formula's danger part), once
/// every danger term is counted.
static inline void eval_acc_danger(EvalAcc *a) {
    a->mg += (int)(eval_danger(a->danger_mg[CHO]) - eval_danger(a->danger_mg[HAN]));
    a->eg += (int)(eval_danger(a->danger_eg[CHO]) - eval_danger(a->danger_eg[HAN]));
}

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
    const char *rule_terms;        // terms whose weights the rules fix, comma-separated, never
                                   // fitted (hansu-tune freezes them); NULL: none
    int danger_begin, danger_end;  // flat range of the danger terms (formula); equal: none
    const char *phase_note;        // the header's comment over the untuned numbers
    const char *const *kind_names; // kinds as the header names them (the variant's)
    const char *weights_sha256;    // SHA-256 of the weights header compiled in (hex), or "none":
                                   // set by engine/CMakeLists.txt, recorded by self-play
    // Evaluates b (side to move's view, cp); fills *trace (already cleared) when not NULL.
    Score (*evaluate)(const Board *b, EvalTrace *trace);
    // The same without a trace: the search's hot path (a copy compiled without trace tests).
    Score (*evaluate_fast)(const Board *b);
    // The part of evaluate that depends on the game's ply (janggi: the points near the move
    // limit), side to move's view; NULL where none. A net sees no ply: the search adds this.
    Score (*ply_term)(const Board *b);
} EvalSpec;

/// The evaluation of the variant called name, NULL if unknown.
const EvalSpec *eval_spec_find(const char *name);

/// The ply-dependent part of b's evaluation (EvalSpec.ply_term), centipawns, side to move's
/// view; 0 where the variant has none or b is outside its window (EvalSpec.points_window).
Score eval_ply_term(const Board *b);

/// Evaluation of b in centipawns from the side to move's view, by its variant's spec
/// (EvalSpec.evaluate_fast). Does not judge the game end.
Score eval_evaluate(const Board *b);

/// Like eval_evaluate(), and fills *trace (cleared first) with every count and the phase.
Score eval_trace(const Board *b, EvalTrace *trace);

/// Rebuilds the evaluation (side to move's view, cp) from a trace and a flat weight vector of
/// spec's layout by the formula above, clamped as the engine is (eval_clamp). eval_rebuild(spec, t,
/// spec->weights, side) == eval_trace(b, t) for a board b of spec's variant.
Score eval_rebuild(const EvalSpec *spec, const EvalTrace *trace, const EvalWeight *weights,
                   Side side_to_move);
