// SPDX-License-Identifier: MIT
// Xiangqi's rules core, one rule at a time (docs/rules-xiangqi.md): each piece's moves, the
// cannon over one screen (a cannon taking a cannon), the elephant kept on its side, the flying
// general with one blocker, stalemate losing, and the FENs xiangqi refuses though janggi takes
// them. Expected move lists are written out by hand from the rules page.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "board.h"
#include "engine.h"
#include "fen.h"
#include "movegen.h"
#include "notation.h"
#include "perft.h"
#include "rules.h"
#include "variant.h"

static Board board; // a Board is large: keep it off the stack

static void load(const char *fen) {
    ErrorInfo err = {{0}};
    if (fen_parse_variant(&board, &VARIANT_XIANGQI, fen, &err) != STATUS_OK)
        fail_msg("xiangqi FEN '%s' refused: %s", fen, err.msg);
    assert_ptr_equal(board.variant, &VARIANT_XIANGQI);
}

static int cmp_str(const void *a, const void *b) { return strcmp(a, b); }

// The legal moves of the side to move, in UCI, sorted, joined by spaces.
static const char *legal_moves(void) {
    static char out[MAX_MOVES * MOVE_STR_LEN];
    char moves[MAX_MOVES][MOVE_STR_LEN];
    MoveList list;
    movegen_legal(&board, &list);
    for (int i = 0; i < list.count; i++)
        move_to_uci(list.moves[i], moves[i]);
    qsort(moves, (size_t)list.count, sizeof moves[0], cmp_str);
    out[0] = '\0';
    for (int i = 0; i < list.count; i++)
        snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s", i ? " " : "", moves[i]);
    assert_int_equal(list.count, movegen_count_legal(&board));
    return out;
}

// The legal moves of the piece on from (a UCI square such as "e2"), as legal_moves() writes.
static const char *moves_from(const char *from) {
    static char out[MAX_MOVES * MOVE_STR_LEN];
    const char *all = legal_moves();
    size_t n = strlen(from);
    out[0] = '\0';
    for (const char *p = all; *p;) {
        size_t len = strcspn(p, " ");
        // A move starts with from and then a file letter (so "e1" does not match "e10").
        if (strncmp(p, from, n) == 0 && p[n] >= 'a' && p[n] <= 'i')
            snprintf(out + strlen(out), sizeof out - strlen(out), "%s%.*s", *out ? " " : "",
                     (int)len, p);
        p += len + (p[len] == ' ');
    }
    return out;
}

// General: one point orthogonally inside the palace, never diagonally; d2 would face the
// black general on the open d-file.
static void test_general(void **state) {
    (void)state;
    load("3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1");
    assert_string_equal(legal_moves(), "e2e1 e2e3 e2f2");
}

// Advisor: one point diagonally along the palace lines only (e2 to its four corners).
static void test_advisor(void **state) {
    (void)state;
    load("5k3/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1");
    assert_string_equal(moves_from("e2"), "e2d3 e2f1 e2f3");
    load("5k3/9/9/9/9/9/9/3A5/9/4K4 w - - 0 1");
    assert_string_equal(moves_from("d3"), "d3e2");
}

// Elephant: two points diagonally unless the eye is taken, never across the river: from c5
// only a3 (e3 is blocked at d4; a7 and e7 lie across the river).
static void test_elephant(void **state) {
    (void)state;
    load("3k5/9/9/9/9/2B6/3n5/9/9/4K4 w - - 0 1");
    assert_string_equal(moves_from("c5"), "c5a3");
    // The black elephant on c6 likewise stays on its side: only a8 and e8.
    load("3k5/9/9/9/2b6/9/9/9/9/4K4 b - - 0 1");
    assert_string_equal(moves_from("c6"), "c6a8 c6e8");
}

// Horse: one point straight then one diagonally outward, blocked at the leg (e6 taken).
static void test_horse(void **state) {
    (void)state;
    load("3k5/9/9/9/4P4/4N4/9/9/9/5K3 w - - 0 1");
    assert_string_equal(moves_from("e5"), "e5c4 e5c6 e5d3 e5f3 e5g4 e5g6");
}

// Chariot: any distance orthogonally up to and including the first enemy piece.
static void test_chariot(void **state) {
    (void)state;
    load("3k5/9/9/9/9/9/9/9/p3R4/5K3 w - - 0 1");
    assert_string_equal(moves_from("e2"), "e2a2 e2b2 e2c2 e2d2 e2e1 e2e10 e2e3 e2e4 e2e5 e2e6 "
                                          "e2e7 e2e8 e2e9 e2f2 e2g2 e2h2 e2i2");
}

