// SPDX-License-Identifier: MIT
// Perft and depth-1 move lists against the Fairy-Stockfish oracle, read from the TSV files
// as they are. Built twice: the default test takes the rows up to PERFT_NODE_LIMIT nodes,
// the `slow` one (PERFT_SLOW) the rows above it.
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
#include "oracle_util.h"
#include "perft.h"
#include "variant.h"

// The default suite's share: every row up to 3 million nodes (25 million nodes in all, a few
// seconds even in Debug, where the board is checked after every make/unmake).
#define PERFT_NODE_LIMIT 3000000ull

static bool row_selected(uint64_t nodes) {
#ifdef PERFT_SLOW
    return nodes > PERFT_NODE_LIMIT;
#else
    return nodes <= PERFT_NODE_LIMIT;
#endif
}

static void test_perft_oracle(void **state) {
    (void)state;
    Tsv t;
    oracle_load(&t, "perft_janggi.tsv");
    static Board b;
    int checked = 0, failed = 0;
    uint64_t total = 0;
    for (int i = 0; i < t.count; i++) {
        const TsvRow *r = &t.rows[i];
        assert_int_equal(r->nfields, 5);
        int depth = atoi(r->field[3]);
        uint64_t want = strtoull(r->field[4], NULL, 10);
        if (!row_selected(want))
            continue;
        test_load_fen(&b, r->field[2]);
        uint64_t got = perft(&b, depth);
        checked++, total += got;
        if (got != want) {
            failed++;
            print_error("line %d %s (%s) depth %d: %llu nodes, oracle %llu\n", r->line, r->field[0],
                        r->field[1], depth, (unsigned long long)got, (unsigned long long)want);
        }
    }
    print_message("perft: %d rows, %llu nodes, %d mismatches\n", checked, (unsigned long long)total,
                  failed);
    tsv_free(&t);
    assert_int_equal(failed, 0);
    assert_true(checked > 0);
}

// Every row of perft_xiangqi.tsv (id, fen, depth, nodes; Fairy-Stockfish 11.1, variant
// xiangqi), the positions read as xiangqi.
static void test_perft_xiangqi_oracle(void **state) {
    (void)state;
    Tsv t;
    oracle_load(&t, "perft_xiangqi.tsv");
    static Board b;
    int checked = 0, failed = 0;
    for (int i = 0; i < t.count; i++) {
        const TsvRow *r = &t.rows[i];
        assert_int_equal(r->nfields, 4);
        int depth = atoi(r->field[2]);
        uint64_t want = strtoull(r->field[3], NULL, 10);
        if (!row_selected(want))
            continue;
        ErrorInfo err = {{0}};
        if (fen_parse_variant(&b, &VARIANT_XIANGQI, r->field[1], &err) != STATUS_OK)
            fail_msg("line %d %s: FEN refused: %s", r->line, r->field[0], err.msg);
        uint64_t got = perft(&b, depth);
        checked++;
        if (got != want) {
            failed++;
            print_error("line %d %s depth %d: %llu nodes, oracle %llu\n", r->line, r->field[0],
                        depth, (unsigned long long)got, (unsigned long long)want);
        }
    }
    print_message("perft xiangqi: %d rows, %d mismatches\n", checked, failed);
    tsv_free(&t);
    assert_int_equal(failed, 0);
    assert_true(checked > 0);
}

#ifndef PERFT_SLOW
// Each root move's count is the perft of the child; the counts add up to perft(depth).
static void test_divide_adds_up(void **state) {
    (void)state;
    static Board b;
    test_load_fen(&b, FEN_START);
    Move moves[MAX_MOVES];
    uint64_t counts[MAX_MOVES], sum = 0;
    int n = perft_divide(&b, 3, moves, counts);
    assert_int_equal(n, 32);
    for (int i = 0; i < n; i++) {
        sum += counts[i];
        board_make(&b, moves[i]);
        assert_int_equal(counts[i], perft(&b, 2));
        board_unmake(&b);
    }
    assert_int_equal(sum, perft(&b, 3));
    assert_int_equal(perft(&b, 0), 1);
}

// Perft lines end after two passes: after e2e2 e9e9 nothing follows.
static void test_perft_double_pass(void **state) {
    (void)state;
    static Board b;
    test_load_fen(&b, FEN_START);
    test_play(&b, "e2e2 e9e9");
    assert_int_equal(perft(&b, 1), 0);
    assert_int_equal(perft(&b, 2), 0);
    test_load_fen(&b, FEN_START);
    test_play(&b, "e2e2");
    // Han's pass is counted as a leaf at depth 1 but leads nowhere at depth 2.
    uint64_t d1 = perft(&b, 1), d2 = perft(&b, 2);
    assert_int_equal(d1, 32);
    assert_int_equal(d2, 31 * 32);
}

static int split_moves(char *text, char **out, int max) {
    int n = 0;
    for (char *tok = strtok(text, " "); tok && n < max; tok = strtok(NULL, " "))
        out[n++] = tok;
    return n;
}

static void test_moves_oracle(void **state) {
    (void)state;
    Tsv t;
    oracle_load(&t, "moves_janggi.tsv");
    static Board b;
    int failed = 0;
    for (int i = 0; i < t.count; i++) {
        const TsvRow *r = &t.rows[i];
        assert_int_equal(r->nfields, 3);
        test_load_fen(&b, r->field[1]);
        char theirs_text[4096], *theirs[MAX_MOVES + 1], ours_buf[MAX_MOVES][MOVE_STR_LEN];
        char *ours[MAX_MOVES];
        snprintf(theirs_text, sizeof theirs_text, "%s", r->field[2]);
        int nt = split_moves(theirs_text, theirs, MAX_MOVES + 1);
        MoveList list;
        movegen_legal(&b, &list);
        for (int k = 0; k < list.count; k++) {
            move_to_uci(list.moves[k], ours_buf[k]);
            ours[k] = ours_buf[k];
        }
        test_sort_strings(theirs, nt);
        test_sort_strings(ours, list.count);
        bool same = nt == list.count;
        for (int k = 0; same && k < nt; k++)
            same = strcmp(theirs[k], ours[k]) == 0;
        // No duplicates either: a set has each move once.
        for (int k = 1; same && k < nt; k++)
            same = strcmp(ours[k - 1], ours[k]) != 0;
        if (!same) {
            failed++;
            print_error("%s (%s): %d moves, oracle %d\n", r->field[0], r->field[1], list.count, nt);
        }
        assert_int_equal((uint64_t)list.count, (uint64_t)movegen_count_legal(&b));
    }
    print_message("moves: %d positions, %d mismatches\n", t.count, failed);
    tsv_free(&t);
    assert_int_equal(failed, 0);
}
#endif

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_oracle),   cmocka_unit_test(test_perft_xiangqi_oracle),
#ifndef PERFT_SLOW
        cmocka_unit_test(test_divide_adds_up), cmocka_unit_test(test_perft_double_pass),
        cmocka_unit_test(test_moves_oracle),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
