// SPDX-License-Identifier: MIT
// Transposition table (see tt.h).
#include "tt.h"

#include <stdlib.h>
#include <string.h>

bool tt_init(TT *tt, size_t mb) {
    size_t bytes = (mb < 1 ? 1 : mb) << 20, n = 2;
    while (n * 2 * sizeof(TTSlot) <= bytes)
        n *= 2;
    TTSlot *e = calloc(n, sizeof *e);
    if (!e)
        return false;
    free(tt->entries);
    tt->entries = e;
    tt->mask = n - 1;
    tt->generation = 0;
    return true;
}

void tt_free(TT *tt) {
    free(tt->entries);
    tt->entries = NULL;
    tt->mask = 0;
}

void tt_clear(TT *tt) {
    if (tt->entries)
        memset(tt->entries, 0, (tt->mask + 1) * sizeof *tt->entries);
    tt->generation = 0;
}

void tt_new_search(TT *tt) { tt->generation = (uint8_t)((tt->generation + 1) & 63); }

// The packed form of an entry (its key aside): move | pv << 15 | score << 16 | eval << 32 |
// depth << 48 | gen_bound << 56. A move's two points take 14 bits (move_make), so the pv flag
// takes a spare bit and the slot stays 16 bytes; with the flag never set the words are those of
// the table before it.
enum { TT_PV_BIT = 1 << 15 };
_Static_assert(SQUARE_NB <= 128, "a move's points fit 14 bits");

static inline uint64_t pack(const TTEntry *e) {
    return (uint64_t)e->move | (uint64_t)(e->pv ? TT_PV_BIT : 0) |
           (uint64_t)(uint16_t)e->score << 16 | (uint64_t)(uint16_t)e->eval << 32 |
           (uint64_t)e->depth << 48 | (uint64_t)e->gen_bound << 56;
}

// Reads a slot whole: its data, and the key its check word gives with it.
static inline TTEntry load(const TTSlot *slot) {
    uint64_t data = atomic_load_explicit(&slot->data, memory_order_relaxed);
    uint64_t check = atomic_load_explicit(&slot->check, memory_order_relaxed);
    return (TTEntry){.key = check ^ data,
                     .move = (Move)(data & (TT_PV_BIT - 1)),
                     .score = (int16_t)(uint16_t)(data >> 16),
                     .eval = (int16_t)(uint16_t)(data >> 32),
                     .depth = (uint8_t)(data >> 48),
                     .gen_bound = (uint8_t)(data >> 56),
                     .pv = (data & TT_PV_BIT) != 0};
}

static inline void save(TTSlot *slot, const TTEntry *e) {
    uint64_t data = pack(e);
    atomic_store_explicit(&slot->data, data, memory_order_relaxed);
    atomic_store_explicit(&slot->check, e->key ^ data, memory_order_relaxed);
}

bool tt_probe(const TT *tt, uint64_t key, TTEntry *out) {
    const TTSlot *b = tt_bucket(tt, key);
    for (int i = 0; i < 2; i++) {
        TTEntry e = load(&b[i]);
        if (e.depth && e.key == key) {
            *out = e;
            return true;
        }
    }
    return false;
}

void tt_store(TT *tt, uint64_t key, Move move, int score, int eval, int depth, Bound bound,
              bool pv) {
    TTSlot *b = tt_bucket(tt, key);
    TTEntry slot[2] = {load(&b[0]), load(&b[1])};
    int i = -1;
    for (int k = 0; k < 2 && i < 0; k++)
        if (slot[k].key == key || !slot[k].depth)
            i = k;
    if (i < 0) {
        // Replace the shallower entry, counting an entry of an older search as 8 plies less.
        int v0 = slot[0].depth - 8 * ((slot[0].gen_bound >> 2) != tt->generation);
        int v1 = slot[1].depth - 8 * ((slot[1].gen_bound >> 2) != tt->generation);
        i = v0 <= v1 ? 0 : 1;
    }
    TTEntry *e = &slot[i];
    if (e->key == key && e->depth && e->depth > depth + 3 && bound != BOUND_EXACT) {
        if (move && !e->move) {
            e->move = move;
            save(&b[i], e);
        }
        return; // a much deeper result for the same position is worth more
    }
    if (move || e->key != key)
        e->move = move;
    e->key = key;
    e->score = (int16_t)score;
    e->eval = (int16_t)eval;
    e->depth = (uint8_t)(depth + 1);
    e->gen_bound = (uint8_t)(tt->generation << 2 | bound);
    e->pv = pv;
    save(&b[i], e);
}

int tt_hashfull(const TT *tt) {
    size_t n = tt->mask + 1 < 1000 ? tt->mask + 1 : 1000, used = 0;
    for (size_t k = 0; k < n; k++) {
        TTEntry e = load(&tt->entries[k]);
        used += e.depth && (e.gen_bound >> 2) == tt->generation;
    }
    return (int)(used * 1000 / n);
}

int tt_score_to(int score, int ply, int decisive) {
    return score >= decisive ? score + ply : score <= -decisive ? score - ply : score;
}

int tt_score_from(int score, int ply, int decisive) {
    return score >= decisive ? score - ply : score <= -decisive ? score + ply : score;
}
