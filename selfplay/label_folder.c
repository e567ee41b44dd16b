// SPDX-License-Identifier: MIT
// The run folder of a labelling run: its lock, its resume scan and its shards (label_folder.h).
#include "label_folder.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "board.h"
#include "durable.h"
#include "files.h"
#include "h5store.h"
#include "label_pv.h"
#include "run_lock.h"
#include "timeman.h"
#include "verify.h"

static void utc_now(char *out, size_t len) {
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static size_t shard_count(const LabelRun *run) {
    return (run->in->count + run->set->shard_games - 1) / run->set->shard_games;
}

// The run's files: its shards, then with --pv-ends the PV-end file of each (number n + k).
static size_t file_count(const LabelRun *run) {
    return shard_count(run) * (run->set->pv_ends ? 2 : 1);
}

// The games of shard k: [*first, *end) of the inputs.
static void shard_games(const LabelRun *run, size_t k, size_t *first, size_t *end) {
    *first = k * run->set->shard_games;
    *end = *first + run->set->shard_games < run->in->count ? *first + run->set->shard_games
                                                           : run->in->count;
}

// What the games of a shard are labelled into, one of each a game of the shard.
typedef struct LabelParts {
    ShardData *parts, *pv_parts; // its line, its PV ends
    LabelCounts *counts;
} LabelParts;

// The folder made ready and locked (*lock; NULL on error), its stale .tmp files removed.
static Status prepare(const LabelRun *run, size_t nfiles, RunLock **lock, ErrorInfo *err) {
    const char *dir = run->dir;
    *lock = NULL;
    Status st = durable_folder_ready(dir, run->resume, err);
    if (st == STATUS_OK)
        st = run_lock_take_dir(dir, lock, err);
    for (size_t k = 0; st == STATUS_OK && k < nfiles; k++) {
        char path[FILES_PATH_MAX + 32];
        h5store_shard_path(dir, (int64_t)k, path, sizeof path - 4);
        strcat(path, ".tmp");
        unlink(path); // a write cut by a kill: its shard is labelled again
    }
    return st;
}

// Whether the words of s have one named key[0, n) (as "key=...").
static bool has_key(const char *s, const char *key, size_t n) {
    for (; *s; s += strcspn(s, " "), s += *s == ' ')
        if (strncmp(s, key, n) == 0 && s[n] == '=')
            return true;
    return false;
}

// The first word in which two run_config texts differ, into a and b (for the message). The bench
// follows from the evaluation's settings (a blend, a net), so a differing bench is named only
// when no other word differs: "blend=50" says more than the bench it makes.
static void first_difference(const char *x, const char *y, char *a, char *b, size_t len) {
    const char *x0 = x, *y0 = y;
    bool bench = false;
    for (;;) {
        size_t lx = strcspn(x, " "), ly = strcspn(y, " ");
        bool differ = lx != ly || memcmp(x, y, lx) != 0;
        if (differ && !bench && strncmp(x, "bench=", 6) == 0 && strncmp(y, "bench=", 6) == 0) {
            snprintf(a, len, "%.*s", (int)lx, x);
            snprintf(b, len, "%.*s", (int)ly, y);
            bench = true;
            differ = false;
        }
        if (differ || !x[lx] || !y[ly]) {
            if (!differ && bench && !x[lx] && !y[ly])
                return; // only the bench differs: a and b hold it
            snprintf(a, len, "%.*s", (int)lx, x);
            snprintf(b, len, "%.*s", (int)ly, y);
            // A setting one side has and the other has not at all (pv_ends): "no <name>".
            size_t kx = strcspn(x, "= "), ky = strcspn(y, "= ");
            if (kx != ky || memcmp(x, y, kx) != 0) {
                if (!has_key(y0, x, kx))
                    snprintf(b, len, "no %.*s", (int)kx, x);
                else if (!has_key(x0, y, ky))
                    snprintf(a, len, "no %.*s", (int)ky, y);
            }
            return;
        }
        x += lx + 1, y += ly + 1;
    }
}

// Whether this run searches the position after `played` plies of game g (label_selected's walk).
static bool searched_at(const LabelRun *run, const LabelGame *g, int played, Board *b) {
    label_game_start(run->in, g, b);
    int eligible = 0;
    bool search = false;
    for (int k = 0; k <= played && k < g->nmoves; k++)
        search = label_selected(run->set, g, k, (Side)(b->side ^ (k & 1)), &eligible);
    return played < g->nmoves && search;
}

// PV end g of d (a file of shard [first, end)) as this run would write it, as far as can be told
// without searching: its id names a searched position of one of the shard's games, in order
// after id prev, and it carries that game's id, result and formations; its ply lies past it.
static bool pv_end_ours(const LabelRun *run, const ShardData *d, size_t g, size_t first, size_t end,
                        uint32_t prev, Board *b) {
    const GameColumns *gc = &d->games;
    uint32_t id = gc->game_id[g];
    if (id < H5STORE_PV_ID_BASE || (g > 0 && id <= prev))
        return false;
    size_t src = (id - H5STORE_PV_ID_BASE) / STORE_PLY_MAX;
    int played = (int)((id - H5STORE_PV_ID_BASE) % STORE_PLY_MAX);
    if (src < first || src >= end)
        return false;
    const LabelGame *s = &run->in->games[src];
    if (gc->seed[g] != s->id || gc->winner[g] != s->winner || gc->reason[g] != s->reason ||
        gc->cho_formation[g] != s->cho || gc->han_formation[g] != s->han ||
        !searched_at(run, s, played, b))
        return false;
    return d->positions.ply[gc->pos_start[g]] > board_game_ply(b) + played;
}

// A PV-end file found for shard k: standalone positions, each a PV end of a searched position of
// a game of the shard (pv_end_ours), and each a position verify passes (verify_games).
static Status check_pv_file(const LabelRun *run, const char *path, size_t k, const ShardData *d,
                            ErrorInfo *err) {
    size_t first, end;
    shard_games(run, k, &first, &end);
    Board *b = malloc(sizeof *b);
    if (!b)
        return error_set(err, STATUS_NOMEM, "out of memory");
    bool same = d->standalone;
    for (size_t g = 0; same && g < d->games.count; g++)
        same = pv_end_ours(run, d, g, first, end, g ? d->games.game_id[g - 1] : 0, b);
    free(b);
    if (!same)
        return error_set(err, STATUS_FORMAT, "%s: does not hold the PV ends of shard %zu", path, k);
    ErrorInfo why;
    if (verify_games(d, &why) != STATUS_OK)
        return error_set(err, STATUS_FORMAT, "%s: not a PV-end file this run wrote: %s", path,
                         why.msg);
    return STATUS_OK;
}

// One shard found in the folder: this run's (settings, games), so kept.
static Status check_shard(const LabelRun *run, const char *path, int64_t k, const StoreMeta *ours,
                          StoreMeta *theirs, ShardData *d, ErrorInfo *err) {
    if (k < 0 || (size_t)k >= file_count(run))
        return error_set(err, STATUS_FORMAT, "%s: not a shard of this run (it has %zu files)", path,
                         file_count(run));
    Status st = h5store_read(path, theirs, d, err);
    if (st != STATUS_OK)
        return st;
    if (strcmp(theirs->run_config, ours->run_config) != 0) {
        char a[160], b[160];
        first_difference(theirs->run_config, ours->run_config, a, b, sizeof a);
        return error_set(err, STATUS_FORMAT,
                         "%s: made with other inputs or settings (%s, this run %s); give the same "
                         "ones, or another --out",
                         path, a, b);
    }
    if ((size_t)k >= shard_count(run))
        return check_pv_file(run, path, (size_t)k - shard_count(run), d, err);
    size_t first = (size_t)k * run->set->shard_games;
    size_t end = first + d->games.count;
    bool same = end <= run->in->count && end == (first + run->set->shard_games < run->in->count
                                                     ? first + run->set->shard_games
                                                     : run->in->count);
    for (size_t g = 0; same && g < d->games.count; g++)
        same = !d->standalone && d->games.game_id[g] == run->in->games[first + g].id;
    if (!same)
        return error_set(err, STATUS_FORMAT, "%s: does not hold the games of shard %lld", path,
                         (long long)k);
    return STATUS_OK;
}

// The shards already in the folder: none for a new run; for --resume, each checked and marked
// done.
static Status scan(const LabelRun *run, bool *done, const StoreMeta *ours, ErrorInfo *err) {
    char **paths = NULL;
    size_t n = 0;
    Status st = h5store_list_files(run->dir, &paths, &n, err);
    if (st == STATUS_OK && n > 0 && !run->resume)
        st = error_set(err, STATUS_FORMAT,
                       "%s already holds a run (%zu shards): give --resume to continue it, or "
                       "another --out",
                       run->dir, n);
    if (st == STATUS_OK && n == 0 && run->resume)
        st = error_set(err, STATUS_IO, "nothing to resume in %s (no shard files)", run->dir);
    StoreMeta *theirs = malloc(sizeof *theirs);
    ShardData d;
    shard_data_init(&d);
    if (st == STATUS_OK && !theirs)
        st = error_set(err, STATUS_NOMEM, "out of memory");
    for (size_t i = 0; st == STATUS_OK && i < n; i++) {
        int64_t k = h5store_shard_number(paths[i]);
        st = check_shard(run, paths[i], k, ours, theirs, &d, err);
        if (st == STATUS_OK)
            done[k] = true;
    }
    shard_data_free(&d);
    free(theirs);
    h5store_free_list(paths, n);
    return st;
}

// The searchers, one a thread (two with --pv-ends: [threads + i] searches thread i's PV ends),
// each with the run's evaluation (its net, and its blend where given).
static Status make_searchers(const LabelRun *run, Searcher **s, ErrorInfo *err) {
    for (int i = 0; i < run->threads * (run->set->pv_ends ? 2 : 1); i++) {
        s[i] = search_create(run->set->hash_mb);
        if (!s[i] || (run->set->net && !search_set_net(s[i], run->set->net)))
            return error_set(err, STATUS_NOMEM, "out of memory for a searcher (--hash %zu MB)",
                             run->set->hash_mb);
        SearchParams p = label_search_params(run->set);
        search_set_params(s[i], &p);
    }
    return STATUS_OK;
}

// Labels the games of shard k, in parallel, each into its own parts (pv_parts: its PV ends).
static Status label_games(const LabelRun *run, size_t k, Searcher **s, ShardData *parts,
                          ShardData *pv_parts, LabelCounts *counts, ErrorInfo *err) {
    size_t first = k * run->set->shard_games;
    size_t n = run->in->count - first < run->set->shard_games ? run->in->count - first
                                                              : run->set->shard_games;
    Status st = STATUS_OK;
#pragma omp parallel for schedule(dynamic, 1) num_threads(run->threads)
    for (size_t j = 0; j < n; j++) {
        ErrorInfo e;
        int me = omp_get_thread_num();
        bool pv = run->set->pv_ends;
        shard_data_clear(&parts[j]);
        shard_data_clear(&pv_parts[j]);
        pv_parts[j].standalone = true;
        Status gs = label_game(run->in, &run->in->games[first + j], run->set, s[me],
                               pv ? s[run->threads + me] : NULL, &parts[j],
                               pv ? &pv_parts[j] : NULL, &counts[j], run->stop, &e);
#pragma omp critical(label_error)
        if (gs != STATUS_OK && st == STATUS_OK) {
            st = gs;
            *err = e;
        }
    }
    return st;
}

// Parts [0, n) gathered in input order into all and written whole as file number `file` of the
// folder, with the attributes m (its shard number and times set here).
static Status write_parts(const LabelRun *run, const ShardData *parts, size_t n, int64_t file,
                          const char *start, StoreMeta *m, ShardData *all, ErrorInfo *err) {
    Status st = STATUS_OK;
    for (size_t j = 0; j < n && st == STATUS_OK; j++)
        st = shard_data_append(all, &parts[j], err);
    if (st == STATUS_OK)
        st = shard_data_set_openings(all, m->openings, err);
    char path[FILES_PATH_MAX + 32];
    h5store_shard_path(run->dir, file, path, sizeof path);
    m->shard = file;
    snprintf(m->start_time, sizeof m->start_time, "%s", start);
    utc_now(m->end_time, sizeof m->end_time);
    return st == STATUS_OK ? h5store_write(path, m, all, err) : st;
}

// Shard k: its games labelled, gathered in input order and written whole; with --pv-ends its
// PV-end file first (file nshards + k), so a shard found finished always has its PV ends.
static Status label_shard(const LabelRun *run, size_t k, Searcher **s, LabelParts *lp, StoreMeta *m,
                          LabelTotals *t, ErrorInfo *err) {
    char start[32];
    utc_now(start, sizeof start);
    Status st = label_games(run, k, s, lp->parts, lp->pv_parts, lp->counts, err);
    if (st != STATUS_OK || atomic_load(run->stop))
        return st;
    size_t first, end;
    shard_games(run, k, &first, &end);
    size_t n = end - first;
    ShardData all, pv;
    shard_data_init(&all);
    shard_data_init(&pv);
    pv.standalone = true;
    if (run->set->pv_ends) {
        StoreMeta *pvm = malloc(sizeof *pvm);
        st = pvm ? STATUS_OK : error_set(err, STATUS_NOMEM, "out of memory");
        if (st == STATUS_OK) {
            label_make_pv_meta(m, run->set, (int64_t)k, pvm);
            st = write_parts(run, lp->pv_parts, n, (int64_t)(shard_count(run) + k), start, pvm, &pv,
                             err);
        }
        free(pvm);
    }
    if (st == STATUS_OK)
        st = write_parts(run, lp->parts, n, (int64_t)k, start, m, &all, err);
    for (size_t p = 0; st == STATUS_OK && p < all.positions.count; p++)
        if (!(all.positions.flags[p] & POS_RANDOM))
            t->searched++, t->by_side[all.positions.stm[p]]++;
    // A game's random_plies are its plies before the first searched one, all when none is.
    for (size_t g = 0; st == STATUS_OK && g < all.games.count; g++)
        t->games_unsearched += all.games.random_plies[g] == all.games.plies[g];
    for (size_t j = 0; st == STATUS_OK && j < n; j++)
        t->pv_plies += lp->counts[j].pv_plies;
    if (st == STATUS_OK)
        t->games += all.games.count, t->positions += all.positions.count,
            t->pv_ends += pv.positions.count;
    shard_data_free(&all);
    shard_data_free(&pv);
    return st;
}

// The progress line after a shard: games, searches, rate and ETA.
static void progress(const LabelRun *run, size_t k, const LabelTotals *t, uint64_t games_left) {
    // Each PV end stored is one search more.
    double rate = t->elapsed_s > 0 ? (t->searched + t->pv_ends) / t->elapsed_s : 0;
    double eta = t->games ? t->elapsed_s / t->games * games_left : -1;
    char pv[48] = "";
    if (run->set->pv_ends)
        snprintf(pv, sizeof pv, " and %llu PV ends", (unsigned long long)t->pv_ends);
    fprintf(stderr,
            "hansu-selfplay label: shard %zu/%zu written: %llu games, %llu positions%s searched, "
            "%.1f searches/s, ETA %s%.0f s\n",
            k + 1, shard_count(run), (unsigned long long)t->games, (unsigned long long)t->searched,
            pv, rate, eta < 0 ? "? " : "", eta < 0 ? 0.0 : eta);
}

// Whether shard k is finished: its file found, and with --pv-ends its PV-end file too.
static bool shard_done(const LabelRun *run, const bool *done, size_t k) {
    return done[k] && (!run->set->pv_ends || done[shard_count(run) + k]);
}

// Every shard not done, in order; stopped between shards by *stop.
static Status label_all(const LabelRun *run, const bool *done, StoreMeta *m, LabelTotals *t,
                        ErrorInfo *err) {
    int nsearchers = run->threads * (run->set->pv_ends ? 2 : 1);
    size_t sg = run->set->shard_games;
    Searcher **s = calloc((size_t)nsearchers, sizeof *s);
    LabelParts lp = {.parts = calloc(sg, sizeof *lp.parts),
                     .pv_parts = calloc(sg, sizeof *lp.pv_parts),
                     .counts = calloc(sg, sizeof *lp.counts)};
    Status st = s && lp.parts && lp.pv_parts && lp.counts
                    ? make_searchers(run, s, err)
                    : error_set(err, STATUS_NOMEM, "out of memory");
    uint64_t left = 0;
    for (size_t k = 0; k < shard_count(run); k++) {
        size_t first, end;
        shard_games(run, k, &first, &end);
        left += shard_done(run, done, k) ? 0 : end - first;
    }
    double t0 = timeman_now_ms() / 1000.0;
    for (size_t k = 0; st == STATUS_OK && k < shard_count(run) && !t->interrupted; k++) {
        if (shard_done(run, done, k))
            continue;
        uint64_t before = t->games;
        st = label_shard(run, k, s, &lp, m, t, err);
        t->interrupted = atomic_load(run->stop);
        t->elapsed_s = timeman_now_ms() / 1000.0 - t0;
        left -= t->games - before;
        if (st == STATUS_OK && !t->interrupted)
            progress(run, k, t, left);
    }
    for (int i = 0; s && i < nsearchers; i++)
        search_destroy(s[i]);
    for (size_t j = 0; lp.parts && lp.pv_parts && j < sg; j++)
        shard_data_free(&lp.parts[j]), shard_data_free(&lp.pv_parts[j]);
    free(s);
    free(lp.parts);
    free(lp.pv_parts);
    free(lp.counts);
    return st;
}

Status label_folder_run(const LabelRun *run, LabelTotals *t, ErrorInfo *err) {
    size_t nshards = shard_count(run), nfiles = file_count(run);
    t->shards = nshards;
    RunLock *lock = NULL;
    StoreMeta *m = malloc(sizeof *m);
    bool *done = calloc(nfiles, sizeof *done);
    Status st = m && done ? STATUS_OK : error_set(err, STATUS_NOMEM, "out of memory");
    if (st == STATUS_OK && !label_make_meta(run->in, run->set, 0, m))
        st = error_set(err, STATUS_RANGE,
                       "%zu input files: their paths and digests, or the run's settings, take "
                       "more than a store file records (%d bytes of sources; label fewer files "
                       "at a time)",
                       run->in->npaths, H5STORE_SOURCES_MAX - 1);
    if (st == STATUS_OK && run->set->pv_ends)
        st = label_pv_check_inputs(run->in, err);
    if (st == STATUS_OK)
        st = prepare(run, nfiles, &lock, err);
    if (st == STATUS_OK)
        st = scan(run, done, m, err);
    for (size_t k = 0; st == STATUS_OK && k < nshards; k++)
        t->shards_resumed += shard_done(run, done, k);
    if (st == STATUS_OK)
        st = label_all(run, done, m, t, err);
    run_lock_release(lock);
    free(done);
    free(m);
    return st;
}
