// SPDX-License-Identifier: MIT
// End-of-game rules of the rules page, each with positions that hit it and positions that
// just miss it: bikjang, repetition and perpetual check, two passes, the 200-ply limit,
// points with Han's 1.5, the pass refused in check, and checkmate before everything else.
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
#include "rules.h"
#include "rules_expect.h"

static Board board; // a Board is large: keep it off the stack

// Points in half points at the start: Cho 72, Han 73.5.
enum { START_CHO = 144, START_HAN = 147 };

static void test_points(void **state) {
    (void)state;
    test_load_fen(&board, FEN_START);
    assert_int_equal(rules_points_half(&board, CHO), START_CHO);
    assert_int_equal(rules_points_half(&board, HAN), START_HAN);
    assert_int_equal(rules_points_leader(&board), HAN);
    // Each kind's value: one piece of each kind and the generals.
    test_load_fen(&board, "4k4/9/9/9/9/9/RBNCP4/9/4K4/3A5 w - - 0 1");
    assert_int_equal(rules_points_half(&board, CHO), 2 * (2 + 3 + 5 + 7 + 13 + 3));
    assert_int_equal(rules_points_half(&board, HAN), HAN_BONUS_HALF);
    assert_int_equal(rules_points_leader(&board), CHO);
    // Bare generals: Han wins on its bonus alone.
    test_load_fen(&board, "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1");
    assert_int_equal(rules_points_half(&board, CHO), 0);
    assert_int_equal(rules_points_half(&board, HAN), 3);
    assert_int_equal(rules_points_leader(&board), HAN);
    // 1.5 decides a tie of material: Cho soldier against Han soldier.
    test_load_fen(&board, "4k4/9/9/4p4/9/9/4P4/9/4K4/9 w - - 0 1");
    assert_int_equal(rules_points_leader(&board), HAN);
    // Cho one soldier ahead (2 > 1.5).
    test_load_fen(&board, "4k4/9/9/9/9/9/4P4/9/4K4/9 w - - 0 1");
    assert_int_equal(rules_points_leader(&board), CHO);
}

static void test_reason_names(void **state) {
    (void)state;
    static const char *const names[] = {"checkmate",       "bikjang",     "repetition",
                                        "perpetual-check", "double-pass", "move-limit"};
    for (int i = 0; i < 6; i++) {
        EndReason r = (EndReason)(REASON_CHECKMATE + i);
        assert_string_equal(rules_reason_name(r), names[i]);
        assert_int_equal(rules_reason_parse(names[i]), r);
    }
    // Xiangqi's stalemate is appended after the tools' reasons: janggi's codes keep their numbers.
    assert_int_equal(rules_reason_parse("stalemate"), REASON_STALEMATE);
    assert_int_equal(REASON_STALEMATE, REASON_CRASH + 1);
    assert_int_equal(rules_reason_parse("stale-mate"), REASON_NONE);
}

static void test_start_goes_on(void **state) {
    (void)state;
    test_load_fen(&board, FEN_START);
    expect_going(&board);
    test_play(&board, "e2e2");
    expect_going(&board);
}

// No capture yet: generals facing is no bikjang, whoever passes afterwards.
static void test_bikjang_before_capture(void **state) {
    (void)state;
    test_load_fen(&board, FEN_START);
    test_play(&board, "e4d4 e7d7");
    assert_true(board_generals_facing(&board));
    expect_going(&board);
    test_play(&board, "e2e2");
    expect_going(&board);
    assert_false(rules_bikjang_ends(&board));
    test_play(&board, "d7d6");
    expect_going(&board);
    // The same generals facing ended by two passes is a double pass, not a bikjang.
    test_load_fen(&board, FEN_START);
    test_play(&board, "e4d4 e7d7 e2e2 e9e9");
    expect_over(&board, REASON_DOUBLE_PASS, HAN, START_CHO, START_HAN);
}

// Han's soldier opens the e-file by taking Cho's soldier on d7: bikjang created by a capture.
static const char *const CAPTURE_OPENS = "e4d4 e9e9 d4d5 e9e9 d5d6 e9e9 d6d7 e7d7";

