// SPDX-License-Identifier: MIT
// The NNUE trainer (tuner/nnue/) in this process: features from packed boards equal the
// engine's, the gradient against finite differences on a tiny net, the quantised net against the
// float net, the same seed and threads give the same bytes, and a resumed run equals an unbroken
// one. hansu-nnue the program, end to end on a tiny shard and its locks: test_nnue_train_cli.c.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "board.h"
#include "engine.h"
#include "fen.h"
#include "movegen.h"
#include "nnue.h"
#include "nnue_data.h"
#include "nnue_train.h"
#include "packed_board.h"
#include "perft.h"
#include "prng.h"
#include "rules.h"
#include "variant.h"

static uint64_t rng_state = 0xabcdef;
static int rnd(int n) { return (int)(prng_next(&rng_state) % (uint64_t)n); }

// n positions from random games of variant v (random scores and results): janggi's from its
// 16 formation pairings, xiangqi's from its start; boards kept in out_boards when not NULL.
static NnuePosition *random_positions_of(const Variant *v, size_t n, Board **out_boards) {
    NnuePosition *pos = calloc(n, sizeof *pos);
    Board *b = malloc(sizeof *b);
    assert_non_null(pos);
    for (size_t i = 0; i < n;) {
        if (v == &VARIANT_JANGGI)
            variant_setup_pairing(v, b, rnd(16));
        else
            assert_int_equal(fen_parse_variant(b, v, v->start_fen, NULL), STATUS_OK);
        for (int ply = 0; ply < 120 && i < n; ply++) {
            GameResult gr;
            MoveList l;
            if (rules_game_over(b, &gr))
                break;
            movegen_legal(b, &l);
            board_make(b, l.moves[rnd(l.count)]);
            PackedBoard pb;
            packed_board_encode(b, &pb);
            memcpy(pos[i].board, pb.sq, sizeof pb.sq);
            pos[i].stm = (uint8_t)b->side;
            pos[i].score = (int16_t)(rnd(1201) - 600);
            pos[i].result = (int8_t)(rnd(3) - 1);
            if (out_boards)
                memcpy(out_boards[i], b, sizeof *b);
            i++;
        }
    }
    free(b);
    return pos;
}

static NnuePosition *random_positions(size_t n, Board **out_boards) {
    return random_positions_of(&VARIANT_JANGGI, n, out_boards);
}

// The mirror the trainer adds (--mirror) is a position of the same game: mirrored twice it is
// the position again; decoded, it has the legal move counts of the original at depth 3 (the
// rules are symmetric under a file flip), in janggi and xiangqi; its features are the
// original's with every point's file flipped. And the data loader doubles the training set
// with them, validation untouched.
static void test_mirror(void **state) {
    (void)state;
    enum { N = 60 };
    Board **boards = malloc(N * sizeof *boards);
    for (int i = 0; i < N; i++)
        boards[i] = malloc(sizeof(Board));
    NnuePosition *pos = random_positions(N, boards);
    static Board m;
    for (int i = 0; i < N; i += 3) {
        NnuePosition mp = pos[i], back = pos[i];
        nnue_mirror_board(pos[i].board, mp.board);
        nnue_mirror_board(mp.board, back.board);
        assert_memory_equal(back.board, pos[i].board, PACKED_BOARD_BYTES);
        PackedBoard pb;
        memcpy(pb.sq, mp.board, sizeof pb.sq);
        ErrorInfo err;
        if (packed_board_decode(&pb, (Side)mp.stm, 20, &m, &err) != STATUS_OK)
            fail_msg("%s", err.msg);
        // The original decoded the same way (no history: repetitions aside, as the mirror).
        static Board o;
        memcpy(pb.sq, pos[i].board, sizeof pb.sq);
        assert_int_equal(packed_board_decode(&pb, (Side)mp.stm, 20, &o, &err), STATUS_OK);
        assert_int_equal(perft(&m, 3), perft(&o, 3));
        uint16_t f[2][32], g[2][32];
        int n = nnue_position_features(&pos[i], f);
        assert_int_equal(nnue_position_features(&mp, g), n);
        for (int k = 0; k < n; k++)
            for (int p = 0; p < 2; p++) {
                int sq = f[p][k] % SQUARE_NB, rest = f[p][k] - sq;
                int want = rest + square_make(FILE_NB - 1 - square_file(sq), square_rank(sq));
                assert_int_equal(g[p][k], want);
            }
    }
    // Xiangqi: its start position and a few random plies, mirrored, move alike.
    static Board x;
    assert_int_equal(fen_parse_variant(&x, &VARIANT_XIANGQI, VARIANT_XIANGQI.start_fen, NULL),
                     STATUS_OK);
    for (int ply = 0; ply < 12; ply++) {
        MoveList l;
        movegen_legal(&x, &l);
        board_make(&x, l.moves[rnd(l.count)]);
    }
    PackedBoard pb, mb;
    packed_board_encode(&x, &pb);
    nnue_mirror_board(pb.sq, mb.sq);
    assert_int_equal(packed_board_decode_variant(&mb, &VARIANT_XIANGQI, x.side, 12, &m, NULL),
                     STATUS_OK);
    assert_int_equal(packed_board_decode_variant(&pb, &VARIANT_XIANGQI, x.side, 12, &x, NULL),
                     STATUS_OK);
    assert_int_equal(perft(&m, 3), perft(&x, 3));
    for (int i = 0; i < N; i++)
        free(boards[i]);
    free(boards);
    free(pos);
}

