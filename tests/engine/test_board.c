// SPDX-License-Identifier: MIT
// Board invariants along seeded random games from all 16 formation pairings: the incremental
// Zobrist key equals the key recomputed from scratch, make/unmake restores the exact position,
// FEN and move strings round-trip, and the special generators agree with movegen_legal.
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
#include "janggi/formation.h"
#include "movegen.h"
#include "notation.h"
#include "oracle_util.h"
#include "rules.h"

// Debug builds check the whole board after every make/unmake: fewer, shorter games there.
#ifdef NDEBUG
enum { GAMES_PER_PAIRING = 8, GAME_PLIES = 400 };
#else
enum { GAMES_PER_PAIRING = 2, GAME_PLIES = 220 };
#endif

static Board board, snapshot, reloaded;

static void fail_at(const Board *b, const char *what, const char *why) {
    char fen[FEN_BUFFER];
    fen_write(b, fen, sizeof fen);
    fail_msg("%s at %s: %s", what, fen, why ? why : "");
}

static bool list_contains(const MoveList *l, Move m) {
    for (int i = 0; i < l->count; i++)
        if (l->moves[i] == m)
            return true;
    return false;
}

// The key, the board's own consistency check, and the check flag.
static void check_state(Board *b) {
    char why[128] = "";
    if (board_key(b) != board_compute_key(b))
        fail_at(b, "incremental key differs from the recomputed key", NULL);
    if (!board_is_consistent(b, why, sizeof why))
        fail_at(b, "inconsistent board", why);
    if (board_in_check(b) != board_attacked(b, b->general[b->side], !b->side))
        fail_at(b, "check flag differs from board_attacked", NULL);
    if (board_state(b)->facing != board_generals_facing(b))
        fail_at(b, "facing flag differs from board_generals_facing", NULL);
}

// FEN written, read back and written again gives the same position and text.
static void check_fen_round_trip(Board *b) {
    char fen[FEN_BUFFER], again[FEN_BUFFER], why[160];
    ErrorInfo err;
    fen_write(b, fen, sizeof fen);
    if (fen_parse(&reloaded, fen, &err) != STATUS_OK)
        fail_at(b, "written FEN refused", err.msg);
    fen_write(&reloaded, again, sizeof again);
    assert_string_equal(fen, again);
    if (!test_boards_equal(b, &reloaded, why, sizeof why))
        fail_at(b, "FEN round trip", why);
    assert_int_equal(board_state(b)->halfmove, board_state(&reloaded)->halfmove);
}

// Every legal move: its string parses back to it; make/unmake restores the position.
static void check_moves(Board *b, const MoveList *legal) {
    char why[160];
    snapshot = *b;
    for (int i = 0; i < legal->count; i++) {
        Move m = legal->moves[i], back = MOVE_NONE;
        char s[MOVE_STR_LEN];
        ErrorInfo err;
        move_to_uci(m, s);
        if (move_parse_uci(b, s, &back, &err) != STATUS_OK || back != m)
            fail_at(b, s, "move string does not round-trip");
        assert_true(movegen_is_pseudo_legal(b, m));
        assert_true(movegen_is_legal(b, m));
        board_make(b, m);
        check_state(b);
        board_unmake(b);
        if (!test_boards_equal(&snapshot, b, why, sizeof why))
            fail_at(b, s, why);
    }
}

// Captures and evasions are the matching subsets of the legal moves.
static void check_generators(Board *b, const MoveList *legal) {
    MoveList caps, ev;
    movegen_captures(b, &caps);
    int ncap = 0;
    for (int i = 0; i < legal->count; i++) {
        Move m = legal->moves[i];
        if (!move_is_pass(m) && board_at(b, move_to(m)) != EMPTY) {
            ncap++;
            assert_true(list_contains(&caps, m));
        }
    }
    assert_int_equal(caps.count, ncap);
    assert_int_equal(movegen_count_legal(b), legal->count);
    assert_int_equal(movegen_has_legal(b), legal->count > 0);
    if (board_in_check(b)) {
        movegen_evasions(b, &ev);
        assert_int_equal(ev.count, legal->count);
        for (int i = 0; i < ev.count; i++)
            assert_true(list_contains(legal, ev.moves[i]));
    }
}

