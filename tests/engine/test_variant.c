// SPDX-License-Identifier: MIT
// The Variant seam: the table of variants, what a Board carries, and the end order of
// rules_end_reason() against the rules page's order written out here rule by rule, and the
// geometry's point sets.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "bench.h"
#include "board.h"
#include "engine.h"
#include "eval.h"
#include "fen.h"
#include "movegen.h"
#include "prng.h"
#include "rules.h"
#include "variant.h"

static Board board; // a Board is large: keep it off the stack

static void test_table(void **state) {
    (void)state;
    assert_int_equal(variant_count(), 2);
    assert_ptr_equal(variant_at(0), &VARIANT_JANGGI);
    assert_ptr_equal(variant_at(1), &VARIANT_XIANGQI);
    assert_null(variant_at(2));
    assert_ptr_equal(variant_find("janggi"), &VARIANT_JANGGI);
    assert_ptr_equal(variant_find("xiangqi"), &VARIANT_XIANGQI);
    // Any case, for every front end (hansu-tune refused --variant XIANGQI while UCI took it).
    assert_ptr_equal(variant_find("Janggi"), &VARIANT_JANGGI);
    assert_ptr_equal(variant_find("XIANGQI"), &VARIANT_XIANGQI);
    assert_ptr_equal(eval_spec_find("XiangQi"), VARIANT_XIANGQI.eval);
    assert_null(variant_find("chess"));
    assert_null(variant_find("janggi "));
    assert_null(variant_find(NULL));
    assert_string_equal(VARIANT_JANGGI.start_fen, FEN_START);
    assert_int_equal(variant_pairing_count(&VARIANT_JANGGI), 16);
}

// What a variant of the list (variants.def) brings, read as data, never by identity: its
// evaluation (both entry points, the SHA-256 of its weights header, a layout that fits a
// trace), its bench positions, and its name found again.
static void test_each_variant_complete(void **state) {
    (void)state;
    for (int i = 0; i < variant_count(); i++) {
        const Variant *v = variant_at(i);
        const EvalSpec *e = v->eval;
        assert_non_null(e);
        assert_string_equal(e->variant, v->name);
        assert_ptr_equal(eval_spec_find(v->name), e);
        assert_ptr_equal(variant_find(v->name), v);
        assert_non_null(e->evaluate);
        assert_non_null(e->evaluate_fast);
        assert_true(e->param_count > 0 && e->param_count <= EVAL_PARAM_MAX);
        assert_int_equal(strlen(e->weights_sha256), 64);
        assert_int_equal(strspn(e->weights_sha256, "0123456789abcdef"), 64);
        assert_non_null(bench_text(v));
        assert_int_equal(fen_parse_variant(&board, v, v->start_fen, NULL), STATUS_OK);
        static EvalTrace t;
        assert_int_equal(eval_evaluate(&board), eval_trace(&board, &t));
        assert_int_equal(eval_rebuild(e, &t, e->weights, board.side), eval_evaluate(&board));
    }
    assert_ptr_equal(bench_text(variant_default()), bench_default_text());
}

static void test_board_carries_variant(void **state) {
    (void)state;
    assert_int_equal(fen_parse(&board, FEN_START, NULL), STATUS_OK);
    assert_ptr_equal(board.variant, &VARIANT_JANGGI);
    assert_ptr_equal(board.geo, VARIANT_JANGGI.geometry);
    // Each pairing's position is the variant's: Cho to move, 32 pieces, ply 0.
    for (int p = 0; p < variant_pairing_count(&VARIANT_JANGGI); p++) {
        memset(&board, 0, sizeof board);
        variant_setup_pairing(&VARIANT_JANGGI, &board, p);
        assert_ptr_equal(board.variant, &VARIANT_JANGGI);
        assert_int_equal(board_state(&board)->piece_count, 32);
    }
    variant_setup_pairing(&VARIANT_JANGGI, &board, 0);
    char fen[FEN_BUFFER];
    fen_write(&board, fen, sizeof fen);
    assert_string_equal(fen, FEN_START);
}

