// SPDX-License-Identifier: MIT
// Xiangqi's end of the game (docs/rules-xiangqi.md): the cases of tests/oracle/cases_xiangqi.md,
// then each end rule hit and just missed: perpetual check and perpetual chase from both sides
// (by a chariot, a soldier, the general), a chase of a protected piece, protection judged by a
// legal recapture (a pinned defender, the flying general), both sides offending, stalemate,
// the flying general with one blocker, too little material, and the capture-free limit.
// Positions and moves are written out by hand from the rules page.
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
#include "oracle_util.h"
#include "perft.h"
#include "rules.h"
#include "rules_expect.h"
#include "status.h"
#include "variant.h"

static Board board; // a Board is large: keep it off the stack

static void load_variant(const Variant *v, const char *fen) {
    ErrorInfo err = {{0}};
    if (fen_parse_variant(&board, v, fen, &err) != STATUS_OK)
        fail_msg("xiangqi FEN '%s' refused: %s", fen, err.msg);
}

static void load(const char *fen) { load_variant(&VARIANT_XIANGQI, fen); }

// Plays moves one by one; the game must go on after each.
static void play_going(const char *moves) {
    for (const char *p = moves; *p;) {
        char one[16];
        size_t len = strcspn(p, " ");
        snprintf(one, sizeof one, "%.*s", (int)len, p);
        test_play(&board, one); // test_play() uses strtok(): one move at a time
        expect_going(&board);
        p += len + (p[len] == ' ');
    }
}

// Plays a 4-ply cycle twice: the position of the start occurs for the third time at its end,
// and not before (the game goes on after each earlier ply).
static void play_cycle_twice(const char *cycle) {
    char moves[256];
    snprintf(moves, sizeof moves, "%s %s", cycle, cycle);
    char *last = strrchr(moves, ' ');
    *last = '\0';
    play_going(moves);
    test_play(&board, last + 1);
}

// ---------------------------------------------------------------------------------------
// The cases of tests/oracle/cases_xiangqi.md

// X01: Red checks with every move while the position repeats: perpetual check, Red loses.
static void test_x01_perpetual_check(void **state) {
    (void)state;
    load("4k4/8R/9/9/9/9/9/9/9/rrBA1K3 w - - 0 1");
    assert_int_equal(movegen_count_legal(&board), 21);
    play_cycle_twice("i9i10 e10e9 i10i9 e9e10");
    expect_over(&board, REASON_PERPETUAL_CHECK, HAN, -1, -1);
    int loser;
    assert_int_equal(rules_end_reason(&board, &loser), REASON_PERPETUAL_CHECK);
    assert_int_equal(loser, CHO);
}

// X02: exactly 4 legal moves; the soldier may not step off the file between the generals.
static void test_x02_flying_general(void **state) {
    (void)state;
    load("4k4/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1");
    expect_legal_moves(&board, "e6e7 e1d1 e1f1 e1e2");
    expect_move_refused(&board, "e6d6", STATUS_ILLEGAL);
    expect_move_refused(&board, "e6f6", STATUS_ILLEGAL);
}

static void expect_perft(const char *fen, const uint64_t *want, int depths) {
    load(fen);
    for (int d = 1; d <= depths; d++)
        if (perft(&board, d) != want[d - 1])
            fail_msg("%s depth %d: %llu, expected %llu", fen, d,
                     (unsigned long long)perft(&board, d), (unsigned long long)want[d - 1]);
}

// X03: perft from the start 44, 1920, 79666, 3290240, 133312995 (depth 5 in the slow build).
static void test_x03_start_perft(void **state) {
    (void)state;
    static const uint64_t want[] = {44, 1920, 79666, 3290240, 133312995};
#ifdef XIANGQI_RULES_SLOW
    expect_perft(VARIANT_XIANGQI.start_fen, want, 5);
#else
    expect_perft(VARIANT_XIANGQI.start_fen, want, 4);
#endif
}

