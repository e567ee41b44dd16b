// SPDX-License-Identifier: MIT
// The Texel loss, its gradient over sparse traces (OpenMP, per-thread buffers), the 1-D fit
// of K, and the Adam / gradient-descent training loop. Formulas in optimizer.h.
#include "optimizer.h"
#include "cluster.h"
#include "prng.h"
#include "share.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

static const double LN10_400 = 2.302585092994045684 / 400.0;

double tune_sigmoid(double k, double e) { return 1.0 / (1.0 + exp(-k * e * LN10_400)); }

void tune_set_targets(TraceStore *s, double k, double lambda) {
    for (size_t j = 0; j < s->npos; j++) {
        TracePos *p = &s->pos[j];
        double t = trace_result_value(p->result);
        if (p->score != TRACE_NO_SCORE)
            t = (1 - lambda) * t + lambda * tune_sigmoid(k, p->score);
        p->target = (float)t;
    }
}

// Evaluation of one position under w (trace_store_eval without the call, for the hot loops).
static inline double eval_at(const TraceStore *s, const TracePos *p, const double *w) {
    TraceDanger dz;
    return trace_store_eval_pos(s, p, w, &dz);
}

// Adds dMSE/dE_j's midgame and endgame shares (dmg, deg) times dE_j/dw to the gradient g: the
// coefficient for a linear entry; for a danger entry the chain rule through the square,
// +-eval_danger_slope(D) * count (+ for the side to move's index, - for the other side's).
static inline void add_position_gradient(const TraceStore *s, const TracePos *p,
                                         const TraceDanger *dz, double dmg, double deg, double *g) {
    const TraceEntry *e = s->entries + p->start;
    const int np = s->nparams, nd = s->danger_end - s->danger_begin;
    int m = 0;
    for (; m < p->count && e[m].index < np; m++) {
        double *gi = g + 2 * e[m].index;
        gi[0] += e[m].coef * dmg;
        gi[1] += e[m].coef * deg;
    }
    if (m == p->count)
        return;
    const double smg[2] = {eval_danger_slope(dz->mg[0]) * dmg, -eval_danger_slope(dz->mg[1]) * dmg};
    const double seg[2] = {eval_danger_slope(dz->eg[0]) * deg, -eval_danger_slope(dz->eg[1]) * deg};
    for (; m < p->count; m++) {
        int j = e[m].index - np, side = j >= nd;
        double *gi = g + 2 * (s->danger_begin + j - side * nd);
        gi[0] += e[m].coef * smg[side];
        gi[1] += e[m].coef * seg[side];
    }
}

double tune_loss(const TraceStore *s, const double *w, double k, int threads) {
    if (s->npos == 0)
        return 0;
    double sum = 0;
    // Each thread sums its static share; the shares are added in thread order.
    double part[256] = {0};
    int nt = threads < 256 ? threads : 256;
#pragma omp parallel num_threads(nt)
    {
        double acc = 0;
#pragma omp single
        nt = omp_get_num_threads(); // the team may be smaller than asked
#pragma omp for schedule(static)
        for (size_t j = 0; j < s->npos; j++) {
            double d = tune_sigmoid(k, eval_at(s, &s->pos[j], w)) - s->pos[j].target;
            acc += d * d;
        }
        part[omp_get_thread_num()] = acc;
    }
    for (int t = 0; t < nt; t++)
        sum += part[t];
    return sum / (double)s->npos;
}

size_t tune_scratch_stride(const TraceStore *s) {
    // Round up to whole 64-byte lines so threads never share one.
    return ((size_t)2 * s->nparams + 7) / 8 * 8;
}

