// SPDX-License-Identifier: MIT
// Negamax and quiescence (search.h, search_shared.h): PVS with a TT, quiescence on captures
// that do not lose by SEE and, in its first plies, quiet checks (all moves when in check or when
// a quiet move may end the game), the pruning and extension steps of search_prune.h, the move
// order of search_order.h, and the rules page's game ends in the tree, a pass that ends the game
// scored as that end at every node. One thread's iterations (search_thread.c) call negamax at
// the root, where it also keeps the iteration's best move for them.
#include "search_shared.h"

#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "rules.h"
#include "search_order.h"
#include "search_prune.h"
#include "see.h"

// Whether the incrementally kept acc[ply] equals a refresh of the board (the test hook and, in
// Debug builds, an assertion at one evaluation in 16).
static bool nnue_acc_matches(Searcher *s, int ply) {
    static _Alignas(64) _Thread_local NnueAccumulator fresh;
    nnue_refresh(s->net, &s->board, &fresh, s->nnue_path);
    return nnue_acc_equal(s->net, &fresh, search_acc(s, ply));
}

// ---------------------------------------------------------------------------------------
// Game ends inside the tree

// Score of a game ended by points at ply, from the side to move's view (the margin is not
// scored: search.h).
static int points_score(const Board *b, int ply) {
    int v = score_win(ply, SCORE_END_POINTS);
    return rules_points_half(b, b->side) > rules_points_half(b, !b->side) ? v : -v;
}

// A decided score counts the plies from the root, the TT's from its node (search.h: a ply is

// Judges the position reached by the last ply, by the rules page, when it ends the game
// without a mate; sets *score and returns true then. The end rules and their order are the
// rules' own (rules_end_reason); checkmate comes first, so a position that is also a mate
// scores as mate (tested only when some rule ends the game: mates are found by the search).
// Repetition uses the exact threefold rule over the game history and the tree: a repetition
// is not a draw in janggi but a decided game (points or perpetual check), so scoring a mere
// twofold as the end would misjudge lines the rule lets go on; the cost is a scan of at most
// since_capture plies. A repetition end is counted (rep_ends): its score is the game history's,
// which no TT key holds (rep_tt).
static bool game_end_score(Searcher *s, int ply, int *score) {
    Board *b = &s->board;
    const StateInfo *st = board_state(b);
    int loser;
    EndReason r = rules_end_reason(b, &loser);
    if (r == REASON_NONE)
        return false;
    s->rep_ends +=
        r == REASON_REPETITION || r == REASON_PERPETUAL_CHECK || r == REASON_PERPETUAL_CHASE;
    if (st->in_check && !movegen_has_legal(b))
        *score = -score_win(ply, SCORE_END_MATE);
    else if (loser >= 0) // lost by the rule: perpetual check (or, in xiangqi, chase, stalemate)
        *score = loser == (int)b->side ? -score_win(ply, SCORE_END_RULE)
                                       : score_win(ply, SCORE_END_RULE);
    else if (loser == RULES_DRAW)
        *score = 0;
    else
        *score = points_score(b, ply);
    return true;
}

// The game end that the pass of the side to move reaches, when it reaches one: two passes
// after the opponent's pass, a bikjang left standing, the move limit (game_end_score judges
// the position after the pass, so the rules page's order holds). Sets *score to that end from
// the side to move's view and returns true; false in check (no pass) or when the game goes on.
// The pass is always legal out of check and keeps the points, so its end is an exact option
// of the node: the search scores it first, and no stand pat, cut or pruning can hide it.
static bool pass_end_score(Searcher *s, int ply, int *score) {
    Board *b = &s->board;
    const StateInfo *st = board_state(b);
    if (!b->variant->pass || st->in_check ||
        !(move_is_pass(st->move) || search_quiet_move_may_end(b)))
        return false;
    int v;
    board_make(b, move_make(b->general[b->side], b->general[b->side]));
    bool end = game_end_score(s, ply + 1, &v);
    board_unmake(b);
    if (end)
        *score = -v;
    return end;
}

