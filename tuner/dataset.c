// SPDX-License-Identifier: MIT
// Self-play HDF5 files to trace stores: read (h5store), filter, choose per game, split by
// game, decode, resolve by quiescence if asked, trace the evaluation, check parity.
#include "dataset.h"
#include "dataset_internal.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "board.h"
#include "eval.h"
#include "h5store.h"
#include "packed_board.h"
#include "prng.h"
#include "search.h"
#include "shard_data.h"
#include "variant.h"

enum { QUIESCE_MAX_PLIES = 8, PREFETCH_AHEAD = 4 };

DatasetFilter dataset_filter_default(void) {
    return (DatasetFilter){.skip_plies = 8,
                           .min_ply = 0,
                           .max_ply = -1,
                           .max_score = -1,
                           .skip_check = true,
                           .skip_capture = true,
                           .quiesce = false,
                           .per_game = 0,
                           .valid_fraction = 0.1,
                           .seed = 1};
}

void dataset_filter_describe(const DatasetFilter *f, char *out, size_t out_len) {
    snprintf(out, out_len,
             "--skip-plies %d --min-ply %d --max-ply %d --max-score %d%s%s%s --per-game %d "
             "--valid %.4g --seed %llu",
             f->skip_plies, f->min_ply, f->max_ply, f->max_score,
             f->skip_check ? " --skip-check" : "", f->skip_capture ? " --skip-capture" : "",
             f->quiesce ? " --quiesce" : "", f->per_game, f->valid_fraction,
             (unsigned long long)f->seed);
}

// --- quiescence ---------------------------------------------------------------------------

int dataset_quiesce(Searcher *s, Board *b, int max_plies) {
    Move pv[QUIESCE_MAX_PLIES];
    if (max_plies > QUIESCE_MAX_PLIES)
        max_plies = QUIESCE_MAX_PLIES;
    int n = search_quiet_pv(s, b, max_plies, pv);
    for (int i = 0; i < n; i++)
        board_make(b, pv[i]);
    return n;
}

// --- selection ----------------------------------------------------------------------------

// A value in [0, 1) from the game's identity and the seed: the same game always lands on the
// same side of the split, whatever file or thread it comes from.
static double game_unit(uint32_t game_id, uint64_t game_seed, uint64_t seed, uint64_t salt) {
    uint64_t s = seed ^ salt ^ (game_seed * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)game_id << 17);
    return (double)(prng_next(&s) >> 11) / 9007199254740992.0;
}

bool dataset_game_in_valid(uint32_t game_id, uint64_t game_seed, const DatasetFilter *f) {
    return game_unit(game_id, game_seed, f->seed, 0x7a11d) < f->valid_fraction;
}

static bool keep_row(const PositionColumns *p, size_t r, const DatasetFilter *f, DatasetStats *st) {
    int ply = p->ply[r], score = p->score[r];
    if (ply < f->skip_plies || ply < f->min_ply || (f->max_ply >= 0 && ply > f->max_ply))
        return st->cut_ply++, false;
    if (f->max_score >= 0 && abs(score) > f->max_score)
        return st->cut_score++, false;
    if (!f->quiesce && f->skip_check && (p->flags[r] & POS_IN_CHECK))
        return st->cut_check++, false;
    if (!f->quiesce && f->skip_capture && (p->flags[r] & POS_BEST_CAPTURE))
        return st->cut_capture++, false;
    return true;
}

static void shuffle_rows(size_t *rows, size_t n, uint64_t *rng) {
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(prng_next(rng) % i), x = rows[i - 1];
        rows[i - 1] = rows[j], rows[j] = x;
    }
}

