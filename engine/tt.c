// SPDX-License-Identifier: MIT
// Transposition table (see tt.h).
#include "tt.h"

#include <stdlib.h>
#include <string.h>

bool tt_init(TT *tt, size_t mb) {
    size_t bytes = (mb < 1 ? 1 : mb) << 20, n = 2;
    while (n * 2 * sizeof(TTEntry) <= bytes)
        n *= 2;
    TTEntry *e = calloc(n, sizeof *e);
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

static inline TTEntry *bucket(const TT *tt, uint64_t key) {
    return &tt->entries[(size_t)key & tt->mask & ~(size_t)1];
}

const TTEntry *tt_probe(const TT *tt, uint64_t key) {
    TTEntry *b = bucket(tt, key);
    for (int i = 0; i < 2; i++)
        if (b[i].depth && b[i].key == key)
            return &b[i];
    return NULL;
}

void tt_store(TT *tt, uint64_t key, Move move, int score, int eval, int depth, Bound bound) {
    TTEntry *b = bucket(tt, key), *e = NULL;
    for (int i = 0; i < 2 && !e; i++)
        if (b[i].key == key || !b[i].depth)
            e = &b[i];
    if (!e) {
        // Replace the shallower entry, counting an entry of an older search as 8 plies less.
        int v0 = b[0].depth - 8 * ((b[0].gen_bound >> 2) != tt->generation);
        int v1 = b[1].depth - 8 * ((b[1].gen_bound >> 2) != tt->generation);
        e = v0 <= v1 ? &b[0] : &b[1];
    } else if (e->key == key && e->depth > depth + 3 && bound != BOUND_EXACT) {
        if (move && !e->move)
            e->move = move;
        return; // a much deeper result for the same position is worth more
    }
    if (move || e->key != key)
        e->move = move;
    e->key = key;
    e->score = (int16_t)score;
    e->eval = (int16_t)eval;
    e->depth = (uint8_t)(depth + 1);
    e->gen_bound = (uint8_t)(tt->generation << 2 | bound);
}

int tt_score_to(int score, int ply, int decisive) {
    return score >= decisive ? score + ply : score <= -decisive ? score - ply : score;
}

int tt_score_from(int score, int ply, int decisive) {
    return score >= decisive ? score - ply : score <= -decisive ? score + ply : score;
}