// The TT key of a node: the Zobrist key (the position), plus what the position does not tell
// but the node's value depends on: whether the last ply was a pass (a pass back then ends the
// game) or the null move (no pass back), and, where the evaluation starts to count the plies
// (EvalSpec.points_window before the move limit), the plies left.
static uint64_t node_key(const Board *b, bool after_null) {
    static const uint64_t AFTER_PASS = 0x9e3779b97f4a7c15ull, AFTER_NULL = 0xd6e8feb86659fd93ull,
                          PER_PLY = 0xc2b2ae3d27d4eb4full;
    uint64_t key = board_key(b);
    if (after_null)
        key ^= AFTER_NULL;
    else if (move_is_pass(board_state(b)->move))
        key ^= AFTER_PASS;
    int left = b->variant->ply_limit - board_game_ply(b);
    if (left < b->variant->eval->points_window)
        key ^= PER_PLY * (uint64_t)(left + 1);
    return key;
}

// ---------------------------------------------------------------------------------------
// Node accounting: on one thread the node limit is checked at every node, so `go nodes N`
// stops at the same node on every run; the clock is read every 256 nodes. With helpers each
// thread publishes its count then, and the first to see the threads' total reach the limit
// stops them all; under a small `go nodes` they publish more often (search_thread_start), so
// the threads together overrun the limit by about a sixteenth of it at most, not 256 nodes
// each.

// Whether a stop was asked: the threads' shared flag (first: once it is set, the caller's flag
// is no longer read) or the caller's. Read at every node, as Stockfish reads its stop flag: two
// loads of lines that no thread writes before the stop, next to nothing beside a node's work.
// With more threads than cores a thread searches only in its turns on a core, so a stop reaches
// the threads one turn after another; read every node, each stops within a node of its next
// turn (read every 256 nodes, each searched on to its next read: with 256 threads on 2 cores
// the last stopped up to 55 ms after the stop; docs/scaling.md, "Stop with many threads").
static inline bool stop_asked(const Searcher *s) {
    return (s->smp_stop && s->smp_armed &&
            atomic_load_explicit(s->smp_stop, memory_order_relaxed)) ||
           (s->stop && atomic_load_explicit(s->stop, memory_order_relaxed));
}

// Every poll_interval nodes: publishes the node count for `go nodes` over threads and reads the
// clock.
static void poll_budget(Searcher *s) {
    if (s->smp_stop) {
        atomic_store_explicit(&s->nodes_pub, s->nodes, memory_order_relaxed);
        if (s->smp_armed && s->smp_node_limit && search_smp_nodes(s) >= s->smp_node_limit) {
            atomic_store_explicit(s->smp_stop, true, memory_order_relaxed);
            s->stopped = true;
            return;
        }
    }
    if (s->hard_ms && search_clock_running(s) && timeman_now_ms() - s->start_ms >= s->hard_ms)
        s->stopped = true;
}

static inline bool out_of_budget(Searcher *s) {
    if (s->stopped)
        return true;
    if (s->node_limit && s->nodes >= s->node_limit) {
        s->stopped = true;
        return true;
    }
    s->nodes++;
    if (stop_asked(s))
        s->stopped = true;
    else if ((s->nodes & s->poll_mask) == 0)
        poll_budget(s);
    return s->stopped;
}

// The material anchor of eval_material (search_params.def): cp_per_point cp for each point of
// the rules' count by which the side to move leads, Han's bonus left out.
static int material_anchor(const Board *b, int cp_per_point) {
    int half = rules_material_half(b, b->side) - rules_material_half(b, !b->side);
    return half * cp_per_point / 2;
}

