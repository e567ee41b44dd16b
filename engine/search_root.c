// SPDX-License-Identifier: MIT
// The root (search.h, search_run): iterative deepening on the main thread beside the helpers
// (search_smp.c), the root's moves (go searchmoves), MultiPV lines and a weakened search's
// choice among them, the move of an iteration cut by a stop, the time checks between
// iterations, go ponder's clock, and the info lines.
#include "search_shared.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "prng.h"
#include "rules.h"

// go ponder: the clock starts at the ponderhit (search_clock_running).
void search_ponderhit(Searcher *s) {
    int64_t now = timeman_now_ms();
    atomic_store_explicit(&s->ponderhit_ms, now > 0 ? now : 1, memory_order_relaxed);
}

void search_ponder_reset(Searcher *s) {
    atomic_store_explicit(&s->ponderhit_ms, 0, memory_order_relaxed);
}

// ---------------------------------------------------------------------------------------
// Info lines

static void fill_info(const Searcher *s, SearchInfo *info, int depth, int score) {
    info->kind = SEARCH_INFO_LINE;
    info->multipv = 1;
    info->depth = depth;
    info->seldepth = s->seldepth;
    info->score = score;
    info->nodes = s->nhelpers ? search_smp_nodes(s) : s->nodes;
    info->time_ms = timeman_now_ms() - s->start_ms;
    info->pv_len = s->pv_len[0];
    memcpy(info->pv, s->pv[0], sizeof(Move) * (size_t)s->pv_len[0]);
}

// The info line of a cut iteration whose best root move is played: its depth, the move's line
// and score (at least that score where the move failed high).
static void report_cut(const Searcher *s, int depth, SearchInfoFn on_info, void *info_arg) {
    SearchInfo info;
    fill_info(s, &info, depth, s->done.score);
    info.pv_len = s->done.pv_len;
    memcpy(info.pv, s->done.pv, sizeof(Move) * (size_t)s->done.pv_len);
    on_info(&info, info_arg);
}

// ---------------------------------------------------------------------------------------
// MultiPV lines, and a weakened search's pick among them

// One MultiPV line of an iteration.
typedef struct SearchLine {
    Score score;
    int seldepth, pv_len;
    Move pv[MAX_PLY];
} SearchLine;

static void line_take(const Searcher *s, SearchLine *line, Score score) {
    line->score = score;
    line->seldepth = s->seldepth;
    line->pv_len = s->pv_len[0];
    memcpy(line->pv, s->pv[0], sizeof(Move) * (size_t)s->pv_len[0]);
}

static void line_report(const Searcher *s, const SearchLine *line, int depth, int rank,
                        SearchInfoFn on_info, void *info_arg) {
    SearchInfo info = {.kind = SEARCH_INFO_LINE,
                       .depth = depth,
                       .seldepth = line->seldepth,
                       .multipv = rank,
                       .score = line->score,
                       .nodes = s->nhelpers ? search_smp_nodes(s) : s->nodes,
                       .time_ms = timeman_now_ms() - s->start_ms,
                       .pv_len = line->pv_len};
    memcpy(info.pv, line->pv, sizeof(Move) * (size_t)line->pv_len);
    on_info(&info, info_arg);
}

// Lines 2..n of a MultiPV iteration whose best line (lines[0]) is searched: line k with the
// first moves of lines 1..k-1 left out at the root, then all n sorted by score (a stable
// sort: the best line stays first on a tie). Returns the lines completed (all n unless the
// search was stopped; the completed ones are then kept, sorted).
static int search_more_lines(Searcher *s, int depth, SearchLine *lines, const Score *prev, int n) {
    int done = 1;
    s->nroot_excluded = 0;
    for (int k = 1; k < n && lines[k - 1].pv_len > 0; k++) {
        s->root_excluded[s->nroot_excluded++] = lines[k - 1].pv[0];
        s->seldepth = 0;
        int v = search_thread_aspiration(s, depth, prev[k]);
        if (s->stopped || s->pv_len[0] == 0)
            break;
        line_take(s, &lines[k], v);
        done++;
    }
    s->nroot_excluded = 0;
    for (int i = 1; i < done; i++)
        for (int j = i; j > 0 && lines[j].score > lines[j - 1].score; j--) {
            SearchLine t = lines[j];
            lines[j] = lines[j - 1];
            lines[j - 1] = t;
        }
    return done;
}

