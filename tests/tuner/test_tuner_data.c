// SPDX-License-Identifier: MIT
// Tuner on real HDF5 files (random-move games written through the self-play store, generated
// here): trace parity on the whole data set, split by game, filters, thread independence,
// quiescence, bad inputs, values out of range, bad --init/--out reported before loading, and
// the header round trip (emit, re-parse, same predictions;
// hansu-tune byte-identical for the same input, seed and thread count).
#include <hdf5.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "board.h"
#include "dataset.h"
#include "dataset_internal.h"
#include "engine.h"
#include "eval_header.h"
#include "h5store.h"
#include "h5store_internal.h"
#include "janggi/eval_layout.h"
#include "optimizer.h"
#include "packed_board.h"
#include "prng.h"
#include "search.h"
#include "synth.h"
#include "trace_store.h"
#include "weights_io.h"
#include "xiangqi/eval_layout.h"

enum { FIXTURE_GAMES = 40 };

typedef struct Fixture {
    char dir[64];
    char file[128];
    ShardData data;
} Fixture;

static int setup(void **state) {
    engine_init();
    Fixture *fx = calloc(1, sizeof *fx);
    snprintf(fx->dir, sizeof fx->dir, "/tmp/hansu-tune-test-XXXXXX");
    if (!mkdtemp(fx->dir))
        return -1;
    snprintf(fx->file, sizeof fx->file, "%s/fixture.h5", fx->dir);
    shard_data_init(&fx->data);
    ErrorInfo err;
    StoreMeta meta = {.schema_version = H5STORE_SCHEMA_VERSION, .seed = 5, .shard = -1};
    snprintf(meta.engine_version, sizeof meta.engine_version, "test");
    if (synth_games(&fx->data, FIXTURE_GAMES, 100, 5, &err) != STATUS_OK ||
        h5store_write(fx->file, &meta, &fx->data, &err) != STATUS_OK) {
        fprintf(stderr, "fixture: %s\n", err.msg);
        return -1;
    }
    *state = fx;
    return 0;
}

static int teardown(void **state) {
    Fixture *fx = *state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fx->dir);
    if (system(cmd) != 0)
        return -1;
    shard_data_free(&fx->data);
    free(fx);
    return 0;
}

static DatasetFilter keep_all(void) {
    DatasetFilter f = dataset_filter_default();
    f.skip_plies = 0, f.skip_check = f.skip_capture = false, f.valid_fraction = 0;
    f.keep_order = true;
    return f;
}

static Status load(const char *path, const DatasetFilter *f, int threads, TraceStore *train,
                   TraceStore *valid, DatasetStats *ds, ErrorInfo *err) {
    char *p = (char *)path;
    trace_store_init(train, EVAL_PARAM_NB, EVAL_PHASE_MAX);
    trace_store_init(valid, EVAL_PARAM_NB, EVAL_PHASE_MAX);
    return dataset_load(&p, 1, f, threads, train, valid, ds, err);
}

static void test_trace_parity_on_data_set(void **state) {
    Fixture *fx = *state;
    DatasetFilter f = keep_all();
    TraceStore tr, va;
    DatasetStats ds;
    ErrorInfo err;
    assert_int_equal(load(fx->file, &f, 2, &tr, &va, &ds, &err), STATUS_OK);
    assert_int_equal(ds.positions, fx->data.positions.count);
    assert_int_equal(tr.npos, fx->data.positions.count);
    assert_int_equal(ds.refused, 0);
    assert_int_equal(ds.off_by_one, 0);
    // Every stored position rebuilt from its sparse trace equals a fresh engine evaluation
    // of the decoded board, exactly; the squared danger terms (stored per side) count in some.
    static Board b;
    static EvalWeight no_danger[EVAL_PARAM_NB];
    memcpy(no_danger, EVAL_WEIGHTS_FLAT, sizeof no_danger);
    for (int i = EVAL_SPEC_JANGGI.danger_begin; i < EVAL_SPEC_JANGGI.danger_end; i++)
        no_danger[i] = (EvalWeight){0, 0};
    assert_int_equal(tr.danger_end - tr.danger_begin,
                     EVAL_SPEC_JANGGI.danger_end - EVAL_SPEC_JANGGI.danger_begin);
    assert_true(tr.danger_end > tr.danger_begin);
    size_t with_danger = 0;
    for (size_t r = 0; r < tr.npos; r++) {
        with_danger += trace_store_rebuild(&tr, r, no_danger) !=
                       trace_store_rebuild(&tr, r, EVAL_WEIGHTS_FLAT);
        PackedBoard pb;
        memcpy(pb.sq, fx->data.positions.board + r * PACKED_BOARD_BYTES, PACKED_BOARD_BYTES);
        assert_int_equal(packed_board_decode(&pb, fx->data.positions.stm[r] ? HAN : CHO,
                                             fx->data.positions.ply[r], &b, &err),
                         STATUS_OK);
        int e = eval_evaluate(&b);
        // The engine clamps its evaluation (eval_clamp); the trace holds the linear formula.
        if (eval_clamp(trace_store_rebuild(&tr, r, EVAL_WEIGHTS_FLAT)) != e || tr.pos[r].eval != e)
            fail_msg("row %zu: rebuilt %d, engine %d", r,
                     trace_store_rebuild(&tr, r, EVAL_WEIGHTS_FLAT), e);
        assert_int_equal(tr.pos[r].result, fx->data.positions.result_stm[r] > 0);
    }
    printf("    %zu positions (%zu with a danger penalty), %.1f bytes/position, %.1f "
           "terms/position\n",
           tr.npos, with_danger, trace_store_bytes_per_position(&tr),
           trace_store_entries_per_position(&tr));
    assert_true(with_danger * 50 > tr.npos);
    trace_store_free(&tr);
    trace_store_free(&va);
}

