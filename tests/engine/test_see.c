// SPDX-License-Identifier: MIT
// Static exchange evaluation (engine/see.h) on hand-made janggi positions (a cannon without a
// screen, a capture that removes the only screen of an enemy cannon, a horse leg blocked, a
// cannon that may not take a cannon, defended and undefended pieces, a chariot trade on a
// palace diagonal, a general's recapture along palace lines and into an attacked point), and
// against a brute-force minimax over the legal captures on the target point, made with the
// move generator and board_make, for every capture of many random self-play positions; and the
// same for xiangqi (its cannon over any screen and onto a cannon, the advisor's diagonal steps,
// the general's orthogonal ones, a recapture made illegal by the flying-general rule).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "board.h"
#include "engine.h"
#include "fen.h"
#include "movegen.h"
#include "notation.h"
#include "rules.h"
#include "see.h"
#include "variant.h"

static int value(const Board *b, Piece pc) { return b->variant->exchange_half[piece_kind(pc)]; }

// The most the side to move gains by capturing on `to` (0 when it had better stop): every
// legal capture there is tried, and the opponent's best answer subtracted.
static int brute_gain(Board *b, Square to) {
    MoveList l;
    movegen_captures(b, &l);
    int best = 0;
    for (int i = 0; i < l.count; i++) {
        Move m = l.moves[i];
        if (move_to(m) != to)
            continue;
        int v = value(b, b->squares[to]);
        board_make(b, m);
        v -= brute_gain(b, to);
        board_unmake(b);
        if (v > best)
            best = v;
    }
    return best;
}

static int brute_see(Board *b, Move m) {
    int v = value(b, b->squares[move_to(m)]);
    board_make(b, m);
    v -= brute_gain(b, move_to(m));
    board_unmake(b);
    return v;
}

// Loads fen as a position of variant, plays nothing, and checks that see_ge agrees with the brute
// force around its value; returns the SEE of move (a legal capture).
static int see_of_variant(const Variant *variant, const char *fen, const char *move) {
    static Board b;
    ErrorInfo err;
    Move m;
    if (fen_parse_variant(&b, variant, fen, &err) != STATUS_OK ||
        move_parse_uci(&b, move, &m, &err) != STATUS_OK)
        fail_msg("%s %s: %s", fen, move, err.msg);
    int v = brute_see(&b, m);
    assert_true(see_ge(&b, m, v));
    assert_false(see_ge(&b, m, v + 1));
    assert_int_equal(see_value(&b, m), v);
    char after[FEN_BUFFER];
    fen_write(&b, after, sizeof after);
    assert_string_equal(after, fen); // the board is restored
    return v;
}

static int see_of(const char *fen, const char *move) {
    return see_of_variant(&VARIANT_JANGGI, fen, move);
}

static int see_xq(const char *fen, const char *move) {
    return see_of_variant(&VARIANT_XIANGQI, fen, move);
}

