// SPDX-License-Identifier: MIT
// Hansu evaluation weights. GENERATED FILE - DO NOT EDIT; regenerate it.
// generator: hansu-tune 0.1.0
// variant: xiangqi
// start: the shipped xiangqi weights (xiangqi-train-1) with the 29 hanging and danger entries set by hand to janggi's tuned values (engine/janggi/eval_weights.h), the tuner's start for xiangqi's safety terms; not tuned for xiangqi
// note: Texel tuning of 584212 train / 64857 validation positions, kept epoch 7
// input: /work/wt-xqtrain/runs/train-xiangqi/iter-001/selfplay/shard-000000.h5 sha256:1474ec546c89d565b8ec910dc784b6bc8b818826d31119a090ac292e81f2748b
// input: /work/wt-xqtrain/runs/train-xiangqi/iter-001/selfplay/shard-000001.h5 sha256:c0622444ee9c7fdffc93bf1a4fba9f31670c1b0bd00ffbb684b1e2257e5d9cc2
// input: /work/wt-xqtrain/runs/train-xiangqi/iter-002/selfplay/shard-000000.h5 sha256:9690e50a84110780c2399f8dee2891c99a3d497d864ede2dc57bbf18bc88e6e5
// input: /work/wt-xqtrain/runs/train-xiangqi/iter-002/selfplay/shard-000001.h5 sha256:207707ac144872b0bfcc41d52f18b9bf6f97da4c7fad242993f1ee7946c8e693
// filters: --skip-plies 8 --min-ply 0 --max-ply -1 --max-score -1 --skip-check --skip-capture --per-game 0 --valid 0.1 --seed 1003 --lambda 0.5 --l2 100 --optimizer adam --lr 1 --batch 4096 --epochs 60 --patience 8 --freeze pst,mobility
// K: 0.201638  epochs: 15
// final loss (MSE): train 0.01884945  validation 0.02104464
// Layout: engine/xiangqi/eval_terms.def and engine/eval.h; S(mg, eg) in centipawns.
#pragma once

#include "eval.h"

// clang-format off
static const EvalWeight EVAL_WEIGHTS_DATA[769] = {
    // MATERIAL (material): value of each piece on the board (general unused)
    S(    0,     0), // none
    S(    0,     0), // general
    S(  215,   148), // advisor
    S(  936,  1053), // chariot
    S(  473,   414), // cannon
    S(  431,   452), // horse
    S(  193,   161), // elephant
    S(   80,   167), // soldier

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
    S(   -1,    -9),

    // CANNON_SCREEN (cannon_screen): per cannon with a screen between it and the enemy general on its file
    S(   26,    16),

    // GUARDS_MISSING (guards_missing): per own advisor or elephant off the board, while the enemy has a chariot or cannon
    S(  -48,     9),

    // TEMPO (tempo): for the side to move
    S(   14,     2),

    // HANGING (hanging): per own piece attacked and undefended, or attacked by a cheaper piece (general unused)
    S(    0,     0), // none
    S(    0,     0), // general
    S(  -22,   -18), // advisor
    S(  -41,   -37), // chariot
    S(  -68,   -69), // cannon
    S(  -62,   -44), // horse
    S(  -49,   -33), // elephant
    S(  -21,   -46), // soldier

    // DANGER_ATTACKER (danger_attacker): danger to the enemy general: per own piece attacking its ring
    S(    0,     0), // none
    S(    0,     0), // general
    S(    0,     0), // advisor
    S(   31,    45), // chariot
    S(   30,    31), // cannon
    S(   32,    27), // horse
    S(   18,    18), // elephant
    S(   22,    18), // soldier

    // DANGER_RING_ATTACK (danger_ring_attack): per attack of an own piece on a ring point
    S(   22,    23),

    // DANGER_WEAK_RING (danger_weak_ring): per ring point attacked by us and defended by fewer than two enemy pieces
    S(   13,    26),

    // DANGER_SAFE_CHECK (danger_safe_check): per kind with a check next move onto a point the enemy does not attack
    S(    0,     0), // none
    S(    0,     0), // general
    S(    0,     0), // advisor
    S(  150,    96), // chariot
    S(  101,    53), // cannon
    S(   56,    45), // horse
    S(   31,    25), // elephant
    S(   31,    27), // soldier

    // DANGER_UNSAFE_CHECK (danger_unsafe_check): per kind whose checks next move all land on attacked points
    S(   34,    23),

    // DANGER_PINNED (danger_pinned): per enemy piece pinned to its general: a chariot line's sole blocker, a cannon line's screen with a second, a horse leg
    S(   56,    39),

    // DANGER_OFFSET (danger_offset): 1 for each side: the index's constant
    S(   18,   -22),
};

// Not tuned (engine/eval.h): phase weight per kind (none, general, advisor, chariot,
// cannon, horse, elephant, soldier) and the phase of the full set.
static const int EVAL_PHASE_WEIGHT_DATA[8] = {0, 0, 0, 4, 2, 2, 0, 0};
enum { EVAL_PHASE_MAX_DATA = 32 };
// clang-format on
