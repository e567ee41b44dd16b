// SPDX-License-Identifier: MIT
// clang-format off
// Hansu evaluation weights. GENERATED FILE - DO NOT EDIT; regenerate it.
// generator: hansu-tune 0.1.0
// variant: xiangqi
// note: Texel tuning of 1124895 train / 116167 validation positions, kept epoch 22
// input: /work/data/xq/sp/shard-000000.h5 sha256:94ccfad9b0a5a4d05b9ead4c756cf6eafe44d73fab47fa218fdab6c3d3f4aa0f
// input: /work/data/xq/sp/shard-000001.h5 sha256:905c1d271085ca4864d59b2cc5430d380ca335b3a90bf6c42a82ccfd7499da34
// input: /work/data/xq/sp/shard-000002.h5 sha256:3767cdb5dffcf61ca2034eb9d993144cef7c6f53b928f544f5b334d3f7cffaca
// input: /work/data/xq/sp/shard-000003.h5 sha256:63425601b592f32a4ec7c0d908dd6e91af55aaefcb72484f356134f2b8a24c66
// input: /work/data/xq/sp/shard-000004.h5 sha256:5ac7b8622a82b599df80abee9d36ee5a69eb68e1e72ce536f1838bbeb9b35cde
// input: /work/data/xq/sp/shard-000005.h5 sha256:64cea142897f14d48a739aa27db8a3c9fcb635dda01a8a9e4bd9aba64e67433c
// input: /work/data/xq/sp/shard-000006.h5 sha256:8e3202c59dc5eed6feaf23d3a191a95f276d64a86d3b462a0773f362d869d0d4
// filters: --skip-plies 8 --min-ply 0 --max-ply -1 --max-score -1 --skip-check --skip-capture --per-game 0 --valid 0.1 --seed 2727 --lambda 0.5 --l2 100 --optimizer adam --lr 1 --batch 4096 --epochs 60 --patience 8 --freeze pst,mobility --init /work/xq-wt/data/weights/xiangqi-safety-start.h
// K: 0.247777  epochs: 30
// final loss (MSE): train 0.01881204  validation 0.01970474
// Layout: engine/xiangqi/eval_terms.def and engine/eval.h; S(mg, eg) in centipawns.
#pragma once

#include "eval.h"

static const EvalWeight EVAL_WEIGHTS_DATA[769] = {
    // MATERIAL (material): value of each piece on the board (general unused)
    S(    0,     0), // none
    S(    0,     0), // general
    S(  221,    84), // advisor
    S(  987,  1121), // chariot
    S(  503,   404), // cannon
    S(  450,   425), // horse
    S(  196,   108), // elephant
    S(   80,   204), // soldier

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
    S(   -1,    -7),

    // CANNON_SCREEN (cannon_screen): per cannon with a screen between it and the enemy general on its file
    S(   42,    26),

    // GUARDS_MISSING (guards_missing): per own advisor or elephant off the board, while the enemy has a chariot or cannon
    S(  -77,    29),

    // TEMPO (tempo): for the side to move
    S(   31,     0),

    // HANGING (hanging): per own piece attacked and undefended, or attacked by a cheaper piece (general unused)
    S(    0,     0), // none
    S(    0,     0), // general
    S(  -18,    14), // advisor
    S(  -39,   -33), // chariot
    S(  -69,   -64), // cannon
    S(  -62,   -49), // horse
    S(  -50,   -24), // elephant
    S(  -23,   -48), // soldier

    // DANGER_ATTACKER (danger_attacker): danger to the enemy general: per own piece attacking its ring
    S(    0,     0), // none
    S(    0,     0), // general
    S(    0,     0), // advisor
    S(   32,    47), // chariot
    S(   33,    33), // cannon
    S(   55,    43), // horse
    S(   18,    18), // elephant
    S(   31,    26), // soldier

    // DANGER_RING_ATTACK (danger_ring_attack): per attack of an own piece on a ring point
    S(   39,    28),

    // DANGER_WEAK_RING (danger_weak_ring): per ring point attacked by us and defended by fewer than two enemy pieces
    S(   21,    14),

    // DANGER_SAFE_CHECK (danger_safe_check): per kind with a check next move onto a point the enemy does not attack
    S(    0,     0), // none
    S(    0,     0), // general
    S(    0,     0), // advisor
    S(  161,    88), // chariot
    S(  107,    54), // cannon
    S(   72,    58), // horse
    S(   31,    25), // elephant
    S(   32,    28), // soldier

    // DANGER_UNSAFE_CHECK (danger_unsafe_check): per kind whose checks next move all land on attacked points
    S(   46,    51),

    // DANGER_PINNED (danger_pinned): per enemy piece pinned to its general: a chariot line's sole blocker, a cannon line's screen with a second, a horse leg
    S(   64,    52),

    // DANGER_OFFSET (danger_offset): 1 for each side: the index's constant
    S(   38,   -21),
};

// Not tuned (engine/eval.h): phase weight per kind (none, general, advisor, chariot,
// cannon, horse, elephant, soldier) and the phase of the full set.
static const int EVAL_PHASE_WEIGHT_DATA[8] = {0, 0, 0, 4, 2, 2, 0, 0};
enum { EVAL_PHASE_MAX_DATA = 32 };
// clang-format on
