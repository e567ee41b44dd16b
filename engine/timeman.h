// SPDX-License-Identifier: MIT
// Time management: how long one move may think, from the UCI clock fields.
#pragma once

#include <stdint.h>

#include "search.h"

/// The two budgets of one move, in ms. 0 means no limit.
typedef struct TimeBudget {
    int64_t soft; // do not start another iteration after this
    int64_t hard; // stop the search at once after this
} TimeBudget;

/// Budgets for the side to move from limits: movetime is used as both budgets (minus a
/// small overhead); otherwise time / movestogo (or / 30 in sudden death) plus 3/4 of the
/// increment, never more than a fraction of the clock. depth/nodes/infinite alone: no limit.
TimeBudget timeman_budget(const SearchLimits *limits, Side us);

/// Milliseconds on a monotonic clock.
int64_t timeman_now_ms(void);
