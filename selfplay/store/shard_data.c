// SPDX-License-Identifier: MIT
// Column storage for games and positions: growth, append with row rebasing, comparison.
#include "shard_data.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "fen.h"
#include "janggi/formation.h"
#include "packed_board.h"
#include "rules.h"
#include "variant.h"

void shard_data_init(ShardData *d) { memset(d, 0, sizeof *d); }

void shard_data_free(ShardData *d) {
    if (!d)
        return;
#define GAME_COLUMN(name, ctype, h5type, lo, hi, doc) free(d->games.name);
#define POSITION_COLUMN(name, ctype, width, h5type, lo, hi, doc) free(d->positions.name);
#include "columns.def"
#undef GAME_COLUMN
#undef POSITION_COLUMN
    free(d->openings);
    shard_data_init(d);
}

void shard_data_source_game(const ShardData *d, size_t g, uint32_t *id, uint64_t *seed) {
    *id = d->standalone ? (uint32_t)d->games.seed[g] : d->games.game_id[g];
    *seed = d->standalone ? 0 : d->games.seed[g];
}

Status shard_data_set_openings(ShardData *d, const char *text, ErrorInfo *err) {
    free(d->openings);
    d->openings = NULL;
    if (!text || !text[0])
        return STATUS_OK;
    size_t len = strlen(text) + 1;
    if (!(d->openings = malloc(len)))
        return error_set(err, STATUS_NOMEM, "out of memory for the openings");
    memcpy(d->openings, text, len);
    return STATUS_OK;
}

// Line k (0-based) of text, of n lines, copied into out; the number of lines when k < 0.
static int text_line(const char *text, int k, char *out, size_t len) {
    int n = 0;
    for (const char *s = text; *s; n++) {
        size_t l = strcspn(s, "\n");
        if (n == k)
            snprintf(out, len, "%.*s", (int)l, s);
        s += l + (s[l] == '\n');
    }
    return n;
}

int shard_data_opening_count(const ShardData *d) {
    return d->openings ? text_line(d->openings, -1, NULL, 0) : 0;
}

// The stored board of standalone game g, decoded and then judged by the FEN reader (the decoder
// leaves the rules' legality to it).
static Status standalone_start(const ShardData *d, size_t g, const Variant *v, Board *b,
                               ErrorInfo *err) {
    uint64_t p = d->games.pos_start[g];
    uint32_t id = d->games.game_id[g];
    const PackedBoard *pb = (const PackedBoard *)(d->positions.board + p * PACKED_BOARD_BYTES);
    ErrorInfo e;
    char fen[FEN_BUFFER];
    if (p >= d->positions.count)
        return error_set(err, STATUS_FORMAT, "position %u: no stored row", id);
    if (packed_board_decode_variant(pb, v, (Side)d->positions.stm[p], d->positions.ply[p], b, &e) !=
        STATUS_OK)
        return error_set(err, STATUS_FORMAT, "position %u: %s", id, e.msg);
    fen_write(b, fen, sizeof fen);
    if (fen_parse_variant(b, v, fen, &e) != STATUS_OK)
        return error_set(err, STATUS_FORMAT, "position %u: illegal position %s: %s", id, fen,
                         e.msg);
    return STATUS_OK;
}

Status shard_data_game_start(const ShardData *d, size_t g, Board *b, ErrorInfo *err) {
    const Variant *v = variant_or_default(d->variant);
    const GameColumns *gc = &d->games;
    if (d->standalone)
        return standalone_start(d, g, v, b, err);
    if (d->openings) {
        char fen[FEN_MAX_INPUT + 1] = "";
        int n = shard_data_opening_count(d);
        text_line(d->openings, (int)(gc->game_id[g] % (uint32_t)n), fen, sizeof fen);
        ErrorInfo fe;
        if (fen_parse_variant(b, v, fen, &fe) != STATUS_OK)
            return error_set(err, STATUS_FORMAT, "game %u: opening '%s': %s", gc->game_id[g], fen,
                             fe.msg);
    } else if (v->formation_count) {
        v->setup_formations(b, gc->cho_formation[g], gc->han_formation[g]);
    } else {
        fen_parse_variant(b, v, v->start_fen, NULL);
    }
    return STATUS_OK;
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
        size_t cap =
            d->games.cap * 2 > d->games.count + games ? d->games.cap * 2 : d->games.count + games;
#define GAME_COLUMN(name, ctype, h5type, lo, hi, doc)                                              \
    ok = ok && grow((void **)&d->games.name, cap, sizeof(ctype));
#define POSITION_COLUMN(name, ctype, width, h5type, lo, hi, doc)
#include "columns.def"
#undef GAME_COLUMN
#undef POSITION_COLUMN
        if (ok)
            d->games.cap = cap;
    }
    if (ok && d->positions.count + positions > d->positions.cap) {
        size_t need = d->positions.count + positions;
        size_t cap = d->positions.cap * 2 > need ? d->positions.cap * 2 : need;
#define GAME_COLUMN(name, ctype, h5type, lo, hi, doc)
#define POSITION_COLUMN(name, ctype, width, h5type, lo, hi, doc)                                   \
    ok = ok && grow((void **)&d->positions.name, cap, (width) * sizeof(ctype));
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
#define GAME_COLUMN(name, ctype, h5type, lo, hi, doc) d->games.name[i] = 0;
#define POSITION_COLUMN(name, ctype, width, h5type, lo, hi, doc)
#include "columns.def"
#undef GAME_COLUMN
#undef POSITION_COLUMN
    return i;
}

