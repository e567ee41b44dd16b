// SPDX-License-Identifier: MIT
// Game slots shared by a tournament's matches (match_slots.h): a ticket queue under one lock.
#include "match_slots.h"

#include <time.h>

enum { SLOT_POLL_MS = 50 }; // how often a waiting worker looks at the stop flag

void match_slots_init(MatchSlots *s, int count) {
    *s = (MatchSlots){.count = count};
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->turn, NULL);
}

void match_slots_destroy(MatchSlots *s) {
    if (!s)
        return;
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->turn);
}

bool match_slots_take(MatchSlots *s, atomic_bool *stop, int *slot) {
    pthread_mutex_lock(&s->lock);
    long ticket = s->next_ticket++;
    bool ok = true;
    // A ticket abandoned on a stop is never given back: only a stopping tournament abandons one,
    // and then every waiter leaves.
    while (ticket >= s->given_back + s->count && ok) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += SLOT_POLL_MS * 1000000L;
        ts.tv_sec += ts.tv_nsec / 1000000000L;
        ts.tv_nsec %= 1000000000L;
        pthread_cond_timedwait(&s->turn, &s->lock, &ts);
        ok = !(stop && atomic_load(stop));
    }
    // At most count tickets play at once, so a number is free.
    for (*slot = 0; ok && *slot < s->count - 1 && s->used[*slot];)
        ++*slot;
    if (ok)
        s->used[*slot] = true;
    pthread_mutex_unlock(&s->lock);
    return ok;
}

void match_slots_give(MatchSlots *s, int slot) {
    pthread_mutex_lock(&s->lock);
    s->used[slot] = false;
    s->given_back++;
    pthread_cond_broadcast(&s->turn);
    pthread_mutex_unlock(&s->lock);
}
