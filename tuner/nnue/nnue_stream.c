// SPDX-License-Identifier: MIT
// An epoch's batches: the buffer's positions and their mirrors shuffled as virtual indices, the
// mirrors made as a batch takes them; streamed data read file by file into the buffer, what is
// left over of one buffer (less than a batch) carried into the next, so that every batch but the
// epoch's last is full and an epoch has as many as when every position is held.
#include "nnue_stream.h"

#include <stdlib.h>
#include <string.h>

#include "h5store.h"
#include "prng.h"
#include "sha256.h"

static Status alloc_common(NnueStream *s, size_t order_cap, ErrorInfo *err) {
    if (order_cap > NNUE_STREAM_MAX_ORDER) {
        nnue_stream_free(s);
        return error_set(err, STATUS_RANGE,
                         "%zu training positions to shuffle at once (mirrors counted): at most "
                         "%zu (--buffer)",
                         order_cap, NNUE_STREAM_MAX_ORDER);
    }
    s->order_cap = order_cap;
    s->order = malloc((order_cap ? order_cap : 1) * sizeof *s->order);
    s->out = malloc(s->batch * sizeof *s->out);
    if (!s->order || !s->out) {
        nnue_stream_free(s);
        return error_set(err, STATUS_NOMEM, "out of memory shuffling %zu positions", order_cap);
    }
    return STATUS_OK;
}

Status nnue_stream_init_held(NnueStream *s, const NnuePosition *pos, size_t n, bool mirror,
                             size_t batch, uint64_t seed, ErrorInfo *err) {
    *s = (NnueStream){.batch = batch,
                      .cap = n,
                      .mirror = mirror,
                      .seed = seed,
                      .pos = pos,
                      .held = n,
                      .files_done = true};
    shard_data_init(&s->sd);
    return alloc_common(s, mirror ? 2 * n : n, err);
}

Status nnue_stream_init(NnueStream *s, const NnueData *d, const NnueFilter *f, size_t batch,
                        uint64_t seed, ErrorInfo *err) {
    memset(s, 0, sizeof *s);
    if (!d->streamed)
        return nnue_stream_init_held(s, d->train, d->nplayed, d->mirror, batch, seed, err);
    if (f->buffer < batch)
        return error_set(err, STATUS_RANGE,
                         "--buffer %zu: holds fewer positions than a batch (%zu, --batch)",
                         f->buffer, batch);
    shard_data_init(&s->sd);
    s->d = d, s->f = f, s->batch = batch, s->cap = f->buffer, s->mirror = d->mirror;
    s->seed = seed;
    s->own = malloc(s->cap * sizeof *s->own);
    s->files = malloc((d->nfiles ? d->nfiles : 1) * sizeof *s->files);
    s->pos = s->own;
    if (!s->own || !s->files) {
        nnue_stream_free(s);
        return error_set(err, STATUS_NOMEM, "out of memory for a buffer of %zu positions",
                         f->buffer);
    }
    return alloc_common(s, s->mirror ? 2 * s->cap : s->cap, err);
}

void nnue_stream_free(NnueStream *s) {
    free(s->own), free(s->order), free(s->out), free(s->files);
    shard_data_free(&s->sd);
    memset(s, 0, sizeof *s);
}

size_t nnue_stream_positions(const NnueStream *s) {
    return s->d ? s->d->ntrain : s->mirror ? 2 * s->held : s->held;
}

// The epoch's generator; flush k > 0 (streamed) shuffles its buffer from another. The first is
// the one the trainer has always shuffled with.
static uint64_t shuffle_seed(const NnueStream *s, size_t flush) {
    return s->seed ^ (0x5eed0000ULL + (uint64_t)s->epoch * 0x9e3779b97f4a7c15ULL) ^
           ((uint64_t)flush * 0xd1b54a32d192ed03ULL);
}

// Shuffles the buffer's virtual indices (Fisher-Yates from the last).
static void shuffle(NnueStream *s) {
    const size_t n = s->held + (s->mirror ? s->held - s->carry : 0);
    uint64_t rng = shuffle_seed(s, s->flushes++);
    for (size_t i = 0; i < n; i++)
        s->order[i] = (uint32_t)i;
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(prng_next(&rng) % i);
        uint32_t x = s->order[i - 1];
        s->order[i - 1] = s->order[j], s->order[j] = x;
    }
    s->norder = n, s->next = 0;
}

