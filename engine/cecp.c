// SPDX-License-Identifier: MIT
// CECP (XBoard protocol version 2) command handling: the features, the game (new, variant,
// setboard, moves, undo, remove, result), the engine's side (force, go, playother), the clocks
// (level, st, sd, time, otim), thinking output (post), analysis, pondering (hard, easy), and the
// settings (memory, cores, option). Searching and rules are the engine API's (search.h, rules.h).
#include "cecp.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "board.h"
#include "cecp_variant.h"
#include "fen.h"
#include "movegen.h"
#include "nnue.h"
#include "notation.h"
#include "rules.h"
#include "search.h"
#include "tt.h"
#include "variant.h"

enum {
    CECP_MAX_LINE = 65536,
    HASH_DEFAULT_MB = 16,
    MOVE_OVERHEAD_DEFAULT_MS = 10,
    MOVE_OVERHEAD_MAX_MS = 5000,
    ECHO_MAX = 40, // bytes of the user's text quoted in an answer
    PATH_MAX_LEN = 1024,
    MATE_BASE = 100000 // XBoard reads a score of 100000 + N as a mate in N moves
};

static const char EVAL_FILE_EMBEDDED[] = "<embedded>";

// What the running search is for: a move of the game, pondering on the opponent's time (its
// result is never played), analysis (no move either).
typedef enum { MODE_THINK, MODE_PONDER, MODE_ANALYZE } Mode;

struct CecpContext {
    FILE *out;
    const Variant *variant;
    Board board;
    int engine_side; // the side the engine plays, SIDE_NB in force mode
    bool post, ponder, analyzing;
    // The clocks: `level` (moves per period, base and increment) or `st`, and `sd`; `time` and
    // `otim` as the GUI last sent them (ms).
    int level_moves, depth;
    int64_t level_base_ms, level_inc_ms, st_ms, time_ms, otim_ms;
    int64_t move_overhead;
    Searcher *searcher;
    NnueNet *net; // the evaluation: the net in use, NULL for the classical one
    bool use_nnue;
    char eval_file[PATH_MAX_LEN];
    Move ponder_move; // the reply the last search expected, MOVE_NONE when none
    uint64_t claimed; // the position (key ^ ply) whose end was last claimed
    // The running search: its thread, mode, position, limits; stop ends it, abort says that a
    // game search ended by a command plays no move.
    pthread_t thread;
    bool searching;
    atomic_int mode;                 // a Mode; the thread turns a game search into pondering
    atomic_bool stop, abort, played; // played: a game search has played (or given up) its move
    Board search_board;
    SearchLimits limits;
    pthread_mutex_t out_lock; // the search thread and the command handler share out and board
    Board scratch;
};

// ---------------------------------------------------------------------------------------
// Answers

// Writes len bytes of s into out (cap bytes) with every byte outside printable ASCII as \xNN,
// at most ECHO_MAX bytes of it, "..." when cut.
static void quote(const char *s, char *out, size_t cap) {
    size_t o = 0, len = strlen(s);
    for (size_t i = 0; i < len && i < ECHO_MAX && o + 5 <= cap; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f)
            out[o++] = (char)c;
        else
            o += (size_t)snprintf(out + o, cap - o, "\\x%02X", c);
    }
    out[o] = '\0';
    if (len > ECHO_MAX && o + 4 <= cap)
        strcat(out, "...");
}