// The trainer reads features from packed slots; the engine from the Board: the same indices.
static void test_features_match_engine(void **state) {
    (void)state;
    enum { N = 300 };
    Board *boards[N];
    for (int i = 0; i < N; i++)
        boards[i] = malloc(sizeof(Board));
    NnuePosition *pos = random_positions(N, boards);
    for (int i = 0; i < N; i++) {
        uint16_t feats[2][32];
        int n = nnue_position_features(&pos[i], feats), k = 0;
        for (Square sq = 0; sq < SQUARE_NB; sq++) {
            Piece pc = boards[i]->squares[sq];
            if (pc == EMPTY)
                continue;
            bool found[2] = {false, false};
            for (int j = 0; j < n; j++)
                for (int p = 0; p < 2; p++)
                    found[p] |= feats[p][j] == nnue_feature((Side)p, pc, sq);
            assert_true(found[0] && found[1]);
            k++;
        }
        assert_int_equal(n, k);
        free(boards[i]);
    }
    free(pos);
}

// Central differences of the loss against float_net_backward's gradient, on a net of 4 hidden
// neurons with weights spread so that some neurons sit inside (0, 1) where SCReLU bends, and outs
// output layers.
static void check_gradient(int outs) {
    FloatNet net;
    ErrorInfo err;
    assert_int_equal(float_net_init(&net, NNUE_INPUTS, 4, outs, 7, &err), STATUS_OK);
    for (size_t i = 0; i < net.n; i++)
        net.p[i] *= 0.5f;
    for (int j = 0; j < outs * 2 * 4; j++)
        net.out_w[j] = 0.8f * (float)((j % 3) - 1) + 0.3f + 0.1f * (float)(j / 8);
    NnuePosition *pos = random_positions(8, NULL);
    float *grad = calloc(net.n, sizeof *grad);
    uint8_t *touched = calloc(NNUE_INPUTS, 1);
    const double lambda = 0.3, s = 300, k = 400 / s, h = 1e-3;
    for (int i = 0; i < 8; i++)
        float_net_backward(&net, &pos[i], lambda, k, s, grad, touched);
    int checked = 0;
    for (size_t e = 0; e < net.n; e++) {
        bool row = e < (size_t)NNUE_INPUTS * 4;
        if ((row && !touched[e / 4]) || (!row && rnd(2)))
            continue;
        if (row && rnd(4))
            continue;
        float keep = net.p[e];
        double up = 0, down = 0;
        net.p[e] = keep + (float)h;
        for (int i = 0; i < 8; i++)
            up += float_net_backward(&net, &pos[i], lambda, k, s, NULL, NULL);
        net.p[e] = keep - (float)h;
        for (int i = 0; i < 8; i++)
            down += float_net_backward(&net, &pos[i], lambda, k, s, NULL, NULL);
        net.p[e] = keep;
        double fd = (up - down) / (2 * h);
        if (fabs(fd - grad[e]) > 2e-3 + 0.02 * fabs(fd))
            fail_msg("parameter %zu: analytic %.6g, finite differences %.6g", e, grad[e], fd);
        checked += fabs(fd) > 1e-4;
    }
    assert_true(checked > 10);
    free(touched);
    free(grad);
    free(pos);
    float_net_free(&net);
}

// ... on a net of one output layer and of three (by pieces: each position's gradient reaches
// only its own layer, which finite differences confirm for every layer's weights sampled).
static void test_gradient_finite_differences(void **state) {
    (void)state;
    check_gradient(1);
    check_gradient(3);
}

