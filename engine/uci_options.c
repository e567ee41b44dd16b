// SPDX-License-Identifier: MIT
// The UCI options (uci_options.h): the table `uci` lists and `setoption` sets, the evaluation's
// Use NNUE and EvalFile among them.
#include "uci_options.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fen.h"
#include "nnue.h"
#include "search.h"
#include "search_params.h"
#include "strength.h"
#include "tt.h"
#include "variant.h"

// setoption name EvalFile value PATH: loads the net at once; a file refused (missing,
// truncated, damaged, another variant's) is named with the reason and the evaluation stays as
// it was. <embedded> (or an empty value) goes back to the compiled-in net.
static void set_eval_file(UciContext *ctx, const char *path) {
    if (!*path || strcmp(path, UCI_EVAL_FILE_EMBEDDED) == 0 || strcmp(path, "<empty>") == 0) {
        uci_nnue_take_embedded(ctx);
        uci_nnue_apply(ctx);
        if (ctx->use_nnue && !ctx->net)
            uci_nnue_say_missing(ctx);
        return;
    }
    ErrorInfo err;
    NnueNet *net = nnue_net_alloc();
    char msg[sizeof err.msg + 96];
    if (!net) {
        uci_reply_error(ctx, "EvalFile: out of memory for the net; the evaluation is unchanged");
        return;
    }
    if (nnue_load(path, ctx->variant, net, &err) != STATUS_OK) {
        free(net);
        snprintf(msg, sizeof msg, "EvalFile refused: %s; the evaluation is unchanged (%s)", err.msg,
                 search_get_net(ctx->searcher) ? "the previous net" : "classical");
        uci_reply_error(ctx, msg);
        return;
    }
    // The searcher may hold the old net: switch it first, then free the old one.
    NnueNet *old = ctx->net;
    ctx->net = net;
    uci_nnue_apply(ctx);
    if (search_get_net(ctx->searcher) == old && old) { // out of memory: keep the old net
        ctx->net = old;
        free(net);
        return;
    }
    free(old);
    snprintf(ctx->eval_file, sizeof ctx->eval_file, "%s", path);
    fprintf(ctx->out, "info string EvalFile: loaded %s (a %s net)%s\n", path, net->variant,
            ctx->use_nnue ? "" : "; Use NNUE is false, so the classical evaluation is used");
}

// setoption name Use NNUE value true|false.
static void set_use_nnue(UciContext *ctx, const char *value) {
    char msg[128];
    if (strcasecmp(value, "true") != 0 && strcasecmp(value, "false") != 0) {
        snprintf(msg, sizeof msg, "setoption: Use NNUE value '%.40s' is not true or false", value);
        uci_reply_error(ctx, msg);
        return;
    }
    ctx->use_nnue = ctx->nnue_asked = strcasecmp(value, "true") == 0;
    ctx->nnue_set = true;
    uci_nnue_apply(ctx);
    if (ctx->use_nnue && !ctx->net)
        uci_nnue_say_missing(ctx);
}

// A new variant drops the net of the old one: the new variant's compiled-in net, if any. Use
// NNUE, unless set, follows it (nnue_apply).
static void nnue_new_variant(UciContext *ctx) {
    search_set_net(ctx->searcher, NULL); // before the net it may hold is freed
    uci_nnue_take_embedded(ctx);
    uci_nnue_apply(ctx);
    if (ctx->nnue_asked && !ctx->net)
        uci_nnue_say_missing(ctx);
}

