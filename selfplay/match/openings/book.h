// SPDX-License-Identifier: MIT
// Opening books as other tools write them (issue 43), besides Hansu's FEN lists (openings.h):
// EPD (a FEN's first four fields, then operations such as `id "name";`) and PGN (each game's
// start position, its [FEN] tag or the variant's start, and its first plies; moves in the UCI
// form Hansu and Fairy-Stockfish write, "h3e3").
#pragma once

#include "openings.h"

typedef enum { BOOK_FEN = 0, BOOK_EPD, BOOK_PGN } BookFormat;

/// A book's format by its file name: ".epd" EPD, ".pgn" PGN (any case), else a FEN list.
BookFormat book_format_of(const char *path);

/// Reads an EPD or a PGN book of variant v into out (as openings_load fills it: each position
/// checked by the rules core and written by fen_write, line[i] the file line of its EPD line or
/// of its game's first tag). PGN: the first `plies` plies of each game (plies < 0: all), stopped
/// before a finished position; a [Variant] tag must name v. PGN comments ({...} to the first '}',
/// ';' to the end of the line), (nested) variations and '%' escape lines are skipped whole.
/// Errors name the file and line (and the move): STATUS_IO, STATUS_FORMAT (no position, another
/// variant, a bad FEN or move, a comment or variation still open at a game's end or the file's,
/// a stray ')' or '}'), STATUS_RANGE (more than OPENINGS_MAX), STATUS_NOMEM. Free with
/// openings_free.
Status book_load(const char *path, BookFormat format, int plies, const Variant *v, Openings *out,
                 ErrorInfo *err);
