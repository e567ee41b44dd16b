// SPDX-License-Identifier: MIT
// Janggi's evaluation (janggi/eval.c): its term list janggi/eval_terms.def expanded into term
// ids and the flat layout, its weights (janggi/eval_weights.h, generated) and its EvalSpec, on
// the formula of engine/eval.h. Read through VARIANT_JANGGI.eval by the engine; the names here
// are for janggi's own tests and the tuner's benchmark.
//
// Symmetry: every term is counted the same way for both sides on a board mirrored top-bottom,
// so the mirrored position (colours and side to move swapped) scores the same from the other
// side, except POINTS_LATE, the one term that models Han's 1.5-point bonus (its counts are the
// rules' half points, bonus included). POINTS_LATE is zero until ply 160 (EVAL_POINTS_WINDOW
// plies before the 200-ply limit) and depends on the game ply, so the search does not cache
// evaluations there (EvalSpec.points_window).
#pragma once

#include "eval.h"

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

/// Janggi's phase weight of each kind (KIND_NB entries, index Kind), the phase of the full set,
/// and the plies before the 200-ply limit at which POINTS_LATE starts to count. Part of the
/// formula and not tuned; like every evaluation number they come from the weights header
/// (EVAL_PHASE_WEIGHT_DATA, EVAL_PHASE_MAX_DATA, EVAL_POINTS_WINDOW_DATA), which the printer
/// copies from the header it was built with. EVAL_SPEC_JANGGI holds the same.
extern const int *const EVAL_PHASE_WEIGHT;
extern const int EVAL_PHASE_MAX;
extern const int EVAL_POINTS_WINDOW;

/// Janggi's term list, EVAL_TERM_NB entries in list order.
extern const EvalTermInfo EVAL_TERMS[EVAL_TERM_NB];

/// Janggi's compiled-in weights as a flat vector of EVAL_PARAM_NB elements (layout above).
extern const EvalWeight *const EVAL_WEIGHTS_FLAT;

/// Janggi's evaluation: VARIANT_JANGGI.eval.
extern const EvalSpec EVAL_SPEC_JANGGI;