static void test_split_by_game_and_threads(void **state) {
    Fixture *fx = *state;
    DatasetFilter f = keep_all();
    f.valid_fraction = 0.3, f.seed = 17;
    TraceStore t1, v1, t2, v2;
    DatasetStats ds;
    ErrorInfo err;
    assert_int_equal(load(fx->file, &f, 1, &t1, &v1, &ds, &err), STATUS_OK);
    // Whole games on each side: the positions of the validation games, no more, no fewer.
    size_t want_valid = 0, games_valid = 0;
    for (size_t g = 0; g < fx->data.games.count; g++)
        if (dataset_game_in_valid(fx->data.games.game_id[g], fx->data.games.seed[g], &f))
            want_valid += fx->data.games.plies[g], games_valid++;
    assert_true(games_valid > 0 && games_valid < FIXTURE_GAMES);
    assert_int_equal(v1.npos, want_valid);
    assert_int_equal(ds.valid_games, games_valid);
    assert_int_equal(t1.npos + v1.npos, fx->data.positions.count);
    // Two threads build exactly the same stores.
    assert_int_equal(load(fx->file, &f, 2, &t2, &v2, &ds, &err), STATUS_OK);
    assert_int_equal(t1.npos, t2.npos);
    assert_int_equal(t1.nentries, t2.nentries);
    assert_memory_equal(t1.pos, t2.pos, t1.npos * sizeof *t1.pos);
    assert_memory_equal(t1.entries, t2.entries, t1.nentries * sizeof *t1.entries);
    assert_memory_equal(v1.pos, v2.pos, v1.npos * sizeof *v1.pos);
    trace_store_free(&t1), trace_store_free(&v1), trace_store_free(&t2), trace_store_free(&v2);
}

// PV ends (a file of standalone positions, label --pv-ends) go with their source game: the split
// by its id (in their seed column) and seed 0, as label stores its games; --per-game caps the PV
// ends of one source game together; not counted as games.
static void test_pv_ends_split_by_source_game(void **state) {
    Fixture *fx = *state;
    enum { SOURCES = 20, PER = 5 };
    ShardData pv;
    shard_data_init(&pv);
    ErrorInfo err;
    assert_int_equal(shard_data_reserve(&pv, SOURCES * PER, SOURCES * PER, &err), STATUS_OK);
    pv.standalone = true;
    const PositionColumns *src = &fx->data.positions;
    for (size_t i = 0; i < SOURCES * PER; i++) { // one row each: what select_rows reads
        size_t r = 20 + i;
        pv.games.game_id[i] = 0x80000000u + (uint32_t)i;
        pv.games.seed[i] = 7 + i / PER; // the source game's id
        pv.games.pos_start[i] = i, pv.games.pos_end[i] = i + 1, pv.games.plies[i] = 1;
        pv.positions.ply[i] = 20, pv.positions.score[i] = src->score[r];
        pv.positions.flags[i] = 0;
    }
    pv.games.count = pv.positions.count = SOURCES * PER;
    DatasetFilter f = keep_all();
    f.valid_fraction = 0.5, f.seed = 17, f.keep_order = true;
    RowLists rl = {0};
    DatasetStats ds = {0};
    assert_int_equal(dataset_select_rows(&pv, &f, 1, &rl, &ds, &err), STATUS_OK);
    size_t want_valid = 0;
    for (uint32_t s = 0; s < SOURCES; s++)
        want_valid += dataset_game_in_valid(7 + s, 0, &f) ? PER : 0;
    assert_true(want_valid > 0 && want_valid < SOURCES * PER);
    assert_int_equal(rl.nvalid, want_valid);
    for (size_t i = 0; i < rl.nvalid; i++)
        assert_true(dataset_game_in_valid(7 + (uint32_t)(rl.valid[i] / PER), 0, &f));
    assert_int_equal(ds.train_games + ds.valid_games, 0);
    free(rl.train), free(rl.valid);
    f.per_game = 2;
    memset(&ds, 0, sizeof ds);
    assert_int_equal(dataset_select_rows(&pv, &f, 1, &rl, &ds, &err), STATUS_OK);
    assert_int_equal(rl.ntrain + rl.nvalid, SOURCES * 2);
    assert_int_equal(ds.cut_per_game, SOURCES * (PER - 2));
    free(rl.train), free(rl.valid);
    shard_data_free(&pv);
}

static void test_filters(void **state) {
    Fixture *fx = *state;
    const PositionColumns *p = &fx->data.positions;
    size_t early = 0, check = 0, capture = 0;
    for (size_t r = 0; r < p->count; r++) {
        if (p->ply[r] < 10) {
            early++;
            continue;
        }
        if (p->flags[r] & POS_IN_CHECK)
            check++;
        else if (p->flags[r] & POS_BEST_CAPTURE)
            capture++;
    }
    DatasetFilter f = dataset_filter_default();
    f.skip_plies = 10, f.valid_fraction = 0;
    TraceStore tr, va;
    DatasetStats ds;
    ErrorInfo err;
    assert_int_equal(load(fx->file, &f, 2, &tr, &va, &ds, &err), STATUS_OK);
    assert_int_equal(ds.cut_ply, early);
    assert_int_equal(ds.cut_check, check);
    assert_int_equal(ds.cut_capture, capture);
    assert_int_equal(tr.npos, p->count - early - check - capture);
    trace_store_free(&tr), trace_store_free(&va);
    // At most K per game, the same choice for the same seed.
    f = keep_all();
    f.per_game = 3;
    TraceStore a, b;
    assert_int_equal(load(fx->file, &f, 1, &a, &va, &ds, &err), STATUS_OK);
    trace_store_free(&va);
    assert_int_equal(load(fx->file, &f, 2, &b, &va, &ds, &err), STATUS_OK);
    assert_int_equal(a.npos, 3 * FIXTURE_GAMES);
    assert_memory_equal(a.pos, b.pos, a.npos * sizeof *a.pos);
    trace_store_free(&a), trace_store_free(&b), trace_store_free(&va);
    // Score bound.
    f = keep_all();
    f.max_score = 50;
    assert_int_equal(load(fx->file, &f, 1, &a, &va, &ds, &err), STATUS_OK);
    for (size_t j = 0; j < a.npos; j++)
        assert_true(a.pos[j].score == TRACE_NO_SCORE || abs(a.pos[j].score) <= 50);
    assert_true(ds.cut_score > 0);
    trace_store_free(&a), trace_store_free(&va);
}

