// SPDX-License-Identifier: MIT
// Checks self-play data against the rules: every packed board decodes to a legal position, and
// replaying each game's moves from its formation reproduces the stored boards and result.
#pragma once

#include <stddef.h>

#include "h5store.h"
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
/// flag (searched), its id (at least H5STORE_PV_ID_BASE) and its ply (past the searched ply its
/// id names); its result is its source game's, so no end is checked.
/// STATUS_FORMAT with the first difference (game id, ply) in err.
Status verify_games(const ShardData *d, ErrorInfo *err);

/// Checks the attributes m of a file of PV ends (a standalone file): no openings, and a
/// formation_schedule naming its line shard as label writes it (H5STORE_PV_SCHEDULE, then the
/// number and a comma), which goes to *shard, or as merge writes it (H5STORE_PV_MERGED_SCHEDULE:
/// *shard -1). STATUS_FORMAT otherwise (*shard -1).
Status verify_pv_meta(const StoreMeta *m, int64_t *shard, ErrorInfo *err);

/// Checks the PV-end files of run folder dir against its line shards: each names its shard as
/// verify_pv_meta reads it (no merged file); file n + k holds shard k's (one n for
/// all); the line shard of each exists and has each PV end's source game (its seed); in a run
/// with PV ends (pv_ends=1 in run_config) each line shard has its PV-end file. STATUS_FORMAT
/// naming the file; STATUS_IO or STATUS_FORMAT from reading.
Status verify_pv_run(const char *dir, ErrorInfo *err);