// A float net whose weights lie on the quantisation grid quantises exactly: the engine's
// integer score is the float score up to the final rounding (1 cp) and float rounding. An
// off-grid net of trained magnitudes stays within the bound hansu-nnue states by default.
// --init's dequantisation: a quantised net turned back into floats quantises to itself, at the
// same scale and (output rescaled) at another; a net of another size is refused by name.
static void test_from_quantised(void **state) {
    (void)state;
    FloatNet net, back, small;
    ErrorInfo err;
    NnueNet *q = nnue_net_alloc(), *again = nnue_net_alloc();
    assert_int_equal(float_net_init(&net, NNUE_INPUTS, NNUE_L1, 1, 9, &err), STATUS_OK);
    assert_int_equal(float_net_init(&back, NNUE_INPUTS, NNUE_L1, 1, 10, &err), STATUS_OK);
    for (int j = 0; j < 2 * NNUE_L1; j++)
        net.out_w[j] = (float)(rnd(801) - 400) / 1000.0f;
    net.out_b[0] = 0.3f;
    assert_int_equal(nnue_quantise(&net, 400, "janggi", "{}", q, &err), STATUS_OK);
    for (int scale = 400; scale <= 800; scale += 400) {
        assert_int_equal(float_net_from_quantised(&back, q, scale, &err), STATUS_OK);
        assert_int_equal(nnue_quantise(&back, scale, "janggi", "{}", again, &err), STATUS_OK);
        assert_memory_equal(q->ft_weight, again->ft_weight,
                            sizeof(int16_t) * NNUE_INPUTS * NNUE_L1);
        assert_memory_equal(q->ft_bias, again->ft_bias, sizeof q->ft_bias);
        if (scale == 400) {
            assert_memory_equal(q->out_weight, again->out_weight, sizeof q->out_weight);
            assert_int_equal(q->out_bias[0], again->out_bias[0]);
        } else { // twice the centipawns per unit: half the output weights (rounded)
            for (int j = 0; j < 2 * NNUE_L1; j++)
                assert_true(abs(2 * again->out_weight[j] - q->out_weight[j]) <= 1);
        }
    }
    assert_int_equal(float_net_init(&small, NNUE_INPUTS, 16, 1, 1, &err), STATUS_OK);
    assert_int_equal(float_net_from_quantised(&small, q, 400, &err), STATUS_RANGE);
    assert_non_null(strstr(err.msg, "1260 x 16"));
    // A net of one output layer starts every layer of a net of output buckets (--init with
    // --out-buckets): quantised again, each layer is q's; a net of 3 layers cannot start 8.
    FloatNet wide;
    assert_int_equal(float_net_init(&wide, NNUE_INPUTS, NNUE_L1, 8, 11, &err), STATUS_OK);
    assert_int_equal(float_net_from_quantised(&wide, q, 400, &err), STATUS_OK);
    assert_int_equal(nnue_quantise(&wide, 400, "janggi", "{}", again, &err), STATUS_OK);
    assert_int_equal(again->out_buckets, 8);
    for (int k = 0; k < 8; k++) {
        assert_memory_equal(again->out_weight + k * 2 * NNUE_L1, q->out_weight,
                            sizeof(int16_t) * 2 * NNUE_L1);
        assert_int_equal(again->out_bias[k], q->out_bias[0]);
    }
    bool bias_changed = true;
    assert_int_equal(nnue_weights_changed(again, q, &bias_changed), 0);
    assert_false(bias_changed);
    again->out_buckets = 3;
    assert_int_equal(float_net_from_quantised(&wide, again, 400, &err), STATUS_RANGE);
    assert_non_null(strstr(err.msg, "3 output buckets, this run trains 8"));
    float_net_free(&wide);
    // A plain net starts a palace net (its rows the shared rows, the buckets' 0): exported, every
    // bucket is the plain net's rows, so no weight differs from it; that palace net starts
    // another palace net (its bucket rows) that exports to it again; a palace net does not
    // start a plain net.
    FloatNet palace, palace2;
    NnueNet *pq = nnue_net_alloc(), *pq2 = nnue_net_alloc();
    assert_int_equal(float_net_init(&palace, NNUE_TRAIN_PALACE_INPUTS, NNUE_L1, 1, 12, &err),
                     STATUS_OK);
    assert_int_equal(float_net_init(&palace2, NNUE_TRAIN_PALACE_INPUTS, NNUE_L1, 1, 13, &err),
                     STATUS_OK);
    assert_int_equal(float_net_from_quantised(&palace, q, 400, &err), STATUS_OK);
    assert_int_equal(nnue_quantise(&palace, 400, "janggi", "{}", pq, &err), STATUS_OK);
    assert_int_equal(pq->input_set, NNUE_INPUT_PALACE);
    for (int k = 0; k < NNUE_PALACE_BUCKETS; k++)
        assert_memory_equal(nnue_weight_row(pq, k * NNUE_INPUTS), q->ft_weight,
                            sizeof(int16_t) * NNUE_INPUTS * NNUE_L1);
    assert_int_equal(nnue_weights_changed(pq, q, &bias_changed), 0);
    assert_false(bias_changed);
    for (int j = 0; j < 7 * NNUE_L1; j++) // a bucket of its own, so that the buckets differ
        nnue_weight_row(pq, 3 * NNUE_INPUTS)[j] = (int16_t)(j % 91 - 45);
    assert_int_equal(float_net_from_quantised(&palace2, pq, 400, &err), STATUS_OK);
    assert_int_equal(nnue_quantise(&palace2, 400, "janggi", "{}", pq2, &err), STATUS_OK);
    assert_memory_equal(pq2->ft_weight, pq->ft_weight,
                        sizeof(int16_t) * NNUE_PALACE_BUCKETS * NNUE_INPUTS * NNUE_L1);
    assert_int_equal(nnue_weights_changed(pq2, pq, &bias_changed), 0);
    assert_int_equal(float_net_from_quantised(&back, pq, 400, &err), STATUS_RANGE);
    assert_non_null(strstr(err.msg, "the engine's palace net of L1 256"));
    float_net_free(&palace);
    float_net_free(&palace2);
    free(pq);
    free(pq2);
    float_net_free(&net);
    float_net_free(&back);
    float_net_free(&small);
    free(q);
    free(again);
}

