// SPDX-License-Identifier: MIT
// Replay check of stored games (the test the issue asks of every file; also `verify`).
#include "verify.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "fen.h"
#include "h5store.h"
#include "movegen.h"
#include "packed_board.h"
#include "rules.h"
#include "variant.h"

// The stored position row p against the replayed board b.
static Status check_position(const ShardData *d, size_t p, Board *b, Board *scratch,
                             ErrorInfo *err) {
    const PositionColumns *pc = &d->positions;
    uint32_t id = pc->game_id[p];
    int ply = board_game_ply(b);
    PackedBoard want;
    packed_board_encode(b, &want);
    if (memcmp(want.sq, pc->board + p * PACKED_BOARD_BYTES, PACKED_BOARD_BYTES) != 0)
        return error_set(err, STATUS_FORMAT, "game %u ply %d: stored board differs from replay", id,
                         ply);
    if (pc->stm[p] != b->side || pc->ply[p] != ply)
        return error_set(err, STATUS_FORMAT, "game %u ply %d: side to move or ply differs", id,
                         ply);
    ErrorInfo e;
    char fen[FEN_BUFFER];
    if (packed_board_decode_variant((const PackedBoard *)(pc->board + p * PACKED_BOARD_BYTES),
                                    b->variant, (Side)pc->stm[p], ply, scratch, &e) != STATUS_OK)
        return error_set(err, STATUS_FORMAT, "game %u ply %d: %s", id, ply, e.msg);
    fen_write(scratch, fen, sizeof fen);
    if (fen_parse_variant(scratch, b->variant, fen, &e) != STATUS_OK)
        return error_set(err, STATUS_FORMAT, "game %u ply %d: illegal position %s: %s", id, ply,
                         fen, e.msg);
    Move m = pc->move[p];
    if (!movegen_is_pseudo_legal(b, m) || !movegen_is_legal(b, m))
        return error_set(err, STATUS_FORMAT, "game %u ply %d: illegal move %u", id, ply, m);
    bool capture = !move_is_pass(m) && board_at(b, move_to(m)) != EMPTY;
    uint8_t flags =
        (uint8_t)((board_in_check(b) ? POS_IN_CHECK : 0) | (capture ? POS_BEST_CAPTURE : 0));
    if ((pc->flags[p] & (POS_IN_CHECK | POS_BEST_CAPTURE)) != flags)
        return error_set(err, STATUS_FORMAT, "game %u ply %d: flags %u, replay says %u", id, ply,
                         pc->flags[p], flags);
    return STATUS_OK;
}

// The end of game g: points, and the rules' verdict on the final position.
static Status check_end(const ShardData *d, size_t g, Board *b, ErrorInfo *err) {
    const GameColumns *gc = &d->games;
    GameResult res;
    bool over = rules_game_over(b, &res);
    bool by_tool = gc->reason[g] == REASON_RESIGN || gc->reason[g] == REASON_ADJUDICATION;
    if (res.points_half[CHO] != gc->points_cho[g] || res.points_half[HAN] != gc->points_han[g])
        return error_set(err, STATUS_FORMAT, "game %u: final points differ from replay",
                         gc->game_id[g]);
    int winner = res.draw ? WINNER_DRAW : (int)res.winner;
    // Adjudicated at the ply cap (a drawn xiangqi game cut at STORE_PLY_MAX) is by the tool too.
    if (by_tool ? over : !over || res.reason != gc->reason[g] || winner != gc->winner[g])
        return error_set(err, STATUS_FORMAT, "game %u: stored result %s/%s, replay gives %s/%s",
                         gc->game_id[g],
                         gc->winner[g] == WINNER_DRAW ? "drawn"
                         : gc->winner[g]              ? "han"
                                                      : "cho",
                         rules_reason_name((EndReason)gc->reason[g]),
                         res.draw     ? "drawn"
                         : res.winner ? "han"
                                      : "cho",
                         over ? rules_reason_name(res.reason) : "not over");
    return STATUS_OK;
}