// `Error (REASON): COMMAND`, the protocol's answer to a command it cannot carry out.
static void reply_error(CecpContext *ctx, const char *reason, const char *cmd) {
    char q[4 * ECHO_MAX + 4];
    quote(cmd, q, sizeof q);
    fprintf(ctx->out, "Error (%s): %s\n", reason, q);
}

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
// +-(100000 + moves to the end).
static void on_info(const SearchInfo *info, void *arg) {
    CecpContext *ctx = arg;
    pthread_mutex_lock(&ctx->out_lock);
    if (ctx->mode == MODE_ANALYZE || (ctx->post && ctx->mode == MODE_THINK)) {
        int score = info->score;
        if (score_is_decided(score)) {
            int moves = (score_end_plies(score) + 1) / 2;
            score = score > 0 ? MATE_BASE + moves : -MATE_BASE - moves;
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

// A search of the game's move plays it (unless a command aborted it), claims the result if the
// game is over, and with pondering on goes on to think about the expected reply until stopped.
static void *search_thread(void *arg) {
    CecpContext *ctx = arg;
    SearchResult r =
        search_run(ctx->searcher, &ctx->search_board, &ctx->limits, on_info, ctx, &ctx->stop);
    if (ctx->mode != MODE_THINK)
        return NULL;
    pthread_mutex_lock(&ctx->out_lock);
    bool ponder = false;
    if (!atomic_load(&ctx->abort) && r.best != MOVE_NONE) {
        char mv[MOVE_STR_LEN];
        move_to_cecp(r.best, mv);
        board_make(&ctx->board, r.best);
        fprintf(ctx->out, "move %s\n", mv);
        ctx->ponder_move = r.ponder;
        ponder = !game_over(ctx) && ctx->ponder && r.ponder != MOVE_NONE &&
                 movegen_is_pseudo_legal(&ctx->board, r.ponder) &&
                 movegen_is_legal(&ctx->board, r.ponder) && !atomic_load(&ctx->stop);
    } else if (!atomic_load(&ctx->abort))
        game_over(ctx);
    fflush(ctx->out);
    atomic_store(&ctx->played, true);
    if (ponder) {
        ctx->search_board = ctx->board;
        board_make(&ctx->search_board, r.ponder);
        memset(&ctx->limits, 0, sizeof ctx->limits);
        ctx->limits.infinite = true;
        atomic_store(&ctx->mode, MODE_PONDER);
    }
    pthread_mutex_unlock(&ctx->out_lock);
    if (ponder)
        search_run(ctx->searcher, &ctx->search_board, &ctx->limits, NULL, NULL, &ctx->stop);
    return NULL;
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

static void start_search(CecpContext *ctx, Mode mode) {
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

// The limits of a move of the game: sd's depth, st's time, or the clocks of level (the moves
// left in the period from the move number), all less Move Overhead. A clock at 0 moves at once
// (a depth-1 search, always finished).
static void think_limits(CecpContext *ctx, SearchLimits *lim) {
    Side us = ctx->board.side;
    memset(lim, 0, sizeof *lim);
    lim->depth = ctx->depth;
    lim->move_overhead = ctx->move_overhead;
    if (ctx->st_ms) {
        lim->movetime = ctx->st_ms;
        return;
    }
    lim->time[us] = ctx->time_ms > 0 ? ctx->time_ms : 0;
    lim->time[!us] = ctx->otim_ms > 0 ? ctx->otim_ms : 0;
    lim->inc[CHO] = lim->inc[HAN] = ctx->level_inc_ms;
    if (ctx->level_moves) {
        int done = board_game_ply(&ctx->board) / 2 % ctx->level_moves;
        lim->movestogo = ctx->level_moves - done;
    }
    if (lim->time[us] == 0) {
        memset(lim, 0, sizeof *lim);
        lim->depth = 1;
    }
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
        think_limits(ctx, &ctx->limits);
        start_search(ctx, MODE_THINK);
    }
}

// ---------------------------------------------------------------------------------------
// The evaluation: the net of the variant (EvalFile's, or the compiled-in one) when Use NNUE is
// on, the classical evaluation otherwise; a refused net leaves the evaluation as it was.

static bool apply_eval(CecpContext *ctx, const char *path, bool use_nnue) {
    NnueNet *net = NULL;
    ErrorInfo err;
    char eval_file[PATH_MAX_LEN]; // path may be ctx->eval_file itself
    snprintf(eval_file, sizeof eval_file, "%s", path);
    const char *file = strcmp(eval_file, EVAL_FILE_EMBEDDED) == 0 ? NULL : eval_file;
    if (nnue_load_selected(ctx->variant, use_nnue ? file : NULL, !use_nnue, &net, &err) !=
        STATUS_OK) {
        fprintf(ctx->out, "telluser EvalFile refused: %s\n", err.msg);
        return false;
    }
    search_set_net(ctx->searcher, NULL); // before the net it may hold is freed
    free(ctx->net);
    ctx->net = net;
    if (!search_set_net(ctx->searcher, net))
        fprintf(ctx->out, "telluser out of memory for the net's accumulators: classical\n");
    snprintf(ctx->eval_file, sizeof ctx->eval_file, "%s", eval_file);
    ctx->use_nnue = use_nnue;
    return true;
}

static void set_variant(CecpContext *ctx, const Variant *v) {
    ctx->variant = v;
    fen_parse_variant(&ctx->board, v, v->start_fen, NULL);
    // A new variant drops the old one's net: its own compiled-in one, if any.
    apply_eval(ctx, EVAL_FILE_EMBEDDED, ctx->use_nnue);
}

// ---------------------------------------------------------------------------------------
// Life cycle

CecpContext *cecp_create(FILE *out) {
    CecpContext *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return NULL;
    ctx->out = out;
    ctx->searcher = search_create(HASH_DEFAULT_MB);
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
    ctx->move_overhead = MOVE_OVERHEAD_DEFAULT_MS;
    ctx->use_nnue = true;
    set_variant(ctx, variant_default());
    return ctx;
}

void cecp_destroy(CecpContext *ctx) {
    if (!ctx)
        return;
    end_search(ctx, true);
    search_destroy(ctx->searcher);
    free(ctx->net);
    pthread_mutex_destroy(&ctx->out_lock);
    free(ctx);
}

// ---------------------------------------------------------------------------------------
// Commands. Each handler gets the command's name and the rest of its line (args, trimmed).

typedef void (*CommandFn)(CecpContext *ctx, const char *cmd, char *args);

// How a command meets a running search: it runs beside it (clocks, output, questions), makes a
// game search move now (`?`), or ends it first (whatever changes the game or the settings: a
// game search then plays no move; analysis restarts after it).
typedef enum { BESIDE, MOVE_NOW, ENDS_SEARCH } Meets;

static void cmd_protover(CecpContext *ctx, const char *cmd, char *args) {
    (void)cmd, (void)args;
    fprintf(ctx->out, "feature done=0 myname=\"Hansu 0.1.0\" ping=1 setboard=1 playother=1 "
                      "usermove=1 time=1 draw=0 sigint=0 sigterm=0 reuse=1 analyze=1 colors=0 "
                      "san=0 name=0 nps=0 pause=0 debug=1 memory=1 smp=1 exclude=0 "
                      "variants=\"");
    for (int i = 0; i < variant_count(); i++)
        fprintf(ctx->out, "%s%s", i ? "," : "", variant_at(i)->name);
    fprintf(ctx->out, "\"\n");
    fprintf(ctx->out, "feature option=\"Use NNUE -check %d\"\n", ctx->use_nnue);
    fprintf(ctx->out, "feature option=\"EvalFile -file %s\"\n", EVAL_FILE_EMBEDDED);
    fprintf(ctx->out, "feature option=\"Move Overhead -spin %d 0 %d\"\n", MOVE_OVERHEAD_DEFAULT_MS,
            MOVE_OVERHEAD_MAX_MS);
    fprintf(ctx->out, "feature option=\"Clear Hash -button\"\n");
    fprintf(ctx->out, "feature done=1\n");
}

static void cmd_ignored(CecpContext *ctx, const char *cmd, char *args) {
    (void)ctx, (void)cmd, (void)args;
}

static void cmd_ping(CecpContext *ctx, const char *cmd, char *args) {
    (void)cmd;
    fprintf(ctx->out, "pong %s\n", args);
}

static void cmd_new(CecpContext *ctx, const char *cmd, char *args) {
    (void)cmd, (void)args;
    fen_parse_variant(&ctx->board, ctx->variant, ctx->variant->start_fen, NULL);
    ctx->claimed = 0;       // a new game: its end is claimed again
    ctx->engine_side = HAN; // the engine plays the second side, the GUI moves first
    ctx->depth = 0;
    ctx->time_ms = ctx->otim_ms = ctx->level_base_ms;
    ctx->ponder_move = MOVE_NONE;
    search_clear(ctx->searcher);
}

static void cmd_variant(CecpContext *ctx, const char *cmd, char *args) {
    const Variant *v = variant_find(args);
    if (!v) {
        reply_error(ctx, "unsupported variant", args);
        return;
    }
    (void)cmd;
    if (v != ctx->variant)
        set_variant(ctx, v);
    else
        fen_parse_variant(&ctx->board, v, v->start_fen, NULL);
    cecp_variant_setup(v, ctx->out);
}

static void cmd_force(CecpContext *ctx, const char *cmd, char *args) {
    (void)cmd, (void)args;
    ctx->engine_side = SIDE_NB;
}

static void cmd_go(CecpContext *ctx, const char *cmd, char *args) {
    (void)cmd, (void)args;
    ctx->engine_side = ctx->board.side;
    ctx->analyzing = false;
}

static void cmd_playother(CecpContext *ctx, const char *cmd, char *args) {
    (void)cmd, (void)args;
    ctx->engine_side = !ctx->board.side;
}

// Reads a whole decimal number (optional sign) from s into *v within [lo, hi].
static bool read_number(const char *s, long long lo, long long hi, long long *v) {
    char *end;
    if (!*s)
        return false;
    *v = strtoll(s, &end, 10);
    return !*end && *v >= lo && *v <= hi;
}

// level MPS BASE INC: moves per period (0: the whole game), base in minutes or MIN:SEC,
// increment in seconds (a fraction allowed).
static void cmd_level(CecpContext *ctx, const char *cmd, char *args) {
    char mps[24], base[24], inc[24], extra;
    long long moves, min, sec = 0;
    if (sscanf(args, "%23s %23s %23s %c", mps, base, inc, &extra) != 3 ||
        !read_number(mps, 0, 10000, &moves)) {
        reply_error(ctx, "level needs MOVES BASE INCREMENT", cmd);
        return;
    }
    char *colon = strchr(base, ':');
    if (colon)
        *colon = '\0';
    char *end;
    double inc_s = strtod(inc, &end);
    if (!read_number(base, 0, 100000, &min) || (colon && !read_number(colon + 1, 0, 59, &sec)) ||
        *end || end == inc || inc_s < 0 || inc_s > 3600) {
        reply_error(ctx, "level: bad base time or increment", cmd);
        return;
    }
    ctx->level_moves = (int)moves;
    ctx->level_base_ms = ctx->time_ms = ctx->otim_ms = (min * 60 + sec) * 1000;
    ctx->level_inc_ms = (int64_t)(inc_s * 1000 + 0.5);
    ctx->st_ms = 0;
}

static void cmd_st(CecpContext *ctx, const char *cmd, char *args) {
    long long s;
    if (!read_number(args, 1, 1000000, &s)) {
        reply_error(ctx, "st needs seconds, 1 or more", cmd);
        return;
    }
    ctx->st_ms = s * 1000;
}

static void cmd_sd(CecpContext *ctx, const char *cmd, char *args) {
    long long d;
    if (!read_number(args, 1, DEPTH_MAX, &d)) {
        char why[48];
        snprintf(why, sizeof why, "sd needs a depth from 1 to %d", DEPTH_MAX);
        reply_error(ctx, why, cmd);
        return;
    }
    ctx->depth = (int)d;
}

// time N, otim N: the engine's and the opponent's clock in centiseconds (negative: flag fell).
static void cmd_time(CecpContext *ctx, const char *cmd, char *args) {
    long long cs;
    if (!read_number(args, -100000000, 100000000, &cs)) {
        reply_error(ctx, "needs centiseconds", cmd);
        return;
    }
    *(strcmp(cmd, "time") == 0 ? &ctx->time_ms : &ctx->otim_ms) = cs * 10;
}

// A move of the game, for either side (usermove MOVE, or a bare move).
static void play_move(CecpContext *ctx, const char *text) {
    Move m;
    ErrorInfo err;
    char q[4 * ECHO_MAX + 4];
    quote(text, q, sizeof q);
    GameResult gr;
    if (rules_game_over(&ctx->board, &gr)) {
        fprintf(ctx->out, "Illegal move (the game is over by %s): %s\n",
                rules_reason_name(gr.reason), q);
        return;
    }
    if (ctx->board.nstates >= MAX_GAME_PLY) {
        fprintf(ctx->out, "Illegal move (more moves than a game can hold): %s\n", q);
        return;
    }
    if (move_parse_cecp(&ctx->board, text, &m, &err) != STATUS_OK) {
        const char *reason = strstr(err.msg, "': "); // after "move 'TEXT': "
        fprintf(ctx->out, "Illegal move (%s): %s\n", reason ? reason + 3 : err.msg, q);
        return;
    }
    board_make(&ctx->board, m); // an end of the game is claimed by resume() when the engine plays
}

static void cmd_usermove(CecpContext *ctx, const char *cmd, char *args) {
    (void)cmd;
    if (!*args || strchr(args, ' ')) {
        fprintf(ctx->out, "Illegal move (usermove takes one move): %s\n", args);
        return;
    }
    play_move(ctx, args);
}

// setboard FEN. XBoard sends the position after a pass this way: when the FEN is the game's
// position after a pass, the pass is played, so that the game's history (repetitions, double
// pass) stays.
static void cmd_setboard(CecpContext *ctx, const char *cmd, char *args) {
    ErrorInfo err;
    (void)cmd;
    if (fen_parse_variant(&ctx->scratch, ctx->variant, args, &err) != STATUS_OK) {
        fprintf(ctx->out, "tellusererror Illegal position: %s\n", err.msg);
        return;
    }
    Move pass = move_make(ctx->board.general[ctx->board.side], ctx->board.general[ctx->board.side]);
    if (ctx->variant->pass && !board_in_check(&ctx->board) && ctx->board.nstates < MAX_GAME_PLY) {
        board_make(&ctx->board, pass);
        if (board_key(&ctx->board) == board_key(&ctx->scratch))
            return;
        board_unmake(&ctx->board);
    }
    ctx->board = ctx->scratch;
    ctx->ponder_move = MOVE_NONE;
    ctx->claimed = 0;
}

static void cmd_undo(CecpContext *ctx, const char *cmd, char *args) {
    int n = strcmp(cmd, "remove") == 0 ? 2 : 1;
    (void)args;
    if (ctx->board.nstates <= n) {
        reply_error(ctx, "no move to take back", cmd);
        return;
    }
    for (int i = 0; i < n; i++)
        board_unmake(&ctx->board);
}

static void cmd_result(CecpContext *ctx, const char *cmd, char *args) {
    (void)cmd, (void)args;
    ctx->engine_side = SIDE_NB;
}

static void cmd_post(CecpContext *ctx, const char *cmd, char *args) {
    (void)args;
    ctx->post = strcmp(cmd, "post") == 0;
}

static void cmd_hard(CecpContext *ctx, const char *cmd, char *args) {
    (void)args;
    ctx->ponder = strcmp(cmd, "hard") == 0;
}

static void cmd_analyze(CecpContext *ctx, const char *cmd, char *args) {
    (void)args;
    ctx->analyzing = strcmp(cmd, "analyze") == 0;
    ctx->engine_side = SIDE_NB; // analysis plays no side, nor does the engine after it
}

static void cmd_hint(CecpContext *ctx, const char *cmd, char *args) {
    (void)cmd, (void)args;
    Move m = ctx->ponder_move;
    char mv[MOVE_STR_LEN];
    if (m != MOVE_NONE && movegen_is_pseudo_legal(&ctx->board, m) &&
        movegen_is_legal(&ctx->board, m)) {
        move_to_cecp(m, mv);
        fprintf(ctx->out, "Hint: %s\n", mv);
    }
}

static void cmd_memory(CecpContext *ctx, const char *cmd, char *args) {
    long long mb;
    if (!read_number(args, 1, TT_MB_MAX, &mb))
        reply_error(ctx, "memory needs megabytes within the table's range", cmd);
    else if (!search_resize(ctx->searcher, (size_t)mb))
        reply_error(ctx, "not enough memory; kept the old table", cmd);
}

static void cmd_cores(CecpContext *ctx, const char *cmd, char *args) {
    long long n;
    if (!read_number(args, 1, 1 << 20, &n))
        reply_error(ctx, "cores needs a count of 1 or more", cmd);
    else if (!search_set_threads(ctx->searcher,
                                 n > SEARCH_THREADS_MAX ? SEARCH_THREADS_MAX : (int)n))
        reply_error(ctx, "not enough memory for that many threads; kept the old number", cmd);
}

// option NAME[=VALUE]: the settings of feature option.
static void cmd_option(CecpContext *ctx, const char *cmd, char *args) {
    char *eq = strchr(args, '=');
    const char *value = eq ? eq + 1 : "";
    long long v;
    if (eq)
        *eq = '\0';
    if (strcmp(args, "Use NNUE") == 0 && (strcmp(value, "0") == 0 || strcmp(value, "1") == 0))
        apply_eval(ctx, ctx->eval_file, value[0] == '1');
    else if (strcmp(args, "EvalFile") == 0 && *value)
        apply_eval(ctx, value, ctx->use_nnue);
    else if (strcmp(args, "Move Overhead") == 0 && read_number(value, 0, MOVE_OVERHEAD_MAX_MS, &v))
        ctx->move_overhead = v;
    else if (strcmp(args, "Clear Hash") == 0 && !eq)
        search_clear(ctx->searcher);
    else {
        char what[4 * ECHO_MAX + 40];
        quote(args, what, sizeof what);
        reply_error(ctx, "unknown option or bad value", what);
        (void)cmd;
    }
}

// d: the position as comment lines (XBoard ignores lines that start with #): the FEN.
static void cmd_display(CecpContext *ctx, const char *cmd, char *args) {
    char fen[FEN_BUFFER];
    (void)cmd, (void)args;
    fen_write(&ctx->board, fen, sizeof fen);
    fprintf(ctx->out, "# variant %s fen %s\n", ctx->variant->name, fen);
}

typedef struct Command {
    const char *name;
    CommandFn fn;
    Meets meets;
} Command;

static const Command COMMANDS[] = {
    {"xboard", cmd_ignored, BESIDE},
    {"protover", cmd_protover, BESIDE},
    {"accepted", cmd_ignored, BESIDE},
    {"rejected", cmd_ignored, BESIDE},
    {"ping", cmd_ping, BESIDE},
    {"new", cmd_new, ENDS_SEARCH},
    {"variant", cmd_variant, ENDS_SEARCH},
    {"force", cmd_force, ENDS_SEARCH},
    {"go", cmd_go, ENDS_SEARCH},
    {"playother", cmd_playother, ENDS_SEARCH},
    {"level", cmd_level, BESIDE},
    {"st", cmd_st, BESIDE},
    {"sd", cmd_sd, BESIDE},
    {"time", cmd_time, BESIDE},
    {"otim", cmd_time, BESIDE},
    {"usermove", cmd_usermove, ENDS_SEARCH},
    {"?", cmd_ignored, MOVE_NOW},
    {"setboard", cmd_setboard, ENDS_SEARCH},
    {"undo", cmd_undo, ENDS_SEARCH},
    {"remove", cmd_undo, ENDS_SEARCH},
    {"result", cmd_result, ENDS_SEARCH},
    {"post", cmd_post, BESIDE},
    {"nopost", cmd_post, BESIDE},
    {"hard", cmd_hard, BESIDE},
    {"easy", cmd_hard, BESIDE},
    {"analyze", cmd_analyze, ENDS_SEARCH},
    {"exit", cmd_analyze, ENDS_SEARCH},
    {".", cmd_ignored, BESIDE},
    {"hint", cmd_hint, BESIDE},
    {"computer", cmd_ignored, BESIDE},
    {"random", cmd_ignored, BESIDE},
    {"name", cmd_ignored, BESIDE},
    {"rating", cmd_ignored, BESIDE},
    {"ics", cmd_ignored, BESIDE},
    {"memory", cmd_memory, ENDS_SEARCH},
    {"cores", cmd_cores, ENDS_SEARCH},
    {"option", cmd_option, ENDS_SEARCH},
    {"d", cmd_display, BESIDE},
    {"quit", cmd_ignored, ENDS_SEARCH},
};

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
    const Command *c = NULL;
    for (size_t i = 0; *p && i < sizeof COMMANDS / sizeof COMMANDS[0] && !c; i++)
        if (strcmp(p, COMMANDS[i].name) == 0)
            c = &COMMANDS[i];
    bool move = !c && looks_like_move(p) && !*args;
    if (*p)
        settle(ctx, c ? c->meets : move ? ENDS_SEARCH : BESIDE);
    if (c && c->fn == cmd_hard && strcmp(p, "easy") == 0 && ctx->searching &&
        atomic_load(&ctx->mode) == MODE_PONDER)
        end_search(ctx, true);
    pthread_mutex_lock(&ctx->out_lock);
    if (c)
        c->fn(ctx, p, args);
    else if (move)
        play_move(ctx, p);
    else if (*p)
        reply_error(ctx, "unknown command", p);
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