void nnue_stream_epoch(NnueStream *s, int epoch) {
    s->epoch = epoch, s->flushes = 0;
    if (!s->d) {
        shuffle(s);
        return;
    }
    // Streamed: the files in an order of the seed and epoch; the buffer empty.
    const size_t nf = s->d->nfiles;
    uint64_t rng = s->seed ^ 0xf11e5eedULL ^ ((uint64_t)(epoch + 1) * 0x9e3779b97f4a7c15ULL);
    for (size_t i = 0; i < nf; i++)
        s->files[i] = i;
    for (size_t i = nf; i > 1; i--) {
        size_t j = (size_t)(prng_next(&rng) % i), x = s->files[i - 1];
        s->files[i - 1] = s->files[j], s->files[j] = x;
    }
    s->file_next = 0, s->open = false, s->files_done = false;
    s->held = s->carry = s->norder = s->next = 0;
}

// Positions order[from, from + k) into out, mirrors made.
static void materialise(const NnueStream *s, size_t from, size_t k, NnuePosition *out) {
    for (size_t j = 0; j < k; j++) {
        const size_t v = s->order[from + j];
        if (v < s->held) {
            out[j] = s->pos[v];
        } else {
            out[j] = s->pos[v - s->held + s->carry];
            nnue_mirror_board(out[j].board, out[j].board);
        }
    }
}

// Opens the epoch's next file: the one the first pass read (its SHA-256), read whole.
static Status open_next(NnueStream *s, ErrorInfo *err) {
    const NnueData *d = s->d;
    s->file = s->files[s->file_next++];
    const char *path = d->files[s->file];
    char sha[65];
    Status st = sha256_file(path, sha, err);
    if (st == STATUS_OK && strcmp(sha, d->sha256[s->file]) != 0)
        return error_set(err, STATUS_FORMAT,
                         "%s changed since the first pass (sha256 %.12s, was %.12s): the "
                         "positions counted are not there; train again",
                         path, sha, d->sha256[s->file]);
    StoreMeta meta = {0};
    if (st == STATUS_OK)
        st = h5store_read(path, &meta, &s->sd, err);
    if (st != STATUS_OK)
        return st;
    s->open = true, s->game = 0, s->taken = 0;
    s->row = s->sd.games.count ? s->sd.games.pos_start[0] : 0;
    s->game_valid = s->sd.games.count && nnue_data_game_valid(&s->sd, 0, s->f);
    return STATUS_OK;
}

// Reads training positions into the buffer until it is full or the files are done: each file's
// first file_train[i] positions that the filters keep outside the validation games (the first
// pass kept those: --max-positions cuts a suffix).
static Status fill(NnueStream *s, ErrorInfo *err) {
    const NnueData *d = s->d;
    NnuePosition *buf = s->own;
    while (s->held < s->cap) {
        if (!s->open) {
            if (s->file_next == d->nfiles) {
                s->files_done = true;
                return STATUS_OK;
            }
            Status st = open_next(s, err);
            if (st != STATUS_OK)
                return st;
            continue;
        }
        const ShardData *sd = &s->sd;
        if (s->game == sd->games.count) {
            if (s->taken != d->file_train[s->file])
                return error_set(err, STATUS_FORMAT,
                                 "%s holds %zu training positions, the first pass counted %zu: "
                                 "changed since",
                                 d->files[s->file], s->taken, d->file_train[s->file]);
            s->open = false;
            continue;
        }
        if (s->game_valid || s->row >= sd->games.pos_end[s->game] ||
            s->taken == d->file_train[s->file]) {
            if (++s->game < sd->games.count) {
                s->row = sd->games.pos_start[s->game];
                s->game_valid = nnue_data_game_valid(sd, s->game, s->f);
            }
            continue;
        }
        if (nnue_data_position(sd, s->row, s->f, &buf[s->held]))
            s->held++, s->taken++;
        s->row++;
    }
    return STATUS_OK;
}

Status nnue_stream_next(NnueStream *s, const NnuePosition **batch, size_t *n, ErrorInfo *err) {
    *n = 0, *batch = s->out;
    for (;;) {
        const size_t left = s->norder - s->next;
        if (left >= s->batch || (left > 0 && s->files_done)) {
            *n = left < s->batch ? left : s->batch;
            materialise(s, s->next, *n, s->out);
            s->next += *n;
            return STATUS_OK;
        }
        if (s->files_done)
            return STATUS_OK; // the epoch is over
        // What is left (less than a batch, mirrors made) opens the next buffer.
        materialise(s, s->next, left, s->out);
        memcpy(s->own, s->out, left * sizeof *s->own);
        s->held = s->carry = left, s->norder = s->next = 0;
        Status st = fill(s, err);
        if (st != STATUS_OK)
            return st;
        shuffle(s);
    }
}
