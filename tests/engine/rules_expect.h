// SPDX-License-Identifier: MIT
// Assertions on the end-of-game verdict shared by the rules and the oracle-case tests.
#pragma once

#include "types.h"

/// Asserts that the game goes on in b's current position (rules_game_over says not over).
void expect_going(Board *b);

/// Asserts that the game is over for reason (not drawn), won by winner, with these point totals in
/// half points (pass -1 for a total to skip checking it).
void expect_over(Board *b, int reason, Side winner, int cho_half, int han_half);

/// Asserts that the game is over and drawn (xiangqi) for reason.
void expect_drawn(Board *b, int reason);

/// Asserts that move str is refused in b with status want and a non-empty message, and that
/// b is unchanged (same FEN and key).
void expect_move_refused(Board *b, const char *str, int want);

/// Asserts that the legal moves of b are exactly the space-separated list want (any order).
void expect_legal_moves(Board *b, const char *want);
