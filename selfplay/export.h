// SPDX-License-Identifier: MIT
// Stored self-play games out to other programs: PGN (the games with their formations, end
// reason and each move's search score as a comment, through the match tool's PGN writer) and
// Fairy-Stockfish's `.plain` training records (one per stored position).
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
    size_t pv_ends; // of games: the standalone positions (PV ends), not counted in games
} ExportSummary;

/// The formats export writes.
typedef enum ExportFormat {
    EXPORT_PGN,  // the games as PGN (pgn.h), see export_games
    EXPORT_PLAIN // one `.plain` training record per stored position, see export_games
} ExportFormat;

/// One output of an export: its format, the open stream and the name its errors give.
typedef struct ExportOutput {
    ExportFormat format;
    FILE *out;
    const char *name;
} ExportOutput;

/// Writes the selected games of the shard files (in file order, by game id within a file) to
/// each of the nouts outputs, replaying each game once from its start for all of them; the
/// replay must reproduce every stored board, side to move and ply, and every stored move must
/// be legal (else STATUS_FORMAT naming the file, game and ply).
///
/// EXPORT_PGN: Variant, SetUp/FEN of the game's start, Opening (the formations or the
/// openings line), Termination, PlyCount, GameId, Seed and SearchLimits tags; each searched
/// move's score from the mover's view as a comment ("+0.35" in pawns, "+M5"/"-M4" a decided
/// game in that many plies, "random" for a random opening ply), and the end with the points as
/// the closing comment. event names the Event tag.
///
/// EXPORT_PLAIN: for every stored position, in game order, the record of Fairy-Stockfish's
/// `.plain` training data (docs/data-format.md, "Training records"): the lines
/// "fen FEN", "move UCI", "score S", "ply P", "result R" and "e", where FEN is fen_write's of
/// the position, UCI the stored move (a pass as the general's square twice), S the stored
/// score as it is held (centipawns; +-(32000 - n) a game decided n plies ahead, 0 on a random
/// ply), P the stored ply and R the stored result_stm: both from the side to move's view.
///
/// Every file is read with h5store_read's checks. A selected bounded id that is in none of the
/// files is an error (STATUS_RANGE naming it), as is a selection matching no game. STATUS_IO
/// naming the output when a write fails.
Status export_games(char *const *files, size_t n, const GameSelection *sel, const char *event,
                    const ExportOutput *outs, size_t nouts, ExportSummary *sum, ErrorInfo *err);
