// SPDX-License-Identifier: MIT
// Tuner core on synthetic sparse data: gradient against central finite
// differences, recovery of known weights, the K fit, freezing, determinism.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "optimizer.h"
#include "prng.h"
#include "trace_store.h"

enum { NP = 10, PHASE_MAX = 24 };

// Random sparse positions: every parameter occurs, coefficients in -3..3, all phases.
static void make_store(TraceStore *s, size_t n, uint64_t seed) {
    trace_store_init(s, NP, PHASE_MAX);
    ErrorInfo err;
    for (size_t j = 0; j < n; j++) {
        TraceEntry e[NP];
        int c = 0;
        for (int i = 0; i < NP; i++) {
            int coef = (int)(prng_next(&seed) % 7) - 3;
            if (coef != 0 && (prng_next(&seed) & 3) != 0)
                e[c++] = (TraceEntry){(uint16_t)i, (int16_t)coef};
        }
        int phase = (int)(prng_next(&seed) % (PHASE_MAX + 1));
        int result = (int)(prng_next(&seed) & 1);
        int score = (int)(prng_next(&seed) % 801) - 400;
        assert_int_equal(trace_store_add(s, e, c, phase, result, score, 0, &err), STATUS_OK);
    }
}

static void random_weights(double *w, uint64_t seed, double range) {
    for (int i = 0; i < 2 * NP; i++)
        w[i] = ((double)(prng_next(&seed) >> 11) / 9007199254740992.0 * 2 - 1) * range;
}

// The same with the last ND of the NP parameters danger parameters (trace_store.h): per side
// counts 0..3, stored for the side to move and for the other side; the offset-like first of
// them counted once for both sides in every position, as DANGER_OFFSET is.
enum { ND = 4 };

static void make_danger_store(TraceStore *s, size_t n, uint64_t seed) {
    trace_store_init(s, NP, PHASE_MAX);
    trace_store_set_danger(s, NP - ND, NP);
    ErrorInfo err;
    for (size_t j = 0; j < n; j++) {
        TraceEntry e[NP + ND];
        int c = 0;
        for (int i = 0; i < NP - ND; i++) {
            int coef = (int)(prng_next(&seed) % 7) - 3;
            if (coef != 0 && (prng_next(&seed) & 3) != 0)
                e[c++] = (TraceEntry){(uint16_t)i, (int16_t)coef};
        }
        for (int side = 0; side < 2; side++)
            for (int d = 0; d < ND; d++) {
                int count = d == 0 ? 1 : (int)(prng_next(&seed) % 4);
                if (count)
                    e[c++] = (TraceEntry){(uint16_t)(NP + side * ND + d), (int16_t)count};
            }
        int phase = (int)(prng_next(&seed) % (PHASE_MAX + 1));
        int result = (int)(prng_next(&seed) & 1);
        int score = (int)(prng_next(&seed) % 801) - 400;
        assert_int_equal(trace_store_add(s, e, c, phase, result, score, 0, &err), STATUS_OK);
    }
}

// The danger terms' gradient through the square (chain rule) against central finite
// differences, for every parameter; some positions on each side of the kink at 0, and the
// integer rebuild equal to the real evaluation up to the truncations.
static void test_danger_gradient_matches_finite_differences(void **state) {
    (void)state;
    TraceStore s;
    make_danger_store(&s, 400, 17);
    double w[2 * NP], g[2 * NP], k = 1.1;
    random_weights(w, 19, 60);
    for (int i = NP - ND + 1; i < NP; i++) // attack features positive, the offset negative
        w[2 * i] = fabs(w[2 * i]) + 30, w[2 * i + 1] = fabs(w[2 * i + 1]) + 30;
    w[2 * (NP - ND)] = -120, w[2 * (NP - ND) + 1] = -100;
    int positive = 0, zero = 0;
    EvalWeight iw[NP];
    double wi[2 * NP];
    for (int i = 0; i < NP; i++) {
        iw[i] = (EvalWeight){(int)w[2 * i], (int)w[2 * i + 1]};
        wi[2 * i] = iw[i].mg, wi[2 * i + 1] = iw[i].eg;
    }
    for (size_t j = 0; j < s.npos; j++) {
        TraceDanger dz;
        trace_store_eval_pos(&s, &s.pos[j], w, &dz);
        for (int side = 0; side < 2; side++)
            positive += dz.mg[side] > 1, zero += dz.mg[side] < -1;
        // Integer weights: the rebuild truncates each square and the taper, nothing else.
        assert_true(fabs(trace_store_rebuild(&s, j, iw) - trace_store_eval(&s, j, wi)) < 3);
    }
    assert_true(positive > 100 && zero > 100);
    tune_set_targets(&s, k, 0.3);
    double *scratch = calloc(2 * tune_scratch_stride(&s), sizeof *scratch);
    tune_gradient(&s, 0, s.npos, w, k, 1, g, scratch);
    for (int i = 0; i < 2 * NP; i++) {
        const double h = 1e-3;
        double save = w[i];
        w[i] = save + h;
        double up = tune_loss(&s, w, k, 1);
        w[i] = save - h;
        double down = tune_loss(&s, w, k, 1);
        w[i] = save;
        double fd = (up - down) / (2 * h);
        assert_true(fabs(g[i]) > 1e-9);
        double rel = fabs(fd - g[i]) / fabs(g[i]);
        if (rel > 1e-6)
            fail_msg("param %d: analytic %.12e finite difference %.12e rel %.3e", i, g[i], fd, rel);
    }
    free(scratch);
    trace_store_free(&s);
}

