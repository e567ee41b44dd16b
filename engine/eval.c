// SPDX-License-Identifier: MIT
// What every variant's evaluation shares (eval.h): the spec's entry points and the rebuild of
// an evaluation from a trace. Each variant's terms are in its folder (janggi/eval.c,
// xiangqi/eval.c).
#include "eval.h"

#include <string.h>

#include "board.h"
#include "variant.h"

const EvalSpec *eval_spec_find(const char *name) {
    const Variant *v = variant_find(name);
    return v ? v->eval : NULL;
}

Score eval_evaluate(const Board *b) { return b->variant->eval->evaluate_fast(b); }

Score eval_ply_term(const Board *b) {
    return b->variant->eval->ply_term ? b->variant->eval->ply_term(b) : 0;
}

Score eval_trace(const Board *b, EvalTrace *trace) {
    memset(trace, 0, sizeof *trace);
    return b->variant->eval->evaluate(b, trace);
}

Score eval_rebuild(const EvalSpec *spec, const EvalTrace *trace, const EvalWeight *weights,
                   Side side_to_move) {
    int64_t mg = 0, eg = 0, danger_mg[SIDE_NB] = {0}, danger_eg[SIDE_NB] = {0};
    for (int i = 0; i < spec->param_count; i++) {
        if (i >= spec->danger_begin && i < spec->danger_end) {
            for (Side s = CHO; s <= HAN; s++) {
                danger_mg[s] += weights[i].mg * trace->count[i][s];
                danger_eg[s] += weights[i].eg * trace->count[i][s];
            }
            continue;
        }
        int d = trace->count[i][CHO] - trace->count[i][HAN];
        mg += weights[i].mg * d;
        eg += weights[i].eg * d;
    }
    mg += eval_danger(danger_mg[CHO]) - eval_danger(danger_mg[HAN]);
    eg += eval_danger(danger_eg[CHO]) - eval_danger(danger_eg[HAN]);
    int t = (int)eval_clamp(eval_taper(mg, eg, trace->phase, spec->phase_max));
    return side_to_move == CHO ? t : -t;
}
