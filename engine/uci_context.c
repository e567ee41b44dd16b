// SPDX-License-Identifier: MIT
// The UCI front end's shared helpers (uci_context.h): answers and the evaluation's net.
#include "uci_context.h"

#include <stdlib.h>
#include <string.h>

#include "variant.h"

// Writes len bytes of s into out (cap bytes) with every byte outside printable ASCII as
// \xNN, so that an answer never carries raw binary to the GUI; stops before overflowing.
static void escape_text(const char *s, size_t len, char *out, size_t cap) {
    size_t o = 0;
    for (size_t i = 0; i < len && o + 5 <= cap; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f)
            out[o++] = (char)c;
        else
            o += (size_t)snprintf(out + o, cap - o, "\\x%02X", c);
    }
    out[o] = '\0';
}

// Quotes the user's text s of len bytes for a message: at most UCI_ECHO_MAX bytes, escaped,
// with "..." when cut.
void uci_quote_text(const char *s, size_t len, char *out, size_t cap) {
    escape_text(s, len < UCI_ECHO_MAX ? len : UCI_ECHO_MAX, out, cap);
    if (len > UCI_ECHO_MAX && strlen(out) + 4 <= cap)
        strcat(out, "...");
}

void uci_reply_error(UciContext *ctx, const char *msg) {
    char safe[4 * 256 + 1]; // every byte escaped: 4 characters each
    escape_text(msg, strlen(msg), safe, sizeof safe);
    fprintf(ctx->out, "info string error: %s\n", safe);
    fflush(ctx->out);
}

// ---------------------------------------------------------------------------------------
// The evaluation: Use NNUE and EvalFile

// Makes the searcher evaluate as the options say: the net when Use NNUE is on and a net is
// loaded, the classical evaluation otherwise. Use NNUE never set follows the net: on when
// one is loaded (compiled in or by EvalFile), off when none is.
void uci_nnue_apply(UciContext *ctx) {
    if (!ctx->nnue_set)
        ctx->use_nnue = ctx->net != NULL;
    const NnueNet *want = ctx->use_nnue ? ctx->net : NULL;
    if (search_get_net(ctx->searcher) == want)
        return;
    if (!search_set_net(ctx->searcher, want))
        uci_reply_error(ctx, "Use NNUE: out of memory for the accumulators; the evaluation is "
                             "unchanged");
}

// Says that Use NNUE is on without a net for the variant, so the classical evaluation stands
// in: never a silent fallback.
void uci_nnue_say_missing(UciContext *ctx) {
    char msg[160];
    snprintf(msg, sizeof msg,
             "Use NNUE: no net is loaded for %s (set EvalFile to a .nnue file); the classical "
             "evaluation is used until one is",
             ctx->variant->name);
    uci_reply_error(ctx, msg);
}

// Replaces the net by the variant's compiled-in one (none: no net). A compiled-in net that does
// not load (a build from a damaged file) is said, and leaves no net.
void uci_nnue_take_embedded(UciContext *ctx) {
    const uint8_t *data;
    size_t len;
    free(ctx->net);
    ctx->net = NULL;
    snprintf(ctx->eval_file, sizeof ctx->eval_file, "%s", UCI_EVAL_FILE_EMBEDDED);
    if (!nnue_embedded(ctx->variant, &data, &len))
        return;
    ErrorInfo err;
    NnueNet *net = nnue_net_alloc();
    if (!net)
        uci_reply_error(ctx, "EvalFile: out of memory for the compiled-in net");
    else if (nnue_load_memory(data, len, "the compiled-in net", ctx->variant, net, &err) !=
             STATUS_OK) {
        uci_reply_error(ctx, err.msg);
        free(net);
    } else
        ctx->net = net;
}