static void test_bikjang_created_by_capture(void **state) {
    (void)state;
    test_load_fen(&board, FEN_START);
    test_play(&board, CAPTURE_OPENS);
    assert_true(board_generals_facing(&board));
    expect_going(&board); // created, not yet ended: Cho may answer
    // Left standing by a pass: ends by points, Cho 70 : Han 73.5.
    test_play(&board, "e2e2");
    expect_over(&board, REASON_BIKJANG, HAN, START_CHO - 4, START_HAN);
    board_unmake(&board);
    // Left standing by a move elsewhere.
    test_play(&board, "a4a5");
    expect_over(&board, REASON_BIKJANG, HAN, START_CHO - 4, START_HAN);
    board_unmake(&board);
    // Undone by the general stepping aside, or by a piece stepping in.
    test_play(&board, "e2d2");
    expect_going(&board);
    board_unmake(&board);
    test_play(&board, "e2e3");
    assert_true(board_generals_facing(&board));
    expect_over(&board, REASON_BIKJANG, HAN, -1, -1);
    board_unmake(&board);
    test_play(&board, "f1e1"); // behind the general: still facing
    expect_over(&board, REASON_BIKJANG, HAN, -1, -1);
    board_unmake(&board);
    test_play(&board, "c4c5 "); // Cho's other soldier: the file stays open
    expect_over(&board, REASON_BIKJANG, HAN, -1, -1);
}

static void test_bikjang_oracle_positions(void **state) {
    (void)state;
    // Captures made; the generals already face in the loaded position (C02 after e4d4): the
    // bikjang counts as created by the side that just moved.
    static const char *const c02 =
        "rn1a1a1br/4k4/c4n3/bpp2pC1p/1c7/9/1PP1P1PP1/1CN6/4K4/1RBA1ANBR w - - 0 1";
    test_load_fen(&board, c02);
    test_play(&board, "e4d4");
    expect_going(&board);
    char fen[FEN_BUFFER];
    fen_write(&board, fen, sizeof fen);
    test_load_fen(&board, fen); // the same position loaded from FEN
    assert_true(board_generals_facing(&board));
    expect_going(&board);
    test_play(&board, "e9e9");
    expect_over(&board, REASON_BIKJANG, CHO, 144, 143);
    test_load_fen(&board, fen);
    test_play(&board, "f7e7");
    expect_going(&board);
    // Generals facing in a loaded position with all 32 pieces is no bikjang.
    test_load_fen(&board, FEN_START);
    test_play(&board, "e4d4 e7d7");
    fen_write(&board, fen, sizeof fen);
    test_load_fen(&board, fen);
    test_play(&board, "e2e2");
    expect_going(&board);
}

static void test_pass_refused_in_check(void **state) {
    (void)state;
    // Han's chariot on e5 checks Cho's general on e2 down the e-file.
    test_load_fen(&board, "3k5/9/9/9/9/4r4/9/9/4K4/9 w - - 0 1");
    assert_true(board_in_check(&board));
    expect_move_refused(&board, "e2e2", STATUS_ILLEGAL);
    expect_move_refused(&board, "0000", STATUS_ILLEGAL);
    expect_move_refused(&board, "@@@@", STATUS_ILLEGAL);
    MoveList list;
    movegen_legal(&board, &list);
    for (int i = 0; i < list.count; i++)
        assert_false(move_is_pass(list.moves[i]));
    assert_false(movegen_is_legal(&board, move_make(board.general[CHO], board.general[CHO])));
    // Just out of check (the chariot one file over): the pass is there.
    test_load_fen(&board, "3k5/9/9/9/9/5r3/9/9/4K4/9 w - - 0 1");
    assert_false(board_in_check(&board));
    test_play(&board, "e2e2");
}

// Cho's general walks, Han only passes: the start comes back for the third time on ply 8.
static const char *const C11 = "9/c1P6/3k5/7c1/9/9/9/9/4K4/4C1B2 w - - 0 1";