static void test_gradient_matches_finite_differences(void **state) {
    (void)state;
    TraceStore s;
    make_store(&s, 300, 7);
    double w[2 * NP], g[2 * NP], g2[2 * NP], g3[2 * NP], k = 1.3;
    random_weights(w, 11, 60);
    tune_set_targets(&s, k, 0.3);
    double *scratch = calloc(2 * tune_scratch_stride(&s), sizeof *scratch);
    double loss = tune_gradient(&s, 0, s.npos, w, k, 1, g, scratch);
    assert_true(fabs(loss - tune_loss(&s, w, k, 1)) < 1e-15);
    double worst = 0;
    for (int i = 0; i < 2 * NP; i++) {
        const double h = 1e-3;
        double save = w[i];
        w[i] = save + h;
        double up = tune_loss(&s, w, k, 1);
        w[i] = save - h;
        double down = tune_loss(&s, w, k, 1);
        w[i] = save;
        double fd = (up - down) / (2 * h);
        assert_true(fabs(g[i]) > 1e-9); // every parameter occurs in the fixture
        double rel = fabs(fd - g[i]) / fabs(g[i]);
        worst = fmax(worst, rel);
        if (rel > 1e-6)
            fail_msg("param %d: analytic %.12e finite difference %.12e rel %.3e", i, g[i], fd, rel);
    }
    printf("    worst relative error %.2e over %d parameters\n", worst, 2 * NP);
    // Two threads: the same gradient up to rounding, and bitwise the same run after run.
    tune_gradient(&s, 0, s.npos, w, k, 2, g2, scratch);
    tune_gradient(&s, 0, s.npos, w, k, 2, g3, scratch);
    for (int i = 0; i < 2 * NP; i++) {
        assert_true(fabs(g2[i] - g[i]) <= 1e-12 * fabs(g[i]));
        assert_memory_equal(&g2[i], &g3[i], sizeof(double));
    }
    free(scratch);
    trace_store_free(&s);
}

// The ranks' shares of tune_gradient_split (issue 15) are those of one process's threads: with
// one thread per rank (without MPI each call returns only its own share), rank 0's plus
// rank 1's plus rank 2's gradient, added in that order, is bit for bit the gradient of three
// threads (OpenMP's static split of 301 positions: 101, 100, 100), and the shares' losses add
// up to the loss.
static void test_gradient_split_over_ranks(void **state) {
    (void)state;
    TraceStore s;
    make_store(&s, 301, 29);
    double w[2 * NP], k = 1.1, one[2 * NP], sum[2 * NP] = {0}, share[2 * NP];
    random_weights(w, 31, 80);
    tune_set_targets(&s, k, 0.3);
    double *scratch = calloc(4 * tune_scratch_stride(&s) + 1, sizeof *scratch);
    tune_gradient(&s, 0, s.npos, w, k, 3, one, scratch);
    double loss = 0, one_loss = tune_loss(&s, w, k, 3);
    for (int rank = 0; rank < 3; rank++) {
        size_t at, hi; // a store of the whole set: the rank's share starts at its own index
        tune_static_share(0, s.npos, 3, rank, &at, &hi);
        loss += tune_gradient_split(&s, 0, s.npos, at, w, k, 1, rank, 3, share, scratch);
        for (int i = 0; i < 2 * NP; i++)
            sum[i] += share[i];
    }
    for (int i = 0; i < 2 * NP; i++)
        if (memcmp(&sum[i], &one[i], sizeof(double)) != 0)
            fail_msg("param %d: ranks %.17g, three threads %.17g", i, sum[i], one[i]);
    assert_true(fabs(loss - one_loss) <= 1e-15);
    free(scratch);
    trace_store_free(&s);
}