static void test_quiesce(void **state) {
    Fixture *fx = *state;
    DatasetFilter f = dataset_filter_default();
    f.quiesce = true, f.valid_fraction = 0;
    TraceStore tr, va;
    DatasetStats ds;
    ErrorInfo err;
    assert_int_equal(load(fx->file, &f, 2, &tr, &va, &ds, &err), STATUS_OK);
    assert_true(ds.quiesced > 0);
    assert_int_equal(ds.cut_check + ds.cut_capture, 0);
    assert_int_equal(ds.refused, 0);
    trace_store_free(&va);
    // Each position resolves alike whatever its thread resolved before: 1, 2 and 3 threads
    // (each with its own searcher) build the same store.
    for (int threads = 1; threads <= 3; threads += 2) {
        TraceStore other;
        DatasetStats ds2;
        assert_int_equal(load(fx->file, &f, threads, &other, &va, &ds2, &err), STATUS_OK);
        assert_int_equal(ds2.quiesced, ds.quiesced);
        assert_int_equal(other.npos, tr.npos);
        assert_int_equal(other.nentries, tr.nentries);
        assert_memory_equal(other.pos, tr.pos, tr.npos * sizeof *tr.pos);
        assert_memory_equal(other.entries, tr.entries, tr.nentries * sizeof *tr.entries);
        trace_store_free(&other), trace_store_free(&va);
    }
    trace_store_free(&tr);
    // A resolved position is quiet: searching it again plays nothing.
    static Board b;
    const PositionColumns *p = &fx->data.positions;
    Searcher *qs = search_create(1);
    assert_non_null(qs);
    int resolved = 0;
    for (size_t r = 0; r < p->count && resolved < 200; r++) {
        if (!(p->flags[r] & (POS_BEST_CAPTURE | POS_IN_CHECK)))
            continue;
        PackedBoard pb;
        memcpy(pb.sq, p->board + r * PACKED_BOARD_BYTES, PACKED_BOARD_BYTES);
        assert_int_equal(packed_board_decode(&pb, p->stm[r] ? HAN : CHO, p->ply[r], &b, &err),
                         STATUS_OK);
        int n = dataset_quiesce(qs, &b, 8);
        resolved += n > 0;
        // The end of an exact principal variation is quiet: searching it again with the
        // horizon it had left plays nothing.
        if (n < 8)
            assert_int_equal(dataset_quiesce(qs, &b, 8 - n), 0);
    }
    assert_true(resolved > 0);
    search_destroy(qs);
}

// (MSE(w + h e_i) - MSE(w - h e_i)) / 2h, summed as per-position differences so that the
// tiny gradients of rare parameters are not lost in the rounding of the whole sum.
static double central_difference(const TraceStore *s, double *w, int i, double h, double k) {
    double sum = 0, save = w[i];
    for (size_t j = 0; j < s->npos; j++) {
        w[i] = save + h;
        double up = tune_sigmoid(k, trace_store_eval(s, j, w));
        w[i] = save - h;
        double down = tune_sigmoid(k, trace_store_eval(s, j, w));
        sum += (up - down) * (up + down - 2.0 * s->pos[j].target);
    }
    w[i] = save;
    return sum / (2 * h * (double)s->npos);
}

