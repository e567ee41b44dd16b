// SPDX-License-Identifier: MIT
// Hansu evaluation weights. GENERATED FILE - DO NOT EDIT; regenerate it.
// generator: hansu print-weights
// variant: xiangqi
// converted: the 29 entries of the hanging and danger terms (added after this header was made) appended as zeros, which give its evaluation unchanged (docs/tuning.md)
// note: hand-set initial values (not tuned)
// inputs: (none)
// filters: (none)
// K: 0.000000  epochs: 0
// final loss (MSE): train 0.00000000  validation 0.00000000
// Layout: engine/xiangqi/eval_terms.def and engine/eval.h; S(mg, eg) in centipawns.
#pragma once

#include "eval.h"

// clang-format off
static const EvalWeight EVAL_WEIGHTS_DATA[769] = {
    // MATERIAL (material): value of each piece on the board (general unused)
    S(    0,     0), // none
    S(    0,     0), // general
    S(  200,   220), // advisor
    S(  900,  1000), // chariot
    S(  450,   420), // cannon
    S(  400,   450), // horse
    S(  200,   220), // elephant
    S(   80,   110), // soldier

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
    S(    0,     0), S(    0,     0), S(    0,     0), S(  -15,    -5), S(  -15,    -5), S(  -15,    -5), S(    0,     0), S(    0,     0), S(    0,     0), // 3
    S(    0,     0), S(    0,     0), S(    0,     0), S(   -5,     0), S(   -5,     0), S(   -5,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 2
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(   10,    10), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 1
    // pst advisor, rank 10 (top) to rank 1, files a to i
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 10
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 9
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 8
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 7
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 6
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 5
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 4
    S(    0,     0), S(    0,     0), S(    0,     0), S(   -5,    -5), S(    0,     0), S(   -5,    -5), S(    0,     0), S(    0,     0), S(    0,     0), // 3
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    5,     5), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 2
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 1
    // pst chariot, rank 10 (top) to rank 1, files a to i
    S(   10,    10), S(   10,    10), S(   10,    10), S(   15,    15), S(   13,    13), S(   15,    15), S(   10,    10), S(   10,    10), S(   10,    10), // 10
    S(   15,    15), S(   15,    15), S(   15,    15), S(   20,    20), S(   18,    18), S(   20,    20), S(   15,    15), S(   15,    15), S(   15,    15), // 9
    S(   15,    15), S(   15,    15), S(   15,    15), S(   20,    20), S(   18,    18), S(   20,    20), S(   15,    15), S(   15,    15), S(   15,    15), // 8
    S(   10,    10), S(   10,    10), S(   10,    10), S(   15,    15), S(   13,    13), S(   15,    15), S(   10,    10), S(   10,    10), S(   10,    10), // 7
    S(   10,    10), S(   10,    10), S(   10,    10), S(   15,    15), S(   13,    13), S(   15,    15), S(   10,    10), S(   10,    10), S(   10,    10), // 6
    S(    0,     0), S(    0,     0), S(    0,     0), S(    5,     5), S(    3,     3), S(    5,     5), S(    0,     0), S(    0,     0), S(    0,     0), // 5
    S(    0,     0), S(    0,     0), S(    0,     0), S(    5,     5), S(    3,     3), S(    5,     5), S(    0,     0), S(    0,     0), S(    0,     0), // 4
    S(    0,     0), S(    0,     0), S(    0,     0), S(    5,     5), S(    3,     3), S(    5,     5), S(    0,     0), S(    0,     0), S(    0,     0), // 3
    S(    0,     0), S(    0,     0), S(    0,     0), S(    5,     5), S(    3,     3), S(    5,     5), S(    0,     0), S(    0,     0), S(    0,     0), // 2
    S(  -10,   -10), S(    0,     0), S(    0,     0), S(    5,     5), S(    3,     3), S(    5,     5), S(    0,     0), S(    0,     0), S(  -10,   -10), // 1
    // pst cannon, rank 10 (top) to rank 1, files a to i
    S(    0,     0), S(    5,     2), S(    5,     2), S(    5,     2), S(   10,     5), S(    5,     2), S(    5,     2), S(    5,     2), S(    0,     0), // 10
    S(   -5,    -3), S(    0,     0), S(    0,     0), S(    0,     0), S(    5,     2), S(    0,     0), S(    0,     0), S(    0,     0), S(   -5,    -3), // 9
    S(   -5,    -3), S(    0,     0), S(    0,     0), S(    0,     0), S(    5,     2), S(    0,     0), S(    0,     0), S(    0,     0), S(   -5,    -3), // 8
    S(   -5,    -3), S(    0,     0), S(    0,     0), S(    0,     0), S(    5,     2), S(    0,     0), S(    0,     0), S(    0,     0), S(   -5,    -3), // 7
    S(   -5,    -3), S(    0,     0), S(    0,     0), S(    0,     0), S(    5,     2), S(    0,     0), S(    0,     0), S(    0,     0), S(   -5,    -3), // 6
    S(   -5,    -3), S(    0,     0), S(    0,     0), S(    0,     0), S(    5,     2), S(    0,     0), S(    0,     0), S(    0,     0), S(   -5,    -3), // 5
    S(   -5,    -3), S(    0,     0), S(    0,     0), S(    0,     0), S(    5,     2), S(    0,     0), S(    0,     0), S(    0,     0), S(   -5,    -3), // 4
    S(   -5,    -3), S(    0,     0), S(    0,     0), S(    0,     0), S(   15,     7), S(    0,     0), S(    0,     0), S(    0,     0), S(   -5,    -3), // 3
    S(   -5,    -3), S(    0,     0), S(    0,     0), S(    0,     0), S(   15,     7), S(    0,     0), S(    0,     0), S(    0,     0), S(   -5,    -3), // 2
    S(   -5,    -3), S(    0,     0), S(    0,     0), S(    0,     0), S(   15,     7), S(    0,     0), S(    0,     0), S(    0,     0), S(   -5,    -3), // 1
    // pst horse, rank 10 (top) to rank 1, files a to i
    S(  -10,   -10), S(    0,     0), S(    5,     5), S(    5,     5), S(    5,     5), S(    5,     5), S(    5,     5), S(    0,     0), S(  -10,   -10), // 10
    S(    5,     5), S(   15,    15), S(   20,    20), S(   20,    20), S(   20,    20), S(   20,    20), S(   20,    20), S(   15,    15), S(    5,     5), // 9
    S(   15,    15), S(   25,    25), S(   30,    30), S(   30,    30), S(   30,    30), S(   30,    30), S(   30,    30), S(   25,    25), S(   15,    15), // 8
    S(   10,    10), S(   20,    20), S(   25,    25), S(   25,    25), S(   25,    25), S(   25,    25), S(   25,    25), S(   20,    20), S(   10,    10), // 7
    S(    5,     5), S(   15,    15), S(   20,    20), S(   20,    20), S(   20,    20), S(   20,    20), S(   20,    20), S(   15,    15), S(    5,     5), // 6
    S(    0,     0), S(   10,    10), S(   15,    15), S(   15,    15), S(   15,    15), S(   15,    15), S(   15,    15), S(   10,    10), S(    0,     0), // 5
    S(   -5,    -5), S(    5,     5), S(   10,    10), S(   10,    10), S(   10,    10), S(   10,    10), S(   10,    10), S(    5,     5), S(   -5,    -5), // 4
    S(   -5,    -5), S(    5,     5), S(   10,    10), S(   10,    10), S(   10,    10), S(   10,    10), S(   10,    10), S(    5,     5), S(   -5,    -5), // 3
    S(  -10,   -10), S(    0,     0), S(    5,     5), S(    5,     5), S(    5,     5), S(    5,     5), S(    5,     5), S(    0,     0), S(  -10,   -10), // 2
    S(  -20,   -20), S(  -10,   -10), S(   -5,    -5), S(   -5,    -5), S(   -5,    -5), S(   -5,    -5), S(   -5,    -5), S(  -10,   -10), S(  -20,   -20), // 1
    // pst elephant, rank 10 (top) to rank 1, files a to i
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 10
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 9
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 8
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 7
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 6
    S(    0,     0), S(    0,     0), S(   -5,    -5), S(    0,     0), S(    0,     0), S(    0,     0), S(   -5,    -5), S(    0,     0), S(    0,     0), // 5
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 4
    S(   -5,    -5), S(    0,     0), S(    0,     0), S(    0,     0), S(    5,     5), S(    0,     0), S(    0,     0), S(    0,     0), S(   -5,    -5), // 3
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 2
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 1
    // pst soldier, rank 10 (top) to rank 1, files a to i
    S(   10,    20), S(   10,    20), S(   10,    20), S(   20,    30), S(   20,    30), S(   20,    30), S(   10,    20), S(   10,    20), S(   10,    20), // 10
    S(   40,    50), S(   50,    60), S(   60,    70), S(   80,    90), S(   90,   100), S(   80,    90), S(   60,    70), S(   50,    60), S(   40,    50), // 9
    S(   40,    50), S(   50,    60), S(   60,    70), S(   80,    90), S(   90,   100), S(   80,    90), S(   60,    70), S(   50,    60), S(   40,    50), // 8
    S(   30,    40), S(   40,    50), S(   50,    60), S(   60,    70), S(   60,    70), S(   60,    70), S(   50,    60), S(   40,    50), S(   30,    40), // 7
    S(   20,    30), S(   30,    40), S(   40,    50), S(   45,    55), S(   50,    60), S(   45,    55), S(   40,    50), S(   30,    40), S(   20,    30), // 6
    S(    0,     0), S(    0,     0), S(    5,     5), S(    0,     0), S(   10,    10), S(    0,     0), S(    5,     5), S(    0,     0), S(    0,     0), // 5
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 4
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 3
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 2
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 1

    // MOBILITY (mobility): per pseudo-legal target point (empty or enemy) of a piece
    S(    0,     0), // none
    S(    0,     0), // general
    S(    1,     1), // advisor
    S(    4,     5), // chariot
    S(    2,     2), // cannon
    S(    6,     7), // horse
    S(    1,     1), // elephant
    S(    0,     0), // soldier

    // HORSE_BLOCKED (horse_blocked): per horse move blocked by a piece on its leg point
    S(   -5,    -5),

    // CANNON_SCREEN (cannon_screen): per cannon with a screen between it and the enemy general on its file
    S(   15,    10),

    // GUARDS_MISSING (guards_missing): per own advisor or elephant off the board, while the enemy has a chariot or cannon
    S(  -20,   -10),

    // TEMPO (tempo): for the side to move
    S(   10,     5),

    // HANGING (hanging): per own piece attacked and undefended, or attacked by a cheaper piece (general unused)
    S(    0,     0), // none
    S(    0,     0), // general
    S(    0,     0), // advisor
    S(    0,     0), // chariot
    S(    0,     0), // cannon
    S(    0,     0), // horse
    S(    0,     0), // elephant
    S(    0,     0), // soldier

    // DANGER_ATTACKER (danger_attacker): danger to the enemy general: per own piece attacking its ring
    S(    0,     0), // none
    S(    0,     0), // general
    S(    0,     0), // advisor
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
    S(    0,     0), // advisor
    S(    0,     0), // chariot
    S(    0,     0), // cannon
    S(    0,     0), // horse
    S(    0,     0), // elephant
    S(    0,     0), // soldier

    // DANGER_UNSAFE_CHECK (danger_unsafe_check): per kind whose checks next move all land on attacked points
    S(    0,     0),

    // DANGER_PINNED (danger_pinned): per enemy piece pinned to its general: a chariot line's sole blocker, a cannon line's screen with a second, a horse leg
    S(    0,     0),

    // DANGER_OFFSET (danger_offset): 1 for each side: the index's constant
    S(    0,     0),
};

// Not tuned (engine/eval.h): phase weight per kind (none, general, advisor, chariot,
// cannon, horse, elephant, soldier) and the phase of the full set.
static const int EVAL_PHASE_WEIGHT_DATA[8] = {0, 0, 0, 4, 2, 2, 0, 0};
enum { EVAL_PHASE_MAX_DATA = 32 };
// clang-format on
