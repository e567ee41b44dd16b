// SPDX-License-Identifier: MIT
// The settings of a self-play run (SelfplayConfig): what the game driver plays and the runner
// schedules, below both of them; runner.h fills and checks them (runner_config_*).
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nnue.h"
#include "openings.h"
#include "types.h"

/// Most worker threads per CPU (omp_get_num_procs()) that runner_config_check accepts.
enum { RUNNER_THREADS_PER_CPU = 4 };

/// The search limit of each move: exactly one, the nodes unless another is set.
typedef enum {
    RUNNER_LIMIT_NODES = 1,
    RUNNER_LIMIT_DEPTH = 2,
    RUNNER_LIMIT_MOVETIME = 4
} RunnerLimit;

/// Everything that decides a run. Fill with runner_config_default() and change fields.
typedef struct SelfplayConfig {
    const Variant *variant; // the game played (NULL: janggi); recorded in every file
    const char *out_dir;    // run folder (created if missing)
    uint64_t games;         // target number of games; 0 = until `hours` have passed
    double hours;           // wall-clock budget in hours (0 = none; needed when games == 0)
    int threads;            // worker threads; 0 = all cores; at most RUNNER_THREADS_PER_CPU
                            // per CPU
    uint64_t seed;          // run seed: game i plays from a stream derived from (seed, i)
    int random_plies;       // random legal opening plies per game (after its opening)
    uint64_t nodes;         // nodes per move (the default limit; reproducible)
    int depth;              // plies per move instead of nodes (0 = unused)
    int64_t movetime_ms;    // ms per move instead of nodes (0 = unused; not reproducible)
    double nodes_spread;    // each move's node limit is drawn from nodes * [1-s, 1+s]
    int resign_cp;          // resign when the mover's score stays <= -resign_cp ... (0 = off)
    int resign_plies;       // ... for this many of its own consecutive moves
    int adjudicate_cp;      // adjudicate when both sides' scores agree |score| >= cp ... (0 = off)
    int adjudicate_plies;   // ... for this many consecutive plies
    size_t hash_mb;         // TT size per worker, megabytes
    bool resume;            // continue the run found in out_dir
    bool bench;             // run the bench at start to record the engine's signature
    double checkpoint_s;    // seconds between checkpoints; stretched to 24x the last write
                            // so that writing stays under ~4% of the run
    uint64_t checkpoint_games; // ... or after this many new games, whichever comes first
    size_t shard_positions;    // a shard is closed once it holds this many positions
    double progress_s;         // seconds between progress callbacks
    unsigned limits_given;     // RunnerLimit bits set by runner_config_set_limit
    unsigned part_index;       // play part part_index (1-based) of part_count of the schedule:
    unsigned part_count;       // the games i with i % part_count == part_index - 1 [1 of 1]
    // Start positions of the variant (openings.h): game i starts from openings->fen[i % count],
    // then the random plies; NULL: the variant's own. openings_path: the file they came from
    // (named in messages).
    const Openings *openings;
    const char *openings_path;
    // The evaluation every worker's searcher uses: a net of the variant (nnue.h), or NULL for
    // the classical one. net_sha256: the hex SHA-256 of the net's bytes (nnue_serialise: a
    // trainer's file as written), in run_config so that a resume needs the same net.
    const NnueNet *net;
    char net_sha256[65];
} SelfplayConfig;

/// Most parts a run can be split into (--part I/K, mpirun -np K).
enum { RUNNER_PARTS_MAX = 1 << 16 };