// The shares of share.h partition the set: in every batch, rank r's held range is exactly the
// union of its threads' static shares, every position is held by one rank, and each rank's
// local indices run 0 .. count-1 batch after batch.
static void test_shares_partition(void **state) {
    (void)state;
    const size_t npos = 1001, batches[] = {96, 0, 1001, 5000, 7};
    for (size_t bi = 0; bi < sizeof batches / sizeof batches[0]; bi++) {
        unsigned char *seen = calloc(npos, 1);
        for (int rank = 0; rank < 3; rank++) {
            TuneShare sh = tune_share_make(npos, batches[bi], rank, 3, 2);
            size_t next = 0;
            for (size_t b = 0; b < tune_share_batches(&sh); b++) {
                size_t begin, end, lo, hi, at, tlo, thi, x;
                tune_share_batch(&sh, b, &begin, &end, &lo, &hi, &at);
                assert_int_equal(at, next);
                tune_static_share(begin, end, 6, 2 * rank, &tlo, &x);
                tune_static_share(begin, end, 6, 2 * rank + 1, &x, &thi);
                assert_int_equal(lo, tlo);
                assert_int_equal(hi, thi);
                for (size_t j = lo; j < hi; j++)
                    seen[j]++;
                next += hi - lo;
            }
            assert_int_equal(tune_share_count(&sh), next);
        }
        for (size_t j = 0; j < npos; j++)
            assert_int_equal(seen[j], 1);
        free(seen);
    }
}

// Rank r's compact store: its held positions of s under sh, batch after batch.
static void held_store(const TraceStore *s, const TuneShare *sh, TraceStore *out) {
    trace_store_init(out, s->nparams, s->phase_max);
    ErrorInfo err;
    for (size_t b = 0; b < tune_share_batches(sh); b++) {
        size_t begin, end, lo, hi, at;
        tune_share_batch(sh, b, &begin, &end, &lo, &hi, &at);
        for (size_t j = lo; j < hi; j++) {
            const TracePos *p = &s->pos[j];
            assert_int_equal(trace_store_add(out, s->entries + p->start, p->count, p->phase,
                                             p->result, p->score, p->eval, &err),
                             STATUS_OK);
            out->pos[out->npos - 1].target = p->target;
        }
    }
}

// Ranks holding only their shares (without MPI each call returns its own part; one thread per
// rank, so adding the parts in rank order is the chain's order): the batches' gradients from
// the compact stores are bit for bit those of one process with three threads, and the losses
// add up to its loss.
static void test_gradient_on_held_shares(void **state) {
    (void)state;
    TraceStore s;
    make_store(&s, 503, 41);
    double w[2 * NP], k = 0.9;
    random_weights(w, 43, 70);
    tune_set_targets(&s, k, 0.2);
    const size_t batch = 64;
    double *scratch = calloc(7 * tune_scratch_stride(&s) + 1, sizeof *scratch);
    TraceStore held[3];
    TuneShare sh[3];
    for (int rank = 0; rank < 3; rank++)
        sh[rank] = tune_share_make(s.npos, batch, rank, 3, 1),
        held_store(&s, &sh[rank], &held[rank]);
    for (size_t b = 0; b < tune_share_batches(&sh[0]); b++) {
        double one[2 * NP], sum[2 * NP] = {0}, part[2 * NP];
        size_t begin, end, lo, hi, at;
        tune_share_batch(&sh[0], b, &begin, &end, &lo, &hi, &at);
        double one_loss = tune_gradient(&s, begin, end, w, k, 3, one, scratch), loss = 0;
        for (int rank = 0; rank < 3; rank++) {
            tune_share_batch(&sh[rank], b, &begin, &end, &lo, &hi, &at);
            loss +=
                tune_gradient_split(&held[rank], begin, end, at, w, k, 1, rank, 3, part, scratch) *
                (double)(end - begin);
            for (int i = 0; i < 2 * NP; i++)
                sum[i] += part[i];
        }
        assert_memory_equal(sum, one, sizeof one);
        assert_true(fabs(loss / (double)(end - begin) - one_loss) <= 1e-15);
    }
    // The whole set as one batch (the validation set): the loss of the shares.
    double loss = 0, one_loss = tune_loss(&s, w, k, 3);
    for (int rank = 0; rank < 3; rank++) {
        TuneShare v = tune_share_make(s.npos, 0, rank, 3, 1);
        TraceStore vs;
        held_store(&s, &v, &vs);
        loss += tune_loss_split(&vs, s.npos, 0, w, k, 1, rank, 3) * (double)s.npos;
        trace_store_free(&vs);
    }
    assert_true(fabs(loss / (double)s.npos - one_loss) <= 1e-15);
    for (int rank = 0; rank < 3; rank++)
        trace_store_free(&held[rank]);
    free(scratch);
    trace_store_free(&s);
}

