// SPDX-License-Identifier: MIT
// A match over MPI ranks: rank r of R plays the pairs k % R == r and sends each to rank 0,
// which alone books them and writes the files (docs/cluster.md). The match's only calls into
// the cluster room (selfplay/cluster.c, where the MPI calls are).
#define _GNU_SOURCE
#include "match_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cluster.h"

// Messages between ranks. To rank 0, one tag, so they arrive in the order sent: a finished
// pair (PairMsg, then the PGN text of its two games) and, last, a rank's end (DoneMsg). From
// rank 0 to each other rank exactly one stop (one byte): when the match stops, or at its end.
enum { TAG_TO_ROOT = 1501, TAG_STOP = 1502, MSG_PAIR = 1, MSG_DONE = 2 };

typedef struct PairMsg {
    int32_t type, pair;
    int32_t winner[2], reason[2], plies[2];
} PairMsg;

typedef struct DoneMsg {
    int32_t type, status;
    int32_t interrupted; // the rank was stopped by its own signal
    long restarts[2];
    ErrorInfo err;
} DoneMsg;

void match_cluster_init(Match *m) {
    ClusterPart self = cluster_self();
    m->rank = (int)self.index - 1;
    m->ranks = (int)self.count;
}

static void nap_ms(long ms) {
    struct timespec ts = {.tv_sec = 0, .tv_nsec = ms * 1000000L};
    nanosleep(&ts, NULL);
}

// A rank other than 0: pair k's result and PGN text, queued for the main thread to send.
void match_cluster_ship(Match *m, int k, const char *fen, const GameOutcome o[2],
                        const GameRecord g[2]) {
    ErrorInfo err;
    char *text;
    size_t len;
    Status st = match_output_pair_text(&m->files, k, fen, o, &text, &len, &err);
    PairMsg h = {.type = MSG_PAIR, .pair = k};
    for (int i = 0; i < 2; i++)
        h.winner[i] = g[i].winner, h.reason[i] = (int32_t)g[i].reason, h.plies[i] = g[i].plies;
    char *msg = st == STATUS_OK ? malloc(sizeof h + len) : NULL;
    pthread_mutex_lock(&m->lock);
    if (msg && m->noutbox == m->outbox_cap) {
        int cap = m->outbox_cap ? 2 * m->outbox_cap : 16;
        char **b = realloc(m->outbox, sizeof *b * (size_t)cap);
        size_t *l = b ? realloc(m->outbox_len, sizeof *l * (size_t)cap) : NULL;
        m->outbox = b ? b : m->outbox;
        m->outbox_len = l ? l : m->outbox_len;
        m->outbox_cap = b && l ? cap : m->outbox_cap;
    }
    bool queued = msg && m->noutbox < m->outbox_cap;
    if (queued) {
        memcpy(msg, &h, sizeof h);
        memcpy(msg + sizeof h, text, len);
        m->outbox[m->noutbox] = msg;
        m->outbox_len[m->noutbox++] = sizeof h + len;
    }
    pthread_mutex_unlock(&m->lock);
    free(text);
    if (!queued) {
        free(msg);
        if (st == STATUS_OK)
            st = error_set(&err, STATUS_NOMEM, "match: out of memory");
        match_fail(m, st, &err);
    }
}

// Rank 0 books a pair another rank finished, as its own workers do; one that comes after the
// match began to stop is dropped, as the single process abandons the games still running then
// (a resume plays it again).
static void book_remote(Match *m, int source, const char *msg, size_t len) {
    PairMsg h;
    ErrorInfo err;
    memcpy(&h, msg, sizeof h);
    pthread_mutex_lock(&m->lock);
    if (match_should_stop(m)) {
        pthread_mutex_unlock(&m->lock);
        return;
    }
    GameRecord g[2];
    bool ok = h.pair >= 0 && h.pair < m->tally.pairs_total && !m->done[h.pair];
    for (int i = 0; i < 2; i++) {
        g[i] = (GameRecord){.winner = h.winner[i], .reason = h.reason[i], .plies = h.plies[i]};
        ok = ok && g[i].winner >= GAME_DRAWN && g[i].winner <= 1 && g[i].reason > 0 &&
             g[i].reason < REASON_NB;
    }
    Status st = ok ? STATUS_OK
                   : error_set(&err, STATUS_FORMAT, "match: rank %d sent a bad result for pair %d",
                               source, h.pair);
    if (st == STATUS_OK)
        st = match_output_append(&m->files, msg + sizeof h, len - sizeof h, &err);
    match_book_pair(m, h.pair, g, st, &err);
}

// Rank 0 takes another rank's end: its restarts, its error, or its own stop by a signal.
static void take_done(Match *m, int source, const char *msg) {
    DoneMsg d;
    memcpy(&d, msg, sizeof d);
    pthread_mutex_lock(&m->lock);
    m->tally.restarts[0] += d.restarts[0];
    m->tally.restarts[1] += d.restarts[1];
    pthread_mutex_unlock(&m->lock);
    if (d.status != STATUS_OK) {
        ErrorInfo err;
        error_set(&err, (Status)d.status, "rank %d: %s", source, d.err.msg);
        match_fail(m, (Status)d.status, &err);
    } else if (d.interrupted) {
        match_stop_here(m);
    }
}