// X04: perft 1-4 of a middle-game position: 38, 1128, 43929, 1339047.
static void test_x04_perft(void **state) {
    (void)state;
    static const uint64_t want[] = {38, 1128, 43929, 1339047};
    expect_perft("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1", want, 4);
}

// ---------------------------------------------------------------------------------------
// Perpetual check

// Black checks with every move (X01 mirrored): Black loses.
static void test_perpetual_check_black(void **state) {
    (void)state;
    load("RRba1k3/9/9/9/9/9/9/9/8r/4K4 b - - 0 1");
    play_cycle_twice("i2i1 e1e2 i1i2 e2e1");
    expect_over(&board, REASON_PERPETUAL_CHECK, CHO, -1, -1);
}

// Just missed: one of Red's moves in the cycle (i9i8) gives no check: a plain repetition, drawn.
static void test_perpetual_check_missed(void **state) {
    (void)state;
    load("4k4/8R/9/9/9/9/9/9/9/rrBA1K3 w - - 0 1");
    play_cycle_twice("i9i8 e10e9 i8i9 e9e10");
    expect_drawn(&board, REASON_REPETITION);
    int loser;
    assert_int_equal(rules_end_reason(&board, &loser), REASON_REPETITION);
    assert_int_equal(loser, RULES_DRAW);
}

// ---------------------------------------------------------------------------------------
// Perpetual chase

// Red's chariot follows Black's unprotected cannon (b7, a7, b7...), attacking it after every
// move: Red loses.
static void test_chase_red(void **state) {
    (void)state;
    load("5k3/9/9/1c7/9/9/9/R8/9/3K5 w - - 0 1");
    play_cycle_twice("a3b3 b7a7 b3a3 a7b7");
    expect_over(&board, REASON_PERPETUAL_CHASE, HAN, -1, -1);
    int loser;
    assert_int_equal(rules_end_reason(&board, &loser), REASON_PERPETUAL_CHASE);
    assert_int_equal(loser, CHO);
}

// The same, mirrored: Black's chariot chases Red's cannon; Black loses.
static void test_chase_black(void **state) {
    (void)state;
    load("3k5/9/r8/9/9/9/1C7/9/9/5K3 b - - 0 1");
    play_cycle_twice("a8b8 b4a4 b8a8 a4b4");
    expect_over(&board, REASON_PERPETUAL_CHASE, CHO, -1, -1);
}

// A chase of a protected piece is allowed: Black's chariot on i7 would take back on b7 or a7.
// Drawn by repetition.
static void test_chase_protected(void **state) {
    (void)state;
    load("5k3/9/9/1c6r/9/9/9/R8/9/3K5 w - - 0 1");
    play_cycle_twice("a3b3 b7a7 b3a3 a7b7");
    expect_drawn(&board, REASON_REPETITION);
}

// Protection is a legal recapture: the chariot on f7 guards rank 7 but is pinned to its general
// by the chariot on f2, so the cannon is unprotected and Red's chase loses.
static void test_chase_pinned_defender(void **state) {
    (void)state;
    load("5k3/9/9/1c3r3/9/9/9/R8/5R3/3K5 w - - 0 1");
    play_cycle_twice("a3b3 b7a7 b3a3 a7b7");
    expect_over(&board, REASON_PERPETUAL_CHASE, HAN, -1, -1);
}

// The flying general: Black's horse on d9 is guarded only by its general, which may not take
// back on d9 with Red's general on the open d-file; Red's chariot, moving h9-i9-h9 along rank 9,
// attacks it after every move and loses. With Red's general on e1 the recapture is legal: the
// horse is protected and the repetition is drawn.
static void test_chase_flying_general(void **state) {
    (void)state;
    load("2bk5/3n3R1/9/9/9/9/9/9/9/3K5 w - - 0 1");
    play_cycle_twice("h9i9 c10a8 i9h9 a8c10");
    expect_over(&board, REASON_PERPETUAL_CHASE, HAN, -1, -1);
    load("2bk5/3n3R1/9/9/9/9/9/9/9/4K4 w - - 0 1");
    play_cycle_twice("h9i9 c10a8 i9h9 a8c10");
    expect_drawn(&board, REASON_REPETITION);
}