// One rank's share is the whole set: tune_loss_share and tune_fit_k_share are bit for bit
// tune_loss and tune_fit_k with the same threads (the gathered sums in the same order).
static void test_share_one_rank(void **state) {
    (void)state;
    TraceStore s;
    make_store(&s, 777, 51);
    double w[2 * NP], k = 1.3, loss, kk;
    random_weights(w, 53, 60);
    tune_set_targets(&s, k, 0);
    TuneShare sh = tune_share_make(s.npos, 100, 0, 1, 3);
    ErrorInfo err;
    assert_int_equal(tune_loss_share(&s, &sh, w, k, &loss, &err), STATUS_OK);
    double one = tune_loss(&s, w, k, 3);
    assert_memory_equal(&loss, &one, sizeof loss);
    assert_int_equal(tune_fit_k_share(&s, &sh, w, &kk, &err), STATUS_OK);
    one = tune_fit_k(&s, w, 3);
    assert_memory_equal(&kk, &one, sizeof kk);
    trace_store_free(&s);
}

// trace_store_shuffle is trace_store_permute by trace_store_shuffle_order (the order the
// ranks compute without the traces).
static void test_shuffle_order(void **state) {
    (void)state;
    TraceStore a, b;
    make_store(&a, 257, 61);
    make_store(&b, 257, 61);
    ErrorInfo err;
    size_t order[257];
    trace_store_shuffle_order(order, 257, 99);
    assert_int_equal(trace_store_shuffle(&a, 99, &err), STATUS_OK);
    TraceStore c;
    make_store(&c, 257, 61);
    assert_int_equal(trace_store_permute(&b, order, &err), STATUS_OK);
    for (size_t i = 0; i < 257; i++) {
        const TracePos *p = &a.pos[i], *q = &b.pos[i], *o = &c.pos[order[i]];
        assert_int_equal(p->count, o->count);
        assert_int_equal(p->phase, o->phase);
        assert_memory_equal(p, q, sizeof *p);
        assert_memory_equal(a.entries + p->start, c.entries + o->start,
                            p->count * sizeof(TraceEntry));
        assert_memory_equal(b.entries + q->start, c.entries + o->start,
                            q->count * sizeof(TraceEntry));
    }
    trace_store_free(&a);
    trace_store_free(&b);
    trace_store_free(&c);
}

