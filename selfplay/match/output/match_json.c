// SPDX-License-Identifier: MIT
// The match result as JSON (see match_json.h and docs/json-outputs.md).
#include "match_json.h"

#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "variant.h"

enum { MATCH_JSON_SCHEMA = 1 };

static void field(FILE *f, const char *name, double v) {
    fprintf(f, ",\n  \"%s\": ", name);
    cli_json_number(f, v);
}

// {"ENGINE0": {"reason": n, ...}, "ENGINE1": {...}}: wins by end reason, non-zero ones only.
static void reasons(FILE *f, const MatchConfig *c, const MatchTally *t) {
    fputs(",\n  \"reasons\": {", f);
    for (int e = 0; e < 2; e++) {
        fputs(e ? ", " : "", f);
        cli_json_string(f, c->engine[e].name);
        fputs(": {", f);
        const char *sep = "";
        for (int r = 1; r < REASON_NB; r++)
            if (t->wins_by[e][r]) {
                fprintf(f, "%s\"%s\": %ld", sep, rules_reason_name(r), t->wins_by[e][r]);
                sep = ", ";
            }
        fputc('}', f);
    }
    fputc('}', f);
}

// Per engine: games it lost by a fault (the other engine's wins by time, illegal move, crash)
// and its restarts after faults.
static void faults(FILE *f, const MatchConfig *c, const MatchTally *t) {
    static const EndReason FAULTS[] = {REASON_TIME, REASON_ILLEGAL_MOVE, REASON_CRASH};
    fputs(",\n  \"faults\": {", f);
    for (int e = 0; e < 2; e++) {
        fputs(e ? ", " : "", f);
        cli_json_string(f, c->engine[e].name);
        fputs(": {", f);
        for (int k = 0; k < 3; k++)
            fprintf(f, "\"%s\": %ld, ", rules_reason_name(FAULTS[k]), t->wins_by[1 - e][FAULTS[k]]);
        fprintf(f, "\"restarts\": %ld}", t->restarts[e]);
    }
    fputc('}', f);
}

static void sprt(FILE *f, const MatchConfig *c, const MatchTally *t) {
    static const char *const RESULT[] = {"continue", "H0", "H1"};
    if (!c->sprt_enabled) {
        fputs(",\n  \"sprt\": null", f);
        return;
    }
    const Sprt *s = &c->sprt;
    double v[] = {s->elo0, s->elo1, s->alpha, s->beta, t->llr, s->lower, s->upper};
    const char *names[] = {"elo0", "elo1", "alpha", "beta", "llr", "lower", "upper"};
    fputs(",\n  \"sprt\": {", f);
    for (int i = 0; i < 7; i++) {
        fprintf(f, "\"%s\": ", names[i]);
        cli_json_number(f, v[i]);
        fputs(", ", f);
    }
    fprintf(f, "\"result\": \"%s\"}", RESULT[t->sprt_result]);
}

// Only where games are adjudicated (a match without writes what it always wrote).
static void adjudicated(FILE *f, const MatchConfig *c, const MatchTally *t) {
    if (!match_adjudicates(c))
        return;
    long resigned, drawn;
    match_adjudicated(t, &resigned, &drawn);
    char text[160];
    match_adjudication_text(c, text, sizeof text);
    fprintf(f, ",\n  \"adjudication\": {\"settings\": ");
    cli_json_string(f, text);
    fprintf(f, ", \"resign\": %ld, \"draw\": %ld, \"plies\": %ld}", resigned, drawn, t->plies);
}

Status match_json_write(const char *path, const MatchConfig *c, const MatchTally *t,
                        ErrorInfo *err) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return error_set(err, STATUS_NOMEM, "--json %s: out of memory", path);
    EloEstimate e = stats_elo_penta(t->penta);
    bool finished = t->pairs_done == t->pairs_total || t->sprt_result != SPRT_CONTINUE;
    fprintf(f, "{\n  \"schema\": %d,\n  \"engines\": [", MATCH_JSON_SCHEMA);
    cli_json_string(f, c->engine[0].name);
    fputs(", ", f);
    cli_json_string(f, c->engine[1].name);
    fprintf(f, "],\n  \"games\": %ld,\n  \"pairs_done\": %d,\n  \"pairs_total\": %d", t->games,
            t->pairs_done, t->pairs_total);
    fprintf(f, ",\n  \"pairs_resumed\": %d,\n  \"finished\": %s,\n  \"interrupted\": %s",
            t->pairs_resumed, finished ? "true" : "false", t->interrupted ? "true" : "false");
    fprintf(f, ",\n  \"variant\": ");
    cli_json_string(f, c->variant ? c->variant->name : "janggi");
    fprintf(f, ",\n  \"wins\": [%ld, %ld],\n  \"draws\": %ld,\n  \"cho_wins\": %ld", t->wins[0],
            t->wins[1], t->draws, t->cho_wins);
    fprintf(f, ",\n  \"first_mover_wins\": %ld", t->first_mover_wins);
    field(f, "score", e.score);
    field(f, "elo", e.elo);
    field(f, "elo_error", e.elo_error);
    field(f, "elo_lower", e.elo_lower);
    field(f, "elo_upper", e.elo_upper);
    field(f, "nelo", e.nelo);
    field(f, "nelo_error", e.nelo_error);
    field(f, "los", e.los);
    fprintf(f, ",\n  \"pentanomial\": [%ld, %ld, %ld, %ld, %ld]", t->penta[0], t->penta[1],
            t->penta[2], t->penta[3], t->penta[4]);
    reasons(f, c, t);
    faults(f, c, t);
    sprt(f, c, t);
    adjudicated(f, c, t);
    fputs("\n}\n", f);
    if (fclose(f) != 0) {
        free(buf);
        return error_set(err, STATUS_NOMEM, "--json %s: out of memory", path);
    }
    Status st = cli_write_atomic(path, buf, len, err);
    free(buf);
    return st;
}
