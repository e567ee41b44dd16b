// SPDX-License-Identifier: MIT
// Move tables of a 9x10 board, built once at start-up by the variant (janggi/geometry.c):
// rays along files, ranks and the palace diagonals, the palace steps of general and guard,
// horse and elephant paths with their blocking points, soldier steps, and the reverse
// (attacker) tables. The core reads them through the Board (Board.geo).
#pragma once

#include "types.h"

/// A set of the 90 points, bit sq for point sq (GCC's and Clang's 128-bit integer).
__extension__ typedef unsigned __int128 Points;

/// A line of points from a square outward, nearest first.
typedef struct Ray {
    uint8_t len;
    uint8_t sq[9];
} Ray;

/// A horse move: the orthogonal point that blocks it, then the destination.
typedef struct HorseStep {
    uint8_t leg, to;
} HorseStep;

/// An elephant move: the straight point, the first diagonal point, then the destination.
typedef struct ElephantStep {
    uint8_t leg1, leg2, to;
} ElephantStep;

/// All tables; filled by the variant's init at start-up and read-only afterwards.
typedef struct Geometry {
    int8_t palace_of[SQUARE_NB]; // CHO or HAN palace, -1 outside both
    Ray rays[SQUARE_NB][8];      // 4 orthogonal rays (N, S, E, W) then palace diagonals
    uint8_t ray_count[SQUARE_NB];
    uint8_t palace_steps[SQUARE_NB][8]; // general steps along palace lines
    uint8_t palace_step_count[SQUARE_NB];
    uint8_t guard_steps[SQUARE_NB][8]; // guard steps (janggi: the general's; xiangqi: diagonal)
    uint8_t guard_step_count[SQUARE_NB];
    HorseStep horse[SQUARE_NB][8];
    uint8_t horse_count[SQUARE_NB];
    ElephantStep elephant[SQUARE_NB][8];
    uint8_t elephant_count[SQUARE_NB];
    uint8_t soldier[SIDE_NB][SQUARE_NB][5];
    uint8_t soldier_count[SIDE_NB][SQUARE_NB];
    // Reverse tables: from where a piece attacks a square. `to` holds the attacker's square.
    HorseStep horse_from[SQUARE_NB][8];
    uint8_t horse_from_count[SQUARE_NB];
    ElephantStep elephant_from[SQUARE_NB][8];
    uint8_t elephant_from_count[SQUARE_NB];
    uint8_t soldier_from[SIDE_NB][SQUARE_NB][6]; // squares of side's soldiers that attack sq
    uint8_t soldier_from_count[SIDE_NB][SQUARE_NB];
    // ray_of[g][s]: index of the ray of g that passes through s, -1 if none. A change of
    // occupancy on s can create a chariot or cannon attack on g only along that ray.
    int8_t ray_of[SQUARE_NB][SQUARE_NB];
    // leg_of[g][s]: s is one or two diagonal steps from g, where the blocking points of a
    // horse or elephant attack on g lie. Emptying s can create such an attack.
    uint8_t leg_of[SQUARE_NB][SQUARE_NB];
    // The same tables as sets, for the evaluations' attack maps (attacks.h): ray_points[s][r]
    // the points of rays[s][r], palace_step_points[s] those of palace_steps[s],
    // guard_step_points[s] those of guard_steps[s], soldier_points[side][s] those of
    // soldier[side][s], palace_points[side] the points of side's palace (palace_of).
    Points ray_points[SQUARE_NB][8];
    Points palace_step_points[SQUARE_NB];
    Points guard_step_points[SQUARE_NB];
    Points soldier_points[SIDE_NB][SQUARE_NB];
    Points palace_points[SIDE_NB];
} Geometry;

/// Adds the horse's steps, the same in both variants: one point straight (the leg, which
/// blocks), then one diagonally outward, wherever that lands on the board.
void geometry_add_horse_steps(Geometry *g);

/// Fills the tables every variant derives alike from its own move tables (the reverse tables,
/// ray_of, leg_of, the point sets), after the variant has built rays, steps, leapers and soldier
/// steps into g (zeroed before). Called once by each variant's *_geometry_init().
void geometry_derive(Geometry *g);

/// True when sq lies in the palace of side.
static inline bool geometry_in_palace(const Geometry *geo, Side side, Square sq) {
    return geo->palace_of[sq] == (int8_t)side;
}