Status dataset_select_rows(const ShardData *d, const DatasetFilter *f, uint64_t salt, RowLists *out,
                           DatasetStats *st, ErrorInfo *err) {
    size_t np = d->positions.count;
    out->train = malloc((np ? np : 1) * sizeof(size_t));
    out->valid = malloc((np ? np : 1) * sizeof(size_t));
    size_t *cand = malloc((np ? np : 1) * sizeof(size_t));
    if (!out->train || !out->valid || !cand) {
        free(cand);
        return error_set(err, STATUS_NOMEM, "out of memory selecting %zu positions", np);
    }
    out->ntrain = out->nvalid = 0;
    for (size_t g = 0, end; g < d->games.count; g = end) {
        // A game, or the PV ends of one source game (standalone, stored one after another):
        // split and capped as one game.
        uint32_t id, id2;
        uint64_t gseed, gseed2;
        shard_data_source_game(d, g, &id, &gseed);
        for (end = g + 1; d->standalone && end < d->games.count; end++) {
            shard_data_source_game(d, end, &id2, &gseed2);
            if (id2 != id || gseed2 != gseed)
                break;
        }
        size_t n = 0;
        for (uint64_t r = d->games.pos_start[g]; r < d->games.pos_end[end - 1]; r++)
            if (keep_row(&d->positions, r, f, st))
                cand[n++] = r;
        if (f->per_game > 0 && n > (size_t)f->per_game) {
            // Seeded partial Fisher-Yates, then back into row order.
            uint64_t rng = f->seed ^ gseed ^ ((uint64_t)id * 0xd1b54a32d192ed03ULL);
            for (size_t i = 0; i < (size_t)f->per_game; i++) {
                size_t j = i + (size_t)(prng_next(&rng) % (n - i)), x = cand[i];
                cand[i] = cand[j], cand[j] = x;
            }
            st->cut_per_game += n - (size_t)f->per_game;
            n = (size_t)f->per_game;
            for (size_t i = 1; i < n; i++)
                for (size_t j = i; j > 0 && cand[j - 1] > cand[j]; j--) {
                    size_t x = cand[j];
                    cand[j] = cand[j - 1], cand[j - 1] = x;
                }
        }
        bool valid = dataset_game_in_valid(id, gseed, f);
        if (!d->standalone) // a PV end's source game is counted with its line shard
            st->valid_games += valid, st->train_games += !valid;
        size_t *dst = valid ? out->valid : out->train, *cnt = valid ? &out->nvalid : &out->ntrain;
        for (size_t i = 0; i < n; i++)
            dst[(*cnt)++] = cand[i];
    }
    free(cand);
    // Build in a seeded random order, so the stores come out shuffled for mini-batches
    // without another copy of the traces.
    uint64_t rng = f->seed ^ salt;
    if (!f->keep_order) {
        shuffle_rows(out->train, out->ntrain, &rng);
        shuffle_rows(out->valid, out->nvalid, &rng);
    }
    return STATUS_OK;
}

// --- trace building -----------------------------------------------------------------------

typedef struct Worker {
    TraceStore store;
    Status st;
    ErrorInfo err;
    size_t quiesced;
} Worker;

static void build_one(const ShardData *d, size_t r, const DatasetFilter *f, Board *b, EvalTrace *tr,
                      Searcher *qs, Worker *w, const char *path, uint8_t *kept_out) {
    const PositionColumns *p = &d->positions;
    if (f->test_refuse && r % f->test_refuse == 0) { // a parity refusal, for the tests
        w->store.refused++;
        if (kept_out)
            *kept_out = false;
        return;
    }
    PackedBoard pb;
    memcpy(pb.sq, p->board + r * PACKED_BOARD_BYTES, PACKED_BOARD_BYTES);
    Status st =
        packed_board_decode_variant(&pb, d->variant, p->stm[r] ? HAN : CHO, p->ply[r], b, &w->err);
    if (st != STATUS_OK) {
        char why[sizeof w->err.msg];
        memcpy(why, w->err.msg, sizeof why);
        w->st = error_set(&w->err, STATUS_FORMAT, "%s: position row %zu: %s", path, r, why);
        return;
    }
    // Won 1, lost 0, drawn (xiangqi) TRACE_DRAW: the target 0.5.
    int result = p->result_stm[r] > 0 ? 1 : p->result_stm[r] < 0 ? 0 : TRACE_DRAW;
    int score = (p->flags[r] & POS_RANDOM) ? TRACE_NO_SCORE : p->score[r];
    if (f->quiesce && (p->flags[r] & (POS_IN_CHECK | POS_BEST_CAPTURE))) {
        int plies = dataset_quiesce(qs, b, QUIESCE_MAX_PLIES);
        w->quiesced += plies > 0;
        if (plies & 1) // the other side is to move at the quiet position
            result = result == TRACE_DRAW ? result : !result,
            score = score == TRACE_NO_SCORE ? score : -score;
    }
    Score e = eval_trace(b, tr);
    bool kept;
    w->st = trace_store_add_eval(&w->store, tr, b->side, b->variant->eval->weights, e, result,
                                 score, &kept, &w->err);
    if (kept_out)
        *kept_out = kept;
}

