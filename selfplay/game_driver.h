// SPDX-License-Identifier: MIT
// The game driver: one self-play game from its opening or formation pairing to the end under
// the rules page, with seeded random opening plies and optional resignation and adjudication.
#pragma once

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "search.h"
#include "shard_data.h"
#include "status.h"

typedef struct SelfplayConfig SelfplayConfig; // selfplay_config.h: the run's settings

/// Plays game `index` of a run with a cleared searcher and appends it (one game row and its
/// positions, pos_start/pos_end relative to out) to out; *played is false, and out unchanged,
/// when *abort_flag was set during the game. STATUS_ILLEGAL if the search returns no legal move
/// in a live position; STATUS_NOMEM. The runner's workers call it; exposed for tests.
Status game_driver_play(const SelfplayConfig *cfg, Searcher *s, uint64_t index, ShardData *out,
                        atomic_bool *abort_flag, bool *played, ErrorInfo *err);

/// The pairing (cho * 4 + han) of game `index`: round robin over the 16 pairings.
int game_driver_pairing(uint64_t index);

/// The seed of game `index` in a run with run seed `seed` (splitmix64 of both).
uint64_t game_driver_seed(uint64_t seed, uint64_t index);

/// The stored form of a search score v (side to move's view), as the `score` column holds it:
/// centipawns clamped to +-STORED_CP_MAX, a decided game of any kind (mate, perpetual check,
/// points) as +-(STORED_MATE - n) for a win or loss n plies ahead (docs/data-format.md).
int16_t game_driver_stored_score(Score v);