// The gradient of the real term list on real traces against central finite differences,
// every parameter (unused ones must show a zero gradient both ways).
static void test_gradient_on_real_traces(void **state) {
    Fixture *fx = *state;
    DatasetFilter f = keep_all();
    f.per_game = 12;
    TraceStore tr, va;
    DatasetStats ds;
    ErrorInfo err;
    assert_int_equal(load(fx->file, &f, 2, &tr, &va, &ds, &err), STATUS_OK);
    static double w[2 * EVAL_PARAM_NB], g[2 * EVAL_PARAM_NB];
    static int maxc[EVAL_PARAM_NB];
    for (int i = 0; i < EVAL_PARAM_NB; i++)
        w[2 * i] = EVAL_WEIGHTS_FLAT[i].mg, w[2 * i + 1] = EVAL_WEIGHTS_FLAT[i].eg;
    for (size_t e = 0; e < tr.nentries; e++)
        if (abs(tr.entries[e].coef) > maxc[trace_entry_param(&tr, tr.entries[e].index)])
            maxc[trace_entry_param(&tr, tr.entries[e].index)] = abs(tr.entries[e].coef);
    double k = tune_fit_k(&tr, w, 1);
    tune_set_targets(&tr, k, 0.5);
    double *scratch = calloc(tune_scratch_stride(&tr), sizeof *scratch);
    tune_gradient(&tr, 0, tr.npos, w, k, 1, g, scratch);
    int used = 0, used_danger = 0;
    double worst = 0, gmax = 0;
    for (int i = 0; i < 2 * EVAL_PARAM_NB; i++)
        gmax = fmax(gmax, fabs(g[i]));
    for (int i = 0; i < 2 * EVAL_PARAM_NB; i++) {
        // The step shrinks with the largest count, so the cubic term stays negligible.
        // A danger weight enters squared through max(D, 0), whose second derivative jumps
        // at D = 0 (an integer index can sit there): the central difference then errs by
        // O(h), not O(h^2), so those weights take a smaller step.
        double h = (i / 2 >= EVAL_SPEC_JANGGI.danger_begin ? 0.002 : 0.05) /
                   (maxc[i / 2] ? maxc[i / 2] : 1);
        double fd = central_difference(&tr, w, i, h, k);
        if (maxc[i / 2] == 0 || g[i] == 0) {
            if (g[i] != 0 || fabs(fd) > 1e-13)
                fail_msg("param %d: unused, yet gradient %.3e / %.3e", i, g[i], fd);
            continue;
        }
        used++;
        used_danger += i / 2 >= EVAL_SPEC_JANGGI.danger_begin;
        // Relative to the component, or to 1e-9 of the largest one for components that
        // vanish (positions deep in the sigmoid's tails): there the finite difference is
        // rounding noise of values near 0 or 1, not a measure of the analytic gradient.
        double rel = fabs(fd - g[i]) / fmax(fabs(g[i]), 1e-9 * gmax);
        worst = fmax(worst, rel);
        if (rel > 1e-6)
            fail_msg("param %d (max count %d): analytic %.12e, finite difference %.12e, "
                     "rel %.3e",
                     i, maxc[i / 2], g[i], fd, rel);
    }
    printf("    %d of %d parameters in use, worst relative error %.2e\n", used, 2 * EVAL_PARAM_NB,
           worst);
    assert_true(used > 200);
    assert_true(used_danger >= 10); // the squared terms' chain rule is checked too
    free(scratch);
    trace_store_free(&tr), trace_store_free(&va);
}

// Recovery on the real term list: labels from perturbed weights are fitted back from the
// starting weights to the same predictions (the weights themselves are not all identifiable:
// material and piece-square values overlap).
static void test_recovery_on_real_traces(void **state) {
    Fixture *fx = *state;
    DatasetFilter f = keep_all();
    TraceStore tr, va;
    DatasetStats ds;
    ErrorInfo err;
    assert_int_equal(load(fx->file, &f, 2, &tr, &va, &ds, &err), STATUS_OK);
    static double truth[2 * EVAL_PARAM_NB], w[2 * EVAL_PARAM_NB];
    uint64_t rng = 99;
    for (int i = 0; i < 2 * EVAL_PARAM_NB; i++) {
        w[i] = i % 2 ? EVAL_WEIGHTS_FLAT[i / 2].eg : EVAL_WEIGHTS_FLAT[i / 2].mg;
        truth[i] = w[i] + (double)(prng_next(&rng) % 41) - 20; // +-20 cp
    }
    const double k = 0.5;
    double start = 0;
    for (size_t j = 0; j < tr.npos; j++) {
        tr.pos[j].target = (float)tune_sigmoid(k, trace_store_eval(&tr, j, truth));
        start = fmax(start, fabs(tune_sigmoid(k, trace_store_eval(&tr, j, w)) - tr.pos[j].target));
    }
    TuneConfig cfg = {.method = TUNE_ADAM,
                      .lr = 1,
                      .beta1 = 0.9,
                      .beta2 = 0.999,
                      .epsilon = 1e-8,
                      .epochs = 1000,
                      .batch = 0,
                      .threads = 2,
                      .seed = 1,
                      .k = k};
    TuneResult res;
    assert_int_equal(tune_train(&tr, NULL, &cfg, w, NULL, NULL, &res, &err), STATUS_OK);
    double worst = 0, mean = 0;
    for (size_t j = 0; j < tr.npos; j++) {
        double d = fabs(tune_sigmoid(k, trace_store_eval(&tr, j, w)) - tr.pos[j].target);
        worst = fmax(worst, d), mean += d / (double)tr.npos;
    }
    printf("    prediction error: start max %.4f, fitted max %.5f, mean %.6f\n", start, worst,
           mean);
    assert_true(mean < 1e-3 && worst < 1e-2);
    trace_store_free(&tr), trace_store_free(&va);
}

// Expects a clear error (not OK, message naming the path) from loading path.
static void expect_error(const char *path, const DatasetFilter *f, Status want) {
    TraceStore tr, va;
    DatasetStats ds;
    ErrorInfo err = {{0}};
    Status st = load(path, f, 2, &tr, &va, &ds, &err);
    if (st != want)
        fail_msg("%s: status %s (%s), wanted %s", path, status_name(st), err.msg,
                 status_name(want));
    assert_true(strlen(err.msg) > 0);
    if (want != STATUS_RANGE)
        assert_non_null(strstr(err.msg, path));
    trace_store_free(&tr), trace_store_free(&va);
}

