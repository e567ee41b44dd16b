// SPDX-License-Identifier: MIT
// Booking a finished pair once its games are in the PGN: its state line, the tally, the JSON,
// the stop rules and the progress; called by the scheduler and, under MPI, by rank 0 for every
// rank.
#include "match_internal.h"

#include "match_json.h"
#include "match_state.h"
#include "match_tally.h"

void match_record_pair(Match *m, int k, const GameRecord g[2]) {
    Side first = match_openings_first_side(&m->openings, k);
    match_tally_pair(&m->tally, m->done, m->cfg, k, first, g);
}

// With the games of pair k in the PGN (st: how that went), books it under the match's lock,
// which it releases: state line, tally, JSON, the stop rules (SPRT, test hook), progress.
void match_book_pair(Match *m, int k, const GameRecord g[2], Status st, ErrorInfo *err) {
    if (st == STATUS_OK)
        st = match_state_write_pair(&m->files, k, g, err);
    if (st != STATUS_OK) {
        pthread_mutex_unlock(&m->lock);
        match_fail(m, st, err);
        return;
    }
    match_record_pair(m, k, g);
    m->new_pairs++;
    if (m->cfg->json_path &&
        (st = match_json_write(m->cfg->json_path, m->cfg, &m->tally, err)) != STATUS_OK) {
        pthread_mutex_unlock(&m->lock);
        match_fail(m, st, err);
        return;
    }
    if (m->tally.sprt_result != SPRT_CONTINUE ||
        (m->cfg->stop_after_pairs > 0 && m->new_pairs >= m->cfg->stop_after_pairs)) {
        m->stopping = true;
        atomic_store(&m->abort, true);
    }
    if (m->progress)
        m->progress(&m->tally, m->cfg, m->progress_arg);
    pthread_mutex_unlock(&m->lock);
}
