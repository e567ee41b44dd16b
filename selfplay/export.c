// SPDX-License-Identifier: MIT
// Export of stored self-play games (hansu-selfplay export): one replay of each selected game
// feeds every output, PGN and `.plain` training records.
#include "export.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "fen.h"
#include "h5store.h"
#include "movegen.h"
#include "notation.h"
#include "packed_board.h"
#include "pgn.h"
#include "rules.h"
#include "shard_data.h"
#include "variant.h"

// One id of a selection item: the whole text a decimal number that fits in 32 bits.
static Status parse_id(const char *item, const char *s, size_t len, uint32_t *out, ErrorInfo *err) {
    if (len == 0 || len > 10 || strspn(s, "0123456789") < len)
        return error_set(err, STATUS_SYNTAX,
                         "--games: '%.40s' is not a game id or range (e.g. 0-9,15,100-)", item);
    unsigned long long v = strtoull(s, NULL, 10);
    if (v > UINT32_MAX)
        return error_set(err, STATUS_RANGE, "--games: game id %llu is past %u", v, UINT32_MAX);
    *out = (uint32_t)v;
    return STATUS_OK;
}

Status export_parse_selection(const char *text, GameSelection *sel, ErrorInfo *err) {
    sel->count = 0;
    const char *p = text;
    for (;;) {
        size_t len = strcspn(p, ",");
        char item[64];
        snprintf(item, sizeof item, "%.*s", (int)(len < 60 ? len : 60), p);
        if (sel->count == EXPORT_MAX_RANGES)
            return error_set(err, STATUS_RANGE, "--games: more than %d items", EXPORT_MAX_RANGES);
        const char *dash = memchr(p, '-', len);
        uint32_t lo = 0, hi = 0;
        bool open = dash && dash == p + len - 1;
        Status st = parse_id(item, p, dash ? (size_t)(dash - p) : len, &lo, err);
        if (st == STATUS_OK && dash && !open)
            st = parse_id(item, dash + 1, len - (size_t)(dash - p) - 1, &hi, err);
        else if (!dash)
            hi = lo;
        if (st != STATUS_OK)
            return st;
        if (!open && lo > hi)
            return error_set(err, STATUS_SYNTAX, "--games: range '%s' runs backwards", item);
        sel->range[sel->count].lo = lo;
        sel->range[sel->count].hi = hi;
        sel->range[sel->count++].open = open;
        if (p[len] == '\0')
            return STATUS_OK;
        p += len + 1;
    }
}

bool export_selected(const GameSelection *sel, uint32_t id) {
    if (!sel || sel->count == 0)
        return true;
    for (int i = 0; i < sel->count; i++)
        if (id >= sel->range[i].lo && (sel->range[i].open || id <= sel->range[i].hi))
            return true;
    return false;
}

// A stored score as the comment of its move (the mover is the side to move of the row).
static void score_comment(int16_t score, uint8_t flags, char *out, size_t len) {
    if (flags & POS_RANDOM)
        snprintf(out, len, "random");
    else if (score >= STORED_MATE_MIN)
        snprintf(out, len, "+M%d", STORED_MATE - score);
    else if (score <= -STORED_MATE_MIN)
        snprintf(out, len, "-M%d", STORED_MATE + score);
    else
        snprintf(out, len, "%+.2f", score / 100.0);
}

// The closing comment: how the game ended, with the final points.
static void end_detail(const GameColumns *gc, size_t g, const Variant *v, char *out, size_t len) {
    Side w = (Side)gc->winner[g];
    EndReason r = (EndReason)gc->reason[g];
    double pc = gc->points_cho[g] / 2.0, ph = gc->points_han[g] / 2.0;
    if (gc->winner[g] == WINNER_DRAW)
        snprintf(out, len, "%s: drawn", rules_reason_name(r));
    else if (r == REASON_CHECKMATE)
        snprintf(out, len, "%s mates", v->side_names[w]);
    else if (r == REASON_RESIGN)
        snprintf(out, len, "%s resigns (points %s %.1f : %s %.1f)", v->side_names[1 - w],
                 v->side_names[0], pc, v->side_names[1], ph);
    else
        snprintf(out, len, "%s: %s wins (points %s %.1f : %s %.1f)", rules_reason_name(r),
                 v->side_names[w], v->side_names[0], pc, v->side_names[1], ph);
}

// One selected game, replayed once for every output: the FEN before each stored move, and
// the PGN writer's move and comment lists.
typedef struct Replay {
    const ShardData *d;
    const StoreMeta *meta;
    const Variant *v;
    const char *file;
    size_t g; // row of the game in d
    int n;    // positions replayed
    char fen[STORE_PLY_MAX][FEN_BUFFER];
    Move moves[STORE_PLY_MAX];
    char comment[STORE_PLY_MAX][16];
    const char *comments[STORE_PLY_MAX];
} Replay;

