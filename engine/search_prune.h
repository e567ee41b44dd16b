// SPDX-License-Identifier: MIT
// The search's pruning, reduction and extension decisions, one inline function a step, inside the
// search only (search_shared.h): negamax (search_tree.c) calls them in its numbered steps, and
// makes the searches they ask for itself. Each answers from the node's facts and the tunable
// constants (search_params.def); none searches, none changes the Searcher.
#pragma once

#include <math.h>
#include <stdlib.h>

#include "search_shared.h"
#include "see.h"

enum { QS_DELTA_PER_ORDER = 100 }; // cp per unit of ORDER_VALUE in delta pruning

// cp of the classical evaluation per exchange half point of SEE (see.h), for SEE pruning's
// margins: a chariot is 1,267-1,396 cp over 26 half points in janggi, 987-1,121 over 18 in xiangqi.
enum { SEE_CP_PER_HALF = 50 };

/// Fills the late move reduction table: reductions grow with the log of depth and of the move
/// number (lmr_base, lmr_div in hundredths).
static inline void search_prune_lmr_init(uint8_t lmr[LMR_N][LMR_N], const SearchParams *sp) {
    for (int d = 1; d < LMR_N; d++)
        for (int m = 1; m < LMR_N; m++)
            lmr[d][m] = (uint8_t)(sp->lmr_base / 100.0 + log(d) * log(m) / (sp->lmr_div / 100.0));
}

/// Step 2, check extension: a side in check gets one more ply to answer it (the plies it
/// extends: 1 or 0); with spite_ext only when the check earned it (earned: check_ext_ok).
static inline int search_prune_check_extension(bool in_check, int ply, bool earned) {
    return in_check && ply < MAX_PLY / 2 && earned;
}

/// spite_ext: whether move m, just made by the node at ply - 1 and giving check, earns the check
/// extension: the check stands with m's piece lifted off its point (a discovered check: another
/// piece gives it), or m does not lose material by SEE (>= 0), as Stockfish 11 extends checks.
/// b is changed during the call (m unmade and made again) and restored.
static inline bool search_prune_check_earned(Board *b, Move m) {
    const Square to = move_to(m);
    const Piece mover = b->squares[to];
    if (piece_kind(mover) == GENERAL)
        return true; // a general gives no check itself: another piece does
    b->squares[to] = EMPTY;
    bool discovered = board_general_attacked(b, b->side);
    b->squares[to] = mover;
    if (discovered)
        return true;
    board_unmake(b);
    bool earned = see_ge(b, m, 0);
    board_make(b, m);
    return earned;
}

/// Step 3, internal iterative reduction: a node without a TT move is searched one ply shallower
/// (the plies it reduces: 1 or 0).
static inline int search_prune_iir(const SearchParams *sp, int depth, Move tt_move, bool in_check) {
    return depth >= sp->iir_depth && tt_move == MOVE_NONE && !in_check;
}

/// The evaluation the pruning steps and quiescence's stand pat trust (tt_eval): the static
/// evaluation eval, or the score of the node's TT entry tte (NULL: none) where its bound says
/// the node is better (a lower bound above eval) or worse (an upper bound below it), as
/// Stockfish's search does; never a decided score, which the pruning steps do not take.
static inline int search_prune_tt_eval(const Searcher *s, const TTEntry *tte, int ply, int eval) {
    if (!s->params.tt_eval || !tte)
        return eval;
    int tts = score_from_tt(tte->score, ply);
    if (score_is_decided(tts))
        return eval;
    return (tte->gen_bound & (tts > eval ? BOUND_LOWER : BOUND_UPPER)) ? tts : eval;
}

/// Step 5, reverse futility: outside PV nodes, out of check, near the leaves, a static evaluation
/// eval that stands a margin per ply above beta is taken to hold beta. The margin shrinks by a
/// ply when improving; not where a quiet move may end the game (the evaluation assumes it goes
/// on), nor on a decided eval.
static inline bool search_prune_reverse_futility(const Searcher *s, const Board *b, int depth,
                                                 int eval, bool improving, int beta) {
    const SearchParams *sp = &s->params;
    return depth <= sp->rfp_depth &&
           eval - search_margin(s, sp->rfp_margin) * (depth - improving) >= beta &&
           abs(eval) < SCORE_DECISIVE && !search_quiet_move_may_end(b);
}

