// SPDX-License-Identifier: MIT
// Move ordering and the histories that drive it (search_order.c), inside the search only
// (search_shared.h): moves scored TT move first, then good captures by MVV-LVA, killers, quiet
// moves by history, bad captures; the butterfly, continuation and capture histories and the
// killers updated at a cut-off; the correction history of the static evaluation. What a node
// calls per move is inline here.
#pragma once

#include <stdlib.h>

#include "search_shared.h"

// A capture that loses material by SEE comes after the quiet moves (whose history scores stay
// within +-HISTORY_MAX), still in MVV-LVA order among the bad captures.
enum {
    ORDER_TT = 1 << 30,
    ORDER_CAPTURE = 1 << 24,
    ORDER_KILLER = 1 << 22,
    ORDER_COUNTER = ORDER_KILLER - 1, // after the killers, before the quiet moves' histories
    ORDER_BAD_CAPTURE = -(1 << 20)
};

enum {
    HISTORY_MAX = 16384,
    CORR_GRAIN = 256,   // a correction's units per cp
    CORR_MAX = 64 * 256 // |correction| at most 64 cp
};

/// A node's moves with their ordering scores; search_order_next hands them out best first.
typedef struct ScoredMoves {
    Move moves[MAX_MOVES];
    int scores[MAX_MOVES];
    int count, next;
} ScoredMoves;

/// Generates s->board's moves (all, with the pass when with_pass, or captures only: type) and
/// scores them for the node at ply, tt_move first.
void search_order_moves(Searcher *s, ScoredMoves *sm, Move tt_move, int ply, GenType type,
                        bool with_pass);

/// Appends the quiet checks to sm's captures, after the good ones (history order among them):
/// quiescence's first plies.
void search_order_add_checks(Searcher *s, ScoredMoves *sm, Move tt_move);

/// The best remaining move of sm (a selection sort step), MOVE_NONE when none is left.
static inline Move search_order_next(ScoredMoves *sm) {
    if (sm->next >= sm->count)
        return MOVE_NONE;
    int best = sm->next;
    for (int i = sm->next + 1; i < sm->count; i++)
        if (sm->scores[i] > sm->scores[best])
            best = i;
    Move m = sm->moves[best];
    int v = sm->scores[best];
    sm->moves[best] = sm->moves[sm->next];
    sm->scores[best] = sm->scores[sm->next];
    sm->moves[sm->next] = m;
    sm->scores[sm->next++] = v;
    return m;
}

/// The continuation table of the node at ply for the move `back` plies before it (1 or 2): the
/// table of what follows that move; the no-move table before the root.
static inline ContHist *search_order_cont(const Searcher *s, int ply, int back) {
    int p = ply - back;
    return p < 0 ? &s->cont_hist[0] : &s->cont_hist[s->moved_piece[p] * SQUARE_NB + s->moved_to[p]];
}

/// A quiet move's history: the butterfly history, and with ch_on the continuation histories of
/// the moves one and two plies before.
static inline int search_order_quiet_history(const Searcher *s, const Board *b, Move m, int ply) {
    int pc = move_is_pass(m) ? 0 : b->squares[move_from(m)], to = move_to(m);
    int h = s->history[pc][to];
    if (s->params.ch_on)
        h += (*search_order_cont(s, ply, 1))[pc][to] + (*search_order_cont(s, ply, 2))[pc][to];
    return h;
}

/// The capture history entry of capture m of b (caph_on).
static inline int16_t *search_order_capture_history(Searcher *s, const Board *b, Move m) {
    return &s->capture_hist[b->squares[move_from(m)]][move_to(m)]
                           [piece_kind(b->squares[move_to(m)])];
}

/// The history's index of m's piece: the mover, 0 for the pass.
static inline int search_order_history_index(const Board *b, Move m) {
    return move_is_pass(m) ? 0 : b->squares[move_from(m)];
}

/// The counter-move of the node at ply (countermove): the quiet reply that last cut after the
/// opponent's move to this node, MOVE_NONE when off, at the root or after a pass or null move.
static inline Move search_order_countermove(const Searcher *s, int ply) {
    if (!s->params.countermove || ply == 0 || s->moved_piece[ply - 1] == EMPTY)
        return MOVE_NONE;
    return s->countermoves[s->moved_piece[ply - 1]][s->moved_to[ply - 1]];
}

