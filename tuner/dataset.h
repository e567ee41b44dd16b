// SPDX-License-Identifier: MIT
// Reads self-play HDF5 files (schema: docs/data-format.md, through selfplay/h5store.h),
// filters positions, splits them into training and validation sets by game, and builds the
// sparse evaluation trace of every kept position into two TraceStores.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "search.h"
#include "share.h"
#include "status.h"
#include "trace_store.h"

/// Which positions are kept. All plies and scores in plies and cp.
typedef struct DatasetFilter {
    int skip_plies;        // drop positions with ply < skip_plies (opening book / random plies)
    int min_ply, max_ply;  // keep ply in [min_ply, max_ply]; max_ply < 0 means no bound
    int max_score;         // drop |stored score| > max_score (mates included); < 0: no bound
    bool skip_check;       // drop positions whose side to move is in check
    bool skip_capture;     // drop positions whose best move captures
    bool quiesce;          // instead of dropping those, resolve them by a quiescence search
    int per_game;          // at most this many positions per game (seeded choice); 0 = all
    double valid_fraction; // share of games (not positions) in the validation set, 0..1
    uint64_t seed;         // drives the per-game choice, the split and the order
    bool keep_order;       // build in row order instead of a seeded random order (tests)
    const char *variant;   // the variant every file must hold (Variant.name; NULL: janggi)
    unsigned test_refuse;  // tests only (HANSU_TUNE_TEST_REFUSE): refuse every position whose
                           // row is a multiple of this, as trace parity would; 0: none
} DatasetFilter;

/// Counts of what happened to the positions, for the report and the banner.
typedef struct DatasetStats {
    size_t files, games, positions; // read
    size_t pv_ends; // standalone positions read (PV ends: not in games, train_games, valid_games)
    size_t cut_ply, cut_score, cut_check, cut_capture, cut_per_game; // dropped by each filter
    size_t quiesced;   // resolved by quiescence to another position
    size_t refused;    // trace parity failures (> 1 cp)
    size_t off_by_one; // kept with a 1 cp parity difference
    size_t train_games, valid_games;
    size_t traced; // positions traced here (MPI: this rank's, dataset_load_share)
    double read_seconds, build_seconds; // HDF5 reading; decoding + trace building
} DatasetStats;

/// The defaults of hansu-tune: skip 8 plies, drop check and capture positions, no bounds.
DatasetFilter dataset_filter_default(void);

/// Writes the filter as one line of flags (as hansu-tune takes them) into out.
void dataset_filter_describe(const DatasetFilter *f, char *out, size_t out_len);

/// True when the game (its game_id and seed columns) belongs to the validation set under f:
/// a hash of the game's identity and f->seed below f->valid_fraction, so a game is never split.
/// dataset_select_rows passes a PV end's source game (shard_data_source_game), and caps
/// (--per-game) the PV ends of one source game in a file together.
bool dataset_game_in_valid(uint32_t game_id, uint64_t game_seed, const DatasetFilter *f);

/// Expands paths (HDF5 files, or run folders whose shard-*.h5 files are taken in name order)
/// into a malloc'ed list of malloc'ed file paths (free with dataset_free_files). STATUS_IO for
/// a missing path or a folder without shard files.
Status dataset_expand_inputs(char *const *paths, size_t n, char ***files, size_t *nfiles,
                             ErrorInfo *err);

/// Frees a list from dataset_expand_inputs (NULL accepted).
void dataset_free_files(char **files, size_t n);

/// Loads every file of paths (an HDF5 file, or a run folder whose shard-*.h5 files are read
/// in name order) into train and valid (initialised by the caller with the param_count and
/// phase_max of f->variant's EvalSpec; empty stores take its danger range), file after file, each
/// file's positions in a seeded random order (so contiguous mini-batches are random samples), with
/// `threads` OpenMP threads for the trace building; the result does not depend on the thread count.
/// Errors: STATUS_IO (missing, unreadable), STATUS_FORMAT (not HDF5, not a Hansu file, unknown
/// schema version, corrupt, or a file of another variant than f->variant: one fit takes one
/// variant, the message names the file and the first file read), STATUS_RANGE (no position left
/// after filtering), each naming the file.
Status dataset_load(char *const *paths, size_t n, const DatasetFilter *f, int threads,
                    TraceStore *train, TraceStore *valid, DatasetStats *stats, ErrorInfo *err);

/// How MPI ranks split the sets for dataset_load_share.
typedef struct DatasetRanks {
    int rank, ranks;     // this process is rank `rank` (0-based) of `ranks`
    size_t batch;        // the optimiser's positions per batch (0: full batch)
    uint64_t order_seed; // the seed of the training set's shuffle across files (--seed)
} DatasetRanks;

/// dataset_load for rank rk->rank of rk->ranks MPI ranks of `threads` threads each: train and
/// valid get only the positions this rank's threads take in the optimiser (share.h: the
/// training set in batches of rk->batch, the validation set whole), in the order of the shares,
/// and train_share, valid_share their layouts, the whole sets being those one process builds
/// (dataset_load, then trace_store_shuffle with rk->order_seed when there are several files):
/// every rank reads every file (twice) and applies the same selection; each candidate is
/// traced by the one rank that holds it when all are kept; when trace parity refuses some, the
/// ranks exchange them and trace their shares of the kept ones again. stats as one process
/// counts them (traced: this rank's). Every rank must call it alike. Errors as dataset_load, on
/// every rank (STATUS_IO "another MPI rank failed" where another rank's step failed).
Status dataset_load_share(char *const *paths, size_t n, const DatasetFilter *f, int threads,
                          const DatasetRanks *rk, TraceStore *train, TraceStore *valid,
                          TuneShare *train_share, TuneShare *valid_share, DatasetStats *stats,
                          ErrorInfo *err);

/// Resolves b to a quiet position by the engine's quiescence search (search_quiet_pv: captures,
/// every evasion in check, every move where a quiet move may end the game; the line cut before
/// a pass or a move that ends the game) of at most max_plies (<= 8), with s (one per thread,
/// its earlier searches do not matter), and plays the principal variation on b. Returns the
/// number of plies played (0 when b is already quiet).
int dataset_quiesce(Searcher *s, Board *b, int max_plies);
