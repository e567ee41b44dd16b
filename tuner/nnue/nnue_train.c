// SPDX-License-Identifier: MIT
// Float NNUE training: forward and gradient of one position, mini-batches split over OpenMP
// threads into per-thread gradients that are summed in thread order (deterministic), AdamW
// with a cosine learning rate touching only the feature rows a batch used.
#include "nnue_train.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "prng.h"

enum { HIDDEN_MAX = 1024 };

// --- features -----------------------------------------------------------------------------

int nnue_train_inputs(NnueInputSet input_set) {
    return input_set == NNUE_INPUT_PALACE ? NNUE_TRAIN_PALACE_INPUTS : NNUE_INPUTS;
}

int nnue_train_features(const NnuePosition *p, int inputs,
                        uint16_t feats[2][NNUE_TRAIN_FEATURES_MAX]) {
    uint16_t plain[2][32];
    int n = nnue_position_features(p, plain);
    if (inputs != NNUE_TRAIN_PALACE_INPUTS && inputs != NNUE_PALACE_BUCKETS * NNUE_INPUTS) {
        memcpy(feats[CHO], plain[CHO], sizeof plain[CHO]);
        memcpy(feats[HAN], plain[HAN], sizeof plain[HAN]);
        return n;
    }
    // Each side's general: slot 0 of its half of the packed board (packed_board.h).
    int bucket[SIDE_NB] = {0, 0};
    for (Side s = CHO; s <= HAN; s++) {
        const uint8_t sq = p->board[s == CHO ? 0 : PACKED_SIDE_SLOTS];
        if (sq != PACKED_NONE)
            bucket[s] = nnue_palace_bucket(s, sq);
    }
    const bool folded = inputs != NNUE_TRAIN_PALACE_INPUTS;
    for (int q = 0; q < 2; q++)
        for (int i = 0; i < n; i++) {
            uint16_t row = (uint16_t)(bucket[q] * NNUE_INPUTS + plain[q][i]);
            if (folded)
                feats[q][i] = row;
            else
                feats[q][2 * i] = row,
                             feats[q][2 * i + 1] =
                                 (uint16_t)(NNUE_PALACE_BUCKETS * NNUE_INPUTS + plain[q][i]);
        }
    return folded ? n : 2 * n;
}

// --- the float net ------------------------------------------------------------------------

static float uniform(uint64_t *rng, float a) {
    return a * (float)(2.0 * ((double)(prng_next(rng) >> 11) / 9007199254740992.0) - 1.0);
}

size_t float_net_params(int inputs, int hidden, int outs) {
    return (size_t)inputs * (size_t)hidden + (size_t)hidden +
           (size_t)outs * (2 * (size_t)hidden + 1);
}

int float_net_out_bucket(const FloatNet *net, int n) {
    return nnue_out_bucket(net->inputs == NNUE_TRAIN_PALACE_INPUTS ? n / 2 : n, net->outs);
}

Status float_net_init(FloatNet *net, int inputs, int hidden, int outs, uint64_t seed,
                      ErrorInfo *err) {
    memset(net, 0, sizeof *net);
    if (hidden < 1 || hidden > HIDDEN_MAX)
        return error_set(err, STATUS_RANGE, "hidden size %d out of range 1..%d", hidden,
                         HIDDEN_MAX);
    if (outs < 1 || outs > NNUE_OUT_BUCKETS_MAX)
        return error_set(err, STATUS_RANGE, "output buckets %d out of range 1..%d", outs,
                         NNUE_OUT_BUCKETS_MAX);
    net->inputs = inputs, net->hidden = hidden, net->outs = outs;
    net->n = float_net_params(inputs, hidden, outs);
    net->p = aligned_alloc(64, (net->n * sizeof(float) + 63) / 64 * 64);
    if (!net->p)
        return error_set(err, STATUS_NOMEM, "out of memory for %zu weights", net->n);
    net->ft_w = net->p, net->ft_b = net->ft_w + (size_t)inputs * hidden;
    net->out_w = net->ft_b + hidden, net->out_b = net->out_w + (size_t)outs * 2 * hidden;
    uint64_t rng = seed ^ 0x6e6e7565; // "nnue"
    // About 30 pieces feed each neuron: rows of 1/sqrt(30) keep the sums near 1. A palace net's
    // shared rows start at 0: each piece's sum starts as its bucket row alone.
    const size_t shared = inputs == NNUE_TRAIN_PALACE_INPUTS
                              ? (size_t)NNUE_PALACE_BUCKETS * NNUE_INPUTS * hidden
                              : (size_t)inputs * hidden;
    for (size_t i = 0; i < (size_t)inputs * hidden; i++)
        net->ft_w[i] = i < shared ? uniform(&rng, 0.18f) : 0.0f;
    for (int j = 0; j < hidden; j++)
        net->ft_b[j] = uniform(&rng, 0.1f);
    for (int j = 0; j < outs * 2 * hidden; j++)
        net->out_w[j] = uniform(&rng, 1.0f / sqrtf((float)(2 * hidden)));
    for (int k = 0; k < outs; k++)
        net->out_b[k] = 0;
    return STATUS_OK;
}

