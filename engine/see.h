// SPDX-License-Identifier: MIT
// Static exchange evaluation: the material outcome of the captures on one point, each side
// capturing or stopping as suits it best, by the variant's rules and point values.
#pragma once

#include "types.h"

/// True when the exchange that move m (a pseudo-legal move of the side to move, a capture or
/// not; a pass counts as 0) starts on its target point wins the mover at least threshold, in
/// half points of the Board's variant (Variant.exchange_half: janggi's points, chariot 26,
/// cannon 14, horse 10, elephant and guard 6, soldier 4; xiangqi chariot 18, cannon 9, horse
/// 8, advisor and elephant 4, soldier 2). Both sides then capture on that point in turn, each
/// free to stop, and the result is the best the mover can force.
///
/// Exact within that model, by the variant's rules: the attackers are found again after every
/// capture, so a cannon's screen created or removed by the exchange, an x-ray chariot or
/// cannon, a horse or elephant leg freed or blocked, are all seen; the cannon follows
/// Variant.cannon (janggi: exactly one non-cannon screen, never takes a cannon; xiangqi: one
/// screen of any kind, takes any piece); general and guard (advisor) take by their own palace
/// steps; every capture after m must be legal by board_general_attacked() (the capturer's
/// general not left attacked, nor, under the flying-general rule, facing the enemy general),
/// so a general never takes into an attacked point and pinned pieces stay put. The legality
/// of m itself is not tested. Game ends (checkmate by a capture elsewhere, bikjang) are not
/// part of it.
///
/// b is changed during the call and restored before it returns.
bool see_ge(Board *b, Move m, int threshold);

/// The exact exchange value of m in half points (the largest t with see_ge(b, m, t)); for
/// tests and tools, slower than see_ge.
int see_value(Board *b, Move m);
