// SPDX-License-Identifier: MIT
// The match scheduler: workers playing game pairs (each with its two engines) and the match's
// run from setup to summary. Its room (match_internal.h): match_setup.c (engines, lock),
// match_book.c (a finished pair booked), match_stop.c (stop flags, errors), match_cluster.c; the
// rooms below it: openings, tally, output files (match_openings.h, match_tally.h, match_state.h).
#define _GNU_SOURCE
#include "match.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "board.h"
#include "engine.h"
#include "match_affinity.h"
#include "match_game.h"
#include "match_internal.h"
#include "match_json.h"
#include "match_state.h"
#include "rules.h"
#include "timeman.h"
#include "variant.h"

// Per-worker state: its two engines (indexed by engine, not side) and the abort flag games see.
typedef struct Worker {
    Match *m;
    UciChild *engine[2];
    long restarts[2];
    pthread_t thread;
    Board board;         // the referee's position
    GameOutcome game[2]; // the two games of the current pair
    int slot;            // its game's slot: the worker's number, or a tournament's slot
} Worker;

// (Re)starts engine i of a worker. False (and the match failed) when it will not start.
static bool restart(Worker *w, int i, bool count) {
    ErrorInfo err;
    child_stop(w->engine[i]);
    w->engine[i] = NULL;
    Status st = child_start(&w->engine[i], &w->m->engine[i], w->m->cfg->start_timeout, &err);
    if (st != STATUS_OK) {
        match_fail(w->m, st, &err);
        return false;
    }
    w->restarts[i] += count;
    return true;
}

// Plays game i of a pair (engine i is Cho). False when the match must stop.
static bool play_one(Worker *w, const char *fen, int i, GameOutcome *o, GameRecord *g) {
    const MatchConfig *c = w->m->cfg;
    // `ucinewgame` then `isready`, so no clock runs while an engine clears its tables. An
    // engine that cannot even get ready is restarted (the game has not begun: no result).
    for (int e = 0; e < 2; e++)
        if (!(child_send(w->engine[e], "ucinewgame") &&
              child_sync(w->engine[e], timeman_now_ms() + c->start_timeout)) &&
            !restart(w, e, 1))
            return false;
    if (w->m->pin_cores > 0) // the slot's own cores, for both engines (one thinks at a time)
        for (int e = 0; e < 2; e++)
            match_affinity_pin(child_pid(w->engine[e]), w->m->cpus + w->slot * w->m->pin_cores,
                               w->m->pin_cores);
    GameSetup s = {
        .variant = w->m->variant, .fen = fen, .margin = c->margin, .watchdog = c->watchdog};
    s.stop[0] = c->stop;
    s.stop[1] = &w->m->abort;
    s.adjudicate = match_adjudicates(c) ? &c->adjudicate : NULL;
    for (int side = 0; side < SIDE_NB; side++) {
        int e = side == CHO ? i : 1 - i;
        s.engine[side] = w->engine[e];
        s.limits[side] = &c->limits[e];
        s.ponder[side] = c->engine[e].ponder;
    }
    match_play_game(&s, &w->board, o);
    // A game cut short by a stop request is no result, whatever the engines did meanwhile.
    if (o->aborted || (c->stop && atomic_load(c->stop)) || atomic_load(&w->m->abort))
        return false;
    for (int side = 0; side < SIDE_NB; side++)
        if (o->faulty[side] && !restart(w, side == CHO ? i : 1 - i, 1))
            return false;
    *g = (GameRecord){.winner = o->draw            ? GAME_DRAWN
                                : o->winner == CHO ? i
                                                   : 1 - i,
                      .reason = o->reason,
                      .plies = o->nmoves};
    return true;
}

// Hands out the next unfinished pair, or -1.
static int take_pair(Match *m) {
    int k = -1;
    pthread_mutex_lock(&m->lock);
    while (!match_should_stop(m) && m->next_pair < m->tally.pairs_total && k < 0) {
        if (!m->done[m->next_pair])
            k = m->next_pair;
        m->next_pair += m->ranks; // rank r of R plays the pairs r, r + R, ...
    }
    pthread_mutex_unlock(&m->lock);
    return k;
}

