// SPDX-License-Identifier: MIT
// A match's output files (MatchFiles): each finished pair's two games as PGN text (pgn.h writes
// them), appended to the PGN with the length and SHA-256 that the state file records
// (match_state.h); and every output file checked before the first game.
#pragma once

#include <stdio.h>

#include "match_config.h"
#include "match_game.h"
#include "match_openings.h"
#include "sha256.h"
#include "status.h"

/// A pair line read back from the state file on resume: where its games lie in the PGN, and
/// the winners it records (checked against the PGN's tags: match_state_check_pgn).
typedef struct StatePair {
    int k, lineno, winner[2];
    long long start, end; // PGN bytes of its two games
} StatePair;

/// The PGN and the state file of a match, and what they say of it. The scheduler guards it with
/// the match's lock once the workers run.
typedef struct MatchFiles {
    const MatchConfig *cfg;
    const Variant *variant;        // cfg->variant, or janggi
    const MatchOpenings *openings; // their names go into the PGN, their count into the state
    char date[16];                 // the PGN's [Date]
    FILE *pgn, *state;
    long long pgn_end;   // PGN bytes that belong to recorded pairs (read back on resume)
    Sha256 pgn_hash;     // SHA-256 of those bytes so far (with a PGN)
    char pgn_digest[65]; // its hex digest, recorded with each pair in the state file
    Sha256 state_hash;   // SHA-256 of the state file's bytes so far: each pair line's checksum
    long long state_end; // state file bytes read back whole on resume (a cut last line is not)
    StatePair *resumed;  // the pair lines read back, in the state file's order
    int nresumed;
} MatchFiles;

/// The PGN text of pair k's two games in *text (malloc'd, *len bytes; none without a PGN).
Status match_output_pair_text(const MatchFiles *f, int k, const char *fen, const GameOutcome o[2],
                              char **text, size_t *len, ErrorInfo *err);

/// f->pgn_digest from f->pgn_hash: the digest the next state line records.
void match_output_digest(MatchFiles *f);

/// Appends a pair's PGN text to the PGN, its length and SHA-256 carried on. STATUS_IO naming
/// the PGN.
Status match_output_append(MatchFiles *f, const char *text, size_t len, ErrorInfo *err);

/// The folder of the file at path (given by flag) exists: STATUS_IO naming the flag, the path
/// and the folder otherwise.
Status match_output_check_folder(const char *flag, const char *path, ErrorInfo *err);

/// Every file the match writes (--pgn, --state, --json) can be written: STATUS_IO naming it.
Status match_output_check(const MatchConfig *c, ErrorInfo *err);

/// Closes f's files and frees what it read back. Accepts NULL files.
void match_output_close(MatchFiles *f);
