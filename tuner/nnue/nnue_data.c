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
static bool in_valid(uint32_t id, uint64_t game_seed, const NnueFilter *f) {
    uint64_t s = f->seed ^ 0x7a11d ^ (game_seed * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)id << 17);
    return (double)(prng_next(&s) >> 11) / 9007199254740992.0 < f->valid_fraction;
}

static Status push(NnuePosition **a, size_t *n, size_t *cap, const NnuePosition *p,
                   ErrorInfo *err) {
    if (*n == *cap) {
        size_t nc = *cap ? 2 * *cap : 65536;
        NnuePosition *na = realloc(*a, nc * sizeof *na);
        if (!na)
            return error_set(err, STATUS_NOMEM, "out of memory holding %zu positions", nc);
        *a = na, *cap = nc;
    }
    (*a)[(*n)++] = *p;
    return STATUS_OK;
}

static Status take_file(const ShardData *sd, const NnueFilter *f, NnueData *d, size_t cap[2],
                        ErrorInfo *err) {
    const PositionColumns *p = &sd->positions;
    Status s = STATUS_OK;
    for (size_t g = 0; g < sd->games.count && s == STATUS_OK; g++) {
        bool valid = in_valid(sd->games.game_id[g], sd->games.seed[g], f);
        for (uint64_t r = sd->games.pos_start[g]; r < sd->games.pos_end[g] && s == STATUS_OK; r++) {
            d->read++;
            if (!keep(p, r, f) || (f->max_positions && d->ntrain + d->nvalid >= f->max_positions)) {
                d->dropped++;
                continue;
            }
            NnuePosition np = {.score = p->score[r], .result = p->result_stm[r], .stm = p->stm[r]};
            memcpy(np.board, p->board + r * PACKED_BOARD_BYTES, PACKED_BOARD_BYTES);
            if (np.score > STORED_CP_MAX)
                np.score = STORED_CP_MAX;
            if (np.score < -STORED_CP_MAX)
                np.score = -STORED_CP_MAX;
            s = valid ? push(&d->valid, &d->nvalid, &cap[1], &np, err)
                      : push(&d->train, &d->ntrain, &cap[0], &np, err);
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

// Appends the mirror of every training position (score, result and side to move unchanged).
static Status add_mirrors(NnueData *d, ErrorInfo *err) {
    NnuePosition *a = realloc(d->train, 2 * d->ntrain * sizeof *a);
    if (!a)
        return error_set(err, STATUS_NOMEM, "out of memory holding %zu mirrored positions",
                         2 * d->ntrain);
    d->train = a;
    for (size_t i = 0; i < d->ntrain; i++) {
        a[d->ntrain + i] = a[i];
        nnue_mirror_board(a[i].board, a[d->ntrain + i].board);
    }
    d->ntrain *= 2;
    return STATUS_OK;
}

Status nnue_data_load(char *const *paths, size_t n, const NnueFilter *f, NnueData *d,
                      ErrorInfo *err) {
    memset(d, 0, sizeof *d);
    const char *want = f->variant ? f->variant : variant_default()->name;
    Status s = h5store_expand_inputs(paths, n, &d->files, &d->nfiles, err);
    if (s == STATUS_OK && !(d->sha256 = calloc(d->nfiles ? d->nfiles : 1, sizeof *d->sha256)))
        s = error_set(err, STATUS_NOMEM, "out of memory");
    ShardData sd;
    shard_data_init(&sd);
    size_t cap[2] = {0, 0};
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
            s = take_file(&sd, f, d, cap, err);
    }
    shard_data_free(&sd);
    if (s == STATUS_OK && (d->ntrain == 0 || d->nvalid == 0))
        s = error_set(err, STATUS_RANGE,
                      "%zu training and %zu validation positions left of %zu read: the net needs "
                      "both (more games, --valid, or fewer filters)",
                      d->ntrain, d->nvalid, d->read);
    if (s == STATUS_OK && f->mirror)
        s = add_mirrors(d, err);
    return s;
}

void nnue_data_free(NnueData *d) {
    free(d->train);
    free(d->valid);
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

static double result_error(const NnuePosition *pos, size_t n, size_t step, double s) {
    double e = 0;
    for (size_t i = 0; i < n; i += step) {
        double d = nnue_sigmoid(pos[i].score / s) - nnue_target(&pos[i], 1.0, s);
        e += d * d;
    }
    return e;
}

double nnue_fit_sigmoid_scale(const NnuePosition *pos, size_t n) {
    const double phi = 0.6180339887498949;
    size_t step = n > 1000000 ? n / 1000000 : 1;
    double lo = 50, hi = 2000, a = hi - phi * (hi - lo), b = lo + phi * (hi - lo);
    double fa = result_error(pos, n, step, a), fb = result_error(pos, n, step, b);
    while (hi - lo > 0.5) {
        if (fa < fb)
            hi = b, b = a, fb = fa, a = hi - phi * (hi - lo), fa = result_error(pos, n, step, a);
        else
            lo = a, a = b, fa = fb, b = lo + phi * (hi - lo), fb = result_error(pos, n, step, b);
    }
    return 0.5 * (lo + hi);
}
