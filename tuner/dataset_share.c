// SPDX-License-Identifier: MIT
// Self-play HDF5 files to the trace stores of one MPI rank: only the positions its threads take
// (share.h), in the order one process builds (dataset.h, dataset_load_share).
#include "dataset.h"
#include "dataset_internal.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "h5store.h"
#include "search.h"
#include "shard_data.h"

// The candidates (dataset_select_rows' lists, before trace parity) of every file laid end to end:
// file i's training candidates are [tstart[i], tstart[i + 1]) in its list's order, and its
// validation ones [vstart[i], vstart[i + 1]).
typedef struct Plan {
    char **files;
    size_t nfiles;
    size_t *tstart, *vstart;
    uint64_t *refused[2]; // sorted candidate indices refused by trace parity (train, valid)
    size_t nrefused[2];
} Plan;

// One position this rank holds: its file, set (0 train, 1 valid), index in the file's list
// of that set, and index in the rank's store of the set.
typedef struct Held {
    size_t file, cand, local;
    int set;
} Held;

static int cmp_held(const void *a, const void *b) {
    const Held *x = a, *y = b;
    if (x->file != y->file)
        return (x->file > y->file) - (x->file < y->file);
    if (x->set != y->set)
        return x->set - y->set;
    return (x->cand > y->cand) - (x->cand < y->cand);
}

// Reads file i of the plan and its row lists, as load_file does (the stats of the selection
// go to st).
static Status read_rows(const Plan *p, size_t i, const DatasetFilter *f, ShardData *data,
                        RowLists *rl, DatasetStats *st, ErrorInfo *err) {
    double t0 = omp_get_wtime();
    StoreMeta meta;
    Status s = h5store_read(p->files[i], &meta, data, err);
    if (s == STATUS_OK)
        s = dataset_check_variant(p->files[i], &meta, f, p->files[0], err);
    st->read_seconds += omp_get_wtime() - t0;
    if (s == STATUS_OK)
        s = dataset_select_rows(data, f, dataset_file_salt(i), rl, st, err);
    return s;
}

// Every file once: the stats of the selection (as one process counts them) and the plan.
static Status scan_files(Plan *p, const DatasetFilter *f, DatasetStats *st, ErrorInfo *err) {
    p->tstart = calloc(p->nfiles + 1, sizeof *p->tstart);
    p->vstart = calloc(p->nfiles + 1, sizeof *p->vstart);
    if (!p->tstart || !p->vstart)
        return error_set(err, STATUS_NOMEM, "out of memory");
    ShardData data;
    shard_data_init(&data);
    Status s = STATUS_OK;
    for (size_t i = 0; i < p->nfiles && s == STATUS_OK; i++) {
        RowLists rl = {0};
        s = read_rows(p, i, f, &data, &rl, st, err);
        if (s == STATUS_OK) {
            st->files++, st->positions += data.positions.count;
            *(data.standalone ? &st->pv_ends : &st->games) += data.games.count;
            p->tstart[i + 1] = p->tstart[i] + rl.ntrain;
            p->vstart[i + 1] = p->vstart[i] + rl.nvalid;
        }
        free(rl.train);
        free(rl.valid);
    }
    shard_data_free(&data);
    return s;
}

// Kept index -> candidate index of one set: the candidates less the refused ones (NULL when
// none was refused: the same index).
static size_t *kept_candidates(const Plan *p, int set, size_t ncand) {
    if (p->nrefused[set] == 0)
        return NULL;
    size_t *map = malloc((ncand - p->nrefused[set] + 1) * sizeof *map), n = 0, k = 0;
    for (size_t c = 0; map && c < ncand; c++) {
        if (k < p->nrefused[set] && p->refused[set][k] == c)
            k++;
        else
            map[n++] = c;
    }
    return map;
}

