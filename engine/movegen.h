// SPDX-License-Identifier: MIT
// Move generation: pseudo-legal moves by piece, the legality test, and the legal generators
// the perft, the rules and the search use (all moves with the pass, captures, evasions).
#pragma once

#include "types.h"

struct MoveList {
    Move moves[MAX_MOVES];
    int count;
};

typedef enum { GEN_ALL, GEN_CAPTURES, GEN_QUIETS } GenType;

/// Appends the pseudo-legal moves of the side to move (no pass) to list, which is emptied
/// first. Pseudo-legal: each piece moves by its rule; the mover's general may be left attacked.
void movegen_pseudo(const Board *b, MoveList *list, GenType type);

/// True when m, a pseudo-legal move or a pass of the side to move, is legal: a pass only when
/// not in check; a move only when it does not leave the mover's general attacked.
bool movegen_is_legal(Board *b, Move m);

/// True when m (any 16-bit value, e.g. from the TT) is a pseudo-legal move or a pass of the
/// side to move in this position.
bool movegen_is_pseudo_legal(const Board *b, Move m);

/// All legal moves of the side to move, the pass included when it is not in check.
void movegen_legal(Board *b, MoveList *list);

/// Legal captures only (no pass).
void movegen_captures(Board *b, MoveList *list);

/// Legal moves of a side in check (never a pass). Empty means checkmate.
void movegen_evasions(Board *b, MoveList *list);

/// Number of legal moves including the pass (the perft leaf count).
int movegen_count_legal(Board *b);

/// True when the side to move has at least one legal move or pass.
bool movegen_has_legal(Board *b);