static void test_repetition(void **state) {
    (void)state;
    test_load_fen(&board, C11);
    test_play(&board, "e2e3 d8d8 e3e2 d8d8 e2e3 d8d8 e3e2");
    int loser = 99;
    assert_false(rules_repetition(&board, &loser));
    expect_going(&board); // ply 7: the position after e2e3 has come twice only
    test_play(&board, "d8d8");
    assert_true(rules_repetition(&board, &loser));
    assert_int_equal(loser, -1);
    expect_over(&board, REASON_REPETITION, HAN, 24, 31);
    // Han's last pass swapped for a general step: the third time never comes.
    test_load_fen(&board, C11);
    test_play(&board, "e2e3 d8d8 e3e2 d8d8 e2e3 d8d8 e3e2 a9f9");
    expect_going(&board);
    // The same pieces with the other side to move are another position: Cho's general
    // walks e2-e3-e2 twice while Han passes, then Cho passes; the start position with Han to
    // move has come once only.
    test_load_fen(&board, C11);
    test_play(&board, "e2e3 d8d8 e3e2 d8d8 e2e3 d8d8 e3e2 a9f9 e2e2");
    expect_going(&board);
}

// C12: Cho gives check with every move of the cycle.
static const char *const C12 = "9/3c1k3/3a1aN2/9/9/4R4/3r5/9/4CA3/3AK4 w - - 0 1";

static void test_perpetual_check(void **state) {
    (void)state;
    test_load_fen(&board, C12);
    test_play(&board, "g8h10 f9f10 h10g8 f10f9 g8h10 f9f10 h10g8");
    expect_going(&board);
    test_play(&board, "f10f9");
    int loser = 99;
    assert_true(rules_repetition(&board, &loser));
    assert_int_equal(loser, CHO);
    expect_over(&board, REASON_PERPETUAL_CHECK, HAN, -1, -1);
    // Just missed: one quiet Cho move inside the cycle makes it a repetition by points
    // (Cho 31 : Han 27.5).
    test_load_fen(&board, C12);
    test_play(&board, "g8h10 f9f10 h10g8 f10f9 e5e6 d8e8 e6e5");
    expect_going(&board);
    test_play(&board, "e8d8");
    assert_true(rules_repetition(&board, &loser));
    assert_int_equal(loser, -1);
    expect_over(&board, REASON_REPETITION, CHO, 62, 55);
}

// Both sides give check with every move: each general steps aside and uncovers a check
// (a chariot behind Cho's general, a cannon screened by Han's own general). By points.
static void test_both_sides_check(void **state) {
    (void)state;
    test_load_fen(&board, "3cc4/4k4/9/9/9/9/9/9/4K4/3RR4 w - - 0 1");
    assert_true(board_in_check(&board));
    for (int cycle = 0; cycle < 2; cycle++) {
        test_play(&board, "e2d2");
        assert_true(board_in_check(&board));
        test_play(&board, "e9d9");
        assert_true(board_in_check(&board));
        test_play(&board, "d2e2");
        assert_true(board_in_check(&board));
        if (cycle == 1)
            expect_going(&board);
        test_play(&board, "d9e9");
        assert_true(board_in_check(&board));
    }
    int loser = 99;
    assert_true(rules_repetition(&board, &loser));
    assert_int_equal(loser, -1);
    expect_over(&board, REASON_REPETITION, CHO, 52, 31);
}

static void test_double_pass(void **state) {
    (void)state;
    test_load_fen(&board, FEN_START);
    test_play(&board, "e2e2");
    expect_going(&board);
    test_play(&board, "e9e9");
    expect_over(&board, REASON_DOUBLE_PASS, HAN, START_CHO, START_HAN);
    // A move between two passes: no end.
    test_load_fen(&board, FEN_START);
    test_play(&board, "e2e2 a7a6 e2e2");
    expect_going(&board);
    // A pass at the root of a loaded FEN after which the other side passes: over.
    test_load_fen(&board,
                  "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR b - - 0 1");
    test_play(&board, "e9e9");
    expect_going(&board);
    test_play(&board, "e2e2");
    expect_over(&board, REASON_DOUBLE_PASS, HAN, START_CHO, START_HAN);
}