// Standalone position g (a PV end): what its row can say without a game around it. Its board was
// judged legal by shard_data_game_start; here its id is a PV end's, its ply past the searched one
// its id names, its points are the board's, and it was searched.
static Status check_standalone(const ShardData *d, size_t g, Board *b, ErrorInfo *err) {
    const GameColumns *gc = &d->games;
    uint64_t p = gc->pos_start[g];
    uint32_t id = gc->game_id[g];
    if (id < H5STORE_PV_ID_BASE)
        return error_set(err, STATUS_FORMAT, "position %u: an id below 2^31 (%u), not a PV end's",
                         id, H5STORE_PV_ID_BASE);
    // The id's ply is below STORE_PLY_MAX by its form: (id - base) % STORE_PLY_MAX.
    unsigned searched = (id - H5STORE_PV_ID_BASE) % STORE_PLY_MAX;
    if (d->positions.ply[p] <= searched)
        return error_set(err, STATUS_FORMAT,
                         "position %u: ply %u, not past the searched ply %u that its id names", id,
                         d->positions.ply[p], searched);
    if (rules_points_half(b, CHO) != gc->points_cho[g] ||
        rules_points_half(b, HAN) != gc->points_han[g])
        return error_set(err, STATUS_FORMAT, "position %u: points differ from its board",
                         gc->game_id[g]);
    if (d->positions.flags[p] & POS_RANDOM)
        return error_set(err, STATUS_FORMAT, "position %u: a standalone position not searched",
                         gc->game_id[g]);
    return STATUS_OK;
}

Status verify_games(const ShardData *d, ErrorInfo *err) {
    // The value ranges first (the same checks as every reader's): the replay then meets only
    // formations, squares and lengths that exist.
    Status st = shard_data_check(d, err);
    if (st != STATUS_OK)
        return st;
    Board *b = malloc(sizeof *b), *scratch = malloc(sizeof *scratch);
    if (!b || !scratch)
        st = error_set(err, STATUS_NOMEM, "out of memory");
    const GameColumns *gc = &d->games;
    for (size_t g = 0; st == STATUS_OK && g < gc->count; g++) {
        // The game's start: its stored board (standalone), its opening, else its formations
        // (janggi), else the variant's.
        if ((st = shard_data_game_start(d, g, b, err)) != STATUS_OK)
            break;
        if (d->standalone && (st = check_standalone(d, g, b, err)) != STATUS_OK)
            break;
        for (uint64_t p = gc->pos_start[g]; st == STATUS_OK && p < gc->pos_end[g]; p++) {
            GameResult res;
            if (rules_game_over(b, &res))
                st = error_set(err, STATUS_FORMAT, "game %u: over at ply %d but goes on",
                               gc->game_id[g], board_game_ply(b));
            else
                st = check_position(d, p, b, scratch, err);
            if (st == STATUS_OK)
                board_make(b, d->positions.move[p]);
        }
        // A standalone position's result is its source game's, not its own board's.
        if (st == STATUS_OK && !d->standalone)
            st = check_end(d, g, b, err);
    }
    free(b);
    free(scratch);
    return st;
}

Status verify_pv_meta(const StoreMeta *m, int64_t *shard, ErrorInfo *err) {
    size_t len = strlen(H5STORE_PV_SCHEDULE);
    char *end = NULL;
    *shard = -1;
    if (m->openings[0])
        return error_set(err, STATUS_FORMAT,
                         "a file of PV ends with an openings attribute (its positions start from "
                         "their boards)");
    size_t merged = strlen(H5STORE_PV_MERGED_SCHEDULE);
    if (strncmp(m->schedule, H5STORE_PV_MERGED_SCHEDULE, merged) == 0 &&
        (!m->schedule[merged] || m->schedule[merged] == ','))
        return STATUS_OK; // several shards' (h5store_merge)
    if (strncmp(m->schedule, H5STORE_PV_SCHEDULE, len) == 0 &&
        isdigit((unsigned char)m->schedule[len]))
        *shard = strtoll(m->schedule + len, &end, 10);
    if (!end || *end != ',' || *shard == INT64_MAX)
        return *shard = -1, error_set(err, STATUS_FORMAT,
                                      "formation_schedule \"%s\" does not name the shard of its PV "
                                      "ends (\"%s<k>, ...\")",
                                      m->schedule, H5STORE_PV_SCHEDULE);
    return STATUS_OK;
}

// One file of a run folder: its shard number, and for a PV-end file the line shard it names.
typedef struct RunFile {
    int64_t number, line; // line: -1 for a line shard
} RunFile;

