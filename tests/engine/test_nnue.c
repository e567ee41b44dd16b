// SPDX-License-Identifier: MIT
// NNUE inference and file (engine/nnue.h): incremental accumulators equal a full refresh over
// thousands of random makes and unmakes with captures and passes, the AVX2 path equals the
// portable one, the feature map's rotation, and the .nnue reader refuses truncated, bit-flipped,
// foreign and wrong-variant files by name.
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
#include "nnue_testnet.h"
#include "prng.h"
#include "rules.h"
#include "variant.h"

static uint64_t rng_state = 0x1234;
static int rnd(int lo, int hi) {
    return lo + (int)(prng_next(&rng_state) % (uint64_t)(hi - lo + 1));
}

// The k-th kernel path of this build, cycling over those it has (portable, AVX2, AVX-512).
static NnuePath path_at(int k) {
    NnuePath have[NNUE_PATH_NB];
    int n = 0;
    for (NnuePath p = NNUE_PORTABLE; p < NNUE_PATH_NB; p++)
        if (nnue_path_available(p))
            have[n++] = p;
    return have[k % n];
}

static void assert_acc_equal(const NnueAccumulator *a, const NnueAccumulator *b) {
    assert_memory_equal(a->v, b->v, sizeof a->v);
}

// Random makes and unmakes over whole games; after each, the accumulator kept incrementally
// (one per ply, as the search will keep them) equals a refresh, on every path (updates and
// refreshes cycle through them), and the paths' evaluations agree.
static void check_incremental(const Variant *v, int steps) {
    NnueNet *net = nnue_test_random_net(v->name, &rng_state);
    Board *b = malloc(sizeof *b);
    NnueAccumulator *acc = aligned_alloc(64, (MAX_GAME_PLY + 1) * sizeof *acc), fresh;
    assert_non_null(b);
    assert_non_null(acc);
    int captures = 0, passes = 0, unmakes = 0;
    for (int step = 0; step < steps;) {
        if (v->formation_count)
            variant_setup_pairing(v, b, rnd(0, variant_pairing_count(v) - 1));
        else
            assert_int_equal(fen_parse_variant(b, v, v->start_fen, NULL), STATUS_OK);
        int n = 0;
        nnue_refresh(net, b, &acc[0], NNUE_PORTABLE);
        for (int ply = 0; ply < 300 && step < steps; ply++, step++) {
            GameResult gr;
            MoveList l;
            if (n > 0 && rnd(0, 4) == 0) {
                board_unmake(b), n--, unmakes++;
            } else {
                if (rules_game_over(b, &gr))
                    break;
                movegen_legal(b, &l);
                Move m = l.moves[rnd(0, l.count - 1)];
                board_make(b, m);
                NnueDelta d;
                nnue_delta_after_make(b, &d);
                captures += board_state(b)->captured != EMPTY, passes += move_is_pass(m);
                nnue_update(net, &acc[n], &acc[n + 1], &d, path_at(step));
                n++;
            }
            nnue_refresh(net, b, &fresh, path_at(step + 1));
            assert_acc_equal(&acc[n], &fresh);
            assert_int_equal(nnue_output(net, &fresh, b->side, NNUE_PORTABLE),
                             nnue_output(net, &fresh, b->side, path_at(step + 2)));
        }
    }
    assert_true(captures > 100);
    assert_true(unmakes > 100);
    if (v->pass)
        assert_true(passes > 0);
    free(acc);
    free(b);
    free(net);
}

static void test_incremental_janggi(void **state) {
    (void)state;
    check_incremental(&VARIANT_JANGGI, 6000);
}

static void test_incremental_xiangqi(void **state) {
    (void)state;
    check_incremental(&VARIANT_XIANGQI, 2000);
}

