// SPDX-License-Identifier: MIT
// hansu-nnue's bounded memory (issue 42): the mirrors made on the fly train the bytes of the
// appended mirrors; a small buffer over several shards streams them, each training position and
// its mirror exactly once per epoch, every batch but the last full; the same seed gives the same
// bytes, a resume the bytes of an unbroken run; a buffer holding the data trains the net of no
// buffer; a shard changed between the first pass and an epoch is an error naming it.
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine.h"
#include "nnue_data.h"
#include "nnue_stream.h"
#include "nnue_train.h"

enum { BATCH = 64, BUFFER = 150 };

static char dir[256];

// Several small shards of a few games (hansu-selfplay, 200 positions a shard at most).
static int make_shards(void **state) {
    (void)state;
    engine_init();
    char cmd[2048];
    snprintf(dir, sizeof dir, "%s/test_nnue_stream.%d.d", HANSU_BINARY_DIR, (int)getpid());
    snprintf(cmd, sizeof cmd,
             "rm -rf '%s' && mkdir -p '%s' && '%s/selfplay/hansu-selfplay' --games 10 --nodes 40 "
             "--threads 1 --no-bench --progress 0 --shard-positions 200 --out '%s/run' > "
             "'%s/selfplay.log' 2>&1",
             dir, dir, HANSU_BINARY_DIR, dir, dir);
    return system(cmd) == 0 ? 0 : -1;
}

