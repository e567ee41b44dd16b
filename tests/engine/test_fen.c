// SPDX-License-Identifier: MIT
// Bad input: malformed and illegal FENs and move strings are refused with the right status
// and a message, and leave the board as it was; good FENs in their accepted forms load.
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
#include "rules_expect.h"

static Board board, before;

typedef struct BadFen {
    const char *what;
    const char *fen;
    Status status;     // STATUS_OK here means: any error status
    const char *names; // a word the message must contain, or NULL
} BadFen;

// clang-format off
static const BadFen BAD_FENS[] = {
    {"9 ranks", "9/4k4/9/9/9/9/9/4K4/9 w - - 0 1", STATUS_ILLEGAL, "ranks"},
    {"11 ranks", "4k4/9/9/9/9/9/9/9/9/4K4/9 w - - 0 1", STATUS_ILLEGAL, "ranks"},
    {"rank of 8 points", "4k4/9/9/9/8/9/9/9/4K4/9 w - - 0 1", STATUS_ILLEGAL, "rank 6"},
    {"rank of 10 points", "4k4/9/9/9/5P4/9/9/9/4K4/9 w - - 0 1", STATUS_ILLEGAL, "rank 6"},
    {"two digits, 9 points", "4k4/9/9/9/18/9/9/9/4K4/9 w - - 0 1", STATUS_SYNTAX,
     "rank 6 has two digits in a row ('18'"},
    {"two digits, 10 points", "4k4/9/9/9/91/9/9/9/4K4/9 w - - 0 1", STATUS_SYNTAX,
     "rank 6 has two digits in a row ('91'"},
    {"two digits in the start", "rnba1abnr/4k4/1c5c1/p1p1p1p1p/18/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR"
     " w - - 0 1", STATUS_SYNTAX, "rank 6 has two digits"},
    {"rank of 10 pieces", "4k4/9/9/9/PPPPP4P/9/9/9/4K4/9 w - - 0 1", STATUS_ILLEGAL, NULL},
    {"empty rank", "4k4/9/9//9/9/9/9/4K4/9 w - - 0 1", STATUS_ILLEGAL, "rank"},
    {"zero digit", "4k4/9/9/09/9/9/9/9/4K4/9 w - - 0 1", STATUS_OK, "'0'"},
    {"unknown letter", "4k4/9/9/9/4X4/9/9/9/4K4/9 w - - 0 1", STATUS_SYNTAX, "'X'"},
    {"chess letter", "4k4/9/9/9/4Q4/9/9/9/4K4/9 w - - 0 1", STATUS_SYNTAX, "'Q'"},
    {"3 horses, N and H", "4k4/9/9/9/9/9/NHN6/9/4K4/9 w - - 0 1", STATUS_ILLEGAL, "horse"},
    {"3 elephants, b and e", "4k4/9/9/9/9/9/beb6/9/4K4/9 w - - 0 1", STATUS_ILLEGAL, "elephant"},
    {"one dash, then counts", "4k4/9/9/9/9/9/9/9/4K4/9 w - 0 1", STATUS_SYNTAX, "5 fields"},
    {"counts, then dashes", "4k4/9/9/9/9/9/9/9/4K4/9 w 0 1 - -", STATUS_SYNTAX, "field 3"},
    {"no dashes, one count", "4k4/9/9/9/9/9/9/9/4K4/9 w 0", STATUS_SYNTAX, "3 fields"},
    {"no dashes, bad count", "4k4/9/9/9/9/9/9/9/4K4/9 w 0 x", STATUS_SYNTAX, "fullmove"},
    {"no Cho general", "4k4/9/9/9/9/9/9/9/9/9 w - - 0 1", STATUS_ILLEGAL, "no general"},
    {"no Han general", "9/9/9/9/9/9/9/9/4K4/9 w - - 0 1", STATUS_ILLEGAL, "no general"},
    {"two generals", "4k4/9/9/9/9/9/9/9/3KK4/9 w - - 0 1", STATUS_ILLEGAL, "general"},
    {"general outside palace", "4k4/9/9/9/9/9/4K4/9/9/9 w - - 0 1", STATUS_ILLEGAL, "palace"},
    {"general in enemy palace", "4K4/9/9/9/9/9/9/9/4k4/9 w - - 0 1", STATUS_ILLEGAL, "palace"},
    {"guard outside palace", "4k4/9/9/9/9/9/9/A8/4K4/9 w - - 0 1", STATUS_ILLEGAL, "guard"},
    {"Han guard outside palace", "4k4/9/a8/9/9/9/9/9/4K4/9 w - - 0 1", STATUS_ILLEGAL, "guard"},
    {"3 chariots", "4k4/9/9/9/9/9/RRR6/9/4K4/9 w - - 0 1", STATUS_ILLEGAL, "chariot"},
    {"3 cannons", "4k4/9/9/9/9/9/ccc6/9/4K4/9 w - - 0 1", STATUS_ILLEGAL, "cannon"},
    {"3 horses", "4k4/9/9/9/9/9/NNN6/9/4K4/9 w - - 0 1", STATUS_ILLEGAL, "horse"},
    {"3 elephants", "4k4/9/9/9/9/9/bbb6/9/4K4/9 w - - 0 1", STATUS_ILLEGAL, "elephant"},
    {"3 guards", "3aaa3/9/9/9/9/9/9/9/4K4/4k4 w - - 0 1", STATUS_ILLEGAL, NULL},
    {"6 soldiers", "4k4/9/9/9/9/9/PPPPPP3/9/4K4/9 w - - 0 1", STATUS_ILLEGAL, "soldier"},
    {"side not to move in check", "4k4/9/9/9/9/9/9/9/3K5/4R4 w - - 0 1", STATUS_ILLEGAL, "in check"},
    {"bad side letter", "4k4/9/9/9/9/9/4P4/9/4K4/9 r - - 0 1", STATUS_SYNTAX, "side"},
    {"side word", "4k4/9/9/9/9/9/4P4/9/4K4/9 white - - 0 1", STATUS_SYNTAX, "side"},
    {"castling field", "4k4/9/9/9/9/9/4P4/9/4K4/9 w KQ - 0 1", STATUS_SYNTAX, "field 3"},
    {"en passant field", "4k4/9/9/9/9/9/4P4/9/4K4/9 w - e3 0 1", STATUS_SYNTAX, "field 4"},
    {"negative halfmove", "4k4/9/9/9/9/9/4P4/9/4K4/9 w - - -1 1", STATUS_SYNTAX, "halfmove"},
    {"letter halfmove", "4k4/9/9/9/9/9/4P4/9/4K4/9 w - - x 1", STATUS_SYNTAX, "halfmove"},
    {"huge halfmove", "4k4/9/9/9/9/9/4P4/9/4K4/9 w - - 99999999 1", STATUS_SYNTAX, "halfmove"},
    {"zero fullmove", "4k4/9/9/9/9/9/4P4/9/4K4/9 w - - 0 0", STATUS_SYNTAX, "fullmove"},
    {"fullmove sign", "4k4/9/9/9/9/9/4P4/9/4K4/9 w - - 0 +1", STATUS_SYNTAX, "fullmove"},
    {"fullmove 1.5", "4k4/9/9/9/9/9/4P4/9/4K4/9 w - - 0 1.5", STATUS_SYNTAX, "fullmove"},
    {"1 field", "4k4/9/9/9/9/9/4P4/9/4K4/9", STATUS_SYNTAX, "fields"},
    {"3 fields", "4k4/9/9/9/9/9/4P4/9/4K4/9 w -", STATUS_SYNTAX, "fields"},
    {"5 fields", "4k4/9/9/9/9/9/4P4/9/4K4/9 w - - 0", STATUS_SYNTAX, "fields"},
    {"7 fields", "4k4/9/9/9/9/9/4P4/9/4K4/9 w - - 0 1 x", STATUS_SYNTAX, "fields"},
    {"1 field, the forms", "4k4/9/9/9/9/9/4P4/9/4K4/9", STATUS_SYNTAX,
     "1 field, expected 6 fields (or the first 2 or 4)"},
    {"short last rank", "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABN w - - 0 1",
     STATUS_ILLEGAL, "rank 1 has 8 points, expected 9"},
    {"tab separator", "4k4/9/9/9/9/9/4P4/9/4K4/9\tw - - 0 1", STATUS_OK, NULL},
    {"garbage", "hello world", STATUS_OK, NULL},
    {"garbage 2", "//////////", STATUS_OK, NULL},
    {"only spaces", "    ", STATUS_SYNTAX, "empty"},
    {"empty", "", STATUS_SYNTAX, "empty"},
    {"chess start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", STATUS_OK, NULL},
};
// clang-format on

