// SPDX-License-Identifier: MIT
// NNUE inference and file (engine/nnue.h): incremental accumulators equal a full refresh over
// thousands of random makes and unmakes with captures and passes, the AVX2 path equals the
// portable one, the feature map's rotation, all of it for plain nets and for palace-bucketed nets
// of L1 256 and 512 (a general's move refreshes its perspective) and nets of output buckets by
// pieces on the board; the .nnue reader loads format versions 1 and 2 and refuses truncated,
// bit-flipped, foreign and wrong-variant files and bad output bucket fields by name.
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

static void assert_acc_equal(const NnueNet *net, const NnueAccumulator *a,
                             const NnueAccumulator *b) {
    for (Side p = CHO; p <= HAN; p++)
        assert_memory_equal(a->v[p], b->v[p], sizeof(int16_t) * (size_t)net->l1);
    assert_true(nnue_acc_equal(net, a, b));
}

// The architectures every inference test runs on: today's plain net, palace-bucketed nets, and
// nets of several output layers (by pieces on the board).
static const struct {
    NnueInputSet input_set;
    int l1, outs;
} ARCHS[] = {{NNUE_INPUT_PLAIN, NNUE_L1, 1},
             {NNUE_INPUT_PALACE, 256, 1},
             {NNUE_INPUT_PALACE, 512, 1},
             {NNUE_INPUT_PLAIN, NNUE_L1, 8},
             {NNUE_INPUT_PALACE, 256, 5}};
enum { ARCH_NB = sizeof ARCHS / sizeof ARCHS[0] };

// A random net of architecture ARCHS[a] for the variant named variant.
static NnueNet *arch_net(const char *variant, int a) {
    return nnue_test_random_net_outs(variant, ARCHS[a].input_set, ARCHS[a].l1, ARCHS[a].outs,
                                     &rng_state);
}

// Random makes and unmakes over whole games; after each, the accumulator kept incrementally
// (one per ply, as the search will keep them) equals a refresh, on every path (updates and
// refreshes cycle through them), and the paths' evaluations agree. A general's move refreshes
// through the accumulator cache at two steps in three (kept over the games, as a search thread
// keeps it), from every piece at the third.
static void check_incremental(const Variant *v, int arch, int steps) {
    NnueNet *net = arch_net(v->name, arch);
    Board *b = malloc(sizeof *b);
    NnueAccumulator *acc = aligned_alloc(64, (MAX_GAME_PLY + 1) * sizeof *acc), fresh;
    NnueCache *cache = aligned_alloc(64, sizeof *cache);
    assert_non_null(b);
    assert_non_null(acc);
    assert_non_null(cache);
    // Stale entries of another net first: the first use with this net must empty them.
    NnueNet *other = arch_net(v->name, arch);
    nnue_cache_reset(cache, other);
    for (int k = 0; k < other->buckets; k++)
        for (Square sq = 0; sq < SQUARE_NB; sq += 7)
            cache->entry[CHO][k].squares[sq] = cache->entry[HAN][k].squares[sq] = 1;
    int captures = 0, passes = 0, unmakes = 0, general_moves = 0, out_seen = 0;
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
                general_moves += !move_is_pass(m) && piece_kind(b->squares[move_to(m)]) == GENERAL;
                nnue_update(net, &acc[n], &acc[n + 1], &d, step % 3 ? cache : NULL, path_at(step));
                n++;
            }
            nnue_refresh(net, b, &fresh, path_at(step + 1));
            assert_acc_equal(net, &acc[n], &fresh);
            assert_int_equal(nnue_output(net, &fresh, b->side, NNUE_PORTABLE),
                             nnue_output(net, &fresh, b->side, path_at(step + 2)));
            out_seen |= 1 << nnue_out_bucket(fresh.pieces, net->out_buckets);
        }
    }
    if (net->out_buckets > 1) // captures take the games through several output layers
        assert_true(__builtin_popcount((unsigned)out_seen) >= 3);
    assert_true(captures > 100);
    assert_true(unmakes > 100);
    assert_true(general_moves > 20); // each refreshes a palace net's perspective
    if (v->pass)
        assert_true(passes > 0);
    free(cache);
    free(acc);
    free(b);
    free(net);
    free(other); // kept till here: a net freed earlier could lend net its address
}

static void test_incremental_janggi(void **state) {
    (void)state;
    for (int a = 0; a < ARCH_NB; a++)
        check_incremental(&VARIANT_JANGGI, a, a == 0 ? 6000 : 3000);
}

static void test_incremental_xiangqi(void **state) {
    (void)state;
    for (int a = 0; a < ARCH_NB; a++)
        check_incremental(&VARIANT_XIANGQI, a, 2000);
}

