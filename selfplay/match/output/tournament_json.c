// SPDX-License-Identifier: MIT
// A tournament's result as JSON (tournament_json.h, docs/json-outputs.md).
#include "tournament_json.h"

#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "variant.h"

enum { TOURNAMENT_JSON_SCHEMA = 1 };

static void number(FILE *f, const char *sep, const char *name, double v) {
    fprintf(f, "%s\"%s\": ", sep, name);
    cli_json_number(f, v);
}

static void ratings(FILE *f, const TournamentConfig *c, const TournamentTally *t) {
    RatingList r;
    tournament_ratings(c, t, &r);
    fputs(",\n  \"ratings\": [", f);
    for (int k = 0; k < r.n; k++) {
        int i = r.order[k];
        fputs(k ? ",\n    {\"engine\": " : "\n    {\"engine\": ", f);
        cli_json_string(f, c->engine[i].name);
        number(f, ", ", "elo", r.elo[i]);
        number(f, ", ", "error", r.error[i]);
        fprintf(f, ", \"prior\": %s", r.prior[i] ? "true" : "false");
        number(f, ", ", "points", r.points[i]);
        fprintf(f, ", \"games\": %ld", r.games[i]);
        if (k + 1 < r.n)
            number(f, ", ", "los_next", r.los_next[k]);
        else
            fputs(", \"los_next\": null", f);
        fputc('}', f);
    }
    fputs("]", f);
}

// One pairing's match, in the words of the match's own JSON.
static void pairing(FILE *f, const TournamentConfig *c, const Pairing *p) {
    const MatchTally *m = &p->tally;
    EloEstimate e = stats_elo_penta(m->penta);
    fputs("\n    {\"engines\": [", f);
    cli_json_string(f, c->engine[p->a].name);
    fputs(", ", f);
    cli_json_string(f, c->engine[p->b].name);
    fprintf(f, "], \"games\": %ld, \"pairs_done\": %d, \"pairs_total\": %d, \"pairs_resumed\": %d",
            m->games, m->pairs_done, m->pairs_total, m->pairs_resumed);
    fprintf(f, ", \"wins\": [%ld, %ld], \"draws\": %ld, \"cho_wins\": %ld", m->wins[0], m->wins[1],
            m->draws, m->cho_wins);
    number(f, ", ", "score", e.score);
    number(f, ", ", "elo", e.elo);
    number(f, ", ", "elo_error", e.elo_error);
    number(f, ", ", "nelo", e.nelo);
    number(f, ", ", "nelo_error", e.nelo_error);
    number(f, ", ", "los", e.los);
    fprintf(f, ", \"pentanomial\": [%ld, %ld, %ld, %ld, %ld]", m->penta[0], m->penta[1],
            m->penta[2], m->penta[3], m->penta[4]);
    fputs(", \"reasons\": [", f);
    for (int e2 = 0; e2 < 2; e2++) {
        fputs(e2 ? ", {" : "{", f);
        const char *sep = "";
        for (int r = 1; r < REASON_NB; r++)
            if (m->wins_by[e2][r]) {
                fprintf(f, "%s\"%s\": %ld", sep, rules_reason_name(r), m->wins_by[e2][r]);
                sep = ", ";
            }
        fputc('}', f);
    }
    fprintf(f, "], \"restarts\": [%ld, %ld]", m->restarts[0], m->restarts[1]);
    if (match_adjudicates(&c->base)) {
        long resigned, drawn;
        match_adjudicated(m, &resigned, &drawn);
        fprintf(f, ", \"adjudicated\": {\"resign\": %ld, \"draw\": %ld}, \"plies\": %ld", resigned,
                drawn, m->plies);
    }
    fputc('}', f);
}

// {"A": {"B": [points, games], ...}, ...}: each engine's points against each opponent it met.
static void crosstable(FILE *f, const TournamentConfig *c, const TournamentTally *t) {
    fputs(",\n  \"crosstable\": {", f);
    for (int i = 0; i < c->nengines; i++) {
        fputs(i ? ",\n    " : "\n    ", f);
        cli_json_string(f, c->engine[i].name);
        fputs(": {", f);
        const char *sep = "";
        for (int p = 0; p < t->npairings; p++) {
            const Pairing *pg = &t->pairing[p];
            if (pg->a != i && pg->b != i)
                continue;
            const MatchTally *m = &pg->tally;
            double pts = (pg->a == i ? m->wins[0] : m->wins[1]) + 0.5 * m->draws;
            fputs(sep, f);
            cli_json_string(f, c->engine[pg->a == i ? pg->b : pg->a].name);
            fputs(": [", f);
            cli_json_number(f, pts);
            fprintf(f, ", %ld]", m->games);
            sep = ", ";
        }
        fputc('}', f);
    }
    fputs("}", f);
}

Status tournament_json_write(const char *path, const TournamentConfig *c, const TournamentTally *t,
                             ErrorInfo *err) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return error_set(err, STATUS_NOMEM, "--json %s: out of memory", path);
    fprintf(f, "{\n  \"schema\": %d,\n  \"tournament\": \"%s\"", TOURNAMENT_JSON_SCHEMA,
            c->kind == TOURNAMENT_GAUNTLET ? "gauntlet" : "round-robin");
    fputs(",\n  \"variant\": ", f);
    cli_json_string(f, c->base.variant ? c->base.variant->name : "janggi");
    fputs(",\n  \"engines\": [", f);
    for (int i = 0; i < c->nengines; i++) {
        fputs(i ? ", " : "", f);
        cli_json_string(f, c->engine[i].name);
    }
    fprintf(f, "],\n  \"seeds\": %d,\n  \"games_per_pairing\": %d", c->seeds, c->base.games);
    fprintf(f, ",\n  \"pairs_done\": %d,\n  \"pairs_total\": %d,\n  \"finished\": %s",
            t->pairs_done, t->pairs_total, t->pairs_done == t->pairs_total ? "true" : "false");
    fprintf(f, ",\n  \"interrupted\": %s", t->interrupted ? "true" : "false");
    fputs(",\n  \"anchor\": ", f);
    if (c->anchor >= 0) {
        fputs("{\"engine\": ", f);
        cli_json_string(f, c->engine[c->anchor].name);
        number(f, ", ", "elo", c->anchor_elo);
        fputc('}', f);
    } else
        fputs("null", f);
    ratings(f, c, t);
    crosstable(f, c, t);
    fputs(",\n  \"pairings\": [", f);
    for (int p = 0; p < t->npairings; p++) {
        fputs(p ? "," : "", f);
        pairing(f, c, &t->pairing[p]);
    }
    fputs("]\n}\n", f);
    if (fclose(f) != 0) {
        free(buf);
        return error_set(err, STATUS_NOMEM, "--json %s: out of memory", path);
    }
    Status st = cli_write_atomic(path, buf, len, err);
    free(buf);
    return st;
}
