// SPDX-License-Identifier: MIT
// Checks self-play data against the rules: every packed board decodes to a legal position, and
// replaying each game's moves from its formation reproduces the stored boards and result.
#pragma once

#include <stddef.h>

#include "shard_data.h"
#include "status.h"

/// Checks d with shard_data_check (value ranges and orders, shard_data.h), then replays every
/// game of d from its formation pairing. Checks for each position: the stored board equals the
/// replayed one, it decodes to a position fen_parse accepts, side to move, ply, in-check and
/// capture flags agree, the move is legal; and for each game the final points and, for a board
/// rule, that the rules end the game there with the stored winner and reason
/// (resign/adjudication: that they do not).
/// STATUS_FORMAT with the first difference (game id, ply) in err.
Status verify_games(const ShardData *d, ErrorInfo *err);
