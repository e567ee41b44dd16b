// SPDX-License-Identifier: MIT
// Tournaments (tournament.h): each pairing's match in a thread of its own, the game slots they
// share, the tally of all pairings, the stop of all on a signal or on one pairing's error, and
// the joined PGN at the end.
#define _GNU_SOURCE
#include "tournament.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "files.h"
#include "match_affinity.h"
#include "tournament_json.h"

enum { WARNINGS_KEPT = 32, WAIT_MS = 50 };

typedef struct Tournament Tournament;

// One pairing's match: its config (files named for the pairing) and its end.
typedef struct PairingRun {
    Tournament *t;
    int index;
    MatchConfig cfg;
    char pgn[1024], state[1040];
    pthread_t thread;
} PairingRun;

struct Tournament {
    const TournamentConfig *cfg;
    MatchSlots slots;
    atomic_bool stop; // every pairing's stop flag: a signal, or one pairing's error
    pthread_mutex_t lock;
    pthread_cond_t changed;
    TournamentTally tally;
    int running; // pairing threads still running
    Status status;
    ErrorInfo err;
    TournamentProgressFn progress;
    void *arg;
    char *warned[WARNINGS_KEPT]; // warnings passed on: each pairing probes its engines again
    int nwarned;
};

static Status check_config(const TournamentConfig *c, ErrorInfo *err) {
    if (c->nengines < 2 || c->nengines > TOURNAMENT_MAX_ENGINES)
        return error_set(err, STATUS_RANGE, "tournament: %d engines, need 2..%d", c->nengines,
                         TOURNAMENT_MAX_ENGINES);
    if (c->kind == TOURNAMENT_GAUNTLET && (c->seeds < 1 || c->seeds >= c->nengines))
        return error_set(err, STATUS_RANGE, "--seeds %d: need 1..%d for %d engines", c->seeds,
                         c->nengines - 1, c->nengines);
    if (c->base.concurrency < 1 || c->base.concurrency > 64)
        return error_set(err, STATUS_RANGE, "concurrency %d: must be 1..64", c->base.concurrency);
    if (c->base.resume && !c->pgn_path)
        return error_set(err, STATUS_SYNTAX,
                         "tournament: --resume needs --pgn (each pairing's "
                         "state lies beside its PGN)");
    // Each pairing's PGN and state go beside --pgn's target (a link's), never beside a device.
    char side[FILES_PATH_MAX];
    ErrorInfo e;
    if (c->pgn_path && files_output_side(c->pgn_path, "-1-2.pgn", side, &e) != STATUS_OK)
        return error_set(err, STATUS_IO, "--pgn %s (a tournament writes each pairing's PGN)",
                         e.msg);
    if (c->anchor >= c->nengines)
        return error_set(err, STATUS_RANGE, "tournament: anchor %d out of range", c->anchor);
    for (int i = 0; i < c->nengines; i++)
        for (int j = i + 1; j < c->nengines; j++)
            if (!strcmp(c->engine[i].name, c->engine[j].name))
                return error_set(err, STATUS_SYNTAX, "tournament: two engines named \"%s\"",
                                 c->engine[i].name);
    return STATUS_OK;
}

// Passes a warning on once: every pairing starts its engines to read their options.
static void on_warning(const char *msg, void *arg) {
    Tournament *t = arg;
    pthread_mutex_lock(&t->lock);
    bool seen = false;
    for (int i = 0; i < t->nwarned && !seen; i++)
        seen = !strcmp(t->warned[i], msg);
    if (!seen && t->nwarned < WARNINGS_KEPT)
        t->warned[t->nwarned++] = strdup(msg);
    pthread_mutex_unlock(&t->lock);
    if (!seen && t->cfg->base.warn)
        t->cfg->base.warn(msg, t->cfg->base.warn_arg);
}

// Records the first fatal error, named for its pairing, and stops every pairing. Under t->lock.
static void fail(Tournament *t, const PairingRun *r, Status st, const ErrorInfo *err) {
    if (t->status == STATUS_OK) {
        t->status = st;
        error_set(&t->err, st, "%s vs %s: %s", r->cfg.engine[0].name, r->cfg.engine[1].name,
                  err->msg);
    }
    atomic_store(&t->stop, true);
}

