// SPDX-License-Identifier: MIT
// Perft with bulk counting at the last ply.
#include "perft.h"

#include "board.h"
#include "movegen.h"
#include "rules.h"

uint64_t perft(Board *b, int depth) {
    if (depth == 0)
        return 1;
    if (rules_double_pass(b))
        return 0; // two passes in a row end the game: the line has no continuation
    if (depth == 1)
        return (uint64_t)movegen_count_legal(b);
    MoveList list;
    movegen_legal(b, &list);
    uint64_t nodes = 0;
    for (int i = 0; i < list.count; i++) {
        board_make(b, list.moves[i]);
        nodes += perft(b, depth - 1);
        board_unmake(b);
    }
    return nodes;
}

int perft_divide(Board *b, int depth, Move *moves, uint64_t *counts) {
    MoveList list;
    if (rules_double_pass(b))
        return 0;
    movegen_legal(b, &list);
    for (int i = 0; i < list.count; i++) {
        moves[i] = list.moves[i];
        board_make(b, list.moves[i]);
        counts[i] = perft(b, depth - 1);
        board_unmake(b);
    }
    return list.count;
}