static void write_bytes(const char *path, const void *data, size_t n) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static void test_bad_inputs(void **state) {
    Fixture *fx = *state;
    DatasetFilter f = keep_all();
    char path[256];
    snprintf(path, sizeof path, "%s/missing.h5", fx->dir);
    expect_error(path, &f, STATUS_IO);
    snprintf(path, sizeof path, "%s/text.h5", fx->dir); // not HDF5
    write_bytes(path, "this is not an HDF5 file\n", 25);
    expect_error(path, &f, STATUS_FORMAT);
    snprintf(path, sizeof path, "%s/zero.h5", fx->dir); // empty file
    write_bytes(path, "", 0);
    expect_error(path, &f, STATUS_FORMAT);
    // Truncated: the first half of the fixture.
    FILE *in = fopen(fx->file, "rb");
    assert_non_null(in);
    static unsigned char buf[1 << 22];
    size_t n = fread(buf, 1, sizeof buf, in);
    fclose(in);
    snprintf(path, sizeof path, "%s/truncated.h5", fx->dir);
    write_bytes(path, buf, n / 2);
    expect_error(path, &f, STATUS_FORMAT);
    // A foreign HDF5 file: valid HDF5, not ours.
    snprintf(path, sizeof path, "%s/foreign.h5", fx->dir);
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(file >= 0);
    hsize_t dims[1] = {4};
    int values[4] = {1, 2, 3, 4};
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t ds =
        H5Dcreate2(file, "numbers", H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(space >= 0 && ds >= 0);
    assert_true(H5Dwrite(ds, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) >= 0);
    assert_true(H5Dclose(ds) >= 0 && H5Sclose(space) >= 0 && H5Fclose(file) >= 0);
    expect_error(path, &f, STATUS_FORMAT);
    // An unknown schema version: the fixture with its version attribute rewritten.
    snprintf(path, sizeof path, "%s/schema99.h5", fx->dir);
    write_bytes(path, buf, n);
    file = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t attr = H5Aopen(file, "schema_version", H5P_DEFAULT);
    int64_t v99 = 99;
    assert_true(file >= 0 && attr >= 0);
    assert_true(H5Awrite(attr, H5T_NATIVE_INT64, &v99) >= 0);
    assert_true(H5Aclose(attr) >= 0 && H5Fclose(file) >= 0);
    expect_error(path, &f, STATUS_FORMAT); // the digest no longer matches
    ErrorInfo serr;
    assert_int_equal(h5store_seal_file(path, &serr), STATUS_OK);
    expect_error(path, &f, STATUS_FORMAT); // digest sound: the version check refuses it
    // A well-formed file with no games, and filters that leave nothing.
    snprintf(path, sizeof path, "%s/empty.h5", fx->dir);
    ShardData empty;
    shard_data_init(&empty);
    StoreMeta meta = {.schema_version = H5STORE_SCHEMA_VERSION, .shard = -1};
    ErrorInfo err;
    assert_int_equal(h5store_write(path, &meta, &empty, &err), STATUS_OK);
    expect_error(path, &f, STATUS_RANGE);
    DatasetFilter none = keep_all();
    none.skip_plies = 10000;
    expect_error(fx->file, &none, STATUS_RANGE);
    // A folder without shard files.
    snprintf(path, sizeof path, "%s/emptydir", fx->dir);
    assert_int_equal(mkdir(path, 0700), 0);
    expect_error(path, &f, STATUS_IO);
}

// Trains briefly, emits a header, re-parses it: the same numbers, the same predictions.
static void test_emit_and_reparse(void **state) {
    Fixture *fx = *state;
    DatasetFilter f = keep_all();
    f.valid_fraction = 0.2;
    TraceStore tr, va;
    DatasetStats ds;
    ErrorInfo err;
    assert_int_equal(load(fx->file, &f, 2, &tr, &va, &ds, &err), STATUS_OK);
    static double w[2 * EVAL_PARAM_NB];
    for (int i = 0; i < EVAL_PARAM_NB; i++)
        w[2 * i] = EVAL_WEIGHTS_FLAT[i].mg, w[2 * i + 1] = EVAL_WEIGHTS_FLAT[i].eg;
    TuneConfig cfg = {.method = TUNE_ADAM,
                      .lr = 5,
                      .beta1 = 0.9,
                      .beta2 = 0.999,
                      .epsilon = 1e-8,
                      .epochs = 5,
                      .batch = 1000,
                      .threads = 2,
                      .seed = 3,
                      .k = tune_fit_k(&tr, w, 2)};
    tune_set_targets(&tr, cfg.k, 0);
    TuneResult res;
    assert_int_equal(tune_train(&tr, NULL, &cfg, w, NULL, NULL, &res, &err), STATUS_OK);
    static EvalWeight out[EVAL_PARAM_NB], back[EVAL_PARAM_NB];
    int changed = 0;
    for (int i = 0; i < EVAL_PARAM_NB; i++) {
        out[i] = (EvalWeight){(int)lround(w[2 * i]), (int)lround(w[2 * i + 1])};
        changed += out[i].mg != EVAL_WEIGHTS_FLAT[i].mg;
    }
    assert_true(changed > 10);
    char path[256];
    snprintf(path, sizeof path, "%s/emitted.h", fx->dir);
    EvalBanner banner = {.generator = "test", .k = cfg.k, .epochs = 5};
    assert_int_equal(eval_header_save(path, &EVAL_SPEC_JANGGI, &banner, out, &err), STATUS_OK);
    assert_int_equal(weights_read_header(path, EVAL_PARAM_NB, back, &err), STATUS_OK);
    assert_memory_equal(out, back, sizeof out);
    for (size_t j = 0; j < va.npos; j++) // integer predictions from the parsed header
        assert_int_equal(trace_store_rebuild(&va, j, back), trace_store_rebuild(&va, j, out));
    trace_store_free(&tr), trace_store_free(&va);
}

// Values that verify rejects are refused by the loader too (the same check,
// shard_data_check), naming the file and the column; nothing is trained on.
static void test_values_out_of_range(void **state) {
    Fixture *fx = *state;
    DatasetFilter f = keep_all();
    static const char *const want[] = {"result_stm 0", "winner 7 is outside",
                                       "move 65535 is outside"};
    ShardData d;
    shard_data_init(&d);
    ErrorInfo err;
    StoreMeta meta = {.schema_version = H5STORE_SCHEMA_VERSION, .shard = -1};
    char path[256];
    snprintf(path, sizeof path, "%s/bad-values.h5", fx->dir);
    for (int c = 0; c < 3; c++) {
        shard_data_clear(&d);
        assert_int_equal(shard_data_append(&d, &fx->data, &err), STATUS_OK);
        if (c == 0)
            memset(d.positions.result_stm, 0, d.positions.count);
        else if (c == 1)
            d.games.winner[3] = 7;
        else
            d.positions.move[17] = 65535;
        assert_int_equal(h5store_write(path, &meta, &d, &err), STATUS_OK);
        TraceStore tr, va;
        DatasetStats ds;
        assert_int_equal(load(path, &f, 2, &tr, &va, &ds, &err), STATUS_FORMAT);
        if (!strstr(err.msg, path) || !strstr(err.msg, want[c]))
            fail_msg("case %d: %s", c, err.msg);
        assert_int_equal(tr.npos + va.npos, 0);
        trace_store_free(&tr), trace_store_free(&va);
    }
    shard_data_free(&d);
}

// Runs hansu-tune with args and the fixture; its stdout and stderr go to out.
static int run_tune(const Fixture *fx, const char *args, char *out, size_t out_len) {
    char cmd[2048], log[256];
    snprintf(log, sizeof log, "%s/tune.log", fx->dir);
    snprintf(cmd, sizeof cmd, "'%s/tuner/hansu-tune' --threads 1 --epochs 1 %s '%s' >'%s' 2>&1",
             HANSU_BINARY_DIR, args, fx->file, log);
    int rc = system(cmd);
    FILE *f = fopen(log, "r");
    size_t n = f ? fread(out, 1, out_len - 1, f) : 0;
    out[n] = 0;
    if (f)
        fclose(f);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

// A bad --init, --out or --loss-csv is reported before any data is read, not after the
// loading (or the training) it would have wasted.
static void test_bad_files_reported_first(void **state) {
    Fixture *fx = *state;
    char out[8192], args[512];
    static const struct {
        const char *args, *want;
    } cases[] = {
        {"--init /nonexistent/w.h", "/nonexistent/w.h: cannot open"},
        {"--init %s/fixture.h5", "a NUL byte in the line"}, // exists, no weights header
        {"--out /nonexistent-dir/w.h", "--out /nonexistent-dir/w.h: cannot write"},
        {"--out %s", "a folder, not a file"},
        {"--dry-run --loss-csv /nonexistent-dir/l.csv", "--loss-csv /nonexistent-dir/l.csv"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(args, sizeof args, cases[i].args, fx->dir);
        assert_int_equal(run_tune(fx, args, out, sizeof out), 1);
        if (!strstr(out, cases[i].want) || strstr(out, "loaded"))
            fail_msg("%s: %s", args, out);
    }
    // --dry-run writes nothing, so its --out is not checked.
    assert_int_equal(run_tune(fx, "--dry-run --out /nonexistent-dir/w.h", out, sizeof out), 0);
}

// --variant chooses the term list fitted: xiangqi's has no points_late (refused by --freeze),
// an unknown variant is refused, and janggi games are refused for a xiangqi fit, naming the
// file; the janggi default fits them.
static void test_tune_variant(void **state) {
    Fixture *fx = *state;
    char out[8192];
    assert_int_equal(run_tune(fx, "--dry-run --variant shogi", out, sizeof out), 2);
    assert_non_null(strstr(out, "--variant: 'shogi' is not janggi or xiangqi"));
    assert_int_equal(
        run_tune(fx, "--dry-run --variant xiangqi --freeze points_late", out, sizeof out), 2);
    assert_non_null(strstr(out, "unknown term 'points_late' of xiangqi"));
    assert_int_equal(run_tune(fx, "--dry-run --variant xiangqi --freeze tempo", out, sizeof out),
                     1);
    assert_non_null(strstr(out, "fixture.h5 holds janggi games, the fit is xiangqi"));
    assert_int_equal(
        run_tune(fx, "--dry-run --variant janggi --freeze points_late", out, sizeof out), 0);
    // Janggi's points term is the rules' (EvalSpec.rule_terms): kept without --freeze too.
    assert_int_equal(run_tune(fx, "--dry-run --variant janggi", out, sizeof out), 0);
    assert_non_null(strstr(out, "kept as the rules fix them (never fitted): points_late\n"));
    // Hostile trial: the variant in any case, as UCI takes it (XIANGQI was refused).
    assert_int_equal(run_tune(fx, "--dry-run --variant XIANGQI --freeze tempo", out, sizeof out),
                     1);
    assert_non_null(strstr(out, "fixture.h5 holds janggi games, the fit is xiangqi"));
}

// Hostile trial: --freeze '' was accepted (nothing frozen), and --valid 1 was refused only
// after the data was read. Both are refused at once, naming the flag.
static void test_tune_flags_checked_first(void **state) {
    Fixture *fx = *state;
    char out[8192];
    static const struct {
        const char *args, *want;
    } cases[] = {
        {"--dry-run --freeze ''", "--freeze '': an empty list of terms"},
        {"--dry-run --freeze material,", "--freeze 'material,': an empty term"},
        {"--dry-run --freeze material,,tempo", "an empty term in the list"},
        {"--dry-run --valid 1", "--valid 1: must be in 0..1, below 1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(run_tune(fx, cases[i].args, out, sizeof out), 2);
        if (!strstr(out, cases[i].want) || strstr(out, "loaded"))
            fail_msg("%s: %s", cases[i].args, out);
    }
}

// Xiangqi data (hansu-selfplay --variant xiangqi, seed 1 draws 3 of 8 games): a drawn game's
// positions get the target 0.5 (the result TRACE_DRAW); a fit of xiangqi with a janggi file
// among its inputs is refused, naming both files.
static void test_xiangqi_draws_and_mixing(void **state) {
    Fixture *fx = *state;
    char cmd[2048], dir[512], out[8192], args[1024];
    snprintf(dir, sizeof dir, "%s/xq", fx->dir);
    snprintf(cmd, sizeof cmd,
             "'%s/selfplay/hansu-selfplay' --variant xiangqi --games 8 --nodes 200 --threads 1 "
             "--seed 1 --random-plies 8 --no-bench --out '%s' >/dev/null 2>&1",
             HANSU_BINARY_DIR, dir);
    assert_int_equal(system(cmd), 0);
    DatasetFilter f = keep_all();
    f.variant = "xiangqi";
    TraceStore train, valid;
    DatasetStats ds;
    ErrorInfo err;
    char *p = dir;
    trace_store_init(&train, EVAL_SPEC_XIANGQI.param_count, EVAL_SPEC_XIANGQI.phase_max);
    trace_store_init(&valid, EVAL_SPEC_XIANGQI.param_count, EVAL_SPEC_XIANGQI.phase_max);
    Status st = dataset_load(&p, 1, &f, 1, &train, &valid, &ds, &err);
    if (st != STATUS_OK)
        fail_msg("%s", err.msg);
    assert_int_equal(ds.refused, 0); // xiangqi's trace rebuilds its eval
    tune_set_targets(&train, 1.0, 0.0);
    size_t drawn = 0, decided = 0;
    for (size_t j = 0; j < train.npos; j++) {
        if (train.pos[j].result == TRACE_DRAW) {
            drawn++;
            assert_float_equal(train.pos[j].target, 0.5, 1e-9);
        } else {
            decided++;
            assert_float_equal(train.pos[j].target, train.pos[j].result, 1e-9);
        }
    }
    print_message("xiangqi: %zu drawn and %zu decided positions\n", drawn, decided);
    assert_true(drawn > 0 && decided > 0);
    trace_store_free(&train);
    trace_store_free(&valid);
    // The same data as a janggi fit: refused by the dataset, naming the file.
    f.variant = NULL;
    trace_store_init(&train, EVAL_PARAM_NB, EVAL_PHASE_MAX);
    trace_store_init(&valid, EVAL_PARAM_NB, EVAL_PHASE_MAX);
    assert_int_equal(dataset_load(&p, 1, &f, 1, &train, &valid, &ds, &err), STATUS_FORMAT);
    assert_non_null(strstr(err.msg, "shard-000000.h5 holds xiangqi games, the fit is janggi"));
    trace_store_free(&train);
    trace_store_free(&valid);
    // Two variants in one fit: the janggi fixture after the xiangqi run.
    snprintf(args, sizeof args, "--dry-run --variant xiangqi '%s'", dir);
    assert_int_equal(run_tune(fx, args, out, sizeof out), 1);
    if (!strstr(out, "fixture.h5 holds janggi games, but ") ||
        !strstr(out, "xq/shard-000000.h5 and the fit are xiangqi: one fit takes one variant"))
        fail_msg("%s", out);
}

// hansu-tune says how many games and positions it fits and warns when the free weights
// outnumber what the data can pin down (docs/tuning.md: >= 100 positions per free weight,
// every touched free parameter in >= 100 positions); --l2 is checked and named in the banner.
static void test_coverage_warning_and_l2(void **state) {
    Fixture *fx = *state;
    char out[16384], args[2048];
    assert_int_equal(run_tune(fx, "--dry-run", out, sizeof out), 0);
    size_t pos, distinct, games, tpos, tgames;
    const char *fit = strstr(out, "fitting "), *tr = strstr(out, "\ntrain ");
    assert_non_null(fit);
    assert_non_null(tr);
    assert_int_equal(sscanf(fit, "fitting %zu training positions (%zu distinct) from %zu games",
                            &pos, &distinct, &games),
                     3);
    assert_int_equal(sscanf(tr, "\ntrain %zu positions (%zu games)", &tpos, &tgames), 2);
    assert_int_equal(pos, tpos);
    assert_int_equal(games, tgames);
    assert_true(distinct > 0 && distinct <= pos);
    if (!strstr(out, "warning: the data cannot pin down"))
        fail_msg("all %d parameters free on %zu positions, no warning:\n%s", EVAL_PARAM_NB, pos,
                 out);
    // Only the material values free: thousands of positions per weight, no warning.
    int n = snprintf(args, sizeof args, "--dry-run --freeze "), listed = 0;
    for (int t = 0; t < EVAL_TERM_NB; t++)
        if (t != EVAL_TERM_MATERIAL)
            n += snprintf(args + n, sizeof args - (size_t)n, "%s%s", listed++ ? "," : "",
                          EVAL_TERMS[t].name);
    assert_int_equal(run_tune(fx, args, out, sizeof out), 0);
    if (!strstr(out, "fitting ") || strstr(out, "cannot pin down"))
        fail_msg("%s:\n%s", args, out);
    // --l2: a bad value is refused; a good one is written into the banner.
    assert_int_equal(run_tune(fx, "--dry-run --l2 -1", out, sizeof out), 2);
    assert_non_null(strstr(out, "--l2: -1 is out of range"));
    snprintf(args, sizeof args, "--l2 250 --out '%s/l2.h'", fx->dir);
    assert_int_equal(run_tune(fx, args, out, sizeof out), 0);
    snprintf(args, sizeof args, "grep -q -- '--l2 250 ' '%s/l2.h'", fx->dir);
    assert_int_equal(system(args), 0);
}

// hansu-tune itself: same input, seed and thread count give a byte-identical header.
static void test_hansu_tune_is_byte_stable(void **state) {
    Fixture *fx = *state;
    char cmd[1024], a[256], b[256];
    snprintf(a, sizeof a, "%s/a.h", fx->dir);
    snprintf(b, sizeof b, "%s/b.h", fx->dir);
    for (int run = 0; run < 2; run++) {
        snprintf(cmd, sizeof cmd,
                 "'%s/tuner/hansu-tune' '%s' --threads 2 --epochs 4 --batch 2000 --lr 3 "
                 "--freeze material --out '%s' > /dev/null",
                 HANSU_BINARY_DIR, fx->file, run ? b : a);
        assert_int_equal(system(cmd), 0);
    }
    snprintf(cmd, sizeof cmd, "cmp -s '%s' '%s'", a, b);
    assert_int_equal(system(cmd), 0);
    static EvalWeight got[EVAL_PARAM_NB];
    ErrorInfo err;
    assert_int_equal(weights_read_header(a, EVAL_PARAM_NB, got, &err), STATUS_OK);
    for (int k = 0; k < KIND_NB; k++) // frozen
        assert_memory_equal(&got[EVAL_OFF_MATERIAL + k], &EVAL_WEIGHTS_FLAT[EVAL_OFF_MATERIAL + k],
                            sizeof got[0]);
    assert_memory_equal(&got[EVAL_OFF_POINTS_LATE], &EVAL_WEIGHTS_FLAT[EVAL_OFF_POINTS_LATE],
                        sizeof got[0]); // the rules' (EvalSpec.rule_terms)
    // The banner names the input with its SHA-256.
    snprintf(cmd, sizeof cmd, "grep -q \"input: %s sha256:$(sha256sum '%s' | cut -c1-64)\" '%s'",
             fx->file, fx->file, a);
    assert_int_equal(system(cmd), 0);
    // A bad flag is an error, not a crash.
    snprintf(cmd, sizeof cmd, "'%s/tuner/hansu-tune' --epochs x '%s' 2>/dev/null", HANSU_BINARY_DIR,
             fx->file);
    assert_int_equal(WEXITSTATUS(system(cmd)), 2);
}

// A weights header is read a whole line at a time (issue 39 §2): the tail of a comment longer
// than the reader's line buffer is not read as a line, so a weight it mentions is not taken;
// a table line too long is refused naming its own line.
static void test_weights_long_lines(void **state) {
    (void)state;
    char path[64];
    snprintf(path, sizeof path, "/tmp/hansu-weights-long-%d.h", (int)getpid());
    for (int bad = 0; bad < 2; bad++) {
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs("static const EvalWeight EVAL_WEIGHTS_DATA[2] = {\n    S(1, 2), S(3, 4),\n", f);
        fputs(bad ? "   " : "    // ", f);
        for (int i = 0; i < 5000; i++)
            fputc(bad ? ' ' : 'x', f);
        fputs(" S(9, 9)\n};\n", f);
        fclose(f);
        EvalWeight got[2];
        ErrorInfo err;
        Status st = weights_read_header(path, 2, got, &err);
        if (bad) {
            assert_int_equal(st, STATUS_FORMAT);
            assert_non_null(strstr(err.msg, ":3: a line of 5011 bytes"));
        } else {
            assert_int_equal(st, STATUS_OK);
            assert_int_equal(got[1].mg, 3);
            assert_int_equal(got[1].eg, 4);
        }
    }
    unlink(path);
}

// A table line holding a NUL byte, or a /* comment */ hiding an entry (re-trial of issue 39): each
// refused naming its own line; the comment's entry was counted and refused at the last line.
static void test_weights_nul_and_block_comment(void **state) {
    (void)state;
    char path[64];
    snprintf(path, sizeof path, "/tmp/hansu-weights-odd-%d.h", (int)getpid());
    const char *head = "static const EvalWeight EVAL_WEIGHTS_DATA[2] = {\n";
    const char *line2[2] = {"    S(1, 2), /* S(9999, 9999), */\n", "    S(1, 2),\0 S(7, 7)\n"};
    size_t len2[2] = {strlen(line2[0]), 22};
    const char *want[2] = {":2: a /* comment */ in the weights table",
                           ":2: a NUL byte in the line"};
    for (int i = 0; i < 2; i++) {
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        fputs(head, f);
        fwrite(line2[i], 1, len2[i], f);
        fputs("    S(3, 4),\n};\n", f);
        fclose(f);
        EvalWeight got[2];
        ErrorInfo err;
        assert_int_equal(weights_read_header(path, 2, got, &err), STATUS_FORMAT);
        if (!strstr(err.msg, want[i]))
            fail_msg("case %d: %s", i, err.msg);
    }
    unlink(path);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trace_parity_on_data_set),
        cmocka_unit_test(test_split_by_game_and_threads),
        cmocka_unit_test(test_filters),
        cmocka_unit_test(test_pv_ends_split_by_source_game),
        cmocka_unit_test(test_quiesce),
        cmocka_unit_test(test_gradient_on_real_traces),
        cmocka_unit_test(test_recovery_on_real_traces),
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_values_out_of_range),
        cmocka_unit_test(test_bad_files_reported_first),
        cmocka_unit_test(test_emit_and_reparse),
        cmocka_unit_test(test_weights_long_lines),
        cmocka_unit_test(test_weights_nul_and_block_comment),
        cmocka_unit_test(test_hansu_tune_is_byte_stable),
        cmocka_unit_test(test_coverage_warning_and_l2),
        cmocka_unit_test(test_tune_variant),
        cmocka_unit_test(test_tune_flags_checked_first),
        cmocka_unit_test(test_xiangqi_draws_and_mixing),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
