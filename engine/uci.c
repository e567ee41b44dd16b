// SPDX-License-Identifier: MIT
// UCI command handling in Fairy-Stockfish's janggi dialect: the context's life and the command
// loop (uci, isready, ucinewgame, setoption, position, go, stop, ponderhit, d, eval, bench, quit),
// over the commands (uci_commands.c), the option table (uci_options.c) and the context they share
// (uci_context.c).
#include "uci.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "search.h"
#include "strength.h"
#include "timeman.h"
#include "uci_commands.h"
#include "uci_context.h"
#include "uci_options.h"
#include "variant.h"

UciContext *uci_create(FILE *out) {
    UciContext *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return NULL;
    ctx->out = out;
    ctx->hash_mb = UCI_HASH_DEFAULT_MB;
    ctx->move_overhead = UCI_MOVE_OVERHEAD_DEFAULT_MS;
    ctx->multipv = 1;
    ctx->skill = SEARCH_SKILL_MAX;
    ctx->elo = STRENGTH_ELO_DEFAULT;
    ctx->skill_seed = (uint64_t)timeman_now_ms() * 0x9e3779b97f4a7c15ull;
    ctx->position_ok = true;
    ctx->searcher = search_create(ctx->hash_mb);
    if (!ctx->searcher) {
        free(ctx);
        return NULL;
    }
    atomic_init(&ctx->stop, false);
    atomic_init(&ctx->ponderhit, false);
    pthread_mutex_init(&ctx->out_lock, NULL);
    ctx->variant = variant_default();
    fen_parse(&ctx->board, FEN_START, NULL);
    uci_nnue_take_embedded(ctx);
    uci_nnue_apply(ctx);
    return ctx;
}

void uci_wait(UciContext *ctx) {
    if (!ctx->searching)
        return;
    pthread_join(ctx->thread, NULL);
    ctx->searching = false;
}

// Ends a running search or perft now (its bestmove or its count so far is still printed).
static void stop_search(UciContext *ctx) {
    atomic_store(&ctx->stop, true);
    uci_wait(ctx);
}

void uci_destroy(UciContext *ctx) {
    if (!ctx)
        return;
    stop_search(ctx);
    search_destroy(ctx->searcher);
    free(ctx->net);
    pthread_mutex_destroy(&ctx->out_lock);
    free(ctx);
}

