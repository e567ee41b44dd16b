// SPDX-License-Identifier: MIT
// Win, draw and loss chances of a score (UCI_ShowWDL): one model per variant, written once.
#pragma once

#include "types.h"

typedef struct Variant Variant;

/// The model's parameters for a variant: W = sigma((cp - margin) / scale),
/// L = sigma((-cp - margin) / scale), D = 1 - W - L (sigma the logistic function); with
/// margin 0 no game is drawn. Each variant's values are in its description (Variant.wdl_scale,
/// wdl_margin; engine/<variant>/variant.c, where their sources are named; docs/strength-limit.md,
/// "Win, draw and loss").
typedef struct WdlModel {
    double scale, margin; // centipawns
} WdlModel;

/// The model of variant v (a model with no draws, scale 400, for a variant without one).
WdlModel wdl_model(const Variant *v);

/// The chances of a search score (centipawns from the side to move's view, or a decided score:
/// search.h) in per mille, from the side to move's view: wdl[0] win, wdl[1] draw, wdl[2] loss,
/// each 0..1000, summing to 1000. A decided score is 1000 0 0 or 0 0 1000. The win chance
/// rises and the loss chance falls with the score.
void wdl_of_score(const Variant *v, Score score, int wdl[3]);