void float_net_free(FloatNet *net) {
    free(net->p);
    memset(net, 0, sizeof *net);
}

// acc[0] = the side to move's hidden sums, acc[1] the other side's.
static void accumulate(const FloatNet *net, const uint16_t feats[2][NNUE_TRAIN_FEATURES_MAX], int n,
                       int stm, float acc[2][HIDDEN_MAX]) {
    const int h = net->hidden;
    for (int q = 0; q < 2; q++) {
        const uint16_t *f = feats[q == 0 ? stm : !stm];
        float *restrict a = acc[q];
        memcpy(a, net->ft_b, (size_t)h * sizeof *a);
        for (int i = 0; i < n; i++) {
            const float *restrict row = net->ft_w + (size_t)f[i] * h;
            for (int j = 0; j < h; j++)
                a[j] += row[j];
        }
    }
}

static inline float screlu(float x) {
    float c = x < 0 ? 0 : x > 1 ? 1 : x;
    return c * c;
}

// Sixteen partial sums in a fixed order: the compiler vectorises this (a single running float
// sum it may not reorder), and the result does not depend on the vector width. From output layer
// `bucket`.
static double output(const FloatNet *net, float acc[2][HIDDEN_MAX], int bucket) {
    enum { LANES = 16 };
    const int h = net->hidden;
    float lane[LANES] = {0};
    for (int q = 0; q < 2; q++) {
        const float *restrict a = acc[q], *restrict w = net->out_w + (size_t)(2 * bucket + q) * h;
        int j = 0;
        for (; j + LANES <= h; j += LANES)
            for (int k = 0; k < LANES; k++)
                lane[k] += screlu(a[j + k]) * w[j + k];
        for (; j < h; j++)
            lane[j % LANES] += screlu(a[j]) * w[j];
    }
    double sum = 0;
    for (int k = 0; k < LANES; k++)
        sum += lane[k];
    return sum + net->out_b[bucket];
}

double float_net_forward(const FloatNet *net, const uint16_t feats[2][NNUE_TRAIN_FEATURES_MAX],
                         int n, int stm) {
    _Alignas(64) float acc[2][HIDDEN_MAX];
    accumulate(net, feats, n, stm, acc);
    return output(net, acc, float_net_out_bucket(net, n));
}

// Through the output layer and SCReLU (2x on 0 < x < 1) for one perspective's neurons: the
// output weights' gradient, acc turned into d loss / d acc, the feature bias's gradient.
// Separate pointers and no branches, so the compiler vectorises it.
static void backward_neurons(int h, float g, const float *restrict w, float *restrict a,
                             float *restrict gw, float *restrict gb) {
    for (int j = 0; j < h; j++) {
        float x = a[j], c = x < 0 ? 0 : x > 1 ? 1 : x;
        gw[j] += g * c * c;
        a[j] = x > 0 && x < 1 ? g * w[j] * 2 * x : 0.0f;
        gb[j] += a[j];
    }
}

double float_net_backward(const FloatNet *net, const NnuePosition *pos, double lambda,
                          double scale_over_s, double s, float *grad, uint8_t *touched) {
    _Alignas(64) float acc[2][HIDDEN_MAX];
    uint16_t feats[2][NNUE_TRAIN_FEATURES_MAX];
    const int h = net->hidden, n = nnue_train_features(pos, net->inputs, feats), stm = pos->stm;
    const int k = float_net_out_bucket(net, n);
    accumulate(net, feats, n, stm, acc);
    double pred = nnue_sigmoid(output(net, acc, k) * scale_over_s);
    double diff = pred - nnue_target(pos, lambda, s);
    if (!grad)
        return diff * diff;
    // d loss / d out, then back through the output layer and SCReLU. The gradient is laid out
    // as net->p (feature rows from 0): a trainer's view of folded rows shares it.
    const float g = (float)(2.0 * diff * pred * (1.0 - pred) * scale_over_s);
    float *g_ft_w = grad, *g_ft_b = grad + (net->ft_b - net->p);
    float *g_out_w = grad + (net->out_w - net->p), *g_out_b = grad + (net->out_b - net->p);
    g_out_b[k] += g;
    for (int q = 0; q < 2; q++) {
        float *a = acc[q]; // becomes d loss / d acc
        const size_t w = (size_t)(2 * k + q) * h;
        backward_neurons(h, g, net->out_w + w, a, g_out_w + w, g_ft_b);
        const uint16_t *f = feats[q == 0 ? stm : !stm];
        for (int i = 0; i < n; i++) {
            float *restrict row = g_ft_w + (size_t)f[i] * h;
            touched[f[i]] = 1;
            for (int j = 0; j < h; j++)
                row[j] += a[j];
        }
    }
    return diff * diff;
}

