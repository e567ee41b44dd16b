// SPDX-License-Identifier: MIT
// CECP (XBoard protocol 2) engines behind the match's UCI (cecp_child.h).
#define _GNU_SOURCE
#include "cecp_child.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fen.h"
#include "variant.h"

enum { CECP_MOVES_MAX = 1024 };

struct Cecp {
    char variants[256]; // from feature variants="a,b", as "a b "
    bool setboard, usermove, ping;
    int ping_sent;    // the last ping's number
    bool ready_owed;  // an isready answered by the translator (no ping feature)
    char variant[32]; // told with `variant` after each `new` ("" or janggi's default: none)
    char fen[FEN_BUFFER];
    int nmoves;
    char moves[CECP_MOVES_MAX][8]; // the position's moves, in CECP form
};

Cecp *cecp_new(void) { return calloc(1, sizeof(Cecp)); }

void cecp_free(Cecp *c) { free(c); }

// The value of feature `name` in a feature line: a quoted string or a word, into out.
static bool feature_value(const char *line, const char *name, char *out, size_t len) {
    size_t n = strlen(name);
    for (const char *p = strstr(line, name); p; p = strstr(p + 1, name)) {
        if ((p != line && p[-1] != ' ') || p[n] != '=')
            continue;
        p += n + 1;
        size_t w = *p == '"' ? strcspn(p + 1, "\"") : strcspn(p, " ");
        snprintf(out, len, "%.*s", (int)w, *p == '"' ? p + 1 : p);
        return true;
    }
    return false;
}

bool cecp_feature(Cecp *c, const char *line) {
    if (strncmp(line, "feature ", 8) != 0)
        return false;
    char v[256];
    if (feature_value(line, "variants", v, sizeof v)) {
        size_t k = 0;
        for (char *t = strtok(v, ","); t && k + strlen(t) + 2 < sizeof c->variants;
             t = strtok(NULL, ","))
            k += (size_t)snprintf(c->variants + k, sizeof c->variants - k, "%s ", t);
    }
    if (feature_value(line, "setboard", v, sizeof v))
        c->setboard = !strcmp(v, "1");
    if (feature_value(line, "usermove", v, sizeof v))
        c->usermove = !strcmp(v, "1");
    if (feature_value(line, "ping", v, sizeof v))
        c->ping = !strcmp(v, "1");
    return feature_value(line, "done", v, sizeof v) && !strcmp(v, "1");
}

const char *cecp_variants(const Cecp *c) { return c->variants; }

bool cecp_setboard(const Cecp *c) { return c->setboard; }

// A pass as either side writes it: XBoard's null move "@@@@" (Hansu's CECP front end sends it) or
// UCI's "0000".
static bool is_pass_word(const char *text) {
    return !strcmp(text, "@@@@") || !strcmp(text, "0000");
}

// A move between UCI (ranks from 1) and CECP (ranks from 0): delta -1 or +1. A pass goes to CECP
// as "@@@@" (from UCI's general square twice, "e2e2", or a pass word) and comes back as UCI's
// "0000", which the referee reads as the mover's pass. False when text is neither a pass nor a
// move of two squares (file letter, rank number) and an optional promotion letter.
static bool convert_move(const char *in, int delta, char *out, size_t len) {
    char f1, f2, tail[4] = "";
    int r1, r2, used = 0;
    if (is_pass_word(in)) {
        snprintf(out, len, "%s", delta < 0 ? "@@@@" : "0000");
        return true;
    }
    if (sscanf(in, "%c%d%c%d%n", &f1, &r1, &f2, &r2, &used) != 4 || !islower((unsigned char)f1) ||
        !islower((unsigned char)f2) || strlen(in + used) >= sizeof tail)
        return false;
    if (delta < 0 && f1 == f2 && r1 == r2 && !in[used]) {
        snprintf(out, len, "@@@@");
        return true;
    }
    snprintf(tail, sizeof tail, "%s", in + used);
    snprintf(out, len, "%c%d%c%d%s", f1, r1 + delta, f2, r2 + delta, tail);
    return true;
}

// "position fen F [moves ...]" or "position startpos [moves ...]": kept for the next go.
static bool keep_position(Cecp *c, const char *uci) {
    const char *moves = strstr(uci, " moves ");
    const Variant *v = variant_find(c->variant[0] ? c->variant : "janggi");
    if (!strncmp(uci, "position fen ", 13))
        snprintf(c->fen, sizeof c->fen, "%.*s",
                 (int)((moves ? moves : uci + strlen(uci)) - uci - 13), uci + 13);
    else
        snprintf(c->fen, sizeof c->fen, "%s", variant_or_default(v)->start_fen);
    c->nmoves = 0;
    if (!moves)
        return true;
    char buf[16];
    for (const char *p = moves + 7; *p && c->nmoves < CECP_MOVES_MAX; p += strspn(p, " ")) {
        size_t w = strcspn(p, " ");
        snprintf(buf, sizeof buf, "%.*s", (int)(w < sizeof buf ? w : sizeof buf - 1), p);
        if (!convert_move(buf, -1, c->moves[c->nmoves++], sizeof c->moves[0]))
            return false;
        p += w;
    }
    return true;
}

// The value after `key` in a go command, or -1.
static long go_value(const char *go, const char *key) {
    char pat[16];
    snprintf(pat, sizeof pat, " %s ", key);
    const char *p = strstr(go, pat);
    return p ? atol(p + strlen(pat)) : -1;
}