double tune_gradient(const TraceStore *s, size_t begin, size_t end, const double *w, double k,
                     int threads, double *grad, double *scratch) {
    size_t n2 = (size_t)2 * s->nparams, stride = tune_scratch_stride(s);
    memset(grad, 0, n2 * sizeof *grad);
    if (end <= begin)
        return 0;
    double part[256] = {0};
    int nt = threads < 256 ? threads : 256;
    const double inv_pm = 1.0 / s->phase_max, scale = 2.0 * k * LN10_400 / (double)(end - begin);
#pragma omp parallel num_threads(nt)
    {
        int t = omp_get_thread_num();
        double *g = scratch + (size_t)t * stride, acc = 0;
        memset(g, 0, n2 * sizeof *g);
#pragma omp single
        nt = omp_get_num_threads(); // the team may be smaller than asked: sum only its buffers
#pragma omp for schedule(static)
        for (size_t j = begin; j < end; j++) {
            const TracePos *p = &s->pos[j];
            TraceDanger dz;
            double pr = tune_sigmoid(k, trace_store_eval_pos(s, p, w, &dz)), d = pr - p->target;
            acc += d * d;
            // dMSE/dE split into its midgame and endgame shares by the phase.
            double de = scale * d * pr * (1 - pr);
            double dmg = de * p->phase * inv_pm, deg = de * (s->phase_max - p->phase) * inv_pm;
            add_position_gradient(s, p, &dz, dmg, deg, g);
        }
        part[t] = acc;
    }
    double sum = 0;
    for (int t = 0; t < nt; t++) {
        const double *g = scratch + (size_t)t * stride;
        for (size_t i = 0; i < n2; i++)
            grad[i] += g[i];
        sum += part[t];
    }
    return sum / (double)(end - begin);
}

// One rank's per-thread shares, added in thread order by cluster_chain_sum.
typedef struct Shares {
    int threads;
    size_t n2, stride;
    const double *scratch, *part;
} Shares;

// acc = [gradient (n2), loss sum (1)]: this rank's threads added in order, as tune_gradient.
static void add_shares(double *acc, void *arg) {
    const Shares *sh = arg;
    for (int t = 0; t < sh->threads; t++) {
        const double *g = sh->scratch + (size_t)t * sh->stride;
        for (size_t i = 0; i < sh->n2; i++)
            acc[i] += g[i];
        acc[sh->n2] += sh->part[t];
    }
}

double tune_gradient_split(const TraceStore *s, size_t begin, size_t end, size_t at,
                           const double *w, double k, int threads, int rank, int ranks,
                           double *grad, double *scratch) {
    if (ranks <= 1)
        return tune_gradient(s, begin, end, w, k, threads, grad, scratch);
    size_t n2 = (size_t)2 * s->nparams, stride = tune_scratch_stride(s);
    double part[256] = {0};
    int nt = threads < 256 ? threads : 256, all = nt * ranks;
    double *acc = scratch + (size_t)nt * stride; // the running sum: n2 + 1 doubles after them
    memset(acc, 0, (n2 + 1) * sizeof *acc);
    const double inv_pm = 1.0 / s->phase_max,
                 scale = end > begin ? 2.0 * k * LN10_400 / (double)(end - begin) : 0;
    size_t first, x;
    tune_static_share(begin, end, all, rank * nt, &first, &x);
    // One share per thread of this rank, whatever team OpenMP gives (each its own buffer).
#pragma omp parallel for schedule(static, 1) num_threads(nt)
    for (int t = 0; t < nt; t++) {
        double *g = scratch + (size_t)t * stride, sum = 0;
        memset(g, 0, n2 * sizeof *g);
        size_t lo, hi;
        tune_static_share(begin, end, all, rank * nt + t, &lo, &hi);
        for (size_t j = lo; j < hi; j++) {
            const TracePos *p = &s->pos[at + (j - first)];
            TraceDanger dz;
            double pr = tune_sigmoid(k, trace_store_eval_pos(s, p, w, &dz)), d = pr - p->target;
            sum += d * d;
            // dMSE/dE split into its midgame and endgame shares by the phase.
            double de = scale * d * pr * (1 - pr);
            double dmg = de * p->phase * inv_pm, deg = de * (s->phase_max - p->phase) * inv_pm;
            add_position_gradient(s, p, &dz, dmg, deg, g);
        }
        part[t] = sum;
    }
    Shares sh = {.threads = nt, .n2 = n2, .stride = stride, .scratch = scratch, .part = part};
    cluster_chain_sum(acc, n2 + 1, add_shares, &sh);
    memcpy(grad, acc, n2 * sizeof *grad);
    return end > begin ? acc[n2] / (double)(end - begin) : 0;
}

