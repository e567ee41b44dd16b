// SPDX-License-Identifier: MIT
// engine/zobrist.c: the key table (fixed, distinct, no key for an empty point) and the keys the
// board keeps with it: along seeded random games of both variants, the incremental key equals
// the XOR of the table's entries for the pieces on the board and the side to move, computed
// here from the table (not by board_compute_key); a position reached by two move orders, or
// read from its FEN, has one key; the side to move alone changes the key by zobrist.side.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "board.h"
#include "engine.h"
#include "fen.h"
#include "movegen.h"
#include "notation.h"
#include "prng.h"
#include "variant.h"
#include "zobrist.h"

enum { GAMES = 24, GAME_PLIES = 200 };

static Board board, other;

// The key by definition: the pieces' entries and the side's, from the table alone.
static uint64_t key_by_definition(const Board *b) {
    uint64_t key = b->side == HAN ? zobrist.side : 0;
    for (Square sq = 0; sq < SQUARE_NB; sq++)
        if (b->squares[sq] != EMPTY)
            key ^= zobrist.piece[b->squares[sq]][sq];
    return key;
}

static int setup(void **state) {
    (void)state;
    engine_init();
    return 0;
}

// Every (real piece, point) has a non-zero key of its own, distinct from every other and from
// the side's; an empty point, and a piece code of no kind, has none.
static void test_table_distinct(void **state) {
    (void)state;
    enum { N = PIECE_NB * SQUARE_NB + 1 };
    static uint64_t keys[N];
    int n = 0;
    for (int pc = 0; pc < PIECE_NB; pc++)
        for (int sq = 0; sq < SQUARE_NB; sq++) {
            if (piece_kind((Piece)pc) == 0) {
                assert_true(zobrist.piece[pc][sq] == 0);
                continue;
            }
            assert_true(zobrist.piece[pc][sq] != 0);
            keys[n++] = zobrist.piece[pc][sq];
        }
    assert_true(zobrist.side != 0);
    keys[n++] = zobrist.side;
    assert_int_equal(n, 14 * SQUARE_NB + 1);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (keys[i] == keys[j])
                fail_msg("keys %d and %d are equal", i, j);
}

// The table is filled from a fixed seed: a second fill gives the same keys (TT behaviour and
// bench depend on it).
static void test_table_fixed(void **state) {
    (void)state;
    static ZobristKeys before;
    before = zobrist;
    zobrist_init();
    assert_memory_equal(&before, &zobrist, sizeof before);
}

// Seeded random games: after every make and every unmake the kept key is the key by definition,
// and the position read back from its FEN has the same key.
static void play_random(const Variant *v, uint64_t seed) {
    for (int g = 0; g < GAMES; g++) {
        ErrorInfo err;
        assert_int_equal(fen_parse_variant(&board, v, v->start_fen, &err), STATUS_OK);
        int plies = 0;
        for (; plies < GAME_PLIES; plies++) {
            MoveList list;
            movegen_legal(&board, &list);
            if (list.count == 0)
                break;
            Move m = list.moves[prng_next(&seed) % (uint64_t)list.count];
            board_make(&board, m);
            assert_true(board_key(&board) == key_by_definition(&board));
            if (plies % 16 == 0) {
                char fen[FEN_BUFFER];
                fen_write(&board, fen, sizeof fen);
                assert_int_equal(fen_parse_variant(&other, v, fen, &err), STATUS_OK);
                assert_true(board_key(&other) == board_key(&board));
            }
        }
        for (; plies > 0; plies--) {
            board_unmake(&board);
            assert_true(board_key(&board) == key_by_definition(&board));
        }
        assert_true(board_key(&board) == key_by_definition(&board));
    }
}

static void test_random_games_janggi(void **state) {
    (void)state;
    play_random(&VARIANT_JANGGI, 0x5A0B0157ULL);
}

static void test_random_games_xiangqi(void **state) {
    (void)state;
    play_random(&VARIANT_XIANGQI, 0x71A9601ULL);
}

static void play(Board *b, const char *const *moves, int n) {
    for (int i = 0; i < n; i++) {
        Move m;
        ErrorInfo err;
        if (move_parse_uci(b, moves[i], &m, &err) != STATUS_OK)
            fail_msg("%s: %s", moves[i], err.msg);
        board_make(b, m);
    }
}

// Two move orders to one position give one key; the same pieces with the other side to move
// differ by the side's key exactly; a different position has a different key.
static void test_transposition(void **state) {
    (void)state;
    ErrorInfo err;
    // Janggi: two horse moves of each side, in either order.
    static const char *const a[] = {"b1c3", "b10c8", "h1g3", "h10g8"};
    static const char *const b[] = {"h1g3", "h10g8", "b1c3", "b10c8"};
    assert_int_equal(fen_parse(&board, FEN_START, &err), STATUS_OK);
    uint64_t start = board_key(&board);
    play(&board, a, 4);
    assert_int_equal(fen_parse(&other, FEN_START, &err), STATUS_OK);
    play(&other, b, 4);
    assert_true(board_key(&board) == board_key(&other));
    assert_true(board_key(&board) != start);

    // Cho passes (the general's square twice): the same pieces, Han to move.
    Move pass;
    assert_int_equal(move_parse_uci(&board, "e2e2", &pass, &err), STATUS_OK);
    assert_true(move_is_pass(pass));
    uint64_t before = board_key(&board);
    board_make(&board, pass);
    assert_true((board_key(&board) ^ before) == zobrist.side);
    board_unmake(&board);
    assert_true(board_key(&board) == before);

    // One move more is another position.
    static const char *const c[] = {"a4b4"};
    play(&other, c, 1);
    assert_true(board_key(&other) != board_key(&board));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_distinct),      cmocka_unit_test(test_table_fixed),
        cmocka_unit_test(test_random_games_janggi), cmocka_unit_test(test_random_games_xiangqi),
        cmocka_unit_test(test_transposition),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
