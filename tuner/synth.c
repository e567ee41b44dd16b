// SPDX-License-Identifier: MIT
// Random-move games in the self-play schema, for tests and the tuner benchmark.
#include "synth.h"

#include <stdlib.h>

#include "board.h"
#include "eval.h"
#include "movegen.h"
#include "packed_board.h"
#include "prng.h"
#include "rules.h"
#include "trace_store.h"
#include "variant.h"

enum { SYNTH_RANDOM_PLIES = 4 };

// Plays one game on b from its pairing and records it as game row g.
static void play_game(ShardData *d, Board *b, uint32_t id, uint64_t seed) {
    size_t g = shard_data_add_game(d);
    GameColumns *gc = &d->games;
    PositionColumns *pc = &d->positions;
    uint64_t rng = seed ^ ((uint64_t)id * 0x9e3779b97f4a7c15ULL);
    gc->game_id[g] = id, gc->seed[g] = rng;
    const Variant *v = variant_default();
    const int pairing = (int)(id % (uint32_t)variant_pairing_count(v));
    gc->cho_formation[g] = (uint8_t)variant_pairing_cho(v, pairing);
    gc->han_formation[g] = (uint8_t)variant_pairing_han(v, pairing);
    gc->random_plies[g] = SYNTH_RANDOM_PLIES;
    gc->pos_start[g] = pc->count;
    v->setup_formations(b, gc->cho_formation[g], gc->han_formation[g]);
    GameResult res = {0};
    MoveList list;
    while (!rules_game_over(b, &res)) {
        movegen_legal(b, &list);
        Move m;
        do // a pass only now and then, so games do not all end by two passes
            m = list.moves[prng_next(&rng) % (uint64_t)list.count];
        while (move_is_pass(m) && list.count > 1 && prng_next(&rng) % 20 != 0);
        size_t r = shard_data_add_position(d);
        PackedBoard pb;
        packed_board_encode(b, &pb);
        for (int i = 0; i < PACKED_BOARD_BYTES; i++)
            pc->board[r * PACKED_BOARD_BYTES + i] = pb.sq[i];
        int ply = board_game_ply(b), e = eval_evaluate(b);
        pc->stm[r] = (uint8_t)b->side, pc->ply[r] = (uint16_t)ply, pc->move[r] = m;
        e = e > STORED_CP_MAX ? STORED_CP_MAX : e < -STORED_CP_MAX ? -STORED_CP_MAX : e;
        pc->score[r] = (int16_t)e;
        bool capture = !move_is_pass(m) && board_at(b, move_to(m)) != EMPTY;
        pc->flags[r] =
            (uint8_t)((board_in_check(b) ? POS_IN_CHECK : 0) | (capture ? POS_BEST_CAPTURE : 0) |
                      (ply < SYNTH_RANDOM_PLIES ? POS_RANDOM : 0));
        pc->game_id[r] = id;
        board_make(b, m);
    }
    gc->pos_end[g] = pc->count;
    gc->plies[g] = (uint16_t)(pc->count - gc->pos_start[g]);
    gc->winner[g] = (uint8_t)res.winner, gc->reason[g] = (uint8_t)res.reason;
    gc->points_cho[g] = (int16_t)res.points_half[CHO];
    gc->points_han[g] = (int16_t)res.points_half[HAN];
    for (size_t r = gc->pos_start[g]; r < pc->count; r++)
        pc->result_stm[r] = (int8_t)(pc->stm[r] == res.winner ? 1 : -1);
}

Status synth_games(ShardData *d, size_t games, uint32_t first_id, uint64_t seed, ErrorInfo *err) {
    Board *b = malloc(sizeof *b);
    if (!b)
        return error_set(err, STATUS_NOMEM, "out of memory for a board");
    Status st = STATUS_OK;
    for (size_t i = 0; i < games && st == STATUS_OK; i++) {
        st = shard_data_reserve(d, 1, GAME_PLY_LIMIT + 1, err);
        if (st == STATUS_OK)
            play_game(d, b, first_id + (uint32_t)i, seed);
    }
    free(b);
    return st;
}