// The quantised net follows the float net within hansu-nnue's default bound off the grid and
// to the final rounding on it, on positions of each variant (a net carries its variant).
static void test_quantised_follows_float(void **state) {
    (void)state;
    const Variant *variants[] = {&VARIANT_JANGGI, &VARIANT_XIANGQI};
    for (int k = 0; k < 2; k++) {
        const Variant *v = variants[k];
        FloatNet net;
        ErrorInfo err;
        NnueNet *q = nnue_net_alloc();
        assert_int_equal(float_net_init(&net, NNUE_INPUTS, NNUE_L1, 1, 3 + (uint64_t)k, &err),
                         STATUS_OK);
        for (int j = 0; j < 2 * NNUE_L1; j++) // trained magnitudes: a few QB units
            net.out_w[j] = (float)(rnd(1201) - 600) / 10000.0f;
        net.out_b[0] = 0.05f;
        enum { N = 400 };
        NnuePosition *pos = random_positions_of(v, N, NULL);
        QuantCheck qc;
        assert_int_equal(nnue_quantise(&net, 400, v->name, "{}", q, &err), STATUS_OK);
        assert_string_equal(q->variant, v->name);
        assert_int_equal(nnue_quant_check(&net, q, pos, N, N, &qc, &err), STATUS_OK);
        print_message("%s off grid: max %.2f cp, mean %.2f cp\n", v->name, qc.max_cp, qc.mean_cp);
        assert_true(qc.max_cp < 64); // hansu-nnue --quant-bound default
        for (size_t i = 0; i < (size_t)NNUE_INPUTS * NNUE_L1 + NNUE_L1; i++)
            net.p[i] = roundf(net.p[i] * NNUE_QA) / NNUE_QA;
        for (int j = 0; j < 2 * NNUE_L1; j++)
            net.out_w[j] = (float)(rnd(255) - 127) / NNUE_QB;
        net.out_b[0] = 3000.0f / (NNUE_QA * NNUE_QA * NNUE_QB);
        assert_int_equal(nnue_quantise(&net, 400, v->name, "{}", q, &err), STATUS_OK);
        assert_int_equal(nnue_quant_check(&net, q, pos, N, N, &qc, &err), STATUS_OK);
        print_message("%s on grid: max %.3f cp, mean %.3f cp\n", v->name, qc.max_cp, qc.mean_cp);
        assert_int_equal(qc.positions, N);
        assert_true(qc.max_cp < 1.01);
        free(pos);
        free(q);
        float_net_free(&net);
    }
}

static NnueTrainConfig tiny_config(int threads, uint64_t seed) {
    NnueTrainConfig c = nnue_train_config_default();
    c.hidden = 16, c.epochs = 3, c.batch = 64, c.threads = threads, c.s = 400, c.seed = seed;
    c.lr = 0.01;
    return c;
}

static void train_epochs(NnueTrainer *t, const NnuePosition *pos, size_t n, int epochs) {
    for (int e = 0; e < epochs; e++)
        nnue_trainer_epoch(t, pos, n - 100, pos + n - 100, 100);
}