// The null move is the pass given as a tempo: the opponent moves twice, and may not pass back
// (after_null), which would only undo it, or, by the double-pass rule, end the game on points
// and so measure the point count instead of the position. Its score is thus the usual null-move
// estimate, not the pass's value: the real pass, with its game ends, is scored in the move loop
// (or by pass_end_score). It is skipped where passing is not an ordinary move: in check (a pass
// is illegal); after a pass (our pass would end the game by two passes); when a bikjang stands
// (a pass leaves the generals facing and ends the game); near the 200-ply limit (the reduced
// search would cross the limit at another depth than the real one).
static inline bool search_prune_null_move_allowed(const Board *b, int depth) {
    const StateInfo *st = board_state(b);
    return !st->in_check && !move_is_pass(st->move) && !search_bikjang_pending(b) &&
           board_game_ply(b) + depth + 2 < b->variant->ply_limit;
}

/// Where a variant has no pass (xiangqi), a side may be in zugzwang, where giving the move
/// away scores better than any move: with nmp_guard on, the null move needs a chariot, cannon or
/// horse of the side to move (as Stockfish asks for non-pawn material). Janggi can always pass.
static inline bool search_prune_zugzwang_safe(const SearchParams *sp, const Board *b) {
    return b->variant->pass || !sp->nmp_guard || board_count(b, b->side, CHARIOT) ||
           board_count(b, b->side, CANNON) || board_count(b, b->side, HORSE);
}

/// Step 5, razoring (razor): outside PV nodes and out of check, at depth 1 or 2, an evaluation
/// eval that stands razor_margin per ply at or below alpha drops the node into quiescence, whose
/// fail low is taken for the node's (Stockfish 11 and Ethereal razor at depth 1, Berserk deeper
/// with the same check). Not on a decided alpha, nor where a quiet move may end the game.
static inline bool search_prune_razor(const Searcher *s, const Board *b, int depth, int eval,
                                      int alpha) {
    const SearchParams *sp = &s->params;
    return sp->razor && depth <= 2 && eval + search_margin(s, sp->razor_margin) * depth <= alpha &&
           !score_is_decided(alpha) && !search_quiet_move_may_end(b);
}

/// Step 5, null move: tried (null_ok: not right after one) deep enough, where the static
/// evaluation already holds beta, a pass is an ordinary move here and no zugzwang is feared.
static inline bool search_prune_null_move(const SearchParams *sp, const Board *b, bool null_ok,
                                          int depth, int eval, int beta) {
    return null_ok && depth >= sp->nmp_depth && eval >= beta &&
           search_prune_null_move_allowed(b, depth) && search_prune_zugzwang_safe(sp, b);
}

/// The null move's reduction (plies), beside the ply it spends.
static inline int search_prune_null_reduction(const SearchParams *sp, int depth) {
    return sp->nmp_base + depth / sp->nmp_div;
}

/// Step 5, ProbCut: a capture that holds pbeta = beta + pc_margin in quiescence and in a search
/// 4 plies shallower is taken to hold beta. Tried deep enough, off decided bounds, and not where
/// the TT (tte, may be NULL) already says, as deep, that the node stays below pbeta (a score
/// of a move-only entry, BOUND_NONE, says nothing: rep_tt).
static inline bool search_prune_probcut(const SearchParams *sp, const TTEntry *tte, int depth,
                                        int ply, int pbeta) {
    return sp->pc_depth && depth >= sp->pc_depth && !score_is_decided(pbeta) &&
           !(tte && (tte->gen_bound & 3) != BOUND_NONE && tte->depth - 1 >= depth - 3 &&
             score_from_tt(tte->score, ply) < pbeta);
}

/// Step 6, singular extension: worth testing when the TT move (tt_move, of entry tte) holds a
/// lower bound (or an exact score) deep enough, out of the root, a search without a move and a
/// pass that ends the game (pass_ends).
static inline bool search_prune_singular(const SearchParams *sp, const TTEntry *tte, Move tt_move,
                                         int depth, bool root, Move excluded, bool pass_ends) {
    return sp->se_depth && !root && depth >= sp->se_depth && tte && tt_move != MOVE_NONE &&
           !excluded && !pass_ends && (tte->gen_bound & BOUND_LOWER) && tte->depth - 1 >= depth - 3;
}