// The static evaluation at ply: the net's on acc[ply] when s has one (with eval_material's
// anchor; blended with the classical one by eval_blend, or the variant's share), else the
// variant's classical evaluation; cached by key, clamped to +-EVAL_CLAMP.
static int static_eval(Searcher *s, int ply) {
    const Board *b = &s->board;
    if (s->net && s->nnue_check) {
        s->nnue_checked++;
        s->nnue_mismatches += !nnue_acc_matches(s, ply);
    }
    assert(!s->net || (s->nodes & 15) || nnue_acc_matches(s, ply));
    uint64_t key = board_key(b);
    bool cacheable = board_game_ply(b) <= b->variant->ply_limit - b->variant->eval->points_window;
    EvalCacheEntry *e = &s->eval_cache[key & (EVAL_CACHE_N - 1)];
    if (cacheable && e->key == key)
        return e->eval;
    int v;
    if (!s->net) {
        v = eval_evaluate(b);
    } else {
        // A net sees no ply: near the move limit it gets the evaluation's points term added,
        // in the net's units (net_scale_pct). A blend (eval_blend %) weighs that with the
        // classical evaluation, which counts the term itself, in the net's units
        // (blend_scale_pct): a weighted mean of the two, each with the points in its own way.
        v = nnue_evaluate(s->net, search_acc(s, ply), b->side, s->nnue_path);
        if (!cacheable)
            v += eval_ply_term(b) * s->params.net_scale_pct / 100;
        if (s->params.eval_material)
            v += material_anchor(b, s->params.eval_material);
        int w = search_params_eval_blend(&s->params, b->variant);
        if (w > 0) {
            int64_t classical = (int64_t)eval_evaluate(b) * s->params.blend_scale_pct;
            v = (int)(((int64_t)v * (100 - w) * 100 + classical * w) / 10000);
        }
    }
    v = v > EVAL_CLAMP ? EVAL_CLAMP : v < -EVAL_CLAMP ? -EVAL_CLAMP : v;
    if (cacheable) {
        e->key = key;
        e->eval = v;
    }
    return v;
}

// ---------------------------------------------------------------------------------------
// The principal variation, and the root node: what negamax does at ply 0 for the iteration
// that calls it (search_thread.c, search_root.c)

static void pv_update(Searcher *s, int ply, Move m) {
    s->pv[ply][0] = m;
    memcpy(&s->pv[ply][1], s->pv[ply + 1], sizeof(Move) * (size_t)s->pv_len[ply + 1]);
    s->pv_len[ply] = s->pv_len[ply + 1] + 1;
}

// Root move m, searched to the end, raised alpha to score: it becomes the iteration's best so
// far (iter_pv) if it is the last iteration's best move, the one already kept, or came after
// the last iteration's best move was searched to the end in this root search (so it scored
// above it); never for a MultiPV line searched without the lines found before it.
static void iteration_keep(Searcher *s, Move m, Score score) {
    bool prev = !s->done.pv_len || m == s->done.pv[0];
    bool same = s->iter_pv_len && m == s->iter_pv[0];
    if (s->nroot_excluded || (!prev && !same && !s->iter_prev_done))
        return;
    s->iter_score = score;
    s->iter_pv_len = s->pv_len[0];
    memcpy(s->iter_pv, s->pv[0], sizeof(Move) * (size_t)s->pv_len[0]);
}

// The PV of a pass that ends the game: the pass alone.
static void pv_set_pass(Searcher *s, int ply, Move pass) {
    s->pv_len[ply + 1] = 0;
    pv_update(s, ply, pass);
}

// Whether the root may play m: one of go searchmoves' (when given) and not the first move of a
// line found before in this iteration (MultiPV).
static bool root_move_ok(const Searcher *s, Move m) {
    for (int i = 0; i < s->nroot_excluded; i++)
        if (s->root_excluded[i] == m)
            return false;
    if (!s->nroot_allowed)
        return true;
    for (int i = 0; i < s->nroot_allowed; i++)
        if (s->root_allowed[i] == m)
            return true;
    return false;
}

// Reports the root move the main thread starts to search, once the search has run long enough
// for a GUI to want to see it.
static void report_currmove(Searcher *s, Move m, int number) {
    int64_t elapsed = timeman_now_ms() - s->start_ms;
    if (elapsed < SEARCH_CURRMOVE_MS)
        return;
    SearchInfo info = {.kind = SEARCH_INFO_CURRMOVE,
                       .depth = s->root_depth,
                       .nodes = search_smp_nodes(s),
                       .time_ms = elapsed,
                       .currmove = m,
                       .currmovenumber = number};
    s->on_info(&info, s->info_arg);
}

// Reports a reply at ply 1 (SearchLimits.trace_replies): the main thread's treatment of the
// opponent's answer m to the root move, the number-th legal move tried at its node of depth.
static void report_reply(Searcher *s, Move m, int number, int depth, int reduction,
                         int searched_depth, bool pruned, int v) {
    SearchInfo info = {.kind = SEARCH_INFO_REPLY,
                       .depth = s->root_depth,
                       .nodes = s->nodes,
                       .time_ms = timeman_now_ms() - s->start_ms,
                       .score = (Score)v,
                       .currmove = m,
                       .currmovenumber = number,
                       .root_move = s->trace_root,
                       .node_depth = depth,
                       .reduction = reduction,
                       .searched_depth = searched_depth,
                       .pruned = pruned};
    s->on_info(&info, s->info_arg);
}

