// SPDX-License-Identifier: MIT
// The run folder of hansu-selfplay label: the games labelled shard by shard (OpenMP over the
// games of a shard, one searcher a thread), each shard written whole (h5store_write: tmp, fsync,
// rename) once its games are labelled, and --resume keeping the finished shards.
#pragma once

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "label.h"
#include "status.h"

/// One labelling run: its games, settings and folder.
typedef struct LabelRun {
    const LabelInputs *in;
    const LabelSettings *set;
    const char *dir;   // the run folder (created unless resume)
    bool resume;       // continue the run in dir: its shards must be this run's (run_config)
    int threads;       // games labelled at once (>= 1)
    atomic_bool *stop; // set from a signal handler: the shard under way is dropped
} LabelRun;

/// What a run did.
typedef struct LabelTotals {
    size_t shards, shards_resumed; // shards of the run; of them, found finished (--resume)
    uint64_t games, positions;     // games and positions stored by this process
    uint64_t games_unsearched;     // of those games, the ones with no position searched
    uint64_t searched, by_side[2]; // positions searched by this process, by side to move
    uint64_t pv_ends, pv_plies;    // PV ends stored (--pv-ends); their plies beyond their searched
                                   // positions, summed
    double elapsed_s;              // seconds of labelling (the reading and the bench not counted)
    int threads;
    bool interrupted; // stopped by *stop before the last shard
} LabelTotals;

/// Labels every game of run->in into run->dir: shard k (shard-k.h5) holds the games
/// [k G, (k + 1) G) of the inputs (G = set->shard_games), written once they are all labelled, so
/// the files depend on the inputs and the settings only, not on the threads. With set->pv_ends
/// the PV ends of shard k's searches (label_pv.h) are file n + k of the n shards, written just
/// before shard k (a shard is finished when both are there; label_pv_check_inputs first). Under the
/// folder's writer lock (run_lock_take_dir), taken before anything there is read or written; stale
/// .tmp files of a killed run are removed. A new run needs a folder without shards; --resume
/// needs one with shards, each read whole (h5store_read: digest and value checks), of this run's
/// run_config (the first difference named) and holding exactly its shard's games; those shards
/// are kept, the others labelled. Progress lines go to standard error. STATUS_IO (the folder,
/// the lock, a write), STATUS_FORMAT (a foreign, corrupt or other run's shard), STATUS_NOMEM.
Status label_folder_run(const LabelRun *run, LabelTotals *t, ErrorInfo *err);
