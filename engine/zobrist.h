// SPDX-License-Identifier: MIT
// Zobrist keys: one random 64-bit key per (piece, square) and one for the side to move.
#pragma once

#include "types.h"

typedef struct ZobristKeys {
    uint64_t piece[PIECE_NB][SQUARE_NB];
    uint64_t side; // xor-ed in when Han is to move
} ZobristKeys;

/// The keys. Valid after engine_init(); the same on every run (fixed seed).
extern ZobristKeys zobrist;

/// Fills the keys from a fixed-seed SplitMix64 stream. Called once by engine_init().
void zobrist_init(void);
