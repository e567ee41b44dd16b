// SPDX-License-Identifier: MIT
// Compact sparse storage of evaluation traces for the tuner, in the manner of Ethereal's
// tuner: per position only the terms whose count difference is non-zero, in flat arrays.
//
// The evaluation a position's trace stands for (eval.h, exactly, in integers):
//   E = trunc( sum_i coef_i * (mg_i * phase + eg_i * (phase_max - phase)) / phase_max )
// where coef_i = side * (count[i][CHO] - count[i][HAN]), side = +1 when Cho is to move and
// -1 when Han is: the side to move's view, so no sign is stored per position.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "eval.h"
#include "status.h"

/// TracePos.result of a drawn game (xiangqi): its target is 0.5.
enum { TRACE_DRAW = 2 };

/// The game result of a position as a target value: 1 won, 0 lost, 0.5 drawn.
static inline double trace_result_value(uint8_t result) {
    return result == TRACE_DRAW ? 0.5 : (double)result;
}

/// One non-zero term of one position: flat parameter index and its stm-view count difference.
typedef struct TraceEntry {
    uint16_t index;
    int16_t coef;
} TraceEntry;

/// One position: 16 bytes plus 4 bytes per entry.
typedef struct TracePos {
    uint32_t start; // first entry in TraceStore.entries
    uint16_t count; // number of entries
    uint8_t phase;  // 0 (endgame) .. phase_max (midgame)
    uint8_t result; // 1 when the side to move won the game, 0 when it lost, TRACE_DRAW drawn
    int16_t score;  // stored search score, cp, side to move's view (TRACE_NO_SCORE if none)
    int16_t eval;   // engine evaluation with the starting weights, cp, side to move's view
    float target;   // training target in [0, 1] (trace_store_set_targets)
} TracePos;

enum { TRACE_NO_SCORE = INT16_MIN };

/// Positions and entries of one data set (training or validation).
typedef struct TraceStore {
    int nparams;                  // flat parameters the indices refer to
    int phase_max;                // EVAL_PHASE_MAX for the engine, anything >= 1 for synthetic data
    int danger_begin, danger_end; // flat range of the danger parameters; equal: none
    TracePos *pos;
    size_t npos, pos_cap;
    TraceEntry *entries;
    size_t nentries, entries_cap;
    size_t refused;    // positions refused because the rebuilt eval differed by > 1 cp
    size_t off_by_one; // positions kept whose rebuilt eval differed by exactly 1 cp
} TraceStore;

/// Starts an empty store for nparams flat parameters (at most 65536) and the given phase_max.
void trace_store_init(TraceStore *s, int nparams, int phase_max);

/// Declares the flat parameters [begin, end) danger parameters (eval.h; EvalSpec.danger_begin
/// and danger_end), before any position is added. nparams + 2 * (end - begin) <= 65536.
void trace_store_set_danger(TraceStore *s, int begin, int end);

/// Frees the arrays (NULL accepted) and leaves an empty store (of the same layout).
void trace_store_free(TraceStore *s);

/// Appends a position given its sparse entries (coef != 0, index < nparams, or a danger entry
/// as above, after the linear ones), its phase
/// (0..phase_max), result (0 lost, 1 won, TRACE_DRAW drawn), stored score (cp or TRACE_NO_SCORE)
/// and engine eval (cp). STATUS_RANGE on a bad index or phase, STATUS_NOMEM when memory is short.
Status trace_store_add(TraceStore *s, const TraceEntry *entries, int count, int phase, int result,
                       int score, int eval, ErrorInfo *err);

/// Appends a position from an engine trace (nparams and phase_max those of the variant's
/// EvalSpec). The evaluation is rebuilt from the sparse entries and `weights` (the
/// weights that produced engine_eval); a difference over 1 cp refuses the position
/// (*kept = false, s->refused counts it), as weiss's tuner does.
Status trace_store_add_eval(TraceStore *s, const EvalTrace *trace, Side stm,
                            const EvalWeight *weights, Score engine_eval, int result, int score,
                            bool *kept, ErrorInfo *err);

/// Makes room for npos positions and nentries entries in all (counts, not increments).
Status trace_store_reserve(TraceStore *s, size_t npos, size_t nentries, ErrorInfo *err);

/// The integer evaluation of position i rebuilt from its entries and integer weights, cp,
/// side to move's view, by the formula at the top of this file.
int trace_store_rebuild(const TraceStore *s, size_t i, const EvalWeight *weights);

/// The evaluation of position i from real-valued weights w (w[2k] = mg, w[2k+1] = eg of
/// parameter k), without truncation: the function the optimiser differentiates.
double trace_store_eval(const TraceStore *s, size_t i, const double *w);

/// The flat parameter an entry's index stands for (a danger entry's index is not one).
static inline int trace_entry_param(const TraceStore *s, int index) {
    int nd = s->danger_end - s->danger_begin, j = index - s->nparams;
    return j < 0 ? index : s->danger_begin + (j >= nd ? j - nd : j);
}

/// The danger indices of one position under real weights: [0] the side to move's (its attack
/// on the other general), [1] the other side's.
typedef struct TraceDanger {
    double mg[2], eg[2];
} TraceDanger;

/// The evaluation of position p under real weights w (trace_store_eval), and its danger
/// indices into *dz: the function the optimiser differentiates, inline for its hot loops.
static inline double trace_store_eval_pos(const TraceStore *s, const TracePos *p, const double *w,
                                          TraceDanger *dz) {
    const TraceEntry *e = s->entries + p->start;
    const int np = s->nparams, nd = s->danger_end - s->danger_begin;
    double mg = 0, eg = 0;
    int k = 0;
    for (; k < p->count && e[k].index < np; k++) {
        const double *wi = w + 2 * e[k].index;
        mg += e[k].coef * wi[0];
        eg += e[k].coef * wi[1];
    }
    *dz = (TraceDanger){{0, 0}, {0, 0}};
    for (; k < p->count; k++) {
        int j = e[k].index - np, side = j >= nd;
        const double *wi = w + 2 * (s->danger_begin + j - side * nd);
        dz->mg[side] += e[k].coef * wi[0];
        dz->eg[side] += e[k].coef * wi[1];
    }
    if (nd) {
        mg += eval_danger_real(dz->mg[0]) - eval_danger_real(dz->mg[1]);
        eg += eval_danger_real(dz->eg[0]) - eval_danger_real(dz->eg[1]);
    }
    return (mg * p->phase + eg * (s->phase_max - p->phase)) / s->phase_max;
}

/// Reorders the positions by a seeded Fisher-Yates shuffle (SplitMix64 stream) and copies
/// the entries into the new order, so mini-batches are random and reads stay sequential.
Status trace_store_shuffle(TraceStore *s, uint64_t seed, ErrorInfo *err);

/// The order trace_store_shuffle puts n positions in: order[i] is the old index of the
/// position it moves to i (the same Fisher-Yates swaps applied to 0 .. n-1).
void trace_store_shuffle_order(size_t *order, size_t n, uint64_t seed);

/// Reorders the positions so that new position i is old position order[i] (a permutation of
/// 0 .. npos-1), the entries copied into the new order. STATUS_NOMEM when memory is short.
Status trace_store_permute(TraceStore *s, const size_t *order, ErrorInfo *err);

/// Bytes held per position: (positions + entries) / npos, counting used elements only.
double trace_store_bytes_per_position(const TraceStore *s);

/// Average number of entries per position.
double trace_store_entries_per_position(const TraceStore *s);
