// SPDX-License-Identifier: MIT
// Sparse trace storage: append, integer rebuild (the parity check), shuffle, memory figures.
#include "trace_store.h"
#include "prng.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void trace_store_init(TraceStore *s, int nparams, int phase_max) {
    memset(s, 0, sizeof *s);
    s->nparams = nparams;
    s->phase_max = phase_max;
}

void trace_store_set_danger(TraceStore *s, int begin, int end) {
    s->danger_begin = begin;
    s->danger_end = end;
}

void trace_store_free(TraceStore *s) {
    if (!s)
        return;
    free(s->pos);
    free(s->entries);
    int begin = s->danger_begin, end = s->danger_end;
    trace_store_init(s, s->nparams, s->phase_max);
    trace_store_set_danger(s, begin, end);
}

// Large arrays go on transparent huge pages where the kernel offers them (madvise mode):
// filling 150 MB of traces on 4 KiB pages costs some 40,000 page faults.
enum { HUGE_PAGE = 2 << 20 };

static void *big_alloc(size_t bytes) {
    if (bytes < HUGE_PAGE)
        return malloc(bytes);
    size_t rounded = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    void *p = aligned_alloc(HUGE_PAGE, rounded);
#ifdef MADV_HUGEPAGE
    if (p)
        madvise(p, rounded, MADV_HUGEPAGE);
#endif
    return p;
}

// Grows an array geometrically so appends cost amortised O(1); keeps the first `used`.
static bool grow(void **array, size_t *cap, size_t used, size_t need, size_t elem) {
    if (need <= *cap)
        return true;
    size_t n = *cap ? *cap : 1024;
    while (n < need)
        n *= 2;
    void *p = big_alloc(n * elem);
    if (!p)
        return false;
    if (used)
        memcpy(p, *array, used * elem);
    free(*array);
    *array = p;
    *cap = n;
    return true;
}

Status trace_store_reserve(TraceStore *s, size_t npos, size_t nentries, ErrorInfo *err) {
    if (!grow((void **)&s->pos, &s->pos_cap, s->npos, npos, sizeof *s->pos) ||
        !grow((void **)&s->entries, &s->entries_cap, s->nentries, nentries, sizeof *s->entries))
        return error_set(err, STATUS_NOMEM, "trace store: out of memory for %zu positions", npos);
    return STATUS_OK;
}

static int16_t clamp16(int v) {
    return (int16_t)(v > INT16_MAX ? INT16_MAX : v <= INT16_MIN ? INT16_MIN + 1 : v);
}

Status trace_store_add(TraceStore *s, const TraceEntry *entries, int count, int phase, int result,
                       int score, int eval, ErrorInfo *err) {
    if (phase < 0 || phase > s->phase_max)
        return error_set(err, STATUS_RANGE, "phase %d outside 0..%d", phase, s->phase_max);
    if (count < 0 || count > UINT16_MAX)
        return error_set(err, STATUS_RANGE, "%d entries in one position", count);
    if (s->nentries + (size_t)count > UINT32_MAX)
        return error_set(err, STATUS_RANGE, "more than 2^32 trace entries");
    const int limit = s->nparams + 2 * (s->danger_end - s->danger_begin);
    for (int k = 0; k < count; k++)
        if (entries[k].index >= limit || entries[k].coef == 0 ||
            (k > 0 && entries[k - 1].index >= s->nparams && entries[k].index < s->nparams))
            return error_set(err, STATUS_RANGE, "entry %d: index %d coef %d", k, entries[k].index,
                             entries[k].coef);
    if (!grow((void **)&s->pos, &s->pos_cap, s->npos, s->npos + 1, sizeof *s->pos) ||
        !grow((void **)&s->entries, &s->entries_cap, s->nentries, s->nentries + (size_t)count,
              sizeof *s->entries))
        return error_set(err, STATUS_NOMEM, "trace store: out of memory at %zu positions", s->npos);
    memcpy(s->entries + s->nentries, entries, (size_t)count * sizeof *entries);
    s->pos[s->npos++] = (TracePos){
        .start = (uint32_t)s->nentries,
        .count = (uint16_t)count,
        .phase = (uint8_t)phase,
        .result = (uint8_t)(result == TRACE_DRAW ? TRACE_DRAW : result != 0),
        .score = score == TRACE_NO_SCORE ? TRACE_NO_SCORE : clamp16(score),
        .eval = clamp16(eval),
        .target = (float)(result == TRACE_DRAW ? 0.5 : result != 0),
    };
    s->nentries += (size_t)count;
    return STATUS_OK;
}