static int compare_id(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

// Each PV end of the file pv comes from a game of the line shard file line (its seed).
static Status check_sources(const char *pv, const char *line, ErrorInfo *err) {
    ShardData a, b;
    shard_data_init(&a);
    shard_data_init(&b);
    Status st = h5store_read(pv, NULL, &a, err);
    if (st == STATUS_OK)
        st = h5store_read(line, NULL, &b, err);
    if (st == STATUS_OK && b.games.count)
        qsort(b.games.game_id, b.games.count, sizeof *b.games.game_id, compare_id);
    for (size_t g = 0; st == STATUS_OK && g < a.games.count; g++) {
        uint32_t src = (uint32_t)a.games.seed[g];
        if (a.games.seed[g] > UINT32_MAX ||
            !bsearch(&src, b.games.game_id, b.games.count, sizeof src, compare_id))
            st = error_set(err, STATUS_FORMAT,
                           "%s: PV end %u comes from game %llu, not a game of its line shard %s",
                           pv, a.games.game_id[g], (unsigned long long)a.games.seed[g], line);
    }
    shard_data_free(&a);
    shard_data_free(&b);
    return st;
}

// The run's PV-end files against its line shards (f: the n files' numbers and lines; base the
// number of the PV-end file of shard 0; pv_run whether the run stores PV ends).
static Status check_pairs(char **paths, const RunFile *f, size_t n, int64_t base, bool pv_run,
                          ErrorInfo *err) {
    for (size_t i = 0; i < n; i++) {
        int64_t want = f[i].line >= 0 ? f[i].line : f[i].number;
        size_t j = 0;
        while (j < n && !(f[j].line < 0 ? f[j].number == want && f[i].line >= 0
                                        : f[j].line == want && f[i].line < 0))
            j++;
        if (f[i].line < 0 && f[i].number >= base && base >= 0)
            return error_set(err, STATUS_FORMAT,
                             "%s: a line shard numbered past the run's PV-end files (file %lld "
                             "holds the PV ends of shard 0)",
                             paths[i], (long long)base);
        if (f[i].line >= 0 && j == n)
            return error_set(err, STATUS_FORMAT,
                             "%s: holds the PV ends of shard %lld, whose file is missing (an "
                             "interrupted run? resume it)",
                             paths[i], (long long)f[i].line);
        if (f[i].line < 0 && j == n && pv_run)
            return error_set(err, STATUS_FORMAT,
                             "%s: a shard of a run with PV ends (pv_ends=1) whose PV-end file is "
                             "missing",
                             paths[i]);
        Status st = f[i].line >= 0 ? check_sources(paths[i], paths[j], err) : STATUS_OK;
        if (st != STATUS_OK)
            return st;
    }
    return STATUS_OK;
}

Status verify_pv_run(const char *dir, ErrorInfo *err) {
    char **paths = NULL;
    size_t n = 0, rows, games;
    StoreMeta *m = malloc(sizeof *m);
    Status st = m ? h5store_list_files(dir, &paths, &n, err)
                  : error_set(err, STATUS_NOMEM, "out of memory");
    RunFile *f = st == STATUS_OK ? calloc(n + 1, sizeof *f) : NULL;
    if (st == STATUS_OK && !f)
        st = error_set(err, STATUS_NOMEM, "out of memory");
    int64_t base = -1;
    bool pv_run = false;
    for (size_t i = 0; st == STATUS_OK && i < n; i++) {
        if ((st = h5store_read_meta(paths[i], m, &games, &rows, err)) != STATUS_OK)
            break;
        f[i].number = h5store_shard_number(paths[i]);
        f[i].line = -1;
        pv_run |= strstr(m->run_config, " pv_ends=1 ") != NULL;
        if (!h5store_schedule_standalone(m->schedule))
            continue;
        ErrorInfo e;
        if (verify_pv_meta(m, &f[i].line, &e) != STATUS_OK)
            st = error_set(err, STATUS_FORMAT, "%s: %s", paths[i], e.msg);
        else if (f[i].line < 0)
            st = error_set(err, STATUS_FORMAT,
                           "%s: a merged file of PV ends inside a run folder (move it out)",
                           paths[i]);
        else if (base >= 0 && f[i].number - f[i].line != base)
            st = error_set(err, STATUS_FORMAT,
                           "%s: holds the PV ends of shard %lld, but file %lld holds shard 0's "
                           "(file n + k holds shard k's: files swapped?)",
                           paths[i], (long long)f[i].line, (long long)base);
        base = f[i].number - f[i].line;
    }
    if (st == STATUS_OK)
        st = check_pairs(paths, f, n, base, pv_run, err);
    free(f);
    free(m);
    h5store_free_list(paths, n);
    return st;
}