static void test_move_limit(void **state) {
    (void)state;
    // fullmove 100, Cho to move: 198 plies played.
    test_load_fen(&board,
                  "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 100");
    assert_int_equal(board_game_ply(&board), 198);
    expect_going(&board);
    test_play(&board, "a4a5");
    assert_int_equal(board_game_ply(&board), 199);
    expect_going(&board); // ply 199: not yet
    test_play(&board, "a7a6");
    assert_int_equal(board_game_ply(&board), 200);
    expect_over(&board, REASON_MOVE_LIMIT, HAN, START_CHO, START_HAN);
    // Plies from the move fields: fullmove 1 is ply 0 (Cho) or 1 (Han); fullmove 101 with
    // Cho to move is ply 200, over on loading.
    test_load_fen(&board, "4k4/9/9/9/9/9/4P4/9/4K4/9 w - - 0 1");
    assert_int_equal(board_game_ply(&board), 0);
    test_load_fen(&board, "4k4/9/9/9/9/9/4P4/9/4K4/9 b - - 0 1");
    assert_int_equal(board_game_ply(&board), 1);
    test_load_fen(&board, "4k4/9/9/9/9/9/4P4/9/4K4/9 b - - 0 100");
    expect_going(&board);
    test_load_fen(&board, "4k4/9/9/9/9/9/4P4/9/4K4/9 w - - 0 101");
    expect_over(&board, REASON_MOVE_LIMIT, CHO, 4, 3);
    // The FEN's move fields come back out as written.
    char fen[FEN_BUFFER];
    test_load_fen(&board, "4k4/9/9/9/9/9/4P4/9/4K4/9 b - - 7 57");
    assert_int_equal(board_game_ply(&board), 113);
    fen_write(&board, fen, sizeof fen);
    assert_string_equal(fen, "4k4/9/9/9/9/9/4P4/9/4K4/9 b - - 7 57");
}

// Han's a5a1 mates Cho and leaves standing the bikjang Cho's last move created (generals on
// the d-file, captures made), on ply 200, while Cho leads on points: checkmate wins.
static const char *const MATE_AND_BIKJANG = "3k5/9/9/9/7RR/r8/9/9/2r1A4/3KA4 b - - 0 100";

static void test_checkmate_first(void **state) {
    (void)state;
    test_load_fen(&board, MATE_AND_BIKJANG);
    assert_true(board_generals_facing(&board));
    assert_int_equal(board_game_ply(&board), 199);
    test_play(&board, "a5a1");
    assert_true(board_in_check(&board));
    assert_false(movegen_has_legal(&board));
    assert_true(rules_bikjang_ends(&board));
    assert_true(rules_points_leader(&board) == CHO);
    expect_over(&board, REASON_CHECKMATE, HAN, 64, 55);
    // Just missed: a check Cho can escape (d1d2 is free without the c2 chariot): bikjang.
    test_load_fen(&board, "3k5/9/9/9/7RR/r8/9/9/4A4/3KA4 b - - 0 1");
    test_play(&board, "a5a1");
    assert_true(board_in_check(&board));
    assert_true(movegen_has_legal(&board));
    expect_over(&board, REASON_BIKJANG, CHO, 64, 29);
    // A plain checkmate: the side to move is mated, the other side wins whatever the points.
    test_load_fen(&board, "3k5/9/9/9/7RR/r8/9/9/2r1A4/3KA4 b - - 0 1");
    test_play(&board, "a5a1");
    expect_over(&board, REASON_CHECKMATE, HAN, -1, -1);
    int loser;
    assert_false(rules_repetition(&board, &loser));
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_points),
        cmocka_unit_test(test_reason_names),
        cmocka_unit_test(test_start_goes_on),
        cmocka_unit_test(test_bikjang_before_capture),
        cmocka_unit_test(test_bikjang_created_by_capture),
        cmocka_unit_test(test_bikjang_oracle_positions),
        cmocka_unit_test(test_pass_refused_in_check),
        cmocka_unit_test(test_repetition),
        cmocka_unit_test(test_perpetual_check),
        cmocka_unit_test(test_both_sides_check),
        cmocka_unit_test(test_double_pass),
        cmocka_unit_test(test_move_limit),
        cmocka_unit_test(test_checkmate_first),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
