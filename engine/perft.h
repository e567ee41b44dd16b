// SPDX-License-Identifier: MIT
// Perft: the number of legal move sequences of a given length, by the rules page's
// convention (every move and pass counts; a line ends only at checkmate or after two passes).
#pragma once

#include <stdatomic.h>
#include <stdint.h>

#include "types.h"

/// A perft split by root move, possibly cut short by a stop flag.
typedef struct PerftDivide {
    int count;                  // root moves (legal moves and the pass)
    int done;                   // root moves whose counts are complete: the first `done`
    Move moves[MAX_MOVES];      // the root moves, in generation order
    uint64_t counts[MAX_MOVES]; // leaves under each root move; counts[done] is partial if stopped
    uint64_t total;             // all leaves counted (so far, when stopped)
    bool stopped;               // true when *stop ended the count before the end
} PerftDivide;

/// Leaf count at depth plies (depth >= 0). Counts the last ply in bulk (legal moves are
/// counted at depth 1, not made), as Stockfish and Fairy-Stockfish do.
uint64_t perft(Board *b, int depth);

/// Perft split by root move: fills moves[i] and counts[i] (arrays of MAX_MOVES) and returns
/// the number of root moves. The counts add up to perft(b, depth). depth >= 1.
int perft_divide(Board *b, int depth, Move *moves, uint64_t *counts);

/// The perft of b at depth (>= 0) split by root move into *out, which another thread may cut
/// short by setting *stop (may be NULL; read at every node above the last ply, so a stop is
/// seen within microseconds). Then out->stopped is true and the counts are those made so far.
/// b is restored on return. At depth 0 there are no root moves and the total is 1.
void perft_run(Board *b, int depth, PerftDivide *out, atomic_bool *stop);
