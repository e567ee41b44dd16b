// SPDX-License-Identifier: MIT
// Shared helpers of the rules-core tests: the oracle TSV reader, position loading and move
// playing that fail the running cmocka test on error, board comparison and a seeded RNG.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "types.h"

enum { TSV_MAX_FIELDS = 8 };

/// One data line of a TSV file: pointers into the table's own copy of the text.
typedef struct TsvRow {
    const char *field[TSV_MAX_FIELDS];
    int nfields;
    int line; // 1-based line number in the file
} TsvRow;

/// A whole TSV file without its header line.
typedef struct Tsv {
    char *text;
    TsvRow *rows;
    int count;
} Tsv;

/// Reads path (tab-separated, one header line) into t. Returns false (with t empty) when the
/// file cannot be read; a line with more than TSV_MAX_FIELDS fields keeps the first ones.
bool tsv_load(Tsv *t, const char *path);

/// Frees what tsv_load() allocated (an empty or zeroed Tsv is accepted).
void tsv_free(Tsv *t);

/// Path of a file in the oracle folder, written into out (out_len bytes).
void oracle_path(const char *name, char *out, size_t out_len);

/// Loads the oracle file `name` (e.g. "perft_janggi.tsv") into t; fails the running test,
/// naming the path, when it cannot be read or holds no rows.
void oracle_load(Tsv *t, const char *name);

/// Loads fen into b; fails the current test with the parser's message on error.
void test_load_fen(Board *b, const char *fen);

/// Parses and plays each space-separated move of moves (may be empty); fails the current test
/// naming the move on error.
void test_play(Board *b, const char *moves);

/// True when the two boards hold the same position: squares, piece lists (as sets), counts,
/// general squares, side to move, key, ply and FEN. On false, why (may be NULL) says what.
bool test_boards_equal(const Board *a, const Board *b, char *why, size_t why_len);

/// SplitMix64: the next 64-bit value of the stream *state.
uint64_t test_rng_next(uint64_t *state);

/// A legal move or pass of the side to move chosen uniformly with *rng; MOVE_NONE when the
/// side to move is checkmated.
Move test_random_legal(Board *b, uint64_t *rng);

/// Sorts an array of n C strings in place (strcmp order).
void test_sort_strings(char **s, int n);
