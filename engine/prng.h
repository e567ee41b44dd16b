// SPDX-License-Identifier: MIT
// SplitMix64 (Steele, Lea, Flood 2014): the one small seeded generator every room uses
// (Zobrist keys, opening plies, game seeds, the tuner's shuffles, tests).
#pragma once

#include <stdint.h>

/// Advances *state and returns the next 64-bit value of its SplitMix64 stream.
static inline uint64_t prng_next(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