// The regularised objective J = MSE + (l2 / N) * sum((w - w0) / 100)^2: its value on a known
// deviation, its gradient against central finite differences, and its pull in training.
static void test_l2_objective(void **state) {
    (void)state;
    TraceStore s;
    make_store(&s, 300, 17);
    double w[2 * NP], w0[2 * NP], g[2 * NP], k = 1.3;
    random_weights(w, 12, 60);
    random_weights(w0, 13, 60);
    tune_set_targets(&s, k, 0.2);
    TuneConfig cfg = {.l2 = 2};
    // One weight one pawn away from w0, on 100 positions: 2 / 100 * 1^2.
    double a[2 * NP] = {0}, b[2 * NP] = {0};
    b[5] = 100;
    assert_true(fabs(tune_penalty(&cfg, NP, 100, a, b, NULL) - 0.02) < 1e-15);
    assert_true(tune_penalty(&cfg, NP, 0, a, b, NULL) == 0);
    cfg.l2 = 0;
    assert_true(tune_penalty(&cfg, NP, 100, a, b, NULL) == 0);
    // Gradient of J, with l2 large enough that the penalty is a fair share of it.
    cfg.l2 = 3000;
    double *scratch = calloc(tune_scratch_stride(&s), sizeof *scratch);
    tune_gradient(&s, 0, s.npos, w, k, 1, g, scratch);
    double pen = tune_penalty(&cfg, NP, s.npos, w0, w, g);
    assert_true(pen > 0.1 * tune_loss(&s, w, k, 1));
    for (int i = 0; i < 2 * NP; i++) {
        const double h = 1e-3;
        double save = w[i];
        w[i] = save + h;
        double up = tune_loss(&s, w, k, 1) + tune_penalty(&cfg, NP, s.npos, w0, w, NULL);
        w[i] = save - h;
        double down = tune_loss(&s, w, k, 1) + tune_penalty(&cfg, NP, s.npos, w0, w, NULL);
        w[i] = save;
        double fd = (up - down) / (2 * h), rel = fabs(fd - g[i]) / fabs(g[i]);
        if (rel > 1e-6)
            fail_msg("param %d: analytic %.12e finite difference %.12e rel %.3e", i, g[i], fd, rel);
    }
    free(scratch);
    // Training from w0: without the prior the weights move far; a strong one keeps them near
    // w0, and the trained weights lower J, not only the MSE.
    TuneConfig t = {.method = TUNE_ADAM,
                    .lr = 2,
                    .beta1 = 0.9,
                    .beta2 = 0.999,
                    .epsilon = 1e-8,
                    .epochs = 100,
                    .batch = 0,
                    .threads = 1,
                    .seed = 1,
                    .k = k};
    TuneResult r;
    ErrorInfo err;
    double free_w[2 * NP], held[2 * NP], free_dev = 0, held_dev = 0;
    memcpy(free_w, w0, sizeof w0), memcpy(held, w0, sizeof w0);
    assert_int_equal(tune_train(&s, NULL, &t, free_w, NULL, NULL, &r, &err), STATUS_OK);
    t.l2 = 1e5, t.lr = 0.1; // small steps: Adam's steps do not shrink by themselves
    assert_int_equal(tune_train(&s, NULL, &t, held, NULL, NULL, &r, &err), STATUS_OK);
    for (int i = 0; i < 2 * NP; i++)
        free_dev = fmax(free_dev, fabs(free_w[i] - w0[i])),
        held_dev = fmax(held_dev, fabs(held[i] - w0[i]));
    if (!(free_dev > 50 && held_dev < 0.25 * free_dev))
        fail_msg("largest move %.2f cp without the prior, %.2f cp with l2 1e5", free_dev, held_dev);
    double j_start = tune_loss(&s, w0, k, 1);
    assert_true(tune_loss(&s, held, k, 1) + tune_penalty(&t, NP, s.npos, w0, held, NULL) < j_start);
    // A negative weight is a setting error.
    t.l2 = -1;
    assert_int_equal(tune_train(&s, NULL, &t, held, NULL, NULL, &r, &err), STATUS_RANGE);
    trace_store_free(&s);
}

static void test_rebuild_matches_eval(void **state) {
    (void)state;
    TraceStore s;
    make_store(&s, 200, 3);
    EvalWeight iw[NP];
    double w[2 * NP];
    for (int i = 0; i < NP; i++) {
        iw[i] = (EvalWeight){(i * 37) % 101 - 50, (i * 53) % 97 - 48};
        w[2 * i] = iw[i].mg, w[2 * i + 1] = iw[i].eg;
    }
    for (size_t j = 0; j < s.npos; j++) {
        double e = trace_store_eval(&s, j, w);
        assert_int_equal(trace_store_rebuild(&s, j, iw), (int)trunc(e));
    }
    assert_true(trace_store_bytes_per_position(&s) <=
                16 + 4 * trace_store_entries_per_position(&s) + 1e-9);
    trace_store_free(&s);
}

static void test_recovery_of_known_weights(void **state) {
    (void)state;
    TraceStore s, v;
    make_store(&s, 4000, 21);
    make_store(&v, 1000, 22);
    double truth[2 * NP], w[2 * NP] = {0}, k = 1.0;
    random_weights(truth, 5, 80);
    // Soft labels from the known weights.
    for (int pass = 0; pass < 2; pass++) {
        TraceStore *st = pass ? &v : &s;
        for (size_t j = 0; j < st->npos; j++)
            st->pos[j].target = (float)tune_sigmoid(k, trace_store_eval(st, j, truth));
    }
    TuneConfig cfg = {.method = TUNE_ADAM,
                      .lr = 2,
                      .beta1 = 0.9,
                      .beta2 = 0.999,
                      .epsilon = 1e-8,
                      .epochs = 400,
                      .batch = 500,
                      .patience = 0,
                      .threads = 2,
                      .seed = 1,
                      .k = k};
    TuneResult r;
    ErrorInfo err;
    assert_int_equal(tune_train(&s, &v, &cfg, w, NULL, NULL, &r, &err), STATUS_OK);
    double maxw = 0, maxp = 0;
    for (int i = 0; i < 2 * NP; i++)
        maxw = fmax(maxw, fabs(w[i] - truth[i]));
    for (size_t j = 0; j < v.npos; j++)
        maxp = fmax(maxp, fabs(tune_sigmoid(k, trace_store_eval(&v, j, w)) - v.pos[j].target));
    if (maxw > 0.5 || maxp > 1e-3)
        fail_msg("max weight error %.4f cp, max prediction error %.2e", maxw, maxp);
    trace_store_free(&s);
    trace_store_free(&v);
}