Status trace_store_add_eval(TraceStore *s, const EvalTrace *trace, Side stm,
                            const EvalWeight *weights, Score engine_eval, int result, int score,
                            bool *kept, ErrorInfo *err) {
    *kept = false;
    if (!grow((void **)&s->pos, &s->pos_cap, s->npos, s->npos + 1, sizeof *s->pos) ||
        !grow((void **)&s->entries, &s->entries_cap, s->nentries,
              s->nentries + (size_t)s->nparams + (size_t)(s->danger_end - s->danger_begin),
              sizeof *s->entries))
        return error_set(err, STATUS_NOMEM, "trace store: out of memory at %zu positions", s->npos);
    if (s->nentries + (size_t)s->nparams > UINT32_MAX)
        return error_set(err, STATUS_RANGE, "more than 2^32 trace entries");
    // Write the entries in place. Most parameters count nothing for either side: test the
    // two sides' counts of two parameters (8 bytes) at once and skip them.
    TraceEntry *e = s->entries + s->nentries;
    int n = 0, sign = stm == CHO ? 1 : -1;
    int64_t mg = 0, eg = 0;
    const unsigned char *raw = (const unsigned char *)trace->count;
    const int np = s->nparams, db = s->danger_begin, de = s->danger_end, nd = de - db;
    for (int i = 0; i < np; i += 2) {
        uint64_t word;
        memcpy(&word, raw + (size_t)i * 2 * sizeof(int16_t), i + 1 < np ? 8 : 4);
        if (i + 1 >= np)
            word &= 0xffffffffULL;
        if (word == 0)
            continue;
        for (int k = i; k < i + 2 && k < np; k++) {
            if (k >= db && k < de)
                continue; // stored per side below
            int d = sign * (trace->count[k][CHO] - trace->count[k][HAN]);
            if (d == 0)
                continue;
            e[n++] = (TraceEntry){(uint16_t)k, (int16_t)d};
            mg += (int64_t)d * weights[k].mg, eg += (int64_t)d * weights[k].eg;
        }
    }
    // Danger parameters per side, the side to move's first (trace_store.h).
    int64_t danger_mg[2] = {0, 0}, danger_eg[2] = {0, 0};
    for (int side = 0; side < 2; side++)
        for (int k = db; k < de; k++) {
            int c = trace->count[k][side == 0 ? stm : !stm];
            if (c == 0)
                continue;
            e[n++] = (TraceEntry){(uint16_t)(np + side * nd + k - db), (int16_t)c};
            danger_mg[side] += (int64_t)c * weights[k].mg;
            danger_eg[side] += (int64_t)c * weights[k].eg;
        }
    mg += eval_danger(danger_mg[0]) - eval_danger(danger_mg[1]);
    eg += eval_danger(danger_eg[0]) - eval_danger(danger_eg[1]);
    // Rebuild with the weights that produced engine_eval (weiss's parity refusal).
    int64_t rebuilt = eval_clamp(eval_taper(mg, eg, trace->phase, s->phase_max));
    int64_t diff = llabs(rebuilt - engine_eval);
    if (diff > 1) {
        s->refused++;
        return STATUS_OK;
    }
    if (trace->phase < 0 || trace->phase > s->phase_max)
        return error_set(err, STATUS_RANGE, "phase %d outside 0..%d", trace->phase, s->phase_max);
    *kept = true;
    s->off_by_one += diff == 1;
    s->pos[s->npos++] = (TracePos){
        .start = (uint32_t)s->nentries,
        .count = (uint16_t)n,
        .phase = (uint8_t)trace->phase,
        .result = (uint8_t)(result == TRACE_DRAW ? TRACE_DRAW : result != 0),
        .score = score == TRACE_NO_SCORE ? TRACE_NO_SCORE : clamp16(score),
        .eval = clamp16(engine_eval),
        .target = (float)(result == TRACE_DRAW ? 0.5 : result != 0),
    };
    s->nentries += (size_t)n;
    return STATUS_OK;
}

