// SPDX-License-Identifier: MIT
// The PV ends of hansu-selfplay label --pv-ends (docs/data-format.md, "PV ends"): the position
// each label search's principal variation leads to, searched on its own and stored as a
// standalone position (ShardData.standalone) with its source game's result.
#pragma once

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "label_games.h"
#include "search.h"
#include "shard_data.h"
#include "status.h"

/// A search's principal variation, as its info lines report it (the last of rank 1).
typedef struct LabelPv {
    int len;
    Move moves[MAX_PLY];
} LabelPv;

/// A SearchInfoFn keeping the line of each rank-1 info of a search in arg (a LabelPv).
void label_pv_capture(const SearchInfo *info, void *arg);

/// Refuses inputs whose PV-end ids would not fit (before any search): STATUS_RANGE when a game's
/// id reaches H5STORE_PV_ID_BASE or the games are more than the ids below 2^32 can number.
Status label_pv_check_inputs(const LabelInputs *in, ErrorInfo *err);

/// The PV end of the search of b (the position after `played` plies of game g, index its index
/// in the inputs, with its history): pv played from b while each move is legal, the game is not
/// over after it (rules_game_over) and the ply stays below STORE_PLY_MAX - 1. When that walk
/// made at least one move, the position reached is searched by s at `nodes` (with b's
/// history and the line's; the caller clears s at the game's start) and appended to out as a
/// one-position game: its board, side to move, ply, the search's best move, score
/// (game_driver_stored_score) and flags; result_stm, winner, reason and formations g's, seed
/// g's game id, points the PV end's, game id as H5STORE_PV_ID_BASE says. *plies gets the walk's
/// length (0: nothing stored). STATUS_NOMEM.
Status label_pv_end(const Board *b, const LabelPv *pv, const LabelGame *g, size_t index, int played,
                    uint64_t nodes, Searcher *s, ShardData *out, int *plies, atomic_bool *stop,
                    ErrorInfo *err);