static void test_fit_k(void **state) {
    (void)state;
    TraceStore s;
    make_store(&s, 60000, 99);
    double w[2 * NP], k0 = 1.7;
    random_weights(w, 8, 60);
    uint64_t rng = 1234;
    for (size_t j = 0; j < s.npos; j++) {
        double p = tune_sigmoid(k0, trace_store_eval(&s, j, w));
        s.pos[j].result = (double)(prng_next(&rng) >> 11) / 9007199254740992.0 < p;
    }
    double k = tune_fit_k(&s, w, 2);
    if (fabs(k - k0) > 0.1 * k0)
        fail_msg("fitted K %.4f, true %.4f", k, k0);
    trace_store_free(&s);
}

static void test_freeze_determinism_gd(void **state) {
    (void)state;
    TraceStore s;
    make_store(&s, 2000, 5);
    double w0[2 * NP], w1[2 * NP], w2[2 * NP];
    random_weights(w0, 9, 30);
    uint8_t frozen[NP] = {0};
    frozen[3] = frozen[7] = 1;
    TuneConfig cfg = {.method = TUNE_ADAM,
                      .lr = 1,
                      .beta1 = 0.9,
                      .beta2 = 0.999,
                      .epsilon = 1e-8,
                      .epochs = 5,
                      .batch = 128,
                      .threads = 2,
                      .seed = 42,
                      .k = 1.1,
                      .frozen = frozen};
    TuneResult r;
    ErrorInfo err;
    double before = tune_loss(&s, w0, cfg.k, 1);
    memcpy(w1, w0, sizeof w0), memcpy(w2, w0, sizeof w0);
    assert_int_equal(tune_train(&s, NULL, &cfg, w1, NULL, NULL, &r, &err), STATUS_OK);
    assert_int_equal(tune_train(&s, NULL, &cfg, w2, NULL, NULL, &r, &err), STATUS_OK);
    assert_memory_equal(w1, w2, sizeof w1);
    for (int i = 0; i < 2 * NP; i++)
        if (frozen[i / 2])
            assert_memory_equal(&w1[i], &w0[i], sizeof(double));
    assert_true(tune_loss(&s, w1, cfg.k, 1) < before);
    // Plain gradient descent, full batch, also lowers the loss.
    cfg.method = TUNE_GD, cfg.lr = 20000, cfg.batch = 0, cfg.epochs = 20;
    memcpy(w2, w0, sizeof w0);
    assert_int_equal(tune_train(&s, NULL, &cfg, w2, NULL, NULL, &r, &err), STATUS_OK);
    assert_true(tune_loss(&s, w2, cfg.k, 1) < before);
    // No training positions: an error, not a crash.
    TraceStore empty;
    trace_store_init(&empty, NP, PHASE_MAX);
    assert_int_equal(tune_train(&empty, NULL, &cfg, w2, NULL, NULL, &r, &err), STATUS_RANGE);
    trace_store_free(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gradient_matches_finite_differences),
        cmocka_unit_test(test_danger_gradient_matches_finite_differences),
        cmocka_unit_test(test_gradient_split_over_ranks),
        cmocka_unit_test(test_shares_partition),
        cmocka_unit_test(test_gradient_on_held_shares),
        cmocka_unit_test(test_share_one_rank),
        cmocka_unit_test(test_shuffle_order),
        cmocka_unit_test(test_l2_objective),
        cmocka_unit_test(test_rebuild_matches_eval),
        cmocka_unit_test(test_recovery_of_known_weights),
        cmocka_unit_test(test_fit_k),
        cmocka_unit_test(test_freeze_determinism_gd),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
