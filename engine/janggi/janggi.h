// SPDX-License-Identifier: MIT
// Janggi's own pieces of the variant seam: its move tables, built once at start-up.
// The variant description itself is VARIANT_JANGGI (variant.h, defined in janggi/variant.c).
#pragma once

#include "geometry.h"

// The palaces: files d..f, the 3 ranks nearest each side (rules page, "Board").
enum { JANGGI_PALACE_FILE_MIN = 3, JANGGI_PALACE_FILE_MAX = 5, JANGGI_PALACE_RANKS = 3 };

/// Janggi's move tables (palace lines and diagonals, horse and elephant paths, soldier
/// steps). Valid after engine_init(); read-only afterwards, through Board.geo.
extern Geometry janggi_geometry;

/// Fills janggi_geometry. Called once by engine_init().
void janggi_geometry_init(void);
