// SPDX-License-Identifier: MIT
// The CECP commands: the features, the game (new, variant, setboard, moves, undo, remove,
// result), the engine's side (force, go, playother), the clocks (level, st, sd, time, otim), the
// output (post), analysis, pondering (hard, easy, hint) and the settings (memory, cores, option).
// Each changes the context only; engine/cecp.c runs them and starts the searches they ask for.
#include "cecp_commands.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cecp_variant.h"
#include "fen.h"
#include "movegen.h"
#include "notation.h"
#include "rules.h"
#include "strength.h"
#include "tt.h"
#include "variant.h"

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
    fprintf(ctx->out, "feature option=\"EvalFile -file %s\"\n", CECP_EVAL_FILE_EMBEDDED);
    fprintf(ctx->out, "feature option=\"Move Overhead -spin %d 0 %d\"\n",
            CECP_MOVE_OVERHEAD_DEFAULT_MS, CECP_MOVE_OVERHEAD_MAX_MS);
    fprintf(ctx->out, "feature option=\"Clear Hash -button\"\n");
    fprintf(ctx->out, "feature option=\"Skill Level -spin %d 0 %d\"\n", ctx->skill,
            SEARCH_SKILL_MAX);
    fprintf(ctx->out, "feature option=\"UCI_LimitStrength -check %d\"\n", ctx->limit_strength);
    fprintf(ctx->out, "feature option=\"UCI_Elo -spin %d %d %d\"\n", ctx->elo, STRENGTH_ELO_MIN,
            STRENGTH_ELO_MAX);
    fprintf(ctx->out, "feature done=1\n");
}

static void cmd_ignored(CecpContext *ctx, const char *cmd, char *args) {
    (void)ctx, (void)cmd, (void)args;
}

static void cmd_ping(CecpContext *ctx, const char *cmd, char *args) {
    (void)cmd;
    cecp_answer_ping(ctx, args);
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
        cecp_reply_error(ctx, "unsupported variant", args);
        return;
    }
    (void)cmd;
    if (v != ctx->variant)
        cecp_set_variant(ctx, v);
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
    errno = 0;
    *v = strtoll(s, &end, 10);
    return !*end && errno != ERANGE && *v >= lo && *v <= hi;
}

// level MPS BASE INC: moves per period (0: the whole game), base in minutes or MIN:SEC,
// increment in seconds (a fraction allowed).
static void cmd_level(CecpContext *ctx, const char *cmd, char *args) {
    char mps[24], base[24], inc[24], extra;
    long long moves, min, sec = 0;
    if (sscanf(args, "%23s %23s %23s %c", mps, base, inc, &extra) != 3 ||
        !read_number(mps, 0, 10000, &moves)) {
        cecp_reply_error(ctx, "level needs MOVES BASE INCREMENT", cmd);
        return;
    }
    char *colon = strchr(base, ':');
    if (colon)
        *colon = '\0';
    char *end;
    double inc_s = strtod(inc, &end);
    if (!read_number(base, 0, 100000, &min) || (colon && !read_number(colon + 1, 0, 59, &sec)) ||
        *end || end == inc || inc_s < 0 || inc_s > 3600) {
        cecp_reply_error(ctx, "level: bad base time or increment", cmd);
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
        cecp_reply_error(ctx, "st needs seconds, 1 or more", cmd);
        return;
    }
    ctx->st_ms = s * 1000;
}

static void cmd_sd(CecpContext *ctx, const char *cmd, char *args) {
    long long d;
    if (!read_number(args, 1, DEPTH_MAX, &d)) {
        char why[48];
        snprintf(why, sizeof why, "sd needs a depth from 1 to %d", DEPTH_MAX);
        cecp_reply_error(ctx, why, cmd);
        return;
    }
    ctx->depth = (int)d;
}

// time N, otim N: the engine's and the opponent's clock in centiseconds (negative: flag fell).
static void cmd_time(CecpContext *ctx, const char *cmd, char *args) {
    long long cs;
    if (!read_number(args, -100000000, 100000000, &cs)) {
        cecp_reply_error(ctx, "needs centiseconds", cmd);
        return;
    }
    *(strcmp(cmd, "time") == 0 ? &ctx->time_ms : &ctx->otim_ms) = cs * 10;
}

// A move of the game, for either side (usermove MOVE, or a bare move).
void cecp_play_move(CecpContext *ctx, const char *text) {
    Move m;
    ErrorInfo err;
    char q[4 * CECP_ECHO_MAX + 4];
    cecp_quote(text, q, sizeof q);
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
    cecp_play_move(ctx, args);
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
        cecp_reply_error(ctx, "no move to take back", cmd);
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
        cecp_reply_error(ctx, "memory needs megabytes within the table's range", cmd);
    else if (!search_resize(ctx->searcher, (size_t)mb))
        cecp_reply_error(ctx, "not enough memory; kept the old table", cmd);
}

static void cmd_cores(CecpContext *ctx, const char *cmd, char *args) {
    long long n;
    if (!read_number(args, 1, LLONG_MAX, &n))
        cecp_reply_error(ctx, "cores needs a count of 1 or more", cmd);
    else if (!search_set_threads(ctx->searcher,
                                 n > SEARCH_THREADS_MAX ? SEARCH_THREADS_MAX : (int)n))
        cecp_reply_error(ctx, "not enough memory for that many threads; kept the old number", cmd);
    else if (n > SEARCH_THREADS_MAX) // allowed more than one search takes: said, as a comment
        fprintf(ctx->out, "# cores %lld: searching with %d, the most one search takes\n", n,
                SEARCH_THREADS_MAX);
}

// option NAME[=VALUE]: the settings of feature option.
static void cmd_option(CecpContext *ctx, const char *cmd, char *args) {
    char *eq = strchr(args, '=');
    const char *value = eq ? eq + 1 : "";
    long long v;
    if (eq)
        *eq = '\0';
    if (strcmp(args, "Use NNUE") == 0 && (strcmp(value, "0") == 0 || strcmp(value, "1") == 0))
        cecp_apply_eval(ctx, ctx->eval_file, value[0] == '1');
    else if (strcmp(args, "EvalFile") == 0 && *value)
        cecp_apply_eval(ctx, value, ctx->use_nnue);
    else if (strcmp(args, "Move Overhead") == 0 &&
             read_number(value, 0, CECP_MOVE_OVERHEAD_MAX_MS, &v))
        ctx->move_overhead = v;
    else if (strcmp(args, "Skill Level") == 0 && read_number(value, 0, SEARCH_SKILL_MAX, &v))
        ctx->skill = (int)v;
    else if (strcmp(args, "UCI_LimitStrength") == 0 &&
             (strcmp(value, "0") == 0 || strcmp(value, "1") == 0))
        ctx->limit_strength = value[0] == '1';
    else if (strcmp(args, "UCI_Elo") == 0 &&
             read_number(value, STRENGTH_ELO_MIN, STRENGTH_ELO_MAX, &v))
        ctx->elo = (int)v;
    else if (strcmp(args, "Clear Hash") == 0 && !eq)
        search_clear(ctx->searcher);
    else {
        char what[4 * CECP_ECHO_MAX + 40];
        cecp_quote(args, what, sizeof what);
        cecp_reply_error(ctx, "unknown option or bad value", what);
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

static const CecpCommand COMMANDS[] = {
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

const CecpCommand *cecp_command_find(const char *name) {
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        if (strcmp(name, COMMANDS[i].name) == 0)
            return &COMMANDS[i];
    return NULL;
}
