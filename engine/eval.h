// SPDX-License-Identifier: MIT
// Static evaluation: a tapered linear sum over the terms of eval_terms.def, weights from the
// generated header eval_weights.h.
#pragma once

#include "types.h"

/// Evaluation of b in centipawns from the side to move's view. Does not judge the game end.
Score eval_evaluate(const Board *b);