// The file of candidate c of a set whose files start at start[0..nfiles].
static size_t file_of(const size_t *start, size_t nfiles, size_t c) {
    size_t lo = 0, hi = nfiles; // start[lo] <= c < start[hi]
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (start[mid] <= c)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

// The positions this rank holds under the plan's refusals, sorted by file: the training set in
// batches (after the cross-file shuffle of one process when there are several files), the
// validation set as one batch. *shares gets both layouts.
static Status list_held(const Plan *p, const DatasetRanks *rk, int threads, uint64_t seed,
                        TuneShare shares[2], Held **out, size_t *nout, ErrorInfo *err) {
    size_t ncand[2] = {p->tstart[p->nfiles], p->vstart[p->nfiles]};
    size_t npos[2] = {ncand[0] - p->nrefused[0], ncand[1] - p->nrefused[1]};
    shares[0] = tune_share_make(npos[0], rk->batch, rk->rank, rk->ranks, threads);
    shares[1] = tune_share_make(npos[1], 0, rk->rank, rk->ranks, threads);
    size_t n = tune_share_count(&shares[0]) + tune_share_count(&shares[1]);
    Held *h = malloc((n ? n : 1) * sizeof *h);
    size_t *order = p->nfiles > 1 ? malloc((npos[0] ? npos[0] : 1) * sizeof *order) : NULL;
    size_t *map[2] = {kept_candidates(p, 0, ncand[0]), kept_candidates(p, 1, ncand[1])};
    Status s = STATUS_OK;
    if (!h || (p->nfiles > 1 && !order) || (p->nrefused[0] && !map[0]) ||
        (p->nrefused[1] && !map[1])) {
        s = error_set(err, STATUS_NOMEM, "out of memory listing %zu positions", n);
        goto cleanup;
    }
    if (order) // one process's trace_store_shuffle of the training set across files
        trace_store_shuffle_order(order, npos[0], seed);
    size_t k = 0;
    for (int set = 0; set < 2; set++) {
        const size_t *start = set ? p->vstart : p->tstart;
        for (size_t b = 0, nb = tune_share_batches(&shares[set]); b < nb; b++) {
            size_t begin, end, lo, hi, at;
            tune_share_batch(&shares[set], b, &begin, &end, &lo, &hi, &at);
            for (size_t j = lo; j < hi; j++) {
                size_t i = set == 0 && order ? order[j] : j, c = map[set] ? map[set][i] : i;
                size_t file = file_of(start, p->nfiles, c);
                h[k++] = (Held){
                    .file = file, .cand = c - start[file], .local = at + (j - lo), .set = set};
            }
        }
    }
    qsort(h, k, sizeof *h, cmp_held);
    *out = h, *nout = k, h = NULL;
cleanup:
    free(h);
    free(order);
    free(map[0]);
    free(map[1]);
    return s;
}

// Traces the held positions of one file, set by set, appending them to tmp[set]; where[set]
// gets, per local index, the index in tmp[set] (kept ones), and refused ones are listed as
// candidates in ref[set] (global candidate indices).
typedef struct Tracing {
    TraceStore tmp[2];
    size_t *where[2];
    uint64_t *ref[2];
    size_t nref[2];
    size_t *rows;
    uint8_t *kept;
} Tracing;

static Status trace_file(const Plan *p, const Held *h, size_t n, const DatasetFilter *f,
                         int threads, Searcher **qs, ShardData *data, Tracing *tc, DatasetStats *st,
                         ErrorInfo *err) {
    RowLists rl = {0};
    DatasetStats scratch = {0};
    Status s = read_rows(p, h[0].file, f, data, &rl, &scratch, err);
    st->read_seconds += scratch.read_seconds;
    double t0 = omp_get_wtime();
    for (size_t a = 0, b; s == STATUS_OK && a < n; a = b) {
        int set = h[a].set;
        for (b = a; b < n && h[b].set == set; b++)
            tc->rows[b - a] = (set ? rl.valid : rl.train)[h[b].cand];
        size_t before = tc->tmp[set].npos;
        s = dataset_build_rows(data, tc->rows, b - a, f, threads, qs, p->files[h[0].file],
                               &tc->tmp[set], st, tc->kept, err);
        const size_t *start = set ? p->vstart : p->tstart;
        for (size_t i = a; s == STATUS_OK && i < b; i++) {
            if (tc->kept[i - a])
                tc->where[set][h[i].local] = before++;
            else
                tc->ref[set][tc->nref[set]++] = start[h[i].file] + h[i].cand;
        }
    }
    st->build_seconds += omp_get_wtime() - t0;
    free(rl.train);
    free(rl.valid);
    return s;
}

// Traces every held position, file by file; the stores come out in the shares' local order
// when no position was refused here (else the caller retraces under the new refusals).
static Status trace_held(const Plan *p, const Held *h, size_t n, const TuneShare shares[2],
                         const DatasetFilter *f, int threads, Searcher **qs, Tracing *tc,
                         TraceStore *out[2], DatasetStats *st, ErrorInfo *err) {
    size_t count[2] = {tune_share_count(&shares[0]), tune_share_count(&shares[1])};
    Status s = STATUS_OK;
    for (int set = 0; set < 2; set++) {
        trace_store_init(&tc->tmp[set], out[set]->nparams, out[set]->phase_max);
        trace_store_set_danger(&tc->tmp[set], out[set]->danger_begin, out[set]->danger_end);
        tc->where[set] = malloc((count[set] ? count[set] : 1) * sizeof *tc->where[set]);
        tc->ref[set] = malloc((count[set] ? count[set] : 1) * sizeof *tc->ref[set]);
        tc->nref[set] = 0;
        if (!tc->where[set] || !tc->ref[set])
            s = error_set(err, STATUS_NOMEM, "out of memory for %zu positions", count[set]);
    }
    tc->rows = malloc((n ? n : 1) * sizeof *tc->rows);
    tc->kept = malloc(n ? n : 1);
    if (s == STATUS_OK && (!tc->rows || !tc->kept))
        s = error_set(err, STATUS_NOMEM, "out of memory for %zu positions", n);
    ShardData data;
    shard_data_init(&data);
    for (size_t a = 0, b; s == STATUS_OK && a < n; a = b) {
        for (b = a; b < n && h[b].file == h[a].file; b++)
            ;
        s = trace_file(p, h + a, b - a, f, threads, qs, &data, tc, st, err);
    }
    shard_data_free(&data);
    for (int set = 0; s == STATUS_OK && set < 2 && tc->nref[0] + tc->nref[1] == 0; set++) {
        trace_store_free(out[set]);
        if ((s = trace_store_permute(&tc->tmp[set], tc->where[set], err)) == STATUS_OK)
            *out[set] = tc->tmp[set],
            trace_store_init(&tc->tmp[set], out[set]->nparams, out[set]->phase_max),
            trace_store_set_danger(&tc->tmp[set], out[set]->danger_begin, out[set]->danger_end);
    }
    return s;
}

static void tracing_free(Tracing *tc) {
    for (int set = 0; set < 2; set++) {
        trace_store_free(&tc->tmp[set]);
        free(tc->where[set]);
        free(tc->ref[set]);
    }
    free(tc->rows);
    free(tc->kept);
    memset(tc, 0, sizeof *tc);
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

// Every rank's refused candidates into the plan (sorted), on every rank: the counts of each
// rank, then the indices, each rank at its offset (cluster_sum_u64 of disjoint slots).
static Status gather_refused(Plan *p, const Tracing *tc, const DatasetRanks *rk, ErrorInfo *err) {
    size_t nr = (size_t)rk->ranks;
    uint64_t *counts = calloc(2 * nr, sizeof *counts);
    Status s = counts ? STATUS_OK : error_set(err, STATUS_NOMEM, "out of memory");
    if ((s = tune_agree(s, err)) != STATUS_OK)
        return free(counts), s;
    for (int set = 0; set < 2; set++)
        counts[2 * (size_t)rk->rank + (size_t)set] = tc->nref[set];
    cluster_sum_u64(counts, 2 * nr);
    for (int set = 0; set < 2 && s == STATUS_OK; set++) {
        size_t total = 0, at = 0;
        for (size_t r = 0; r < nr; r++)
            at += r < (size_t)rk->rank ? counts[2 * r + (size_t)set] : 0,
                total += counts[2 * r + (size_t)set];
        free(p->refused[set]);
        p->refused[set] = calloc(total ? total : 1, sizeof *p->refused[set]);
        p->nrefused[set] = total;
        s = tune_agree(p->refused[set] ? STATUS_OK : error_set(err, STATUS_NOMEM, "out of memory"),
                       err);
        if (s != STATUS_OK)
            break;
        if (tc->nref[set])
            memcpy(p->refused[set] + at, tc->ref[set], tc->nref[set] * sizeof *tc->ref[set]);
        cluster_sum_u64(p->refused[set], total);
        qsort(p->refused[set], total, sizeof *p->refused[set], cmp_u64);
    }
    free(counts);
    return s;
}

// One trace of the held positions under the plan's refusals; *refused: whether any rank
// refused one of them (then the plan holds them all and the caller traces again).
static Status trace_round(Plan *p, const DatasetRanks *rk, const DatasetFilter *f, int threads,
                          Searcher **qs, TraceStore *out[2], TuneShare shares[2], bool *refused,
                          DatasetStats *st, ErrorInfo *err) {
    Held *h = NULL;
    size_t n = 0;
    Tracing tc = {0};
    Status s = list_held(p, rk, threads, rk->order_seed, shares, &h, &n, err);
    if (s == STATUS_OK)
        s = trace_held(p, h, n, shares, f, threads, qs, &tc, out, st, err);
    s = tune_agree(s, err);
    uint64_t nref = tc.nref[0] + tc.nref[1];
    if (s == STATUS_OK)
        cluster_sum_u64(&nref, 1);
    *refused = nref > 0;
    if (s == STATUS_OK && *refused)
        s = gather_refused(p, &tc, rk, err);
    tracing_free(&tc);
    free(h);
    return s;
}

Status dataset_load_share(char *const *paths, size_t n, const DatasetFilter *f, int threads,
                          const DatasetRanks *rk, TraceStore *train, TraceStore *valid,
                          TuneShare *train_share, TuneShare *valid_share, DatasetStats *stats,
                          ErrorInfo *err) {
    memset(stats, 0, sizeof *stats);
    if (threads < 1)
        threads = 1;
    dataset_set_danger(f, train, valid);
    Plan p = {0};
    Status s = dataset_expand_inputs(paths, n, &p.files, &p.nfiles, err);
    Searcher **qs = s == STATUS_OK ? calloc((size_t)threads, sizeof *qs) : NULL;
    if (s == STATUS_OK && !qs)
        s = error_set(err, STATUS_NOMEM, "out of memory");
    for (int t = 0; f->quiesce && s == STATUS_OK && t < threads; t++)
        if (!(qs[t] = search_create(QUIESCE_HASH_MB)))
            s = error_set(err, STATUS_NOMEM, "out of memory creating a quiescence searcher");
    if (s == STATUS_OK)
        s = scan_files(&p, f, stats, err);
    s = tune_agree(s, err);
    // First every candidate is taken as kept: each is traced by exactly one rank (the shares
    // partition the sets), which learns whether parity refuses it. Refusals change the
    // global order, so then every rank traces its shares of the kept positions once more.
    TraceStore *out[2] = {train, valid};
    TuneShare shares[2];
    bool refused = false;
    if (s == STATUS_OK)
        s = trace_round(&p, rk, f, threads, qs, out, shares, &refused, stats, err);
    // The counts of what parity and quiescence did: each position was traced once.
    uint64_t c[3] = {stats->refused, stats->off_by_one, stats->quiesced};
    if (s == STATUS_OK)
        cluster_sum_u64(c, 3);
    stats->refused = c[0], stats->off_by_one = c[1], stats->quiesced = c[2];
    if (s == STATUS_OK && refused) {
        DatasetStats again = {0};
        s = trace_round(&p, rk, f, threads, qs, out, shares, &refused, &again, err);
        stats->traced += again.traced;
        stats->read_seconds += again.read_seconds, stats->build_seconds += again.build_seconds;
        if (s == STATUS_OK && refused) // the same positions, the same traces: cannot happen
            s = error_set(err, STATUS_RANGE,
                          "trace parity refused other positions the second time");
    }
    for (int t = 0; qs && t < threads; t++)
        search_destroy(qs[t]);
    free(qs);
    if (s == STATUS_OK)
        *train_share = shares[0], *valid_share = shares[1];
    if (s == STATUS_OK && shares[0].npos + shares[1].npos == 0)
        s = error_set(err, STATUS_RANGE,
                      "no positions left after filtering (%zu read in %zu games; dropped: ply "
                      "%zu, score %zu, check %zu, capture %zu, per game %zu, parity %zu)",
                      stats->positions, stats->games, stats->cut_ply, stats->cut_score,
                      stats->cut_check, stats->cut_capture, stats->cut_per_game, stats->refused);
    dataset_free_files(p.files, p.nfiles);
    free(p.tstart), free(p.vstart), free(p.refused[0]), free(p.refused[1]);
    return s;
}