// The bound a node stores its score with: bound, or with rep_tt BOUND_NONE (the move alone, no
// score) where a repetition end was met below the node (rep_met): a repetition's score, a
// perpetual check's loss or a points decision, belongs to the game's history, which the TT key
// leaves out, and through the bounds it sets it may reach every score of the subtree. Stored as
// decided under the position's key it would be taken on another path where the position does not
// repeat. Leaving the score out is the safe choice (Stockfish stores its repetition draws as
// scores; a draw's 0 misleads less than a decided janggi end); the move still orders the moves.
static inline Bound tt_bound(const SearchParams *sp, Bound bound, bool rep_met) {
    return sp->rep_tt && rep_met ? BOUND_NONE : bound;
}

// ---------------------------------------------------------------------------------------
// Quiescence: captures, standing pat on the static evaluation, except when in check (every
// evasion) or when a quiet move may end the game (every move: standing pat would assume a
// quiet move that keeps the game going, which may not exist). A pass that ends the game is
// scored as that end first (pass_end_score), as the best of the quiet moves it stands for.
// In its first qs_check_plies plies (qdepth 0, -1, ...) quiescence also tries the quiet moves
// that give check and do not lose by SEE, unless the stand pat is too far below alpha for a
// quiet move to matter: the reply is searched in check, every evasion, so a mate next to the
// leaves is seen. Deeper plies try captures only, which caps the checks; a node that tries
// them keys its TT entry apart (QS_CHECKS_KEY), as its value is not a captures-only one.

static int qsearch(Searcher *s, int alpha, int beta, int ply, int qdepth) {
    Board *b = &s->board;
    s->pv_len[ply] = 0;
    if (out_of_budget(s))
        return 0;
    int end;
    if (ply > 0 && game_end_score(s, ply, &end))
        return end;
    if (ply > s->seldepth)
        s->seldepth = ply;
    if (ply >= MAX_PLY - 1)
        return static_eval(s, ply);
    static const uint64_t QS_CHECKS_KEY = 0x8cb92ba72f3d8dd7ull;
    const bool pv_node = beta - alpha > 1;
    bool in_check = board_in_check(b), all = in_check || search_quiet_move_may_end(b);
    // Whether this node tries quiet checks, but for the stand pat (known below): the key must
    // not depend on the window.
    const bool checks_ply = !all && qdepth > -s->params.qs_check_plies;
    const uint64_t key = node_key(b, s->after_null[ply]) ^ (checks_ply ? QS_CHECKS_KEY : 0);
    TTEntry tt_entry;
    const TTEntry *tte = !s->tt_off && tt_probe(s->tt, key, &tt_entry) ? &tt_entry : NULL;
    Move tt_move = MOVE_NONE;
    if (tte) {
        int tts = score_from_tt(tte->score, ply);
        Bound bd = (Bound)(tte->gen_bound & 3);
        if (!pv_node && (bd == BOUND_EXACT || (bd == BOUND_LOWER && tts >= beta) ||
                         (bd == BOUND_UPPER && tts <= alpha)))
            return tts;
        tt_move = tte->move;
    }
    int best = -SCORE_INFINITE, stand = -SCORE_INFINITE, old_alpha = alpha;
    Move best_move = MOVE_NONE;
    int raw = TT_EVAL_NONE;
    const uint64_t reps = s->rep_ends;
    const bool tt_pv = s->params.ttpv && (pv_node || (tte && tte->pv));
    if (!all)
        best = stand = search_prune_tt_eval(
            s, tte, ply, search_order_corrected_eval(s, raw = static_eval(s, ply)));
    if (!s->after_null[ply] && pass_end_score(s, ply, &end) && end > best) {
        best = end;
        best_move = move_make(b->general[b->side], b->general[b->side]);
    }
    if (best >= beta)
        return best;
    if (best > alpha) {
        alpha = best;
        if (best_move != MOVE_NONE)
            pv_set_pass(s, ply, best_move);
    }
    ScoredMoves sm;
    search_order_moves(s, &sm, tt_move, ply, all ? GEN_ALL : GEN_CAPTURES, false);
    if (checks_ply && !search_prune_qs_checks_futile(s, stand, alpha))
        search_order_add_checks(s, &sm, tt_move);
    int played = 0;
    for (Move m; (m = search_order_next(&sm)) != MOVE_NONE;) {
        if (!all && search_prune_qs_futile(s, b, m, stand, alpha))
            continue;
        // A capture or check that loses material by SEE is not tried either: the exchange it
        // starts would end below the stand-pat score.
        if (!all && !see_ge(b, m, 0))
            continue;
        if (!movegen_is_legal(b, m))
            continue;
        played++;
        search_make_move(s, m, ply);
        int v = -qsearch(s, -beta, -alpha, ply + 1, qdepth - 1);
        board_unmake(b);
        if (s->stopped)
            return 0;
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                best_move = m;
                pv_update(s, ply, m);
                if (v >= beta)
                    break;
            }
        }
    }
    if (in_check && played == 0)
        return -score_win(ply, SCORE_END_MATE);
    if (s->tt_off)
        return best;
    Bound bound = best >= beta ? BOUND_LOWER : alpha > old_alpha ? BOUND_EXACT : BOUND_UPPER;
    tt_store(s->tt, key, best_move, score_to_tt(best, ply), raw, 0,
             tt_bound(&s->params, bound, reps != s->rep_ends), tt_pv);
    return best;
}