int trace_store_rebuild(const TraceStore *s, size_t i, const EvalWeight *weights) {
    const TracePos *p = &s->pos[i];
    const TraceEntry *e = s->entries + p->start;
    const int np = s->nparams, nd = s->danger_end - s->danger_begin;
    int64_t mg = 0, eg = 0, danger_mg[2] = {0, 0}, danger_eg[2] = {0, 0};
    for (int k = 0; k < p->count; k++) {
        if (e[k].index < np) {
            mg += (int64_t)e[k].coef * weights[e[k].index].mg;
            eg += (int64_t)e[k].coef * weights[e[k].index].eg;
            continue;
        }
        int j = e[k].index - np, side = j >= nd;
        const EvalWeight *wd = &weights[s->danger_begin + j - side * nd];
        danger_mg[side] += (int64_t)e[k].coef * wd->mg;
        danger_eg[side] += (int64_t)e[k].coef * wd->eg;
    }
    mg += eval_danger(danger_mg[0]) - eval_danger(danger_mg[1]);
    eg += eval_danger(danger_eg[0]) - eval_danger(danger_eg[1]);
    return (int)eval_taper(mg, eg, p->phase, s->phase_max);
}

double trace_store_eval(const TraceStore *s, size_t i, const double *w) {
    TraceDanger dz;
    return trace_store_eval_pos(s, &s->pos[i], w, &dz);
}

void trace_store_shuffle_order(size_t *order, size_t n, uint64_t seed) {
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    uint64_t state = seed;
    for (size_t i = n > 0 ? n - 1 : 0; i > 0; i--) {
        size_t j = (size_t)(prng_next(&state) % (i + 1)), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
}

Status trace_store_permute(TraceStore *s, const size_t *order, ErrorInfo *err) {
    if (s->npos == 0)
        return STATUS_OK;
    TracePos *pos = big_alloc(s->npos * sizeof *pos);
    TraceEntry *ent = big_alloc((s->nentries ? s->nentries : 1) * sizeof *ent);
    if (!pos || !ent) {
        free(pos);
        free(ent);
        return error_set(err, STATUS_NOMEM, "shuffle: out of memory for %zu positions", s->npos);
    }
    // Lay the positions and their entries out in the new order.
    size_t at = 0;
    for (size_t i = 0; i < s->npos; i++) {
        pos[i] = s->pos[order[i]];
        memcpy(ent + at, s->entries + pos[i].start, pos[i].count * sizeof *ent);
        pos[i].start = (uint32_t)at;
        at += pos[i].count;
    }
    free(s->pos);
    free(s->entries);
    s->pos = pos, s->pos_cap = s->npos;
    s->entries = ent, s->entries_cap = s->nentries ? s->nentries : 1;
    return STATUS_OK;
}

Status trace_store_shuffle(TraceStore *s, uint64_t seed, ErrorInfo *err) {
    if (s->npos < 2)
        return STATUS_OK;
    size_t *order = malloc(s->npos * sizeof *order);
    if (!order)
        return error_set(err, STATUS_NOMEM, "shuffle: out of memory for %zu positions", s->npos);
    trace_store_shuffle_order(order, s->npos, seed);
    Status st = trace_store_permute(s, order, err);
    free(order);
    return st;
}

double trace_store_bytes_per_position(const TraceStore *s) {
    if (s->npos == 0)
        return 0;
    return (double)(s->npos * sizeof(TracePos) + s->nentries * sizeof(TraceEntry)) /
           (double)s->npos;
}

double trace_store_entries_per_position(const TraceStore *s) {
    return s->npos ? (double)s->nentries / (double)s->npos : 0;
}