// A palace net, factorised (hansu-nnue --arch palace): trained a few epochs on a few hundred
// positions of each variant, its loss falls, the shared rows learn, and exported (the shared rows
// folded into every bucket's), written and loaded by the engine, it evaluates the positions as
// the float net does within hansu-nnue's quantisation bound: the engine's buckets are the
// trainer's.
static void test_palace_end_to_end(void **state) {
    (void)state;
    const Variant *variants[] = {&VARIANT_JANGGI, &VARIANT_XIANGQI};
    char path[256];
    snprintf(path, sizeof path, "%s/test_nnue_train_palace.%d.nnue", HANSU_BINARY_DIR,
             (int)getpid());
    for (int k = 0; k < 2; k++) {
        enum { N = 600 };
        NnuePosition *pos = random_positions_of(variants[k], N, NULL);
        NnueTrainConfig c = tiny_config(2, 5);
        c.hidden = 32, c.input_set = NNUE_INPUT_PALACE;
        NnueTrainer t;
        ErrorInfo err;
        assert_int_equal(nnue_trainer_init(&t, &c, &err), STATUS_OK);
        assert_int_equal(t.net.inputs, NNUE_TRAIN_PALACE_INPUTS);
        train_epochs(&t, pos, N, 3);
        assert_true(t.epochs[2].train_loss < t.epochs[0].train_loss);
        const float *shared = t.net.ft_w + (size_t)NNUE_PALACE_BUCKETS * NNUE_INPUTS * 32;
        size_t moved = 0;
        for (size_t i = 0; i < (size_t)NNUE_INPUTS * 32; i++)
            moved += shared[i] != 0.0f; // they start at 0
        assert_true(moved > 1000);
        NnueNet *q = nnue_net_alloc(), *back = nnue_net_alloc();
        assert_int_equal(nnue_quantise(&t.net, 400, variants[k]->name, "{}", q, &err), STATUS_OK);
        assert_int_equal(q->input_set, NNUE_INPUT_PALACE);
        assert_int_equal(q->buckets, NNUE_PALACE_BUCKETS);
        assert_int_equal(q->l1, 32);
        assert_int_equal(nnue_save(q, path, &err), STATUS_OK);
        assert_int_equal(nnue_load(path, variants[k], back, &err), STATUS_OK);
        QuantCheck qc;
        assert_int_equal(nnue_quant_check(&t.net, back, pos, N, N, &qc, &err), STATUS_OK);
        print_message("%s palace: max %.2f cp, mean %.3f cp\n", variants[k]->name, qc.max_cp,
                      qc.mean_cp);
        assert_int_equal(qc.positions, N);
        assert_true(qc.max_cp < 64); // hansu-nnue --quant-bound default
        // Each position's palace features: its bucket row and the shared row of every piece.
        uint16_t f[2][NNUE_TRAIN_FEATURES_MAX], plain[2][32];
        for (size_t i = 0; i < 50; i++) {
            int n = nnue_position_features(&pos[i], plain);
            assert_int_equal(nnue_train_features(&pos[i], NNUE_TRAIN_PALACE_INPUTS, f), 2 * n);
            for (int j = 0; j < n; j++) {
                assert_int_equal(f[0][2 * j] % NNUE_INPUTS, plain[0][j]);
                assert_int_equal(f[1][2 * j + 1], NNUE_PALACE_BUCKETS * NNUE_INPUTS + plain[1][j]);
            }
        }
        remove(path);
        free(back);
        free(q);
        nnue_trainer_free(&t);
        free(pos);
    }
}

