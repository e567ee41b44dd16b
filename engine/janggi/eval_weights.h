// SPDX-License-Identifier: MIT
// clang-format off
// Hansu evaluation weights. GENERATED FILE - DO NOT EDIT; regenerate it.
// generator: hansu-tune 0.1.0
// variant: janggi
// converted: POINTS_LATE set to S(37, 37), its endgame weight in both phases, where the tuner
//   had fitted S(-26, 37): the point rule decides a game at the move limit whatever is left on
//   the board, and the middlegame weight had rated a lead on points as bad (docs/tuning.md,
//   "The points term is the rules'"); hansu-tune now keeps it (EvalSpec.rule_terms)
// note: Texel tuning of 2645712 train / 293851 validation positions, kept epoch 2
// input: /work/wt-train/runs/train-2core/iter-011/selfplay/shard-000000.h5 sha256:9cd8c68fe174b9f41879cb695a6bbe28d8faed8b4e7260ce3d0564b9ae93fd94
// input: /work/wt-train/runs/train-2core/iter-011/selfplay/shard-000001.h5 sha256:6d0351681ed1328a7ae18c0e11688a33cb3731aa533576c43b0d2c65821d8bf8
// input: /work/wt-train/runs/train-2core/iter-012/selfplay/shard-000000.h5 sha256:46e492e7f5ba431217159cf4df8166b0c3a531ba88cede6cf63ffd687f3cd553
// input: /work/wt-train/runs/train-2core/iter-012/selfplay/shard-000001.h5 sha256:9b84c16182bc83fb17d7d579d70a9b63dfe38224e912f78ecb79867d10779709
// input: /work/wt-train/runs/train-2core/iter-013/selfplay/shard-000000.h5 sha256:e7237422a28fe31bdc9595049fdbcb74cd033f10d5649754526fb3c11afcd13f
// input: /work/wt-train/runs/train-2core/iter-013/selfplay/shard-000001.h5 sha256:7716a603fc89af3454410e792dbc202b6c4c2ddcd4d3130f05939cadb0da4648
// input: /work/wt-train/runs/train-2core/iter-013/selfplay/shard-000002.h5 sha256:cdf7d4d154fe4bf4d05b481598d214af83f0477e93a091cce64b8d68126a9d56
// input: /work/wt-train/runs/train-2core/iter-014/selfplay/shard-000000.h5 sha256:c20da2171abfcc15b008f00c9908fd7153d69635455e456baca51dc128b2cd09
// input: /work/wt-train/runs/train-2core/iter-014/selfplay/shard-000001.h5 sha256:8dae3500fba9b25f5651c99c6ae5478ee3d5299ca429c9615041a4311bf69c27
// input: /work/wt-train/runs/train-2core/iter-015/selfplay/shard-000000.h5 sha256:f8ac93f856705cbb939a4fa6c11bad5023c7de8968d5e89e355afd3099184da8
// input: /work/wt-train/runs/train-2core/iter-015/selfplay/shard-000001.h5 sha256:6e8485e3d6bcbef630ba2187951ae559e3c4ab3d84843fcdf09b0986a3e2e02d
// input: /work/wt-train/runs/train-2core/iter-015/selfplay/shard-000002.h5 sha256:2385f74d6bcceb01b8bda629248040de689b0da4a38acc651b4a7cb0d413809b
// input: /work/wt-train/runs/train-2core/iter-016/selfplay/shard-000000.h5 sha256:240c51ea11b5eec1dd870db5dcc9393920b3992dd47e3468108acf5dffa62d0e
// input: /work/wt-train/runs/train-2core/iter-016/selfplay/shard-000001.h5 sha256:31a875f8e56fb48b2598e6533d2352d0f86f4c33c91cc9380daf5eb3b2c74815
// input: /work/wt-train/runs/train-2core/iter-017/selfplay/shard-000000.h5 sha256:ebf021113838285c03512acdda6a3e138e312cf5ebbca97a0cceafba0772ccb2
// input: /work/wt-train/runs/train-2core/iter-017/selfplay/shard-000001.h5 sha256:bd497b7566fb7fc4613d02c40423ee2441cdd47ceaba47c8dbde97f8b14dabac
// input: /work/wt-train/runs/train-2core/iter-017/selfplay/shard-000002.h5 sha256:5a19adfd569a34b8dcbbfeb26518212ec9b67c7aca9f0fac071590564eb6f75a
// input: /work/wt-train/runs/train-2core/iter-018/selfplay/shard-000000.h5 sha256:760db561aa1120cfba91fa9f9d5d05bb8283f4e3241c66277811e59fc71137a4
// input: /work/wt-train/runs/train-2core/iter-018/selfplay/shard-000001.h5 sha256:c7d8594d2a5620260383305307e729f0a2d7ae494c37b0337ee921ce5374181d
// input: /work/wt-train/runs/train-2core/iter-018/selfplay/shard-000002.h5 sha256:43a8704ee25550932a5792c5e22fd9a4361e50550699f6491d0447daa957ca02
// filters: --skip-plies 8 --min-ply 0 --max-ply -1 --max-score -1 --skip-check --skip-capture --per-game 0 --valid 0.1 --seed 1019 --lambda 0.5 --l2 100 --optimizer adam --lr 1 --batch 4096 --epochs 60 --patience 8 --freeze pst --init data/weights/safety-start.h
// K: 0.415323  epochs: 10
// final loss (MSE): train 0.04200013  validation 0.04292758
// Layout: engine/janggi/eval_terms.def and engine/eval.h; S(mg, eg) in centipawns.
#pragma once

