// SPDX-License-Identifier: MIT
// The match's stop and its first fatal error, under its lock: asked by the workers, the booking
// of a pair and the MPI coordination.
#include "match_internal.h"

#include <stdatomic.h>

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
