// SPDX-License-Identifier: MIT
// The NNUE trainer's batches: an epoch's training positions shuffled with their mirrors, which
// are made when a batch takes them (not stored); held all at once, or streamed from the files
// through a buffer of a bounded number of positions (hansu-nnue --buffer).
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nnue_data.h"
#include "shard_data.h"
#include "status.h"

/// Where an epoch's batches come from. The buffer holds pos[0, held): the first `carry` are
/// positions left over from the buffer before (fewer than a batch, mirrors already made), the
/// rest were read since; a shuffle runs over held + (held - carry) virtual indices with the
/// mirrors, v >= held being the mirror of pos[v - held + carry]. Held data is one buffer of every
/// training position, shuffled as hansu-nnue shuffled the array of positions followed by their
/// mirrors; streamed data fills the buffer file by file, in an order shuffled per epoch.
/// The most virtual indices one shuffle holds (a position and its mirror are two): the order is
/// kept as 4-byte indices, so a buffer, or held data, takes at most this many.
#define NNUE_STREAM_MAX_ORDER ((size_t)UINT32_MAX)

typedef struct NnueStream {
    const NnueData *d;   // files and counts when streamed, not owned; NULL when held
    const NnueFilter *f; // the filters the data was read with (streamed)
    size_t batch, cap;   // positions per batch; the buffer's capacity
    bool mirror;
    uint64_t seed;
    int epoch;
    const NnuePosition *pos; // the buffer: the held positions (not owned), or own
    NnuePosition *own;       // streamed: cap positions
    size_t held, carry;
    uint32_t *order;                // the shuffled virtual indices (< NNUE_STREAM_MAX_ORDER)
    size_t norder, next, order_cap; // how many, the next one out, room for
    NnuePosition *out;              // the batch handed out (batch positions)
    size_t flushes;                 // buffers shuffled this epoch
    bool files_done;                // no more to read this epoch (always, held)
    // Streamed: the files in the epoch's order and where reading stands in the open one.
    size_t *files, file_next, file;
    ShardData sd;
    bool open, game_valid;
    size_t game, taken; // the game read; training positions taken from the file
    uint64_t row;
} NnueStream;

/// Batches of n positions held at pos (not copied; they must outlive s), each followed by its
/// mirror when mirror is set, batch positions per batch, shuffled from seed and the epoch as
/// hansu-nnue always has. STATUS_RANGE when the positions (twice n with mirrors) pass
/// NNUE_STREAM_MAX_ORDER; STATUS_NOMEM.
Status nnue_stream_init_held(NnueStream *s, const NnuePosition *pos, size_t n, bool mirror,
                             size_t batch, uint64_t seed, ErrorInfo *err);

/// Batches of d's training positions (d and f must outlive s): held ones as
/// nnue_stream_init_held; when d->streamed, read again from d's files each epoch through a buffer
/// of f->buffer positions. STATUS_RANGE when the buffer holds fewer than a batch or its order
/// passes NNUE_STREAM_MAX_ORDER; STATUS_NOMEM.
Status nnue_stream_init(NnueStream *s, const NnueData *d, const NnueFilter *f, size_t batch,
                        uint64_t seed, ErrorInfo *err);

/// Starts epoch `epoch` (from 0): shuffles the files (streamed) or the positions (held).
void nnue_stream_epoch(NnueStream *s, int epoch);

/// Training positions of an epoch, mirrors included: its batches hold this many in all.
size_t nnue_stream_positions(const NnueStream *s);

/// The epoch's next batch: *n positions at *batch (valid until the next call), the batch size
/// but for the epoch's last; *n = 0 once the epoch is over. Each training position and its mirror
/// come exactly once per epoch. Streamed: STATUS_FORMAT naming a file whose SHA-256 or training
/// positions differ from the first pass's (changed since), errors of h5store_read and
/// sha256_file.
Status nnue_stream_next(NnueStream *s, const NnuePosition **batch, size_t *n, ErrorInfo *err);

/// Frees what s owns (a zeroed s accepted).
void nnue_stream_free(NnueStream *s);