// Random accumulators over the whole int16 range (clamping both ways) and random nets.
static void test_paths_equal(void **state) {
    (void)state;
    int checked = 0;
    for (NnuePath path = NNUE_AVX2; path < NNUE_PATH_NB; path++) {
        if (!nnue_path_available(path))
            continue;
        checked++;
        for (int t = 0; t < 20; t++) {
            NnueNet *net = nnue_test_random_net("janggi", &rng_state);
            NnueAccumulator acc;
            for (int k = 0; k < 50; k++) {
                for (int s = 0; s < SIDE_NB; s++)
                    for (int i = 0; i < NNUE_L1; i++)
                        acc.v[s][i] =
                            (int16_t)(k % 2 ? rnd(-32768, 32767) : rnd(-40, NNUE_QA + 40));
                for (Side stm = CHO; stm <= HAN; stm++)
                    assert_int_equal(nnue_output(net, &acc, stm, NNUE_PORTABLE),
                                     nnue_output(net, &acc, stm, path));
            }
            // Every activation at QA with every weight at the limit: the largest lane sums.
            for (int s = 0; s < SIDE_NB; s++)
                for (int i = 0; i < NNUE_L1; i++)
                    acc.v[s][i] = NNUE_QA;
            for (int i = 0; i < 2 * NNUE_L1; i++)
                net->out_weight[i] = t % 2 ? NNUE_OUT_WEIGHT_MAX : -NNUE_OUT_WEIGHT_MAX;
            int64_t expect = (int64_t)2 * NNUE_L1 * NNUE_QA * NNUE_QA * net->out_weight[0];
            assert_int_equal(nnue_output(net, &acc, CHO, path) - net->out_bias, expect);
            assert_int_equal(nnue_output(net, &acc, CHO, NNUE_PORTABLE) - net->out_bias, expect);
            free(net);
        }
    }
    print_message("%d vector paths compared with the portable one\n", checked);
    if (!checked)
        skip();
}

// Han's view is Cho's rotated 180 degrees with the colours swapped: a position and its
// rotated, colour-swapped twin give swapped accumulators and the same score for the side to move.
static void test_feature_rotation(void **state) {
    (void)state;
    assert_int_equal(nnue_feature(CHO, piece_make(CHO, GENERAL), 4), 4);
    assert_int_equal(nnue_feature(HAN, piece_make(HAN, GENERAL), 85), 4);
    assert_int_equal(nnue_feature(HAN, piece_make(CHO, SOLDIER), 0),
                     (NNUE_KINDS + SOLDIER - 1) * SQUARE_NB + 89);
    NnueNet *net = nnue_test_random_net("janggi", &rng_state);
    Board *b = malloc(sizeof *b), *twin = malloc(sizeof *twin);
    NnueAccumulator acc, acc_twin;
    for (int p = 0; p < 16; p++) {
        variant_setup_pairing(&VARIANT_JANGGI, b, p);
        for (int k = 0; k < 20; k++) { // a few random plies: captures, asymmetry
            MoveList l;
            movegen_legal(b, &l);
            board_make(b, l.moves[rnd(0, l.count - 1)]);
        }
        board_clear_variant(twin, &VARIANT_JANGGI);
        for (Square sq = 0; sq < SQUARE_NB; sq++)
            if (b->squares[sq] != EMPTY)
                board_put(twin, piece_make(!piece_side(b->squares[sq]), piece_kind(b->squares[sq])),
                          SQUARE_NB - 1 - sq);
        board_finish_setup(twin, !b->side, 0, 0);
        nnue_refresh(net, b, &acc, NNUE_PORTABLE);
        nnue_refresh(net, twin, &acc_twin, NNUE_PORTABLE);
        assert_memory_equal(acc.v[CHO], acc_twin.v[HAN], sizeof acc.v[CHO]);
        assert_memory_equal(acc.v[HAN], acc_twin.v[CHO], sizeof acc.v[HAN]);
        assert_int_equal(nnue_evaluate(net, &acc, b->side, NNUE_PORTABLE),
                         nnue_evaluate(net, &acc_twin, twin->side, NNUE_PORTABLE));
    }
    free(twin);
    free(b);
    free(net);
}

// --- file ---------------------------------------------------------------------------------

static char tmp_path[256];

static uint8_t *read_all(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(*len);
    assert_int_equal(fread(buf, 1, *len, f), *len);
    fclose(f);
    return buf;
}

static void write_all(const char *path, const uint8_t *buf, size_t len) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, len, f), len);
    fclose(f);
}

// Loads path as janggi and expects a refusal whose message names path and contains why.
static void expect_refused(const char *path, const char *why) {
    NnueNet *net = nnue_net_alloc();
    ErrorInfo err = {{0}};
    assert_int_equal(nnue_load(path, &VARIANT_JANGGI, net, &err), STATUS_FORMAT);
    if (!strstr(err.msg, path) || !strstr(err.msg, why))
        fail_msg("message '%s' lacks '%s' or '%s'", err.msg, path, why);
    free(net);
}