// Output buckets (hansu-nnue --out-buckets): a plain and a palace net of 8 output layers trained
// a few epochs on positions of each variant whose pieces span several layers; the loss falls,
// each layer a position reached moved, and exported, written and loaded by the engine, the net
// evaluates the positions as the float net does within hansu-nnue's bound: the engine's choice of
// layer is the trainer's (float_net_out_bucket against nnue_out_bucket of the decoded board).
static void test_out_buckets_end_to_end(void **state) {
    (void)state;
    const Variant *variants[] = {&VARIANT_JANGGI, &VARIANT_XIANGQI};
    char path[256];
    snprintf(path, sizeof path, "%s/test_nnue_train_outs.%d.nnue", HANSU_BINARY_DIR, (int)getpid());
    for (int k = 0; k < 4; k++) {
        enum { N = 900, OUTS = 8 };
        const Variant *v = variants[k % 2];
        Board **boards = malloc(N * sizeof *boards);
        for (int i = 0; i < N; i++)
            boards[i] = malloc(sizeof **boards);
        NnuePosition *pos = random_positions_of(v, N, boards);
        NnueTrainConfig c = tiny_config(2, 8);
        c.hidden = 32, c.out_buckets = OUTS;
        c.input_set = k < 2 ? NNUE_INPUT_PLAIN : NNUE_INPUT_PALACE;
        NnueTrainer t;
        ErrorInfo err;
        assert_int_equal(nnue_trainer_init(&t, &c, &err), STATUS_OK);
        assert_int_equal(t.net.outs, OUTS);
        float *first = malloc(OUTS * 2 * 32 * sizeof *first);
        memcpy(first, t.net.out_w, OUTS * 2 * 32 * sizeof *first);
        int used = 0;
        for (int i = 0; i < N - 100; i++) {
            uint16_t f[2][NNUE_TRAIN_FEATURES_MAX];
            int n = nnue_train_features(&pos[i], t.net.inputs, f), pieces = 0;
            for (Square sq = 0; sq < SQUARE_NB; sq++)
                pieces += boards[i]->squares[sq] != EMPTY;
            assert_int_equal(float_net_out_bucket(&t.net, n), nnue_out_bucket(pieces, OUTS));
            used |= 1 << nnue_out_bucket(pieces, OUTS);
        }
        assert_true(__builtin_popcount((unsigned)used) >= 3);
        train_epochs(&t, pos, N, 3);
        assert_true(t.epochs[2].train_loss < t.epochs[0].train_loss);
        for (int b = 0; b < OUTS; b++) { // a layer's gradient comes from its positions alone
            double moved = 0;
            for (int j = 0; j < 2 * 32; j++)
                moved += fabsf(t.net.out_w[b * 64 + j] - first[b * 64 + j]);
            if (used >> b & 1)
                assert_true(moved > 0.01);
        }
        NnueNet *q = nnue_net_alloc(), *back = nnue_net_alloc();
        assert_int_equal(nnue_quantise(&t.net, 400, v->name, "{}", q, &err), STATUS_OK);
        assert_int_equal(q->out_buckets, OUTS);
        assert_int_equal(nnue_save(q, path, &err), STATUS_OK);
        assert_int_equal(nnue_load(path, v, back, &err), STATUS_OK);
        assert_int_equal(back->out_buckets, OUTS);
        QuantCheck qc;
        assert_int_equal(nnue_quant_check(&t.net, back, pos, N, N, &qc, &err), STATUS_OK);
        print_message("%s %s, %d output layers: max %.2f cp, mean %.3f cp\n", v->name,
                      k < 2 ? "plain" : "palace", OUTS, qc.max_cp, qc.mean_cp);
        assert_int_equal(qc.positions, N);
        assert_true(qc.max_cp < 64); // hansu-nnue --quant-bound default
        remove(path);
        free(back);
        free(q);
        free(first);
        nnue_trainer_free(&t);
        for (int i = 0; i < N; i++)
            free(boards[i]);
        free(boards);
        free(pos);
    }
}

// Same seed and threads: the same weights, bit for bit; another seed: others. Loss goes down.
static void test_same_seed_same_net(void **state) {
    (void)state;
    enum { N = 1500 };
    NnuePosition *pos = random_positions(N, NULL);
    NnueTrainer a, b, c;
    ErrorInfo err;
    NnueTrainConfig ca = tiny_config(2, 5), cc = tiny_config(2, 6);
    assert_int_equal(nnue_trainer_init(&a, &ca, &err), STATUS_OK);
    assert_int_equal(nnue_trainer_init(&b, &ca, &err), STATUS_OK);
    assert_int_equal(nnue_trainer_init(&c, &cc, &err), STATUS_OK);
    train_epochs(&a, pos, N, 3);
    train_epochs(&b, pos, N, 3);
    train_epochs(&c, pos, N, 3);
    assert_memory_equal(a.net.p, b.net.p, a.net.n * sizeof(float));
    assert_memory_not_equal(a.net.p, c.net.p, a.net.n * sizeof(float));
    assert_true(a.epochs[2].train_loss < a.epochs[0].train_loss);
    nnue_trainer_free(&a);
    nnue_trainer_free(&b);
    nnue_trainer_free(&c);
    free(pos);
}

