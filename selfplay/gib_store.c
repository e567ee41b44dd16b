// SPDX-License-Identifier: MIT
// Imported .gib games as one file of the HDF5 store (gib_store.h).
#include "gib_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "board.h"
#include "h5store.h"
#include "packed_board.h"
#include "rules.h"
#include "selfplay_build_info.h"
#include "shard_data.h"

struct GibStore {
    ShardData data;
    Board board;
    char start_time[32];
};

static void utc_now(char *out, size_t len) {
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

Status gib_store_open(GibStore **out, ErrorInfo *err) {
    *out = calloc(1, sizeof **out);
    if (!*out)
        return error_set(err, STATUS_NOMEM, "out of memory");
    shard_data_init(&(*out)->data);
    utc_now((*out)->start_time, sizeof(*out)->start_time);
    return STATUS_OK;
}

// Why game g cannot be stored, or NULL; *o is how it ended (gib_outcome, as the PGN says).
static const char *check_game(const GibGame *g, GibOutcome *o) {
    *o = gib_outcome(g);
    if (!o->known || o->draw)
        return "no winner stated or given by the rules (the store holds janggi games won by one "
               "side)";
    if (g->nmoves < 1 || g->nmoves > STORE_PLY_MAX)
        return "no moves, or more plies than the store holds";
    return NULL;
}

Status gib_store_add(GibStore *s, const char *path, const GibGame *games, size_t n, size_t *skipped,
                     ErrorInfo *err) {
    ShardData *d = &s->data;
    for (size_t i = 0; i < n; i++) {
        const GibGame *g = &games[i];
        GibOutcome o;
        const char *why = check_game(g, &o);
        if (why) {
            fprintf(stderr, "hansu-selfplay gib: %s:%d: not stored: %s\n", path, g->line, why);
            (*skipped)++;
            continue;
        }
        Status st = shard_data_reserve(d, 1, (size_t)g->nmoves, err);
        if (st != STATUS_OK)
            return st;
        Board *b = &s->board;
        size_t row = shard_data_add_game(d);
        uint32_t id = (uint32_t)row;
        GameColumns *gc = &d->games;
        gc->game_id[row] = id;
        gc->seed[row] = 0;
        gc->cho_formation[row] = (uint8_t)g->cho;
        gc->han_formation[row] = (uint8_t)g->han;
        gc->plies[row] = gc->random_plies[row] = (uint16_t)g->nmoves;
        gc->pos_start[row] = d->positions.count;
        formation_setup(b, g->cho, g->han);
        for (int k = 0; k < g->nmoves; k++) {
            shard_data_add_played(d, b, id, g->moves[k], 0, false); // the players' move
            board_make(b, g->moves[k]);
        }
        gc->pos_end[row] = d->positions.count;
        int winner = o.winner;
        gc->winner[row] = (uint8_t)winner;
        // A result no rule gives is the loser's giving up (or a loss on time).
        gc->reason[row] = (uint8_t)(o.reason == REASON_NONE ? REASON_RESIGN : o.reason);
        gc->points_cho[row] = (int16_t)rules_points_half(b, CHO);
        gc->points_han[row] = (int16_t)rules_points_half(b, HAN);
        for (uint64_t p = gc->pos_start[row]; p < gc->pos_end[row]; p++)
            d->positions.result_stm[p] = (int8_t)(d->positions.stm[p] == winner ? 1 : -1);
    }
    return STATUS_OK;
}

Status gib_store_write(GibStore *s, const char *path, ErrorInfo *err) {
    if (s->data.games.count == 0)
        return error_set(err, STATUS_FORMAT, "%s: no game to store", path);
    StoreMeta *m = calloc(1, sizeof *m);
    if (!m)
        return error_set(err, STATUS_NOMEM, "out of memory");
    m->schema_version = H5STORE_SCHEMA_VERSION;
    snprintf(m->variant, sizeof m->variant, "janggi");
    snprintf(m->engine_version, sizeof m->engine_version, "hansu %s", HANSU_VERSION_STRING);
    snprintf(m->bench, sizeof m->bench, "none");
    snprintf(m->weights_sha256, sizeof m->weights_sha256, "none");
    snprintf(m->limits, sizeof m->limits, "imported .gib records (players' moves, unscored)");
    snprintf(m->schedule, sizeof m->schedule, "imported: each game's formations as recorded");
    snprintf(m->run_config, sizeof m->run_config, "gib-import engine=%s", m->engine_version);
    if (gethostname(m->host, sizeof m->host - 1) < 0)
        snprintf(m->host, sizeof m->host, "unknown");
    snprintf(m->start_time, sizeof m->start_time, "%s", s->start_time);
    utc_now(m->end_time, sizeof m->end_time);
    m->shard = -1;
    Status st = h5store_write(path, m, &s->data, err);
    free(m);
    return st;
}

void gib_store_free(GibStore *s) {
    if (!s)
        return;
    shard_data_free(&s->data);
    free(s);
}
