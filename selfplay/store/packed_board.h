// SPDX-License-Identifier: MIT
// The packed board of the self-play files: 32 bytes, the square of each of the 32 pieces.
#pragma once

#include <stdint.h>

#include "status.h"
#include "types.h"

// Layout (docs/data-format.md): byte i is a piece slot. Slots 0-15 are Cho's, 16-31 Han's, and
// within a side: 0 general, 1-2 guards, 3-4 chariots, 5-6 cannons, 7-8 horses, 9-10 elephants,
// 11-15 soldiers. A byte holds the piece's square (rank * 9 + file, 0..89) or PACKED_NONE when
// the piece has been captured. The squares of one kind are ordered by file, then rank, with
// PACKED_NONE last, so the packed form is a function of the position alone.
enum { PACKED_BOARD_BYTES = 32, PACKED_NONE = 0xFF, PACKED_SIDE_SLOTS = 16 };

typedef struct PackedBoard {
    uint8_t sq[PACKED_BOARD_BYTES];
} PackedBoard;

/// The piece kind of slot 0..15 within a side (GENERAL, GUARD, ... SOLDIER).
Kind packed_slot_kind(int slot);

/// Packs the pieces of b (side to move and history are not part of the packed form).
void packed_board_encode(const Board *b, PackedBoard *out);

/// Sets up b from a packed board, with side to move stm and `ply` plies already played.
/// Refuses with STATUS_FORMAT and a message a byte that is neither a square nor PACKED_NONE,
/// two pieces on one square, or a missing general. Rules legality (palaces, check) is not
/// judged here: fen_parse() of fen_write() does that.
Status packed_board_decode(const PackedBoard *pb, Side stm, int ply, Board *b, ErrorInfo *err);

/// packed_board_decode() for a board of variant v (NULL: janggi): xiangqi's piece set fits the
/// same 16 slots per side.
Status packed_board_decode_variant(const PackedBoard *pb, const Variant *v, Side stm, int ply,
                                   Board *b, ErrorInfo *err);