void uci_options_list(UciContext *ctx) {
    fprintf(ctx->out, "id name Hansu 0.1.0\nid author the Hansu developers\n");
    // The table of known variants; the default is the first.
    fprintf(ctx->out, "option name UCI_Variant type combo default %s", variant_at(0)->name);
    for (int i = 0; i < variant_count(); i++)
        fprintf(ctx->out, " var %s", variant_at(i)->name);
    fprintf(ctx->out, "\n");
    fprintf(ctx->out, "option name Hash type spin default %d min 1 max %d\n", UCI_HASH_DEFAULT_MB,
            TT_MB_MAX);
    fprintf(ctx->out, "option name Threads type spin default 1 min 1 max %d\n", SEARCH_THREADS_MAX);
    fprintf(ctx->out, "option name Clear Hash type button\n");
    fprintf(ctx->out, "option name Ponder type check default false\n");
    fprintf(ctx->out, "option name MultiPV type spin default 1 min 1 max %d\n", SEARCH_MULTIPV_MAX);
    fprintf(ctx->out, "option name Skill Level type spin default %d min 0 max %d\n",
            SEARCH_SKILL_MAX, SEARCH_SKILL_MAX);
    fprintf(ctx->out, "option name UCI_LimitStrength type check default false\n");
    fprintf(ctx->out, "option name UCI_Elo type spin default %d min %d max %d\n",
            STRENGTH_ELO_DEFAULT, STRENGTH_ELO_MIN, STRENGTH_ELO_MAX);
    fprintf(ctx->out, "option name UCI_ShowWDL type check default false\n");
    fprintf(ctx->out, "option name Trace Replies type check default false\n");
    fprintf(ctx->out, "option name Move Overhead type spin default %d min 0 max %d\n",
            UCI_MOVE_OVERHEAD_DEFAULT_MS, UCI_MOVE_OVERHEAD_MAX_MS);
    // Use NNUE defaults to true where the variant has a compiled-in net.
    const uint8_t *data;
    size_t len;
    fprintf(ctx->out, "option name Use NNUE type check default %s\n",
            nnue_embedded(ctx->variant, &data, &len) ? "true" : "false");
    fprintf(ctx->out, "option name EvalFile type string default %s\n", UCI_EVAL_FILE_EMBEDDED);
    // The search's tunable constants (search_params.def), for SPSA (scripts/spsa).
    for (int i = 0; i < search_params_count(); i++) {
        const SearchParamInfo *p = search_param_info(i);
        fprintf(ctx->out, "option name %s type spin default %d min %d max %d\n", p->name, p->def,
                p->min, p->max);
    }
    fprintf(ctx->out, "uciok\n");
}

// The value of spin option name: an integer lo..hi, else false after an error naming it.
static bool spin_value(UciContext *ctx, const char *name, const char *value, long lo, long hi,
                       long *out) {
    char *end;
    long v = strtol(value, &end, 10);
    if (!*value || *end || v < lo || v > hi) {
        char msg[160];
        snprintf(msg, sizeof msg, "setoption: %s value '%.40s' is not %ld..%ld", name, value, lo,
                 hi);
        uci_reply_error(ctx, msg);
        return false;
    }
    *out = v;
    return true;
}

// The value of check option name: true or false (any case) into *out, else false after an
// error naming it (*out unchanged).
static bool check_value(UciContext *ctx, const char *name, const char *value, bool *out) {
    if (strcasecmp(value, "true") != 0 && strcasecmp(value, "false") != 0) {
        char msg[160];
        snprintf(msg, sizeof msg, "setoption: %s value '%.40s' is not true or false", name, value);
        uci_reply_error(ctx, msg);
        return false;
    }
    *out = strcasecmp(value, "true") == 0;
    return true;
}