// True when the side to move of the kept position is the first player (CHO / Red, "w").
static bool first_to_move(const Cecp *c) {
    const char *side = strchr(c->fen, ' ');
    bool first = !side || side[1] == 'w';
    return c->nmoves % 2 ? !first : first;
}

// The position: `new` and the moves where it begins at the variant's start, else setboard.
static bool say_position(Cecp *c, CecpWrite write, void *ctx) {
    const Variant *v = variant_or_default(variant_find(c->variant[0] ? c->variant : "janggi"));
    char line[FEN_BUFFER + 16];
    bool from_start = !strcmp(c->fen, v->start_fen);
    bool ok = true;
    if (from_start && !c->setboard) {
        ok = write(ctx, "new") &&
             (!c->variant[0] || !strcmp(c->variant, "janggi") ||
              (snprintf(line, sizeof line, "variant %s", c->variant), write(ctx, line)));
        ok = ok && write(ctx, "force");
    } else if (c->setboard) {
        snprintf(line, sizeof line, "setboard %s", c->fen);
        ok = write(ctx, "force") && write(ctx, line);
    } else
        return false; // this engine can only begin at the start position
    for (int i = 0; ok && i < c->nmoves; i++) {
        snprintf(line, sizeof line, "%s%s", c->usermove ? "usermove " : "", c->moves[i]);
        ok = write(ctx, line);
    }
    return ok;
}

// The limits of a UCI go command in CECP, then go.
static bool say_go(Cecp *c, const char *go, CecpWrite write, void *ctx) {
    char line[96];
    long depth = go_value(go, "depth"), movetime = go_value(go, "movetime");
    bool first = first_to_move(c);
    long own = go_value(go, first ? "wtime" : "btime"),
         opp = go_value(go, first ? "btime" : "wtime");
    long inc = go_value(go, first ? "winc" : "binc");
    if (go_value(go, "nodes") >= 0)
        return false; // CECP has no node limit (matches refuse nodes= for such engines)
    if (!say_position(c, write, ctx))
        return false;
    bool ok = true;
    if (depth > 0) {
        snprintf(line, sizeof line, "sd %ld", depth);
        ok = write(ctx, line) && write(ctx, "st 100000");
    } else if (movetime > 0) {
        snprintf(line, sizeof line, "st %ld", movetime >= 1000 ? movetime / 1000 : 1);
        ok = write(ctx, line);
    } else if (own >= 0) {
        snprintf(line, sizeof line, "level 0 %ld:%02ld %g", own / 60000, own / 1000 % 60,
                 inc > 0 ? inc / 1000.0 : 0.0);
        ok = write(ctx, line);
        snprintf(line, sizeof line, "time %ld", own / 10);
        ok = ok && write(ctx, line);
        snprintf(line, sizeof line, "otim %ld", opp >= 0 ? opp / 10 : own / 10);
        ok = ok && write(ctx, line);
    }
    return ok && write(ctx, "go");
}

bool cecp_command(Cecp *c, const char *uci, CecpWrite write, void *ctx) {
    char line[512];
    if (!strcmp(uci, "isready")) {
        if (!c->ping) {
            c->ready_owed = true;
            return true;
        }
        snprintf(line, sizeof line, "ping %d", ++c->ping_sent);
        return write(ctx, line);
    }
    if (!strncmp(uci, "setoption name UCI_Variant value ", 33)) {
        snprintf(c->variant, sizeof c->variant, "%s", uci + 33);
        return true;
    }
    if (!strncmp(uci, "setoption name ", 15)) {
        const char *value = strstr(uci, " value ");
        snprintf(line, sizeof line, "option %.*s=%s",
                 (int)((value ? value : uci + strlen(uci)) - uci - 15), uci + 15,
                 value ? value + 7 : "");
        return write(ctx, line);
    }
    if (!strcmp(uci, "ucinewgame")) {
        bool ok = write(ctx, "new");
        if (ok && c->variant[0] && strcmp(c->variant, "janggi") != 0) {
            snprintf(line, sizeof line, "variant %s", c->variant);
            ok = write(ctx, line);
        }
        return ok && write(ctx, "easy") && write(ctx, "post") && write(ctx, "force");
    }
    if (!strncmp(uci, "position ", 9))
        return keep_position(c, uci);
    if (!strncmp(uci, "go", 2))
        return say_go(c, uci, write, ctx);
    if (!strcmp(uci, "stop"))
        return write(ctx, "?");
    return write(ctx, uci); // quit, and anything else as it is
}

bool cecp_reply(Cecp *c, char *line, size_t len) {
    char move[16], out[64];
    int ply, n = 0;
    long score, time, nodes;
    if (sscanf(line, "move %15s", move) == 1 && convert_move(move, +1, out, sizeof out)) {
        snprintf(line, len, "bestmove %s", out);
        return true;
    }
    if (sscanf(line, "pong %d", &ply) == 1) {
        if (ply != c->ping_sent)
            return false;
        snprintf(line, len, "readyok");
        return true;
    }
    if (sscanf(line, " %d %ld %ld %ld%n", &ply, &score, &time, &nodes, &n) == 4 && n > 0) {
        snprintf(line, len, "info depth %d score cp %ld nodes %ld", ply, score, nodes);
        return true;
    }
    return true;
}

bool cecp_pending(Cecp *c, char *line, size_t len) {
    if (!c->ready_owed)
        return false;
    c->ready_owed = false;
    snprintf(line, len, "readyok");
    return true;
}