// Replays game r->g from its start, checking each stored position against the replay before
// its move is made: a record written from the stored columns then describes the position its
// FEN shows (verify.c checks more: the flags, the end).
static Status replay_game(Replay *r, Board *b, ErrorInfo *err) {
    const GameColumns *gc = &r->d->games;
    const PositionColumns *pc = &r->d->positions;
    uint32_t id = gc->game_id[r->g];
    Status st = shard_data_game_start(r->d, r->g, b, err);
    r->n = 0;
    for (uint64_t p = gc->pos_start[r->g]; st == STATUS_OK && p < gc->pos_end[r->g]; p++) {
        PackedBoard pb;
        Move m = pc->move[p];
        int ply = board_game_ply(b);
        packed_board_encode(b, &pb);
        if (r->n == STORE_PLY_MAX || pc->stm[p] != b->side || pc->ply[p] != ply ||
            memcmp(pb.sq, pc->board + p * PACKED_BOARD_BYTES, PACKED_BOARD_BYTES) != 0)
            return error_set(err, STATUS_FORMAT,
                             "%s: game %u ply %d: the stored position is not the replay of the "
                             "game's moves ('hansu-selfplay verify' tells more)",
                             r->file, id, ply);
        if (!movegen_is_pseudo_legal(b, m) || !movegen_is_legal(b, m))
            return error_set(err, STATUS_FORMAT, "%s: game %u ply %d: stored move %u is illegal",
                             r->file, id, ply, m);
        fen_write(b, r->fen[r->n], FEN_BUFFER);
        r->moves[r->n++] = m;
        board_make(b, m);
    }
    return st;
}

// Writes the replayed game r as PGN to out, named name in messages.
static Status write_pgn(Replay *r, const char *event, FILE *out, const char *name, ErrorInfo *err) {
    const GameColumns *gc = &r->d->games;
    const PositionColumns *pc = &r->d->positions;
    const Variant *v = r->v;
    size_t g = r->g;
    int cho = gc->cho_formation[g], han = gc->han_formation[g];
    char opening[96], detail[160], id[16], seed[24], date[16];
    if (r->d->standalone)
        snprintf(opening, sizeof opening, "a standalone position (a PV end)");
    else if (r->d->openings)
        snprintf(opening, sizeof opening, "opening %u of the run's openings",
                 gc->game_id[g] % (uint32_t)shard_data_opening_count(r->d) + 1);
    else if (v->formation_count)
        snprintf(opening, sizeof opening, "%s vs %s", v->formation_names[cho],
                 v->formation_names[han]);
    else
        snprintf(opening, sizeof opening, "start");
    for (int i = 0; i < r->n; i++) {
        uint64_t p = gc->pos_start[g] + (uint64_t)i;
        score_comment(pc->score[p], pc->flags[p], r->comment[i], sizeof r->comment[i]);
        r->comments[i] = r->comment[i];
    }
    end_detail(gc, g, v, detail, sizeof detail);
    snprintf(id, sizeof id, "%u", gc->game_id[g]);
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)gc->seed[g]);
    // A PV end is no finished game: Result "*", its source game's result and id in tags.
    bool pv = r->d->standalone;
    const char *source = gc->winner[g] == WINNER_DRAW ? "1/2-1/2" : gc->winner[g] ? "0-1" : "1-0";
    // start_time is ISO 8601 (YYYY-MM-DDTHH:MM:SSZ); PGN writes the date as YYYY.MM.DD.
    snprintf(date, sizeof date, "%.10s",
             r->meta->start_time[0] ? r->meta->start_time : "\?\?\?\?-\?\?-\?\?");
    for (char *c = date; *c; c++)
        *c = *c == '-' ? '.' : *c;
    PgnTag tags[] = {{"GameId", id},
                     {pv ? "SourceGame" : "Seed", seed},
                     {"SearchLimits", r->meta->limits},
                     {"SourceResult", source}};
    PgnGame pg = {.event = event,
                  .site = r->meta->host,
                  .date = date,
                  .round = (long long)gc->game_id[g] + 1, // unique in a run folder
                  .white = r->meta->engine_version,
                  .black = r->meta->engine_version,
                  .variant = v->name,
                  .fen = r->fen[0],
                  .opening = opening,
                  .moves = r->moves,
                  .nmoves = r->n,
                  .winner = gc->winner[g] == WINNER_DRAW ? CHO : (Side)gc->winner[g],
                  .draw = gc->winner[g] == WINNER_DRAW,
                  .unknown = pv,
                  .unfinished = pv,
                  .reason = (EndReason)gc->reason[g],
                  .detail = pv ? NULL : detail,
                  .comments = r->comments,
                  .tags = tags,
                  .ntags = pv ? 4 : 3};
    Status st = pgn_write(out, &pg, err);
    return st == STATUS_IO ? error_set(err, st, "%s: %s", name, strerror(errno)) : st;
}