// "The same piece": Red's chariot attacks an unprotected cannon after every move, but a7's
// after one and b7's after the other; no one piece is chased: drawn.
static void test_chase_not_same_piece(void **state) {
    (void)state;
    load("5k3/9/9/cc7/9/9/9/R8/9/3K5 w - - 0 1");
    play_cycle_twice("a3b3 f10f9 b3a3 f9f10");
    expect_drawn(&board, REASON_REPETITION);
}

// A soldier chases too (no exception on our page): the red soldier steps c6-d6-c6 under the
// cannon that runs d7-c7-d7. Red loses.
static void test_chase_by_soldier(void **state) {
    (void)state;
    load("5k3/9/9/3c5/2P6/9/9/9/9/4K4 w - - 0 1");
    play_cycle_twice("c6d6 d7c7 d6c6 c7d7");
    expect_over(&board, REASON_PERPETUAL_CHASE, HAN, -1, -1);
}

// So does the general: Red's general follows the black soldier along rank 1. Red loses.
static void test_chase_by_general(void **state) {
    (void)state;
    load("5k3/9/9/9/9/9/9/9/4K4/3p5 w - - 0 1");
    play_cycle_twice("e2d2 d1e1 d2e2 e1d1");
    expect_over(&board, REASON_PERPETUAL_CHASE, HAN, -1, -1);
}

// An uncovered attack chases: the horse steps e4-d6 (attacking the unprotected elephant on e8
// itself) and back to e4, where it attacks nothing but gives the cannon on e1 its screen.
// Every one of Red's moves chases the elephant: Red loses.
static void test_chase_uncovered(void **state) {
    (void)state;
    load("5k3/9/4b4/9/9/9/4N4/9/9/3KC4 w - - 0 1");
    play_cycle_twice("e4d6 f10f9 d6e4 f9f10");
    expect_over(&board, REASON_PERPETUAL_CHASE, HAN, -1, -1);
}

// A check counts toward a chase when it also attacks the piece: the chariot goes c8-c10 (check,
// and the cannon on c5 attacked down the file) and back to c8 (the cannon attacked): a chase,
// Red loses. Just missed: it checks from f8 instead, away from the cannon: neither perpetual
// check nor chase, drawn.
static void test_chase_with_check(void **state) {
    (void)state;
    load("5k3/9/2R6/9/9/2c6/9/9/9/3K5 w - - 0 1");
    play_cycle_twice("c8c10 f10f9 c10c8 f9f10");
    expect_over(&board, REASON_PERPETUAL_CHASE, HAN, -1, -1);
    load("5k3/9/2R6/9/9/2c6/9/9/9/3K5 w - - 0 1");
    play_cycle_twice("c8f8 f10e10 f8c8 e10f10");
    expect_drawn(&board, REASON_REPETITION);
}

// Both sides chase (Red's chariot the cannon on a7, Black's chariot the cannon on i4, each
// moving its chariot along the file, neither guarding the other's victim): both offend, drawn.
static void test_chase_both_sides(void **state) {
    (void)state;
    load("5k3/8r/9/c8/9/9/8C/R8/9/3K5 w - - 0 1");
    play_cycle_twice("a3a2 i9i8 a2a3 i8i9");
    expect_drawn(&board, REASON_REPETITION);
    // Just missed: Black's chariot shuttles i9-h9, off the cannon's file: Red alone chases.
    load("5k3/8r/9/c8/9/9/8C/R8/9/3K5 w - - 0 1");
    play_cycle_twice("a3a2 i9h9 a2a3 h9i9");
    expect_over(&board, REASON_PERPETUAL_CHASE, HAN, -1, -1);
    // And the other way round: Red's chariot leaves the a-file, Black alone chases.
    load("5k3/8r/9/c8/9/9/8C/R8/9/3K5 w - - 0 1");
    play_cycle_twice("a3b3 i9i8 b3a3 i8i9");
    expect_over(&board, REASON_PERPETUAL_CHASE, CHO, -1, -1);
}

