// SPDX-License-Identifier: MIT
// PGN out of self-play: the games of a run folder (or of shard files) with their formations,
// end reason and each move's search score as a comment, through the match tool's PGN writer.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "status.h"

enum { EXPORT_MAX_RANGES = 256 };

/// The games to export: game ids in ranges lo..hi (inclusive); none means every game.
typedef struct GameSelection {
    int count;
    struct {
        uint32_t lo, hi;
        bool open; // "N-": every id from lo on (hi unused)
    } range[EXPORT_MAX_RANGES];
} GameSelection;

/// Parses a selection: comma-separated game ids and ranges, e.g. "0-9,15,100-". STATUS_SYNTAX
/// naming the offending item (not a number, lo > hi, empty item), STATUS_RANGE for more than
/// EXPORT_MAX_RANGES items or an id past UINT32_MAX.
Status export_parse_selection(const char *text, GameSelection *sel, ErrorInfo *err);

/// True when game id is selected (every id when sel has no range).
bool export_selected(const GameSelection *sel, uint32_t id);

/// What an export wrote.
typedef struct ExportSummary {
    size_t files, games, plies;
} ExportSummary;

/// Writes the selected games of the shard files (in file order, by game id within a file) to
/// out as PGN (pgn.h): Variant, SetUp/FEN of the formation pairing, Opening (the formations),
/// Termination, PlyCount, GameId, Seed and SearchLimits tags; each searched move's score from
/// the mover's view as a comment ("+0.35" in pawns, "+M5"/"-M4" a mate in that many plies,
/// "random" for a random opening ply), and the end with the points as the closing comment.
/// event names the Event tag. Every file is read with h5store_read's checks. A selected
/// bounded id that is in none of the files is an error (STATUS_RANGE naming it), as is a
/// selection matching no game.
Status export_pgn(char *const *files, size_t n, const GameSelection *sel, const char *event,
                  FILE *out, ExportSummary *sum, ErrorInfo *err);
