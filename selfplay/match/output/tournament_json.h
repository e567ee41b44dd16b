// SPDX-License-Identifier: MIT
// A tournament's result for programs: `hansu-match --tournament ... --json FILE` (schema in
// docs/json-outputs.md, "hansu-match, tournaments").
#pragma once

#include "tournament_tally.h"

/// Replaces path, at once (cli_write_atomic), with the tournament so far: the rating list (Elo,
/// error, LOS to the next), the crosstable and each pairing's score, Elo, nElo, pentanomial,
/// wins by reason and restarts. STATUS_IO naming the file; STATUS_NOMEM.
Status tournament_json_write(const char *path, const TournamentConfig *c, const TournamentTally *t,
                             ErrorInfo *err);