/// The bound below the TT score tts that every other move must fail under for the TT move to be
/// singular.
static inline int search_prune_singular_beta(const Searcher *s, int tts, int depth) {
    return tts - search_margin(s, s->params.se_mult) * depth;
}

/// Step 7, late move pruning and futility pruning of a quiet move near the leaves (the caller
/// asks only outside PV nodes, out of check, for a quiet move after the first move, while not
/// every line is lost): once played moves are searched (more when improving), or, for a move
/// that is no killer, when the evaluation eval with a margin per ply stays below alpha.
static inline bool search_prune_quiet_move(const Searcher *s, int depth, int played, bool improving,
                                           bool killer, int eval, int alpha) {
    const SearchParams *sp = &s->params;
    return depth <= sp->prune_depth &&
           (played >= sp->lmp_base + (sp->lmp_scale + improving) * depth * depth ||
            (!killer &&
             eval + search_margin(s, sp->fp_base) + search_margin(s, sp->fp_margin) * depth <=
                 alpha));
}

/// Step 7, SEE pruning (see_prune; the caller asks after the first move, out of check, off the
/// root, while not every line is lost, and searches a move that gives check all the same): a
/// quiet move m whose SEE loses more than see_quiet_margin per square of its LMR depth, or a
/// capture losing more than see_capture_margin per ply of depth, is not searched (Stockfish 11's
/// shape). b is changed during the call and restored.
static inline bool search_prune_see(const Searcher *s, Board *b, Move m, bool quiet, int depth,
                                    int played) {
    const SearchParams *sp = &s->params;
    int cp;
    if (quiet) {
        int d =
            depth - 1 -
            s->lmr[depth < LMR_N ? depth : LMR_N - 1][played + 1 < LMR_N ? played + 1 : LMR_N - 1];
        d = d < 0 ? 0 : d;
        cp = sp->see_quiet_margin * d * d;
    } else
        cp = sp->see_capture_margin * depth;
    return !see_ge(b, m, -cp / SEE_CP_PER_HALF);
}

/// Step 7, late move reduction of the played-th move (the caller asks for quiet moves, and with
/// lmr_captures captures that lose by SEE, that give no check, out of check, from the fourth move
/// on, 3 plies or more from the leaves): the table's, less at PV nodes (with ttpv at nodes that
/// were on a PV: tt_pv), for killers and for a good history hist, more when not improving and,
/// with lmr_cut, at an expected cut node; at most new_depth - 1, at least 0.
static inline int search_prune_reduction(const Searcher *s, int depth, int played, int new_depth,
                                         int hist, bool tt_pv, bool cut_node, bool killer,
                                         bool improving) {
    int r = s->lmr[depth < LMR_N ? depth : LMR_N - 1][played < LMR_N ? played : LMR_N - 1];
    r -= tt_pv;
    r += s->params.lmr_cut && cut_node;
    r -= killer;
    r += !improving;
    r -= hist / s->params.lmr_hist_div;
    return r < 0 ? 0 : r > new_depth - 1 ? new_depth - 1 : r;
}

/// Quiescence: quiet checks are not worth trying when the stand pat stands too far below
/// alpha (qs_check_margin) for a quiet move to matter; never with qs_checks_all.
static inline bool search_prune_qs_checks_futile(const Searcher *s, int stand, int alpha) {
    return !s->params.qs_checks_all && stand + search_margin(s, s->params.qs_check_margin) <= alpha;
}

/// Quiescence, delta pruning: a capture that cannot lift the score to alpha even with a margin
/// (a search margin in cp, not an evaluation weight) is not tried; nor a quiet check once alpha
/// has risen too far above the stand pat (a quiet move here is one of the checks of a checks
/// ply).
static inline bool search_prune_qs_futile(const Searcher *s, const Board *b, Move m, int stand,
                                          int alpha) {
    if (!search_is_capture(b, m))
        return search_prune_qs_checks_futile(s, stand, alpha);
    int gain = QS_DELTA_PER_ORDER * ORDER_VALUE[piece_kind(b->squares[move_to(m)])];
    return stand + search_margin(s, gain + s->params.qs_delta_margin) <= alpha;
}