#include "eval.h"

static const EvalWeight EVAL_WEIGHTS_DATA[785] = {
    // MATERIAL (material): value of each piece on the board (general unused)
    S(    0,     0), // none
    S(    0,     0), // general
    S(  260,   301), // guard
    S( 1267,  1396), // chariot
    S(  536,   596), // cannon
    S(  354,   548), // horse
    S(  261,   347), // elephant
    S(   90,   198), // soldier

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
    S(   -3,     8), // general
    S(   -4,     6), // guard
    S(    5,    28), // chariot
    S(    0,    12), // cannon
    S(   11,    30), // horse
    S(   -2,    17), // elephant
    S(   11,    26), // soldier

    // PALACE_ATTACK (palace_attack): per enemy-palace point (diagonals included) a piece bears on
    S(    0,     0), // none
    S(    0,     0), // general
    S(    0,     0), // guard
    S(    6,    14), // chariot
    S(  -11,     7), // cannon
    S(   14,    36), // horse
    S(    5,    37), // elephant
    S(   59,    17), // soldier

    // GUARD_SHIELD (guard_shield): per guard one palace step from its own general
    S(   56,    62),

    // ELEPHANT_HOME (elephant_home): per elephant on its own first three ranks, near the palace
    S(  -44,    46),

    // OPEN_PALACE_FILE (open_palace_file): per palace file (d, e, f) with no own piece in front of the own palace
    S(  -29,   -35),

    // CHARIOT_PALACE_FILE (chariot_palace_file): per chariot on a palace file with nothing between it and the enemy palace
    S(  -31,     6),

    // CANNON_SCREEN (cannon_screen): per cannon line whose first piece can serve as a screen (not a cannon)
    S(   14,    56),

    // SOLDIER_CONNECTED (soldier_connected): per soldier with an own soldier beside it on the same rank
    S(   19,    26),

    // SOLDIER_ADVANCED (soldier_advanced): per soldier beyond the middle of the board (own rank 6 or more)
    S(    1,    -7),

    // SOLDIER_PALACE (soldier_palace): per soldier inside the enemy palace
    S(   36,    55),

    // HORSE_BLOCKED (horse_blocked): per horse move blocked by a piece on its leg point
    S(    9,    15),

    // ELEPHANT_BLOCKED (elephant_blocked): per elephant move blocked on its path
    S(   -5,    13),

    // TEMPO (tempo): for the side to move
    S(   33,    33),

    // POINTS_LATE (points_late): half points of the rules (Han's 1.5 included) times plies into the last 40 before the 200-ply limit
    S(   37,    37),

    // HANGING (hanging): per own piece attacked and undefended, or attacked by a cheaper piece (general unused)
    S(    0,     0), // none
    S(    0,     0), // general
    S(  -22,   -18), // guard
    S(  -41,   -37), // chariot
    S(  -68,   -69), // cannon
    S(  -62,   -44), // horse
    S(  -49,   -33), // elephant
    S(  -21,   -46), // soldier

    // DANGER_ATTACKER (danger_attacker): danger to the enemy general: per own piece attacking its ring
    S(    0,     0), // none
    S(    0,     0), // general
    S(    0,     0), // guard
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
    S(    0,     0), // guard
    S(  150,    96), // chariot
    S(  101,    53), // cannon
    S(   56,    45), // horse
    S(   31,    25), // elephant
    S(   31,    27), // soldier

    // DANGER_UNSAFE_CHECK (danger_unsafe_check): per kind whose checks next move all land on attacked points
    S(   34,    23),

    // DANGER_PINNED (danger_pinned): per enemy piece pinned to its general: a chariot line's sole blocker, a cannon line's second screen, a horse or elephant leg
    S(   56,    39),

    // DANGER_OFFSET (danger_offset): 1 for each side: the index's constant
    S(   18,   -22),
};

// Not tuned (engine/eval.h): phase weight per kind (none, general, guard, chariot,
// cannon, horse, elephant, soldier), the phase of the full set, and the plies
// before the 200-ply limit at which points_late starts to count.
static const int EVAL_PHASE_WEIGHT_DATA[8] = {0, 0, 0, 4, 2, 2, 1, 0};
enum { EVAL_PHASE_MAX_DATA = 36, EVAL_POINTS_WINDOW_DATA = 40 };
// clang-format on
