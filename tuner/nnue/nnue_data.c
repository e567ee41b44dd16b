// SPDX-License-Identifier: MIT
// Self-play shards to NNUE training positions: read (h5store), filter, split by game, keep
// packed; features straight from the packed slots, no Board needed; the target and its s.
#include "nnue_data.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "h5store.h"
#include "nnue.h"
#include "prng.h"
#include "sha256.h"
#include "shard_data.h"
#include "variant.h"

NnueFilter nnue_filter_default(void) {
    return (NnueFilter){.skip_plies = 8,
                        .max_score = 3000,
                        .skip_check = true,
                        .skip_capture = true,
                        .valid_fraction = 0.1,
                        .mirror = true,
                        .seed = 1};
}

// --- reading ------------------------------------------------------------------------------

static bool keep(const PositionColumns *p, size_t r, const NnueFilter *f) {
    if (p->flags[r] & POS_RANDOM) // chosen at random: no searched score
        return false;
    if (p->ply[r] < f->skip_plies || (f->max_score >= 0 && abs(p->score[r]) > f->max_score))
        return false;
    if (f->skip_check && (p->flags[r] & POS_IN_CHECK))
        return false;
    return !(f->skip_capture && (p->flags[r] & POS_BEST_CAPTURE));
}

// The same game always lands on the same side of the split (as the Texel tuner's dataset.c).
bool nnue_data_game_valid(const ShardData *sd, size_t g, const NnueFilter *f) {
    uint32_t id;
    uint64_t gseed;
    shard_data_source_game(sd, g, &id, &gseed); // a PV end goes with its source game
    uint64_t s = f->seed ^ 0x7a11d ^ (gseed * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)id << 17);
    return (double)(prng_next(&s) >> 11) / 9007199254740992.0 < f->valid_fraction;
}

bool nnue_data_position(const ShardData *sd, uint64_t r, const NnueFilter *f, NnuePosition *out) {
    const PositionColumns *p = &sd->positions;
    if (!keep(p, r, f))
        return false;
    *out = (NnuePosition){.score = p->score[r], .result = p->result_stm[r], .stm = p->stm[r]};
    memcpy(out->board, p->board + r * PACKED_BOARD_BYTES, PACKED_BOARD_BYTES);
    if (out->score > STORED_CP_MAX)
        out->score = STORED_CP_MAX;
    if (out->score < -STORED_CP_MAX)
        out->score = -STORED_CP_MAX;
    return true;
}

// Appends p to *a (*n of *cap held), doubling the array but never past limit (0: none).
static Status push(NnuePosition **a, size_t *n, size_t *cap, size_t limit, const NnuePosition *p,
                   ErrorInfo *err) {
    if (*n == *cap) {
        size_t nc = *cap ? 2 * *cap : 65536;
        nc = limit && nc > limit ? limit : nc;
        NnuePosition *na = realloc(*a, nc * sizeof *na);
        if (!na)
            return error_set(err, STATUS_NOMEM, "out of memory holding %zu positions", nc);
        *a = na, *cap = nc;
    }
    (*a)[(*n)++] = *p;
    return STATUS_OK;
}

// The first pass's state: array capacities, the reservoir's generator.
typedef struct Loader {
    size_t cap[3]; // train, valid, sample
    uint64_t rng;
} Loader;

// Algorithm R: the k-th training position (k from 0) replaces a random one of the sample with
// probability NNUE_FIT_POSITIONS / (k + 1) once the sample is full. Seeded: the same sample for
// the same data and seed.
static Status sample_add(NnueData *d, Loader *l, size_t k, const NnuePosition *p, ErrorInfo *err) {
    if (d->nsample < NNUE_FIT_POSITIONS)
        return push(&d->sample, &d->nsample, &l->cap[2], NNUE_FIT_POSITIONS, p, err);
    uint64_t j = prng_next(&l->rng) % ((uint64_t)k + 1);
    if (j < NNUE_FIT_POSITIONS)
        d->sample[j] = *p;
    return STATUS_OK;
}

