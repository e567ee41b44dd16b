// SPDX-License-Identifier: MIT
// Move generation: pseudo-legal moves by piece, the legality test, and the legal generators
// the perft, the rules and the search use (all moves with the pass, captures, evasions, and
// the quiet checks of quiescence).
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

/// Legal quiet moves (no capture, no pass) that give check, for quiescence: the moved piece
/// attacks the enemy general from its new point, or the move opens a chariot or cannon line,
/// gives a cannon its screen, or frees a horse or elephant leg (a discovered check). Found
/// without making the moves: only moves whose piece is a leaper or soldier, or whose points
/// lie on a line through the enemy general (Geometry.ray_of, leg_of), are tested. A pass is
/// never a check; generals facing (bikjang) is a game end, not a check.
void movegen_quiet_checks(Board *b, MoveList *list);

/// Legal moves of a side in check (never a pass). Empty means checkmate.
void movegen_evasions(Board *b, MoveList *list);

/// Number of legal moves including the pass (the perft leaf count).
int movegen_count_legal(Board *b);

/// True when the side to move has at least one legal move or pass.
bool movegen_has_legal(Board *b);
