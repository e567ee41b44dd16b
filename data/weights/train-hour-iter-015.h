// SPDX-License-Identifier: MIT
// Hansu evaluation weights. GENERATED FILE - DO NOT EDIT; regenerate it.
// generator: hansu-tune 0.1.0
// converted: the 29 entries of the general-safety and hanging terms (added after this header was made) appended as zeros, which give its evaluation unchanged (docs/tuning.md)
// note: Texel tuning of 457926 train / 49517 validation positions, kept epoch 9
// input: /work/runs/train-hour/iter-013/selfplay/shard-000000.h5 sha256:e1b76f26bc2cabaf1c1362c63beed4acb476ebd3f0c7f80d9d5e4912ab446011
// input: /work/runs/train-hour/iter-014/selfplay/shard-000000.h5 sha256:005743ece1613a48ac914270198e0d7bf6288389ac5c7c88887b40603fe5c18f
// input: /work/runs/train-hour/iter-015/selfplay/shard-000000.h5 sha256:a8831aa7462cf91422f9c9bcc8df576b4db815a25b0c8618135638aece4c79b4
// filters: --skip-plies 8 --min-ply 0 --max-ply -1 --max-score -1 --skip-check --skip-capture --per-game 0 --valid 0.1 --seed 1015 --lambda 0.5 --optimizer adam --lr 1 --batch 4096 --epochs 60 --patience 8 --freeze pst
// K: 0.435994  epochs: 17
// final loss (MSE): train 0.04221725  validation 0.04260199
// Layout: engine/eval_terms.def and engine/eval.h; S(mg, eg) in centipawns.
#pragma once

#include "eval.h"