// Copies thread t's store into out at its offsets (positions and entries of the threads
// before it come first), shifting the entry offsets.
static void copy_segment(TraceStore *out, const TraceStore *src, size_t pos_at, size_t ent_at) {
    if (src->nentries)
        memcpy(out->entries + ent_at, src->entries, src->nentries * sizeof *src->entries);
    for (size_t i = 0; i < src->npos; i++) {
        out->pos[pos_at + i] = src->pos[i];
        out->pos[pos_at + i].start += (uint32_t)ent_at;
    }
}

Status dataset_build_rows(const ShardData *d, const size_t *rows, size_t n, const DatasetFilter *f,
                          int threads, Searcher **qs, const char *path, TraceStore *out,
                          DatasetStats *st, uint8_t *kept, ErrorInfo *err) {
    Worker *w = calloc((size_t)threads, sizeof *w);
    size_t *at = calloc(2 * (size_t)threads, sizeof *at); // per thread: first position, entry
    if (!w || !at)
        return free(w), free(at), error_set(err, STATUS_NOMEM, "out of memory");
    for (int t = 0; t < threads; t++) {
        trace_store_init(&w[t].store, out->nparams, out->phase_max);
        trace_store_set_danger(&w[t].store, out->danger_begin, out->danger_end);
    }
    Status s = STATUS_OK;
    size_t np = out->npos, ne = out->nentries;
    st->traced += n;
#pragma omp parallel num_threads(threads)
    {
        int t = omp_get_thread_num();
        Worker *me = &w[t];
        Board *b = malloc(sizeof *b);
        EvalTrace *tr = malloc(sizeof *tr);
        if (!b || !tr)
            me->st = error_set(&me->err, STATUS_NOMEM, "out of memory");
            // Static schedule: thread t gets one contiguous range of the row list, so the
            // per-thread stores laid end to end in thread order keep the list's order.
#pragma omp for schedule(static)
        for (size_t i = 0; i < n; i++) {
            // Rows come in random order: fetch a later row's board while this one is built.
            if (i + PREFETCH_AHEAD < n) {
                size_t r = rows[i + PREFETCH_AHEAD];
                __builtin_prefetch(d->positions.board + r * PACKED_BOARD_BYTES);
                __builtin_prefetch(&d->positions.ply[r]);
                __builtin_prefetch(&d->positions.score[r]);
            }
            if (me->st == STATUS_OK)
                build_one(d, rows[i], f, b, tr, qs[t], me, path, kept ? &kept[i] : NULL);
        }
        free(b);
        free(tr);
#pragma omp single
        {
            for (int k = 0; k < threads && s == STATUS_OK; k++) {
                if (w[k].st != STATUS_OK)
                    s = w[k].st, *err = w[k].err;
                at[2 * k] = np, at[2 * k + 1] = ne;
                np += w[k].store.npos, ne += w[k].store.nentries;
            }
            if (s == STATUS_OK && ne > UINT32_MAX)
                s = error_set(err, STATUS_RANGE, "more than 2^32 trace entries");
            if (s == STATUS_OK)
                s = trace_store_reserve(out, np, ne, err);
        }
        // Each thread copies its own part, so the new pages are touched in parallel too.
        if (s == STATUS_OK)
            copy_segment(out, &me->store, at[2 * t], at[2 * t + 1]);
    }
    if (s == STATUS_OK)
        out->npos = np, out->nentries = ne;
    for (int t = 0; t < threads; t++) {
        st->refused += w[t].store.refused, st->off_by_one += w[t].store.off_by_one;
        st->quiesced += w[t].quiesced;
        trace_store_free(&w[t].store);
    }
    free(w);
    free(at);
    return s;
}

// --- files --------------------------------------------------------------------------------

// The fit's term list cannot describe two games: the first file of another variant is refused.
Status dataset_check_variant(const char *path, const StoreMeta *meta, const DatasetFilter *f,
                             const char *first, ErrorInfo *err) {
    const char *want = f->variant ? f->variant : variant_default()->name;
    const char *got = meta->variant[0] ? meta->variant : variant_default()->name;
    if (strcmp(want, got) == 0)
        return STATUS_OK;
    if (first && strcmp(first, path) != 0)
        return error_set(err, STATUS_FORMAT,
                         "%s holds %s games, but %s and the fit are %s: one fit takes one "
                         "variant",
                         path, got, first, want);
    return error_set(err, STATUS_FORMAT, "%s holds %s games, the fit is %s (--variant %s)", path,
                     got, want, got);
}