static void expect_refused(const char *what, const char *fen, Status want, const char *names) {
    ErrorInfo err;
    memset(&err, 0, sizeof err);
    Status st = fen_parse(&board, fen, &err);
    if (st == STATUS_OK)
        fail_msg("%s: '%s' was accepted", what, fen);
    if (want != STATUS_OK && st != want)
        fail_msg("%s: status %s, expected %s (%s)", what, status_name(st), status_name(want),
                 err.msg);
    if (err.msg[0] == '\0')
        fail_msg("%s: empty message", what);
    if (names && !strstr(err.msg, names))
        fail_msg("%s: message '%s' does not contain '%s'", what, err.msg, names);
    char why[160];
    if (!test_boards_equal(&before, &board, why, sizeof why))
        fail_msg("%s: board changed: %s", what, why);
}

static void test_bad_fens(void **state) {
    (void)state;
    test_load_fen(&before, "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR "
                           "w - - 0 1");
    test_play(&before, "e4d4 e7e6"); // some history, which a failed load must keep
    board = before;
    for (size_t i = 0; i < sizeof BAD_FENS / sizeof BAD_FENS[0]; i++)
        expect_refused(BAD_FENS[i].what, BAD_FENS[i].fen, BAD_FENS[i].status, BAD_FENS[i].names);
    assert_int_equal(board.nstates, 3);
}

