// SPDX-License-Identifier: MIT
// The self-play runner: OpenMP workers play games (one Searcher each), a single writer thread
// gathers finished games and checkpoints them into HDF5 shards of a run folder.
#pragma once

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "selfplay_config.h"
#include "status.h"

/// Where a run stands; passed to the progress callback and returned at the end.
typedef struct RunnerProgress {
    uint64_t target;            // target games (0 when running for a time)
    uint64_t done;              // games finished (resumed ones included)
    uint64_t saved;             // games in complete files on disk (resumed ones included)
    uint64_t saved_positions;   // their positions
    uint64_t done_here;         // games played by this process
    uint64_t positions_here;    // positions played by this process
    uint64_t positions;         // positions finished (resumed ones included)
    uint64_t by_reason[32];     // games of this process by EndReason
    uint64_t wins[2];           // games of this process won by Cho, by Han
    uint64_t draws;             // games of this process drawn (xiangqi)
    double elapsed_s;           // since the start of this process's run
    double games_per_s;         // of this process
    double eta_s;               // estimate to the target, < 0 when unknown
    double writer_s;            // seconds the writer spent writing files
    double cpu_s;               // CPU seconds (user + system) of the process since the games
                                // began: the bench and the resume scan are not counted
    uint64_t shards_written;    // file writes (checkpoints) of this process
    uint64_t bytes_on_disk;     // size of the run folder's shards after the last write
    uint64_t buffer_peak_bytes; // most memory the writer's shard buffer held, bytes
    int threads;                // worker threads used
    bool finished;              // the last call, after the final checkpoint
} RunnerProgress;

typedef void (*RunnerProgressFn)(const RunnerProgress *p, void *arg);

/// Defaults: 1000 games, all cores, seed 1, 8 random plies, 2000 nodes, hash 16 MB, bench on,
/// resignation and adjudication off (when turned on: over 4 own moves, over 8 plies),
/// checkpoint every 5 s or 200 games, shards of 1 << 18 positions, progress every second, the
/// whole schedule (part 1 of 1).
void runner_config_default(SelfplayConfig *cfg);

/// Sets the search limit `which` to value (nodes, plies or ms per move) as a front end's flag
/// asks; runner_config_check then refuses a zero and a second limit.
void runner_config_set_limit(SelfplayConfig *cfg, RunnerLimit which, uint64_t value);

/// Checks ranges and combinations of the options, the one place for them. STATUS_RANGE with a
/// message naming the flag (--nodes, --depth, ...).
Status runner_config_check(const SelfplayConfig *cfg, ErrorInfo *err);

/// The openings of cfg as the store records them (StoreMeta.openings): the FENs one a line;
/// "" without openings. False when they do not fit in len bytes.
bool runner_openings_text(const SelfplayConfig *cfg, char *out, size_t len);

/// Games of the schedule of cfg that its part plays: cfg->games for part 1 of 1.
uint64_t runner_part_games(const SelfplayConfig *cfg);

/// Makes sure cfg->out_dir can take the run: creates it (not with --resume), checks it is a
/// writable folder, removes temporary files of an interrupted write, and checks its shards:
/// none for a new run, some for --resume ("nothing to resume in DIR"), no game id twice.
/// All this under the folder's writer lock (DIR/.hansu-lock, run_lock.h): STATUS_IO naming
/// the holder's pid while another process writes the folder. runner_run calls it first and
/// keeps the lock to its end; a front end may call it before announcing slow work.
/// A part of a split run (part_count > 1) takes run_lock_take_part's locks instead, so that
/// the parts of one run write the folder together; shards of the other parts (of the same
/// settings) do not make it "an existing run", only its own shards do. Part I of K numbers its
/// shards I-1, I-1+K, I-1+2K, ... so that no two parts write one file name.
Status runner_prepare_out(const SelfplayConfig *cfg, ErrorInfo *err);

/// Runs to the target (or the time budget, or until *stop is set by a signal handler), then
/// writes a last checkpoint. Games in progress when stopped are dropped (and replayed on
/// --resume: game i depends only on the seed and i). progress may be NULL; *final gets the
/// last progress (may be NULL). Errors: STATUS_IO (disk full, unwritable folder: the shards
/// already written stay readable), STATUS_FORMAT (a foreign or corrupt file on --resume, or an
/// existing run without --resume), STATUS_NOMEM.
Status runner_run(const SelfplayConfig *cfg, atomic_int *stop, RunnerProgressFn progress, void *arg,
                  RunnerProgress *final, ErrorInfo *err);