// The line a weakened search plays (search.h, SEARCH_SKILL_*): one of lines[0..n-1] (sorted,
// best first) within the skill's loss of the best, drawn with weight exp(-loss / T).
static int skill_pick(const SearchLine *lines, int n, double skill, uint64_t seed) {
    double weak = SEARCH_SKILL_MAX - skill;
    if (n <= 1 || weak <= 0 || score_is_decided(lines[0].score))
        return 0;
    double max_loss = (double)SEARCH_SKILL_LOSS_CP * weak / SEARCH_SKILL_MAX;
    double t = 10.0 + 110.0 * weak / SEARCH_SKILL_MAX, w[SEARCH_MULTIPV_MAX], sum = 0;
    int k = 0;
    for (; k < n; k++) {
        double loss = (double)lines[k].score - lines[0].score;
        if (-loss > max_loss || lines[k].pv_len == 0 || score_is_decided(lines[k].score))
            break;
        sum += w[k] = exp(loss / t);
    }
    double x = (double)(prng_next(&seed) >> 11) / 9007199254740992.0 * sum;
    for (int i = 0; i < k; i++)
        if ((x -= w[i]) < 0)
            return i;
    return 0;
}

// ---------------------------------------------------------------------------------------
// Iterative deepening at the root

// Restricts the root to limits->searchmoves (those legal in legal) and returns how many root
// moves there are to choose from; *first is one of them.
static int root_moves_set(Searcher *s, const SearchLimits *limits, const MoveList *legal,
                          Move *first) {
    s->nroot_allowed = 0;
    s->nroot_excluded = 0;
    *first = legal->moves[0];
    if (!limits->nsearchmoves)
        return legal->count;
    for (int k = 0; k < legal->count; k++) // each legal move once, however often it is named
        for (int i = 0; i < limits->nsearchmoves && i < MAX_MOVES; i++)
            if (legal->moves[k] == limits->searchmoves[i]) {
                s->root_allowed[s->nroot_allowed++] = legal->moves[k];
                break;
            }
    if (!s->nroot_allowed) // none legal: the caller checks; search every move then
        return legal->count;
    *first = s->root_allowed[0];
    return s->nroot_allowed;
}

// The soft budget after an iteration, scaled by what the search saw (timeman_scale), never
// past the hard one.
static int64_t soft_limit(const TimeBudget *tb, const TimeSignals *sig, const SearchParams *p) {
    int64_t soft = tb->soft * timeman_scale(sig, p) / 100;
    return tb->hard && soft > tb->hard ? tb->hard : soft;
}