static int remove_shards(void **state) {
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static NnueFilter filter(size_t buffer) {
    NnueFilter f = nnue_filter_default();
    f.skip_plies = 0, f.valid_fraction = 0.3, f.buffer = buffer;
    return f;
}

static void load(const NnueFilter *f, NnueData *d) {
    char run[300], *paths[1] = {run};
    ErrorInfo err;
    snprintf(run, sizeof run, "%s/run", dir);
    if (nnue_data_load(paths, 1, f, d, &err) != STATUS_OK)
        fail_msg("%s", err.msg);
}

static NnueTrainConfig config(const NnueFilter *f) {
    NnueTrainConfig c = nnue_train_config_default();
    c.hidden = 16, c.epochs = 3, c.batch = BATCH, c.threads = 2, c.s = 400, c.seed = 5;
    c.lr = 0.01, c.filter = f;
    return c;
}

// Trains epochs [t->epoch, to) of c over d's stream.
static void train_to(NnueTrainer *t, const NnueData *d, const NnueFilter *f, int to) {
    NnueStream s;
    ErrorInfo err;
    assert_int_equal(nnue_stream_init(&s, d, f, BATCH, t->cfg.seed, &err), STATUS_OK);
    while (t->epoch < to)
        if (nnue_trainer_epoch_stream(t, &s, d->valid, d->nvalid, &err) != STATUS_OK)
            fail_msg("%s", err.msg);
    nnue_stream_free(&s);
}

static int cmp_pos(const void *a, const void *b) { return memcmp(a, b, sizeof(NnuePosition)); }

// Mirrors made as a batch takes them train the bytes that the stored array of positions followed
// by their mirrors trained (hansu-nnue before issue 42), with the same sigmoid scale fitted.
static void test_mirrors_on_the_fly(void **state) {
    (void)state;
    NnueFilter f = filter(0);
    NnueData d;
    load(&f, &d);
    assert_false(d.streamed);
    assert_int_equal(d.ntrain, 2 * d.nplayed);
    NnuePosition *appended = malloc(d.ntrain * sizeof *appended);
    assert_non_null(appended);
    memcpy(appended, d.train, d.nplayed * sizeof *appended);
    for (size_t i = 0; i < d.nplayed; i++) {
        appended[d.nplayed + i] = d.train[i];
        nnue_mirror_board(d.train[i].board, appended[d.nplayed + i].board);
    }
    assert_true(nnue_data_fit_sigmoid_scale(&d) == nnue_fit_sigmoid_scale(appended, d.ntrain));
    NnueTrainConfig c = config(&f);
    NnueTrainer old, now;
    ErrorInfo err;
    assert_int_equal(nnue_trainer_init(&old, &c, &err), STATUS_OK);
    assert_int_equal(nnue_trainer_init(&now, &c, &err), STATUS_OK);
    for (int e = 0; e < c.epochs; e++)
        nnue_trainer_epoch(&old, appended, d.ntrain, d.valid, d.nvalid);
    train_to(&now, &d, &f, c.epochs);
    assert_int_equal(old.step, now.step);
    assert_memory_equal(old.net.p, now.net.p, old.net.n * sizeof(float));
    for (int e = 0; e < c.epochs; e++)
        assert_true(old.epochs[e].train_loss == now.epochs[e].train_loss);
    nnue_trainer_free(&old);
    nnue_trainer_free(&now);
    free(appended);
    nnue_data_free(&d);
}

// A buffer of 150 positions over the shards: the first pass counts the training positions per
// file and keeps a sample of them, not them; each epoch's batches hold every training position
// and its mirror exactly once (the multiset of the data held whole), every batch but the last
// full, as many as with the data held; another epoch another order.
static void check_stream(bool mirror, size_t max_positions) {
    NnueFilter all = filter(0), f = filter(BUFFER);
    all.mirror = f.mirror = mirror;
    all.max_positions = f.max_positions = max_positions;
    NnueData held, d;
    load(&all, &held);
    load(&f, &d);
    assert_true(d.nfiles >= 3);
    assert_true(d.streamed);
    assert_null(d.train);
    assert_true(d.nplayed > 2 * BUFFER);
    if (max_positions) // the cut falls inside the data
        assert_int_equal(held.nplayed + held.nvalid, max_positions);
    assert_int_equal(d.nplayed, held.nplayed);
    assert_int_equal(d.ntrain, held.ntrain);
    assert_int_equal(d.nvalid, held.nvalid);
    assert_int_equal(d.nsample, d.nplayed); // fewer than NNUE_FIT_POSITIONS: all of them
    size_t per_file = 0;
    for (size_t i = 0; i < d.nfiles; i++)
        per_file += d.file_train[i];
    assert_int_equal(per_file, d.nplayed);
    NnuePosition *want = malloc(held.ntrain * sizeof *want), *got[2];
    const size_t k = mirror ? 2 : 1;
    assert_int_equal(held.ntrain, k * held.nplayed);
    for (size_t i = 0; i < held.nplayed; i++) {
        want[k * i] = held.train[i];
        if (mirror) {
            want[k * i + 1] = held.train[i];
            nnue_mirror_board(held.train[i].board, want[k * i + 1].board);
        }
    }
    qsort(want, held.ntrain, sizeof *want, cmp_pos);
    // The sample is the training positions (all of them here), in another order.
    NnuePosition *played = malloc(held.nplayed * sizeof *played);
    memcpy(played, held.train, held.nplayed * sizeof *played);
    qsort(played, held.nplayed, sizeof *played, cmp_pos);
    qsort(d.sample, d.nsample, sizeof *d.sample, cmp_pos);
    assert_memory_equal(d.sample, played, d.nsample * sizeof *played);
    free(played);
    NnueStream s;
    ErrorInfo err;
    assert_int_equal(nnue_stream_init(&s, &d, &f, BATCH, 7, &err), STATUS_OK);
    assert_int_equal(nnue_stream_positions(&s), d.ntrain);
    for (int e = 0; e < 2; e++) {
        got[e] = malloc(d.ntrain * sizeof *got[e]);
        nnue_stream_epoch(&s, e);
        size_t seen = 0, batches = 0, n;
        const NnuePosition *b;
        while (nnue_stream_next(&s, &b, &n, &err) == STATUS_OK && n > 0) {
            assert_true(seen + n <= d.ntrain);
            if (n != BATCH) // only the last may be short
                assert_int_equal(seen + n, d.ntrain);
            memcpy(got[e] + seen, b, n * sizeof *b);
            seen += n, batches++;
        }
        assert_int_equal(seen, d.ntrain);
        assert_int_equal(batches, (d.ntrain + BATCH - 1) / BATCH);
        assert_true(s.cap == BUFFER && s.held <= BUFFER);
    }
    assert_true(memcmp(got[0], got[1], d.ntrain * sizeof *got[0]) != 0);
    for (int e = 0; e < 2; e++) {
        qsort(got[e], d.ntrain, sizeof *got[e], cmp_pos);
        assert_memory_equal(got[e], want, d.ntrain * sizeof *want);
        free(got[e]);
    }
    nnue_stream_free(&s);
    free(want);
    nnue_data_free(&held);
    nnue_data_free(&d);
}

// With the mirrors (the default), without them, and with --max-positions cutting the data at
// three quarters of it (each file's first training positions up to the count the first pass
// kept): a share, not a count, since how many positions the run's games hold follows the search.
static void test_stream_visits_each_once(void **state) {
    (void)state;
    check_stream(true, 0);
    check_stream(false, 0);
    NnueFilter all = filter(0);
    NnueData whole;
    load(&all, &whole);
    size_t total = whole.nplayed + whole.nvalid;
    nnue_data_free(&whole);
    check_stream(true, total * 3 / 4);
}

// Streamed training: the loss falls, the same seed gives the same bytes, two epochs, a
// checkpoint and a third equal three unbroken (another buffer is refused naming it); a buffer
// holding the data trains the bytes of no buffer.
static void test_stream_trains(void **state) {
    (void)state;
    NnueFilter f = filter(BUFFER), all = filter(0);
    NnueData d, held;
    load(&f, &d);
    load(&all, &held);
    NnueTrainConfig c = config(&f);
    NnueTrainer a, b, part, again;
    ErrorInfo err;
    assert_int_equal(nnue_trainer_init(&a, &c, &err), STATUS_OK);
    assert_int_equal(nnue_trainer_init(&b, &c, &err), STATUS_OK);
    train_to(&a, &d, &f, 3);
    train_to(&b, &d, &f, 3);
    assert_int_equal(a.step, 3 * (int64_t)((d.ntrain + BATCH - 1) / BATCH));
    assert_true(a.epochs[2].train_loss < a.epochs[0].train_loss);
    assert_memory_equal(a.net.p, b.net.p, a.net.n * sizeof(float));
    char path[300];
    snprintf(path, sizeof path, "%s/stream.ckpt", dir);
    assert_int_equal(nnue_trainer_init(&part, &c, &err), STATUS_OK);
    train_to(&part, &d, &f, 2);
    assert_int_equal(nnue_checkpoint_save(&part, &d, path, &err), STATUS_OK);
    assert_int_equal(nnue_trainer_init(&again, &c, &err), STATUS_OK);
    assert_int_equal(nnue_checkpoint_load(&again, &d, path, &err), STATUS_OK);
    train_to(&again, &d, &f, 3);
    assert_memory_equal(a.net.p, again.net.p, a.net.n * sizeof(float));
    assert_true(a.epochs[2].valid_loss == again.epochs[2].valid_loss);
    NnueFilter other = filter(2 * BUFFER);
    NnueTrainConfig co = config(&other);
    assert_int_equal(nnue_checkpoint_check(&co, path, &err), STATUS_FORMAT);
    assert_non_null(strstr(err.msg, "buffer=150, this run has buffer=300"));
    co = config(&all);
    assert_int_equal(nnue_checkpoint_check(&co, path, &err), STATUS_FORMAT);
    assert_non_null(strstr(err.msg, "buffer=150"));
    // A buffer of the data's size holds it: not streamed, the net of no buffer.
    NnueFilter whole = filter(held.nplayed);
    NnueData dw;
    load(&whole, &dw);
    assert_false(dw.streamed);
    NnueTrainConfig cw = config(&whole), ca = config(&all);
    NnueTrainer w, h;
    assert_int_equal(nnue_trainer_init(&w, &cw, &err), STATUS_OK);
    assert_int_equal(nnue_trainer_init(&h, &ca, &err), STATUS_OK);
    train_to(&w, &dw, &whole, 2);
    train_to(&h, &held, &all, 2);
    assert_memory_equal(w.net.p, h.net.p, w.net.n * sizeof(float));
    nnue_trainer_free(&w), nnue_trainer_free(&h);
    nnue_trainer_free(&a), nnue_trainer_free(&b);
    nnue_trainer_free(&part), nnue_trainer_free(&again);
    nnue_data_free(&d), nnue_data_free(&held), nnue_data_free(&dw);
    remove(path);
}

// A shard replaced between the first pass and an epoch (another shard's bytes): the epoch that
// reads it stops with an error naming it.
static void test_shard_changed(void **state) {
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "rm -rf '%s/copy' && cp -r '%s/run' '%s/copy'", dir, dir, dir);
    assert_int_equal(system(cmd), 0);
    NnueFilter f = filter(BUFFER);
    NnueData d;
    char run[300], *paths[1] = {run};
    ErrorInfo err;
    snprintf(run, sizeof run, "%s/copy", dir);
    assert_int_equal(nnue_data_load(paths, 1, &f, &d, &err), STATUS_OK);
    assert_true(d.nfiles >= 2);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", d.files[1], d.files[0]);
    assert_int_equal(system(cmd), 0);
    NnueStream s;
    assert_int_equal(nnue_stream_init(&s, &d, &f, BATCH, 1, &err), STATUS_OK);
    nnue_stream_epoch(&s, 0);
    const NnuePosition *b;
    size_t n;
    Status st;
    while ((st = nnue_stream_next(&s, &b, &n, &err)) == STATUS_OK && n > 0)
        ;
    assert_int_equal(st, STATUS_FORMAT);
    if (!strstr(err.msg, d.files[0]) || !strstr(err.msg, "changed since the first pass"))
        fail_msg("%s", err.msg);
    nnue_stream_free(&s);
    nnue_data_free(&d);
}

