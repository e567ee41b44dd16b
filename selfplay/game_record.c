// SPDX-License-Identifier: MIT
// Column storage for games and positions: growth, append with row rebasing, comparison.
#include "game_record.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void shard_data_init(ShardData *d) { memset(d, 0, sizeof *d); }

void shard_data_free(ShardData *d) {
    if (!d)
        return;
#define GAME_COLUMN(name, ctype, h5type, doc) free(d->games.name);
#define POSITION_COLUMN(name, ctype, width, h5type, doc) free(d->positions.name);
#include "columns.def"
#undef GAME_COLUMN
#undef POSITION_COLUMN
    shard_data_init(d);
}

void shard_data_clear(ShardData *d) {
    d->games.count = 0;
    d->positions.count = 0;
}

// Grows one column array to cap rows of `width` values; false when memory is short.
static bool grow(void **col, size_t cap, size_t elem) {
    void *p = realloc(*col, cap * elem);
    if (!p)
        return false;
    *col = p;
    return true;
}

Status shard_data_reserve(ShardData *d, size_t games, size_t positions, ErrorInfo *err) {
    bool ok = true;
    if (d->games.count + games > d->games.cap) {
        size_t cap = d->games.cap * 2 > d->games.count + games ? d->games.cap * 2
                                                                : d->games.count + games;
#define GAME_COLUMN(name, ctype, h5type, doc) ok = ok && grow((void **)&d->games.name, cap, sizeof(ctype));
#define POSITION_COLUMN(name, ctype, width, h5type, doc)
#include "columns.def"
#undef GAME_COLUMN
#undef POSITION_COLUMN
        if (ok)
            d->games.cap = cap;
    }
    if (ok && d->positions.count + positions > d->positions.cap) {
        size_t need = d->positions.count + positions;
        size_t cap = d->positions.cap * 2 > need ? d->positions.cap * 2 : need;
#define GAME_COLUMN(name, ctype, h5type, doc)
#define POSITION_COLUMN(name, ctype, width, h5type, doc) ok = ok && grow((void **)&d->positions.name, cap, (width) * sizeof(ctype));
#include "columns.def"
#undef GAME_COLUMN
#undef POSITION_COLUMN
        if (ok)
            d->positions.cap = cap;
    }
    return ok ? STATUS_OK
              : error_set(err, STATUS_NOMEM, "out of memory for %zu games / %zu positions",
                          d->games.count + games, d->positions.count + positions);
}

size_t shard_data_add_game(ShardData *d) {
    size_t i = d->games.count++;
#define GAME_COLUMN(name, ctype, h5type, doc) d->games.name[i] = 0;
#define POSITION_COLUMN(name, ctype, width, h5type, doc)
#include "columns.def"
#undef GAME_COLUMN
#undef POSITION_COLUMN
    return i;
}

size_t shard_data_add_position(ShardData *d) {
    size_t i = d->positions.count++;
#define GAME_COLUMN(name, ctype, h5type, doc)
#define POSITION_COLUMN(name, ctype, width, h5type, doc) memset(d->positions.name + i * (width), 0, (width) * sizeof(ctype));
#include "columns.def"
#undef GAME_COLUMN
#undef POSITION_COLUMN
    return i;
}

Status shard_data_append(ShardData *dst, const ShardData *src, ErrorInfo *err) {
    Status st = shard_data_reserve(dst, src->games.count, src->positions.count, err);
    if (st != STATUS_OK)
        return st;
    size_t g0 = dst->games.count, p0 = dst->positions.count;
    size_t ng = src->games.count, np = src->positions.count;
#define GAME_COLUMN(name, ctype, h5type, doc) if (ng) memcpy(dst->games.name + g0, src->games.name, ng * sizeof(ctype));
#define POSITION_COLUMN(name, ctype, width, h5type, doc) if (np) memcpy(dst->positions.name + p0 * (width), src->positions.name, np * (width) * sizeof(ctype));
#include "columns.def"
#undef GAME_COLUMN
#undef POSITION_COLUMN
    for (size_t i = g0; i < g0 + ng; i++) {
        dst->games.pos_start[i] += p0;
        dst->games.pos_end[i] += p0;
    }
    dst->games.count += ng;
    dst->positions.count += np;
    return STATUS_OK;
}

bool shard_data_equal(const ShardData *a, const ShardData *b, char *why, size_t why_len) {
    if (a->games.count != b->games.count || a->positions.count != b->positions.count) {
        if (why)
            snprintf(why, why_len, "sizes differ: %zu/%zu games, %zu/%zu positions",
                     a->games.count, b->games.count, a->positions.count, b->positions.count);
        return false;
    }
    size_t ng = a->games.count, np = a->positions.count;
#define GAME_COLUMN(name, ctype, h5type, doc)                                                      \
    if (ng && memcmp(a->games.name, b->games.name, ng * sizeof(ctype))) {                          \
        if (why)                                                                                   \
            snprintf(why, why_len, "games column %s differs", #name);                             \
        return false;                                                                              \
    }
#define POSITION_COLUMN(name, ctype, width, h5type, doc)                                           \
    if (np && memcmp(a->positions.name, b->positions.name, np * (width) * sizeof(ctype))) {       \
        if (why)                                                                                   \
            snprintf(why, why_len, "positions column %s differs", #name);                         \
        return false;                                                                              \
    }
#include "columns.def"
#undef GAME_COLUMN
#undef POSITION_COLUMN
    return true;
}

int16_t stored_score(int score, int mate_score, int mate_in_max) {
    if (score >= mate_in_max)
        return (int16_t)(STORED_MATE - (mate_score - score));
    if (score <= -mate_in_max)
        return (int16_t)-(STORED_MATE - (mate_score + score));
    if (score > STORED_CP_MAX)
        return STORED_CP_MAX;
    if (score < -STORED_CP_MAX)
        return -STORED_CP_MAX;
    return (int16_t)score;
}

size_t shard_data_bytes(const ShardData *d) {
    size_t bytes = 0;
#define GAME_COLUMN(name, ctype, h5type, doc) bytes += d->games.cap * sizeof(ctype);
#define POSITION_COLUMN(name, ctype, width, h5type, doc) bytes += d->positions.cap * (width) * sizeof(ctype);
#include "columns.def"
#undef GAME_COLUMN
#undef POSITION_COLUMN
    return bytes;
}