static Status load_file(const char *path, const char *first, const DatasetFilter *f, int threads,
                        Searcher **qs, ShardData *data, TraceStore *train, TraceStore *valid,
                        DatasetStats *st, ErrorInfo *err) {
    double t0 = omp_get_wtime();
    StoreMeta meta;
    Status s = h5store_read(path, &meta, data, err);
    if (s == STATUS_OK)
        s = dataset_check_variant(path, &meta, f, first, err);
    if (s != STATUS_OK)
        return s;
    double t1 = omp_get_wtime();
    st->read_seconds += t1 - t0;
    st->files++, st->positions += data->positions.count;
    *(data->standalone ? &st->pv_ends : &st->games) += data->games.count;
    RowLists rl = {0};
    s = dataset_select_rows(data, f, dataset_file_salt(st->files - 1), &rl, st, err);
    if (s == STATUS_OK)
        s = dataset_build_rows(data, rl.train, rl.ntrain, f, threads, qs, path, train, st, NULL,
                               err);
    if (s == STATUS_OK)
        s = dataset_build_rows(data, rl.valid, rl.nvalid, f, threads, qs, path, valid, st, NULL,
                               err);
    free(rl.train);
    free(rl.valid);
    st->build_seconds += omp_get_wtime() - t1;
    return s;
}

void dataset_free_files(char **files, size_t n) {
    for (size_t i = 0; files && i < n; i++)
        free(files[i]);
    free(files);
}

Status dataset_expand_inputs(char *const *paths, size_t n, char ***files, size_t *nfiles,
                             ErrorInfo *err) {
    return h5store_expand_inputs(paths, n, files, nfiles, err);
}

void dataset_set_danger(const DatasetFilter *f, TraceStore *train, TraceStore *valid) {
    const Variant *v = f->variant ? variant_find(f->variant) : variant_default();
    if (v && train->npos == 0 && valid->npos == 0) {
        trace_store_set_danger(train, v->eval->danger_begin, v->eval->danger_end);
        trace_store_set_danger(valid, v->eval->danger_begin, v->eval->danger_end);
    }
}

Status dataset_load(char *const *paths, size_t n, const DatasetFilter *f, int threads,
                    TraceStore *train, TraceStore *valid, DatasetStats *stats, ErrorInfo *err) {
    memset(stats, 0, sizeof *stats);
    if (threads < 1)
        threads = 1;
    dataset_set_danger(f, train, valid);
    char **files = NULL;
    size_t nfiles = 0;
    Status s = dataset_expand_inputs(paths, n, &files, &nfiles, err);
    if (s != STATUS_OK)
        return s;
    // One searcher per loading thread for --quiesce; its TT is unused (search_quiet_pv).
    Searcher **qs = calloc((size_t)threads, sizeof *qs);
    if (!qs)
        s = error_set(err, STATUS_NOMEM, "out of memory");
    for (int t = 0; f->quiesce && s == STATUS_OK && t < threads; t++)
        if (!(qs[t] = search_create(QUIESCE_HASH_MB)))
            s = error_set(err, STATUS_NOMEM, "out of memory creating a quiescence searcher");
    ShardData data;
    shard_data_init(&data);
    for (size_t i = 0; i < nfiles && s == STATUS_OK; i++)
        s = load_file(files[i], files[0], f, threads, qs, &data, train, valid, stats, err);
    shard_data_free(&data);
    for (int t = 0; qs && t < threads; t++)
        search_destroy(qs[t]);
    free(qs);
    dataset_free_files(files, nfiles);
    if (s == STATUS_OK && train->npos + valid->npos == 0)
        s = error_set(err, STATUS_RANGE,
                      "no positions left after filtering (%zu read in %zu games; dropped: ply "
                      "%zu, score %zu, check %zu, capture %zu, per game %zu, parity %zu)",
                      stats->positions, stats->games, stats->cut_ply, stats->cut_score,
                      stats->cut_check, stats->cut_capture, stats->cut_per_game, stats->refused);
    return s;
}