// --- the trainer --------------------------------------------------------------------------

NnueTrainConfig nnue_train_config_default(void) {
    return (NnueTrainConfig){.hidden = NNUE_L1,
                             .out_buckets = 1,
                             .epochs = 10,
                             .batch = 16384,
                             .threads = 1,
                             .lr = 0.001,
                             .lr_min = 0.00001,
                             .weight_decay = 0.01,
                             .beta1 = 0.9,
                             .beta2 = 0.999,
                             .eps = 1e-8,
                             .lambda = 0.5,
                             .s = 0,
                             .scale = 400,
                             .input_set = NNUE_INPUT_PLAIN,
                             .clip = NNUE_TRAIN_CLIP,
                             .out_clip = (double)(NNUE_OUT_WEIGHT_MAX - 1) / NNUE_QB,
                             .seed = 1,
                             .variant = "janggi"};
}

Status nnue_trainer_init(NnueTrainer *t, const NnueTrainConfig *cfg, ErrorInfo *err) {
    memset(t, 0, sizeof *t);
    t->cfg = *cfg;
    const int inputs = nnue_train_inputs(cfg->input_set);
    Status s = float_net_init(&t->net, inputs, cfg->hidden, cfg->out_buckets, cfg->seed, err);
    if (s != STATUS_OK)
        return s;
    size_t n = t->net.n, nt = (size_t)cfg->threads;
    t->m = calloc(n, sizeof *t->m), t->v = calloc(n, sizeof *t->v);
    t->epochs = calloc((size_t)cfg->epochs, sizeof *t->epochs);
    t->grad = calloc(nt, sizeof *t->grad), t->touched = calloc(nt, sizeof *t->touched);
    t->any_touched = calloc((size_t)inputs, 1);
    bool ok = t->m && t->v && t->epochs && t->grad && t->touched && t->any_touched;
    for (size_t k = 0; ok && k < nt; k++)
        ok = (t->grad[k] = calloc(n, sizeof(float))) && (t->touched[k] = calloc((size_t)inputs, 1));
    if (ok && cfg->input_set == NNUE_INPUT_PALACE) {
        const size_t rows = (size_t)NNUE_PALACE_BUCKETS * NNUE_INPUTS;
        ok = (t->folded = aligned_alloc(64, (rows * (size_t)cfg->hidden * sizeof(float) + 63) / 64 *
                                                64)) != NULL;
        t->view = t->net;
        t->view.inputs = (int)rows, t->view.ft_w = t->folded;
    }
    return ok ? STATUS_OK : error_set(err, STATUS_NOMEM, "out of memory for the trainer");
}

void nnue_trainer_free(NnueTrainer *t) {
    for (int k = 0; k < t->cfg.threads; k++) {
        if (t->grad)
            free(t->grad[k]);
        if (t->touched)
            free(t->touched[k]);
    }
    free(t->grad), free(t->touched), free(t->any_touched);
    free(t->m), free(t->v), free(t->epochs), free(t->folded);
    float_net_free(&t->net);
    memset(t, 0, sizeof *t);
}

static double lr_at(const NnueTrainConfig *c, int64_t step, int64_t total) {
    double x = total > 1 ? (double)step / (double)(total - 1) : 1.0;
    return c->lr_min + 0.5 * (c->lr - c->lr_min) * (1.0 + cos(M_PI * (x > 1 ? 1 : x)));
}