// Splits line into whitespace-separated tokens (modifies line). Returns the count, or -1
// when there are more than max.
static int tokenize(char *line, char **tokens, int max) {
    int n = 0;
    for (char *tok = strtok(line, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n")) {
        if (n == max)
            return -1;
        tokens[n++] = tok;
    }
    return n;
}

// Commands that may run beside a search: the rest wait for it (or stop `go infinite`).
static bool runs_beside_search(const char *cmd) {
    return strcmp(cmd, "isready") == 0 || strcmp(cmd, "uci") == 0 || strcmp(cmd, "ponderhit") == 0;
}

// Ends the running search or perft, if any: stopped when told to (`stop`, `quit`) or when it
// would wait for a stop forever (waits_for_stop), else waited for (a finite search or perft
// finishes and answers).
static void end_job(UciContext *ctx, bool told_to_stop) {
    if (ctx->searching && (told_to_stop || uci_waits_for_stop(ctx)))
        stop_search(ctx);
    else
        uci_wait(ctx);
}

// Waits for (or stops) a running search before command cmd, unless cmd runs beside it.
static void settle_search(UciContext *ctx, const char *cmd) {
    if (ctx->searching && !runs_beside_search(cmd))
        end_job(ctx, strcmp(cmd, "stop") == 0 || strcmp(cmd, "quit") == 0);
}

// A line too long (over UCI_MAX_LINE bytes) or too many tokens to read: refused whole, with
// what its command implies. A refused `position` leaves no position to search (as any refused
// position does), and a refused `go` still gets its one `bestmove (none)`.
static void refuse_line(UciContext *ctx, const char *cmd, const char *why) {
    settle_search(ctx, cmd);
    pthread_mutex_lock(&ctx->out_lock);
    uci_reply_error(ctx, why);
    if (strcmp(cmd, "position") == 0)
        ctx->position_ok = false;
    else if (strcmp(cmd, "go") == 0)
        fprintf(ctx->out, "bestmove (none)\n");
    fflush(ctx->out);
    pthread_mutex_unlock(&ctx->out_lock);
}

// The first word of line (at most cap - 1 bytes of it) into cmd.
static void first_word(const char *line, char *cmd, size_t cap) {
    size_t i = 0;
    line += strspn(line, " \t\r\n");
    while (line[i] && !strchr(" \t\r\n", line[i]) && i + 1 < cap) {
        cmd[i] = line[i];
        i++;
    }
    cmd[i] = '\0';
}

bool uci_handle_line(UciContext *ctx, const char *line) {
    char cmd[16];
    first_word(line, cmd, sizeof cmd);
    if (strnlen(line, UCI_MAX_LINE + 1) > UCI_MAX_LINE) {
        refuse_line(ctx, cmd, "command longer than 65536 characters");
        return true;
    }
    char *copy = strdup(line);
    char **tokens = ctx->tokens;
    if (!copy) {
        refuse_line(ctx, cmd, "out of memory");
        return true;
    }
    bool running = true;
    int n = tokenize(copy, tokens, UCI_MAX_TOKENS);
    if (n < 0) {
        refuse_line(ctx, cmd, "command has too many tokens");
        free(copy);
        return true;
    }
    if (n > 0)
        settle_search(ctx, tokens[0]);
    pthread_mutex_lock(&ctx->out_lock);
    if (n == 0)
        ;
    else if (strcmp(tokens[0], "uci") == 0)
        uci_options_list(ctx);
    else if (strcmp(tokens[0], "isready") == 0)
        fprintf(ctx->out, "readyok\n");
    else if (strcmp(tokens[0], "ucinewgame") == 0)
        search_clear(ctx->searcher);
    else if (strcmp(tokens[0], "setoption") == 0)
        uci_options_set(ctx, tokens, n);
    else if (strcmp(tokens[0], "position") == 0)
        uci_position(ctx, tokens, n);
    else if (strcmp(tokens[0], "go") == 0)
        uci_go(ctx, tokens, n);
    else if (strcmp(tokens[0], "stop") == 0)
        ;
    else if (strcmp(tokens[0], "ponderhit") == 0)
        uci_ponderhit(ctx);
    else if (strcmp(tokens[0], "d") == 0)
        uci_display(ctx);
    else if (strcmp(tokens[0], "eval") == 0)
        uci_eval(ctx);
    else if (strcmp(tokens[0], "bench") == 0)
        uci_bench(ctx, tokens, n);
    else if (strcmp(tokens[0], "quit") == 0)
        running = false;
    else {
        char quoted[4 * UCI_ECHO_MAX + 4], msg[sizeof quoted + 32];
        uci_quote_text(tokens[0], strlen(tokens[0]), quoted, sizeof quoted);
        snprintf(msg, sizeof msg, "unknown command '%s'", quoted);
        uci_reply_error(ctx, msg);
    }
    fflush(ctx->out);
    pthread_mutex_unlock(&ctx->out_lock);
    free(copy);
    return running;
}

// A line that holds a NUL byte would reach the handler cut short at it: refused whole,
// naming the byte.
static bool refuse_nul(UciContext *ctx, const char *line, size_t len) {
    const char *nul = memchr(line, '\0', len);
    if (!nul)
        return false;
    while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        len--;
    char quoted[4 * UCI_ECHO_MAX + 4], msg[sizeof quoted + 96];
    uci_quote_text(line, len, quoted, sizeof quoted);
    snprintf(msg, sizeof msg, "command refused: a NUL byte at byte %zu of '%s'",
             (size_t)(nul - line) + 1, quoted);
    pthread_mutex_lock(&ctx->out_lock);
    uci_reply_error(ctx, msg);
    pthread_mutex_unlock(&ctx->out_lock);
    return true;
}

int uci_loop(UciContext *ctx, FILE *in) {
    size_t cap = 0;
    char *line = NULL;
    ssize_t len;
    while ((len = getline(&line, &cap, in)) >= 0)
        if (!refuse_nul(ctx, line, (size_t)len) && !uci_handle_line(ctx, line))
            break;
    // End of input: a finite search or perft finishes and answers; one that waits for `stop`
    // or `ponderhit` (go infinite, go ponder) is stopped and answers, as before any command, and
    // so is a `go mate` with no other limit, which searches on without end where no mate is.
    end_job(ctx, uci_unbounded_mate(ctx));
    free(line);
    return 0;
}