static void test_file_roundtrip(void **state) {
    (void)state;
    NnueNet *net = nnue_test_random_net("janggi", &rng_state), *back = nnue_net_alloc();
    ErrorInfo err;
    assert_int_equal(nnue_save(net, tmp_path, &err), STATUS_OK);
    assert_int_equal(nnue_load(tmp_path, NULL, back, &err), STATUS_OK);
    assert_string_equal(back->variant, "janggi");
    assert_string_equal(back->provenance, net->provenance);
    assert_int_equal(back->scale, net->scale);
    assert_memory_equal(back->ft_bias, net->ft_bias, sizeof net->ft_bias);
    assert_memory_equal(back->ft_weight, net->ft_weight, sizeof net->ft_weight);
    assert_memory_equal(back->out_weight, net->out_weight, sizeof net->out_weight);
    assert_int_equal(back->out_bias, net->out_bias);
    // The CRC is zlib's CRC-32: the check value of "123456789".
    assert_int_equal(nnue_crc32((const uint8_t *)"123456789", 9), 0xCBF43926u);
    free(back);
    free(net);
}

static void test_file_refusals(void **state) {
    (void)state;
    NnueNet *net = nnue_test_random_net("janggi", &rng_state);
    ErrorInfo err;
    assert_int_equal(nnue_save(net, tmp_path, &err), STATUS_OK);
    size_t len;
    uint8_t *good = read_all(tmp_path, &len);
    char path[300];
    snprintf(path, sizeof path, "%s.bad", tmp_path);
    // Truncated anywhere: in the header, in the body, by the last byte.
    size_t cuts[] = {0, 5, 30, 70, len / 2, len - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        write_all(path, good, cuts[i]);
        expect_refused(path, cuts[i] < 8 ? "not a Hansu NNUE file" : "truncated");
    }
    // Trailing bytes.
    uint8_t *longer = calloc(1, len + 3);
    memcpy(longer, good, len);
    write_all(path, longer, len + 3);
    expect_refused(path, "trailing bytes");
    free(longer);
    // One bit flipped in the provenance, the body, the CRC itself: the checksum catches it.
    size_t flips[] = {62, 64 + len / 3, len - 10, len - 1};
    for (size_t i = 0; i < sizeof flips / sizeof flips[0]; i++) {
        good[flips[i]] ^= 0x10;
        write_all(path, good, len);
        expect_refused(path, "checksum mismatch");
        good[flips[i]] ^= 0x10;
    }
    // A flip in a header field is named by that field.
    good[8] ^= 1;
    write_all(path, good, len);
    expect_refused(path, "format version");
    good[8] ^= 1;
    good[36] ^= 1; // L1
    write_all(path, good, len);
    expect_refused(path, "L1");
    good[36] ^= 1;
    // Foreign: an HDF5 signature, text.
    write_all(path, (const uint8_t *)"\x89HDF\r\n\x1a\n and more bytes", 24);
    expect_refused(path, "not a Hansu NNUE file");
    write_all(path, (const uint8_t *)"position startpos\n", 18);
    expect_refused(path, "not a Hansu NNUE file");
    // Wrong variant: a xiangqi net for the janggi engine, and the other way round.
    snprintf(net->variant, sizeof net->variant, "xiangqi");
    assert_int_equal(nnue_save(net, path, &err), STATUS_OK);
    expect_refused(path, "a net for xiangqi, not for janggi");
    NnueNet *back = nnue_net_alloc();
    assert_int_equal(nnue_load(path, &VARIANT_XIANGQI, back, &err), STATUS_OK);
    // Output weights beyond the int16 product bound, with a valid CRC.
    net->out_weight[7] = NNUE_OUT_WEIGHT_MAX + 1;
    snprintf(net->variant, sizeof net->variant, "janggi");
    assert_int_equal(nnue_save(net, path, &err), STATUS_OK);
    expect_refused(path, "output weight 7");
    // Missing file: STATUS_IO naming it.
    remove(path);
    assert_int_equal(nnue_load(path, NULL, back, &err), STATUS_IO);
    assert_non_null(strstr(err.msg, path));
    // A folder: named as one (it read as a file of 2^63 - 1 bytes before).
    assert_int_equal(nnue_load("/tmp", NULL, back, &err), STATUS_IO);
    assert_non_null(strstr(err.msg, "/tmp: is a folder"));
    free(back);
    free(good);
    free(net);
}

int main(void) {
    engine_init();
    snprintf(tmp_path, sizeof tmp_path, "%s/test_nnue.%d.nnue", HANSU_BINARY_DIR, (int)getpid());
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_feature_rotation),   cmocka_unit_test(test_paths_equal),
        cmocka_unit_test(test_incremental_janggi), cmocka_unit_test(test_incremental_xiangqi),
        cmocka_unit_test(test_file_roundtrip),     cmocka_unit_test(test_file_refusals),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    remove(tmp_path);
    return rc;
}