// Books a finished pair: PGN, state, tally, progress, and the stop rules (SPRT, test hook);
// on a rank other than 0 it goes to rank 0, which books it.
static void finish_pair(Match *m, int k, const char *fen, const GameOutcome o[2],
                        const GameRecord g[2]) {
    if (m->rank > 0) {
        match_cluster_ship(m, k, fen, o, g);
        return;
    }
    ErrorInfo err;
    char *text;
    size_t len;
    Status st = match_output_pair_text(&m->files, k, fen, o, &text, &len, &err);
    pthread_mutex_lock(&m->lock);
    if (st == STATUS_OK)
        st = match_output_append(&m->files, text, len, &err);
    match_book_pair(m, k, g, st, &err);
    free(text);
}

// A worker of a match alone keeps its engines from its first pair to its last. In a tournament
// (slots) a worker holds its engines only while it holds a slot: the engines running are then
// those of the games at once, however many pairings wait their turn.
static void *worker_main(void *arg) {
    Worker *w = arg;
    Match *m = w->m;
    GameOutcome *o = w->game;
    MatchSlots *slots = m->cfg->slots;
    if (!slots && (!restart(w, 0, 0) || !restart(w, 1, 0)))
        goto cleanup;
    for (int k;;) {
        if (slots && !match_slots_take(slots, m->cfg->stop, &w->slot))
            break;
        if ((k = take_pair(m)) < 0) {
            if (slots)
                match_slots_give(slots, w->slot);
            break;
        }
        char fen[FEN_BUFFER];
        GameRecord g[2];
        match_openings_pair_fen(&m->openings, k, &w->board, fen);
        bool played = (!slots || (restart(w, 0, 0) && restart(w, 1, 0))) &&
                      play_one(w, fen, 0, &o[0], &g[0]) && play_one(w, fen, 1, &o[1], &g[1]);
        if (played)
            finish_pair(m, k, fen, o, g);
        if (slots) {
            child_stop(w->engine[0]);
            child_stop(w->engine[1]);
            w->engine[0] = w->engine[1] = NULL;
            match_slots_give(slots, w->slot);
        }
        if (!played)
            break;
    }
cleanup:
    child_stop(w->engine[0]);
    child_stop(w->engine[1]);
    pthread_mutex_lock(&m->lock);
    m->running--;
    pthread_mutex_unlock(&m->lock);
    return NULL;
}

// The cores each game slot is pinned to (--affinity, where the machine has enough), and the
// warning when the games at once want more cores than there are.
static void setup_cores(Match *m) {
    const MatchConfig *c = m->cfg;
    int at_once = c->slots ? c->slots->count : c->concurrency;
    int threads =
        c->affinity_threads > 0 ? c->affinity_threads : match_affinity_threads(c->engine, 2);
    m->ncpus = match_affinity_cpus(m->cpus, MATCH_CPUS_MAX);
    char msg[256];
    if (match_affinity_overbooked(at_once, threads, m->ncpus, msg, sizeof msg) && c->warn &&
        m->rank == 0)
        c->warn(msg, c->warn_arg);
    if (c->affinity && at_once * threads <= m->ncpus)
        m->pin_cores = threads;
}

// Everything before the first game, each step checked before the next: the config's variant
// options, the writer lock (taken before either file is read or written), the openings, the
// output files (writable; new, or the state and PGN of this match on --resume), each engine
// started once to read its options, then the files opened. Under MPI only rank 0 touches the
// files; every rank reads its openings and its engines.
static Status prepare(Match *m, RunLock **lock, ErrorInfo *err) {
    const MatchConfig *c = m->cfg;
    bool files = m->rank == 0;
    Status st = match_setup_variant_options(m, err);
    if (st == STATUS_OK && files)
        st = match_setup_lock(c, lock, err);
    OpeningsPlan plan = match_config_openings(c);
    if (st == STATUS_OK)
        st = match_openings_load(&m->openings, &plan, err);
    if (st == STATUS_OK && files)
        st = match_output_check(c, err);
    if (st == STATUS_OK && files && !c->resume)
        st = match_state_check_fresh(c, err);
    if (st == STATUS_OK && files && c->resume &&
        (st = match_state_load(&m->files, &m->tally, m->done, err)) == STATUS_OK)
        st = match_state_check_pgn(&m->files, err);
    // In a tournament the probes take a game slot too: no more engines start at once than play.
    int slot = -1;
    if (st == STATUS_OK && c->slots && !match_slots_take(c->slots, c->stop, &slot))
        slot = -1; // stopping: the probes still run, their engines are stopped at once
    for (int i = 0; i < 2 && st == STATUS_OK; i++)
        st = match_setup_probe_engine(m, i, err);
    if (slot >= 0)
        match_slots_give(c->slots, slot);
    if (st == STATUS_OK && files)
        st = match_state_open(&m->files, err);
    if (st == STATUS_OK && m->tally.sprt_result != SPRT_CONTINUE)
        m->stopping = true; // the resumed match had already been decided
    return st;
}