double tune_loss_split(const TraceStore *s, size_t npos, size_t at, const double *w, double k,
                       int threads, int rank, int ranks) {
    if (ranks <= 1 || npos == 0)
        return tune_loss(s, w, k, threads);
    double part[256] = {0};
    int nt = threads < 256 ? threads : 256, all = nt * ranks;
    size_t first, x;
    tune_static_share(0, npos, all, rank * nt, &first, &x);
#pragma omp parallel for schedule(static, 1) num_threads(nt)
    for (int t = 0; t < nt; t++) {
        double acc = 0;
        size_t lo, hi;
        tune_static_share(0, npos, all, rank * nt + t, &lo, &hi);
        for (size_t j = lo; j < hi; j++) {
            const TracePos *p = &s->pos[at + (j - first)];
            double d = tune_sigmoid(k, eval_at(s, p, w)) - p->target;
            acc += d * d;
        }
        part[t] = acc;
    }
    Shares sh = {.threads = nt, .n2 = 0, .stride = 0, .scratch = NULL, .part = part};
    double sum = 0;
    cluster_chain_sum(&sum, 1, add_shares, &sh);
    return sum / (double)npos;
}

Status tune_loss_share(const TraceStore *s, const TuneShare *sh, const double *w, double k,
                       double *loss, ErrorInfo *err) {
    *loss = 0;
    double *mine = malloc((s->npos ? s->npos : 1) * sizeof *mine);
    double *d = malloc((sh->npos ? sh->npos : 1) * sizeof *d);
    Status st = mine && d ? STATUS_OK
                          : error_set(err, STATUS_NOMEM, "tuner: out of memory for %zu positions",
                                      sh->npos);
    st = tune_agree(st, err);
    if (st == STATUS_OK) {
        // The differences, not their squares: the sums below are tune_loss's very expressions.
#pragma omp parallel for schedule(static) num_threads(sh->threads)
        for (size_t j = 0; j < s->npos; j++)
            mine[j] = tune_sigmoid(k, eval_at(s, &s->pos[j], w)) - s->pos[j].target;
        tune_share_gather(sh, mine, d);
        // The threads of one process with sh->all threads, each its static share, in order.
        double sum = 0;
        for (int t = 0; t < sh->all && sh->npos; t++) {
            size_t lo, hi;
            double acc = 0;
            tune_static_share(0, sh->npos, sh->all, t, &lo, &hi);
            for (size_t j = lo; j < hi; j++)
                acc += d[j] * d[j];
            sum += acc;
        }
        *loss = sh->npos ? sum / (double)sh->npos : 0;
    }
    free(mine);
    free(d);
    return st;
}

double tune_penalty(const TuneConfig *cfg, int nparams, size_t npos, const double *w0,
                    const double *w, double *grad) {
    if (!(cfg->l2 > 0) || npos == 0 || !w0)
        return 0;
    // Deviations in pawns: l2 weighs a pawn of deviation like l2 positions of squared error 1.
    const double c = cfg->l2 / (double)npos / (100.0 * 100.0);
    double sum = 0;
    for (int i = 0; i < 2 * nparams; i++) {
        double d = w[i] - w0[i];
        sum += d * d;
        if (grad)
            grad[i] += 2 * c * d;
    }
    return c * sum;
}

// MSE of sigmoid(K * e_j) against the results, for the K fit.
static double result_mse(const double *evals, const uint64_t *results, size_t n, double k) {
    double sum = 0;
    for (size_t j = 0; j < n; j++) {
        double d = tune_sigmoid(k, evals[j]) - trace_result_value((uint8_t)results[j]);
        sum += d * d;
    }
    return sum / (double)n;
}

// The K fit on the evaluations and results of n positions (n > 0).
static double fit_k(const double *evals, const uint64_t *results, size_t n) {
    // Coarse log-spaced scan, so the refinement starts in the right valley.
    double lo = 0.05, hi = 20, best_k = lo, best = INFINITY;
    for (int i = 0; i <= 60; i++) {
        double kk = lo * pow(hi / lo, i / 60.0), l = result_mse(evals, results, n, kk);
        if (l < best)
            best = l, best_k = kk;
    }
    double step = pow(hi / lo, 1 / 60.0);
    double a = best_k / step, b = best_k * step, g = (sqrt(5) - 1) / 2;
    double c = b - g * (b - a), d = a + g * (b - a);
    double fc = result_mse(evals, results, n, c), fd = result_mse(evals, results, n, d);
    while (b - a > 1e-6) {
        if (fc < fd)
            b = d, d = c, fd = fc, c = b - g * (b - a), fc = result_mse(evals, results, n, c);
        else
            a = c, c = d, fc = fd, d = a + g * (b - a), fd = result_mse(evals, results, n, d);
    }
    return (a + b) / 2;
}

