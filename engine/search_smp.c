// SPDX-License-Identifier: MIT
// Lazy SMP (search.h, search_set_threads): the helper threads, started once and parked between
// searches, woken by a search and parked again when they see its stop; their spread over the
// depths; the vote of every thread's last completed iteration that picks the move played.
// Their node counts are published and summed at the nodes (search_shared.h, search_smp_nodes).
#include "search_shared.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

// Whether helper id skips an iteration: helper threads spread over the depths, so that they do
// not all search the iteration the main thread searches. Helper i takes runs of `size` depths
// (1 to 4, growing with i), every other run skipped, from a phase of its own; the main thread
// (id 0) skips none.
static bool skip_depth(int id, int depth) {
    if (id == 0)
        return false;
    int size = 1 + (id > 2) + (id > 6) + (id > 14), phase = id % (2 * size);
    return (depth + phase) / size % 2 == 1;
}

// A helper's search: iterative deepening on its copy of the root until it reaches the depth
// limit or the main thread (or the node limit) stops it. Its iterations are kept for the vote.
static void helper_search(Searcher *h) {
    if (h->clear_pending && h->dirty)
        search_thread_clear(h);
    h->clear_pending = false;
    h->dirty = true;
    search_nnue_root(h);
    int score = 0;
    for (int depth = 1; depth <= h->max_depth && !h->stopped; depth++) {
        if (skip_depth(h->id, depth))
            continue;
        h->seldepth = 0;
        h->iter_pv_len = 0;
        int v = search_thread_aspiration(h, depth, score);
        if (h->stopped)
            break;
        score = v;
        search_thread_keep(h, depth, v);
    }
    atomic_store_explicit(&h->nodes_pub, h->nodes, memory_order_relaxed);
}

// A helper's thread: parked until search_smp_start wakes it for a search, parked again when the
// search stops, ended by helper_destroy. Threads live as long as their helpers, so a search
// starts none: with more threads than cores, creating them at each `go` took the creating
// (main) thread longer than the search itself, as each new thread took its turn on the cores.
static void *helper_loop(void *arg) {
    Searcher *h = arg;
    pthread_mutex_lock(&h->pool_lock);
    for (;;) {
        while (h->state == HELPER_PARKED)
            pthread_cond_wait(&h->pool_cond, &h->pool_lock);
        if (h->state == HELPER_QUIT)
            break;
        pthread_mutex_unlock(&h->pool_lock);
        helper_search(h);
        pthread_mutex_lock(&h->pool_lock);
        h->state = HELPER_PARKED;
        pthread_cond_broadcast(&h->pool_cond);
    }
    pthread_mutex_unlock(&h->pool_lock);
    return NULL;
}

// A helper of main: main's table, parameters and evaluation, its own everything else, and its
// thread, parked until a search wakes it. NULL when memory is short or the thread cannot start.
static Searcher *helper_create(Searcher *main, int id) {
    Searcher *h = calloc(1, sizeof *h);
    if (!h || !(h->cont_hist = calloc(PIECE_NB * SQUARE_NB, sizeof(ContHist)))) {
        free(h);
        return NULL;
    }
    h->tt = main->tt;
    h->main = main;
    h->id = id;
    pthread_mutex_init(&h->done_lock, NULL);
    atomic_init(&h->stop_all, false);
    atomic_init(&h->nodes_pub, 0);
    h->params = main->params;
    memcpy(h->lmr, main->lmr, sizeof h->lmr);
    h->nnue_path = main->nnue_path;
    h->nnue_check = main->nnue_check;
    h->net = main->net;
    pthread_mutex_init(&h->pool_lock, NULL);
    pthread_cond_init(&h->pool_cond, NULL);
    h->state = HELPER_PARKED;
    if ((main->net && !search_thread_alloc_nnue(h)) ||
        pthread_create(&h->thread, NULL, helper_loop, h) != 0) {
        pthread_cond_destroy(&h->pool_cond);
        pthread_mutex_destroy(&h->pool_lock);
        search_thread_free(h);
        return NULL;
    }
    return h;
}

// Waits until helper h is parked (its search, if any, has stopped).
static void helper_park_wait(Searcher *h) {
    pthread_mutex_lock(&h->pool_lock);
    while (h->state == HELPER_SEARCHING)
        pthread_cond_wait(&h->pool_cond, &h->pool_lock);
    pthread_mutex_unlock(&h->pool_lock);
}

static void helper_destroy(Searcher *h) {
    if (!h)
        return;
    helper_park_wait(h);
    pthread_mutex_lock(&h->pool_lock);
    h->state = HELPER_QUIT;
    pthread_cond_broadcast(&h->pool_cond);
    pthread_mutex_unlock(&h->pool_lock);
    pthread_join(h->thread, NULL);
    pthread_cond_destroy(&h->pool_cond);
    pthread_mutex_destroy(&h->pool_lock);
    search_thread_free(h);
}

// The one place every call that changes s, its helpers, its TT or its net goes through first,
// so that no helper of a search that has answered is left searching into the next.
void search_smp_wait(Searcher *s) {
    for (int i = 0; i < s->nhelpers; i++)
        helper_park_wait(s->helpers[i]);
}

void search_wait(Searcher *s) { search_smp_wait(s); }

