// SPDX-License-Identifier: MIT
// The match result for programs: `hansu-match --json FILE` (schema in docs/json-outputs.md).
#pragma once

#include "match_config.h"
#include "match_tally.h"

/// Replaces path, at once (cli_write_atomic), with the JSON result of the match so far: games,
/// Elo, nElo, LOS, pentanomial, wins by end reason, faults and the SPRT. STATUS_IO naming the
/// file; STATUS_NOMEM.
Status match_json_write(const char *path, const MatchConfig *c, const MatchTally *t,
                        ErrorInfo *err);
