// SPDX-License-Identifier: MIT
// CECP (XBoard protocol version 2): the command loop, the searches a command starts (the game's
// move, pondering, analysis) in a thread of their own, their output, the claims of a game's end,
// the evaluation in use. The commands are cecp_commands.c's; searching and rules are the engine
// API's (search.h, rules.h).
#include "cecp.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "board.h"
#include "cecp_commands.h"
#include "cecp_context.h"
#include "fen.h"
#include "movegen.h"
#include "nnue.h"
#include "notation.h"
#include "prng.h"
#include "rules.h"
#include "search.h"
#include "strength.h"
#include "timeman.h"
#include "variant.h"

// ---------------------------------------------------------------------------------------
// Answers

// The result of an ended game as XBoard reads it: `1-0 {Cho wins by checkmate}`.
static void claim_result(CecpContext *ctx, const GameResult *gr) {
    const Variant *v = ctx->board.variant;
    if (gr->draw)
        fprintf(ctx->out, "1/2-1/2 {draw by %s}\n", rules_reason_name(gr->reason));
    else
        fprintf(ctx->out, "%s {%s wins by %s}\n", gr->winner == CHO ? "1-0" : "0-1",
                v->side_names[gr->winner], rules_reason_name(gr->reason));
}

// Claims the result when the game is over and the engine plays a side, once for a position.
// True when over.
static bool game_over(CecpContext *ctx) {
    GameResult gr;
    if (!rules_game_over(&ctx->board, &gr))
        return false;
    uint64_t key = board_key(&ctx->board) ^ (uint64_t)board_game_ply(&ctx->board);
    if (ctx->engine_side != SIDE_NB && key != ctx->claimed) {
        claim_result(ctx, &gr);
        ctx->claimed = key;
    }
    return true;
}

// Thinking output: `DEPTH SCORE TIME NODES PV`, time in centiseconds, a decided score as
// +-(100000 + moves to the end). Only lines: CECP has no current-move report.
static void on_info(const SearchInfo *info, void *arg) {
    CecpContext *ctx = arg;
    if (info->kind != SEARCH_INFO_LINE)
        return;
    pthread_mutex_lock(&ctx->out_lock);
    if (ctx->mode == MODE_ANALYZE || (ctx->post && ctx->mode == MODE_THINK)) {
        int score = info->score;
        if (score_is_decided(score)) {
            int moves = (score_end_plies(score) + 1) / 2;
            score = score > 0 ? CECP_MATE_BASE + moves : -CECP_MATE_BASE - moves;
        }
        fprintf(ctx->out, "%d %d %lld %llu", info->depth, score, (long long)(info->time_ms / 10),
                (unsigned long long)info->nodes);
        for (int i = 0; i < info->pv_len; i++) {
            char mv[MOVE_STR_LEN];
            move_to_cecp(info->pv[i], mv);
            fprintf(ctx->out, " %s", mv);
        }
        fprintf(ctx->out, "\n");
        fflush(ctx->out);
    }
    pthread_mutex_unlock(&ctx->out_lock);
}

// ---------------------------------------------------------------------------------------
// Searches

// Writes the pongs that waited for the game search's move (with out_lock held).
static void write_pongs(CecpContext *ctx) {
    if (!ctx->pongs)
        return;
    fputs(ctx->pongs, ctx->out);
    free(ctx->pongs);
    ctx->pongs = NULL;
    ctx->pongs_len = 0;
}

static void think_limits(CecpContext *ctx, const Board *b, int64_t spent_ms, SearchLimits *lim);

