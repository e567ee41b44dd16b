// SPDX-License-Identifier: MIT
// A match's resume state: the state file (the match's identity, then one line per finished
// pair with the PGN's length and SHA-256 there), read back and checked against the PGN on
// --resume; the PGN and the state file opened, fresh or for appending.
#pragma once

#include <stdbool.h>

#include "match_config.h"
#include "match_game.h"
#include "match_output.h"
#include "match_tally.h"
#include "status.h"

/// Without --resume the PGN and the state file must be new or empty: STATUS_IO otherwise.
Status match_state_check_fresh(const MatchConfig *c, ErrorInfo *err);

/// Reads the finished pairs of an earlier run of the same match into tally t (and done), with
/// the PGN's recorded length and digest, each pair line's checksum checked first. STATUS_IO,
/// STATUS_FORMAT (another match, an older format, an edited or bad line) naming the file and
/// line.
Status match_state_load(MatchFiles *f, MatchTally *t, bool *done, ErrorInfo *err);

/// On resume, the PGN begins with exactly the bytes the state file records (length and
/// SHA-256), and each pair's two games there carry its round and the results its line records
/// ([Round], [Result]); f->pgn_hash then holds those bytes. STATUS_FORMAT naming both files.
Status match_state_check_pgn(MatchFiles *f, ErrorInfo *err);

/// Opens the PGN and the state file: fresh, or for appending on resume (the PGN cut back to
/// its recorded length, the state file to its last whole line). STATUS_IO naming the file.
Status match_state_open(MatchFiles *f, ErrorInfo *err);

/// Appends pair k's line to the state file (after its games are in the PGN).
Status match_state_write_pair(MatchFiles *f, int k, const GameRecord g[2], ErrorInfo *err);
