// SPDX-License-Identifier: MIT
// Perft: the number of legal move sequences of a given length, by the rules page's
// convention (every move and pass counts; a line ends only at checkmate or after two passes).
#pragma once

#include <stdint.h>

#include "types.h"

/// Leaf count at depth plies (depth >= 0). Counts the last ply in bulk (legal moves are
/// counted at depth 1, not made), as Stockfish and Fairy-Stockfish do.
uint64_t perft(Board *b, int depth);

/// Perft split by root move: fills moves[i] and counts[i] (arrays of MAX_MOVES) and returns
/// the number of root moves. The counts add up to perft(b, depth). depth >= 1.
int perft_divide(Board *b, int depth, Move *moves, uint64_t *counts);
