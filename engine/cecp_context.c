// SPDX-License-Identifier: MIT
// The CECP front end's context and the helpers that the command loop (cecp.c) and the command
// table (cecp_commands.c) share: answers, ping, the evaluation and the variant (cecp_context.h).
#include "cecp_context.h"

#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "nnue.h"
#include "search.h"
#include "variant.h"

// ---------------------------------------------------------------------------------------
// Answers

// Writes len bytes of s into out (cap bytes) with every byte outside printable ASCII as \xNN,
// at most CECP_ECHO_MAX bytes of it, "..." when cut.
void cecp_quote(const char *s, char *out, size_t cap) {
    size_t o = 0, len = strlen(s);
    for (size_t i = 0; i < len && i < CECP_ECHO_MAX && o + 5 <= cap; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f)
            out[o++] = (char)c;
        else
            o += (size_t)snprintf(out + o, cap - o, "\\x%02X", c);
    }
    out[o] = '\0';
    if (len > CECP_ECHO_MAX && o + 4 <= cap)
        strcat(out, "...");
}

// `Error (REASON): COMMAND`, the protocol's answer to a command it cannot carry out.
void cecp_reply_error(CecpContext *ctx, const char *reason, const char *cmd) {
    char q[4 * CECP_ECHO_MAX + 4];
    cecp_quote(cmd, q, sizeof q);
    fprintf(ctx->out, "Error (%s): %s\n", reason, q);
}

// Whether the engine is thinking on its own move: a game search that has not played yet.
// Read with out_lock held (play_answer and cecp_ponder_hit change it under the lock).
static bool thinking_on_move(CecpContext *ctx) {
    return ctx->searching && atomic_load(&ctx->mode) == MODE_THINK && !atomic_load(&ctx->played);
}

void cecp_answer_ping(CecpContext *ctx, const char *args) {
    if (thinking_on_move(ctx)) {
        size_t n = strlen(args) + sizeof "pong \n";
        char *grown = realloc(ctx->pongs, ctx->pongs_len + n);
        if (grown) {
            ctx->pongs = grown;
            ctx->pongs_len += (size_t)snprintf(grown + ctx->pongs_len, n, "pong %s\n", args);
            return;
        }
    }
    fprintf(ctx->out, "pong %s\n", args);
}

// ---------------------------------------------------------------------------------------
// The evaluation: the net of the variant (EvalFile's, or the compiled-in one) when Use NNUE is
// on, the classical evaluation otherwise; a refused net leaves the evaluation as it was.

bool cecp_apply_eval(CecpContext *ctx, const char *path, bool use_nnue) {
    NnueNet *net = NULL;
    ErrorInfo err;
    char eval_file[CECP_PATH_MAX_LEN]; // path may be ctx->eval_file itself
    snprintf(eval_file, sizeof eval_file, "%s", path);
    const char *file = strcmp(eval_file, CECP_EVAL_FILE_EMBEDDED) == 0 ? NULL : eval_file;
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

void cecp_set_variant(CecpContext *ctx, const Variant *v) {
    ctx->variant = v;
    fen_parse_variant(&ctx->board, v, v->start_fen, NULL);
    // A new variant drops the old one's net: its own compiled-in one, if any.
    cecp_apply_eval(ctx, CECP_EVAL_FILE_EMBEDDED, ctx->use_nnue);
}
