// SPDX-License-Identifier: MIT
// Xiangqi's own pieces of the variant seam: its move tables, built once at start-up, and its
// placement rules. The variant description itself is VARIANT_XIANGQI (variant.h, defined in
// xiangqi/variant.c); the rules are docs/rules-xiangqi.md.
#pragma once

#include "geometry.h"
#include "status.h"

/// Xiangqi's move tables: orthogonal rays only (no palace diagonals), the general's orthogonal
/// and the advisor's diagonal palace steps, horse paths, elephant paths that stay on their own
/// side of the river, soldier steps. Valid after engine_init(); read-only afterwards.
extern Geometry xiangqi_geometry;

/// Fills xiangqi_geometry. Called once by engine_init().
void xiangqi_geometry_init(void);

/// True when an elephant of side may stand on sq: one of its 7 points on its own side.
bool xiangqi_elephant_point(Side side, Square sq);

/// True when a soldier of side may stand on sq: on its own side only on the 5 files it starts
/// on, no nearer its own back rank than its start rank; anywhere past the river.
bool xiangqi_soldier_point(Side side, Square sq);

/// True when sq lies on side's half of the board (Red: ranks 1-5).
bool xiangqi_own_half(Side side, Square sq);