// Every weight stays within clip and every output weight within out_clip (the default is the
// quantised limit (NNUE_OUT_WEIGHT_MAX - 1) / NNUE_QB); small bounds here, so they bind.
static void test_weights_clipped(void **state) {
    (void)state;
    enum { N = 1500 };
    NnuePosition *pos = random_positions(N, NULL);
    NnueTrainer t;
    ErrorInfo err;
    NnueTrainConfig c = tiny_config(1, 7);
    assert_true(fabs(nnue_train_config_default().out_clip * NNUE_QB - (NNUE_OUT_WEIGHT_MAX - 1)) <
                1e-9);
    c.lr = 0.05, c.clip = 0.3, c.out_clip = 0.02;
    assert_int_equal(nnue_trainer_init(&t, &c, &err), STATUS_OK);
    train_epochs(&t, pos, N, 3);
    int at_out = 0;
    for (size_t e = 0; e < t.net.n; e++)
        assert_true(fabsf(t.net.p[e]) <= 0.3f);
    for (int j = 0; j < 2 * t.net.hidden; j++) {
        assert_true(fabsf(t.net.out_w[j]) <= 0.02f);
        at_out += fabsf(t.net.out_w[j]) == 0.02f;
    }
    assert_true(at_out > 0); // the bound was reached, so it was applied
    nnue_trainer_free(&t);
    free(pos);
}

// Two epochs, a checkpoint, a fresh trainer resumed from it, the third epoch: the bytes of an
// unbroken three-epoch run. A checkpoint of other settings is refused, naming the setting.
static void test_resume_equals_unbroken(void **state) {
    (void)state;
    enum { N = 1200 };
    NnuePosition *pos = random_positions(N, NULL);
    char path[256];
    snprintf(path, sizeof path, "%s/test_nnue_train.%d.ckpt", HANSU_BINARY_DIR, (int)getpid());
    NnueTrainer whole, part, again;
    ErrorInfo err;
    NnueTrainConfig c = tiny_config(1, 9);
    assert_int_equal(nnue_trainer_init(&whole, &c, &err), STATUS_OK);
    assert_int_equal(nnue_trainer_init(&part, &c, &err), STATUS_OK);
    assert_int_equal(nnue_trainer_init(&again, &c, &err), STATUS_OK);
    train_epochs(&whole, pos, N, 3);
    train_epochs(&part, pos, N, 2);
    assert_int_equal(nnue_checkpoint_save(&part, NULL, path, &err), STATUS_OK);
    assert_int_equal(nnue_checkpoint_load(&again, NULL, path, &err), STATUS_OK);
    assert_int_equal(again.epoch, 2);
    train_epochs(&again, pos, N, 1);
    assert_memory_equal(whole.net.p, again.net.p, whole.net.n * sizeof(float));
    assert_true(whole.epochs[2].valid_loss == again.epochs[2].valid_loss);
    NnueTrainer other;
    c.lr = 0.02;
    assert_int_equal(nnue_trainer_init(&other, &c, &err), STATUS_OK);
    assert_int_equal(nnue_checkpoint_load(&other, NULL, path, &err), STATUS_FORMAT);
    assert_non_null(strstr(err.msg, "lr=0.01"));
    nnue_trainer_free(&other);
    // Output buckets are a setting: a checkpoint of one layer does not resume a run of 8.
    c.lr = 0.01, c.out_buckets = 8;
    assert_int_equal(nnue_trainer_init(&other, &c, &err), STATUS_OK);
    assert_int_equal(nnue_checkpoint_load(&other, NULL, path, &err), STATUS_FORMAT);
    assert_non_null(strstr(err.msg, "this run has out_buckets=8"));
    nnue_trainer_free(&other);
    remove(path);
    nnue_trainer_free(&whole);
    nnue_trainer_free(&part);
    nnue_trainer_free(&again);
    free(pos);
}

// Loads the checkpoint at path into a fresh trainer of config c with inputs d: its status, the
// message in err.
static Status load_with(const NnueTrainConfig *c, const NnueData *d, const char *path,
                        ErrorInfo *err) {
    NnueTrainer t;
    assert_int_equal(nnue_trainer_init(&t, c, err), STATUS_OK);
    Status s = nnue_checkpoint_load(&t, d, path, err);
    nnue_trainer_free(&t);
    return s;
}

static void expect_refused(Status s, const ErrorInfo *err, const char *what) {
    assert_int_equal(s, STATUS_FORMAT);
    if (!strstr(err->msg, what))
        fail_msg("expected \"%s\" in: %s", what, err->msg);
}