void uci_options_set(UciContext *ctx, char **tok, int n) {
    char name[64] = "", value[UCI_OPTION_VALUE_MAX] = "";
    int i = 1;
    if (i >= n || strcmp(tok[i], "name") != 0) {
        uci_reply_error(ctx, "setoption: expected 'name'");
        return;
    }
    for (i++; i < n && strcmp(tok[i], "value") != 0; i++)
        snprintf(name + strlen(name), sizeof name - strlen(name), "%s%.40s", *name ? " " : "",
                 tok[i]);
    for (i++; i < n; i++) {
        size_t used = strlen(value), tl = strlen(tok[i]);
        if (used + 1 + tl >= sizeof value) {
            uci_reply_error(ctx, "setoption: value longer than 1023 characters");
            return;
        }
        if (used)
            value[used++] = ' ';
        memcpy(value + used, tok[i], tl + 1);
    }
    char msg[160 + sizeof(ErrorInfo)];
    int param;
    long spin;
    if (strcasecmp(name, "Hash") == 0) {
        if (!spin_value(ctx, "Hash", value, 1, TT_MB_MAX, &spin))
            ;
        else if (!search_resize(ctx->searcher, (size_t)spin))
            uci_reply_error(ctx, "setoption: not enough memory for that Hash; kept the old table");
        else
            ctx->hash_mb = (size_t)spin;
    } else if (strcasecmp(name, "Move Overhead") == 0) {
        if (spin_value(ctx, "Move Overhead", value, 0, UCI_MOVE_OVERHEAD_MAX_MS, &spin))
            ctx->move_overhead = spin;
    } else if (strcasecmp(name, "Threads") == 0) {
        if (spin_value(ctx, "Threads", value, 1, SEARCH_THREADS_MAX, &spin) &&
            !search_set_threads(ctx->searcher, (int)spin))
            uci_reply_error(ctx, "setoption: not enough memory for that many Threads; kept the old "
                                 "number");
    } else if (strcasecmp(name, "MultiPV") == 0) {
        if (spin_value(ctx, "MultiPV", value, 1, SEARCH_MULTIPV_MAX, &spin))
            ctx->multipv = (int)spin;
    } else if (strcasecmp(name, "Skill Level") == 0) {
        if (spin_value(ctx, "Skill Level", value, 0, SEARCH_SKILL_MAX, &spin))
            ctx->skill = (int)spin;
    } else if (strcasecmp(name, "UCI_LimitStrength") == 0) {
        check_value(ctx, "UCI_LimitStrength", value, &ctx->limit_strength);
    } else if (strcasecmp(name, "UCI_Elo") == 0) {
        if (spin_value(ctx, "UCI_Elo", value, STRENGTH_ELO_MIN, STRENGTH_ELO_MAX, &spin))
            ctx->elo = (int)spin;
    } else if (strcasecmp(name, "UCI_ShowWDL") == 0) {
        check_value(ctx, "UCI_ShowWDL", value, &ctx->show_wdl);
    } else if (strcasecmp(name, "Trace Replies") == 0) {
        check_value(ctx, "Trace Replies", value, &ctx->trace_replies);
    } else if (strcasecmp(name, "Clear Hash") == 0) {
        search_clear(ctx->searcher);
    } else if (strcasecmp(name, "Ponder") == 0) {
        // The GUI tells whether it will send `go ponder`: nothing to change here.
        if (strcmp(value, "true") != 0 && strcmp(value, "false") != 0) {
            snprintf(msg, sizeof msg, "setoption: Ponder value '%.40s' is not true or false",
                     value);
            uci_reply_error(ctx, msg);
        }
    } else if (strcasecmp(name, "UCI_Variant") == 0) {
        const Variant *v = variant_find(value);
        if (!v) {
            snprintf(msg, sizeof msg, "setoption: UCI_Variant '%.40s' is not supported", value);
            uci_reply_error(ctx, msg);
        } else if (v != ctx->variant) {
            // As in Fairy-Stockfish: a new variant starts from its start position.
            ctx->variant = v;
            fen_parse_variant(&ctx->board, v, v->start_fen, NULL);
            ctx->position_ok = true;
            nnue_new_variant(ctx);
        }
    } else if (strcasecmp(name, "Use NNUE") == 0) {
        set_use_nnue(ctx, value);
    } else if (strcasecmp(name, "EvalFile") == 0) {
        set_eval_file(ctx, value);
    } else if ((param = search_param_find(name)) >= 0) {
        SearchParams p = *search_get_params(ctx->searcher);
        ErrorInfo err;
        if (search_params_set(&p, param, value, &err) != STATUS_OK) {
            snprintf(msg, sizeof msg, "setoption: %s", err.msg);
            uci_reply_error(ctx, msg);
        } else
            search_set_params(ctx->searcher, &p);
    } else {
        snprintf(msg, sizeof msg, "setoption: unknown option '%.40s'", name);
        uci_reply_error(ctx, msg);
    }
}
