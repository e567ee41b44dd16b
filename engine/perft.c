// SPDX-License-Identifier: MIT
// Perft with bulk counting at the last ply, and a divide that a stop flag can interrupt.
#include "perft.h"

#include <stddef.h>

#include "board.h"
#include "movegen.h"
#include "rules.h"

// The leaves below b at depth. With stop set, returns what it counted so far and sets
// *stopped; the flag is read at every interior node (a relaxed load: a plain load on x86).
static uint64_t count_leaves(Board *b, int depth, atomic_bool *stop, bool *stopped) {
    if (depth == 0)
        return 1;
    if (rules_double_pass(b))
        return 0; // two passes in a row end the game: the line has no continuation
    if (depth == 1)
        return (uint64_t)movegen_count_legal(b);
    if (stop && atomic_load_explicit(stop, memory_order_relaxed)) {
        *stopped = true;
        return 0;
    }
    MoveList list;
    movegen_legal(b, &list);
    uint64_t nodes = 0;
    for (int i = 0; i < list.count && !*stopped; i++) {
        board_make(b, list.moves[i]);
        nodes += count_leaves(b, depth - 1, stop, stopped);
        board_unmake(b);
    }
    return nodes;
}

uint64_t perft(Board *b, int depth) {
    bool stopped = false;
    return count_leaves(b, depth, NULL, &stopped);
}

void perft_run(Board *b, int depth, PerftDivide *out, atomic_bool *stop) {
    out->count = out->done = 0;
    out->total = depth == 0 ? 1 : 0;
    out->stopped = false;
    if (depth == 0 || rules_double_pass(b))
        return;
    MoveList list;
    movegen_legal(b, &list);
    out->count = list.count;
    for (int i = 0; i < list.count; i++) {
        out->moves[i] = list.moves[i];
        out->counts[i] = 0;
    }
    for (int i = 0; i < list.count; i++) {
        if (stop && atomic_load_explicit(stop, memory_order_relaxed))
            out->stopped = true;
        if (out->stopped)
            break;
        board_make(b, list.moves[i]);
        out->counts[i] = count_leaves(b, depth - 1, stop, &out->stopped);
        board_unmake(b);
        out->total += out->counts[i];
        out->done += !out->stopped;
    }
}

int perft_divide(Board *b, int depth, Move *moves, uint64_t *counts) {
    PerftDivide pd;
    perft_run(b, depth, &pd, NULL);
    for (int i = 0; i < pd.count; i++)
        moves[i] = pd.moves[i], counts[i] = pd.counts[i];
    return pd.count;
}
