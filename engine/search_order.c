// SPDX-License-Identifier: MIT
// Move ordering and the histories (see search_order.h): the moves of a node scored, the histories
// cleared and aged, and the correction history of the static evaluation read and updated.
#include "search_order.h"

#include <string.h>

#include "see.h"
#include "zobrist.h"

static int mvv_lva(const Board *b, Move m) {
    return ORDER_VALUE[piece_kind(b->squares[move_to(m)])] * 64 -
           ORDER_VALUE[piece_kind(b->squares[move_from(m)])];
}

void search_order_moves(Searcher *s, ScoredMoves *sm, Move tt_move, int ply, GenType type,
                        bool with_pass) {
    Board *b = &s->board;
    MoveList list;
    movegen_pseudo(b, &list, type);
    if (with_pass)
        list.moves[list.count++] = move_make(b->general[b->side], b->general[b->side]);
    sm->count = list.count;
    sm->next = 0;
    const Move counter = search_order_countermove(s, ply);
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        int v;
        if (m == tt_move)
            v = ORDER_TT;
        else if (search_is_capture(b, m))
            v = (see_ge(b, m, 0) ? ORDER_CAPTURE : ORDER_BAD_CAPTURE) + mvv_lva(b, m) +
                (s->params.caph_on ? *search_order_capture_history(s, b, m) / 16 : 0);
        else if (m == s->killers[ply][0])
            v = ORDER_KILLER + 1;
        else if (m == s->killers[ply][1])
            v = ORDER_KILLER;
        else if (m == counter && counter != MOVE_NONE)
            v = ORDER_COUNTER;
        else
            v = search_order_quiet_history(s, b, m, ply);
        sm->moves[i] = m;
        sm->scores[i] = v;
    }
}

void search_order_add_checks(Searcher *s, ScoredMoves *sm, Move tt_move) {
    Board *b = &s->board;
    MoveList list;
    movegen_quiet_checks(b, &list);
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        sm->moves[sm->count] = m;
        sm->scores[sm->count++] =
            m == tt_move ? ORDER_TT : s->history[search_order_history_index(b, m)][move_to(m)];
    }
}

void search_order_clear(Searcher *s) {
    memset(s->history, 0, sizeof s->history);
    memset(s->corr_soldiers, 0, sizeof s->corr_soldiers);
    memset(s->corr_material, 0, sizeof s->corr_material);
    memset(s->cont_hist, 0, sizeof(ContHist) * PIECE_NB * SQUARE_NB);
    memset(s->capture_hist, 0, sizeof s->capture_hist);
    memset(s->killers, 0, sizeof s->killers);
    memset(s->countermoves, 0, sizeof s->countermoves);
}

void search_order_age(Searcher *s) {
    for (int p = 0; p < PIECE_NB; p++)
        for (int q = 0; q < SQUARE_NB; q++)
            s->history[p][q] /= 2;
    memset(s->killers, 0, sizeof s->killers);
}

// ---------------------------------------------------------------------------------------
// Correction history: the static evaluation plus what deeper searches of positions with the same
// soldiers' structure (a key of the soldiers' points) and the same material found it to miss.

// The keys of b's soldiers (their Zobrist keys) and of its material (each piece's count).
static void corr_keys(const Board *b, uint64_t *soldiers, uint64_t *material) {
    uint64_t k = 0, m = 0;
    for (int side = 0; side < SIDE_NB; side++) {
        Piece pc = piece_make((Side)side, SOLDIER);
        for (int i = 0; i < b->count[pc]; i++)
            k ^= zobrist.piece[pc][b->list[pc][i]];
    }
    for (int pc = 0; pc < PIECE_NB; pc++)
        m = (m ^ b->count[pc]) * 0x9e3779b97f4a7c15ull;
    *soldiers = k;
    *material = m ^ (m >> 29);
}

int search_order_correction(const Searcher *s, int raw) {
    uint64_t ks, km;
    corr_keys(&s->board, &ks, &km);
    Side us = s->board.side;
    int v =
        raw + (s->corr_soldiers[us][ks & (CORR_N - 1)] + s->corr_material[us][km & (CORR_N - 1)]) /
                  CORR_GRAIN;
    return v > EVAL_CLAMP ? EVAL_CLAMP : v < -EVAL_CLAMP ? -EVAL_CLAMP : v;
}

// More for deeper searches, with the history's gravity toward zero: the tables add up to the
// correction, each taking its share of the error left.
void search_order_corr_update(Searcher *s, int corrected, int best, int depth) {
    uint64_t ks, km;
    corr_keys(&s->board, &ks, &km);
    Side us = s->board.side;
    int w = depth + 1 < 16 ? depth + 1 : 16;
    int bonus = (best - corrected) * CORR_GRAIN * w / 64;
    bonus = bonus > CORR_MAX / 4 ? CORR_MAX / 4 : bonus < -CORR_MAX / 4 ? -CORR_MAX / 4 : bonus;
    int16_t *e[2] = {&s->corr_soldiers[us][ks & (CORR_N - 1)],
                     &s->corr_material[us][km & (CORR_N - 1)]};
    for (int i = 0; i < 2; i++)
        *e[i] = (int16_t)(*e[i] + bonus - *e[i] * abs(bonus) / CORR_MAX);
}
