// SPDX-License-Identifier: MIT
// UCI command handling: uci, isready, ucinewgame, setoption, position, go perft, d, quit.
#include "uci.h"

#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "fen.h"
#include "notation.h"
#include "perft.h"
#include "status.h"

enum { UCI_MAX_LINE = 65536, UCI_MAX_TOKENS = 4096 };

struct UciContext {
    FILE *out;
    Board board;
    char variant[16];
};

UciContext *uci_create(FILE *out) {
    UciContext *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return NULL;
    ctx->out = out;
    snprintf(ctx->variant, sizeof ctx->variant, "janggi");
    fen_parse(&ctx->board, FEN_START, NULL);
    return ctx;
}

void uci_destroy(UciContext *ctx) { free(ctx); }

static void reply_error(UciContext *ctx, const char *msg) {
    fprintf(ctx->out, "info string error: %s\n", msg);
    fflush(ctx->out);
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

static void cmd_uci(UciContext *ctx) {
    fprintf(ctx->out, "id name Hansu 0.1.0\nid author the Hansu developers\n");
    fprintf(ctx->out, "option name UCI_Variant type combo default janggi var janggi\n");
    fprintf(ctx->out, "uciok\n");
}

// position startpos|fen <fields...> [moves m1 m2 ...]. Builds into a scratch board and
// commits only when every part is valid, so an error leaves the position as it was.
static void cmd_position(UciContext *ctx, char **tok, int n) {
    static _Thread_local Board scratch;
    ErrorInfo err;
    int i = 1;
    if (i < n && strcmp(tok[i], "startpos") == 0) {
        fen_parse(&scratch, FEN_START, NULL);
        i++;
    } else if (i < n && strcmp(tok[i], "fen") == 0) {
        char fen[FEN_MAX_INPUT + 2] = "";
        size_t len = 0;
        for (i++; i < n && strcmp(tok[i], "moves") != 0; i++) {
            size_t tl = strlen(tok[i]);
            if (len + tl + 1 > FEN_MAX_INPUT) {
                reply_error(ctx, "position: FEN longer than 256 characters");
                return;
            }
            memcpy(fen + len, tok[i], tl);
            len += tl;
            fen[len++] = ' ';
            fen[len] = '\0';
        }
        if (fen_parse(&scratch, fen, &err) != STATUS_OK) {
            reply_error(ctx, err.msg);
            return;
        }
    } else {
        reply_error(ctx, "position: expected 'startpos' or 'fen'");
        return;
    }
    if (i < n && strcmp(tok[i], "moves") != 0) {
        char msg[128];
        snprintf(msg, sizeof msg, "position: unexpected token '%.40s'", tok[i]);
        reply_error(ctx, msg);
        return;
    }
    for (i++; i < n; i++) {
        Move m;
        if (scratch.nstates >= MAX_GAME_PLY) {
            reply_error(ctx, "position: more moves than a game can hold");
            return;
        }
        if (move_parse_uci(&scratch, tok[i], &m, &err) != STATUS_OK) {
            reply_error(ctx, err.msg);
            return;
        }
        board_make(&scratch, m);
    }
    ctx->board = scratch;
}

static void cmd_perft(UciContext *ctx, int depth) {
    Move moves[MAX_MOVES];
    uint64_t counts[MAX_MOVES], total = 0;
    int n = depth > 0 ? perft_divide(&ctx->board, depth, moves, counts) : 0;
    for (int i = 0; i < n; i++) {
        char s[MOVE_STR_LEN];
        move_to_uci(moves[i], s);
        fprintf(ctx->out, "%s: %llu\n", s, (unsigned long long)counts[i]);
        total += counts[i];
    }
    if (depth == 0)
        total = 1;
    fprintf(ctx->out, "\nNodes searched: %llu\n\n", (unsigned long long)total);
}

static void cmd_go(UciContext *ctx, char **tok, int n) {
    if (n >= 3 && strcmp(tok[1], "perft") == 0) {
        char *end;
        long depth = strtol(tok[2], &end, 10);
        if (*end || depth < 0 || depth > 20) {
            reply_error(ctx, "go perft: depth must be a number from 0 to 20");
            return;
        }
        cmd_perft(ctx, (int)depth);
        return;
    }
    reply_error(ctx, "go: search is not available in this build");
}

static void cmd_display(UciContext *ctx) {
    static const char letters[] = " KARCNBP";
    const Board *b = &ctx->board;
    fprintf(ctx->out, "\n");
    for (int rank = RANK_NB - 1; rank >= 0; rank--) {
        fprintf(ctx->out, "%2d ", rank + 1);
        for (int file = 0; file < FILE_NB; file++) {
            Piece pc = board_at(b, square_make(file, rank));
            char c = pc == EMPTY ? '.' : letters[piece_kind(pc)];
            if (pc != EMPTY && piece_side(pc) == HAN)
                c = (char)(c - 'A' + 'a');
            fprintf(ctx->out, " %c", c);
        }
        fprintf(ctx->out, "\n");
    }
    char fen[FEN_BUFFER];
    fen_write(b, fen, sizeof fen);
    fprintf(ctx->out, "    a b c d e f g h i\n\nFen: %s\nKey: %016llx\n", fen,
            (unsigned long long)board_key(b));
}

bool uci_handle_line(UciContext *ctx, const char *line) {
    if (strnlen(line, UCI_MAX_LINE + 1) > UCI_MAX_LINE) {
        reply_error(ctx, "command longer than 65536 characters");
        return true;
    }
    char *copy = strdup(line);
    static _Thread_local char *tokens[UCI_MAX_TOKENS];
    if (!copy) {
        reply_error(ctx, "out of memory");
        return true;
    }
    bool running = true;
    int n = tokenize(copy, tokens, UCI_MAX_TOKENS);
    if (n < 0)
        reply_error(ctx, "command has too many tokens");
    else if (n == 0)
        ;
    else if (strcmp(tokens[0], "uci") == 0)
        cmd_uci(ctx);
    else if (strcmp(tokens[0], "isready") == 0)
        fprintf(ctx->out, "readyok\n");
    else if (strcmp(tokens[0], "ucinewgame") == 0)
        ;
    else if (strcmp(tokens[0], "position") == 0)
        cmd_position(ctx, tokens, n);
    else if (strcmp(tokens[0], "go") == 0)
        cmd_go(ctx, tokens, n);
    else if (strcmp(tokens[0], "d") == 0)
        cmd_display(ctx);
    else if (strcmp(tokens[0], "quit") == 0)
        running = false;
    else {
        char msg[96];
        snprintf(msg, sizeof msg, "unknown command '%.40s'", tokens[0]);
        reply_error(ctx, msg);
    }
    fflush(ctx->out);
    free(copy);
    return running;
}

int uci_loop(UciContext *ctx, FILE *in) {
    size_t cap = 0;
    char *line = NULL;
    while (getline(&line, &cap, in) >= 0)
        if (!uci_handle_line(ctx, line))
            break;
    free(line);
    return 0;
}
