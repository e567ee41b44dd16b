// SPDX-License-Identifier: MIT
// Tournaments (issue 43): N engines in a gauntlet (the first K, the seeds, against each of the
// others) or a round robin (every pair), each pairing a match of its own (match.h: game pairs
// with colours swapped, the same openings for every pairing) with its own PGN and resume state,
// all of them sharing one number of games at once (match_slots.h).
#pragma once

#include "match.h"
#include "tournament_tally.h"

/// Called after each finished pair of any pairing with the tournament so far (p: the pairing
/// that finished one), one call at a time.
typedef void (*TournamentProgressFn)(const TournamentTally *t, const TournamentConfig *c, int p,
                                     void *arg);

/// Plays the tournament: each pairing's match (match_run) in a thread of its own, all taking
/// their games from c->base.concurrency slots; a fatal error in one stops all. *t gets the totals
/// (t->pairing malloc'd: tournament_tally_free). On --resume a pairing without a state file yet
/// starts afresh. Errors: check of the config (STATUS_RANGE/SYNTAX naming it), the first
/// pairing's error, the JSON or the joined PGN not written.
Status tournament_run(const TournamentConfig *c, TournamentTally *t, TournamentProgressFn progress,
                      void *arg, ErrorInfo *err);
