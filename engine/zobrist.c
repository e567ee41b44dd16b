// SPDX-License-Identifier: MIT
// Zobrist key tables, filled from SplitMix64 (Steele, Lea, Flood 2014) with a fixed seed
// so that keys, and therefore TT behaviour and bench, are the same on every run.
#include "zobrist.h"

ZobristKeys zobrist;

static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void zobrist_init(void) {
    uint64_t state = 0x48616E7375ULL; // "Hansu"
    for (int pc = 0; pc < PIECE_NB; pc++)
        for (int sq = 0; sq < SQUARE_NB; sq++)
            zobrist.piece[pc][sq] = piece_kind((Piece)pc) ? splitmix64(&state) : 0;
    zobrist.side = splitmix64(&state);
}