static void count_pairs(TournamentTally *t) {
    t->pairs_done = 0;
    for (int p = 0; p < t->npairings; p++)
        t->pairs_done += t->pairing[p].tally.pairs_done;
}

// A pairing finished a pair (under its match's lock; the tournament's lock is taken inside it,
// never the other way round).
static void on_pair(const MatchTally *mt, const MatchConfig *mc, void *arg) {
    (void)mc;
    PairingRun *r = arg;
    Tournament *t = r->t;
    pthread_mutex_lock(&t->lock);
    t->tally.pairing[r->index].tally = *mt;
    count_pairs(&t->tally);
    ErrorInfo err;
    Status st = STATUS_OK;
    if (t->cfg->json_path)
        st = tournament_json_write(t->cfg->json_path, t->cfg, &t->tally, &err);
    if (st != STATUS_OK)
        fail(t, r, st, &err);
    else if (t->progress)
        t->progress(&t->tally, t->cfg, r->index, t->arg);
    pthread_mutex_unlock(&t->lock);
}

static void *pairing_main(void *arg) {
    PairingRun *r = arg;
    Tournament *t = r->t;
    MatchTally mt;
    ErrorInfo err;
    Status st = match_run(&r->cfg, &mt, on_pair, r, &err);
    pthread_mutex_lock(&t->lock);
    if (st == STATUS_OK)
        t->tally.pairing[r->index].tally = mt; // with its restarts, known only at the end
    else
        fail(t, r, st, &err);
    t->running--;
    pthread_cond_broadcast(&t->changed);
    pthread_mutex_unlock(&t->lock);
    return NULL;
}

// True when path names a file with something in it: a pairing that began before the kill.
static bool has_content(const char *path) {
    struct stat sb;
    return stat(path, &sb) == 0 && sb.st_size > 0;
}

// Pairing p's match: the shared settings, its two engines, its files and its share of workers.
static Status setup_run(Tournament *t, PairingRun *r, int p, ErrorInfo *err) {
    const TournamentConfig *c = t->cfg;
    const Pairing *pg = &t->tally.pairing[p];
    int npairings = t->tally.npairings;
    *r = (PairingRun){.t = t, .index = p, .cfg = c->base};
    MatchConfig *m = &r->cfg;
    m->engine[0] = c->engine[pg->a];
    m->engine[1] = c->engine[pg->b];
    m->limits[0] = c->limits[pg->a];
    m->limits[1] = c->limits[pg->b];
    // Enough workers for the pairings to fill the slots between them, no more: each holds two
    // engines running.
    int workers = (c->base.concurrency + npairings - 1) / npairings;
    m->concurrency = workers < c->base.games / 2 ? workers : c->base.games / 2;
    m->slots = &t->slots;
    m->progress_resumed = true;
    m->affinity_threads = match_affinity_threads(c->engine, c->nengines); // one layout of cores
    m->stop = &t->stop;
    m->warn = on_warning;
    m->warn_arg = t;
    m->json_path = NULL;
    m->sprt_enabled = false;
    m->pgn_path = m->state_path = NULL;
    char target[FILES_PATH_MAX];
    bool in_place;
    if (c->pgn_path && files_output_target(c->pgn_path, target, &in_place, err) != STATUS_OK)
        return STATUS_IO;
    if (c->pgn_path) {
        if (!tournament_pairing_pgn(target, pg, r->pgn, sizeof r->pgn))
            return error_set(err, STATUS_RANGE, "--pgn %s: too long a path", c->pgn_path);
        snprintf(r->state, sizeof r->state, "%s.state", r->pgn);
        m->pgn_path = r->pgn;
        m->state_path = r->state;
        m->resume = c->base.resume && has_content(r->state); // none yet: it starts afresh
    }
    return STATUS_OK;
}

// Waits for the pairings, passing a stop from outside on to them.
static void wait_pairings(Tournament *t) {
    atomic_bool *outside = t->cfg->base.stop;
    pthread_mutex_lock(&t->lock);
    while (t->running > 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += WAIT_MS * 1000000L;
        ts.tv_sec += ts.tv_nsec / 1000000000L;
        ts.tv_nsec %= 1000000000L;
        pthread_cond_timedwait(&t->changed, &t->lock, &ts);
        if (outside && atomic_load(outside))
            atomic_store(&t->stop, true);
    }
    pthread_mutex_unlock(&t->lock);
}

