// SPDX-License-Identifier: MIT
// Hansu evaluation weights. GENERATED FILE - DO NOT EDIT; regenerate it.
// generator: hansu print-weights
// variant: janggi
// note: material values only, every other term zero: the demo's deliberately simple start
// made: hansu print-weights, hand-set.h's material values, every other term zeroed by hand
// inputs: (none)
// filters: (none)
// K: 0.000000  epochs: 0
// final loss (MSE): train 0.00000000  validation 0.00000000
// Layout: engine/janggi/eval_terms.def and engine/eval.h; S(mg, eg) in centipawns.
#pragma once

#include "eval.h"

// clang-format off
static const EvalWeight EVAL_WEIGHTS_DATA[785] = {
    // MATERIAL (material): value of each piece on the board (general unused)
    S(    0,     0), // none
    S(    0,     0), // general
    S(  300,   300), // guard
    S( 1300,  1300), // chariot
    S(  700,   550), // cannon
    S(  500,   550), // horse
    S(  300,   330), // elephant
    S(  200,   260), // soldier

    // PST (pst): piece-square bonus, own side's view, rank 10 printed first
    // pst none, rank 10 (top) to rank 1, files a to i
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 10
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 9
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 8
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 7
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 6
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 5
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 4
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 3
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 2
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 1
    // pst general, rank 10 (top) to rank 1, files a to i
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 10
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 9
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 8
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 7
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 6
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 5
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 4
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 3
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 2
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 1
    // pst guard, rank 10 (top) to rank 1, files a to i
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 10
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 9
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 8
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 7
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 6
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 5
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 4
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 3
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 2
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 1
    // pst chariot, rank 10 (top) to rank 1, files a to i
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 10
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 9
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 8
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 7
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 6
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 5
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 4
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 3
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 2
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 1
    // pst cannon, rank 10 (top) to rank 1, files a to i
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 10
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 9
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 8
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 7
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 6
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 5
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 4
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 3
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 2
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 1
    // pst horse, rank 10 (top) to rank 1, files a to i
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 10
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 9
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 8
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 7
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 6
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 5
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 4
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 3
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 2
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 1
    // pst elephant, rank 10 (top) to rank 1, files a to i
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 10
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 9
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 8
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 7
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 6
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 5
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 4
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 3
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 2
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 1
    // pst soldier, rank 10 (top) to rank 1, files a to i
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 10
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 9
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 8
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 7
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 6
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 5
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 4
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 3
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 2
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 1

    // MOBILITY (mobility): per pseudo-legal target point (empty or enemy) of a piece
    S(    0,     0), // none
    S(    0,     0), // general
    S(    0,     0), // guard
    S(    0,     0), // chariot
    S(    0,     0), // cannon
    S(    0,     0), // horse
    S(    0,     0), // elephant
    S(    0,     0), // soldier

    // PALACE_ATTACK (palace_attack): per enemy-palace point (diagonals included) a piece bears on
    S(    0,     0), // none
    S(    0,     0), // general
    S(    0,     0), // guard
    S(    0,     0), // chariot
    S(    0,     0), // cannon
    S(    0,     0), // horse
    S(    0,     0), // elephant
    S(    0,     0), // soldier

    // GUARD_SHIELD (guard_shield): per guard one palace step from its own general
    S(    0,     0),

    // ELEPHANT_HOME (elephant_home): per elephant on its own first three ranks, near the palace
    S(    0,     0),

    // OPEN_PALACE_FILE (open_palace_file): per palace file (d, e, f) with no own piece in front of the own palace
    S(    0,     0),

    // CHARIOT_PALACE_FILE (chariot_palace_file): per chariot on a palace file with nothing between it and the enemy palace
    S(    0,     0),

    // CANNON_SCREEN (cannon_screen): per cannon line whose first piece can serve as a screen (not a cannon)
    S(    0,     0),

    // SOLDIER_CONNECTED (soldier_connected): per soldier with an own soldier beside it on the same rank
    S(    0,     0),

    // SOLDIER_ADVANCED (soldier_advanced): per soldier beyond the middle of the board (own rank 6 or more)
    S(    0,     0),

    // SOLDIER_PALACE (soldier_palace): per soldier inside the enemy palace
    S(    0,     0),

    // HORSE_BLOCKED (horse_blocked): per horse move blocked by a piece on its leg point
    S(    0,     0),

    // ELEPHANT_BLOCKED (elephant_blocked): per elephant move blocked on its path
    S(    0,     0),

    // TEMPO (tempo): for the side to move
    S(    0,     0),

    // POINTS_LATE (points_late): half points of the rules (Han's 1.5 included) times plies into the last 40 before the 200-ply limit
    S(    0,     0),

    // HANGING (hanging): per own piece attacked and undefended, or attacked by a cheaper piece (general unused)
    S(    0,     0), // none
    S(    0,     0), // general
    S(    0,     0), // guard
    S(    0,     0), // chariot
    S(    0,     0), // cannon
    S(    0,     0), // horse
    S(    0,     0), // elephant
    S(    0,     0), // soldier

    // DANGER_ATTACKER (danger_attacker): danger to the enemy general: per own piece attacking its ring
    S(    0,     0), // none
    S(    0,     0), // general
    S(    0,     0), // guard
    S(    0,     0), // chariot
    S(    0,     0), // cannon
    S(    0,     0), // horse
    S(    0,     0), // elephant
    S(    0,     0), // soldier

    // DANGER_RING_ATTACK (danger_ring_attack): per attack of an own piece on a ring point
    S(    0,     0),

    // DANGER_WEAK_RING (danger_weak_ring): per ring point attacked by us and defended by fewer than two enemy pieces
    S(    0,     0),

    // DANGER_SAFE_CHECK (danger_safe_check): per kind with a check next move onto a point the enemy does not attack
    S(    0,     0), // none
    S(    0,     0), // general
    S(    0,     0), // guard
    S(    0,     0), // chariot
    S(    0,     0), // cannon
    S(    0,     0), // horse
    S(    0,     0), // elephant
    S(    0,     0), // soldier

    // DANGER_UNSAFE_CHECK (danger_unsafe_check): per kind whose checks next move all land on attacked points
    S(    0,     0),

    // DANGER_PINNED (danger_pinned): per enemy piece pinned to its general: a chariot line's sole blocker, a cannon line's second screen, a horse or elephant leg
    S(    0,     0),

    // DANGER_OFFSET (danger_offset): 1 for each side: the index's constant
    S(    0,     0),
};

// Not tuned (engine/eval.h): phase weight per kind (none, general, guard, chariot,
// cannon, horse, elephant, soldier), the phase of the full set, and the plies
// before the 200-ply limit at which points_late starts to count.
static const int EVAL_PHASE_WEIGHT_DATA[8] = {0, 0, 0, 4, 2, 2, 1, 0};
enum { EVAL_PHASE_MAX_DATA = 36, EVAL_POINTS_WINDOW_DATA = 40 };
// clang-format on