static void test_long_fens(void **state) {
    (void)state;
    test_load_fen(&before, FEN_START);
    board = before;
    char fen[4096];
    // Over-long: the start FEN padded with spaces, and a long run of garbage.
    snprintf(fen, sizeof fen, "%s%300s", FEN_START, "");
    expect_refused("padded", fen, STATUS_RANGE, NULL);
    memset(fen, 'p', sizeof fen - 1);
    fen[sizeof fen - 1] = '\0';
    expect_refused("4095 soldiers", fen, STATUS_RANGE, NULL);
    memset(fen, '/', 300);
    fen[300] = '\0';
    expect_refused("300 slashes", fen, STATUS_RANGE, NULL);
    expect_refused("NULL", NULL, STATUS_SYNTAX, NULL);
    // Just under the limit is fine: extra spaces around fields are tolerated.
    snprintf(fen, sizeof fen, "  %s  ", FEN_START);
    test_load_fen(&board, fen);
}

static void test_accepted_forms(void **state) {
    (void)state;
    char fen[FEN_BUFFER];
    test_load_fen(&board, "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w");
    fen_write(&board, fen, sizeof fen);
    assert_string_equal(fen, FEN_START);
    test_load_fen(&board, "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - -");
    fen_write(&board, fen, sizeof fen);
    assert_string_equal(fen, FEN_START);
    // The side to move may be in check; the side not to move may not (C09 is the other way).
    test_load_fen(&board, "4k4/9/9/9/9/9/9/9/4K4/4R4 w - - 0 1");
    test_load_fen(&board, "4k4/9/9/9/9/9/9/9/4K4/4r4 w - - 3 40");
    assert_true(board_in_check(&board));
    fen_write(&board, fen, sizeof fen);
    assert_string_equal(fen, "4k4/9/9/9/9/9/9/9/4K4/4r4 w - - 3 40");
}