// Random accumulators over the whole int16 range (clamping both ways) and random nets.
static void test_paths_equal(void **state) {
    (void)state;
    int checked = 0;
    for (NnuePath path = NNUE_AVX2; path < NNUE_PATH_NB; path++) {
        if (!nnue_path_available(path))
            continue;
        checked++;
        for (int t = 0; t < 30; t++) {
            int l1 = t % 4 < 2 ? NNUE_L1 : NNUE_L1_MAX; // the widest net's lane sums too
            int outs = t % 3 == 2 ? NNUE_OUT_BUCKETS_MAX : 1;
            NnueNet *net =
                nnue_test_random_net_outs("janggi", NNUE_INPUT_PLAIN, l1, outs, &rng_state);
            NnueAccumulator acc;
            for (int k = 0; k < 50; k++) {
                acc.pieces = rnd(2, 32);
                for (int s = 0; s < SIDE_NB; s++)
                    for (int i = 0; i < l1; i++)
                        acc.v[s][i] =
                            (int16_t)(k % 2 ? rnd(-32768, 32767) : rnd(-40, NNUE_QA + 40));
                for (Side stm = CHO; stm <= HAN; stm++)
                    assert_int_equal(nnue_output(net, &acc, stm, NNUE_PORTABLE),
                                     nnue_output(net, &acc, stm, path));
            }
            // Every activation at QA with every weight at the limit: the largest lane sums.
            for (int s = 0; s < SIDE_NB; s++)
                for (int i = 0; i < l1; i++)
                    acc.v[s][i] = NNUE_QA;
            for (int i = 0; i < outs * 2 * l1; i++)
                net->out_weight[i] = t % 2 ? NNUE_OUT_WEIGHT_MAX : -NNUE_OUT_WEIGHT_MAX;
            int64_t expect = (int64_t)2 * l1 * NNUE_QA * NNUE_QA * net->out_weight[0];
            int32_t bias = net->out_bias[nnue_out_bucket(acc.pieces, outs)];
            assert_int_equal(nnue_output(net, &acc, CHO, path) - bias, expect);
            assert_int_equal(nnue_output(net, &acc, CHO, NNUE_PORTABLE) - bias, expect);
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
    // Palace buckets: (rank, file - 3) from the own back rank, Han's point rotated.
    assert_int_equal(nnue_palace_bucket(CHO, square_make(3, 0)), 0);
    assert_int_equal(nnue_palace_bucket(CHO, square_make(4, 0)), 1);
    assert_int_equal(nnue_palace_bucket(CHO, square_make(4, 1)), 4);
    assert_int_equal(nnue_palace_bucket(CHO, square_make(5, 2)), 8);
    assert_int_equal(nnue_palace_bucket(HAN, square_make(5, 9)), 0);
    assert_int_equal(nnue_palace_bucket(HAN, square_make(4, 8)), 4);
    assert_int_equal(nnue_palace_bucket(HAN, square_make(3, 7)), 8);
    Board *b = malloc(sizeof *b), *twin = malloc(sizeof *twin);
    NnueAccumulator acc, acc_twin;
    for (int p = 0; p < 16 * ARCH_NB; p++) {
        NnueNet *net = arch_net("janggi", p % ARCH_NB);
        variant_setup_pairing(&VARIANT_JANGGI, b, p % 16);
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
        size_t bytes = sizeof(int16_t) * (size_t)net->l1;
        assert_memory_equal(acc.v[CHO], acc_twin.v[HAN], bytes);
        assert_memory_equal(acc.v[HAN], acc_twin.v[CHO], bytes);
        assert_int_equal(nnue_bucket(net, b, CHO), nnue_bucket(net, twin, HAN));
        assert_int_equal(nnue_evaluate(net, &acc, b->side, NNUE_PORTABLE),
                         nnue_evaluate(net, &acc_twin, twin->side, NNUE_PORTABLE));
        free(net);
    }
    free(twin);
    free(b);
}

// A palace net whose bucket k rows are a plain net's plus k: each perspective's accumulator is
// the plain one plus its bucket times the piece count, so the rows come from the bucket of the
// perspective's own general, wherever random play takes it.
static void test_palace_rows(void **state) {
    (void)state;
    NnueNet *plain = nnue_test_random_net("janggi", &rng_state);
    NnueNet *palace = nnue_test_random_net_arch("janggi", NNUE_INPUT_PALACE, NNUE_L1, &rng_state);
    memcpy(palace->ft_bias, plain->ft_bias, sizeof plain->ft_bias);
    for (int k = 0; k < NNUE_PALACE_BUCKETS; k++)
        for (int f = 0; f < NNUE_INPUTS; f++)
            for (int i = 0; i < NNUE_L1; i++)
                nnue_weight_row(palace, k * NNUE_INPUTS + f)[i] =
                    (int16_t)(nnue_weight_row(plain, f)[i] + k);
    Board *b = malloc(sizeof *b);
    NnueAccumulator acc_plain, acc_palace;
    int seen[SIDE_NB][NNUE_PALACE_BUCKETS] = {{0}};
    for (int game = 0; game < 40; game++) {
        variant_setup_pairing(&VARIANT_JANGGI, b, game % 16);
        for (int k = 0; k < 60; k++) {
            GameResult gr;
            MoveList l;
            if (rules_game_over(b, &gr))
                break;
            movegen_legal(b, &l);
            board_make(b, l.moves[rnd(0, l.count - 1)]);
            nnue_refresh(plain, b, &acc_plain, NNUE_PORTABLE);
            nnue_refresh(palace, b, &acc_palace, path_at(k));
            int pieces = 0;
            for (Square sq = 0; sq < SQUARE_NB; sq++)
                pieces += b->squares[sq] != EMPTY;
            for (Side p = CHO; p <= HAN; p++) {
                int bucket = nnue_palace_bucket(p, b->general[p]);
                assert_int_equal(nnue_bucket(palace, b, p), bucket);
                assert_int_equal(nnue_bucket(plain, b, p), 0);
                seen[p][bucket]++;
                for (int i = 0; i < NNUE_L1; i += 37)
                    assert_int_equal(acc_palace.v[p][i],
                                     (int16_t)(acc_plain.v[p][i] + bucket * pieces));
            }
        }
    }
    for (Side p = CHO; p <= HAN; p++) {
        int buckets = 0;
        for (int k = 0; k < NNUE_PALACE_BUCKETS; k++)
            buckets += seen[p][k] > 0;
        assert_true(buckets >= 5);
    }
    free(b);
    free(palace);
    free(plain);
}

// Output buckets: 8 take 4 piece counts each ((pieces - 1) / 4, Stockfish's layer stacks), any
// count from 2 to 8 splits 1..32 pieces into contiguous runs that cover every bucket; and a net
// of 8 output layers evaluates a position exactly as the one-layer net made of the layer its
// pieces choose, on every path.
static void test_out_buckets(void **state) {
    (void)state;
    for (int p = 1; p <= NNUE_PIECES_MAX; p++)
        assert_int_equal(nnue_out_bucket(p, 8), (p - 1) / 4);
    assert_int_equal(nnue_out_bucket(0, 8), 0);
    assert_int_equal(nnue_out_bucket(40, 8), 7);
    for (int n = 1; n <= NNUE_OUT_BUCKETS_MAX; n++) {
        int prev = 0;
        for (int p = 1; p <= NNUE_PIECES_MAX; p++) {
            int k = nnue_out_bucket(p, n);
            assert_true(k == prev || k == prev + 1);
            prev = k;
        }
        assert_int_equal(nnue_out_bucket(1, n), 0);
        assert_int_equal(prev, n - 1);
    }
    NnueNet *net = nnue_test_random_net_outs("janggi", NNUE_INPUT_PLAIN, NNUE_L1, 8, &rng_state);
    NnueNet *one = nnue_test_random_net("janggi", &rng_state);
    memcpy(one->ft_bias, net->ft_bias, sizeof net->ft_bias);
    memcpy(one->ft_weight, net->ft_weight, sizeof(int16_t) * NNUE_INPUTS * NNUE_L1);
    Board *b = malloc(sizeof *b), *start = malloc(sizeof *start);
    NnueAccumulator acc, acc_one;
    int seen = 0;
    for (int t = 0; t < 400; t++) {
        // The start with a random share of its pieces taken off (the generals kept).
        variant_setup_pairing(&VARIANT_JANGGI, start, t % 16);
        board_clear_variant(b, &VARIANT_JANGGI);
        int keep = rnd(0, 100), pieces = 0;
        for (Square sq = 0; sq < SQUARE_NB; sq++) {
            Piece pc = start->squares[sq];
            if (pc != EMPTY && (piece_kind(pc) == GENERAL || rnd(0, 99) < keep))
                board_put(b, pc, sq), pieces++;
        }
        board_finish_setup(b, (Side)(t % 2), 0, 0);
        nnue_refresh(net, b, &acc, path_at(t));
        nnue_refresh(one, b, &acc_one, NNUE_PORTABLE);
        assert_int_equal(acc.pieces, pieces);
        const int k = (pieces - 1) / 4;
        seen |= 1 << k;
        memcpy(one->out_weight, net->out_weight + k * 2 * NNUE_L1, sizeof(int16_t) * 2 * NNUE_L1);
        one->out_bias[0] = net->out_bias[k];
        for (int q = 0; q < 3; q++)
            assert_int_equal(nnue_output(net, &acc, b->side, path_at(t + q)),
                             nnue_output(one, &acc_one, b->side, NNUE_PORTABLE));
    }
    assert_int_equal(seen, 0xFF); // every output layer
    free(start);
    free(b);
    free(one);
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
    for (int a = 0; a < ARCH_NB; a++) {
        NnueNet *net = arch_net("janggi", a);
        NnueNet *back = nnue_net_alloc();
        ErrorInfo err;
        assert_int_equal(nnue_save(net, tmp_path, &err), STATUS_OK);
        assert_int_equal(nnue_load(tmp_path, NULL, back, &err), STATUS_OK);
        assert_string_equal(back->variant, "janggi");
        assert_string_equal(back->provenance, net->provenance);
        assert_int_equal(back->scale, net->scale);
        assert_int_equal(back->input_set, net->input_set);
        assert_int_equal(back->buckets, net->buckets);
        assert_int_equal(back->l1, net->l1);
        assert_int_equal(back->out_buckets, ARCHS[a].outs);
        size_t row = sizeof(int16_t) * (size_t)net->l1;
        assert_memory_equal(back->ft_bias, net->ft_bias, row);
        for (int f = 0; f < net->buckets * NNUE_INPUTS; f++)
            assert_memory_equal(nnue_weight_row(back, f), nnue_weight_row(net, f), row);
        assert_memory_equal(back->out_weight, net->out_weight, (size_t)ARCHS[a].outs * 2 * row);
        assert_memory_equal(back->out_bias, net->out_bias, sizeof(int32_t) * ARCHS[a].outs);
        free(back);
        free(net);
    }
    // The CRC is zlib's CRC-32: the check value of "123456789".
    assert_int_equal(nnue_crc32((const uint8_t *)"123456789", 9), 0xCBF43926u);
}

// Every shipped net of format version 1 (data/nets) loads as a plain L1-256 net and is written
// again byte for byte (so the SHA-256 that runs record of a net stays what it was); a plain net of
// another L1 is written as version 2.
static void test_file_version1(void **state) {
    (void)state;
    static const char *const NETS[] = {"janggi-r1", "janggi-r2",  "janggi-r3",
                                       "janggi-r4", "xiangqi-r1", "xiangqi-r2"};
    for (size_t n = 0; n < sizeof NETS / sizeof NETS[0]; n++) {
        char path[512];
        snprintf(path, sizeof path, "%s/data/nets/%s.nnue", HANSU_SOURCE_DIR, NETS[n]);
        const Variant *v = NETS[n][0] == 'j' ? &VARIANT_JANGGI : &VARIANT_XIANGQI;
        NnueNet *net = nnue_net_alloc();
        ErrorInfo err;
        size_t len, len2;
        uint8_t *bytes = read_all(path, &len);
        assert_int_equal(bytes[8], 1); // format version 1
        assert_int_equal(nnue_load(path, v, net, &err), STATUS_OK);
        assert_int_equal(net->input_set, NNUE_INPUT_PLAIN);
        assert_int_equal(net->buckets, 1);
        assert_int_equal(net->l1, NNUE_L1);
        assert_int_equal(net->out_buckets, 1);
        uint8_t *again = nnue_serialise(net, &len2);
        assert_int_equal(len2, len);
        assert_memory_equal(again, bytes, len);
        free(again);
        free(bytes);
        free(net);
    }
    NnueNet *wide = nnue_test_random_net_arch("janggi", NNUE_INPUT_PLAIN, NNUE_L1_MAX, &rng_state);
    size_t len;
    uint8_t *bytes = nnue_serialise(wide, &len);
    assert_int_equal(bytes[8], 2);
    free(bytes);
    free(wide);
}

static void test_file_refusals(void **state) {
    (void)state;
    // A palace net: written as format version 2, whose header names the architecture.
    NnueNet *net = nnue_test_random_net_arch("janggi", NNUE_INPUT_PALACE, NNUE_L1, &rng_state);
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
    size_t flips[] = {74, 76 + len / 3, len - 10, len - 1};
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
    static const struct {
        size_t offset;
        const char *field;
    } fields[] = {{28, "input set"},
                  {32, "inputs"},
                  {36, "input buckets"},
                  {40, "L1"},
                  {44, "output buckets"},
                  {48, "output bucket kind"},
                  {52, "activation"},
                  {56, "QA"},
                  {60, "QB"}};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        good[fields[i].offset] ^= 2;
        write_all(path, good, len);
        expect_refused(path, fields[i].field);
        good[fields[i].offset] ^= 2;
    }
    good[40] ^= 0x60; // L1 256 -> 352: a multiple of 32, the length no longer fits
    write_all(path, good, len);
    expect_refused(path, "truncated");
    good[40] ^= 0x60;
    good[28] ^= 3; // palace -> plain: 1 bucket expected, 9 said
    write_all(path, good, len);
    expect_refused(path, "input buckets is 9, this engine takes 1");
    good[28] ^= 3;
    // A version-1 file's header fields are named too (L1 at offset 36 there).
    char old[512];
    snprintf(old, sizeof old, "%s/data/nets/janggi-r1.nnue", HANSU_SOURCE_DIR);
    size_t old_len;
    uint8_t *v1 = read_all(old, &old_len);
    v1[36] ^= 1;
    write_all(path, v1, old_len);
    expect_refused(path, "L1 is 257, this engine takes 256");
    free(v1);
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

// A net of output buckets is written as version 2 (even plain L1 256), its header's output
// bucket fields checked by name: kind 1 (pieces) takes 2..8 layers, kind 0 (none) exactly 1,
// no other kind; a file of another count is refused before its body is read.
static void test_file_out_buckets(void **state) {
    (void)state;
    NnueNet *net = nnue_test_random_net_outs("janggi", NNUE_INPUT_PLAIN, NNUE_L1, 8, &rng_state);
    ErrorInfo err;
    assert_int_equal(nnue_save(net, tmp_path, &err), STATUS_OK);
    size_t len;
    uint8_t *good = read_all(tmp_path, &len);
    assert_int_equal(good[8], 2);
    assert_int_equal(good[44], 8); // output buckets
    assert_int_equal(good[48], NNUE_OUTPUT_MATERIAL);
    NnueNet *back = nnue_net_alloc();
    assert_int_equal(nnue_load(tmp_path, NULL, back, &err), STATUS_OK);
    assert_int_equal(back->out_buckets, 8);
    char path[300];
    snprintf(path, sizeof path, "%s.bad", tmp_path);
    static const struct {
        uint32_t out_buckets, kind;
        const char *why;
    } bad[] = {
        {9, 1, "output buckets is 9, this engine takes 2 to 8"},
        {1, 1, "output buckets is 1, this engine takes 2 to 8"},
        {0, 1, "output buckets is 0, this engine takes 2 to 8"},
        {0xFFFFFFFFu, 1, "output buckets is 4294967295, this engine takes 2 to 8"},
        {8, 0, "output buckets is 8 with output bucket kind 0 (none), which takes 1"},
        {8, 2, "output bucket kind is 2, this engine takes 0 (none) or 1"},
        {1, 7, "output bucket kind is 7"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint8_t *copy = malloc(len);
        memcpy(copy, good, len);
        for (int k = 0; k < 4; k++)
            copy[44 + k] = (uint8_t)(bad[i].out_buckets >> (8 * k)),
                      copy[48 + k] = (uint8_t)(bad[i].kind >> (8 * k));
        uint32_t crc = nnue_crc32(copy, len - 4); // a checksum that holds: the field refuses
        for (int k = 0; k < 4; k++)
            copy[len - 4 + k] = (uint8_t)(crc >> (8 * k));
        write_all(path, copy, len);
        expect_refused(path, bad[i].why);
        free(copy);
    }
    // Fewer layers than the body holds, the header consistent: the length no longer fits.
    good[44] = 4;
    write_all(path, good, len);
    expect_refused(path, "trailing bytes");
    remove(path);
    free(good);
    free(back);
    free(net);
}

int main(void) {
    engine_init();
    snprintf(tmp_path, sizeof tmp_path, "%s/test_nnue.%d.nnue", HANSU_BINARY_DIR, (int)getpid());
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_feature_rotation),   cmocka_unit_test(test_paths_equal),
        cmocka_unit_test(test_incremental_janggi), cmocka_unit_test(test_incremental_xiangqi),
        cmocka_unit_test(test_palace_rows),        cmocka_unit_test(test_file_roundtrip),
        cmocka_unit_test(test_file_version1),      cmocka_unit_test(test_file_refusals),
        cmocka_unit_test(test_out_buckets),        cmocka_unit_test(test_file_out_buckets),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    remove(tmp_path);
    return rc;
}