/// The history's gravity: h moves by bonus, less the nearer |h| stands to HISTORY_MAX.
static inline void search_order_history_update(int *h, int bonus) {
    *h += bonus - *h * abs(bonus) / HISTORY_MAX;
}

/// The same gravity on a 16-bit entry (|h| stays within HISTORY_MAX).
static inline void search_order_history_update16(int16_t *h, int bonus) {
    int v = *h;
    *h = (int16_t)(v + bonus - v * abs(bonus) / HISTORY_MAX);
}

/// A cut-off's history bonus at depth: min(d^2, 400), or with hist_bonus Stockfish 11's
/// 19 d^2 + 155 d - 132, within 0..4000 (search_params.def).
static inline int search_order_history_bonus(const SearchParams *sp, int depth) {
    if (!sp->hist_bonus)
        return depth * depth < 400 ? depth * depth : 400;
    int b = 19 * depth * depth + 155 * depth - 132;
    return b < 0 ? 0 : b > 4000 ? 4000 : b;
}

/// Move m cut the node at ply, searched depth plies deep, after quiets[0..nquiets-1] and
/// captures[0..ncaptures-1] (m among them): a quiet m becomes a killer and gains history (and
/// continuation history), the quiets tried before it lose some; with capture history a capture
/// that cuts gains and the captures tried before lose.
static inline void search_order_update_cut(Searcher *s, int ply, int depth, Move m, bool quiet,
                                           const Move *quiets, int nquiets, const Move *captures,
                                           int ncaptures) {
    const Board *b = &s->board;
    int bonus = search_order_history_bonus(&s->params, depth);
    if (quiet) {
        if (s->killers[ply][0] != m) {
            s->killers[ply][1] = s->killers[ply][0];
            s->killers[ply][0] = m;
        }
        if (s->params.countermove && ply > 0 && s->moved_piece[ply - 1] != EMPTY)
            s->countermoves[s->moved_piece[ply - 1]][s->moved_to[ply - 1]] = m;
        for (int i = 0; i < nquiets; i++) {
            int pc = search_order_history_index(b, quiets[i]), to = move_to(quiets[i]);
            int bq = quiets[i] == m ? bonus : -bonus;
            search_order_history_update(&s->history[pc][to], bq);
            if (s->params.ch_on) {
                search_order_history_update16(&(*search_order_cont(s, ply, 1))[pc][to], bq);
                search_order_history_update16(&(*search_order_cont(s, ply, 2))[pc][to], bq);
            }
        }
    }
    if (s->params.caph_on)
        for (int i = 0; i < ncaptures; i++)
            search_order_history_update16(search_order_capture_history(s, b, captures[i]),
                                          captures[i] == m ? bonus : -bonus);
}

/// prior_cm_bonus: no move of the node at ply, searched depth plies deep, raised alpha, so the
/// opponent's move that led here (of ply - 1) was a good one: when it was quiet (not a capture,
/// pass or null move) its history, and with ch_on its continuation histories, gain a cut-off's
/// bonus (Stockfish 11's bonus for the prior counter-move that caused the fail low).
static inline void search_order_prior_bonus(Searcher *s, int ply, int depth) {
    const Board *b = &s->board;
    if (ply == 0 || s->moved_piece[ply - 1] == EMPTY || board_state(b)->captured != EMPTY)
        return;
    int pc = s->moved_piece[ply - 1], to = s->moved_to[ply - 1];
    int bonus = search_order_history_bonus(&s->params, depth);
    search_order_history_update(&s->history[pc][to], bonus);
    if (s->params.ch_on) {
        search_order_history_update16(&(*search_order_cont(s, ply - 1, 1))[pc][to], bonus);
        search_order_history_update16(&(*search_order_cont(s, ply - 1, 2))[pc][to], bonus);
    }
}

/// Forgets every history, the correction history and the killers (a new game).
void search_order_clear(Searcher *s);

/// At a search's start: the butterfly history halves, the killers go.
void search_order_age(Searcher *s);

/// raw corrected by the correction history's two tables (corr_on), clamped as static
/// evaluations are.
int search_order_correction(const Searcher *s, int raw);

/// The static evaluation raw, corrected when corr_on (search_order_correction); raw else.
static inline int search_order_corrected_eval(const Searcher *s, int raw) {
    return s->params.corr_on ? search_order_correction(s, raw) : raw;
}

/// Moves the correction history by what a search of depth plies found the corrected evaluation
/// to miss (best - corrected).
void search_order_corr_update(Searcher *s, int corrected, int best, int depth);
