// SPDX-License-Identifier: MIT
// Zobrist key tables, filled from SplitMix64 (Steele, Lea, Flood 2014) with a fixed seed
// so that keys, and therefore TT behaviour and bench, are the same on every run.
#include "zobrist.h"

#include "prng.h"

ZobristKeys zobrist;

void zobrist_init(void) {
    uint64_t state = 0x48616E7375ULL; // "Hansu"
    for (int pc = 0; pc < PIECE_NB; pc++)
        for (int sq = 0; sq < SQUARE_NB; sq++)
            zobrist.piece[pc][sq] = piece_kind((Piece)pc) ? prng_next(&state) : 0;
    zobrist.side = prng_next(&state);
}
