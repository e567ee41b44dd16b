// SPDX-License-Identifier: MIT
// Helpers of the self-play tests: random-move games (no search) in the stored layout, and
// putting a run's games in game-id order so runs can be compared whatever the finish order.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "shard_data.h"

/// Appends `games` games with ids first_id.. played by uniformly random legal moves from their
/// round-robin pairing (scores drawn at random), stored as the runner stores its games.
void sp_random_games(ShardData *d, uint32_t first_id, size_t games, uint64_t seed);

/// Copies src into dst (initialised) with its games in increasing game_id order.
void sp_sort_by_id(const ShardData *src, ShardData *dst);

/// Reads every shard of a run folder into d (games sorted by id); returns the shard count,
/// or -1 with a message in err when one cannot be read.
int sp_read_run(const char *dir, ShardData *d, char *err, size_t err_len);

/// Makes an empty folder at path (removing what was there).
void sp_fresh_dir(const char *path);
