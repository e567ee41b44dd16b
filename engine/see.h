// SPDX-License-Identifier: MIT
// Static exchange evaluation: the material outcome of the captures on one point, each side
// capturing or stopping as suits it best, by the variant's rules and point values.
#pragma once

#include "types.h"

/// True when the exchange that move m (a pseudo-legal move of the side to move, a capture or
/// not; a pass counts as 0) starts on its target point wins the mover at least threshold, in
/// half points of the variant (Variant.points_half: janggi chariot 26, cannon 14, horse 10,
/// elephant and guard 6, soldier 4). Both sides then capture on that point in turn, each free
/// to stop, and the result is the best the mover can force.
///
/// Exact within that model, for the janggi rules: the attackers are found again after every
/// capture, so a cannon's screen created or removed by the exchange, an x-ray chariot or
/// cannon, a horse or elephant leg freed or blocked, are all seen; a cannon needs exactly one
/// non-cannon screen and never takes a cannon; every capture after m must be legal (the
/// capturer's general is not left attacked), so a general takes only along its palace lines
/// and never into an attacked point, and pinned pieces stay put. The legality of m itself is
/// not tested. Game ends (checkmate by a capture elsewhere, bikjang) are not part of it.
///
/// b is changed during the call and restored before it returns.
bool see_ge(Board *b, Move m, int threshold);

/// The exact exchange value of m in half points (the largest t with see_ge(b, m, t)); for
/// tests and tools, slower than see_ge.
int see_value(Board *b, Move m);