// Writes the replayed game r as `.plain` records (export.h): score, ply and result are the
// stored columns as they are (the side to move's view, as the store holds them); the FEN and
// the move's text come from the replay.
static Status write_plain(const Replay *r, FILE *out, const char *name, ErrorInfo *err) {
    const PositionColumns *pc = &r->d->positions;
    uint64_t p = r->d->games.pos_start[r->g];
    for (int i = 0; i < r->n; i++, p++) {
        char move[MOVE_STR_LEN];
        move_to_uci(r->moves[i], move);
        fprintf(out, "fen %s\nmove %s\nscore %d\nply %u\nresult %d\ne\n", r->fen[i], move,
                pc->score[p], (unsigned)pc->ply[p], pc->result_stm[p]);
    }
    if (ferror(out))
        return error_set(err, STATUS_IO, "%s: %s", name, strerror(errno ? errno : EIO));
    return STATUS_OK;
}

// Replays game r->g once and writes it to every output.
static Status export_game(Replay *r, Board *b, const char *event, const ExportOutput *outs,
                          size_t nouts, ErrorInfo *err) {
    Status st = replay_game(r, b, err);
    for (size_t o = 0; o < nouts && st == STATUS_OK; o++)
        st = outs[o].format == EXPORT_PGN ? write_pgn(r, event, outs[o].out, outs[o].name, err)
                                          : write_plain(r, outs[o].out, outs[o].name, err);
    return st;
}

static int compare_id(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

// Sorts the ids written and checks that each bounded range of sel is in them.
static Status check_found(const GameSelection *sel, uint32_t *ids, size_t n, ErrorInfo *err) {
    if (n == 0)
        return error_set(err, STATUS_RANGE, "--games: no game of the input is selected");
    qsort(ids, n, sizeof *ids, compare_id);
    for (int i = 0; sel && i < sel->count; i++) {
        if (sel->range[i].open)
            continue;
        // The first id of lo..hi missing from the sorted ids, if any.
        uint64_t want = sel->range[i].lo;
        for (size_t k = 0; k < n && want <= sel->range[i].hi; k++)
            if (ids[k] == want)
                want++;
        if (want <= sel->range[i].hi)
            return error_set(err, STATUS_RANGE, "--games: game %llu is not in the input",
                             (unsigned long long)want);
    }
    return STATUS_OK;
}

static int compare_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

// The games of d in game id order: their rows, sorted.
static size_t *sorted_rows(const ShardData *d) {
    size_t n = d->games.count;
    uint64_t *keys = malloc((n ? n : 1) * sizeof *keys);
    size_t *rows = malloc((n ? n : 1) * sizeof *rows);
    if (!keys || !rows) {
        free(keys), free(rows);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        keys[i] = (uint64_t)d->games.game_id[i] << 32 | i;
    qsort(keys, n, sizeof *keys, compare_u64);
    for (size_t i = 0; i < n; i++)
        rows[i] = (size_t)(keys[i] & 0xffffffffu);
    free(keys);
    return rows;
}

Status export_games(char *const *files, size_t n, const GameSelection *sel, const char *event,
                    const ExportOutput *outs, size_t nouts, ExportSummary *sum, ErrorInfo *err) {
    ShardData d;
    shard_data_init(&d);
    StoreMeta meta;
    Board *b = malloc(sizeof *b);
    Replay *r = malloc(sizeof *r);
    uint32_t *ids = NULL;
    size_t nids = 0, cap = 0, *rows = NULL;
    Status st = b && r ? STATUS_OK : error_set(err, STATUS_NOMEM, "out of memory");
    memset(sum, 0, sizeof *sum);
    for (size_t f = 0; f < n && st == STATUS_OK; f++) {
        if ((st = h5store_read(files[f], &meta, &d, err)) != STATUS_OK)
            break;
        const Variant *v = variant_find(meta.variant[0] ? meta.variant : "janggi");
        if (!v) {
            st = error_set(err, STATUS_FORMAT, "%s: variant '%s' is not known", files[f],
                           meta.variant);
            break;
        }
        free(rows);
        bool grown = true;
        if (nids + d.games.count > cap) {
            uint32_t *more = realloc(ids, (2 * cap + d.games.count) * sizeof *ids);
            grown = more != NULL;
            ids = more ? more : ids;
            cap = more ? 2 * cap + d.games.count : cap;
        }
        if (!(rows = sorted_rows(&d)) || !grown) {
            st = error_set(err, STATUS_NOMEM, "out of memory");
            break;
        }
        r->d = &d, r->meta = &meta, r->v = v, r->file = files[f];
        for (size_t i = 0; i < d.games.count && st == STATUS_OK; i++) {
            r->g = rows[i];
            if (!export_selected(sel, d.games.game_id[r->g]))
                continue;
            st = export_game(r, b, event, outs, nouts, err);
            ids[nids++] = d.games.game_id[r->g];
            sum->plies += d.games.plies[r->g];
            sum->pv_ends += d.standalone;
        }
        sum->files++;
    }
    if (st == STATUS_OK)
        st = check_found(sel, ids, nids, err);
    sum->games = nids - sum->pv_ends;
    free(rows);
    free(ids);
    free(r);
    free(b);
    shard_data_free(&d);
    return st;
}
