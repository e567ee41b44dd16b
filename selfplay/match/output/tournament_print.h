// SPDX-License-Identifier: MIT
// What hansu-match prints of a tournament (part of the front end): a line per finished pair, the
// rating list at intervals, and the summary (rating list, crosstable, pairings, faults).
#pragma once

#include "tournament_tally.h"

typedef struct TournamentPrint {
    int interval; // pairs between rating lists; 0: at the end only
} TournamentPrint;

/// TournamentProgressFn: the pair's line, and every print->interval pairs the rating list
/// (arg: a TournamentPrint).
void tournament_print_progress(const TournamentTally *t, const TournamentConfig *c, int p,
                               void *arg);

/// The summary after the tournament.
void tournament_print_summary(const TournamentTally *t, const TournamentConfig *c);
