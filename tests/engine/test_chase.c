// SPDX-License-Identifier: MIT
// engine/chase.c, called directly: which side chased one same unprotected enemy piece with every
// one of its moves of a repetition cycle (docs/rules-xiangqi.md, "Repetition, chase and
// draws"). Each case plays one 4-ply cycle (its last position equals its first) and asks
// chase_in_cycle() about it, both sides' answers at once, where test_xiangqi_rules sees only the
// verdict that rules_end_reason() draws from them; the board is left as it was.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "board.h"
#include "chase.h"
#include "engine.h"
#include "fen.h"
#include "notation.h"
#include "variant.h"

static Board board, before; // a Board is large: keep it off the stack

static int setup(void **state) {
    (void)state;
    engine_init();
    return 0;
}

static void load(const char *fen) {
    ErrorInfo err = {{0}};
    if (fen_parse_variant(&board, &VARIANT_XIANGQI, fen, &err) != STATUS_OK)
        fail_msg("FEN '%s' refused: %s", fen, err.msg);
}

// Plays the space-separated moves ("pass": the side to move's null move, as the search makes it).
static void play(const char *moves) {
    char copy[128];
    snprintf(copy, sizeof copy, "%s", moves);
    for (char *s = strtok(copy, " "); s; s = strtok(NULL, " ")) {
        Move m;
        ErrorInfo err = {{0}};
        if (strcmp(s, "pass") == 0)
            m = move_make(board.general[board.side], board.general[board.side]);
        else if (move_parse_uci(&board, s, &m, &err) != STATUS_OK)
            fail_msg("move %s refused: %s", s, err.msg);
        board_make(&board, m);
    }
}

// Loads fen, plays the cycle from its first position (state `first` after `lead` moves) and
// checks both sides' chases and that the board is unchanged by the call.
static void expect_chases(const char *fen, const char *lead, const char *cycle, bool cho,
                          bool han) {
    load(fen);
    play(lead);
    const int first = board.nstates - 1;
    const uint64_t key = board_key(&board);
    play(cycle);
    assert_true(board_key(&board) == key); // a cycle: back to its first position
    before = board;
    bool chases[SIDE_NB] = {!cho, !han};
    chase_in_cycle(&board, first, chases);
    if (chases[CHO] != cho || chases[HAN] != han)
        fail_msg("%s, cycle %s: Red chases %d, Black %d; expected %d, %d", fen, cycle, chases[CHO],
                 chases[HAN], cho, han);
    assert_memory_equal(&before, &board, sizeof board);
}

// Red's chariot follows Black's unprotected cannon (b7, a7, b7...): Red chases, Black does not.
static void test_chariot_chases(void **state) {
    (void)state;
    const char *fen = "5k3/9/9/1c7/9/9/9/R8/9/3K5 w - - 0 1";
    expect_chases(fen, "", "a3b3 b7a7 b3a3 a7b7", true, false);
    // The same cycle after other moves: the cycle starts where its first position stands.
    expect_chases(fen, "a3a2 f10f9 a2a3 f9f10", "a3b3 b7a7 b3a3 a7b7", true, false);
    // Mirrored: Black's chariot chases Red's cannon.
    expect_chases("3k5/9/r8/9/9/9/1C7/9/9/5K3 b - - 0 1", "", "a8b8 b4a4 b8a8 a4b4", false, true);
}

// A protected piece is not chased: Black's chariot on i7 would take back on b7 or a7.
static void test_protected(void **state) {
    (void)state;
    expect_chases("5k3/9/9/1c6r/9/9/9/R8/9/3K5 w - - 0 1", "", "a3b3 b7a7 b3a3 a7b7", false, false);
}

// Protection is a legal recapture: the chariot on f7 guards rank 7 but is pinned to its general
// by the chariot on f2.
static void test_pinned_protector(void **state) {
    (void)state;
    expect_chases("5k3/9/9/1c3r3/9/9/9/R8/5R3/3K5 w - - 0 1", "", "a3b3 b7a7 b3a3 a7b7", true,
                  false);
}

// One same piece: Red's chariot attacks a7's cannon after one move and b7's after the other.
static void test_not_same_piece(void **state) {
    (void)state;
    expect_chases("5k3/9/9/cc7/9/9/9/R8/9/3K5 w - - 0 1", "", "a3b3 f10f9 b3a3 f9f10", false,
                  false);
}

// Both sides chase at once (each chariot shuttles along the file of the other's cannon); Black
// shuttling off the file leaves Red alone chasing.
static void test_both_sides(void **state) {
    (void)state;
    const char *fen = "5k3/8r/9/c8/9/9/8C/R8/9/3K5 w - - 0 1";
    expect_chases(fen, "", "a3a2 i9i8 a2a3 i8i9", true, true);
    expect_chases(fen, "", "a3a2 i9h9 a2a3 h9i9", true, false);
}

// An uncovered attack chases: the horse's step back to e4 gives the cannon on e1 its screen
// against the elephant on e8.
static void test_uncovered(void **state) {
    (void)state;
    expect_chases("5k3/9/4b4/9/9/9/4N4/9/9/3KC4 w - - 0 1", "", "e4d6 f10f9 d6e4 f9f10", true,
                  false);
}

// A pass (the search's null move) attacks nothing: Red's chariot on b3 attacks the cannon on b7
// throughout, but a side that passes in the cycle chases nothing; the chariot shuttling b3-b2-b3
// chases.
static void test_pass_chases_nothing(void **state) {
    (void)state;
    const char *fen = "5k3/9/9/1c7/9/9/9/1R7/9/3K5 w - - 0 1";
    expect_chases(fen, "", "pass f10f9 pass f9f10", false, false);
    expect_chases(fen, "", "b3b2 f10f9 b2b3 f9f10", true, false);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chariot_chases),      cmocka_unit_test(test_protected),
        cmocka_unit_test(test_pinned_protector),    cmocka_unit_test(test_not_same_piece),
        cmocka_unit_test(test_both_sides),          cmocka_unit_test(test_uncovered),
        cmocka_unit_test(test_pass_chases_nothing),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