// AdamW on elements [lo, hi), every weight kept in +-clip: the batch gradient summed over
// threads in thread order (per element 0 + thread 0 + thread 1 ...) and the threads' gradients
// zeroed, a chunk at a time in separate loops without branches, so that the compiler vectorises
// them (sqrtf too: -fno-math-errno, tuner/nnue/CMakeLists.txt).
static void adam_range(NnueTrainer *t, size_t lo, size_t hi, float clip, float inv_batch, float lr,
                       float bc1, float bc2) {
    enum { CHUNK = 1024 };
    const NnueTrainConfig *c = &t->cfg;
    const float b1 = (float)c->beta1, b2 = (float)c->beta2, eps = (float)c->eps;
    const float wd = (float)c->weight_decay;
    _Alignas(64) float g[CHUNK];
    for (size_t at = lo; at < hi; at += CHUNK) {
        const size_t n = hi - at < CHUNK ? hi - at : CHUNK;
        float *restrict p = t->net.p + at, *restrict m = t->m + at, *restrict v = t->v + at;
        for (size_t j = 0; j < n; j++)
            g[j] = 0;
        for (int k = 0; k < c->threads; k++) {
            float *restrict gk = t->grad[k] + at;
            for (size_t j = 0; j < n; j++)
                g[j] += gk[j];
            memset(gk, 0, n * sizeof *gk);
        }
        for (size_t j = 0; j < n; j++) {
            const float gj = g[j] * inv_batch;
            m[j] = b1 * m[j] + (1 - b1) * gj;
            v[j] = b2 * v[j] + (1 - b2) * gj * gj;
            const float x = p[j] - lr * ((m[j] / bc1) / (sqrtf(v[j] / bc2) + eps) + wd * p[j]);
            p[j] = x > clip ? clip : x < -clip ? -clip : x;
        }
    }
}

// AdamW on the dense tail (feature bias, output weights and biases): output weights have the
// tighter range, a quantised one fits NNUE_OUT_WEIGHT_MAX.
static void adam_tail(NnueTrainer *t, float inv_batch, float lr, float bc1, float bc2) {
    const NnueTrainConfig *c = &t->cfg;
    const size_t b = (size_t)(t->net.ft_b - t->net.p), w = (size_t)(t->net.out_w - t->net.p);
    const size_t o = (size_t)(t->net.out_b - t->net.p);
    adam_range(t, b, w, (float)c->clip, inv_batch, lr, bc1, bc2);
    adam_range(t, w, o, (float)c->out_clip, inv_batch, lr, bc1, bc2);
    adam_range(t, o, t->net.n, (float)c->clip, inv_batch, lr, bc1, bc2);
}

// The net whose forward and gradient a step takes: a palace net's view of its folded rows,
// refreshed from the weights (bucket row + shared row, threads splitting the rows), else the net.
static const FloatNet *fold(const NnueTrainer *t) {
    if (!t->folded)
        return &t->net;
    const size_t h = (size_t)t->net.hidden, rows = (size_t)NNUE_PALACE_BUCKETS * NNUE_INPUTS;
    const float *w = t->net.ft_w, *shared = w + rows * h;
    float *out = t->folded;
#pragma omp parallel for schedule(static) num_threads(t->cfg.threads)
    for (size_t r = 0; r < rows; r++)
        for (size_t j = 0; j < h; j++)
            out[r * h + j] = w[r * h + j] + shared[(r % NNUE_INPUTS) * h + j];
    return &t->view;
}

// A palace net's shared rows: each one's gradient is the sum of its 9 bucket rows', and it is
// touched when any of them was (one thread's gradient, in bucket order: deterministic).
static void shared_gradient(const NnueTrainer *t, int me) {
    const size_t h = (size_t)t->net.hidden, rows = (size_t)NNUE_PALACE_BUCKETS * NNUE_INPUTS;
    float *g = t->grad[me];
    uint8_t *touched = t->touched[me];
    for (size_t f = 0; f < NNUE_INPUTS; f++) {
        float *restrict shared = g + (rows + f) * h;
        for (size_t k = 0; k < NNUE_PALACE_BUCKETS; k++) {
            size_t r = k * NNUE_INPUTS + f;
            if (!touched[r])
                continue;
            touched[rows + f] = 1;
            const float *restrict row = g + r * h;
            for (size_t j = 0; j < h; j++)
                shared[j] += row[j];
        }
    }
}

