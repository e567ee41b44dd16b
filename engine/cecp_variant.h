// SPDX-License-Identifier: MIT
// What XBoard needs to know of each variant: whether it has it built in, and for one it lacks
// (janggi, in XBoard 4.9.1) the `setup` and `piece` commands that define it.
#pragma once

#include <stddef.h>
#include <stdio.h>

#include "types.h"

/// Writes to out the commands that define variant v for XBoard when XBoard has no v of its own
/// (janggi): `setup (PIECE-TO-CHAR) 9x10+0_xiangqi FEN` and one `piece LETTER& BETZA` per kind,
/// the moves of each kind as a superset in Betza's notation (the palace diagonals and the
/// elephant's blocking points cannot be written, docs/xboard.md). Writes nothing for a variant
/// XBoard has (xiangqi).
void cecp_variant_setup(const Variant *v, FILE *out);

/// Writes XBoard's piece-to-char table of v (both halves, white's first, in parentheses) into
/// out (at least 64 bytes). False for a variant XBoard has built in (nothing written).
bool cecp_variant_piece_table(const Variant *v, char *out, size_t cap);