// ---------------------------------------------------------------------------------------
// Stalemate, flying general, material, capture-free limit

// Black's general on d10 is not in check and has no move: d9 is on the chariot's rank, e10 on
// the red general's open file. Stalemate: Black loses. Just missed: the chariot one rank lower.
static void test_stalemate(void **state) {
    (void)state;
    load("3k5/8R/9/9/9/9/9/9/9/4K4 b - - 0 1");
    assert_false(board_in_check(&board));
    expect_over(&board, REASON_STALEMATE, CHO, -1, -1);
    load("3k5/9/8R/9/9/9/9/9/9/4K4 b - - 0 1");
    expect_legal_moves(&board, "d10d9");
    expect_going(&board);
}

// The one piece between the generals (an elephant on e3) may not leave the file: only the
// general moves. Just missed: with a second blocker (a black soldier on e7) it may. A general
// may not step onto the open file either.
static void test_facing_one_blocker(void **state) {
    (void)state;
    load("4k4/9/9/9/9/9/9/4B4/9/4K4 w - - 0 1");
    expect_legal_moves(&board, "e1d1 e1e2 e1f1");
    expect_move_refused(&board, "e3c5", STATUS_ILLEGAL);
    expect_move_refused(&board, "e3g1", STATUS_ILLEGAL);
    load("4k4/9/9/4p4/9/9/9/4B4/9/4K4 w - - 0 1");
    expect_legal_moves(&board, "e1d1 e1e2 e1f1 e3c1 e3g1 e3c5 e3g5");
    load("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    expect_legal_moves(&board, "d1d2");
    expect_move_refused(&board, "d1e1", STATUS_ILLEGAL);
}

// Generals, advisors and elephants only: drawn at once. One soldier more: the game goes on.
// A capture that takes the last such piece draws.
static void test_insufficient_material(void **state) {
    (void)state;
    load("3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3K5 w - - 0 1");
    assert_true(rules_material_insufficient(&board));
    expect_drawn(&board, REASON_MATERIAL);
    load("3ak4/4a4/4b4/9/9/9/P8/4B4/4A4/3K5 w - - 0 1");
    assert_false(rules_material_insufficient(&board));
    expect_going(&board);
    load("5k3/9/9/9/9/9/9/3p5/4A4/3K5 w - - 0 1");
    expect_going(&board);
    test_play(&board, "e2d3");
    expect_drawn(&board, REASON_MATERIAL);
    // Each attacking kind alone keeps the game going.
    static const char *const one_more[] = {
        "3k5/9/9/9/9/9/9/9/9/4KR3 w - - 0 1", "3k5/9/9/9/9/9/9/9/9/4KC3 w - - 0 1",
        "3k5/9/9/9/9/9/9/9/9/4KN3 w - - 0 1", "3k5/9/9/9/9/9/P8/9/9/4K4 w - - 0 1",
        "3k5/9/9/9/9/9/9/9/9/n3K4 w - - 0 1"};
    for (size_t i = 0; i < sizeof one_more / sizeof one_more[0]; i++) {
        load(one_more[i]);
        expect_going(&board);
    }
}

// The capture-free limit of a variant set to 10 plies: going after 9, drawn after 10; a
// capture starts the count again.
static void test_no_capture_limit_short(void **state) {
    (void)state;
    static Variant ten;
    ten = VARIANT_XIANGQI;
    ten.no_capture_limit = 10;
    load_variant(&ten, VARIANT_XIANGQI.start_fen);
    play_going("b1c3 b10c8 h1g3 h10g8 a1a2 a10a9 i1i2 i10i9 a2d2");
    test_play(&board, "a9d9");
    expect_drawn(&board, REASON_NO_CAPTURE);
    load_variant(&ten, VARIANT_XIANGQI.start_fen);
    play_going("h3h10 i10h10 b1c3 b10c8 a1a2 a10a9 i1i2 h10i10 a2d2 a9d9 i2f2");
    test_play(&board, "d9d8");
    expect_drawn(&board, REASON_NO_CAPTURE);
}

// The FEN's halfmove clock counts plies since the last capture only (Fairy-Stockfish's xiangqi:
// a soldier move does not restart it), and the capture-free limit counts it: from a FEN at 298,
// a soldier move goes on (299, written back so) and the next ply draws.
static void test_halfmove_clock(void **state) {
    (void)state;
    char fen[FEN_BUFFER];
    load("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 298 150");
    test_play(&board, "e4e5");
    expect_going(&board);
    fen_write(&board, fen, sizeof fen);
    assert_string_equal(
        fen, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/4P4/P1P3P1P/1C5C1/9/RNBAKABNR b - - 299 150");
    test_play(&board, "e7e6");
    expect_drawn(&board, REASON_NO_CAPTURE);
    // A capture restarts it: the cannon takes the horse on h10.
    load("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 298 150");
    test_play(&board, "h3h10");
    fen_write(&board, fen, sizeof fen);
    assert_string_equal(fen,
                        "rnbakabCr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 0 150");
    play_going("e7e6");
}

// The default limit, 300 plies: a game of quiet moves (seeded random, none ending the game)
// goes on after 299 and is drawn after 300.
static void test_no_capture_limit_300(void **state) {
    (void)state;
    assert_int_equal(VARIANT_XIANGQI.no_capture_limit, 300);
    load(VARIANT_XIANGQI.start_fen);
    uint64_t rng = 300;
    for (int ply = 0; ply < 300; ply++) {
        MoveList list;
        movegen_legal(&board, &list);
        int n = list.count, start = (int)(test_rng_next(&rng) % (uint64_t)n), i = 0;
        for (; i < n; i++) {
            Move m = list.moves[(start + i) % n];
            if (board_at(&board, move_to(m)) != EMPTY)
                continue;
            board_make(&board, m);
            GameResult r;
            bool over = rules_game_over(&board, &r);
            if (ply < 299 ? !over : over && r.reason == REASON_NO_CAPTURE)
                break;
            board_unmake(&board);
        }
        if (i == n)
            fail_msg("ply %d: no quiet move that fits", ply);
        if (ply == 298)
            expect_going(&board);
    }
    assert_int_equal(board_state(&board)->since_capture, 300);
    expect_drawn(&board, REASON_NO_CAPTURE);
}

// The end rules each asked directly, in xiangqi's order, without rules_end_reason()'s quick
// test; the repetition's three outcomes are one family here.
static EndReason reference_end(const Board *b) {
    if ((board_state(b)->captured != EMPTY || b->nstates == 1) && rules_material_insufficient(b))
        return REASON_MATERIAL;
    if (rules_repetition_start(b) >= 0)
        return REASON_REPETITION;
    if (board_state(b)->since_capture >= b->variant->no_capture_limit)
        return REASON_NO_CAPTURE;
    return REASON_NONE;
}

// Along seeded random games from sparse positions, where each side often plays back its last
// move (so that positions repeat, with checks and chases): rules_end_reason() agrees with the
// rules asked directly, and rules_game_over()'s result with the reason (a draw has no loser;
// perpetual check and chase have one).
static void test_random_games_end_rules(void **state) {
    (void)state;
    static const char *const starts[] = {
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "3akab2/9/4b4/p3p1r2/9/2n6/P3P4/4C4/4A4/2BAK1BR1 w - - 0 1",
        "4k4/4a4/9/9/2c6/9/9/6N2/4A4/3K1R3 w - - 0 1",
        "2bk5/9/3a5/9/9/9/9/4B4/9/3AKC3 w - - 0 1",
    };
    int ends[REASON_NB] = {0};
    uint64_t rng = 2026;
    for (int game = 0; game < 120; game++) {
        load(starts[game % 4]);
        for (int ply = 0; ply < 400; ply++) {
            int loser;
            EndReason got = rules_end_reason(&board, &loser), want = reference_end(&board);
            bool family = got == REASON_PERPETUAL_CHECK || got == REASON_PERPETUAL_CHASE;
            if ((family ? REASON_REPETITION : got) != want)
                fail_msg("game %d ply %d: %s, the rules asked directly say %s", game, ply,
                         rules_reason_name(got), rules_reason_name(want));
            if (family)
                assert_true(loser == CHO || loser == HAN);
            else
                assert_int_equal(loser, got == REASON_NONE ? RULES_BY_POINTS : RULES_DRAW);
            GameResult r;
            if (rules_game_over(&board, &r)) {
                ends[r.reason]++;
                assert_int_equal(r.draw, !family && r.reason != REASON_CHECKMATE &&
                                             r.reason != REASON_STALEMATE);
                if (family)
                    assert_int_equal(r.winner, !loser);
                break;
            }
            // One time in three, the side plays back its last move when it may.
            Move back = board.nstates > 2 ? board.states[board.nstates - 2].move : MOVE_NONE;
            back = back ? move_make(move_to(back), move_from(back)) : MOVE_NONE;
            MoveList list;
            movegen_legal(&board, &list);
            Move m = list.moves[test_rng_next(&rng) % (uint64_t)list.count];
            bool play_back = test_rng_next(&rng) % 3 == 0;
            for (int i = 0; i < list.count && play_back; i++)
                if (list.moves[i] == back)
                    m = back;
            board_make(&board, m);
        }
    }
    print_message("ends: repetition %d, perpetual-check %d, perpetual-chase %d, material %d, "
                  "no-capture %d, checkmate %d, stalemate %d\n",
                  ends[REASON_REPETITION], ends[REASON_PERPETUAL_CHECK],
                  ends[REASON_PERPETUAL_CHASE], ends[REASON_MATERIAL], ends[REASON_NO_CAPTURE],
                  ends[REASON_CHECKMATE], ends[REASON_STALEMATE]);
    assert_true(ends[REASON_REPETITION] > 0);
    assert_true(ends[REASON_PERPETUAL_CHECK] + ends[REASON_PERPETUAL_CHASE] > 0);
}

// The reasons' names, appended after janggi's codes (which keep their numbers).
static void test_reason_names(void **state) {
    (void)state;
    assert_int_equal(REASON_PERPETUAL_CHASE, REASON_STALEMATE + 1);
    assert_string_equal(rules_reason_name(REASON_PERPETUAL_CHASE), "perpetual-chase");
    assert_string_equal(rules_reason_name(REASON_MATERIAL), "insufficient-material");
    assert_string_equal(rules_reason_name(REASON_NO_CAPTURE), "no-capture");
    for (int r = REASON_PERPETUAL_CHASE; r < REASON_NB; r++)
        assert_int_equal(rules_reason_parse(rules_reason_name((EndReason)r)), r);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_x01_perpetual_check),
        cmocka_unit_test(test_x02_flying_general),
        cmocka_unit_test(test_x03_start_perft),
        cmocka_unit_test(test_x04_perft),
        cmocka_unit_test(test_perpetual_check_black),
        cmocka_unit_test(test_perpetual_check_missed),
        cmocka_unit_test(test_chase_red),
        cmocka_unit_test(test_chase_black),
        cmocka_unit_test(test_chase_protected),
        cmocka_unit_test(test_chase_pinned_defender),
        cmocka_unit_test(test_chase_flying_general),
        cmocka_unit_test(test_chase_not_same_piece),
        cmocka_unit_test(test_chase_by_soldier),
        cmocka_unit_test(test_chase_by_general),
        cmocka_unit_test(test_chase_uncovered),
        cmocka_unit_test(test_chase_with_check),
        cmocka_unit_test(test_chase_both_sides),
        cmocka_unit_test(test_stalemate),
        cmocka_unit_test(test_facing_one_blocker),
        cmocka_unit_test(test_insufficient_material),
        cmocka_unit_test(test_no_capture_limit_short),
        cmocka_unit_test(test_no_capture_limit_300),
        cmocka_unit_test(test_halfmove_clock),
        cmocka_unit_test(test_random_games_end_rules),
        cmocka_unit_test(test_reason_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