// The rules page's order after checkmate, each rule asked directly.
static EndReason reference_end(const Board *b, int *loser) {
    *loser = -1;
    if (rules_bikjang_ends(b))
        return REASON_BIKJANG;
    if (rules_repetition(b, loser))
        return *loser < 0 ? REASON_REPETITION : REASON_PERPETUAL_CHECK;
    if (rules_double_pass(b))
        return REASON_DOUBLE_PASS;
    if (board_game_ply(b) >= GAME_PLY_LIMIT)
        return REASON_MOVE_LIMIT;
    return REASON_NONE;
}

// Random games, passes and back-and-forth moves made likely so that repetitions, double
// passes and bikjang occur: rules_end_reason() (with its quick rejection) must agree with the
// order written out rule by rule at every ply, up to the end of each game.
// Geometry's point sets hold their tables' points and no others, and every ray runs one way (to
// higher or to lower points): the evaluation finds a line's nearest piece by its lowest or
// highest bit.
static void test_point_sets(void **state) {
    (void)state;
    const Variant *variants[] = {&VARIANT_JANGGI, &VARIANT_XIANGQI};
    for (int v = 0; v < 2; v++) {
        const Geometry *geo = variants[v]->geometry;
        for (Square sq = 0; sq < SQUARE_NB; sq++)
            for (int r = 0; r < 8; r++) {
                const Ray *ray = &geo->rays[sq][r];
                Points expect = 0;
                for (int i = 0; r < geo->ray_count[sq] && i < ray->len; i++) {
                    expect |= (Points)1 << ray->sq[i];
                    int prev = i == 0 ? sq : ray->sq[i - 1];
                    assert_true((ray->sq[i] > prev) == (ray->sq[0] > sq));
                }
                assert_true(geo->ray_points[sq][r] == expect);
            }
        for (Square sq = 0; sq < SQUARE_NB; sq++) {
            Points steps = 0, soldier[SIDE_NB] = {0, 0};
            for (int i = 0; i < geo->palace_step_count[sq]; i++)
                steps |= (Points)1 << geo->palace_steps[sq][i];
            for (Side s = CHO; s <= HAN; s++)
                for (int i = 0; i < geo->soldier_count[s][sq]; i++)
                    soldier[s] |= (Points)1 << geo->soldier[s][sq][i];
            assert_true(geo->palace_step_points[sq] == steps);
            assert_true(geo->soldier_points[CHO][sq] == soldier[CHO]);
            assert_true(geo->soldier_points[HAN][sq] == soldier[HAN]);
        }
    }
}

static void test_end_order(void **state) {
    (void)state;
    uint64_t rng = 11;
    int ends[REASON_NB] = {0};
    for (int game = 0; game < 400; game++) {
        variant_setup_pairing(&VARIANT_JANGGI, &board, game % 16);
        for (;;) {
            int l1, l2;
            EndReason got = rules_end_reason(&board, &l1), want = reference_end(&board, &l2);
            assert_int_equal(got, want);
            if (got == REASON_PERPETUAL_CHECK)
                assert_int_equal(l1, l2);
            if (got != REASON_NONE || (board_in_check(&board) && !movegen_has_legal(&board))) {
                ends[got]++;
                break;
            }
            MoveList list;
            movegen_legal(&board, &list);
            uint64_t r = prng_next(&rng);
            Move m = list.moves[r % (uint64_t)list.count];
            // Replay the move two plies back now and then (a shuffle that repeats positions).
            if ((r >> 32) % 3 == 0 && board.nstates > 2) {
                Move back = board.states[board.nstates - 2].move;
                Move undo = move_is_pass(back) ? back : move_make(move_to(back), move_from(back));
                for (int i = 0; i < list.count; i++)
                    if (list.moves[i] == undo)
                        m = undo;
            }
            board_make(&board, m);
        }
    }
    assert_true(ends[REASON_REPETITION] + ends[REASON_PERPETUAL_CHECK] > 0);
    assert_true(ends[REASON_DOUBLE_PASS] > 0);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_each_variant_complete),
        cmocka_unit_test(test_board_carries_variant),
        cmocka_unit_test(test_end_order),
        cmocka_unit_test(test_point_sets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