// Evaluations and results of every position of s under w.
static void evals_results(const TraceStore *s, const double *w, int threads, double *evals,
                          uint64_t *results) {
#pragma omp parallel for schedule(static) num_threads(threads)
    for (size_t j = 0; j < s->npos; j++)
        evals[j] = eval_at(s, &s->pos[j], w), results[j] = s->pos[j].result;
}

double tune_fit_k(const TraceStore *s, const double *w, int threads) {
    if (s->npos == 0)
        return 0;
    double *evals = malloc(s->npos * sizeof *evals);
    uint64_t *results = malloc(s->npos * sizeof *results);
    double k = 0;
    if (evals && results) {
        evals_results(s, w, threads, evals, results);
        k = fit_k(evals, results, s->npos);
    }
    free(evals);
    free(results);
    return k;
}

Status tune_fit_k_share(const TraceStore *s, const TuneShare *sh, const double *w, double *k,
                        ErrorInfo *err) {
    *k = 0;
    size_t n = sh->npos ? sh->npos : 1, m = s->npos ? s->npos : 1;
    double *evals = malloc(n * sizeof *evals), *mine = malloc(m * sizeof *mine);
    uint64_t *results = malloc(n * sizeof *results), *rmine = malloc(m * sizeof *rmine);
    Status st = evals && mine && results && rmine
                    ? STATUS_OK
                    : error_set(err, STATUS_NOMEM, "K fit: out of memory for %zu positions", n);
    st = tune_agree(st, err);
    if (st == STATUS_OK && sh->npos) {
        evals_results(s, w, sh->threads, mine, rmine);
        tune_share_gather(sh, mine, evals);
        tune_share_gather(sh, rmine, results);
        *k = fit_k(evals, results, sh->npos);
    }
    free(evals), free(mine), free(results), free(rmine);
    return st;
}

// One optimiser step on w from gradient g; frozen parameters keep their value.
static void step(const TuneConfig *cfg, int nparams, double *w, const double *g, double *m,
                 double *v, long t) {
    double c1 = 1 - pow(cfg->beta1, (double)t), c2 = 1 - pow(cfg->beta2, (double)t);
    for (int i = 0; i < 2 * nparams; i++) {
        if (cfg->frozen && cfg->frozen[i / 2])
            continue;
        if (cfg->method == TUNE_GD) {
            w[i] -= cfg->lr * g[i];
            continue;
        }
        m[i] = cfg->beta1 * m[i] + (1 - cfg->beta1) * g[i];
        v[i] = cfg->beta2 * v[i] + (1 - cfg->beta2) * g[i] * g[i];
        w[i] -= cfg->lr * (m[i] / c1) / (sqrt(v[i] / c2) + cfg->epsilon);
    }
}

// One pass over the training set in (shuffled) batches; returns the mean pre-step loss.
static double run_epoch(const TraceStore *s, const TuneShare *sh, const TuneConfig *cfg,
                        const double *w0, int epoch, double *w, double *g, double *m, double *v,
                        double *scratch, size_t *order, long *t) {
    size_t nb = tune_share_batches(sh);
    for (size_t b = 0; b < nb; b++)
        order[b] = b;
    uint64_t rng = cfg->seed ^ (0x5851f42d4c957f2dULL * (uint64_t)epoch);
    for (size_t b = nb - 1; b > 0 && nb > 1; b--) {
        size_t r = (size_t)(prng_next(&rng) % (b + 1)), x = order[b];
        order[b] = order[r], order[r] = x;
    }
    double sum = 0;
    for (size_t b = 0; b < nb; b++) {
        size_t lo, hi, held_lo, held_hi, at;
        tune_share_batch(sh, order[b], &lo, &hi, &held_lo, &held_hi, &at);
        if (!cfg->train_share) // the whole set here: the rank's threads start at held_lo
            at = held_lo;
        sum += tune_gradient_split(s, lo, hi, at, w, cfg->k, cfg->threads, cfg->rank, cfg->ranks, g,
                                   scratch) *
               (double)(hi - lo);
        tune_penalty(cfg, s->nparams, sh->npos, w0, w, g); // the prior: N of the whole set
        step(cfg, s->nparams, w, g, m, v, ++*t);
    }
    return sum / (double)sh->npos;
}