// The shuffled order keeps 4-byte indices: more positions than it can index (mirrors counted)
// are refused by name before anything is allocated or read, one fewer is not refused for that.
static void test_order_limit(void **state) {
    (void)state;
    NnuePosition one = {0};
    NnueStream s;
    ErrorInfo err;
    const size_t most = NNUE_STREAM_MAX_ORDER / 2; // positions with their mirrors
    assert_int_equal(nnue_stream_init_held(&s, &one, most + 1, true, BATCH, 1, &err), STATUS_RANGE);
    assert_non_null(strstr(err.msg, "--buffer"));
    assert_null(s.order);
    assert_int_equal(nnue_stream_init_held(&s, &one, 1, true, BATCH, 1, &err), STATUS_OK);
    nnue_stream_epoch(&s, 0);
    assert_int_equal(s.norder, 2);
    assert_true((s.order[0] == 0 && s.order[1] == 1) || (s.order[0] == 1 && s.order[1] == 0));
    nnue_stream_free(&s);
}

// hansu-nnue --buffer: bad values are refused before any data is read (the input does not
// exist); a small buffer streams (the JSON says so), a buffer holding the data writes the net of
// no buffer.
static void test_cli(void **state) {
    (void)state;
    const char *bad[][2] = {{"-1", "--buffer"},
                            {"abc", "--buffer"},
                            {"100", "--buffer 100"},
                            {"2147483648", "--buffer"}};
    char cmd[2048];
    for (int i = 0; i < 4; i++) {
        snprintf(cmd, sizeof cmd,
                 "'%s/tuner/nnue/hansu-nnue' --batch 128 --buffer %s --out '%s/bad.nnue' "
                 "'%s/no/such/run' > '%s/bad.log' 2>&1; test $? -eq 2 && grep -q -- '%s' "
                 "'%s/bad.log'",
                 HANSU_BINARY_DIR, bad[i][0], dir, dir, dir, bad[i][1], dir);
        if (system(cmd) != 0)
            fail_msg("--buffer %s was not refused as a bad command line", bad[i][0]);
    }
    const char *buffers[] = {"0", "1000000", "150"};
    for (int i = 0; i < 3; i++) {
        snprintf(cmd, sizeof cmd,
                 "'%s/tuner/nnue/hansu-nnue' --epochs 2 --batch 64 --l1 32 --threads 2 "
                 "--skip-plies 0 --valid 0.3 --buffer %s --out '%s/b%d.nnue' --json '%s/b%d.json' "
                 "'%s/run' "
                 "> '%s/b%d.log' 2>&1",
                 HANSU_BINARY_DIR, buffers[i], dir, i, dir, i, dir, dir, i);
        if (system(cmd) != 0)
            fail_msg("hansu-nnue --buffer %s failed (%s/b%d.log)", buffers[i], dir, i);
    }
    snprintf(cmd, sizeof cmd,
             "cmp -s '%s/b0.nnue' '%s/b1.nnue' && grep -q '\"streamed\": false' '%s/b1.json' && "
             "grep -q '\"buffer\": 150' '%s/b2.json' && grep -q '\"streamed\": true' "
             "'%s/b2.json' && grep -q '^streamed: ' '%s/b2.log'",
             dir, dir, dir, dir, dir, dir);
    assert_int_equal(system(cmd), 0);
}

