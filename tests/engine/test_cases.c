// SPDX-License-Identifier: MIT
// The cases of tests/oracle/cases_janggi.md (positions from public reports about other
// janggi programs), each with the value the rules page requires. FENs, moves and expected
// values are copied from that file: it is the specification.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "board.h"
#include "engine.h"
#include "fen.h"
#include "movegen.h"
#include "notation.h"
#include "oracle_util.h"
#include "perft.h"
#include "rules.h"
#include "rules_expect.h"

static Board board;

static int legal_count(Board *b) {
    MoveList list;
    movegen_legal(b, &list);
    return list.count;
}

static void test_c01_pass_in_check(void **state) {
    (void)state;
    test_load_fen(&board, "2R1acb2/4ak3/4B1n2/n3p4/7p1/3P5/1PP4P1/2N1CK1C1/5A2r/5A3 w - - 1 25");
    assert_true(board_in_check(&board));
    expect_move_refused(&board, "f3f3", STATUS_ILLEGAL);
    expect_move_refused(&board, "0000", STATUS_ILLEGAL);
    expect_legal_moves(&board, "f3e2");
}

static const char *const C02 =
    "rn1a1a1br/4k4/c4n3/bpp2pC1p/1c7/9/1PP1P1PP1/1CN6/4K4/1RBA1ANBR w - - 0 1";

static void test_c02_bikjang_replies(void **state) {
    (void)state;
    test_load_fen(&board, C02);
    test_play(&board, "e4d4");
    assert_true(board_generals_facing(&board));
    assert_int_equal(legal_count(&board), 41);
    expect_going(&board);
    test_play(&board, "e9e9");
    expect_over(&board, REASON_BIKJANG, CHO, 144, 143);
    board_unmake(&board);
    test_play(&board, "f7g7");
    expect_over(&board, REASON_BIKJANG, HAN, 130, 143);
    board_unmake(&board);
    test_play(&board, "f7e7");
    expect_going(&board);
}

static void test_c03_no_bikjang_without_capture(void **state) {
    (void)state;
    test_load_fen(&board, FEN_START);
    test_play(&board, "e4d4 e7d7");
    assert_true(board_generals_facing(&board));
    expect_going(&board);
    assert_int_equal(legal_count(&board), 32);
    test_play(&board, "e2e2");
    expect_going(&board);
}

static void test_c04_double_pass(void **state) {
    (void)state;
    test_load_fen(&board, FEN_START);
    test_play(&board, "e2e2 e9e9");
    expect_over(&board, REASON_DOUBLE_PASS, HAN, 144, 147);
}

static void test_c06_cannon_takes_no_cannon(void **state) {
    (void)state;
    test_load_fen(&board, "2bca3r/4k4/2n1cC3/1pp2R3/8p/9/1PPPN1P2/4C4/4A2r1/2BAK3R b - - 0 23");
    assert_int_equal(legal_count(&board), 45);
    expect_move_refused(&board, "d10f8", STATUS_ILLEGAL);
}

static void test_c07_palace_diagonal_check(void **state) {
    (void)state;
    static const char *const fen =
        "1n1kaabn1/cr2N4/5C1c1/p1pNp3p/9/9/P1PbP1P1P/3r1p3/4A4/R1BA1KB1R b - - 0 1";
    test_load_fen(&board, fen);
    assert_true(board_in_check(&board));
    expect_legal_moves(&board, "d10d9 a9e9");
    static const uint64_t want[] = {2, 61, 2644, 76763};
    for (int d = 1; d <= 4; d++)
        assert_int_equal(perft(&board, d), want[d - 1]);
}

static void test_c08_elephant_check_and_pin(void **state) {
    (void)state;
    test_load_fen(&board, "1C3a3/2R6/1r1k5/9/8r/5B3/1P7/6N2/4A4/4KA3 b - - 7 61");
    assert_true(board_in_check(&board));
    expect_legal_moves(&board, "d8e8 i6f6");
    test_play(&board, "i6f6 b4b5");
    assert_int_equal(legal_count(&board), 13);
    MoveList list;
    movegen_legal(&board, &list);
    Square f6 = square_make(5, 5);
    int from_f6 = 0;
    for (int i = 0; i < list.count; i++)
        if (move_from(list.moves[i]) == f6) {
            from_f6++;
            assert_int_equal(list.moves[i], move_make(f6, square_make(5, 4)));
        }
    assert_int_equal(from_f6, 1);
}

static void expect_fen_refused(const char *fen, const char *what) {
    static Board keep;
    test_load_fen(&keep, FEN_START);
    Board before = keep;
    ErrorInfo err;
    memset(&err, 0, sizeof err);
    Status st = fen_parse(&keep, fen, &err);
    assert_int_not_equal(st, STATUS_OK);
    assert_true(err.msg[0] != '\0');
    if (what && !strstr(err.msg, what))
        fail_msg("FEN '%s': message '%s' does not mention '%s'", fen, err.msg, what);
    assert_true(test_boards_equal(&before, &keep, NULL, 0));
}

