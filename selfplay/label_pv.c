// SPDX-License-Identifier: MIT
// The PV ends of a labelling run, walked, searched and stored (label_pv.h).
#include "label_pv.h"

#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "game_driver.h"
#include "h5store.h"
#include "movegen.h"
#include "rules.h"

void label_pv_capture(const SearchInfo *info, void *arg) {
    LabelPv *pv = arg;
    if (info->kind != SEARCH_INFO_LINE || info->multipv > 1)
        return;
    pv->len = info->pv_len;
    memcpy(pv->moves, info->pv, sizeof(Move) * (size_t)info->pv_len);
}

Status label_pv_check_inputs(const LabelInputs *in, ErrorInfo *err) {
    if (in->count > (UINT32_MAX - H5STORE_PV_ID_BASE) / STORE_PLY_MAX)
        return error_set(err, STATUS_RANGE,
                         "--pv-ends: %zu games, more than the PV ends' ids can number (%u); label "
                         "fewer games at a time",
                         in->count, (UINT32_MAX - H5STORE_PV_ID_BASE) / STORE_PLY_MAX);
    for (size_t i = 0; i < in->count; i++)
        if (in->games[i].id >= H5STORE_PV_ID_BASE)
            return error_set(err, STATUS_RANGE,
                             "--pv-ends: game id %u reaches the PV ends' ids (%u and up); label "
                             "fewer games at a time",
                             in->games[i].id, H5STORE_PV_ID_BASE);
    return STATUS_OK;
}

// Plays pv on b while each move is legal and leaves the game going; the moves made.
static int walk(Board *b, const LabelPv *pv) {
    int n = 0;
    for (; n < pv->len && board_game_ply(b) < STORE_PLY_MAX - 1; n++) {
        Move m = pv->moves[n];
        GameResult res;
        if (!movegen_is_pseudo_legal(b, m) || !movegen_is_legal(b, m))
            break;
        board_make(b, m);
        if (rules_game_over(b, &res)) { // the end's position is no position to learn from
            board_unmake(b);
            break;
        }
    }
    return n;
}

// The one-position game of PV end e (the last position row of out) of source game g.
static void add_row(ShardData *out, const LabelGame *g, uint32_t id, const Board *e) {
    size_t row = shard_data_add_game(out);
    GameColumns *gc = &out->games;
    uint64_t p = out->positions.count - 1;
    gc->game_id[row] = id;
    gc->seed[row] = g->id;
    gc->cho_formation[row] = (uint8_t)g->cho;
    gc->han_formation[row] = (uint8_t)g->han;
    gc->plies[row] = 1;
    gc->random_plies[row] = 0;
    gc->winner[row] = (uint8_t)g->winner;
    gc->reason[row] = (uint8_t)g->reason;
    gc->points_cho[row] = (int16_t)rules_points_half(e, CHO);
    gc->points_han[row] = (int16_t)rules_points_half(e, HAN);
    gc->pos_start[row] = p;
    gc->pos_end[row] = p + 1;
    out->positions.result_stm[p] = shard_result_stm(g->winner, out->positions.stm[p]);
}

Status label_pv_end(const Board *b, const LabelPv *pv, const LabelGame *g, size_t index, int played,
                    uint64_t nodes, Searcher *s, ShardData *out, int *plies, atomic_bool *stop,
                    ErrorInfo *err) {
    *plies = 0;
    Board *e = malloc(sizeof *e);
    Status st = e ? shard_data_reserve(out, 1, 1, err)
                  : error_set(err, STATUS_NOMEM, "out of memory for a board");
    if (st != STATUS_OK) {
        free(e);
        return st;
    }
    memcpy(e, b, sizeof *e);
    int n = walk(e, pv);
    SearchLimits lim = {.nodes = nodes};
    SearchResult r = {.best = MOVE_NONE};
    if (n > 0)
        r = search_run(s, e, &lim, NULL, NULL, stop);
    if (r.best != MOVE_NONE) { // none only where the game is over, which the walk rules out
        uint32_t id = H5STORE_PV_ID_BASE + (uint32_t)index * STORE_PLY_MAX + (uint32_t)played;
        shard_data_add_played(out, e, id, r.best, game_driver_stored_score(r.score), true);
        add_row(out, g, id, e);
        *plies = n;
    }
    free(e);
    return STATUS_OK;
}