// Random 16-bit values: pseudo-legal exactly when in the pseudo-legal list or the pass.
static void check_pseudo_legal(Board *b, uint64_t *rng) {
    MoveList pseudo;
    movegen_pseudo(b, &pseudo, GEN_ALL);
    for (int i = 0; i < 32; i++) {
        Move m = (Move)test_rng_next(rng);
        if (i & 1) // a plausible move: a piece of the side to move, any target
            m = move_make(move_from(pseudo.moves[test_rng_next(rng) % (uint64_t)pseudo.count]),
                          (Square)(test_rng_next(rng) % SQUARE_NB));
        bool want = list_contains(&pseudo, m) ||
                    (m >> 14 == 0 && move_is_pass(m) && move_from(m) == b->general[b->side]);
        if (movegen_is_pseudo_legal(b, m) != want) {
            char why[64];
            snprintf(why, sizeof why, "move value 0x%04x: expected %d", m, want);
            fail_at(b, "movegen_is_pseudo_legal", why);
        }
    }
}

static void play_game(int pairing, uint64_t seed) {
    uint64_t rng = seed;
    formation_setup(&board, pairing_cho(pairing), pairing_han(pairing));
    static Board root;
    root = board;
    GameResult first_end = {0};
    int end_ply = -1;
    for (int ply = 0; ply < GAME_PLIES; ply++) {
        check_state(&board);
        check_fen_round_trip(&board);
        MoveList legal;
        movegen_legal(&board, &legal);
        check_moves(&board, &legal);
        check_generators(&board, &legal);
        if (legal.count > 0)
            check_pseudo_legal(&board, &rng);
        GameResult r;
        if (end_ply < 0 && rules_game_over(&board, &r))
            end_ply = ply, first_end = r;
        if (legal.count == 0)
            break; // checkmate
        board_make(&board, legal.moves[test_rng_next(&rng) % (uint64_t)legal.count]);
    }
    // Every game ends by ply 200 at the latest, with a board reason.
    // (Debug games may stop before ply 200 without an end.)
    assert_true(end_ply >= 0 || (int)GAME_PLIES <= (int)GAME_PLY_LIMIT);
    assert_true(end_ply <= GAME_PLY_LIMIT);
    if (end_ply >= 0)
        assert_true(first_end.reason >= REASON_CHECKMATE && first_end.reason <= REASON_MOVE_LIMIT);
    while (board.nstates > 1)
        board_unmake(&board);
    char why[160];
    if (!test_boards_equal(&root, &board, why, sizeof why))
        fail_at(&board, "unwinding the whole game", why);
}

static void test_random_games(void **state) {
    (void)state;
    for (int p = 0; p < PAIRING_NB; p++)
        for (int g = 0; g < GAMES_PER_PAIRING; g++)
            play_game(p, 0x5EED0000u + (uint64_t)(p * 100 + g));
}

// Random games without passes reach positions with many captures and checks.
static void test_random_games_no_pass(void **state) {
    (void)state;
    uint64_t rng = 42;
    for (int g = 0; g < 4 * GAMES_PER_PAIRING; g++) {
        test_load_fen(&board, FEN_START);
        for (int ply = 0; ply < GAME_PLIES; ply++) {
            MoveList legal;
            movegen_pseudo(&board, &legal, GEN_ALL);
            movegen_legal(&board, &legal);
            int n = 0;
            for (int i = 0; i < legal.count; i++)
                if (!move_is_pass(legal.moves[i]))
                    legal.moves[n++] = legal.moves[i];
            legal.count = n;
            if (n == 0)
                break;
            check_state(&board);
            check_fen_round_trip(&board);
            check_moves(&board, &legal);
            board_make(&board, legal.moves[test_rng_next(&rng) % (uint64_t)n]);
        }
    }
}