// One more training position: held while they fit the buffer; past it the held ones go into the
// sample, are let go, and the data is streamed.
static Status take_train(NnueData *d, Loader *l, const NnueFilter *f, const NnuePosition *p,
                         ErrorInfo *err) {
    Status s = STATUS_OK;
    if (!d->streamed && f->buffer && d->nplayed == f->buffer) {
        d->streamed = true;
        for (size_t k = 0; k < d->nplayed && s == STATUS_OK; k++)
            s = sample_add(d, l, k, &d->train[k], err);
        free(d->train), d->train = NULL;
    }
    if (s == STATUS_OK)
        s = d->streamed ? sample_add(d, l, d->nplayed, p, err)
                        : push(&d->train, &d->nplayed, &l->cap[0], f->buffer, p, err);
    if (s == STATUS_OK && d->streamed)
        d->nplayed++;
    return s;
}

static Status take_file(const ShardData *sd, const NnueFilter *f, NnueData *d, size_t file,
                        Loader *l, ErrorInfo *err) {
    Status s = STATUS_OK;
    for (size_t g = 0; g < sd->games.count && s == STATUS_OK; g++) {
        bool valid = nnue_data_game_valid(sd, g, f);
        for (uint64_t r = sd->games.pos_start[g]; r < sd->games.pos_end[g] && s == STATUS_OK; r++) {
            NnuePosition np;
            d->read++;
            if (!nnue_data_position(sd, r, f, &np) ||
                (f->max_positions && d->nplayed + d->nvalid >= f->max_positions)) {
                d->dropped++;
                continue;
            }
            if (valid) {
                s = push(&d->valid, &d->nvalid, &l->cap[1], 0, &np, err);
            } else {
                s = take_train(d, l, f, &np, err);
                d->file_train[file]++;
            }
        }
    }
    return s;
}

void nnue_mirror_board(const uint8_t b[PACKED_BOARD_BYTES], uint8_t out[PACKED_BOARD_BYTES]) {
    for (int i = 0; i < PACKED_BOARD_BYTES; i++)
        out[i] = b[i] == PACKED_NONE
                     ? PACKED_NONE
                     : (uint8_t)(square_make(FILE_NB - 1 - square_file(b[i]), square_rank(b[i])));
}

Status nnue_data_load(char *const *paths, size_t n, const NnueFilter *f, NnueData *d,
                      ErrorInfo *err) {
    memset(d, 0, sizeof *d);
    const char *want = f->variant ? f->variant : variant_default()->name;
    Status s = h5store_expand_inputs(paths, n, &d->files, &d->nfiles, err);
    size_t nf = d->nfiles ? d->nfiles : 1;
    if (s == STATUS_OK && (!(d->sha256 = calloc(nf, sizeof *d->sha256)) ||
                           !(d->file_train = calloc(nf, sizeof *d->file_train))))
        s = error_set(err, STATUS_NOMEM, "out of memory");
    ShardData sd;
    shard_data_init(&sd);
    Loader l = {.rng = f->seed ^ 0x5a3b1e0fULL};
    for (size_t i = 0; i < d->nfiles && s == STATUS_OK; i++) {
        StoreMeta meta = {0};
        s = h5store_read(d->files[i], &meta, &sd, err);
        const char *got = meta.variant[0] ? meta.variant : variant_default()->name;
        if (s == STATUS_OK && strcmp(got, want) != 0)
            s = error_set(err, STATUS_FORMAT, "%s holds %s games, the net is for %s (--variant)",
                          d->files[i], got, want);
        if (s == STATUS_OK)
            s = sha256_file(d->files[i], d->sha256[i], err);
        if (s == STATUS_OK)
            s = take_file(&sd, f, d, i, &l, err);
    }
    shard_data_free(&sd);
    if (s == STATUS_OK && (d->nplayed == 0 || d->nvalid == 0))
        s = error_set(err, STATUS_RANGE,
                      "%zu training and %zu validation positions left of %zu read: the net needs "
                      "both (more games, --valid, or fewer filters)",
                      d->nplayed, d->nvalid, d->read);
    d->mirror = f->mirror;
    d->ntrain = f->mirror ? 2 * d->nplayed : d->nplayed;
    return s;
}

