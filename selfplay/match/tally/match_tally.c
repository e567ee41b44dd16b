// SPDX-License-Identifier: MIT
// The match's shared bookkeeping under its lock: the tally of finished pairs, the stop flags and
// the first fatal error; used by the scheduler (match.c), the resume state and the cluster.
#include "match_internal.h"

#include <stdatomic.h>

#include "board.h"
#include "stats.h"

// The side to move in pair k's start position (its opening and random plies): the side that
// moved first in both games of the pair. Han moves first in many suite lines.
static Side pair_first_side(const Match *m, int k) {
    Board b; // 28 KB on the stack: the tally runs on a worker's or the main thread
    char fen[FEN_BUFFER];
    match_setup_pair_fen(m, k, &b, fen);
    return b.side;
}

// Adds a finished pair to the tally (game 0: engine 0 is Cho; game 1: engine 1 is Cho).
void match_tally_pair(Match *m, int k, const GameRecord g[2]) {
    MatchTally *t = &m->tally;
    const Side first = pair_first_side(m, k);
    m->done[k] = true;
    t->pairs_done++;
    int half = 0; // engine 0's half points of the pair: a win 2, a draw 1
    for (int i = 0; i < 2; i++) {
        t->games++;
        t->plies += g[i].plies;
        if (g[i].winner == GAME_DRAWN) {
            t->draws++;
            t->draws_by[g[i].reason]++;
            half += 1;
            continue;
        }
        t->wins[g[i].winner]++;
        t->wins_by[g[i].winner][g[i].reason]++;
        const Side won = g[i].winner == i ? CHO : HAN; // the Cho engine of game i is engine i
        t->cho_wins += won == CHO;
        t->first_mover_wins += won == first;
        half += g[i].winner == 0 ? 2 : 0;
    }
    t->penta[half]++;
    if (m->cfg->sprt_enabled) {
        t->llr = stats_sprt_llr_penta(&m->cfg->sprt, t->penta);
        t->sprt_result = stats_sprt_decide(&m->cfg->sprt, t->llr);
    }
}

void match_adjudicated(const MatchTally *t, long *resigned, long *drawn) {
    *resigned = t->wins_by[0][REASON_RESIGN] + t->wins_by[1][REASON_RESIGN];
    *drawn = t->draws_by[REASON_ADJUDICATION];
}

static atomic_bool *external_stop(const Match *m) { return m->cfg->stop; }

bool match_should_stop(Match *m) {
    atomic_bool *ext = external_stop(m);
    return (ext && atomic_load(ext)) || m->stopping;
}

// Records a fatal error (the first one wins) and stops the match.
void match_fail(Match *m, Status st, const ErrorInfo *err) {
    pthread_mutex_lock(&m->lock);
    if (m->status == STATUS_OK) {
        m->status = st;
        m->err = *err;
    }
    m->stopping = true;
    atomic_store(&m->abort, true);
    pthread_mutex_unlock(&m->lock);
}

int match_workers_running(Match *m) {
    pthread_mutex_lock(&m->lock);
    int n = m->running;
    pthread_mutex_unlock(&m->lock);
    return n;
}

void match_stop_here(Match *m) {
    pthread_mutex_lock(&m->lock);
    m->stopping = true;
    atomic_store(&m->abort, true);
    pthread_mutex_unlock(&m->lock);
}