bool search_set_threads(Searcher *s, int threads) {
    if (threads < 1 || threads > SEARCH_THREADS_MAX)
        return false;
    search_smp_wait(s);
    int n = threads - 1;
    Searcher **hs = n ? calloc((size_t)n, sizeof *hs) : NULL;
    if (n && !hs)
        return false;
    for (int i = 0; i < n; i++)
        if (!(hs[i] = i < s->nhelpers ? s->helpers[i] : helper_create(s, i + 1))) {
            for (int k = s->nhelpers; k < i; k++)
                helper_destroy(hs[k]);
            free(hs);
            return false;
        }
    for (int i = n; i < s->nhelpers; i++)
        helper_destroy(s->helpers[i]);
    free(s->helpers);
    s->helpers = hs;
    s->nhelpers = n;
    return true;
}

int search_get_threads(const Searcher *s) { return s->nhelpers + 1; }

// All parked: search_run waited for them first. Every helper's count is reset before the first
// is woken: a woken helper sums the others' published counts (search_smp_nodes), and one not
// yet reset still shows the last search's, which stopped a `go nodes 1000` on 4 threads at 953
// (the first helper woke and counted 47 stale nodes before the main thread reached the rest).
void search_smp_start(Searcher *s, const Board *root) {
    atomic_store(&s->stop_all, false);
    for (int i = 0; i < s->nhelpers; i++)
        search_thread_start(s->helpers[i], s->run_limits, s->stop);
    for (int i = 0; i < s->nhelpers; i++) {
        Searcher *h = s->helpers[i];
        memcpy(&h->board, root,
               offsetof(Board, states) + sizeof(StateInfo) * (size_t)root->nstates);
        memset(h->after_null, 0, sizeof h->after_null);
        h->nroot_allowed = s->nroot_allowed;
        memcpy(h->root_allowed, s->root_allowed, sizeof(Move) * (size_t)s->nroot_allowed);
        h->nroot_excluded = 0;
        h->max_depth = search_thread_max_depth(s->run_limits);
        h->start_ms = s->start_ms;
        h->hard_ms = 0;
        pthread_mutex_lock(&h->pool_lock);
        h->state = HELPER_SEARCHING;
        pthread_cond_broadcast(&h->pool_cond);
        pthread_mutex_unlock(&h->pool_lock);
    }
}

// What a thread's last completed iteration brings to the vote (depth 0: none with a move).
typedef struct Ballot {
    int depth;
    Score score;
    Move move;
} Ballot;

// The thread whose move is played (0: the main thread; -1: none completed an iteration): a
// vote of the threads' last completed iterations b[0..n-1], each weighted by its depth and by
// how far its score stands above the lowest (as Stockfish's thread voting weighs them), the
// thread with the most votes for its move chosen; a thread that proves a win is taken at once
// (the soonest win), and the main thread wins ties.
static int smp_pick(const Ballot *b, int n) {
    Score low = SCORE_INFINITE;
    for (int i = 0; i < n; i++)
        if (b[i].depth && b[i].score < low)
            low = b[i].score;
    int best = b[0].depth ? 0 : -1;
    int64_t best_votes = -1;
    for (int i = 0; i < n; i++) {
        if (!b[i].depth)
            continue;
        int64_t votes = 0;
        for (int k = 0; k < n; k++)
            if (b[k].depth && b[k].move == b[i].move)
                votes += (int64_t)(b[k].score - low + 14) * b[k].depth;
        bool wins = b[i].score >= SCORE_DECISIVE;
        if (best >= 0 && b[best].score >= SCORE_DECISIVE) {
            if (wins && b[i].score > b[best].score)
                best = i;
        } else if (best < 0 || wins || votes > best_votes) {
            best = i;
        }
        if (best == i)
            best_votes = votes;
    }
    return best;
}

// The answer of a search with helpers, once they are told to stop (stop_all): the vote of
// every thread's last completed iteration, read under each helper's lock while it may still
// run (its iteration is frozen from then on: search_thread_keep). When a helper's line is chosen
// it becomes res's move, ponder move, score and depth, and a last info line gives it.
void search_smp_answer(Searcher *s, SearchResult *res, SearchInfoFn on_info, void *info_arg) {
    Ballot ballots[SEARCH_THREADS_MAX]; // 12 KB: nhelpers < SEARCH_THREADS_MAX
    int n = s->nhelpers + 1;
    for (int i = 0; i < n; i++) {
        Searcher *t = i ? s->helpers[i - 1] : s;
        pthread_mutex_lock(&t->done_lock);
        bool has = t->done.depth && t->done.pv_len;
        ballots[i] = (Ballot){has ? t->done.depth : 0, t->done.score, has ? t->done.pv[0] : 0};
        pthread_mutex_unlock(&t->done_lock);
    }
    int pick = smp_pick(ballots, n);
    if (pick <= 0)
        return;
    Iteration it;
    search_thread_read(s->helpers[pick - 1], &it);
    res->best = it.pv[0];
    res->ponder = it.pv_len > 1 ? it.pv[1] : MOVE_NONE;
    res->score = it.score;
    res->depth = it.depth;
    if (on_info) {
        SearchInfo info = {.kind = SEARCH_INFO_LINE,
                           .depth = it.depth,
                           .seldepth = it.seldepth,
                           .multipv = 1,
                           .score = it.score,
                           .nodes = search_smp_nodes(s),
                           .time_ms = timeman_now_ms() - s->start_ms,
                           .pv_len = it.pv_len};
        memcpy(info.pv, it.pv, sizeof(Move) * (size_t)it.pv_len);
        on_info(&info, info_arg);
    }
}