// cut_node: an expected cut node (lmr_cut), passed down as Stockfish does: a PV node's first
// child and PV re-searches are none, a reduced child is one, a full-depth zero-window child and
// the null move's and ProbCut's are the opposite of their parent, the singular search the same.
static int negamax(Searcher *s, int alpha, int beta, int depth, int ply, bool null_ok,
                   bool cut_node) {
    Board *b = &s->board;
    const SearchParams *sp = &s->params;
    const bool pv_node = beta - alpha > 1, root = ply == 0;
    s->pv_len[ply] = 0;
    if (root)
        s->iter_prev_done = false;
    // 1. Game ends by the rules page, and mate-distance bounds.
    if (!root) {
        int end;
        if (game_end_score(s, ply, &end))
            return end;
        // Nothing here scores below being mated here, or above a mate on the next ply (mate is
        // the first kind).
        if (alpha < -score_win(ply, SCORE_END_MATE))
            alpha = -score_win(ply, SCORE_END_MATE);
        if (beta > score_win(ply + 1, SCORE_END_MATE))
            beta = score_win(ply + 1, SCORE_END_MATE);
        if (alpha >= beta)
            return alpha;
    }
    // 2. Check extension: a side in check gets one more ply to answer it; with spite_ext only a
    // check that does not lose material or is discovered (the move's node said: check_ext_ok).
    const bool in_check = board_in_check(b);
    depth +=
        search_prune_check_extension(in_check, ply, !sp->spite_ext || root || s->check_ext_ok[ply]);
    if (depth <= 0)
        return qsearch(s, alpha, beta, ply, 0);
    if (out_of_budget(s))
        return 0;
    if (ply > s->seldepth)
        s->seldepth = ply;
    if (ply >= MAX_PLY - 1)
        return static_eval(s, ply);

    // 3. Transposition table: cut-offs outside PV nodes, and the move to try first. A singular
    // extension's search of this node without one move keys its entries apart.
    static const uint64_t EXCLUDED_KEY = 0x7a1f3c5e9b2d4f61ull;
    const Move excluded = s->excluded[ply];
    const uint64_t key =
        node_key(b, s->after_null[ply]) ^ (excluded ? EXCLUDED_KEY * (uint64_t)excluded : 0);
    // The TT's move is only a hint: it is tried first when the move generator produces it
    // (search_order_moves) and played only if legal, so a key collision or another thread's
    // entry cannot make the search play an illegal move.
    TTEntry tt_entry;
    const TTEntry *tte = tt_probe(s->tt, key, &tt_entry) ? &tt_entry : NULL;
    Move tt_move = MOVE_NONE;
    int eval, raw_eval = TT_EVAL_NONE;
    // The node is or was on a PV (ttpv; without it, the PV nodes).
    const bool tt_pv = pv_node || (sp->ttpv && tte && tte->pv);
    // Repetition ends met from here on are below this node (rep_tt).
    const uint64_t reps = s->rep_ends;
    if (tte) {
        tt_move = tte->move;
        int tts = score_from_tt(tte->score, ply);
        Bound bd = (Bound)(tte->gen_bound & 3);
        if (!pv_node && tte->depth - 1 >= depth &&
            (bd == BOUND_EXACT || (bd == BOUND_LOWER && tts >= beta) ||
             (bd == BOUND_UPPER && tts <= alpha)))
            return tts;
    }
    if (in_check)
        eval = -SCORE_INFINITE;
    else
        eval = search_order_corrected_eval(
            s, raw_eval = tte && tte->eval != TT_EVAL_NONE ? tte->eval : static_eval(s, ply));
    s->eval_stack[ply] = eval;
    // Improving: the static eval rose since our previous move; prune less when it did.
    const bool improving =
        !in_check && (ply >= 2 ? eval > s->eval_stack[ply - 2] : sp->improving_root);
    // What the pruning steps trust: the static evaluation, or a TT bound that says more.
    const int prune_eval = in_check ? eval : search_prune_tt_eval(s, tte, ply, eval);
    // Internal iterative reduction: a node without a TT move is searched one ply shallower.
    depth -= search_prune_iir(sp, depth, tt_move, in_check);
    s->killers[ply + 1][0] = s->killers[ply + 1][1] = MOVE_NONE;

    // 4. A pass that ends the game is scored as that end, before anything can cut or prune it:
    // its score bounds the node from below, and the move loop leaves the pass out.
    int best = -SCORE_INFINITE, old_alpha = alpha, pass_score;
    Move best_move = MOVE_NONE;
    const bool after_null = s->after_null[ply];
    // At a root with moves left out (searchmoves, MultiPV) the pass may be one of them.
    const bool root_restricted = root && (s->nroot_allowed || s->nroot_excluded);
    const Move pass = move_make(b->general[b->side], b->general[b->side]);
    const bool pass_ok = (!root_restricted || root_move_ok(s, pass)) && pass != excluded;
    const bool pass_ends = !after_null && pass_ok && pass_end_score(s, ply, &pass_score);
    if (pass_ends) {
        best = pass_score;
        if (best > alpha) {
            alpha = best;
            best_move = move_make(b->general[b->side], b->general[b->side]);
            pv_set_pass(s, ply, best_move);
            if (root)
                iteration_keep(s, best_move, best);
        }
        if (best >= beta)
            return best;
    }

    // 5. Reverse futility and null move (the pass) outside PV nodes. Reverse futility trusts
    // the static evaluation, so not where a quiet move may end the game. Neither cuts when beta
    // is a decided score: a static evaluation or a null-move search cannot prove that a mate
    // (or any game end) is no nearer than beta says, so cutting there would let a line with a
    // later mate stand where a sooner one exists.
    if (!pv_node && !in_check && !score_is_decided(beta) && !excluded) {
        // Razoring: far below alpha near the leaves, quiescence decides a fail low.
        if (search_prune_razor(s, b, depth, prune_eval, alpha)) {
            int v = qsearch(s, alpha, alpha + 1, ply, 0);
            if (s->stopped)
                return 0;
            if (v <= alpha)
                return v;
        }
        if (search_prune_reverse_futility(s, b, depth, prune_eval, improving, beta))
            return prune_eval;
        if (search_prune_null_move(sp, b, null_ok, depth, prune_eval, beta)) {
            int r = search_prune_null_reduction(sp, depth);
            search_make_move(s, move_make(b->general[b->side], b->general[b->side]), ply);
            s->after_null[ply + 1] = true;
            int v = -negamax(s, -beta, -beta + 1, depth - 1 - r, ply + 1, false, !cut_node);
            s->after_null[ply + 1] = false;
            board_unmake(b);
            if (s->stopped)
                return 0;
            if (v >= beta)
                return v >= SCORE_DECISIVE ? beta : v;
        }
        // ProbCut: a capture that wins no less than it gives (SEE >= 0) and holds beta +
        // pc_margin in quiescence and then in a search 4 plies shallower is taken to hold beta
        // here.
        const int pbeta = beta + search_margin(s, sp->pc_margin);
        if (search_prune_probcut(sp, tte, depth, ply, pbeta)) {
            ScoredMoves pm;
            // Captures only: a quiet TT move is not among them.
            search_order_moves(s, &pm, tt_move, ply, GEN_CAPTURES, false);
            s->check_ext_ok[ply + 1] = true; // its captures keep material (SEE >= 0)
            for (Move m; (m = search_order_next(&pm)) != MOVE_NONE;) {
                if (!movegen_is_legal(b, m) || !see_ge(b, m, 0))
                    continue;
                search_make_move(s, m, ply);
                int v = -qsearch(s, -pbeta, -pbeta + 1, ply + 1, 0);
                if (v >= pbeta && !s->stopped)
                    v = -negamax(s, -pbeta, -pbeta + 1, depth - 4, ply + 1, true, !cut_node);
                board_unmake(b);
                if (s->stopped)
                    return 0;
                if (v >= pbeta) {
                    tt_store(s->tt, key, m, score_to_tt(v, ply), raw_eval, depth - 3,
                             tt_bound(sp, BOUND_LOWER, reps != s->rep_ends), sp->ttpv && tt_pv);
                    return v;
                }
            }
        }
    }

    // 6. Singular extension: when the TT move holds a lower bound deep enough, search the node
    // without it, to a reduced depth, against a bound below the TT score. If every other move
    // fails low, the TT move alone holds the node: it is searched a ply deeper. If the others
    // reach even beta, several moves cut here and the node is cut (multi-cut); if only the TT
    // score does, the TT move is searched a ply shallower (the negative extension).
    int tt_ext = 0;
    if (search_prune_singular(sp, tte, tt_move, depth, root, excluded, pass_ends)) {
        int tts = score_from_tt(tte->score, ply);
        if (!score_is_decided(tts)) {
            int sbeta = search_prune_singular_beta(s, tts, depth);
            s->excluded[ply] = tt_move;
            int v = negamax(s, sbeta - 1, sbeta, (depth - 1) / 2, ply, false, cut_node);
            s->excluded[ply] = MOVE_NONE;
            s->pv_len[ply] = 0;
            if (s->stopped)
                return 0;
            if (v < sbeta)
                tt_ext = 1;
            else if (sbeta >= beta)
                return sbeta;
            else if (tts >= beta)
                tt_ext = -1;
        }
    }

    // 7. The moves: PVS with late move reductions and late move pruning of quiets.
    ScoredMoves sm;
    search_order_moves(s, &sm, tt_move, ply, GEN_ALL,
                       !in_check && !pass_ends && !after_null && pass_ok);
    Move quiets[MAX_MOVES], captures[MAX_MOVES];
    int nquiets = 0, ncaptures = 0, played = 0, tried = 0;
    const bool trace = ply == 1 && s->trace && s->on_info; // the replies to the root move
    for (Move m; (m = search_order_next(&sm)) != MOVE_NONE;) {
        if (root_restricted && !root_move_ok(s, m))
            continue;
        if (m == excluded)
            continue;
        if (!movegen_is_legal(b, m))
            continue;
        if (root && s->on_info)
            report_currmove(s, m, played + 1);
        if (root)
            s->trace_root = m;
        tried++;
        const uint64_t nodes_before = s->nodes;
        bool quiet = !search_is_capture(b, m);
        bool killer = m == s->killers[ply][0] || m == s->killers[ply][1];
        // Late move pruning and futility pruning of quiet moves near the leaves; a move that
        // gives check is always searched (it is made first to know).
        bool prunable =
            !pv_node && !in_check && quiet && best > -SCORE_DECISIVE && played &&
            search_prune_quiet_move(s, depth, played, improving, killer, prune_eval, alpha);
        // SEE pruning (see_prune), at PV nodes too, as Stockfish's.
        prunable = prunable || (sp->see_prune && !root && !in_check && best > -SCORE_DECISIVE &&
                                played && search_prune_see(s, b, m, quiet, depth, played));
        // lmr_captures: a late capture that loses by SEE is reduced as a quiet move is.
        const bool reducible =
            quiet || (sp->lmr_captures && depth >= 3 && played >= 3 && !see_ge(b, m, 0));
        int hist = quiet ? search_order_quiet_history(s, b, m, ply) : 0;
        search_make_move(s, m, ply);
        bool gives_check = board_in_check(b);
        if (sp->spite_ext && gives_check)
            s->check_ext_ok[ply + 1] = search_prune_check_earned(b, m);
        if (prunable && !gives_check) {
            board_unmake(b);
            if (trace)
                report_reply(s, m, tried, depth, 0, 0, true, 0);
            continue;
        }
        played++;
        int new_depth = depth - 1 + (m == tt_move ? tt_ext : 0), v, r = 0, searched = new_depth;
        if (played == 1)
            v = -negamax(s, -beta, -alpha, new_depth, ply + 1, true, !pv_node && !cut_node);
        else {
            r = depth >= 3 && played > 3 && reducible && !gives_check && !in_check
                    ? search_prune_reduction(s, depth, played, new_depth, hist, tt_pv, cut_node,
                                             killer, improving)
                    : 0;
            searched = new_depth - r;
            v = -negamax(s, -alpha - 1, -alpha, new_depth - r, ply + 1, true, r > 0 || !cut_node);
            if (v > alpha && r > 0)
                v = -negamax(s, -alpha - 1, -alpha, searched = new_depth, ply + 1, true, !cut_node);
            if (v > alpha && v < beta)
                v = -negamax(s, -beta, -alpha, searched = new_depth, ply + 1, true, false);
        }
        board_unmake(b);
        if (s->stopped)
            return 0;
        if (trace)
            report_reply(s, m, tried, depth, r, searched, false, v);
        if (root && s->done.pv_len && m == s->done.pv[0])
            s->iter_prev_done = true;
        if (quiet && nquiets < MAX_MOVES)
            quiets[nquiets++] = m;
        else if (!quiet && ncaptures < MAX_MOVES)
            captures[ncaptures++] = m;
        if (v <= best)
            continue;
        best = v;
        if (v <= alpha)
            continue;
        alpha = v;
        best_move = m;
        pv_update(s, ply, m);
        if (root) {
            s->root_best_nodes = s->nodes - nodes_before;
            iteration_keep(s, m, v);
        }
        if (v < beta)
            continue;
        // 8. A cut-off: the killers and the histories learn it (search_order_update_cut).
        search_order_update_cut(s, ply, depth, m, quiet, quiets, nquiets, captures, ncaptures);
        break;
    }
    // No legal move: mate in check, and without the pass (xiangqi) stalemate, lost as a mate
    // is; otherwise the pass, when it is not searched as a move: its game end (best), or after
    // the null move the static evaluation.
    // Without its excluded move a node may have none left: that says nothing of the node.
    if (played == 0 && excluded)
        return pass_ends ? best : alpha;
    if (played == 0 && (in_check || !b->variant->pass))
        return -score_win(ply, SCORE_END_MATE);
    if (played == 0 && !pass_ends)
        return eval;
    // A root that left moves out, or a node searched without its excluded move, scored a part
    // of the position's moves: not its value.
    if (root_restricted || excluded)
        return best;
    Bound bound = best >= beta ? BOUND_LOWER : alpha > old_alpha ? BOUND_EXACT : BOUND_UPPER;
    // hist_pv: a best move that raised alpha without a cut-off learns as a cut-off's does.
    if (sp->hist_pv && bound == BOUND_EXACT && best_move != MOVE_NONE)
        search_order_update_cut(s, ply, depth, best_move, !search_is_capture(b, best_move), quiets,
                                nquiets, captures, ncaptures);
    // prior_cm_bonus: no move raised alpha, so the opponent's move here was good: it learns.
    if (sp->prior_cm_bonus && played && best_move == MOVE_NONE && (depth >= 3 || pv_node))
        search_order_prior_bonus(s, ply, depth);
    // The correction history learns where the search's result bounds the evaluation's error:
    // out of check, a quiet best move (or none), not a bound on the wrong side of the eval.
    if (sp->corr_on && !in_check && !score_is_decided(best) &&
        (best_move == MOVE_NONE || !search_is_capture(b, best_move)) &&
        !(bound == BOUND_LOWER && best <= eval) && !(bound == BOUND_UPPER && best >= eval))
        search_order_corr_update(s, eval, best, depth);
    tt_store(s->tt, key, best_move, score_to_tt(best, ply), raw_eval, depth,
             tt_bound(sp, bound, reps != s->rep_ends), sp->ttpv && tt_pv);
    return best;
}

int search_negamax(Searcher *s, int alpha, int beta, int depth, int ply, bool null_ok) {
    return negamax(s, alpha, beta, depth, ply, null_ok, false);
}

int search_qsearch(Searcher *s, int alpha, int beta, int ply, int qdepth) {
    return qsearch(s, alpha, beta, ply, qdepth);
}

int search_static_eval(Searcher *s, int ply) { return static_eval(s, ply); }
