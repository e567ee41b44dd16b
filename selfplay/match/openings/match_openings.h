// SPDX-License-Identifier: MIT
// A match's openings: the variant's start positions, its compiled-in suite, or a file (a FEN
// list, or an EPD or PGN book: book.h), ordered by the seed and a start index; and each pair's
// start position, its opening plus the seeded random plies.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fen.h"
#include "status.h"
#include "types.h"

/// OpeningsPlan.path's word for the variant's start positions (janggi: the 16 formation
/// pairings) instead of its suite; a file of that name is given as ./starts.
#define MATCH_OPENINGS_STARTS "starts"

/// Where a match's openings come from and how they are played (MatchConfig's fields of the
/// same names: match_config_openings).
typedef struct OpeningsPlan {
    const Variant *variant; // the game played (NULL: janggi)
    const char *path;       // file of FENs (or a book); NULL: the variant's compiled-in suite
                            // (its start positions where it has none); MATCH_OPENINGS_STARTS
    int book_plies;         // a PGN book: plies of each game kept (0: all)
    bool random;            // shuffled by seed (else in the file's order)
    int start;              // pair k plays opening (start + k) mod n (0-based)
    uint64_t seed;          // the shuffle's and the random plies' seed
    int random_plies;       // random plies (no passes) added to each opening
} OpeningsPlan;

typedef struct Opening {
    char fen[FEN_BUFFER];
    char name[48];
} Opening;

/// The openings a match plays, in the order its pairs take them.
typedef struct MatchOpenings {
    OpeningsPlan plan;
    const Variant *variant; // plan.variant, or janggi
    Opening *list;          // count of them (malloc'd: match_openings_free)
    int count;
} MatchOpenings;

/// True when plan p plays the variant's start positions rather than a suite or a file.
bool match_openings_plays_starts(const OpeningsPlan *p);

/// Where p's openings come from, for people, into out (len bytes): its file, the variant's suite
/// compiled into the tool ("data/openings-janggi.fen (compiled in)": no file is read), "the
/// formation pairings" or "the start position", and how the book is read where it is not in
/// order from its first line.
void match_openings_source(const OpeningsPlan *p, char *out, size_t len);

/// Fills *o for plan p: the variant's start positions, or the openings file's FENs (checked as
/// positions of the variant), shuffled and turned as p says. STATUS_NOMEM, or the file's error.
Status match_openings_load(MatchOpenings *o, const OpeningsPlan *p, ErrorInfo *err);

/// The start FEN of pair k: its opening plus the seeded random plies, the same for both games.
void match_openings_pair_fen(const MatchOpenings *o, int k, Board *b, char fen[FEN_BUFFER]);

/// The side to move in pair k's start position: the side that moved first in both its games.
Side match_openings_first_side(const MatchOpenings *o, int k);

/// Frees o's list. Accepts an o never loaded (zeroed).
void match_openings_free(MatchOpenings *o);