size_t shard_data_add_position(ShardData *d) {
    size_t i = d->positions.count++;
#define GAME_COLUMN(name, ctype, h5type, lo, hi, doc)
#define POSITION_COLUMN(name, ctype, width, h5type, lo, hi, doc)                                   \
    memset(d->positions.name + i * (width), 0, (width) * sizeof(ctype));
#include "columns.def"
#undef GAME_COLUMN
#undef POSITION_COLUMN
    return i;
}

Status shard_data_append_games(ShardData *dst, const ShardData *src, size_t first, size_t end,
                               ErrorInfo *err) {
    if (first > end || end > src->games.count)
        return error_set(err, STATUS_RANGE, "games %zu..%zu of %zu", first, end, src->games.count);
    size_t ng = end - first;
    size_t q0 = ng ? src->games.pos_start[first] : 0,
           np = ng ? src->games.pos_end[end - 1] - q0 : 0;
    Status st = shard_data_reserve(dst, ng, np, err);
    if (st != STATUS_OK)
        return st;
    if (!dst->variant)
        dst->variant = src->variant;
    if (dst->games.count && dst->standalone != src->standalone)
        return error_set(err, STATUS_FORMAT,
                         "standalone positions (PV ends) and games cannot share a file");
    dst->standalone = src->standalone;
    if (src->openings && (!dst->openings || strcmp(dst->openings, src->openings) != 0)) {
        if (dst->games.count)
            return error_set(err, STATUS_FORMAT, "games of two runs with different openings");
        if ((st = shard_data_set_openings(dst, src->openings, err)) != STATUS_OK)
            return st;
    }
    size_t g0 = dst->games.count, p0 = dst->positions.count;
#define GAME_COLUMN(name, ctype, h5type, lo, hi, doc)                                              \
    if (ng)                                                                                        \
        memcpy(dst->games.name + g0, src->games.name + first, ng * sizeof(ctype));
#define POSITION_COLUMN(name, ctype, width, h5type, lo, hi, doc)                                   \
    if (np)                                                                                        \
        memcpy(dst->positions.name + p0 * (width), src->positions.name + q0 * (width),             \
               np * (width) * sizeof(ctype));
#include "columns.def"
#undef GAME_COLUMN
#undef POSITION_COLUMN
    for (size_t i = g0; i < g0 + ng; i++) {
        dst->games.pos_start[i] = dst->games.pos_start[i] - q0 + p0;
        dst->games.pos_end[i] = dst->games.pos_end[i] - q0 + p0;
    }
    dst->games.count += ng;
    dst->positions.count += np;
    return STATUS_OK;
}

void shard_data_add_played(ShardData *d, const Board *b, uint32_t id, Move m, int16_t score,
                           bool searched) {
    size_t p = shard_data_add_position(d);
    PositionColumns *pc = &d->positions;
    packed_board_encode(b, (PackedBoard *)(pc->board + p * PACKED_BOARD_BYTES));
    pc->stm[p] = (uint8_t)b->side;
    pc->ply[p] = (uint16_t)board_game_ply(b);
    pc->move[p] = m;
    pc->score[p] = score;
    // Bit 1 is the stored move's capture, as verify replays it.
    bool capture = !move_is_pass(m) && board_at(b, move_to(m)) != EMPTY;
    pc->flags[p] = (uint8_t)((board_in_check(b) ? POS_IN_CHECK : 0) |
                             (capture ? POS_BEST_CAPTURE : 0) | (searched ? 0 : POS_RANDOM));
    pc->game_id[p] = id;
}

