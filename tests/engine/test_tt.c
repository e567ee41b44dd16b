// SPDX-License-Identifier: MIT
// engine/tt.c: the transposition table's size, store and probe, its replacement rules within a
// bucket (empty first, then the shallower, an older search's entry counting 8 plies less; a much
// deeper entry of the same position kept against a shallow bound), and the conversion of
// decided scores between root and node distance (tt_score_to / tt_score_from).
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "search.h"
#include "tt.h"

static TT tt;

static int setup(void **state) {
    (void)state;
    assert_true(tt_init(&tt, 1));
    return 0;
}

static int teardown(void **state) {
    (void)state;
    tt_free(&tt);
    return 0;
}

static int reset(void **state) {
    (void)state;
    tt_clear(&tt);
    return 0;
}

// The entry of key (a copy, as tt_probe gives it), NULL when absent.
static const TTEntry *probe(uint64_t key) {
    static TTEntry e;
    return tt_probe(&tt, key, &e) ? &e : NULL;
}

// Keys of one bucket: the low bits that index a bucket equal, the rest different.
static uint64_t bucket_key(int i) { return 0x1234ULL * 2 + ((uint64_t)(i + 1) << 40); }

static void test_size(void **state) {
    (void)state;
    // 1 MB: the largest power of two of entries that fits, in buckets of two.
    size_t n = tt.mask + 1;
    assert_true((n & (n - 1)) == 0);
    assert_true(n * sizeof(TTSlot) <= (size_t)1 << 20);
    assert_true(2 * n * sizeof(TTSlot) > (size_t)1 << 20);
    assert_int_equal(sizeof(TTSlot), 16);
    TT big = {0};
    assert_true(tt_init(&big, 3)); // not a power of two: rounded down
    assert_int_equal((big.mask + 1) * sizeof(TTSlot), (size_t)2 << 20);
    tt_free(&big);
    tt_free(&big); // a freed table may be freed again
}

static void test_store_probe(void **state) {
    (void)state;
    uint64_t key = 0xDEADBEEFCAFEF00DULL;
    assert_null(probe(key));
    tt_store(&tt, key, (Move)777, -123, 45, 7, BOUND_LOWER, false);
    const TTEntry *e = probe(key);
    assert_non_null(e);
    assert_int_equal(e->move, 777);
    assert_int_equal(e->score, -123);
    assert_int_equal(e->eval, 45);
    assert_int_equal(e->depth, 8); // depth + 1: 0 marks an empty entry
    assert_int_equal(e->gen_bound & 3, BOUND_LOWER);
    assert_false(e->pv);
    // The TT-PV flag (ttpv) shares the move's word: a move of the last points and the flag both
    // come back, and so does a move-only entry (BOUND_NONE: rep_tt).
    Move last = move_make(SQUARE_NB - 1, SQUARE_NB - 2);
    tt_store(&tt, key, last, -123, 45, 7, BOUND_NONE, true);
    e = probe(key);
    assert_int_equal(e->move, last);
    assert_true(e->pv);
    assert_int_equal(e->gen_bound & 3, BOUND_NONE);
    tt_store(&tt, key, last, -123, 45, 7, BOUND_EXACT, false);
    assert_false(probe(key)->pv);
    // Depth 0 (quiescence) is stored too, and TT_EVAL_NONE kept as is.
    tt_store(&tt, key ^ 1 << 20, MOVE_NONE, 5, TT_EVAL_NONE, 0, BOUND_UPPER, false);
    e = probe(key ^ 1 << 20);
    assert_non_null(e);
    assert_int_equal(e->eval, TT_EVAL_NONE);
    // Another key of the same bucket is absent; the cleared table holds nothing.
    assert_null(probe(key ^ (1ULL << 50)));
    tt_clear(&tt);
    assert_null(probe(key));
}

// Two positions of one bucket both stay; a third replaces the shallower.
static void test_replace_shallower(void **state) {
    (void)state;
    uint64_t a = bucket_key(0), b = bucket_key(1), c = bucket_key(2);
    tt_store(&tt, a, 1, 10, 0, 9, BOUND_EXACT, false);
    tt_store(&tt, b, 2, 20, 0, 4, BOUND_EXACT, false);
    assert_non_null(probe(a));
    assert_non_null(probe(b));
    tt_store(&tt, c, 3, 30, 0, 6, BOUND_EXACT, false);
    assert_non_null(probe(a));
    assert_null(probe(b));
    assert_int_equal(probe(c)->score, 30);
}

// An entry of an earlier search counts 8 plies less: a deeper old entry goes before a
// shallower one of this search, but not when it is more than 8 plies deeper.
static void test_replace_older(void **state) {
    (void)state;
    uint64_t a = bucket_key(0), b = bucket_key(1), c = bucket_key(2), d = bucket_key(3);
    tt_store(&tt, a, 1, 10, 0, 10, BOUND_EXACT, false); // old, depth 10: value 11 - 8 = 3
    tt_new_search(&tt);
    tt_store(&tt, b, 2, 20, 0, 4, BOUND_EXACT, false); // new, depth 4: value 5
    tt_store(&tt, c, 3, 30, 0, 5, BOUND_EXACT, false);
    assert_null(probe(a));
    assert_non_null(probe(b));
    assert_non_null(probe(c));

    tt_clear(&tt);
    tt_store(&tt, a, 1, 10, 0, 20, BOUND_EXACT, false); // old, depth 20: value 13
    tt_new_search(&tt);
    tt_store(&tt, b, 2, 20, 0, 4, BOUND_EXACT, false); // new: value 5
    tt_store(&tt, d, 4, 40, 0, 5, BOUND_EXACT, false);
    assert_non_null(probe(a));
    assert_null(probe(b));
    assert_non_null(probe(d));
}

