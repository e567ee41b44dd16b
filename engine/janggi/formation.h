// SPDX-License-Identifier: MIT
// The four formations of horses and elephants and the 16 start positions they pair into.
#pragma once

#include "status.h"
#include "types.h"

/// A formation, named from the player's own left (for Han, its own left is file i).
typedef enum {
    MA_SANG_SANG_MA = 0, // horse, elephant, elephant, horse
    SANG_MA_SANG_MA,     // elephant, horse, elephant, horse
    MA_SANG_MA_SANG,     // horse, elephant, horse, elephant
    SANG_MA_MA_SANG,     // elephant, horse, horse, elephant
    FORMATION_NB
} Formation;

enum { PAIRING_NB = FORMATION_NB * FORMATION_NB };

/// The names, FORMATION_NB entries, as written on the rules page.
extern const char *const FORMATION_NAMES[FORMATION_NB];

/// The name as written on the rules page, e.g. "ma-sang-sang-ma".
const char *formation_name(Formation f);

/// Parses a formation name. Returns STATUS_SYNTAX with a message for an unknown name.
Status formation_parse(const char *name, Formation *out, ErrorInfo *err);

/// Sets up the start position of the (Cho, Han) pairing, Cho to move, ply 0.
void formation_setup(Board *b, Formation cho, Formation han);

/// Pairing index 0..15 = cho * 4 + han, and back.
static inline int pairing_index(Formation cho, Formation han) { return cho * FORMATION_NB + han; }
static inline Formation pairing_cho(int pairing) { return (Formation)(pairing / FORMATION_NB); }
static inline Formation pairing_han(int pairing) { return (Formation)(pairing % FORMATION_NB); }