// clang-format off
static const EvalWeight EVAL_WEIGHTS_DATA[785] = {
    // MATERIAL (material): value of each piece on the board (general unused)
    S(    0,     0), // none
    S(    0,     0), // general
    S(  180,   372), // guard
    S(  747,  2105), // chariot
    S(  400,   726), // cannon
    S(  261,   655), // horse
    S(  230,   385), // elephant
    S(   89,    88), // soldier

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
    S(    0,     0), S(    0,     0), S(    0,     0), S(   -5,    -5), S(   -5,    -5), S(   -5,    -5), S(    0,     0), S(    0,     0), S(    0,     0), // 3
    S(    0,     0), S(    0,     0), S(    0,     0), S(   -5,    -5), S(   10,    10), S(   -5,    -5), S(    0,     0), S(    0,     0), S(    0,     0), // 2
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
    S(    0,     0), S(    0,     0), S(    0,     0), S(    5,     5), S(    5,     5), S(    5,     5), S(    0,     0), S(    0,     0), S(    0,     0), // 2
    S(    0,     0), S(    0,     0), S(    0,     0), S(    5,     5), S(    5,     5), S(    5,     5), S(    0,     0), S(    0,     0), S(    0,     0), // 1
    // pst chariot, rank 10 (top) to rank 1, files a to i
    S(   10,    10), S(   10,    10), S(   10,    10), S(   10,    10), S(   15,    10), S(   10,    10), S(   10,    10), S(   10,    10), S(   10,    10), // 10
    S(   10,    10), S(   10,    10), S(   10,    10), S(   10,    10), S(   15,    10), S(   10,    10), S(   10,    10), S(   10,    10), S(   10,    10), // 9
    S(   10,    10), S(   10,    10), S(   10,    10), S(   10,    10), S(   15,    10), S(   10,    10), S(   10,    10), S(   10,    10), S(   10,    10), // 8
    S(   10,    10), S(   10,    10), S(   10,    10), S(   10,    10), S(   15,    10), S(   10,    10), S(   10,    10), S(   10,    10), S(   10,    10), // 7
    S(   10,    10), S(   10,    10), S(   10,    10), S(   10,    10), S(   15,    10), S(   10,    10), S(   10,    10), S(   10,    10), S(   10,    10), // 6
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    5,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 5
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    5,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 4
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    5,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 3
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    5,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 2
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    5,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 1
    // pst cannon, rank 10 (top) to rank 1, files a to i
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(   10,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 10
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(   10,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 9
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(   10,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 8
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(   10,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 7
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(   10,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 6
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(   10,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 5
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(   10,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 4
    S(   10,     0), S(   10,     0), S(   10,     0), S(   10,     0), S(   20,     0), S(   10,     0), S(   10,     0), S(   10,     0), S(   10,     0), // 3
    S(   10,     0), S(   10,     0), S(   10,     0), S(   10,     0), S(   20,     0), S(   10,     0), S(   10,     0), S(   10,     0), S(   10,     0), // 2
    S(   10,     0), S(   10,     0), S(   10,     0), S(   10,     0), S(   20,     0), S(   10,     0), S(   10,     0), S(   10,     0), S(   10,     0), // 1
    // pst horse, rank 10 (top) to rank 1, files a to i
    S(  -10,    -8), S(   -7,    -6), S(   -4,    -4), S(   -1,    -2), S(    2,     0), S(   -1,    -2), S(   -4,    -4), S(   -7,    -6), S(  -10,    -8), // 10
    S(   -8,    -6), S(   -5,    -4), S(   -2,    -2), S(    1,     0), S(    4,     2), S(    1,     0), S(   -2,    -2), S(   -5,    -4), S(   -8,    -6), // 9
    S(   -6,    -4), S(   -3,    -2), S(    0,     0), S(    3,     2), S(    6,     4), S(    3,     2), S(    0,     0), S(   -3,    -2), S(   -6,    -4), // 8
    S(   -4,    -2), S(   -1,     0), S(    2,     2), S(    5,     4), S(    8,     6), S(    5,     4), S(    2,     2), S(   -1,     0), S(   -4,    -2), // 7
    S(   -2,     0), S(    1,     2), S(    4,     4), S(    7,     6), S(   10,     8), S(    7,     6), S(    4,     4), S(    1,     2), S(   -2,     0), // 6
    S(    0,     2), S(    3,     4), S(    6,     6), S(    9,     8), S(   12,    10), S(    9,     8), S(    6,     6), S(    3,     4), S(    0,     2), // 5
    S(   -2,     0), S(    1,     2), S(    4,     4), S(    7,     6), S(   10,     8), S(    7,     6), S(    4,     4), S(    1,     2), S(   -2,     0), // 4
    S(   -4,    -2), S(   -1,     0), S(    2,     2), S(    5,     4), S(    8,     6), S(    5,     4), S(    2,     2), S(   -1,     0), S(   -4,    -2), // 3
    S(   -6,    -4), S(   -3,    -2), S(    0,     0), S(    3,     2), S(    6,     4), S(    3,     2), S(    0,     0), S(   -3,    -2), S(   -6,    -4), // 2
    S(   -8,    -6), S(   -5,    -4), S(   -2,    -2), S(    1,     0), S(    4,     2), S(    1,     0), S(   -2,    -2), S(   -5,    -4), S(   -8,    -6), // 1
    // pst elephant, rank 10 (top) to rank 1, files a to i
    S(  -10,   -10), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(  -10,   -10), // 10
    S(  -10,   -10), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(  -10,   -10), // 9
    S(  -10,   -10), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(  -10,   -10), // 8
    S(  -10,   -10), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(  -10,   -10), // 7
    S(  -10,   -10), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(  -10,   -10), // 6
    S(  -10,   -10), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(  -10,   -10), // 5
    S(  -10,   -10), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(  -10,   -10), // 4
    S(  -10,   -10), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(  -10,   -10), // 3
    S(  -10,   -10), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(  -10,   -10), // 2
    S(  -10,   -10), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(  -10,   -10), // 1
    // pst soldier, rank 10 (top) to rank 1, files a to i
    S(   20,    30), S(   20,    30), S(   20,    30), S(   25,    40), S(   25,    40), S(   25,    40), S(   20,    30), S(   20,    30), S(   20,    30), // 10
    S(   40,    60), S(   40,    60), S(   40,    60), S(   45,    70), S(   45,    70), S(   45,    70), S(   40,    60), S(   40,    60), S(   40,    60), // 9
    S(   40,    60), S(   40,    60), S(   40,    60), S(   45,    70), S(   45,    70), S(   45,    70), S(   40,    60), S(   40,    60), S(   40,    60), // 8
    S(   30,    45), S(   30,    45), S(   30,    45), S(   35,    55), S(   35,    55), S(   35,    55), S(   30,    45), S(   30,    45), S(   30,    45), // 7
    S(   20,    30), S(   20,    30), S(   20,    30), S(   25,    40), S(   25,    40), S(   25,    40), S(   20,    30), S(   20,    30), S(   20,    30), // 6
    S(   10,    15), S(   10,    15), S(   10,    15), S(   15,    25), S(   15,    25), S(   15,    25), S(   10,    15), S(   10,    15), S(   10,    15), // 5
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 4
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 3
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 2
    S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), S(    0,     0), // 1

    // MOBILITY (mobility): per pseudo-legal target point (empty or enemy) of a piece
    S(    0,     0), // none
    S(   -1,   -13), // general
    S(   -1,     0), // guard
    S(    6,    14), // chariot
    S(   -1,    15), // cannon
    S(    6,    32), // horse
    S(   -2,    14), // elephant
    S(   16,    65), // soldier

    // PALACE_ATTACK (palace_attack): per enemy-palace point (diagonals included) a piece bears on
    S(    0,     0), // none
    S(    0,     0), // general
    S(    0,     0), // guard
    S(   22,     6), // chariot
    S(    3,     9), // cannon
    S(   55,    39), // horse
    S(   -7,    72), // elephant
    S(  128,     7), // soldier

    // GUARD_SHIELD (guard_shield): per guard one palace step from its own general
    S(   56,    53),

    // ELEPHANT_HOME (elephant_home): per elephant on its own first three ranks, near the palace
    S(  -49,    64),

    // OPEN_PALACE_FILE (open_palace_file): per palace file (d, e, f) with no own piece in front of the own palace
    S(  -22,   -32),

    // CHARIOT_PALACE_FILE (chariot_palace_file): per chariot on a palace file with nothing between it and the enemy palace
    S(  -27,    10),

    // CANNON_SCREEN (cannon_screen): per cannon line whose first piece can serve as a screen (not a cannon)
    S(   13,    40),

    // SOLDIER_CONNECTED (soldier_connected): per soldier with an own soldier beside it on the same rank
    S(   17,    83),

    // SOLDIER_ADVANCED (soldier_advanced): per soldier beyond the middle of the board (own rank 6 or more)
    S(  -13,    29),

    // SOLDIER_PALACE (soldier_palace): per soldier inside the enemy palace
    S( -186,    35),

    // HORSE_BLOCKED (horse_blocked): per horse move blocked by a piece on its leg point
    S(    8,     9),

    // ELEPHANT_BLOCKED (elephant_blocked): per elephant move blocked on its path
    S(  -10,     4),

    // TEMPO (tempo): for the side to move
    S(   19,    24),

    // POINTS_LATE (points_late): half points of the rules (Han's 1.5 included) times plies into the last 40 before the 200-ply limit
    S(  -20,    22),
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