// The same position: an entry more than 2 plies deeper (its depth field, depth + 1, above the
// new depth + 3) is not overwritten by a bound,
// though it takes a move it lacked; an exact result or a near depth overwrites it; a store
// without a move keeps the entry's move.
static void test_same_position(void **state) {
    (void)state;
    uint64_t k = bucket_key(5);
    tt_store(&tt, k, MOVE_NONE, 100, 7, 12, BOUND_LOWER, false);
    tt_store(&tt, k, 55, -50, 7, 8, BOUND_UPPER, false); // 13 > 8 + 3: kept
    const TTEntry *e = probe(k);
    assert_int_equal(e->score, 100);
    assert_int_equal(e->depth, 13);
    assert_int_equal(e->move, 55);                       // the move it lacked
    tt_store(&tt, k, 77, -40, 7, 9, BOUND_UPPER, false); // 13 > 9 + 3: kept, its move too
    e = probe(k);
    assert_int_equal(e->score, 100);
    assert_int_equal(e->move, 55);
    tt_store(&tt, k, 66, -60, 7, 10, BOUND_UPPER, false); // 13 > 10 + 3 is false: replaced
    e = probe(k);
    assert_int_equal(e->score, -60);
    assert_int_equal(e->depth, 11);
    assert_int_equal(e->move, 66);
    tt_store(&tt, k, MOVE_NONE, 70, 7, 2, BOUND_EXACT, false); // exact: always stored, move kept
    e = probe(k);
    assert_int_equal(e->score, 70);
    assert_int_equal(e->depth, 3);
    assert_int_equal(e->move, 66);
    assert_int_equal(e->gen_bound & 3, BOUND_EXACT);
}

// A mate found at a node 3 plies from the root, 5 plies from the root in all, is a mate in 2
// from the node; read back at a transposition 7 plies from the root it is 9 plies from there.
// Scores below the decisive bound pass unchanged; a loss is the negation.
static void test_mate_score_distance(void **state) {
    (void)state;
    const int ply = SCORE_PER_PLY, dec = SCORE_DECISIVE;
    for (ScoreEnd kind = 0; kind < SCORE_END_NB; kind++) {
        int win = score_win(5, kind);
        assert_int_equal(tt_score_to(win, 3 * ply, dec), score_win(2, kind));
        assert_int_equal(tt_score_to(-win, 3 * ply, dec), -score_win(2, kind));
        int stored = tt_score_to(win, 3 * ply, dec);
        assert_int_equal(tt_score_from(stored, 7 * ply, dec), score_win(9, kind));
        assert_int_equal(tt_score_from(-stored, 7 * ply, dec), -score_win(9, kind));
        assert_int_equal(tt_score_from(stored, 3 * ply, dec), win); // same node: round trip
        assert_int_equal(score_end_plies(tt_score_from(stored, 7 * ply, dec)), 9);
    }
    for (int s = -dec + 1; s < dec; s += 997) {
        assert_int_equal(tt_score_to(s, 40 * ply, dec), s);
        assert_int_equal(tt_score_from(s, 40 * ply, dec), s);
    }
    // Through the table: the 16-bit field holds the largest decided score.
    uint64_t k = bucket_key(7);
    tt_store(&tt, k, 1, tt_score_to(score_win(1, SCORE_END_MATE), ply, dec), 0, 3, BOUND_EXACT,
             false);
    assert_int_equal(tt_score_from(probe(k)->score, 2 * ply, dec), score_win(2, SCORE_END_MATE));
}

// A slot torn by two threads writing at once (the data of one entry, the check word of another)
// is absent for both keys: the check word is the key xor the data, not the key alone.
static void test_torn_slot_absent(void **state) {
    (void)state;
    uint64_t a = bucket_key(0), b = bucket_key(1);
    tt_store(&tt, a, 11, 100, 1, 5, BOUND_EXACT, false);
    TTSlot *slot = &tt.entries[a & tt.mask & ~(size_t)1];
    uint64_t data_a = atomic_load(&slot->data);
    tt_clear(&tt);
    tt_store(&tt, b, 22, -200, 2, 6, BOUND_LOWER, false);
    assert_non_null(probe(b));
    atomic_store(&slot->data, data_a); // b's check word with a's data
    assert_null(probe(a));
    assert_null(probe(b));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_size),
        cmocka_unit_test_setup(test_store_probe, reset),
        cmocka_unit_test_setup(test_replace_shallower, reset),
        cmocka_unit_test_setup(test_replace_older, reset),
        cmocka_unit_test_setup(test_same_position, reset),
        cmocka_unit_test_setup(test_mate_score_distance, reset),
        cmocka_unit_test_setup(test_torn_slot_absent, reset),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
