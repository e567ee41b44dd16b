// SPDX-License-Identifier: MIT
// The quiet-check generator (movegen_quiet_checks) against brute force: for every position of
// the oracle's perft table, the bench list and many random games of janggi and xiangqi, it gives
// exactly the legal quiet moves after which the opponent is in check (made with board_make and
// judged by its check flag), each once; and hand-made janggi checks of every kind, discovered
// ones included.
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
#include "oracle_util.h"
#include "rules.h"
#include "variant.h"

#ifndef HANSU_SOURCE_DIR
#error "HANSU_SOURCE_DIR must name the source tree"
#endif

static bool contains(const MoveList *l, Move m) {
    for (int i = 0; i < l->count; i++)
        if (l->moves[i] == m)
            return true;
    return false;
}

// Checks b (not in check) and returns the number of quiet checks found.
static int check_position(Board *b) {
    if (board_in_check(b))
        return 0;
    MoveList legal, gen, want = {.count = 0};
    movegen_legal(b, &legal);
    for (int i = 0; i < legal.count; i++) {
        Move m = legal.moves[i];
        if (move_is_pass(m) || b->squares[move_to(m)] != EMPTY)
            continue;
        board_make(b, m);
        bool check = board_in_check(b);
        board_unmake(b);
        if (check)
            want.moves[want.count++] = m;
    }
    movegen_quiet_checks(b, &gen);
    char fen[FEN_BUFFER], ms[MOVE_STR_LEN];
    fen_write(b, fen, sizeof fen);
    for (int i = 0; i < gen.count; i++) {
        move_to_uci(gen.moves[i], ms);
        if (!contains(&want, gen.moves[i]))
            fail_msg("%s: %s generated, not a legal quiet check", fen, ms);
        for (int j = 0; j < i; j++)
            if (gen.moves[j] == gen.moves[i])
                fail_msg("%s: %s generated twice", fen, ms);
    }
    for (int i = 0; i < want.count; i++)
        if (!contains(&gen, want.moves[i])) {
            move_to_uci(want.moves[i], ms);
            fail_msg("%s: quiet check %s not generated", fen, ms);
        }
    return want.count;
}

static void test_oracle_and_bench(void **state) {
    (void)state;
    static Board b;
    Tsv t;
    oracle_load(&t, "perft_janggi.tsv");
    long positions = 0, checks = 0;
    for (int i = 0; i < t.count; i++, positions++) {
        test_load_fen(&b, t.rows[i].field[2]);
        checks += check_position(&b);
    }
    tsv_free(&t);
    FILE *f = fopen(HANSU_SOURCE_DIR "/data/bench.fen", "r");
    assert_non_null(f);
    char line[512];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0] || line[0] == '#')
            continue;
        test_load_fen(&b, line);
        checks += check_position(&b);
        positions++;
    }
    fclose(f);
    print_message("%ld oracle and bench positions, %ld quiet checks\n", positions, checks);
    assert_true(positions > 50 && checks > 0);
}

// Random games of v, captures and checks preferred half the time so that the generals come
// under fire and the boards thin out.
static void random_games(const Variant *v, int games, long *positions, long *checks) {
    static Board b;
    uint64_t rng = 0x243f6a8885a308d3ull ^ (uint64_t)games;
    ErrorInfo err;
    for (int g = 0; g < games; g++) {
        if (v->formation_count)
            variant_setup_pairing(v, &b, g % variant_pairing_count(v));
        else if (fen_parse_variant(&b, v, v->start_fen, &err) != STATUS_OK)
            fail_msg("%s", err.msg);
        for (int ply = 0; ply < 200; ply++) {
            GameResult gr;
            if (rules_game_over(&b, &gr))
                break;
            int n = check_position(&b);
            *checks += n;
            (*positions)++;
            MoveList pick;
            if (test_rng_next(&rng) % 2 && !board_in_check(&b)) {
                movegen_captures(&b, &pick);
                if (!pick.count)
                    movegen_quiet_checks(&b, &pick);
            } else
                pick.count = 0;
            Move m = pick.count ? pick.moves[test_rng_next(&rng) % (uint64_t)pick.count]
                                : test_random_legal(&b, &rng);
            if (m == MOVE_NONE)
                break;
            board_make(&b, m);
        }
    }
}

static void test_random_janggi(void **state) {
    (void)state;
    long positions = 0, checks = 0;
    random_games(&VARIANT_JANGGI, 400, &positions, &checks);
    print_message("janggi: %ld positions, %ld quiet checks\n", positions, checks);
    assert_true(positions > 20000 && checks > 5000);
}

static void test_random_xiangqi(void **state) {
    (void)state;
    long positions = 0, checks = 0;
    random_games(&VARIANT_XIANGQI, 200, &positions, &checks);
    print_message("xiangqi: %ld positions, %ld quiet checks\n", positions, checks);
    assert_true(positions > 10000 && checks > 2000);
}

// Hand-made janggi positions, Han's general on e9 and Cho to move: the generator's whole list,
// in its order.
static void expect_checks(const char *fen, const char *moves) {
    static Board b;
    test_load_fen(&b, fen);
    check_position(&b);
    MoveList gen;
    movegen_quiet_checks(&b, &gen);
    char got[512] = "", ms[MOVE_STR_LEN];
    for (int i = 0; i < gen.count; i++) {
        move_to_uci(gen.moves[i], ms);
        if (got[0])
            strcat(got, " ");
        strcat(got, ms);
    }
    assert_string_equal(got, moves);
}

static void test_hand_made(void **state) {
    (void)state;
    // A chariot onto the general's rank (its file is closed by Cho's own general).
    expect_checks("9/4k4/9/9/9/9/9/9/4K4/R8 w - - 0 1", "a1a9");
    // A horse that attacks with its leg free (c5d7), or that becomes the screen of the cannon
    // on e3 (c5e4, c5e6); the cannon itself has no screen and no move.
    expect_checks("9/4k4/9/9/9/2N6/9/4C4/9/3K5 w - - 0 1", "c5d7 c5e4 c5e6");
    // Every elephant move off the e-file opens the chariot's line (discovered checks; c8 is
    // Cho's own soldier); the soldier steps onto the palace corner d8, from where its diagonal
    // step reaches e9. The chariot's own moves stay behind the elephant.
    expect_checks("9/4k4/2P6/9/9/4B4/9/4R4/9/5K3 w - - 0 1",
                  "e5g8 e5c2 e5g2 e5h3 e5h7 e5b3 e5b7 c8d8");
}

int main(void) {
    engine_init();
    // clang-format off
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_made),
        cmocka_unit_test(test_oracle_and_bench),
        cmocka_unit_test(test_random_janggi),
        cmocka_unit_test(test_random_xiangqi),
    };
    // clang-format on
    return cmocka_run_group_tests(tests, NULL, NULL);
}
