// SPDX-License-Identifier: MIT
// Synthetic self-play data for the tuner's tests and benchmark: games of random legal moves,
// recorded in the self-play schema (shard_data.h) so they go through the real HDF5 path.
#pragma once

#include <stdbool.h> // shard_data.h uses bool
#include <stddef.h>
#include <stdint.h>

#include "shard_data.h"
#include "status.h"

/// Appends `games` games of uniformly random legal moves (the pass drawn 1 time in 20 at
/// most) to d, with game ids first_id, first_id + 1, ... and the pairing id % 16. Each game
/// runs until the rules page ends it (at the latest by the 200-ply limit). Every position
/// gets its packed board, side, ply, move, the static evaluation as its "score" (cp, side to
/// move's view), the check / capture / random flags (the first 4 plies are marked random),
/// and its result. Deterministic in seed. STATUS_NOMEM when memory is short.
Status synth_games(ShardData *d, size_t games, uint32_t first_id, uint64_t seed, ErrorInfo *err);