Status match_run(const MatchConfig *c, MatchTally *tally, MatchProgressFn progress, void *arg,
                 ErrorInfo *err) {
    Match *m = calloc(1, sizeof *m);
    Worker *w = NULL;
    RunLock *lock = NULL;
    Status st = match_config_check(c, err);
    if (!m || st != STATUS_OK)
        goto cleanup;
    engine_init(); // the rules core's tables, if the caller has not built them yet
    m->cfg = c;
    m->variant = variant_or_default(c->variant);
    m->progress = progress;
    m->progress_arg = arg;
    pthread_mutex_init(&m->lock, NULL);
    m->tally.pairs_total = c->games / 2;
    match_cluster_init(m);
    m->next_pair = m->rank;
    m->files = (MatchFiles){.cfg = c, .variant = m->variant, .openings = &m->openings};
    time_t now = time(NULL);
    struct tm tm;
    strftime(m->files.date, sizeof m->files.date, "%Y.%m.%d", gmtime_r(&now, &tm));
    sha256_init(&m->files.pgn_hash); // the PGN's digest so far: a resume's state file tells it
    match_output_digest(&m->files);
    m->done = calloc((size_t)m->tally.pairs_total, sizeof *m->done);
    w = calloc((size_t)c->concurrency, sizeof *w);
    if (!m->done || !w) {
        st = error_set(err, STATUS_NOMEM, "match: out of memory");
        goto cleanup;
    }
    setup_cores(m);
    st = prepare(m, &lock, err);
    if ((st = match_cluster_agree(m, st, err)) != STATUS_OK)
        goto cleanup;
    if (c->progress_resumed && progress && m->tally.pairs_resumed > 0)
        progress(&m->tally, c, arg); // a tournament's totals count the pairs read back at once
    int started = 0;
    for (; started < c->concurrency; started++) {
        w[started].m = m;
        w[started].slot = started;
        pthread_mutex_lock(&m->lock);
        m->running++;
        pthread_mutex_unlock(&m->lock);
        if (pthread_create(&w[started].thread, NULL, worker_main, &w[started]) != 0) {
            pthread_mutex_lock(&m->lock);
            m->running--;
            pthread_mutex_unlock(&m->lock);
            break;
        }
    }
    bool told = match_cluster_coordinate(m);
    for (int i = 0; i < started; i++) {
        pthread_join(w[i].thread, NULL);
        m->tally.restarts[0] += w[i].restarts[0];
        m->tally.restarts[1] += w[i].restarts[1];
    }
    if (started == 0 && m->status == STATUS_OK)
        m->status = error_set(&m->err, STATUS_NOMEM, "match: no worker thread could start");
    match_cluster_end(m, told);
    if ((st = m->status) != STATUS_OK)
        *err = m->err;
    m->tally.interrupted =
        m->tally.pairs_done < m->tally.pairs_total && m->tally.sprt_result == SPRT_CONTINUE;
    *tally = m->tally;
    // The last word: the restarts are known, and a resumed match already decided is written too.
    if (st == STATUS_OK && c->json_path && m->rank == 0)
        st = match_json_write(c->json_path, c, &m->tally, err);
cleanup:
    if (!m && st == STATUS_OK)
        st = error_set(err, STATUS_NOMEM, "match: out of memory");
    if (m) {
        match_output_close(&m->files);
        match_openings_free(&m->openings);
        free(m->done);
        for (int i = 0; i < m->noutbox; i++)
            free(m->outbox[i]);
        free(m->outbox);
        free(m->outbox_len);
        if (m->cfg)
            pthread_mutex_destroy(&m->lock);
        free(m);
    }
    free(w);
    run_lock_release(lock); // after the files are closed
    return st;
}
