// SPDX-License-Identifier: MIT
// A match's settings (match_config.h): the limits parsed, the config checked, the adjudication
// written out, the openings plan.
#include "match_config.h"

#include <stdio.h>
#include <string.h>

#include "variant.h"

// The keys of a limit, as match_parse_limit reads them.
static const char *const LIMIT_KEYS[] = {"nodes=", "depth=", "movetime=", "tc=", "byoyomi="};

bool match_limit_key(const char *text) {
    for (size_t i = 0; i < sizeof LIMIT_KEYS / sizeof *LIMIT_KEYS; i++)
        if (strncmp(text, LIMIT_KEYS[i], strlen(LIMIT_KEYS[i])) == 0)
            return true;
    return false;
}

Status match_parse_limit(const char *text, Limits *out, ErrorInfo *err) {
    Limits l = {0};
    double base, inc, secs;
    int periods;
    char tail;
    if (sscanf(text, "nodes=%ld%c", &l.nodes, &tail) == 1 && l.nodes > 0) {
        l.kind = LIMIT_NODES;
    } else if (sscanf(text, "depth=%d%c", &l.depth, &tail) == 1 && l.depth > 0) {
        if (l.depth > DEPTH_MAX) // the same bound as every tool's depth
            return error_set(err, STATUS_RANGE, "limit \"%s\": depth must be in 1..%d", text,
                             DEPTH_MAX);
        l.kind = LIMIT_DEPTH;
    } else if (sscanf(text, "movetime=%lf%c", &secs, &tail) == 1 && secs > 0) {
        l.kind = LIMIT_MOVETIME;
        l.movetime = (int64_t)secs;
    } else if (sscanf(text, "tc=%lf+%lf%c", &base, &inc, &tail) == 2 && base > 0 && inc >= 0) {
        l.kind = LIMIT_CLOCK;
        l.base = (int64_t)(base * 1000.0);
        l.inc = (int64_t)(inc * 1000.0);
    } else if (sscanf(text, "byoyomi=%lf+%dx%lf%c", &base, &periods, &secs, &tail) == 3 &&
               base >= 0 && periods > 0 && secs > 0) {
        l.kind = LIMIT_CLOCK;
        l.base = (int64_t)(base * 1000.0);
        l.byoyomi = (int64_t)(secs * 1000.0);
        l.periods = periods;
    } else {
        return error_set(err, STATUS_SYNTAX,
                         "limit \"%s\": expected nodes=N, depth=D, movetime=MS, tc=BASE+INC or "
                         "byoyomi=BASE+PERIODSxSECS",
                         text);
    }
    *out = l;
    return STATUS_OK;
}

bool match_adjudicates(const MatchConfig *c) {
    return c->adjudicate.resign_moves > 0 || c->adjudicate.draw_moves > 0;
}

void match_adjudication_text(const MatchConfig *c, char *out, size_t len) {
    const Adjudication *a = &c->adjudicate;
    int n = 0;
    out[0] = '\0';
    if (a->resign_moves > 0)
        n = snprintf(out, len, "resign movecount=%d score=%d", a->resign_moves, a->resign_score);
    if (a->draw_moves > 0 && n >= 0 && (size_t)n < len)
        snprintf(out + n, len - (size_t)n, "%sdraw movenumber=%d movecount=%d score=%d",
                 n ? "; " : "", a->draw_after / 2, a->draw_moves, a->draw_score);
}

// The adjudication's settings: sensible counts and margins, and a draw only where the variant
// has drawn games (janggi counts points at its end: a game there is never drawn).
static Status check_adjudication(const MatchConfig *c, ErrorInfo *err) {
    const Adjudication *a = &c->adjudicate;
    if (a->resign_moves < 0 || a->draw_moves < 0 || a->draw_after < 0)
        return error_set(err, STATUS_RANGE, "adjudication: negative move counts");
    if (a->resign_moves > 0 && a->resign_score <= 0)
        return error_set(err, STATUS_RANGE, "--resign score=%d: must be above 0", a->resign_score);
    if (a->draw_moves > 0 && a->draw_score < 0)
        return error_set(err, STATUS_RANGE, "--draw score=%d: must be 0 or more", a->draw_score);
    if (a->draw_moves > 0 && variant_or_default(c->variant)->points_half[CHARIOT] > 0)
        return error_set(err, STATUS_SYNTAX,
                         "--draw: %s games are decided by points, never drawn: draw adjudication "
                         "is for a variant with draws (xiangqi)",
                         variant_or_default(c->variant)->name);
    return STATUS_OK;
}

Status match_config_check(const MatchConfig *c, ErrorInfo *err) {
    if (c->games < 2 || c->games % 2)
        return error_set(err, STATUS_RANGE, "games %d: must be even and at least 2", c->games);
    if (c->concurrency < 1 || c->concurrency > MATCH_SLOTS_MAX)
        return error_set(err, STATUS_RANGE, "concurrency %d: must be 1..%d", c->concurrency,
                         MATCH_SLOTS_MAX);
    // The same bound as self-play: random plies past the ply limit would end every game.
    if (c->random_plies < 0 || c->random_plies > GAME_PLY_LIMIT)
        return error_set(err, STATUS_RANGE, "random-plies %d: must be 0..%d", c->random_plies,
                         GAME_PLY_LIMIT);
    if (c->resume && !c->state_path)
        return error_set(err, STATUS_SYNTAX, "resume needs a state file");
    if (c->openings_start < 0 || c->book_plies < 0)
        return error_set(err, STATUS_RANGE, "openings: start %d and plies %d must be 0 or more",
                         c->openings_start, c->book_plies);
    Status st = check_adjudication(c, err);
    if (st != STATUS_OK)
        return st;
    for (int i = 0; i < 2; i++) {
        const Limits *l = &c->limits[i];
        if (!c->engine[i].cmd[0])
            return error_set(err, STATUS_SYNTAX, "engine %d: no cmd=", i + 1);
        bool ok = l->kind == LIMIT_NODES      ? l->nodes > 0
                  : l->kind == LIMIT_DEPTH    ? l->depth > 0
                  : l->kind == LIMIT_MOVETIME ? l->movetime > 0
                                              : l->base > 0 || (l->byoyomi > 0 && l->periods > 0);
        if (!ok)
            return error_set(err, STATUS_RANGE, "engine %s: no usable limit", c->engine[i].name);
        // Pondering thinks in the opponent's time: a clock or a move time, UCI only.
        if (c->engine[i].ponder &&
            (c->engine[i].xboard || l->kind == LIMIT_NODES || l->kind == LIMIT_DEPTH))
            return error_set(err, STATUS_SYNTAX,
                             "engine %s: ponder needs a UCI engine (not proto=xboard) on a clock "
                             "or a move time (tc=, byoyomi=, movetime=)",
                             c->engine[i].name);
        // CECP has no node limit and no byo-yomi (a move time or a clock only).
        if (c->engine[i].xboard && (l->kind == LIMIT_NODES || l->byoyomi > 0))
            return error_set(err, STATUS_SYNTAX,
                             "engine %s (proto=xboard): %s cannot be told over CECP; give it "
                             "depth=, movetime= or tc=",
                             c->engine[i].name, l->kind == LIMIT_NODES ? "nodes=" : "byoyomi=");
    }
    return STATUS_OK;
}

OpeningsPlan match_config_openings(const MatchConfig *c) {
    return (OpeningsPlan){.variant = c->variant,
                          .path = c->openings_path,
                          .book_plies = c->book_plies,
                          .random = c->openings_random,
                          .start = c->openings_start,
                          .seed = c->seed,
                          .random_plies = c->random_plies};
}