void nnue_data_free(NnueData *d) {
    free(d->train);
    free(d->valid);
    free(d->file_train);
    free(d->sample);
    h5store_free_list(d->files, d->nfiles);
    free(d->sha256);
    memset(d, 0, sizeof *d);
}

// --- features and target ------------------------------------------------------------------

// The kind of slot 0..15 of a side in packed_board.h's layout (0 general, 1-2 guards, 3-4
// chariots, 5-6 cannons, 7-8 horses, 9-10 elephants, 11-15 soldiers), which packed_slot_kind()
// finds by a search: this runs for every position of every step (test_features_match_engine
// checks the features against the engine's on decoded boards).
static inline int slot_kind(int slot) {
    return slot == 0 ? GENERAL : slot >= 11 ? SOLDIER : (slot + 3) / 2;
}

int nnue_position_features(const NnuePosition *p, uint16_t feats[2][32]) {
    int n = 0;
    // Written for every slot and kept when it holds a piece: no branch to mispredict (n < 32
    // while a slot is left, so the writes stay inside the arrays).
    for (int i = 0; i < PACKED_BOARD_BYTES; i++) {
        const int sq = p->board[i];
        // nnue_feature(): (their * kinds + kind - 1) * points + point, Han's point rotated.
        const int han = i >= PACKED_SIDE_SLOTS, kind = slot_kind(i % PACKED_SIDE_SLOTS) - 1;
        feats[CHO][n] = (uint16_t)((han * NNUE_KINDS + kind) * SQUARE_NB + sq);
        feats[HAN][n] = (uint16_t)(((!han) * NNUE_KINDS + kind) * SQUARE_NB + SQUARE_NB - 1 - sq);
        n += sq != PACKED_NONE;
    }
    return n;
}

double nnue_sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

double nnue_target(const NnuePosition *p, double lambda, double s) {
    double r = p->result > 0 ? 1.0 : p->result < 0 ? 0.0 : 0.5;
    return lambda * r + (1.0 - lambda) * nnue_sigmoid(p->score / s);
}

// Element i of pos repeated to total positions is pos[i % n] (a mirror's score and result are
// its position's).
static double result_error(const NnuePosition *pos, size_t n, size_t total, size_t step, double s) {
    double e = 0;
    for (size_t i = 0; i < total; i += step) {
        const NnuePosition *p = &pos[i % n];
        double d = nnue_sigmoid(p->score / s) - nnue_target(p, 1.0, s);
        e += d * d;
    }
    return e;
}

static double fit(const NnuePosition *pos, size_t n, size_t total) {
    const double phi = 0.6180339887498949;
    size_t step = total > NNUE_FIT_POSITIONS ? total / NNUE_FIT_POSITIONS : 1;
    double lo = 50, hi = 2000, a = hi - phi * (hi - lo), b = lo + phi * (hi - lo);
    double fa = result_error(pos, n, total, step, a), fb = result_error(pos, n, total, step, b);
    while (hi - lo > 0.5) {
        if (fa < fb)
            hi = b, b = a, fb = fa, a = hi - phi * (hi - lo),
            fa = result_error(pos, n, total, step, a);
        else
            lo = a, a = b, fa = fb, b = lo + phi * (hi - lo),
            fb = result_error(pos, n, total, step, b);
    }
    return 0.5 * (lo + hi);
}

double nnue_fit_sigmoid_scale(const NnuePosition *pos, size_t n) { return fit(pos, n, n); }

double nnue_data_fit_sigmoid_scale(const NnueData *d) {
    // Held: the positions as the trainer once stored them, mirrors appended (the same s).
    return d->streamed ? fit(d->sample, d->nsample, d->nsample)
                       : fit(d->train, d->nplayed, d->ntrain);
}