// Plays a game search's answer r (unless a command aborted it) and claims the result if the game
// is over. True, with the position to ponder on in ctx->search_board and its limits, when the
// engine ponders on r's expected reply.
static bool play_answer(CecpContext *ctx, const SearchResult *r) {
    bool ponder = false;
    if (!atomic_load(&ctx->abort) && r->best != MOVE_NONE) {
        char mv[MOVE_STR_LEN];
        move_to_cecp(r->best, mv);
        board_make(&ctx->board, r->best);
        fprintf(ctx->out, "move %s\n", mv);
        ctx->ponder_move = r->ponder;
        ponder = !game_over(ctx) && ctx->ponder && r->ponder != MOVE_NONE &&
                 movegen_is_pseudo_legal(&ctx->board, r->ponder) &&
                 movegen_is_legal(&ctx->board, r->ponder) && !atomic_load(&ctx->stop);
    } else if (!atomic_load(&ctx->abort))
        game_over(ctx);
    write_pongs(ctx); // after the move, as the protocol asks of a ping sent while thinking
    fflush(ctx->out);
    atomic_store(&ctx->played, true);
    if (ponder) {
        // The search of the engine's next move, begun now on the expected reply: its clock is
        // the engine's after this move (less the time it took, plus the increment) and starts
        // at the ponderhit (search_ponderhit), as UCI's go ponder.
        ctx->search_board = ctx->board;
        board_make(&ctx->search_board, r->ponder);
        think_limits(ctx, &ctx->search_board, r->time_ms, &ctx->limits);
        ctx->limits.ponder = true;
        search_ponder_reset(ctx->searcher);
        atomic_store(&ctx->mode, MODE_PONDER);
    }
    return ponder;
}

// A search of the game's move plays it, claims the result if the game is over, and with
// pondering on goes on to search the engine's next move on the expected reply until stopped:
// when the opponent plays that reply (ponder_hit) the pondering search becomes the search
// of the move, on the clock, and its answer is played in turn. A pondering search that ends
// before the opponent moves (a node or depth limit, a game end found) waits for the ponderhit.
static void *search_thread(void *arg) {
    CecpContext *ctx = arg;
    for (;;) {
        SearchResult r =
            search_run(ctx->searcher, &ctx->search_board, &ctx->limits, on_info, ctx, &ctx->stop);
        while (atomic_load(&ctx->mode) == MODE_PONDER && !atomic_load(&ctx->stop)) {
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
        }
        if (atomic_load(&ctx->mode) != MODE_THINK)
            return NULL;
        pthread_mutex_lock(&ctx->out_lock);
        bool ponder = play_answer(ctx, &r);
        pthread_mutex_unlock(&ctx->out_lock);
        if (!ponder)
            return NULL;
    }
}

// Whether a move text of the game (usermove's or a bare move) is the reply a running pondering
// search expected: then the search goes on as the engine's search of its move, on the clock
// from now (a ponderhit: search_ponderhit), the move is played on ctx->board, and true. False,
// nothing changed, otherwise (no pondering search, another move, a text that is no move).
static bool ponder_hit(CecpContext *ctx, const char *text) {
    Move m;
    ErrorInfo err;
    if (!ctx->searching || atomic_load(&ctx->mode) != MODE_PONDER || atomic_load(&ctx->stop) ||
        ctx->engine_side != (int)ctx->search_board.side ||
        move_parse_cecp(&ctx->board, text, &m, &err) != STATUS_OK || m != ctx->ponder_move)
        return false;
    pthread_mutex_lock(&ctx->out_lock);
    board_make(&ctx->board, m);
    search_ponderhit(ctx->searcher);
    atomic_store(&ctx->played, false);
    atomic_store(&ctx->mode, MODE_THINK);
    pthread_mutex_unlock(&ctx->out_lock);
    return true;
}

// Ends the running search: abort plays no move of a game search, else it plays what it has.
static void end_search(CecpContext *ctx, bool abort) {
    if (!ctx->searching)
        return;
    atomic_store(&ctx->abort, abort);
    atomic_store(&ctx->stop, true);
    pthread_join(ctx->thread, NULL);
    ctx->searching = false;
}

void cecp_wait(CecpContext *ctx) {
    if (!ctx->searching)
        return;
    // A game search goes on pondering in its thread after its move: wait for the move only.
    while (ctx->mode == MODE_THINK && !atomic_load(&ctx->played)) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    end_search(ctx, false); // pondering and analysis run until stopped
}