SearchResult search_run(Searcher *s, const Board *root, const SearchLimits *limits,
                        SearchInfoFn on_info, void *info_arg, atomic_bool *stop) {
    SearchResult res = {MOVE_NONE, MOVE_NONE, 0, 0, 0, 0};
    search_smp_wait(s); // the last search's, before anything they share changes
    s->board = *root;
    Board *b = &s->board;
    GameResult gr;
    if (rules_game_over(b, &gr))
        return res;
    search_nnue_root(s);
    s->start_ms = timeman_now_ms();
    TimeBudget tb = timeman_budget(limits, b->side, &s->params);
    s->armed_hard_ms = tb.hard;
    s->run_limits = limits;
    s->pondering = limits->ponder;
    if (!limits->ponder) // a pondering search keeps a ponderhit sent before it began
        atomic_store_explicit(&s->ponderhit_ms, 0, memory_order_relaxed);
    s->on_info = on_info;
    s->info_arg = info_arg;
    search_thread_start(s, limits, stop);
    tt_new_search(s->tt);

    // A legal move to answer with even if no iteration completes.
    MoveList legal;
    movegen_legal(b, &legal);
    int nroot = root_moves_set(s, limits, &legal, &res.best);
    // A weakened search keeps a few lines to choose from, reporting only those asked for.
    bool weak = limits->limit_skill && limits->skill < SEARCH_SKILL_MAX;
    int asked = limits->multipv < 1 ? 1 : limits->multipv;
    int nlines = weak && asked < SEARCH_SKILL_LINES ? SEARCH_SKILL_LINES : asked;
    nlines = nlines > nroot ? nroot : nlines;
    asked = asked > nlines ? nlines : asked;
    if (nlines > SEARCH_MULTIPV_MAX)
        nlines = SEARCH_MULTIPV_MAX;
    SearchLine *lines = nlines > 1 ? malloc(sizeof *lines * 2 * (size_t)nlines) : NULL;
    Score *prev = nlines > 1 ? calloc((size_t)nlines, sizeof *prev) : NULL;
    if (!lines || !prev)
        nlines = 1;
    // A weakened search chooses among the lines of its last iteration that searched as many
    // lines as any before (a node or time limit may cut the last one short of its lines).
    SearchLine *chosen = lines ? lines + nlines : NULL;
    int nchosen = 0;
    if (s->nhelpers)
        search_smp_start(s, root);
    int max_depth = search_thread_max_depth(limits);
    int skill_depth = 1 + (limits->skill > 0 ? (int)limits->skill : 0);
    if (weak && max_depth > skill_depth)
        max_depth = skill_depth;
    int score = 0, done_lines = 0;
    TimeSignals sig = {0};
    Move last_best = MOVE_NONE;
    for (int depth = 1; depth <= max_depth; depth++) {
        s->seldepth = 0;
        s->root_depth = depth;
        uint64_t nodes_before = s->nodes;
        s->iter_pv_len = 0;
        int v = search_thread_aspiration(s, depth, score);
        // A cut iteration's root moves searched to the end count: its best one is played, with
        // an info line (one line; at depth 1, with no iteration before, every move that raised
        // alpha counts). A MultiPV search keeps the lines of its last completed iteration.
        if (s->stopped && nlines == 1 && (depth == 1 || s->done.depth) && search_thread_cut(s)) {
            res.best = s->done.pv[0];
            res.ponder = s->done.pv_len > 1 ? s->done.pv[1] : MOVE_NONE;
            res.score = s->done.score;
            if (on_info)
                report_cut(s, depth, on_info, info_arg);
            break;
        }
        if (s->stopped && depth > 1)
            break;
        if (s->pv_len[0] > 0) {
            res.best = s->pv[0][0];
            res.ponder = s->pv_len[0] > 1 ? s->pv[0][1] : MOVE_NONE;
        }
        if (s->stopped)
            break;
        sig = (TimeSignals){.depth = depth,
                            .stable = res.best == last_best ? sig.stable + 1 : 0,
                            .score = v,
                            .prev = depth > 1 ? score : v,
                            .decided = score_is_decided(v) || score_is_decided(score),
                            .best_nodes = s->root_best_nodes,
                            .nodes = s->nodes - nodes_before};
        last_best = res.best;
        score = v;
        res.score = v;
        res.depth = depth;
        search_thread_keep(s, depth, v);
        if (nlines > 1) {
            line_take(s, &lines[0], v);
            int done = search_more_lines(s, depth, lines, prev, nlines);
            for (int k = 0; k < done; k++)
                prev[k] = lines[k].score;
            if (lines[0].pv_len > 0) { // the best of the sorted lines is played
                res.best = lines[0].pv[0];
                res.ponder = lines[0].pv_len > 1 ? lines[0].pv[1] : MOVE_NONE;
                res.score = lines[0].score;
            }
            done_lines = done;
            if (weak && done >= nchosen) {
                memcpy(chosen, lines, sizeof *lines * (size_t)done);
                nchosen = done;
            }
            for (int k = 0; on_info && k < done && k < asked; k++)
                line_report(s, &lines[k], depth, k + 1, on_info, info_arg);
            if (s->stopped)
                break;
        } else if (on_info) {
            SearchInfo info;
            fill_info(s, &info, depth, v);
            on_info(&info, info_arg);
        }
        search_thread_arm(s); // the iteration's lines are done: a limit may cut the next one
        if (stop && atomic_load(stop))
            break;
        int64_t elapsed = timeman_now_ms() - s->start_ms;
        if (tb.soft && search_clock_running(s) &&
            elapsed >= soft_limit(&tb, &sig, &s->params) * s->params.tm_soft_pct / 100)
            break;
        // go mate N: a win in N moves or fewer is proven.
        if (limits->mate && v >= SCORE_DECISIVE && (score_end_plies(v) + 1) / 2 <= limits->mate)
            break;
        // A game end found within this depth: a sooner win, a later loss or a line still open
        // would score better and show within it, were the search full-width. Through reduced
        // and pruned defences it is not proven, so stop_decided says which ends stop the search
        // (2 any, 1 a win, 0 none).
        if (!limits->infinite && !limits->ponder && !limits->depth && !limits->nodes &&
            score_is_decided(v) && score_end_plies(v) <= depth &&
            (s->params.stop_decided == 2 || (s->params.stop_decided == 1 && v > 0)))
            break;
    }
    if (weak && done_lines > 1 && nchosen > 1) {
        const SearchLine *pick =
            &chosen[skill_pick(chosen, nchosen, limits->skill, limits->skill_seed)];
        res.best = pick->pv[0];
        res.ponder = pick->pv_len > 1 ? pick->pv[1] : MOVE_NONE;
        res.score = pick->score;
    }
    if (s->nhelpers) {
        // The helpers are told to stop and the answer is given at once, without waiting for
        // them: with more threads than cores each needs a time slice to see the stop, and the
        // next call on s waits for them to park (search_smp_wait). No vote for several lines, or
        // at a fixed depth (the main thread's answer at that depth, as asked).
        atomic_store(&s->stop_all, true);
        atomic_store_explicit(&s->nodes_pub, s->nodes, memory_order_relaxed);
        if (nlines == 1 && !limits->depth)
            search_smp_answer(s, &res, on_info, info_arg);
        res.nodes = search_smp_nodes(s);
    } else
        res.nodes = s->nodes;
    res.time_ms = timeman_now_ms() - s->start_ms;
    s->on_info = NULL;
    s->nroot_allowed = 0;
    free(lines);
    free(prev);
    return res;
}
