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
/// (resign/adjudication: that they do not). A file of standalone positions (d->standalone, PV
/// ends) has no game to replay: each position is set up from its stored board
/// (shard_data_game_start: decoded, legal by the FEN reader's rules), then checked as above (not
/// over, side to move, ply, flags, a legal move), its points against its board and its search
/// flag (searched); its result is its source game's, so no end is checked.
/// STATUS_FORMAT with the first difference (game id, ply) in err.
Status verify_games(const ShardData *d, ErrorInfo *err);