static void test_hand_made(void **state) {
    (void)state;
    // A cannon behind the soldier has no screen once the chariot takes it; a chariot there does.
    assert_int_equal(see_of("9/2c1k4/9/9/9/2p6/9/9/4K4/2R6 w - - 0 1", "c1c5"), 4);
    assert_int_equal(see_of("9/2r1k4/9/9/9/2p6/9/9/4K4/2R6 w - - 0 1", "c1c5"), 4 - 26);
    // The chariot on a7 is the only screen of the cannon on a10: taking with it removes the
    // screen; taking from the side leaves the soldier as the screen.
    assert_int_equal(see_of("c8/4k4/9/R8/9/n8/9/9/4K4/9 w - - 0 1", "a7a5"), 10);
    assert_int_equal(see_of("c8/4k4/9/P8/9/n1R6/9/9/4K4/9 w - - 0 1", "c5a5"), 10 - 26);
    // The horse on d8 defends c6 through its leg d7, unless the leg is blocked.
    assert_int_equal(see_of("9/4k4/3n5/9/R1p6/9/9/9/4K4/9 w - - 0 1", "a6c6"), 4 - 26);
    assert_int_equal(see_of("9/4k4/3n5/3p5/R1p6/9/9/9/4K4/9 w - - 0 1", "a6c6"), 4);
    // A cannon never takes a cannon: the cannon on a10 answers a chariot, not a cannon.
    assert_int_equal(see_of("c8/4k4/p8/9/n8/9/9/N8/4K4/C8 w - - 0 1", "a1a6"), 10);
    assert_int_equal(see_of("c8/4k4/p8/9/n8/R8/9/9/4K4/9 w - - 0 1", "a5a6"), 10 - 26);
    // Undefended and defended by a soldier.
    assert_int_equal(see_of("9/4k4/9/9/9/2n6/9/9/4K4/2R6 w - - 0 1", "c1c5"), 10);
    assert_int_equal(see_of("9/4k4/9/9/2p6/2n6/9/9/4K4/2R6 w - - 0 1", "c1c5"), 10 - 26);
    // A chariot trade on the palace diagonal f8-e9-d10, the general taking back along the
    // back rank, or a guard; not when another chariot guards d10.
    assert_int_equal(see_of("3rk4/9/5R3/9/9/9/9/9/3K5/9 w - - 0 1", "f8d10"), 0);
    assert_int_equal(see_of("3rk4/3a5/5R3/9/9/9/9/9/3K5/9 w - - 0 1", "f8d10"), 0);
    assert_int_equal(see_of("3rk4/9/5R3/9/9/9/9/3R5/3K5/9 w - - 0 1", "f8d10"), 26);
    // The general takes only along palace lines: not from d9 to e8, but from e9.
    assert_int_equal(see_of("9/3k5/4n4/9/9/9/9/4R4/9/3K5 w - - 0 1", "e3e8"), 10);
    assert_int_equal(see_of("9/4k4/4n4/9/9/9/9/4R4/9/3K5 w - - 0 1", "e3e8"), 10 - 26);
    // Found by the random test: the horse on e4 may not take back, pinned by the cannon on e8
    // (the guard on e2 its one screen then); the cannon on b6 takes on b4 over its own chariot.
    assert_int_equal(see_of("2n2a1b1/4a4/4ck3/2p2p3/5P3/8P/2P1N4/RC7/4A4/4KAN2 b - - 0 20", "f7f6"),
                     4);
    assert_int_equal(see_of("3ka1b2/9/9/3bp4/1c4p2/1r1p5/PP5R1/7N1/4Kn3/R3A4 b - - 4 24", "d7b4"),
                     2);
}

// Xiangqi values (Variant.exchange_half): chariot 18, cannon 9, horse 8, advisor 4, soldier 2.
static void test_xiangqi_cannon(void **state) {
    (void)state;
    // The cannon on c9 defends c6 over a cannon screen on c8, Black's or Red's.
    assert_int_equal(see_xq("5k3/2c6/2c6/9/R1n6/9/9/9/9/3K5 w - - 0 1", "a6c6"), 8 - 18);
    assert_int_equal(see_xq("5k3/2c6/2C6/9/R1n6/9/9/9/9/3K5 w - - 0 1", "a6c6"), 8 - 18);
    // Cannon takes cannon: Red's cannon takes the horse on c6 over the soldier on c4, and
    // Black's cannon on c9 takes it back over the horse on c8.
    assert_int_equal(see_xq("5k3/2c6/2n6/9/2n6/9/2P6/9/9/2CK5 w - - 0 1", "c1c6"), 8 - 9);
    // Without the screen on c8 nothing takes back.
    assert_int_equal(see_xq("5k3/2c6/9/9/2n6/9/2P6/9/9/2CK5 w - - 0 1", "c1c6"), 8);
}