Status shard_data_append(ShardData *dst, const ShardData *src, ErrorInfo *err) {
    return shard_data_append_games(dst, src, 0, src->games.count, err);
}

bool shard_data_equal(const ShardData *a, const ShardData *b, char *why, size_t why_len) {
    if (a->games.count != b->games.count || a->positions.count != b->positions.count) {
        if (why)
            snprintf(why, why_len, "sizes differ: %zu/%zu games, %zu/%zu positions", a->games.count,
                     b->games.count, a->positions.count, b->positions.count);
        return false;
    }
    if ((a->openings || b->openings) &&
        (!a->openings || !b->openings || strcmp(a->openings, b->openings) != 0)) {
        if (why)
            snprintf(why, why_len, "openings differ");
        return false;
    }
    size_t ng = a->games.count, np = a->positions.count;
#define GAME_COLUMN(name, ctype, h5type, lo, hi, doc)                                              \
    if (ng && memcmp(a->games.name, b->games.name, ng * sizeof(ctype))) {                          \
        if (why)                                                                                   \
            snprintf(why, why_len, "games column %s differs", #name);                              \
        return false;                                                                              \
    }
#define POSITION_COLUMN(name, ctype, width, h5type, lo, hi, doc)                                   \
    if (np && memcmp(a->positions.name, b->positions.name, np * (width) * sizeof(ctype))) {        \
        if (why)                                                                                   \
            snprintf(why, why_len, "positions column %s differs", #name);                          \
        return false;                                                                              \
    }
#include "columns.def"
#undef GAME_COLUMN
#undef POSITION_COLUMN
    return true;
}

// The position ranges of the games tile the positions in order, each of its game's length, and
// each position names its game.
static Status check_tiling(const ShardData *d, ErrorInfo *err) {
    uint64_t next = 0;
    for (size_t g = 0; g < d->games.count; g++) {
        uint64_t s = d->games.pos_start[g], e = d->games.pos_end[g];
        if (s != next || e < s || e > d->positions.count || e - s != d->games.plies[g])
            return error_set(err, STATUS_FORMAT,
                             "game row %zu has position range [%llu, %llu) (expected start "
                             "%llu, %u plies)",
                             g, (unsigned long long)s, (unsigned long long)e,
                             (unsigned long long)next, d->games.plies[g]);
        for (uint64_t p = s; p < e; p++)
            if (d->positions.game_id[p] != d->games.game_id[g])
                return error_set(err, STATUS_FORMAT, "position %llu names game %u, not %u",
                                 (unsigned long long)p, d->positions.game_id[p],
                                 d->games.game_id[g]);
        next = e;
    }
    if (next != d->positions.count)
        return error_set(err, STATUS_FORMAT, "%zu positions but games cover %llu",
                         d->positions.count, (unsigned long long)next);
    return STATUS_OK;
}

// Every value against its range in columns.def. Compared as doubles, exact for every stored
// type but the 64-bit columns, whose range is their whole type.
static Status check_ranges(const ShardData *d, ErrorInfo *err) {
    const GameColumns *gc = &d->games;
    const PositionColumns *pc = &d->positions;
#define GAME_COLUMN(name, ctype, h5type, lo, hi, doc)                                              \
    for (size_t i = 0; i < gc->count; i++)                                                         \
        if ((double)gc->name[i] < (double)(lo) || (double)gc->name[i] > (double)(hi))              \
            return error_set(err, STATUS_FORMAT,                                                   \
                             "game row %zu (game %u): %s %.0f is outside "                         \
                             "%.0f..%.0f",                                                         \
                             i, gc->game_id[i], #name, (double)gc->name[i], (double)(lo),          \
                             (double)(hi));
#define POSITION_COLUMN(name, ctype, width, h5type, lo, hi, doc)                                   \
    for (size_t i = 0; i < pc->count * (width); i++)                                               \
        if ((double)pc->name[i] < (double)(lo) || (double)pc->name[i] > (double)(hi))              \
            return error_set(err, STATUS_FORMAT,                                                   \
                             "position row %zu (game %u): %s %.0f is "                             \
                             "outside %.0f..%.0f",                                                 \
                             i / (width), pc->game_id[i / (width)], #name, (double)pc->name[i],    \
                             (double)(lo), (double)(hi));
#include "columns.def"
#undef GAME_COLUMN
#undef POSITION_COLUMN
    for (size_t i = 0; i < pc->count * PACKED_BOARD_BYTES; i++)
        if (pc->board[i] >= SQUARE_NB && pc->board[i] != PACKED_NONE)
            return error_set(err, STATUS_FORMAT,
                             "position row %zu (game %u): board byte %zu is "
                             "%u, neither a square (0..%d) nor %d",
                             i / PACKED_BOARD_BYTES, pc->game_id[i / PACKED_BOARD_BYTES],
                             i % PACKED_BOARD_BYTES, pc->board[i], SQUARE_NB - 1, PACKED_NONE);
    for (size_t i = 0; i < pc->count; i++)
        if (move_from(pc->move[i]) >= SQUARE_NB || move_to(pc->move[i]) >= SQUARE_NB)
            return error_set(err, STATUS_FORMAT,
                             "position row %zu (game %u): move %u names a "
                             "square beyond %d",
                             i, pc->game_id[i], pc->move[i], SQUARE_NB - 1);
    return STATUS_OK;
}

// Within each game: plies count up by one from 0 (from its opening's ply in a file with
// openings), the side to move is ply & 1, and result_stm is the winner's outcome seen from
// each side to move (0 for every position of a drawn game).
static Status check_sequences(const ShardData *d, ErrorInfo *err) {
    const GameColumns *gc = &d->games;
    const PositionColumns *pc = &d->positions;
    for (size_t g = 0; g < gc->count; g++) {
        if (d->standalone && gc->plies[g] != 1)
            return error_set(err, STATUS_FORMAT,
                             "game %u: %u plies in a file of standalone positions (1 each)",
                             gc->game_id[g], gc->plies[g]);
        for (uint64_t p = gc->pos_start[g]; p < gc->pos_end[g]; p++) {
            uint64_t ply0 = d->openings || d->standalone ? pc->ply[gc->pos_start[g]] : 0;
            uint64_t ply = ply0 + (p - gc->pos_start[g]);
            if (pc->ply[p] != ply || pc->stm[p] != (ply & 1))
                return error_set(err, STATUS_FORMAT,
                                 "game %u: row %llu has ply %u and side %u, "
                                 "the game's order says ply %llu, side %u",
                                 gc->game_id[g], (unsigned long long)p, pc->ply[p], pc->stm[p],
                                 (unsigned long long)ply, (unsigned)(ply & 1));
            int want = shard_result_stm(gc->winner[g], pc->stm[p]);
            if (pc->result_stm[p] != want)
                return error_set(err, STATUS_FORMAT,
                                 "game %u: result_stm %d at row %llu, the "
                                 "winner (%s) says %d",
                                 gc->game_id[g], pc->result_stm[p], (unsigned long long)p,
                                 gc->winner[g] == WINNER_DRAW ? "drawn"
                                 : gc->winner[g]              ? "han"
                                                              : "cho",
                                 want);
        }
    }
    return STATUS_OK;
}

Status shard_data_check(const ShardData *d, ErrorInfo *err) {
    Status st = check_tiling(d, err);
    if (st == STATUS_OK)
        st = check_ranges(d, err);
    if (st == STATUS_OK)
        st = check_sequences(d, err);
    return st;
}

int16_t stored_score(int score, int mate_score, int mate_in_max) {
    if (score >= mate_in_max)
        return (int16_t)(STORED_MATE - (mate_score - score));
    if (score <= -mate_in_max)
        return (int16_t) - (STORED_MATE - (mate_score + score));
    if (score > STORED_CP_MAX)
        return STORED_CP_MAX;
    if (score < -STORED_CP_MAX)
        return -STORED_CP_MAX;
    return (int16_t)score;
}

size_t shard_data_bytes(const ShardData *d) {
    size_t bytes = 0;
#define GAME_COLUMN(name, ctype, h5type, lo, hi, doc) bytes += d->games.cap * sizeof(ctype);
#define POSITION_COLUMN(name, ctype, width, h5type, lo, hi, doc)                                   \
    bytes += d->positions.cap * (width) * sizeof(ctype);
#include "columns.def"
#undef GAME_COLUMN
#undef POSITION_COLUMN
    return bytes;
}