// The check flag after a move tests only what the move changed, which holds when the enemy
// general was not attacked before it. A set-up may break that (the FEN refuses it, a decoded
// or hand-built board need not): with Han's general attacked by a chariot and Cho to move, a
// soldier's step far from every line of the general must leave Han in check; so must every
// move after it that leaves the chariot where it stands.
static void test_check_flag_after_exposed_setup(void **state) {
    (void)state;
    board_clear(&board);
    board_put(&board, piece_make(CHO, GENERAL), square_make(4, 1)); // e2
    board_put(&board, piece_make(HAN, GENERAL), square_make(3, 8)); // d9
    board_put(&board, piece_make(CHO, CHARIOT), square_make(0, 8)); // a9, on d9's rank
    board_put(&board, piece_make(CHO, SOLDIER), square_make(8, 3)); // i4
    board_put(&board, piece_make(HAN, SOLDIER), square_make(8, 6)); // i7
    board_finish_setup(&board, CHO, 0, 0);
    assert_false(board_in_check(&board));
    assert_true(board_state(&board)->exposed);
    Move step = move_make(square_make(8, 3), square_make(8, 4)); // i4-i5
    MoveList legal;
    movegen_legal(&board, &legal);
    assert_true(list_contains(&legal, step));
    board_make(&board, step);
    assert_true(board_in_check(&board));
    assert_false(board_state(&board)->exposed);
    check_state(&board);
    board_unmake(&board);
    // Cho's pass there leaves Han's general attacked too.
    board_make(&board, move_make(square_make(4, 1), square_make(4, 1)));
    assert_true(board_in_check(&board));
    check_state(&board);
    board_unmake(&board);
    // Without the flag (a legal game's position), the same step from a position where Han's
    // general is not attacked gives no check: the chariot moved off the rank.
    board_clear(&board);
    board_put(&board, piece_make(CHO, GENERAL), square_make(4, 1));
    board_put(&board, piece_make(HAN, GENERAL), square_make(3, 8));
    board_put(&board, piece_make(CHO, CHARIOT), square_make(0, 6)); // a7
    board_put(&board, piece_make(CHO, SOLDIER), square_make(8, 3));
    board_put(&board, piece_make(HAN, SOLDIER), square_make(8, 6));
    board_finish_setup(&board, CHO, 0, 0);
    assert_false(board_state(&board)->exposed);
    board_make(&board, step);
    assert_false(board_in_check(&board));
    check_state(&board);
    // A discovered line: the chariot's move onto d9's rank checks through the line of `to`.
    board_unmake(&board);
    board_make(&board, move_make(square_make(0, 6), square_make(0, 8)));
    assert_true(board_in_check(&board));
    check_state(&board);
    // A pass in check (the chase rule's replay passes so, chase.c) leaves the passer's general
    // attacked: Han passes, Cho steps its soldier far from every line, Han is still in check.
    board_make(&board, move_make(square_make(3, 8), square_make(3, 8)));
    assert_false(board_in_check(&board));
    assert_true(board_state(&board)->exposed);
    board_make(&board, step);
    assert_true(board_in_check(&board));
    check_state(&board);
}

// formation_setup() gives the FEN of each pairing row of the perft oracle.
static void test_formations_match_oracle(void **state) {
    (void)state;
    Tsv t;
    oracle_load(&t, "perft_janggi.tsv");
    int seen = 0;
    for (int i = 0; i < t.count; i++) {
        const TsvRow *r = &t.rows[i];
        char cho[32], han[32];
        if (strcmp(r->field[3], "1") != 0 ||
            sscanf(r->field[0], "cho=%31[a-z-],han=%31[a-z-]", cho, han) != 2)
            continue;
        Formation fc, fh;
        ErrorInfo err;
        assert_int_equal(formation_parse(cho, &fc, &err), STATUS_OK);
        assert_int_equal(formation_parse(han, &fh, &err), STATUS_OK);
        assert_string_equal(formation_name(fc), cho);
        formation_setup(&board, fc, fh);
        char fen[FEN_BUFFER];
        fen_write(&board, fen, sizeof fen);
        assert_string_equal(fen, r->field[2]);
        seen |= 1 << pairing_index(fc, fh);
    }
    tsv_free(&t);
    assert_int_equal(seen, (1 << PAIRING_NB) - 1);
    ErrorInfo err;
    Formation f;
    assert_int_equal(formation_parse("ma-ma-sang-sang", &f, &err), STATUS_SYNTAX);
    assert_true(err.msg[0] != '\0');
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_formations_match_oracle),
        cmocka_unit_test(test_check_flag_after_exposed_setup),
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_random_games_no_pass),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
