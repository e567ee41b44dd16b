// SPDX-License-Identifier: MIT
// A Searcher's lifetime and settings (search.h): created with its TT, destroyed with its helpers,
// cleared for a new game, its TT resized, its parameters, net and net kernels set for every
// thread; and the two searches that are not a game's: the quiet line of a position for the tuner
// (search_quiet_pv) and the static evaluation (search_evaluate).
#include "search_shared.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"
#include "search_prune.h"

Searcher *search_create(size_t hash_mb) {
    Searcher *s = calloc(1, sizeof *s);
    if (!s || !(s->cont_hist = calloc(PIECE_NB * SQUARE_NB, sizeof(ContHist))) ||
        !tt_init(&s->tt_own, hash_mb)) {
        if (s)
            free(s->cont_hist);
        free(s);
        return NULL;
    }
    s->tt = &s->tt_own;
    s->main = s;
    pthread_mutex_init(&s->done_lock, NULL);
    atomic_init(&s->stop_all, false);
    atomic_init(&s->nodes_pub, 0);
    search_set_params(s, &SEARCH_PARAMS_DEFAULT);
    s->nnue_path = nnue_path_best();
    return s;
}

static void params_apply(Searcher *s, const SearchParams *params) {
    s->params = *params;
    search_prune_lmr_init(s->lmr, params);
}

void search_set_params(Searcher *s, const SearchParams *params) {
    search_smp_wait(s);
    // The TT's and the cache's evaluations came from another blend (or, near the move limit,
    // another scale of the points term added to a net's, or another material anchor).
    bool eval_changed = s->params.eval_blend != params->eval_blend ||
                        s->params.blend_scale_pct != params->blend_scale_pct ||
                        s->params.eval_material != params->eval_material ||
                        s->params.net_scale_pct != params->net_scale_pct;
    params_apply(s, params);
    for (int i = 0; i < s->nhelpers; i++)
        params_apply(s->helpers[i], params);
    if (eval_changed && s->net)
        search_clear(s);
}

const SearchParams *search_get_params(const Searcher *s) { return &s->params; }

void search_destroy(Searcher *s) {
    if (!s)
        return;
    search_set_threads(s, 1); // ends the helper threads first
    tt_free(&s->tt_own);
    search_thread_free(s);
}

bool search_resize(Searcher *s, size_t hash_mb) {
    search_smp_wait(s);
    return tt_init(s->tt, hash_mb);
}

int search_hashfull(const Searcher *s) { return tt_hashfull(s->tt); }

void search_clear(Searcher *s) {
    search_smp_wait(s);
    tt_clear(s->tt);
    search_thread_clear(s);
    for (int i = 0; i < s->nhelpers; i++)
        s->helpers[i]->clear_pending = true; // parked (search_smp_wait): helper_search clears
}

bool search_set_net(Searcher *s, const NnueNet *net) {
    search_smp_wait(s); // before a helper's net may be freed
    for (int i = -1; net && i < s->nhelpers; i++) {
        Searcher *t = i < 0 ? s : s->helpers[i];
        if (!search_thread_alloc_nnue(t))
            return false;
    }
    s->net = net;
    for (int i = 0; i < s->nhelpers; i++)
        s->helpers[i]->net = net;
    // The TT's and the cache's evaluations came from the other evaluation.
    search_clear(s);
    return true;
}

const NnueNet *search_get_net(const Searcher *s) { return s->net; }

bool search_set_nnue_path(Searcher *s, NnuePath path) {
    if (!nnue_path_available(path))
        return false;
    search_smp_wait(s);
    s->nnue_path = path;
    for (int i = 0; i < s->nhelpers; i++)
        s->helpers[i]->nnue_path = path;
    return true;
}

void search_set_nnue_check(Searcher *s, bool on) {
    search_smp_wait(s);
    for (int i = -1; i < s->nhelpers; i++) {
        Searcher *t = i < 0 ? s : s->helpers[i];
        t->nnue_check = on;
        t->nnue_checked = t->nnue_mismatches = 0;
    }
}

uint64_t search_nnue_checked(Searcher *s, uint64_t *mismatches) {
    search_smp_wait(s);
    uint64_t checked = s->nnue_checked;
    *mismatches = s->nnue_mismatches;
    for (int i = 0; i < s->nhelpers; i++) {
        checked += s->helpers[i]->nnue_checked;
        *mismatches += s->helpers[i]->nnue_mismatches;
    }
    return checked;
}

// ---------------------------------------------------------------------------------------
// The quiet position of a position, for the tuner

int search_quiet_pv(Searcher *s, const Board *b, int max_plies, Move *pv) {
    search_smp_wait(s);
    // Only the states in use are copied: a decoded position has one, a game a few hundred.
    memcpy(&s->board, b, offsetof(Board, states) + sizeof(StateInfo) * (size_t)b->nstates);
    s->nodes = s->node_limit = 0;
    s->poll_mask = 255;
    s->hard_ms = 0;
    s->stop = NULL;
    s->smp_stop = NULL; // this search is the main thread's alone
    s->stopped = false;
    s->seldepth = 0;
    // Nothing learnt before may reach this search: no TT, and the killers and history that
    // order the quiet moves (in check, or where a quiet move may end the game) start at zero.
    memset(s->history, 0, sizeof s->history);
    memset(s->killers, 0, sizeof s->killers);
    memset(s->countermoves, 0, sizeof s->countermoves);
    memset(s->after_null, 0, sizeof s->after_null);
    s->tt_off = true;
    search_nnue_root(s);
    search_qsearch(s, -SCORE_INFINITE, SCORE_INFINITE, 0, QS_NO_CHECKS);
    s->tt_off = false;
    // The line stops before a pass or a move that ends the game: what it reaches is a position
    // still in play, to be evaluated.
    Board *w = &s->board;
    int n = 0;
    GameResult gr;
    for (; n < s->pv_len[0] && n < max_plies; n++) {
        Move m = s->pv[0][n];
        if (move_is_pass(m))
            break;
        board_make(w, m);
        if (rules_game_over(w, &gr))
            break;
        pv[n] = m;
    }
    return n;
}

// ---------------------------------------------------------------------------------------
// The static evaluation, for `eval` and tests

Score search_evaluate(Searcher *s, const Board *b) {
    search_smp_wait(s);
    memcpy(&s->board, b, offsetof(Board, states) + sizeof(StateInfo) * (size_t)b->nstates);
    s->nodes = 0;
    search_nnue_root(s);
    return (Score)search_static_eval(s, 0);
}