// C05: no piece can move and Han is not in check, so the pass is the only move (no stalemate).
// An earlier version of the case gave Cho three chariots (i9, d7, f7); that FEN stays refused
// by the rules page's list of illegal positions ("more pieces of a kind than the set has").
static void test_c05_only_pass(void **state) {
    (void)state;
    expect_fen_refused("4k4/c7R/9/3R1R3/9/9/9/9/9/3K5 b - - 0 1", "chariots");
    test_load_fen(&board, "4k4/c8/6N2/3R1R3/9/9/9/9/9/3K5 b - - 0 1");
    assert_false(board_in_check(&board));
    expect_legal_moves(&board, "e10e10");
    expect_going(&board);
    test_play(&board, "e10e10");
    expect_going(&board);
}

static void test_c09_side_not_to_move_in_check(void **state) {
    (void)state;
    expect_fen_refused("5k3/4a4/3CN4/9/1PP5p/9/8P/4C4/4A4/2B1K4 w - - 0 46", "in check");
}

static void test_c10_nine_ranks(void **state) {
    (void)state;
    expect_fen_refused("9/4k4/9/9/9/9/9/4K4/9 w - - 0 1", "ranks");
}

static void test_c11_repetition(void **state) {
    (void)state;
    test_load_fen(&board, "9/c1P6/3k5/7c1/9/9/9/9/4K4/4C1B2 w - - 0 1");
    test_play(&board, "e2e3 d8d8 e3e2 d8d8 e2e3 d8d8 e3e2");
    expect_going(&board);
    test_play(&board, "d8d8");
    expect_over(&board, REASON_REPETITION, HAN, 24, 31);
}

static void test_c12_perpetual_check(void **state) {
    (void)state;
    test_load_fen(&board, "9/3c1k3/3a1aN2/9/9/4R4/3r5/9/4CA3/3AK4 w - - 0 1");
    const char *moves[] = {"g8h10", "f9f10", "h10g8", "f10f9", "g8h10", "f9f10", "h10g8", "f10f9"};
    for (int i = 0; i < 8; i++) {
        if (i)
            expect_going(&board);
        test_play(&board, moves[i]);
        if (i % 2 == 0)
            assert_true(board_in_check(&board)); // every Cho move gives check
    }
    expect_over(&board, REASON_PERPETUAL_CHECK, HAN, -1, -1);
}

static void test_c13_cannon_check_evasions(void **state) {
    (void)state;
    test_load_fen(&board, "4k4/9/9/4c4/9/R8/2P6/4A4/4K4/9 w - - 0 1");
    assert_true(board_in_check(&board));
    expect_legal_moves(&board, "e2d1 e2f1 e2d2 e2f2 e2d3 e2f3 e3d3 e3f3 a5e5");
    expect_move_refused(&board, "e2e1", STATUS_ILLEGAL);
    expect_move_refused(&board, "e2e2", STATUS_ILLEGAL);
}

static void test_c14_pass_forms(void **state) {
    (void)state;
    test_load_fen(&board, FEN_START);
    const char *forms[] = {"e2e2", "0000", "@@@@"};
    Move pass = move_make(square_make(4, 1), square_make(4, 1));
    for (int i = 0; i < 3; i++) {
        Move m = MOVE_NONE;
        ErrorInfo err;
        assert_int_equal(move_parse_uci(&board, forms[i], &m, &err), STATUS_OK);
        assert_int_equal(m, pass);
    }
    const char *bad[] = {"pass", "e2e4x"};
    for (int i = 0; i < 2; i++) {
        ErrorInfo err;
        memset(&err, 0, sizeof err);
        expect_move_refused(&board, bad[i], STATUS_SYNTAX);
        Move m;
        move_parse_uci(&board, bad[i], &m, &err);
        if (!strstr(err.msg, bad[i]))
            fail_msg("message '%s' does not name '%s'", err.msg, bad[i]);
    }
}

static void test_c15_move_limit(void **state) {
    (void)state;
    test_load_fen(&board,
                  "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR b - - 0 100");
    assert_int_equal(board_game_ply(&board), 199);
    expect_going(&board);
    test_play(&board, "e9e9");
    expect_over(&board, REASON_MOVE_LIMIT, HAN, 144, 147);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_c01_pass_in_check),
        cmocka_unit_test(test_c02_bikjang_replies),
        cmocka_unit_test(test_c03_no_bikjang_without_capture),
        cmocka_unit_test(test_c04_double_pass),
        cmocka_unit_test(test_c05_only_pass),
        cmocka_unit_test(test_c06_cannon_takes_no_cannon),
        cmocka_unit_test(test_c07_palace_diagonal_check),
        cmocka_unit_test(test_c08_elephant_check_and_pin),
        cmocka_unit_test(test_c09_side_not_to_move_in_check),
        cmocka_unit_test(test_c10_nine_ranks),
        cmocka_unit_test(test_c11_repetition),
        cmocka_unit_test(test_c12_perpetual_check),
        cmocka_unit_test(test_c13_cannon_check_evasions),
        cmocka_unit_test(test_c14_pass_forms),
        cmocka_unit_test(test_c15_move_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
