// SPDX-License-Identifier: MIT
// The match: game pairs over the 16 formation pairings (or an opening list) with colours
// swapped, N games at once, every move refereed by Hansu's rules core, clocks, faults scored
// as losses, PGN and a resumable state file, Elo and an optional SPRT stop.
#pragma once

#include "match_config.h"
#include "match_tally.h"
#include "status.h"

/// Plays the match. *tally gets the final totals. Before any game each engine is started once
/// to read its options (UCI_Variant, see MatchConfig.variant) and every output file is checked
/// to be writable. Errors: an engine that cannot be started or does not offer the variant, an
/// option.UCI_Variant naming another variant, openings or state files that cannot be read, a
/// state file of another match, a PGN that differs from what its state file records, the PGN,
/// state or JSON file not writable — each with a message. A faulty engine during a game is not an
/// error: that game is scored against it and the engine is restarted.
/// Under MPI (every rank calls it alike, cluster_init done) rank r of R plays the pairs
/// k % R == r and sends each to rank 0, which alone touches the files and books every pair
/// (tally, SPRT, progress); rank 0's *tally is the match's, another rank's holds only its
/// restarts (docs/cluster.md).
Status match_run(const MatchConfig *c, MatchTally *tally, MatchProgressFn progress, void *arg,
                 ErrorInfo *err);
