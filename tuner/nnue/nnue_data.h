// SPDX-License-Identifier: MIT
// The NNUE trainer's positions: read from self-play shards (h5store), filtered, split by game
// into training and validation, held as packed boards of 36 bytes; the training target.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "packed_board.h"
#include "shard_data.h"
#include "status.h"

/// One training position: the packed board (packed_board.h), the search score and the game's
/// result, both from the side to move's view.
typedef struct NnuePosition {
    uint8_t board[PACKED_BOARD_BYTES];
    int16_t score; // centipawns, clamped to +-STORED_CP_MAX (mates included)
    int8_t result; // +1 won, 0 drawn, -1 lost
    uint8_t stm;   // 0 Cho, 1 Han
} NnuePosition;

/// Which stored positions train the net (flags of hansu-nnue).
typedef struct NnueFilter {
    const char *variant;   // variant every file must hold (NULL: janggi)
    int skip_plies;        // drop the first plies of each game (--skip-plies)
    int max_score;         // drop |score| above this, centipawns; < 0: keep all (--max-score)
    bool skip_check;       // drop positions in check (--skip-check)
    bool skip_capture;     // drop positions whose best move captures (--skip-capture)
    double valid_fraction; // share of games held out for validation (--valid)
    size_t max_positions;  // keep at most this many positions in all; 0: all (--max-positions)
    bool mirror;   // train on each training position and its left-right mirror (--mirror): the
                   // rules of both variants are symmetric under a file flip (a <-> i)
    uint64_t seed; // decides the split (with the game's seed and id)
    size_t buffer; // training positions held at once (--buffer); 0: all. Fewer than the data
                   // has: the epochs stream the files (nnue_stream.h)
} NnueFilter;

/// Filter defaults: skip 8 plies, |score| <= 3000, positions in check and before a capture
/// dropped, 10 % of games for validation, mirrors added, seed 1, every position held.
NnueFilter nnue_filter_default(void);

/// The most positions the sigmoid scale is fitted on (nnue_fit_sigmoid_scale).
enum { NNUE_FIT_POSITIONS = 1000000 };

/// Positions and the files they came from. The training positions are held as played; their
/// mirrors (f->mirror) are not stored but made when a batch takes them (nnue_stream.h).
typedef struct NnueData {
    NnuePosition *train, *valid; // train: nplayed positions; NULL when streamed
    size_t ntrain;  // positions an epoch trains on: nplayed, twice that with the mirrors
    size_t nplayed; // training positions as played
    size_t nvalid;
    bool mirror;          // each training position is trained on with its mirror too
    bool streamed;        // more training positions than f->buffer: train is NULL, each epoch reads
                          // the files again (nnue_stream.h)
    size_t *file_train;   // training positions (as played) of each file, after the filters
    NnuePosition *sample; // streamed: a seeded reservoir sample of at most NNUE_FIT_POSITIONS
    size_t nsample;       // training positions, for the sigmoid fit; NULL otherwise
    char **files;         // input files as h5store_expand_inputs lists them
    char (*sha256)[65];   // SHA-256 of each file (provenance of the net)
    size_t nfiles;
    size_t read, dropped; // positions read; dropped by the filter (random plies included)
} NnueData;

/// Reads every file of paths (files or run folders), keeps the positions f lets through and
/// splits them by game (validation positions stay as played). The training positions are held
/// (nplayed of them) while they are at most f->buffer (0: any number); past it they are let go
/// and d->streamed is set: d holds their count per file and a reservoir sample of them instead.
/// STATUS_FORMAT naming the file when one holds another variant; errors of h5store_read;
/// STATUS_RANGE when no training or no validation position is left.
Status nnue_data_load(char *const *paths, size_t n, const NnueFilter *f, NnueData *d,
                      ErrorInfo *err);

/// Whether game g of sd is held out for validation under f (the same game always is; a PV end
/// as its source game, shard_data_source_game).
bool nnue_data_game_valid(const ShardData *sd, size_t g, const NnueFilter *f);

/// Whether f keeps row r of sd; when it does, *out is its position (score clamped).
bool nnue_data_position(const ShardData *sd, uint64_t r, const NnueFilter *f, NnuePosition *out);

/// The sigmoid scale fitted on d's training positions (nnue_fit_sigmoid_scale): on the positions
/// as an epoch sees them (mirrors included) when held, on the sample when streamed.
double nnue_data_fit_sigmoid_scale(const NnueData *d);

/// The left-right mirror of packed board b into out: each piece's file f becomes 8 - f (slot
/// order within a kind is not restored: the features do not depend on it).
void nnue_mirror_board(const uint8_t b[PACKED_BOARD_BYTES], uint8_t out[PACKED_BOARD_BYTES]);

/// Frees d's arrays (NULL fields accepted) and zeroes it.
void nnue_data_free(NnueData *d);

/// Input indices (engine/nnue.h nnue_feature) of the position seen from each side:
/// feats[CHO], feats[HAN], n of each. Returns n (at most 32).
int nnue_position_features(const NnuePosition *p, uint16_t feats[2][32]);

/// 1 / (1 + exp(-x)).
double nnue_sigmoid(double x);

/// Training target: lambda * result + (1 - lambda) * sigmoid(score / s), result 1, 0.5, 0.
double nnue_target(const NnuePosition *p, double lambda, double s);

/// The s that best predicts results from scores (least squares of sigmoid(score / s) against
/// the result), by golden-section search over 50..2000 cp on at most 1 M positions: Texel's K.
double nnue_fit_sigmoid_scale(const NnuePosition *pos, size_t n);