static void start_search(CecpContext *ctx, CecpMode mode) {
    atomic_store(&ctx->mode, mode);
    ctx->search_board = ctx->board;
    atomic_store(&ctx->stop, false);
    atomic_store(&ctx->abort, false);
    atomic_store(&ctx->played, false);
    if (pthread_create(&ctx->thread, NULL, search_thread, ctx) != 0) {
        fprintf(ctx->out, "Error (cannot start the search thread): go\n");
        return;
    }
    ctx->searching = true;
}

// The limits of the engine's move at b: sd's depth, st's time, or the clocks of level (the
// moves left in the period from the move number), all less Move Overhead; spent_ms > 0 when b
// is a position to ponder on: the engine's clock is then time less spent_ms plus the increment.
// A clock at 0 moves at once (a depth-1 search, always finished). Then the strength (Skill
// Level, UCI_Elo: strength.h).
static void think_limits(CecpContext *ctx, const Board *b, int64_t spent_ms, SearchLimits *lim) {
    Side us = b->side;
    memset(lim, 0, sizeof *lim);
    lim->depth = ctx->depth;
    lim->move_overhead = ctx->move_overhead;
    if (ctx->st_ms)
        lim->movetime = ctx->st_ms;
    else {
        int64_t mine = ctx->time_ms - (spent_ms > 0 ? spent_ms - ctx->level_inc_ms : 0);
        lim->time[us] = mine > 0 ? mine : 0;
        lim->time[!us] = ctx->otim_ms > 0 ? ctx->otim_ms : 0;
        lim->inc[CHO] = lim->inc[HAN] = ctx->level_inc_ms;
        if (ctx->level_moves) {
            int done = board_game_ply(b) / 2 % ctx->level_moves;
            lim->movestogo = ctx->level_moves - done;
        }
        if (lim->time[us] == 0) {
            memset(lim, 0, sizeof *lim);
            lim->depth = 1;
        }
    }
    strength_apply(lim, b->variant, ctx->limit_strength, ctx->elo, ctx->skill);
    lim->skill_seed = prng_next(&ctx->skill_seed);
}

// Starts what the engine does now: analysis, or its move when it is on move (or claims the
// result when the game is over), or nothing.
static void resume(CecpContext *ctx) {
    if (ctx->searching)
        return;
    if (ctx->analyzing) {
        memset(&ctx->limits, 0, sizeof ctx->limits);
        ctx->limits.infinite = true;
        start_search(ctx, MODE_ANALYZE);
    } else if (ctx->engine_side == (int)ctx->board.side && !game_over(ctx)) {
        think_limits(ctx, &ctx->board, 0, &ctx->limits);
        start_search(ctx, MODE_THINK);
    }
}

// ---------------------------------------------------------------------------------------
// Life cycle

CecpContext *cecp_create(FILE *out) {
    CecpContext *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return NULL;
    ctx->out = out;
    ctx->searcher = search_create(CECP_HASH_DEFAULT_MB);
    if (!ctx->searcher) {
        free(ctx);
        return NULL;
    }
    atomic_init(&ctx->stop, false);
    atomic_init(&ctx->abort, false);
    atomic_init(&ctx->played, false);
    atomic_init(&ctx->mode, MODE_THINK);
    pthread_mutex_init(&ctx->out_lock, NULL);
    ctx->engine_side = SIDE_NB;
    ctx->post = true;
    ctx->level_base_ms = ctx->time_ms = ctx->otim_ms = 5 * 60 * 1000; // 40 moves in 5 minutes
    ctx->level_moves = 40;
    ctx->move_overhead = CECP_MOVE_OVERHEAD_DEFAULT_MS;
    ctx->use_nnue = true;
    ctx->skill = SEARCH_SKILL_MAX;
    ctx->elo = STRENGTH_ELO_DEFAULT;
    ctx->skill_seed = (uint64_t)timeman_now_ms() * 0x9e3779b97f4a7c15ull;
    cecp_set_variant(ctx, variant_default());
    return ctx;
}

