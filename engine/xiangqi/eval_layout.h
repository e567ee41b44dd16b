// SPDX-License-Identifier: MIT
// Xiangqi's evaluation (xiangqi/eval.c): its term list xiangqi/eval_terms.def expanded into term
// ids and the flat layout (prefix XQ_EVAL_), on the formula of engine/eval.h, with its own terms
// and phase weights and no POINTS_LATE (no point rule, no ply limit). Read through
// VARIANT_XIANGQI.eval by the engine; the names here are for xiangqi's own tests.
#pragma once

#include "eval.h"

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

/// Xiangqi's evaluation: VARIANT_XIANGQI.eval.
extern const EvalSpec EVAL_SPEC_XIANGQI;
