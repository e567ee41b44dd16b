// SPDX-License-Identifier: MIT
// Transposition table: buckets of two 16-byte entries indexed by the Zobrist key, replaced
// by depth and age. One table per Searcher; nothing shared between threads.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "types.h"

enum { TT_EVAL_NONE = INT16_MIN }; // eval field of an entry stored without a static evaluation
enum { TT_MB_MAX = 65536 };        // the largest table a tool accepts (UCI Hash, --hash), MB

typedef enum { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 } Bound;

typedef struct TTEntry {
    uint64_t key;
    Move move;
    int16_t score;     // search score, decisive scores stored relative to this node (tt_score_to)
    int16_t eval;      // static evaluation, cp
    uint8_t depth;     // plies of remaining depth + 1 (0 = empty)
    uint8_t gen_bound; // generation << 2 | Bound
} TTEntry;

typedef struct TT {
    TTEntry *entries;
    size_t mask; // number of entries - 1 (a power of two), buckets are pairs
    uint8_t generation;
} TT;

/// Allocates a cleared table of at most mb megabytes (>= 1). Returns false when memory is
/// short; *tt is then left unchanged.
bool tt_init(TT *tt, size_t mb);

/// Frees the table (an empty or zeroed TT is accepted).
void tt_free(TT *tt);

/// Empties every entry.
void tt_clear(TT *tt);

/// Starts a new search: older entries become preferred victims.
void tt_new_search(TT *tt);

/// Finds the entry of key; returns NULL when absent.
const TTEntry *tt_probe(const TT *tt, uint64_t key);

/// Stores a result for key. depth in plies (>= 0), score already converted by tt_score_to.
void tt_store(TT *tt, uint64_t key, Move move, int score, int eval, int depth, Bound bound);

/// Converts a search score at ply (the node's distance from the root, in the score units a
/// ply of distance takes: the search's plies times SCORE_PER_PLY) to the TT form and back:
/// decisive scores (|s| >= decisive) count their distance from this node, not from the root.
int tt_score_to(int score, int ply, int decisive);
int tt_score_from(int score, int ply, int decisive);
