// SPDX-License-Identifier: MIT
// Packed board codec: round trip along random games of all 16 pairings, the canonical order,
// legality of decoded positions, and refusal of malformed packed boards.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "board.h"
#include "engine.h"
#include "fen.h"
#include "janggi/formation.h"
#include "packed_board.h"
#include "selfplay_util.h"
#include "shard_data.h"

// Every position of 64 random games decodes to the same pieces, side and ply, and to a
// position that fen_parse accepts; re-encoding the decoded board gives the same bytes.
static void test_round_trip(void **state) {
    (void)state;
    ShardData d;
    shard_data_init(&d);
    sp_random_games(&d, 0, 64, 7);
    Board *b = malloc(sizeof *b), *check = malloc(sizeof *check);
    char fen[FEN_BUFFER];
    ErrorInfo err;
    for (size_t p = 0; p < d.positions.count; p++) {
        const PackedBoard *pb = (const PackedBoard *)(d.positions.board + p * PACKED_BOARD_BYTES);
        assert_int_equal(
            packed_board_decode(pb, (Side)d.positions.stm[p], d.positions.ply[p], b, &err),
            STATUS_OK);
        assert_true(board_is_consistent(b, NULL, 0));
        PackedBoard again;
        packed_board_encode(b, &again);
        assert_memory_equal(again.sq, pb->sq, PACKED_BOARD_BYTES);
        fen_write(b, fen, sizeof fen);
        assert_int_equal(fen_parse(check, fen, &err), STATUS_OK);
        assert_int_equal(board_game_ply(check), d.positions.ply[p]);
    }
    free(b);
    free(check);
    shard_data_free(&d);
}

// The start position of each pairing: full slots, kinds in slot order, sorted within a kind.
static void test_start_positions(void **state) {
    (void)state;
    Board *b = malloc(sizeof *b);
    for (int pairing = 0; pairing < PAIRING_NB; pairing++) {
        formation_setup(b, pairing_cho(pairing), pairing_han(pairing));
        PackedBoard pb;
        packed_board_encode(b, &pb);
        for (int i = 0; i < PACKED_BOARD_BYTES; i++) {
            assert_true(pb.sq[i] < SQUARE_NB);
            Piece pc = board_at(b, pb.sq[i]);
            assert_int_equal(piece_kind(pc), packed_slot_kind(i % PACKED_SIDE_SLOTS));
            assert_int_equal(piece_side(pc), i / PACKED_SIDE_SLOTS);
            if (i % PACKED_SIDE_SLOTS && packed_slot_kind(i % 16) == packed_slot_kind(i % 16 - 1))
                assert_true(square_file(pb.sq[i - 1]) * 10 + square_rank(pb.sq[i - 1]) <
                            square_file(pb.sq[i]) * 10 + square_rank(pb.sq[i]));
        }
    }
    // The standard start, as the data-format page shows it.
    formation_setup(b, MA_SANG_SANG_MA, MA_SANG_SANG_MA);
    PackedBoard pb;
    packed_board_encode(b, &pb);
    static const uint8_t expect_cho[16] = {13, 3, 5, 0, 8, 19, 25, 1, 7, 2, 6, 27, 29, 31, 33, 35};
    assert_memory_equal(pb.sq, expect_cho, 16);
    free(b);
}

// Captured pieces go last within their kind as PACKED_NONE.
static void test_captured_last(void **state) {
    (void)state;
    Board *b = malloc(sizeof *b);
    ErrorInfo err;
    assert_int_equal(fen_parse(b, "4k4/9/9/9/9/9/4P4/9/4K4/R8 w - - 0 30", &err), STATUS_OK);
    PackedBoard pb;
    packed_board_encode(b, &pb);
    assert_int_equal(pb.sq[3], 0);           // the chariot on a1
    assert_int_equal(pb.sq[4], PACKED_NONE); // the other was captured
    assert_int_equal(pb.sq[11], square_make(4, 3));
    for (int i = 12; i < 16; i++)
        assert_int_equal(pb.sq[i], PACKED_NONE);
    free(b);
}

static void test_malformed(void **state) {
    (void)state;
    Board *b = malloc(sizeof *b);
    formation_setup(b, MA_SANG_SANG_MA, SANG_MA_MA_SANG);
    PackedBoard good, bad;
    ErrorInfo err;
    packed_board_encode(b, &good);
    bad = good;
    bad.sq[5] = 90; // not a square
    assert_int_equal(packed_board_decode(&bad, CHO, 0, b, &err), STATUS_FORMAT);
    assert_non_null(strstr(err.msg, "not a square"));
    bad = good;
    bad.sq[20] = bad.sq[3]; // two pieces on one square
    assert_int_equal(packed_board_decode(&bad, CHO, 0, b, &err), STATUS_FORMAT);
    assert_non_null(strstr(err.msg, "two pieces"));
    bad = good;
    bad.sq[16] = PACKED_NONE; // Han without a general
    assert_int_equal(packed_board_decode(&bad, CHO, 0, b, &err), STATUS_FORMAT);
    assert_non_null(strstr(err.msg, "general"));
    free(b);
}

// Stored scores: cp clamped, mates marked with the distance kept.
static void test_stored_score(void **state) {
    (void)state;
    const int mate = 31000, mate_in_max = 31000 - 256;
    assert_int_equal(stored_score(123, mate, mate_in_max), 123);
    assert_int_equal(stored_score(-30500, mate, mate_in_max), -STORED_CP_MAX);
    assert_int_equal(stored_score(mate - 5, mate, mate_in_max), STORED_MATE - 5);
    assert_int_equal(stored_score(-(mate - 4), mate, mate_in_max), -(STORED_MATE - 4));
    assert_true(stored_score(mate_in_max, mate, mate_in_max) >= STORED_MATE_MIN);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),    cmocka_unit_test(test_start_positions),
        cmocka_unit_test(test_captured_last), cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_stored_score),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
