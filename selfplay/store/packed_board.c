// SPDX-License-Identifier: MIT
// Packed board codec: the square of each piece slot, ordered within a kind.
#include "packed_board.h"

#include <string.h>

#include "board.h"
#include "variant.h"

// First slot of each kind within a side, and how many slots it has.
static const int FIRST_SLOT[KIND_NB] = {0, 0, 1, 3, 5, 7, 9, 11};
static const int SLOT_COUNT[KIND_NB] = {0, 1, 2, 2, 2, 2, 2, 5};

Kind packed_slot_kind(int slot) {
    for (int k = GENERAL; k < KIND_NB; k++)
        if (slot >= FIRST_SLOT[k] && slot < FIRST_SLOT[k] + SLOT_COUNT[k])
            return (Kind)k;
    return KIND_NONE;
}

// Order within a kind: by file, then rank; PACKED_NONE sorts last.
static int order_key(uint8_t sq) {
    return sq == PACKED_NONE ? 1000 : square_file(sq) * RANK_NB + square_rank(sq);
}

void packed_board_encode(const Board *b, PackedBoard *out) {
    memset(out->sq, PACKED_NONE, sizeof out->sq);
    for (Side side = CHO; side < SIDE_NB; side++)
        for (int k = GENERAL; k < KIND_NB; k++) {
            Piece pc = piece_make(side, (Kind)k);
            uint8_t *slot = out->sq + side * PACKED_SIDE_SLOTS + FIRST_SLOT[k];
            int n = b->count[pc] < SLOT_COUNT[k] ? b->count[pc] : SLOT_COUNT[k];
            // Insertion sort of at most five squares.
            for (int i = 0; i < n; i++) {
                uint8_t sq = b->list[pc][i];
                int j = i;
                while (j > 0 && order_key(slot[j - 1]) > order_key(sq)) {
                    slot[j] = slot[j - 1];
                    j--;
                }
                slot[j] = sq;
            }
        }
}

Status packed_board_decode(const PackedBoard *pb, Side stm, int ply, Board *b, ErrorInfo *err) {
    return packed_board_decode_variant(pb, NULL, stm, ply, b, err);
}

Status packed_board_decode_variant(const PackedBoard *pb, const Variant *v, Side stm, int ply,
                                   Board *b, ErrorInfo *err) {
    Piece seen[SQUARE_NB] = {0};
    for (int i = 0; i < PACKED_BOARD_BYTES; i++) {
        uint8_t sq = pb->sq[i];
        Kind kind = packed_slot_kind(i % PACKED_SIDE_SLOTS);
        if (sq == PACKED_NONE) {
            if (kind == GENERAL)
                return error_set(err, STATUS_FORMAT, "packed board: slot %d (general) is empty", i);
            continue;
        }
        if (sq >= SQUARE_NB)
            return error_set(err, STATUS_FORMAT, "packed board: slot %d holds %u, not a square", i,
                             sq);
        if (seen[sq])
            return error_set(err, STATUS_FORMAT, "packed board: two pieces on square %u", sq);
        seen[sq] = piece_make((Side)(i / PACKED_SIDE_SLOTS), kind);
    }
    board_clear_variant(b, variant_or_default(v));
    for (Square sq = 0; sq < SQUARE_NB; sq++)
        if (seen[sq])
            board_put(b, seen[sq], sq);
    board_finish_setup(b, stm, ply, 0);
    return STATUS_OK;
}