void cecp_destroy(CecpContext *ctx) {
    if (!ctx)
        return;
    end_search(ctx, true);
    search_destroy(ctx->searcher);
    free(ctx->pongs);
    free(ctx->net);
    pthread_mutex_destroy(&ctx->out_lock);
    free(ctx);
}

// A bare move (protocol version 1, or typed by hand): two squares, or a pass.
static bool looks_like_move(const char *s) {
    if (strcmp(s, "@@@@") == 0 || strcmp(s, "0000") == 0 || strcmp(s, "pass") == 0)
        return true;
    return strlen(s) == 4 && s[0] >= 'a' && s[0] <= 'i' && s[1] >= '0' && s[1] <= '9' &&
           s[2] >= 'a' && s[2] <= 'i' && s[3] >= '0' && s[3] <= '9';
}

// Brings a running search to the state the command needs before it runs.
static void settle(CecpContext *ctx, Meets meets) {
    if (!ctx->searching)
        return;
    if (meets == MOVE_NOW && atomic_load(&ctx->mode) == MODE_THINK)
        end_search(ctx, false);
    else if (meets == ENDS_SEARCH)
        end_search(ctx, atomic_load(&ctx->mode) == MODE_THINK);
    // `easy` while pondering: stop using the opponent's time.
}

bool cecp_handle_line(CecpContext *ctx, const char *line) {
    if (strnlen(line, CECP_MAX_LINE + 1) > CECP_MAX_LINE) {
        fprintf(ctx->out, "Error (command longer than %d characters): line\n", CECP_MAX_LINE);
        fflush(ctx->out);
        return true;
    }
    char *copy = strdup(line);
    if (!copy)
        return true;
    // The command word, then the rest of the line with its spaces kept (a FEN, an option).
    char *p = copy + strspn(copy, " \t");
    p[strcspn(p, "\r\n")] = '\0';
    char *args = p + strcspn(p, " \t");
    if (*args)
        *args++ = '\0';
    args += strspn(args, " \t");
    for (size_t n = strlen(args); n && (args[n - 1] == ' ' || args[n - 1] == '\t'); n--)
        args[n - 1] = '\0';
    const CecpCommand *c = *p ? cecp_command_find(p) : NULL;
    bool move = !c && looks_like_move(p) && !*args;
    // The move the engine pondered on: its search goes on (a ponderhit), nothing else to do.
    if ((move || (c && strcmp(p, "usermove") == 0)) && ponder_hit(ctx, move ? p : args)) {
        free(copy);
        return true;
    }
    if (*p)
        settle(ctx, c ? c->meets : move ? ENDS_SEARCH : BESIDE);
    if (c && strcmp(p, "easy") == 0 && ctx->searching && atomic_load(&ctx->mode) == MODE_PONDER)
        end_search(ctx, true);
    pthread_mutex_lock(&ctx->out_lock);
    if (c)
        c->fn(ctx, p, args);
    else if (move)
        cecp_play_move(ctx, p);
    else if (*p)
        cecp_reply_error(ctx, "unknown command", p);
    bool running = !c || strcmp(c->name, "quit") != 0;
    if (running && (!c || c->meets == ENDS_SEARCH))
        resume(ctx);
    fflush(ctx->out);
    pthread_mutex_unlock(&ctx->out_lock);
    free(copy);
    return running;
}

int cecp_loop(CecpContext *ctx, FILE *in) {
    size_t cap = 0;
    char *line = NULL;
    ssize_t len;
    while ((len = getline(&line, &cap, in)) >= 0) {
        if (memchr(line, '\0', (size_t)len)) {
            pthread_mutex_lock(&ctx->out_lock);
            fprintf(ctx->out, "Error (a NUL byte in the line): line\n");
            fflush(ctx->out);
            pthread_mutex_unlock(&ctx->out_lock);
            continue;
        }
        if (!cecp_handle_line(ctx, line))
            break;
    }
    cecp_wait(ctx);
    free(line);
    return 0;
}
