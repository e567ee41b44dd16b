// SPDX-License-Identifier: MIT
// FEN in Fairy-Stockfish's janggi and xiangqi conventions: ranks 10 to 1, Cho upper case, side w/b,
// then castling and en-passant fields (always "-"), halfmove clock and fullmove number. Read also
// in WinBoard's and Fairy-Stockfish's other forms (H/E letters, no "- -"); written in one form.
#pragma once

#include <stddef.h>

#include "status.h"
#include "types.h"

enum {
    FEN_MAX_INPUT = 256, // longer input is refused
    FEN_BUFFER = 128     // enough for any FEN this module writes
};

/// The standard start position (ma-sang-sang-ma against ma-sang-sang-ma).
extern const char FEN_START[];

/// Loads a position. Accepts 6 fields, or only the first 2 or 4 (halfmove 0, fullmove 1), or 4
/// without castling and en passant ("w 0 1", WinBoard's form). A horse may be written N or H and
/// an elephant B or E (Fairy-Stockfish's janggi and WinBoard write H and E); fen_write writes
/// N and B.
/// Refuses, with a message naming the field and character, anything malformed and every
/// illegal position of the rules page: not 10 ranks of 9 points, two digits in a row ("18"
/// is not 1 + 8 empty points), an unknown letter, a side
/// with no general or two, a general or guard outside its palace, more pieces of a kind than
/// the set, the side not to move in check. On error *b is left unchanged.
/// Returns STATUS_OK, STATUS_SYNTAX, STATUS_ILLEGAL or STATUS_RANGE.
Status fen_parse(Board *b, const char *fen, ErrorInfo *err);

/// fen_parse() for the game of variant v (fen_parse() is janggi): the same checks with v's
/// letters, counts and palaces, and v's own placement rules (Variant.check_placement; xiangqi:
/// advisors and elephants on their points, elephants and soldiers not behind where they may
/// go). The side not to move may not be in check, the flying general's attack included.
Status fen_parse_variant(Board *b, const Variant *v, const char *fen, ErrorInfo *err);

/// Writes the FEN of the current position into out (at least FEN_BUFFER bytes).
void fen_write(const Board *b, char *out, size_t out_len);
