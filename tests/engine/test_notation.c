// SPDX-License-Identifier: MIT
// engine/notation.c: square names of all 90 points written and read back ("a1" .. "i10"),
// malformed names refused; move strings of moves, passes ("e2e2", also read as "0000" and
// "@@@@") and MOVE_NONE ("(none)"); move_parse_uci's syntax errors apart from illegal moves;
// CECP's move strings (ranks 0-9, the pass "@@@@") against the UCI ones for every legal move.
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
#include "variant.h"

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

// Every legal move of both variants' start positions and of a janggi position with the pass:
// its CECP string is its UCI string with each rank one lower, and reads back as the move.
static void test_cecp(void **state) {
    (void)state;
    ErrorInfo err;
    const char *fens[][2] = {
        {"janggi", NULL}, {"xiangqi", NULL}, {"janggi", "4k4/9/9/9/9/9/9/9/4K4/R8 w - - 0 1"}};
    for (size_t f = 0; f < sizeof fens / sizeof fens[0]; f++) {
        const Variant *v = variant_find(fens[f][0]);
        assert_int_equal(fen_parse_variant(&board, v, fens[f][1] ? fens[f][1] : v->start_fen, &err),
                         STATUS_OK);
        MoveList list;
        movegen_legal(&board, &list);
        for (int i = 0; i < list.count; i++) {
            char uci[MOVE_STR_LEN], cecp[MOVE_STR_LEN], want[MOVE_STR_LEN];
            Move m = list.moves[i], back = MOVE_NONE;
            move_to_uci(m, uci);
            move_to_cecp(m, cecp);
            if (move_is_pass(m))
                snprintf(want, sizeof want, "@@@@");
            else
                snprintf(want, sizeof want, "%c%d%c%d", 'a' + square_file(move_from(m)),
                         square_rank(move_from(m)), 'a' + square_file(move_to(m)),
                         square_rank(move_to(m)));
            assert_string_equal(cecp, want);
            assert_int_equal(move_parse_cecp(&board, cecp, &back, &err), STATUS_OK);
            assert_int_equal(back, m);
        }
    }
    // The pass's other spellings; refusals name the text.
    assert_int_equal(fen_parse(&board, FEN_START, &err), STATUS_OK);
    Move m;
    for (int i = 0; i < 4; i++) {
        static const char *const passes[] = {"@@@@", "0000", "pass", "--"};
        assert_int_equal(move_parse_cecp(&board, passes[i], &m, &err), STATUS_OK);
        assert_true(move_is_pass(m));
    }
    static const char *const syntax[] = {"",      "h0",   "h0g",  "h0g2x",
                                         "h0g10", "j0g2", "H0G2", "e1e1e1"};
    for (size_t i = 0; i < sizeof syntax / sizeof syntax[0]; i++) {
        assert_int_equal(move_parse_cecp(&board, syntax[i], &m, &err), STATUS_SYNTAX);
        assert_non_null(strstr(err.msg, "not a move string"));
    }
    assert_int_equal(move_parse_cecp(&board, "b0b1", &m, &err), STATUS_ILLEGAL);
    assert_non_null(strstr(err.msg, "'b0b1': not legal"));
    assert_int_equal(move_parse_cecp(&board, "e9e9", &m, &err), STATUS_ILLEGAL);
    assert_int_equal(fen_parse_variant(&board, variant_find("xiangqi"),
                                       variant_find("xiangqi")->start_fen, &err),
                     STATUS_OK);
    assert_int_equal(move_parse_cecp(&board, "@@@@", &m, &err), STATUS_ILLEGAL);
    assert_non_null(strstr(err.msg, "no pass"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_squares),
        cmocka_unit_test(test_move_strings),
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_cecp),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
