// SPDX-License-Identifier: MIT
// Transposition table: buckets of two 16-byte slots indexed by the Zobrist key, replaced
// by depth and age. One table per Searcher, shared by its Lazy SMP threads without a lock:
// a slot is two 64-bit words, the entry packed in one and the key xor that word in the other,
// so a slot torn by two threads writing at once fails the key check and reads as absent
// (Hyatt and Mann, "A lockless transposition-table implementation for parallel search", 2002).
#pragma once

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "types.h"

enum { TT_EVAL_NONE = INT16_MIN }; // eval field of an entry stored without a static evaluation
enum { TT_MB_MAX = 65536 };        // the largest table a tool accepts (UCI Hash, --hash), MB

typedef enum { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 } Bound;

/// One entry, as a probe returns it (a copy: the table may change under a reader).
typedef struct TTEntry {
    uint64_t key;
    Move move;
    int16_t score;     // search score, decisive scores stored relative to this node (tt_score_to)
    int16_t eval;      // static evaluation, cp
    uint8_t depth;     // plies of remaining depth + 1 (0 = empty)
    uint8_t gen_bound; // generation << 2 | Bound
    bool pv;           // the node was on a PV (ttpv; packed in the move's spare top bit)
} TTEntry;

/// One slot of the table: data packs move, score, eval, depth and gen_bound (an entry less its
/// key), the pv flag in the move's top bit (a move's points take 14 bits); check is key ^ data.
/// Both words are read and written with relaxed atomics.
typedef struct TTSlot {
    _Atomic uint64_t check, data;
} TTSlot;

typedef struct TT {
    TTSlot *entries;
    size_t mask; // number of slots - 1 (a power of two), buckets are pairs
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

/// The bucket of key: its two slots.
static inline TTSlot *tt_bucket(const TT *tt, uint64_t key) {
    return &tt->entries[(size_t)key & tt->mask & ~(size_t)1];
}

/// Asks the processor to bring key's bucket into the cache (a hint: no effect on the table), so
/// that the probe of the node about to be searched does not wait on memory. Stockfish's
/// prefetch after do_move; a no-op where the compiler has no __builtin_prefetch.
static inline void tt_prefetch(const TT *tt, uint64_t key) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(tt_bucket(tt, key));
#else
    (void)tt;
    (void)key;
#endif
}

/// Finds the entry of key and copies it into *out; false (out untouched) when absent or when
/// another thread's write tore it. Safe while other threads store.
bool tt_probe(const TT *tt, uint64_t key, TTEntry *out);

/// Stores a result for key. depth in plies (>= 0), score already converted by tt_score_to; pv:
/// the node was on a PV. BOUND_NONE stores the move and eval with no usable score. Safe while
/// other threads probe and store: a race loses one of two stores, never mixes them.
void tt_store(TT *tt, uint64_t key, Move move, int score, int eval, int depth, Bound bound,
              bool pv);

/// Permille of the first 1000 slots (or all, if fewer) holding an entry of the current search
/// (UCI `info hashfull`).
int tt_hashfull(const TT *tt);

/// Converts a search score at ply (the node's distance from the root, in the score units a
/// ply of distance takes: the search's plies times SCORE_PER_PLY) to the TT form and back:
/// decisive scores (|s| >= decisive) count their distance from this node, not from the root.
int tt_score_to(int score, int ply, int decisive);
int tt_score_from(int score, int ply, int decisive);
