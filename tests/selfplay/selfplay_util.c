// SPDX-License-Identifier: MIT
// Helpers of the self-play tests (see selfplay_util.h).
#include "selfplay_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "h5store.h"
#include "janggi/formation.h"
#include "movegen.h"
#include "packed_board.h"
#include "rules.h"

static uint64_t next_rand(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void random_game(ShardData *d, uint32_t id, uint64_t *rng, Board *b) {
    shard_data_reserve(d, 1, GAME_PLY_LIMIT + 1, NULL);
    int pairing = (int)(id % PAIRING_NB);
    formation_setup(b, pairing_cho(pairing), pairing_han(pairing));
    size_t g = shard_data_add_game(d);
    d->games.game_id[g] = id;
    d->games.seed[g] = *rng;
    d->games.cho_formation[g] = (uint8_t)pairing_cho(pairing);
    d->games.han_formation[g] = (uint8_t)pairing_han(pairing);
    d->games.pos_start[g] = d->positions.count;
    GameResult res;
    while (!rules_game_over(b, &res)) {
        MoveList list;
        movegen_legal(b, &list);
        Move m = list.moves[next_rand(rng) % (uint64_t)list.count];
        size_t p = shard_data_add_position(d);
        packed_board_encode(b, (PackedBoard *)(d->positions.board + p * PACKED_BOARD_BYTES));
        d->positions.stm[p] = (uint8_t)b->side;
        d->positions.ply[p] = (uint16_t)board_game_ply(b);
        d->positions.move[p] = m;
        d->positions.score[p] = (int16_t)(next_rand(rng) % 2001) - 1000;
        bool capture = !move_is_pass(m) && board_at(b, move_to(m)) != EMPTY;
        d->positions.flags[p] =
            (uint8_t)((board_in_check(b) ? POS_IN_CHECK : 0) | (capture ? POS_BEST_CAPTURE : 0));
        d->positions.game_id[p] = id;
        board_make(b, m);
    }
    d->games.pos_end[g] = d->positions.count;
    d->games.plies[g] = (uint16_t)(d->games.pos_end[g] - d->games.pos_start[g]);
    d->games.winner[g] = (uint8_t)res.winner;
    d->games.reason[g] = (uint8_t)res.reason;
    d->games.points_cho[g] = (int16_t)res.points_half[CHO];
    d->games.points_han[g] = (int16_t)res.points_half[HAN];
    for (uint64_t p = d->games.pos_start[g]; p < d->games.pos_end[g]; p++)
        d->positions.result_stm[p] = d->positions.stm[p] == res.winner ? 1 : -1;
}

void sp_random_games(ShardData *d, uint32_t first_id, size_t games, uint64_t seed) {
    Board *b = malloc(sizeof *b);
    uint64_t rng = seed * 0x9E3779B97F4A7C15ull + 1;
    for (size_t i = 0; i < games; i++)
        random_game(d, first_id + (uint32_t)i, &rng, b);
    free(b);
}

// Game ids and rows packed as id << 32 | row sort into id order.
static int by_key(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

void sp_sort_by_id(const ShardData *src, ShardData *dst) {
    size_t n = src->games.count;
    uint64_t *order = malloc((n + 1) * sizeof *order);
    for (size_t i = 0; i < n; i++)
        order[i] = (uint64_t)src->games.game_id[i] << 32 | i;
    qsort(order, n, sizeof *order, by_key);
    shard_data_clear(dst);
    shard_data_set_openings(dst, src->openings, NULL); // the games' starts go with them
    if (!dst->variant)
        dst->variant = src->variant;
    ShardData one;
    shard_data_init(&one);
    for (size_t i = 0; i < n; i++) {
        // Copy game order[i] as a one-game ShardData, then append.
        size_t g = (size_t)(order[i] & 0xFFFFFFFFu);
        size_t s = src->games.pos_start[g], np = src->games.pos_end[g] - s;
        shard_data_clear(&one);
        shard_data_reserve(&one, 1, np, NULL);
        size_t og = shard_data_add_game(&one);
#define GAME_COLUMN(name, ctype, h5type, lo, hi, doc) one.games.name[og] = src->games.name[g];
#define POSITION_COLUMN(name, ctype, width, h5type, lo, hi, doc)                                   \
    memcpy(one.positions.name, src->positions.name + s * (width), np * (width) * sizeof(ctype));
#include "columns.def"
#undef GAME_COLUMN
#undef POSITION_COLUMN
        one.positions.count = np;
        one.games.pos_start[og] = 0;
        one.games.pos_end[og] = np;
        shard_data_append(dst, &one, NULL);
    }
    shard_data_free(&one);
    free(order);
}

int sp_read_run(const char *dir, ShardData *d, char *err, size_t err_len) {
    char **paths;
    size_t n;
    ErrorInfo e;
    ShardData all, one;
    shard_data_init(&all);
    shard_data_init(&one);
    int rc = h5store_list_run(dir, &paths, &n, &e) == STATUS_OK ? (int)n : -1;
    for (size_t i = 0; rc >= 0 && i < n; i++) {
        if (h5store_read(paths[i], NULL, &one, &e) != STATUS_OK)
            rc = -1;
        else
            shard_data_append(&all, &one, NULL);
    }
    if (rc < 0)
        snprintf(err, err_len, "%s", e.msg);
    sp_sort_by_id(&all, d);
    h5store_free_list(paths, rc < 0 ? 0 : n);
    shard_data_free(&all);
    shard_data_free(&one);
    return rc;
}

void sp_fresh_dir(const char *path) {
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", path, path);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot make %s\n", path);
}
