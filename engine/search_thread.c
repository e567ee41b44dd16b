// SPDX-License-Identifier: MIT
// One search thread, main or helper (search_shared.h): what it learnt cleared, its net's
// buffers allocated, what it owns freed, its counts reset at each search's start, its iterations
// searched in an aspiration window, and the record of its last completed iteration that the vote
// and the info lines read (the main thread's, and each helper's while it may still run).
#include "search_shared.h"

#include <stdlib.h>
#include <string.h>

#include "search_order.h"

void search_thread_clear(Searcher *s) {
    if (s->nnue_cache) // its entries may be of a net freed since (another may take its address)
        nnue_cache_reset(s->nnue_cache, NULL);
    search_order_clear(s);
    memset(s->eval_cache, 0, sizeof s->eval_cache);
    s->dirty = false;
}

void search_thread_free(Searcher *t) {
    pthread_mutex_destroy(&t->done_lock);
    free(t->cont_hist);
    free(t->acc);
    free(t->nnue_cache);
    free(t);
}

bool search_thread_alloc_nnue(Searcher *t) {
    if (!t->acc && !(t->acc = aligned_alloc(64, sizeof(NnueAccumulator) * (MAX_PLY + 2))))
        return false;
    if (!t->nnue_cache) {
        if (!(t->nnue_cache = aligned_alloc(64, sizeof(NnueCache))))
            return false;
        nnue_cache_reset(t->nnue_cache, NULL);
    }
    return true;
}

// How often (a power of two, in nodes) a thread of a search with nthreads threads publishes its
// count and reads the clock (search.c, poll_budget): 256, or for a node limit shared by the
// threads, about a sixteenth of each thread's share (at least 1), so that the threads together
// overrun the limit by about a sixteenth of it at most, not 256 nodes each.
static uint64_t poll_interval(uint64_t smp_node_limit, int nthreads) {
    uint64_t share = smp_node_limit ? smp_node_limit / (uint64_t)nthreads / 16 : 256;
    uint64_t interval = 1;
    while (interval * 2 <= share && interval < 256)
        interval *= 2;
    return interval;
}

void search_thread_start(Searcher *s, const SearchLimits *limits, atomic_bool *stop) {
    s->nodes = 0;
    atomic_store_explicit(&s->nodes_pub, 0, memory_order_relaxed);
    s->stop = stop;
    s->stopped = false;
    s->done.depth = 0; // no thread of this search runs yet: no lock needed
    s->done.pv_len = 0;
    // The main thread's limits are armed by its first completed iteration, a helper's now.
    s->node_limit = 0;
    s->smp_node_limit = s->main->nhelpers ? limits->nodes : 0;
    s->smp_armed = s != s->main;
    s->hard_ms = 0;
    s->armed_nodes = limits->nodes;
    s->smp_stop = s->main->nhelpers ? &s->main->stop_all : NULL;
    s->poll_mask = poll_interval(s->main->nhelpers ? limits->nodes : 0, s->main->nhelpers + 1) - 1;
    s->trace = limits->trace_replies && s == s->main;
    search_order_age(s);
}

int search_thread_max_depth(const SearchLimits *limits) {
    return limits->depth > 0 && limits->depth < MAX_PLY - 1 ? limits->depth : MAX_PLY - 1;
}

int search_thread_aspiration(Searcher *s, int depth, int prev) {
    int delta = search_margin(s, s->params.asp_delta), alpha = -SCORE_INFINITE,
        beta = SCORE_INFINITE;
    if (depth >= s->params.asp_depth && abs(prev) < SCORE_DECISIVE) {
        alpha = prev - delta;
        beta = prev + delta;
    }
    for (;;) {
        int v = search_negamax(s, alpha, beta, depth, 0, false);
        if (s->stopped)
            return v;
        if (v <= alpha && alpha > -SCORE_INFINITE)
            alpha = v - delta > -SCORE_INFINITE ? v - delta : -SCORE_INFINITE;
        else if (v >= beta && beta < SCORE_INFINITE)
            beta = v + delta < SCORE_INFINITE ? v + delta : SCORE_INFINITE;
        else
            return v;
        delta *= 2;
    }
}

void search_thread_arm(Searcher *s) {
    if (s != s->main)
        return; // armed from its start
    if (s->nhelpers)
        s->smp_armed = true;
    else
        s->node_limit = s->armed_nodes;
    s->hard_ms = s->armed_hard_ms;
}

// A helper's record is frozen once the main thread has told the helpers to stop: the vote reads
// each helper's once after that (search_smp_answer), and what it read stays what it picks from.
void search_thread_keep(Searcher *s, int depth, int score) {
    pthread_mutex_lock(&s->done_lock);
    if (s->id && atomic_load(&s->main->stop_all)) {
        pthread_mutex_unlock(&s->done_lock);
        return;
    }
    s->done.depth = depth;
    s->done.seldepth = s->seldepth;
    s->done.score = score;
    s->done.pv_len = s->pv_len[0];
    memcpy(s->done.pv, s->pv[0], sizeof(Move) * (size_t)s->pv_len[0]);
    pthread_mutex_unlock(&s->done_lock);
}

void search_thread_read(Searcher *t, Iteration *it) {
    pthread_mutex_lock(&t->done_lock);
    it->depth = t->done.depth;
    it->seldepth = t->done.seldepth;
    it->score = t->done.score;
    it->pv_len = t->done.pv_len;
    memcpy(it->pv, t->done.pv, sizeof(Move) * (size_t)t->done.pv_len);
    pthread_mutex_unlock(&t->done_lock);
}

// The best root move is the one negamax kept at the root (search.c, iteration_keep), searched to
// the end above alpha. The main thread's alone: a helper's record is frozen once the main thread
// tells them to stop (search_thread_keep).
bool search_thread_cut(Searcher *s) {
    if (!s->iter_pv_len)
        return false;
    pthread_mutex_lock(&s->done_lock);
    s->done.score = s->iter_score;
    s->done.pv_len = s->iter_pv_len;
    memcpy(s->done.pv, s->iter_pv, sizeof(Move) * (size_t)s->iter_pv_len);
    pthread_mutex_unlock(&s->done_lock);
    return true;
}