// Issue 39: a checkpoint held the optimiser's settings but neither the data filters nor the
// inputs, so a run killed after epoch 4 and resumed with --no-mirror or other shards continued
// the old weights on other data. The checkpoint records both; a resume with any filter, any
// file's digest, the number of files or the position counts different is refused naming it. A
// file whose path alone differs (a moved folder, the same bytes) is the same input. A
// checkpoint of the version before (no filters, no inputs) is refused as an older trainer's.
static void test_resume_other_data(void **state) {
    (void)state;
    char path[256], *files[2] = {"a/run/shard-000000.h5", "a/run/shard-000001.h5"};
    char *moved[2] = {"b/run/shard-000000.h5", "b/run/shard-000001.h5"};
    char sha[2][65];
    memset(sha, 0, sizeof sha);
    memset(sha[0], '1', 64), memset(sha[1], '2', 64);
    snprintf(path, sizeof path, "%s/test_nnue_train.%d.data.ckpt", HANSU_BINARY_DIR, (int)getpid());
    NnueFilter f = nnue_filter_default();
    NnueTrainConfig c = tiny_config(1, 3);
    c.epochs = 1, c.filter = &f;
    NnueData d = {.files = files, .sha256 = sha, .nfiles = 2};
    d.read = 1000, d.dropped = 100, d.ntrain = 1620, d.nvalid = 90;
    NnueTrainer t;
    ErrorInfo err;
    assert_int_equal(nnue_trainer_init(&t, &c, &err), STATUS_OK);
    assert_int_equal(nnue_checkpoint_save(&t, &d, path, &err), STATUS_OK);
    nnue_trainer_free(&t);
    assert_int_equal(load_with(&c, &d, path, &err), STATUS_OK);
    NnueData e = d; // the same bytes elsewhere
    e.files = moved;
    assert_int_equal(load_with(&c, &e, path, &err), STATUS_OK);
    // Each filter: refused before the data (nnue_checkpoint_check) and at the load.
    const char *filters[] = {"mirror=1, this run has mirror=0",
                             "skip_plies=8, this run has "
                             "skip_plies=0",
                             "max_score=3000, this run has max_score=-1",
                             "skip_check=1, this run has skip_check=0",
                             "skip_capture=1, this run has skip_capture=0",
                             "valid=0.1, this run has valid=0.3",
                             "max_positions=0, this run has max_positions=500"};
    for (int i = 0; i < 7; i++) {
        NnueFilter g = f;
        g.mirror = i == 0 ? false : g.mirror;
        g.skip_plies = i == 1 ? 0 : g.skip_plies;
        g.max_score = i == 2 ? -1 : g.max_score;
        g.skip_check = i == 3 ? false : g.skip_check;
        g.skip_capture = i == 4 ? false : g.skip_capture;
        g.valid_fraction = i == 5 ? 0.3 : g.valid_fraction;
        g.max_positions = i == 6 ? 500 : g.max_positions;
        NnueTrainConfig cg = c;
        cg.filter = &g;
        expect_refused(nnue_checkpoint_check(&cg, path, &err), &err, filters[i]);
        expect_refused(load_with(&cg, &d, path, &err), &err, filters[i]);
    }
    // The inputs: another digest (named with the file's number and both paths), one file
    // fewer, other position counts.
    char other[2][65];
    memcpy(other, sha, sizeof sha);
    other[1][0] = 'f';
    e.sha256 = other;
    expect_refused(load_with(&c, &e, path, &err), &err,
                   "input 2 was a/run/shard-000001.h5 (sha256 222222222222), this run has "
                   "b/run/shard-000001.h5 (sha256 f22222222222)");
    e = d, e.nfiles = 1;
    expect_refused(load_with(&c, &e, path, &err), &err,
                   "written with inputs=2, this run has "
                   "inputs=1");
    e = d, e.ntrain = 810;
    expect_refused(load_with(&c, &e, path, &err), &err,
                   "written with train=1620, this run has "
                   "train=810");
    e = d, e.read = 999;
    expect_refused(load_with(&c, &e, path, &err), &err,
                   "written with read=1000, this run has "
                   "read=999");
    // A checkpoint of version 2 (the version field turned back).
    FILE *fp = fopen(path, "r+b");
    uint32_t two = 2;
    assert_non_null(fp);
    assert_int_equal(fseek(fp, 8, SEEK_SET), 0);
    assert_int_equal(fwrite(&two, 4, 1, fp), 1);
    fclose(fp);
    expect_refused(nnue_checkpoint_check(&c, path, &err), &err,
                   "written by an older hansu-nnue (checkpoint version 2");
    assert_non_null(strstr(err.msg, "delete it or train without --resume"));
    remove(path);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_features_match_engine),
        cmocka_unit_test(test_gradient_finite_differences),
        cmocka_unit_test(test_quantised_follows_float),
        cmocka_unit_test(test_same_seed_same_net),
        cmocka_unit_test(test_mirror),
        cmocka_unit_test(test_from_quantised),
        cmocka_unit_test(test_weights_clipped),
        cmocka_unit_test(test_resume_equals_unbroken),
        cmocka_unit_test(test_resume_other_data),
        cmocka_unit_test(test_palace_end_to_end),
        cmocka_unit_test(test_out_buckets_end_to_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