// One optimiser step on the batch of `batch` positions at pos.
static double train_step(NnueTrainer *t, const NnuePosition *pos, size_t batch,
                         int64_t total_steps) {
    const NnueTrainConfig *c = &t->cfg;
    const int nt = c->threads, h = t->net.hidden, inputs = t->net.inputs;
    double loss[64] = {0}, k = c->scale / c->s;
    t->step++;
    const float lr = (float)lr_at(c, t->step - 1, total_steps);
    const float bc1 = (float)(1 - pow(c->beta1, (double)t->step));
    const float bc2 = (float)(1 - pow(c->beta2, (double)t->step));
    const FloatNet *fw = fold(t);
#pragma omp parallel num_threads(nt)
    {
        // The team may be smaller than asked (OMP_THREAD_LIMIT): split over the team there is.
        int me = omp_get_thread_num(), team = omp_get_num_threads();
        size_t lo = batch * (size_t)me / (size_t)team;
        size_t hi = batch * (size_t)(me + 1) / (size_t)team;
        double l = 0;
        for (size_t i = lo; i < hi; i++)
            l += float_net_backward(fw, &pos[i], c->lambda, k, c->s, t->grad[me], t->touched[me]);
        if (t->folded)
            shared_gradient(t, me);
        loss[me] = l;
#pragma omp barrier
#pragma omp for schedule(static)
        for (int r = 0; r < inputs; r++) {
            uint8_t any = 0;
            for (int q = 0; q < nt; q++)
                any |= t->touched[q][r], t->touched[q][r] = 0;
            t->any_touched[r] = any;
        }
        // Feature rows a batch did not touch keep their weights and moments (sparse AdamW);
        // one more unit for the dense tail (feature bias, output layer).
#pragma omp for schedule(static)
        for (int r = 0; r <= inputs; r++) {
            if (r < inputs && t->any_touched[r])
                adam_range(t, (size_t)r * h, (size_t)(r + 1) * h, (float)c->clip,
                           1.0f / (float)batch, lr, bc1, bc2);
            else if (r == inputs)
                adam_tail(t, 1.0f / (float)batch, lr, bc1, bc2);
        }
    }
    double sum = 0;
    for (int q = 0; q < nt; q++)
        sum += loss[q];
    return sum;
}

double nnue_trainer_loss(const NnueTrainer *t, const NnuePosition *pos, size_t n) {
    const NnueTrainConfig *c = &t->cfg;
    double part[64] = {0}, k = c->scale / c->s;
    const FloatNet *fw = fold(t);
#pragma omp parallel num_threads(c->threads)
    {
        int me = omp_get_thread_num(), nt = omp_get_num_threads();
        double l = 0;
        for (size_t i = n * (size_t)me / (size_t)nt; i < n * (size_t)(me + 1) / (size_t)nt; i++)
            l += float_net_backward(fw, &pos[i], c->lambda, k, c->s, NULL, NULL);
        part[me] = l;
    }
    double sum = 0;
    for (int q = 0; q < c->threads; q++)
        sum += part[q];
    return n ? sum / (double)n : 0;
}

static double cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

Status nnue_trainer_epoch_stream(NnueTrainer *t, NnueStream *s, const NnuePosition *valid,
                                 size_t nvalid, ErrorInfo *err) {
    const NnueTrainConfig *c = &t->cfg;
    if (s->batch != (size_t)c->batch)
        return error_set(err, STATUS_RANGE, "batches of %zu positions, the trainer takes %d",
                         s->batch, c->batch);
    nnue_stream_epoch(s, t->epoch);
    const size_t batch = (size_t)c->batch, ntrain = nnue_stream_positions(s);
    const size_t steps = (ntrain + batch - 1) / batch;
    const int64_t total = (int64_t)steps * c->epochs;
    double t0 = omp_get_wtime(), c0 = cpu_seconds(), loss = 0;
    const NnuePosition *pos;
    size_t n, seen = 0;
    Status st;
    while ((st = nnue_stream_next(s, &pos, &n, err)) == STATUS_OK && n > 0)
        loss += train_step(t, pos, n, total), seen += n;
    if (st != STATUS_OK)
        return st;
    if (seen != ntrain) // nnue_stream_next's promise: a bug, not bad data
        return error_set(err, STATUS_RANGE, "an epoch of %zu positions trained %zu", ntrain, seen);
    double secs = omp_get_wtime() - t0, cpu = cpu_seconds() - c0;
    NnueEpoch *e = &t->epochs[t->epoch];
    e->train_loss = loss / (double)ntrain;
    e->pos_per_s = secs > 0 ? (double)ntrain / secs : 0;
    e->pos_per_cpu_s = cpu > 0 ? (double)ntrain / cpu : 0;
    e->valid_loss = nnue_trainer_loss(t, valid, nvalid);
    t->epoch++;
    return STATUS_OK;
}

void nnue_trainer_epoch(NnueTrainer *t, const NnuePosition *train, size_t ntrain,
                        const NnuePosition *valid, size_t nvalid) {
    NnueStream s;
    ErrorInfo err;
    if (nnue_stream_init_held(&s, train, ntrain, false, (size_t)t->cfg.batch, t->cfg.seed, &err) !=
        STATUS_OK)
        return; // callers size the data; a failed allocation leaves the epoch undone
    (void)nnue_trainer_epoch_stream(t, &s, valid, nvalid, &err);
    nnue_stream_free(&s);
}