Status tune_train(const TraceStore *train, const TraceStore *valid, const TuneConfig *cfg,
                  double *w, TuneEpochFn on_epoch, void *arg, TuneResult *result, ErrorInfo *err) {
    // The whole sets' layout: the stores hold all of them, or (MPI) this rank's shares.
    TuneShare tsh = cfg->train_share ? *cfg->train_share
                                     : tune_share_make(train->npos, cfg->batch, cfg->rank,
                                                       cfg->ranks, cfg->threads);
    size_t nvalid = cfg->valid_share ? cfg->valid_share->npos : valid ? valid->npos : 0;
    if (tsh.npos == 0)
        return error_set(err, STATUS_RANGE, "no training positions");
    if (cfg->threads < 1 || cfg->threads > 256 || cfg->epochs < 0 || !(cfg->lr > 0) ||
        !(cfg->l2 >= 0))
        return error_set(err, STATUS_RANGE, "bad threads %d, epochs %d or learning rate %g",
                         cfg->threads, cfg->epochs, cfg->lr);
    size_t n2 = (size_t)2 * train->nparams;
    double *g = calloc(n2, sizeof *g), *m = calloc(n2, sizeof *m), *v = calloc(n2, sizeof *v);
    double *best = malloc(n2 * sizeof *best), *w0 = malloc(n2 * sizeof *w0);
    // One buffer per thread, and one more for tune_gradient_split's running sum.
    double *scratch =
        calloc((size_t)(cfg->threads + 1) * tune_scratch_stride(train) + 1, sizeof *scratch);
    size_t *order = malloc(tune_share_batches(&tsh) * sizeof *order);
    Status st = STATUS_OK;
    if (!g || !m || !v || !best || !w0 || !scratch || !order) {
        st = error_set(err, STATUS_NOMEM, "tuner: out of memory for %zu parameters", n2);
        goto cleanup;
    }
    bool has_valid = nvalid > 0;
    // A rank holding the validation shares keeps them from index 0; the whole set here: its
    // threads' first position.
    size_t vat = 0, x;
    if (!cfg->valid_share && cfg->ranks > 1)
        tune_static_share(0, nvalid, cfg->ranks * cfg->threads, cfg->rank * cfg->threads, &vat, &x);
    *result = (TuneResult){.best_valid_mse =
                               has_valid ? tune_loss_split(valid, nvalid, vat, w, cfg->k,
                                                           cfg->threads, cfg->rank, cfg->ranks)
                                         : NAN};
    memcpy(best, w, n2 * sizeof *best);
    memcpy(w0, cfg->w0 ? cfg->w0 : w, n2 * sizeof *w0);
    long t = 0;
    int since = 0;
    for (int epoch = 1; epoch <= cfg->epochs; epoch++) {
        TuneEpoch e = {.epoch = epoch, .valid_mse = NAN};
        double t0 = omp_get_wtime();
        e.train_mse = run_epoch(train, &tsh, cfg, w0, epoch, w, g, m, v, scratch, order, &t);
        double t1 = omp_get_wtime();
        if (has_valid)
            e.valid_mse =
                tune_loss_split(valid, nvalid, vat, w, cfg->k, cfg->threads, cfg->rank, cfg->ranks);
        e.train_seconds = t1 - t0, e.valid_seconds = omp_get_wtime() - t1;
        result->epochs_run = epoch;
        if (on_epoch)
            on_epoch(&e, arg);
        if (!has_valid)
            continue;
        if (e.valid_mse < result->best_valid_mse) {
            result->best_valid_mse = e.valid_mse, result->best_epoch = epoch, since = 0;
            memcpy(best, w, n2 * sizeof *best);
        } else if (cfg->patience > 0 && ++since >= cfg->patience) {
            result->stopped_early = true;
            break;
        }
    }
    if (has_valid)
        memcpy(w, best, n2 * sizeof *w);
    else
        result->best_epoch = result->epochs_run;
cleanup:
    free(g), free(m), free(v), free(best), free(w0), free(scratch), free(order);
    return st;
}