// A PV end (a file of standalone positions) is held out exactly when its source game is: the id
// in its seed column, with seed 0 as label stores its games.
static void test_pv_end_split_by_source(void **state) {
    (void)state;
    enum { N = 64 };
    uint32_t ids[N];
    uint64_t seeds[N];
    ShardData line = {.games = {.game_id = ids, .seed = seeds, .count = N}};
    uint32_t pv_ids[N];
    uint64_t pv_seeds[N];
    ShardData pv = {.games = {.game_id = pv_ids, .seed = pv_seeds, .count = N}, .standalone = true};
    for (uint32_t g = 0; g < N; g++)
        ids[g] = g, seeds[g] = 0, pv_ids[g] = 0x80000000u + g * 600 + 30, pv_seeds[g] = g;
    NnueFilter f = nnue_filter_default();
    f.valid_fraction = 0.5, f.seed = 3;
    size_t held = 0;
    for (size_t g = 0; g < N; g++) {
        assert_int_equal(nnue_data_game_valid(&pv, g, &f), nnue_data_game_valid(&line, g, &f));
        held += nnue_data_game_valid(&line, g, &f);
    }
    assert_true(held > 0 && held < N);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mirrors_on_the_fly),
        cmocka_unit_test(test_stream_visits_each_once),
        cmocka_unit_test(test_stream_trains),
        cmocka_unit_test(test_cli),
        cmocka_unit_test(test_shard_changed),
        cmocka_unit_test(test_order_limit),
        cmocka_unit_test(test_pv_end_split_by_source),
    };
    return cmocka_run_group_tests(tests, make_shards, remove_shards);
}