// Soldier: forward only on its own side; past the river also sideways; never backward.
static void test_soldier(void **state) {
    (void)state;
    load("3k5/9/9/9/2P6/9/4P4/9/9/4K4 w - - 0 1");
    assert_string_equal(moves_from("e4"), "e4e5");
    assert_string_equal(moves_from("c6"), "c6b6 c6c7 c6d6");
    // On the last rank a soldier still has its sideways moves, and nothing else.
    load("P2k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
    assert_string_equal(moves_from("a10"), "a10b10");
}

// Cannon: moves like a chariot without capturing; captures over exactly one screen of any
// kind, and may take a cannon (b8, over the soldier on b4); never two screens, never a capture
// without one.
static void test_cannon_takes_cannon(void **state) {
    (void)state;
    load("3k5/9/1c7/9/9/9/1p7/1C7/9/5K3 w - - 0 1");
    assert_string_equal(moves_from("b3"), "b3a3 b3b1 b3b2 b3b8 b3c3 b3d3 b3e3 b3f3 b3g3 b3h3 b3i3");
    // Black's cannon answers in kind: over the same soldier it takes the red cannon on b3.
    load("3k5/9/1c7/9/9/9/1p7/1C7/9/5K3 b - - 0 1");
    assert_non_null(strstr(moves_from("b8"), "b8b3"));
    // A cannon as the screen: c3 takes over the cannon on c5 the chariot on c8.
    load("3k5/9/2r6/9/9/2C6/9/2C6/9/5K3 w - - 0 1");
    assert_non_null(strstr(moves_from("c3"), "c3c8"));
    assert_null(strstr(moves_from("c5"), "c5c8"));
}

// Flying general: the one piece between the generals (a horse on e5) may not leave the file,
// and the general that the move would expose counts as attacked (so the FEN with the generals
// facing and Red to move is refused: Black's general would stand in check).
static void test_flying_general(void **state) {
    (void)state;
    load("4k4/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1");
    assert_string_equal(moves_from("e5"), "");
    assert_string_equal(legal_moves(), "e1d1 e1e2 e1f1");
    // A black cannon as the one blocker: along the file it may go, off it not.
    load("4k4/9/9/9/9/4c4/9/9/9/4K4 b - - 0 1");
    assert_string_equal(moves_from("e5"), "e5e2 e5e3 e5e4 e5e6 e5e7 e5e8 e5e9");
    // Facing generals: each attacks the other, so no such position loads (either side to move).
    ErrorInfo err = {{0}};
    assert_int_equal(
        fen_parse_variant(&board, &VARIANT_XIANGQI, "4k4/9/9/9/9/3N5/9/9/9/4K4 b", &err),
        STATUS_ILLEGAL);
    assert_non_null(strstr(err.msg, "side not to move (Red) is in check"));
}

// Stalemate loses: Black's general on d10 has no move (e10 under the chariot on the e-file,
// d9 under the chariot on rank 9) and is not in check. Just missed: without the chariot on
// rank 9 the general goes to d9 and the game goes on.
static void test_stalemate_loses(void **state) {
    (void)state;
    GameResult res;
    load("3k5/R8/9/9/9/9/9/9/4R4/5K3 b - - 0 1");
    assert_false(board_in_check(&board));
    assert_string_equal(legal_moves(), "");
    assert_int_equal(perft(&board, 1), 0);
    assert_true(rules_game_over(&board, &res));
    assert_int_equal(res.reason, REASON_STALEMATE);
    assert_int_equal(res.winner, CHO);
    assert_string_equal(rules_reason_name(REASON_STALEMATE), "stalemate");
    assert_int_equal(rules_reason_parse("stalemate"), REASON_STALEMATE);
    load("3k5/9/9/9/9/9/9/9/4R4/5K3 b - - 0 1");
    assert_string_equal(legal_moves(), "d10d9");
    assert_false(rules_game_over(&board, &res));
    // Checkmate: the chariot on rank 10 too.
    load("R2k5/R8/9/9/9/9/9/9/9/5K3 b - - 0 1");
    assert_true(board_in_check(&board));
    assert_true(rules_game_over(&board, &res));
    assert_int_equal(res.reason, REASON_CHECKMATE);
    assert_int_equal(res.winner, CHO);
}

// No pass in xiangqi: the general's square twice is no move.
static void test_no_pass(void **state) {
    (void)state;
    load(VARIANT_XIANGQI.start_fen);
    Move m;
    ErrorInfo err = {{0}};
    assert_int_not_equal(move_parse_uci(&board, "e1e1", &m, &err), STATUS_OK);
    assert_int_equal(perft(&board, 1), 44);
}

// WinBoard's xiangqi letters (H horse, E elephant) and its FEN without "- -" read as the start
// position, written back with N and B.
static void test_synonym_letters(void **state) {
    (void)state;
    char fen[FEN_BUFFER];
    load("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w 0 1");
    fen_write(&board, fen, sizeof fen);
    assert_string_equal(fen, VARIANT_XIANGQI.start_fen);
    ErrorInfo err = {{0}};
    assert_int_equal(
        fen_parse_variant(&board, &VARIANT_XIANGQI, "3k5/9/9/9/9/9/9/4E4/9/2E1KE3 w - - 0 1", &err),
        STATUS_ILLEGAL);
    assert_non_null(strstr(err.msg, "elephant"));
}

// Positions janggi accepts (same letters, same counts) that xiangqi refuses, and bad letters
// and counts. Each error names the piece and its point.
static void test_bad_fens(void **state) {
    (void)state;
    static const struct {
        const char *fen, *says;
        Status status;
    } bad[] = {
        {"3k5/9/9/9/9/9/9/9/9/3KA4 w - - 0 1", "Red advisor off the palace's diagonals on e1",
         STATUS_ILLEGAL},
        {"3k5/9/9/9/9/9/9/9/9/1B2K4 w - - 0 1", "Red elephant off its 7 points on b1",
         STATUS_ILLEGAL},
        {"3k5/9/9/9/2B6/9/9/9/9/4K4 w - - 0 1", "Red elephant across the river on c6",
         STATUS_ILLEGAL},
        {"3k5/9/9/9/9/9/9/P8/9/4K4 w - - 0 1", "Red soldier where no soldier can stand",
         STATUS_ILLEGAL},
        {"3k5/9/9/9/9/9/1P7/9/9/4K4 w - - 0 1", "on b4", STATUS_ILLEGAL},
        {"3k5/9/p8/9/9/9/9/9/9/4K4 w - - 0 1", "Black soldier where no soldier", STATUS_ILLEGAL},
        {"3k5/9/9/9/9/9/P1P1P1P1P/9/P8/4K4 w - - 0 1", "Red has more than 5 soldiers",
         STATUS_ILLEGAL},
        {"3k5/9/9/9/9/9/9/9/RRR6/4K4 w - - 0 1", "Red has more than 2 chariots", STATUS_ILLEGAL},
        {"3k5/9/9/9/9/9/9/9/9/6K2 w - - 0 1", "Red general outside its palace", STATUS_ILLEGAL},
        {"3k5/9/9/9/9/9/9/9/3A5/4K4 w - - 0 1", "Red advisor off the palace's diagonals on d2",
         STATUS_ILLEGAL},
        {"3k5/9/9/9/4Q4/9/9/9/9/4K4 w - - 0 1", "'Q'", STATUS_SYNTAX},
        {"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "side not to move (Black) is in check",
         STATUS_ILLEGAL},
        {"3k5/9/9/9/9/9/9/9/9/4K4 w K - 0 1", "xiangqi has only '-'", STATUS_SYNTAX},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ErrorInfo err = {{0}};
        Status st = fen_parse_variant(&board, &VARIANT_XIANGQI, bad[i].fen, &err);
        if (st != bad[i].status || !strstr(err.msg, bad[i].says))
            fail_msg("'%s': status %d, message '%s'; expected %d naming '%s'", bad[i].fen, st,
                     err.msg, bad[i].status, bad[i].says);
    }
    // The janggi start position is a legal xiangqi position (its pieces on xiangqi points).
    load(FEN_START);
    // The elephant on b1 and the soldier on b4 are janggi positions; janggi takes them.
    ErrorInfo err = {{0}};
    assert_int_equal(fen_parse(&board, "3k5/9/9/9/9/9/1P7/9/4K4/1B7 w - - 0 1", &err), STATUS_OK);
    assert_ptr_equal(board.variant, &VARIANT_JANGGI);
}

// Along random games from the start, the legality test's shortcut agrees with playing each
// pseudo-legal move out: a move is legal exactly when, made, it leaves the mover's general
// unattacked (the flying general included); the board stays consistent.
static void test_random_games_legality(void **state) {
    (void)state;
    uint64_t rng = 14;
    int plies = 0;
    for (int game = 0; game < 40; game++) {
        load(VARIANT_XIANGQI.start_fen);
        for (int ply = 0; ply < 120; ply++) {
            MoveList pseudo, legal;
            movegen_pseudo(&board, &pseudo, GEN_ALL);
            movegen_legal(&board, &legal);
            int n = 0;
            Side us = board.side;
            for (int i = 0; i < pseudo.count; i++) {
                bool ok = movegen_is_legal(&board, pseudo.moves[i]);
                board_make(&board, pseudo.moves[i]);
                assert_int_equal(ok, !board_general_attacked(&board, us));
                char why[128];
                if (!board_is_consistent(&board, why, sizeof why))
                    fail_msg("game %d ply %d: %s", game, ply, why);
                board_unmake(&board);
                n += ok;
            }
            assert_int_equal(n, legal.count);
            if (legal.count == 0)
                break;
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            board_make(&board, legal.moves[(rng >> 33) % (uint64_t)legal.count]);
            plies++;
        }
    }
    assert_true(plies > 1000);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_general),
        cmocka_unit_test(test_advisor),
        cmocka_unit_test(test_elephant),
        cmocka_unit_test(test_horse),
        cmocka_unit_test(test_chariot),
        cmocka_unit_test(test_soldier),
        cmocka_unit_test(test_cannon_takes_cannon),
        cmocka_unit_test(test_flying_general),
        cmocka_unit_test(test_stalemate_loses),
        cmocka_unit_test(test_no_pass),
        cmocka_unit_test(test_synonym_letters),
        cmocka_unit_test(test_bad_fens),
        cmocka_unit_test(test_random_games_legality),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
