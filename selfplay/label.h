// SPDX-License-Identifier: MIT
// Labelling stored games (hansu-selfplay label): each selected position of a game searched by
// Hansu at fixed nodes, its score kept, the game's moves and result as played; and the file
// attributes that say how (docs/data-format.md, "Labelled games").
#pragma once

#include <stdatomic.h>
#include <stdint.h>

#include "h5store.h"
#include "label_games.h"
#include "search.h"
#include "search_params.h"
#include "shard_data.h"
#include "status.h"

enum { LABEL_TO_MOVE_MAX = 64 }; // the longest --to-move name a store's run_config records

/// What decides the labels (all of it in run_config: a resume needs the same).
typedef struct LabelSettings {
    uint64_t nodes;      // nodes per search (SearchLimits.nodes), one thread
    int skip_plies;      // positions before this many plies of the game are not searched
    int every;           // of the positions that may be searched, every `every`-th is (from 1)
    size_t hash_mb;      // TT of each searcher, MB
    const char *to_move; // the --to-move player (LABEL_TO_MOVE_MAX characters at most), NULL: every
                         // position
    const NnueNet *net;  // the evaluation (NULL: classical)
    int blend;           // the searches' eval_blend (% of the classical evaluation blended with
                         // the net; search_params.def), -1: the variant's own (hansu's default)
    char net_sha256[65]; // its SHA-256 (hex), "" for classical
    char bench[32];      // the bench signature with that evaluation, or "skipped"
    size_t shard_games;  // games per shard: shard k holds games [k G, (k + 1) G) of the inputs
    bool pv_ends;        // store each search's PV end too (label_pv.h)
    uint64_t pv_nodes;   // nodes of each PV end's search, one thread
} LabelSettings;

/// What labelling one game did: its searches, and the plies of its stored PV ends beyond their
/// searched positions (summed).
typedef struct LabelCounts {
    uint64_t searched, pv_plies;
} LabelCounts;

/// Appends game g to out (its row and positions, as game_driver_play does): the moves as played,
/// result_stm from g's winner; a selected position (label_selected) scored by search_run at
/// set->nodes from the side to move's view (game_driver_stored_score), the others score 0 and
/// flag POS_RANDOM (not searched: the trainers skip them). The TT policy: s is cleared at the
/// game's start (search_clear) and searches the selected positions in game order, each with the
/// game's history, as `ucinewgame` and then `position fen START moves ...` / `go nodes N` for each
/// would: the labels depend on the game and the settings only. counts gets what it did.
/// With set->pv_ends, each search's PV end goes to pv_out (label_pv_end), searched by pv_s: a
/// second searcher, cleared at the game's start as s is and searching the game's PV ends in
/// game order, so the game's line labels are those of a run without PV ends (pv_s, pv_out NULL
/// without). stop (may be NULL) cuts the searches short when set: the game is then to be
/// dropped. STATUS_NOMEM.
Status label_game(const LabelInputs *in, const LabelGame *g, const LabelSettings *set, Searcher *s,
                  Searcher *pv_s, ShardData *out, ShardData *pv_out, LabelCounts *counts,
                  atomic_bool *stop, ErrorInfo *err);

/// The search parameters of set's searches: the defaults (SEARCH_PARAMS_DEFAULT), with set->blend
/// as eval_blend where it is given (>= 0). What the searchers and the bench signature use.
SearchParams label_search_params(const LabelSettings *set);

/// Whether the position after `played` plies of g, `side` to move, may be searched: past
/// skip_plies and of a side g's --to-move player moves (*eligible counts those); searched
/// when it is the every-th of them, the first one included.
bool label_selected(const LabelSettings *set, const LabelGame *g, int played, Side side,
                    int *eligible);

/// The file attributes of shard `shard` of a labelling run: provenance (engine, bench, net,
/// nodes, the inputs and their SHA-256 in `sources`), formation_schedule "labelled: ...", the
/// openings of in, and run_config holding every setting that decides the labels. False when the
/// sources do not fit (H5STORE_SOURCES_MAX) or the settings do not fit run_config.
bool label_make_meta(const LabelInputs *in, const LabelSettings *set, int64_t shard, StoreMeta *m);

/// The attributes of the PV-end file of shard `shard` (run folder file nshards + shard), from
/// its shard's m: the same run_config and sources, the formation_schedule of standalone positions
/// (H5STORE_POSITIONS_SCHEDULE "PV ends of shard ..."), no openings (each position is its own
/// start), limits naming pv_nodes.
void label_make_pv_meta(const StoreMeta *m, const LabelSettings *set, int64_t shard,
                        StoreMeta *pvm);