// The forms other programs write: Fairy-Stockfish's janggi and WinBoard letters (H horse, E
// elephant, either case, mixed with N and B), and WinBoard's "w 0 1" without castling and en
// passant; each reads as the engine's own form and is written back in that one form.
static void test_synonym_forms(void **state) {
    (void)state;
    static const struct {
        const char *in, *out;
    } forms[] = {
        {"rhea1aehr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RHEA1AEHR w - - 0 1", FEN_START},
        {"rhea1aehr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RHEA1AEHR w 0 1", FEN_START},
        {"rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w 0 1", FEN_START},
        {"rhba1aenr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNEA1ABHR w - -", FEN_START},
        {"4k4/9/9/9/9/9/9/2H1E4/4K4/9 b 7 31", "4k4/9/9/9/9/9/9/2N1B4/4K4/9 b - - 7 31"},
    };
    char fen[FEN_BUFFER];
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        test_load_fen(&board, forms[i].in);
        fen_write(&board, fen, sizeof fen);
        assert_string_equal(fen, forms[i].out);
    }
}

static void test_bad_moves(void **state) {
    (void)state;
    test_load_fen(&board, FEN_START);
    static const char *const syntax[] = {
        "a11a1",
        "j1j2",
        "e2e4x",
        "",
        "e2",
        "e2e",
        "e0e1",
        "a10a11",
        "E2E3",
        "e2-e3",
        "e2 e3",
        "pass",
        "null",
        "000",
        "00000",
        "@@@",
        "0000 ",
        "a1a1a1",
        "e2e3e4e5e6e7e8e9",
        "i10i11",
        "a\xff"
        "1a2",
        "\t",
    };
    for (size_t i = 0; i < sizeof syntax / sizeof syntax[0]; i++)
        expect_move_refused(&board, syntax[i], STATUS_SYNTAX);
    static const char *const illegal[] = {
        "a7a6",  // an enemy soldier
        "b1d2",  // the horse's leg c1 holds the elephant
        "h1f2",  // the horse's leg g1 holds the elephant
        "a1a5",  // the chariot's path is blocked by its own soldier on a4
        "a4a3",  // a soldier never moves backward
        "e2e4",  // the general leaves its palace
        "d1d4",  // the guard leaves its palace
        "b3b10", // the cannon has no screen on the b-file
        "b3b5",  // moving without a screen
        "c1e4",  // the elephant is blocked on c2
        "a1a1",  // a pass is the general's square twice, not any square
        "e1e1",  // no general on e1
        "e9e9",  // Han's general: not the side to move
        "e5e6",  // no piece on e5
        "d1e1",  // the guard's palace step... e1 is free: legal, checked below
    };
    for (size_t i = 0; i + 1 < sizeof illegal / sizeof illegal[0]; i++)
        expect_move_refused(&board, illegal[i], STATUS_ILLEGAL);
    Move m;
    ErrorInfo err;
    assert_int_equal(move_parse_uci(&board, "d1e1", &m, &err), STATUS_OK);
    // Blocked horse: the b1 horse's c3 move needs b2 empty; put a soldier on b2.
    test_load_fen(&board, "4k4/9/9/9/9/9/9/9/1P2K4/1N7 w - - 0 1");
    expect_move_refused(&board, "b1c3", STATUS_ILLEGAL);
    expect_move_refused(&board, "b1a3", STATUS_ILLEGAL);
    assert_int_equal(move_parse_uci(&board, "b1d2", &m, &err), STATUS_OK);
    // A pinned guard: leaving the e-file exposes the general to the e6 chariot.
    test_load_fen(&board, "4k4/9/9/9/4r4/9/9/4A4/4K4/9 w - - 0 1");
    expect_move_refused(&board, "e3d3", STATUS_ILLEGAL);
    expect_move_refused(&board, "e3f3", STATUS_ILLEGAL);
    assert_int_equal(move_parse_uci(&board, "e2d2", &m, &err), STATUS_OK);
    // The same guard as a cannon's only screen: stepping aside ends the check.
    test_load_fen(&board, "4k4/9/9/9/4c4/9/9/4A4/4K4/9 w - - 0 1");
    assert_true(board_in_check(&board));
    assert_int_equal(move_parse_uci(&board, "e3d3", &m, &err), STATUS_OK);
    expect_move_refused(&board, "e2e1", STATUS_ILLEGAL);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_fens),       cmocka_unit_test(test_long_fens),
        cmocka_unit_test(test_accepted_forms), cmocka_unit_test(test_synonym_forms),
        cmocka_unit_test(test_bad_moves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