static void test_xiangqi_palace(void **state) {
    (void)state;
    // The advisor takes diagonally: from d10 on e9, not from e9 on e8.
    assert_int_equal(see_xq("3a1k3/4n4/9/9/9/9/9/4R4/9/3K5 w - - 0 1", "e3e9"), 8 - 18);
    assert_int_equal(see_xq("5k3/4a4/4n4/9/9/9/9/4R4/9/3K5 w - - 0 1", "e3e8"), 8);
    // The general takes orthogonally: from e10 on e9, not from the corner d10.
    assert_int_equal(see_xq("4k4/4n4/9/9/9/9/9/4R4/9/3K5 w - - 0 1", "e3e9"), 8 - 18);
    assert_int_equal(see_xq("3k5/4n4/9/9/9/9/9/4R4/9/5K3 w - - 0 1", "e3e9"), 8);
}

static void test_xiangqi_flying_general(void **state) {
    (void)state;
    // The horse on e7 is the one piece between the generals: taking back on d5 would leave
    // them facing, so the soldier is won.
    assert_int_equal(see_xq("4k4/9/9/4n4/9/R2p5/9/9/9/4K4 w - - 0 1", "a5d5"), 2);
    // With a second blocker (the elephant on e8) it may take back.
    assert_int_equal(see_xq("4k4/9/4b4/4n4/9/R2p5/9/9/9/4K4 w - - 0 1", "a5d5"), 2 - 18);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

// Random games of v, captures preferred half the time so that crowded exchanges occur; every
// legal capture of every position is checked at thresholds 0 and around its exact value.
static void check_random_games(const Variant *v, int games, long *checked, long *losing) {
    static Board b;
    ErrorInfo err;
    for (int g = 0; g < games; g++) {
        if (v->formation_count)
            variant_setup_pairing(v, &b, g % variant_pairing_count(v));
        else if (fen_parse_variant(&b, v, v->start_fen, &err) != STATUS_OK)
            fail_msg("%s", err.msg);
        for (int ply = 0; ply < 160; ply++) {
            GameResult gr;
            MoveList all, caps;
            if (rules_game_over(&b, &gr))
                break;
            movegen_captures(&b, &caps);
            for (int i = 0; i < caps.count; i++) {
                Move m = caps.moves[i];
                int val = brute_see(&b, m);
                if (see_ge(&b, m, 0) != (val >= 0) || see_value(&b, m) != val) {
                    char fen[FEN_BUFFER], ms[MOVE_STR_LEN];
                    fen_write(&b, fen, sizeof fen);
                    move_to_uci(m, ms);
                    fail_msg("%s %s %s: brute force %d, see_value %d", v->name, fen, ms, val,
                             see_value(&b, m));
                }
                (*checked)++;
                *losing += val < 0;
            }
            movegen_legal(&b, &all);
            if (caps.count && rng() % 2)
                board_make(&b, caps.moves[rng() % (uint64_t)caps.count]);
            else
                board_make(&b, all.moves[rng() % (uint64_t)all.count]);
        }
    }
}

static void test_random_positions(void **state) {
    (void)state;
    long checked = 0, losing = 0;
    check_random_games(&VARIANT_JANGGI, 640, &checked, &losing);
    print_message("%ld captures checked, %ld losing\n", checked, losing);
    assert_true(checked > 10000 && losing > 1000);
}

static void test_random_xiangqi(void **state) {
    (void)state;
    long checked = 0, losing = 0;
    check_random_games(&VARIANT_XIANGQI, 320, &checked, &losing);
    print_message("xiangqi: %ld captures checked, %ld losing\n", checked, losing);
    assert_true(checked > 5000 && losing > 500);
}

int main(void) {
    engine_init();
    // clang-format off
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_made),
        cmocka_unit_test(test_xiangqi_cannon),
        cmocka_unit_test(test_xiangqi_palace),
        cmocka_unit_test(test_xiangqi_flying_general),
        cmocka_unit_test(test_random_positions),
        cmocka_unit_test(test_random_xiangqi),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}
