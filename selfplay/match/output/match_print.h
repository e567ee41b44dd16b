// SPDX-License-Identifier: MIT
// What hansu-match prints of a two-engine match (part of the front end, as tournament_print.h):
// a line per finished pair, and the summary (openings, score, wins by reason, adjudication, Elo,
// pentanomial, SPRT, cores).
#pragma once

#include <stdbool.h>

#include "match_config.h"
#include "match_tally.h"

/// MatchProgressFn: the pair's line (score, Elo, the LLR with an SPRT); arg unused.
void match_print_progress(const MatchTally *t, const MatchConfig *c, void *arg);

/// Where the games ran: pinned (--affinity) or not, and a warning when they wanted more cores than
/// there are (at_once games of threads threads each).
void match_print_cores(bool affinity, int at_once, int threads);

/// The summary after the match.
void match_print_summary(const MatchTally *t, const MatchConfig *c);
