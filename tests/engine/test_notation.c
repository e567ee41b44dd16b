// SPDX-License-Identifier: MIT
// engine/notation.c: square names of all 90 points written and read back ("a1" .. "i10"),
// malformed names refused; move strings of moves, passes ("e2e2", also read as "0000" and
// "@@@@") and MOVE_NONE ("(none)"); move_parse_uci's syntax errors apart from illegal moves.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "board.h"
#include "engine.h"
#include "fen.h"
#include "notation.h"

static Board board;

static int setup(void **state) {
    (void)state;
    engine_init();
    return 0;
}

static void test_squares(void **state) {
    (void)state;
    for (Square sq = 0; sq < SQUARE_NB; sq++) {
        char s[4], want[16];
        snprintf(want, sizeof want, "%c%d", 'a' + square_file(sq), square_rank(sq) + 1);
        square_to_str(sq, s);
        assert_string_equal(s, want);
        int len = 0;
        assert_int_equal(square_parse(s, &len), sq);
        assert_int_equal(len, (int)strlen(s));
    }
    // A square name followed by more text reads only the name: "a10" is not "a1" and "0".
    int len = 0;
    assert_int_equal(square_parse("a10a9", &len), square_make(0, 9));
    assert_int_equal(len, 3);
    assert_int_equal(square_parse("e2e2", &len), square_make(4, 1));
    assert_int_equal(len, 2);
    assert_int_equal(square_parse("a11", &len), square_make(0, 0)); // "a1", then "1"
    assert_int_equal(len, 2);
    static const char *const bad[] = {"", "a", "j1", "a0", "A1", "1a", "@1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (square_parse(bad[i], &len) != SQ_NONE)
            fail_msg("'%s' read as a square", bad[i]);
}

static void test_move_strings(void **state) {
    (void)state;
    char s[MOVE_STR_LEN];
    move_to_uci(move_make(square_make(1, 0), square_make(2, 2)), s);
    assert_string_equal(s, "b1c3");
    move_to_uci(move_make(square_make(0, 9), square_make(0, 8)), s);
    assert_string_equal(s, "a10a9");
    move_to_uci(move_make(square_make(4, 1), square_make(4, 1)), s);
    assert_string_equal(s, "e2e2");
    move_to_uci(MOVE_NONE, s);
    assert_string_equal(s, "(none)");
}

static void expect_parse(const char *str, const char *want) {
    Move m = MOVE_NONE;
    ErrorInfo err = {{0}};
    if (move_parse_uci(&board, str, &m, &err) != STATUS_OK)
        fail_msg("%s refused: %s", str, err.msg);
    char s[MOVE_STR_LEN];
    move_to_uci(m, s);
    assert_string_equal(s, want);
}

static void expect_refused(const char *str, Status want) {
    Move m = 12345;
    ErrorInfo err = {{0}};
    Status st = move_parse_uci(&board, str, &m, &err);
    if (st != want)
        fail_msg("%s: status %s (%s), expected %s", str, status_name(st), err.msg,
                 status_name(want));
    assert_true(err.msg[0] != '\0');
    assert_int_equal(m, 12345); // untouched
}

static void test_parse(void **state) {
    (void)state;
    ErrorInfo err;
    assert_int_equal(fen_parse(&board, FEN_START, &err), STATUS_OK);
    expect_parse("b1c3", "b1c3");
    expect_parse("e2e2", "e2e2");
    expect_parse("0000", "e2e2");
    expect_parse("@@@@", "e2e2");
    expect_refused("", STATUS_SYNTAX);
    expect_refused("b1", STATUS_SYNTAX);
    expect_refused("b1c", STATUS_SYNTAX);
    expect_refused("b1c3x", STATUS_SYNTAX);
    expect_refused("z1c3", STATUS_SYNTAX);
    expect_refused("b1c11", STATUS_SYNTAX);
    expect_refused("b1b2", STATUS_ILLEGAL); // a horse does not move so
    expect_refused("e5e6", STATUS_ILLEGAL); // nothing on e5
    expect_refused("e9e9", STATUS_ILLEGAL); // Han's general passing on Cho's move
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_squares),
        cmocka_unit_test(test_move_strings),
        cmocka_unit_test(test_parse),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