// The joined PGN: every pairing's games, pairing after pairing.
static Status join_pgn(const TournamentConfig *c, const PairingRun *runs, int n, ErrorInfo *err) {
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (!out)
        return error_set(err, STATUS_NOMEM, "tournament: out of memory");
    Status st = STATUS_OK;
    for (int p = 0; p < n && st == STATUS_OK; p++) {
        FILE *in = fopen(runs[p].pgn, "r");
        if (!in && errno == ENOENT)
            continue; // a pairing that never began
        if (!in) {
            st = error_set(err, STATUS_IO, "%s: %s", runs[p].pgn, strerror(errno));
            break;
        }
        char chunk[65536];
        for (size_t got; (got = fread(chunk, 1, sizeof chunk, in)) > 0;)
            fwrite(chunk, 1, got, out);
        if (ferror(in))
            st = error_set(err, STATUS_IO, "%s: read error", runs[p].pgn);
        fclose(in);
    }
    if (fclose(out) != 0 && st == STATUS_OK)
        st = error_set(err, STATUS_NOMEM, "tournament: out of memory");
    if (st == STATUS_OK)
        st = cli_write_atomic(c->pgn_path, buf, len, err);
    free(buf);
    return st;
}

Status tournament_run(const TournamentConfig *c, TournamentTally *out,
                      TournamentProgressFn progress, void *arg, ErrorInfo *err) {
    *out = (TournamentTally){0};
    Status st = check_config(c, err);
    if (st != STATUS_OK)
        return st;
    int max = c->nengines * (c->nengines - 1) / 2;
    Tournament t = {.cfg = c, .progress = progress, .arg = arg};
    PairingRun *runs = calloc((size_t)max, sizeof *runs);
    t.tally.pairing = calloc((size_t)max, sizeof *t.tally.pairing);
    if (!runs || !t.tally.pairing) {
        free(runs);
        free(t.tally.pairing);
        return error_set(err, STATUS_NOMEM, "tournament: out of memory");
    }
    t.tally.npairings = tournament_pairings(c, t.tally.pairing, max);
    t.tally.pairs_total = t.tally.npairings * (c->base.games / 2);
    for (int p = 0; p < t.tally.npairings; p++)
        t.tally.pairing[p].tally.pairs_total = c->base.games / 2;
    match_slots_init(&t.slots, c->base.concurrency);
    pthread_mutex_init(&t.lock, NULL);
    pthread_cond_init(&t.changed, NULL);
    for (int p = 0; p < t.tally.npairings && st == STATUS_OK; p++)
        st = setup_run(&t, &runs[p], p, err);
    int started = 0;
    for (; st == STATUS_OK && started < t.tally.npairings; started++) {
        pthread_mutex_lock(&t.lock);
        t.running++;
        pthread_mutex_unlock(&t.lock);
        if (pthread_create(&runs[started].thread, NULL, pairing_main, &runs[started]) != 0) {
            st = error_set(err, STATUS_NOMEM, "tournament: no thread for pairing %d", started + 1);
            pthread_mutex_lock(&t.lock);
            t.running--;
            pthread_mutex_unlock(&t.lock);
            atomic_store(&t.stop, true);
            break;
        }
    }
    wait_pairings(&t);
    for (int p = 0; p < started; p++)
        pthread_join(runs[p].thread, NULL);
    if (st == STATUS_OK && (st = t.status) != STATUS_OK)
        *err = t.err;
    count_pairs(&t.tally);
    t.tally.interrupted = t.tally.pairs_done < t.tally.pairs_total;
    if (st == STATUS_OK && c->json_path)
        st = tournament_json_write(c->json_path, c, &t.tally, err);
    if (st == STATUS_OK && c->pgn_path)
        st = join_pgn(c, runs, t.tally.npairings, err);
    *out = t.tally;
    for (int i = 0; i < t.nwarned; i++)
        free(t.warned[i]);
    match_slots_destroy(&t.slots);
    pthread_mutex_destroy(&t.lock);
    pthread_cond_destroy(&t.changed);
    free(runs);
    return st;
}