// Rank 0's main thread while its workers play: it books the other ranks' pairs, and once the
// match stops (SPRT, test hook, signal, error) tells every rank; it returns when its workers
// are done and every rank has ended, all of them told.
static void coordinate_root(Match *m) {
    bool *told = calloc((size_t)m->ranks, sizeof *told);
    int ended = 0;
    for (bool open = true; open;) {
        int source;
        size_t len;
        while (cluster_poll(TAG_TO_ROOT, &source, &len)) {
            char *msg = malloc(len);
            int32_t type = 0;
            if (msg && len >= sizeof(PairMsg))
                cluster_recv(source, TAG_TO_ROOT, msg, len);
            if (msg && len >= sizeof(PairMsg))
                memcpy(&type, msg, sizeof type);
            if (type == MSG_PAIR)
                book_remote(m, source, msg, len);
            else if (type == MSG_DONE && len == sizeof(DoneMsg))
                take_done(m, source, msg), ended++;
            free(msg);
            if (type != MSG_PAIR && !(type == MSG_DONE && len == sizeof(DoneMsg))) {
                ErrorInfo err;
                error_set(&err, STATUS_NOMEM, "match: message of rank %d lost", source);
                match_fail(m, STATUS_NOMEM, &err);
                open = false; // the ranks are told below; the lost message ends the match
                break;
            }
        }
        pthread_mutex_lock(&m->lock);
        bool stop = match_should_stop(m);
        pthread_mutex_unlock(&m->lock);
        for (int r = 1; stop && told && r < m->ranks; r++)
            if (!told[r])
                cluster_send(r, TAG_STOP, "s", 1), told[r] = true;
        if (ended == m->ranks - 1 && match_workers_running(m) == 0)
            open = false;
        else if (open)
            nap_ms(2);
    }
    for (int r = 1; r < m->ranks; r++)
        if (!told || !told[r])
            cluster_send(r, TAG_STOP, "e", 1);
    free(told);
}

// Sends what the workers queued for rank 0.
static void flush_outbox(Match *m) {
    pthread_mutex_lock(&m->lock);
    char **box = m->outbox;
    size_t *len = m->outbox_len;
    int n = m->noutbox;
    m->outbox = NULL, m->outbox_len = NULL, m->noutbox = m->outbox_cap = 0;
    pthread_mutex_unlock(&m->lock);
    for (int i = 0; i < n; i++) {
        cluster_send(0, TAG_TO_ROOT, box[i], len[i]);
        free(box[i]);
    }
    free(box);
    free(len);
}

// Another rank's main thread while its workers play: their pairs go to rank 0, and rank 0's
// stop stops them (games in progress abandoned). True when that stop came.
static bool coordinate_rank(Match *m) {
    bool told = false;
    for (;;) {
        flush_outbox(m);
        int source;
        size_t len;
        if (!told && cluster_poll(TAG_STOP, &source, &len)) {
            char b[8];
            cluster_recv(source, TAG_STOP, b, len < sizeof b ? len : sizeof b);
            told = true;
            match_stop_here(m);
        }
        if (match_workers_running(m) == 0)
            break;
        nap_ms(2);
    }
    flush_outbox(m);
    return told;
}

// Another rank's end, after its workers are joined: its DoneMsg to rank 0, then rank 0's stop.
static void end_rank(Match *m, bool told) {
    DoneMsg d = {.type = MSG_DONE,
                 .status = m->status,
                 .restarts = {m->tally.restarts[0], m->tally.restarts[1]},
                 .err = m->err};
    d.interrupted = !told && m->cfg->stop && atomic_load(m->cfg->stop);
    cluster_send(0, TAG_TO_ROOT, &d, sizeof d);
    if (!told) {
        char b[8];
        cluster_recv(0, TAG_STOP, b, 1);
    }
}

// Every rank's setup went well, or each returns an error (its own, or that another rank
// failed). Rank 0's finished pairs and date are then every rank's.
Status match_cluster_agree(Match *m, Status st, ErrorInfo *err) {
    if (m->ranks == 1)
        return st;
    uint64_t bad = st != STATUS_OK;
    cluster_sum_u64(&bad, 1);
    if (bad && st == STATUS_OK)
        return error_set(err, STATUS_IO, "match: another rank could not start (its message)");
    if (bad)
        return st;
    uint8_t stopping = m->stopping;
    cluster_bcast(m->done, sizeof *m->done * (size_t)m->tally.pairs_total, 0);
    cluster_bcast(&stopping, 1, 0);
    cluster_bcast(m->files.date, sizeof m->files.date, 0);
    m->stopping = stopping;
    return STATUS_OK;
}

bool match_cluster_coordinate(Match *m) {
    if (m->ranks > 1 && m->rank == 0)
        coordinate_root(m);
    else if (m->ranks > 1)
        return coordinate_rank(m);
    return false;
}

void match_cluster_end(Match *m, bool told) {
    if (m->ranks > 1 && m->rank > 0)
        end_rank(m, told);
}
