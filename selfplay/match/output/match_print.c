// SPDX-License-Identifier: MIT
// What hansu-match prints of a two-engine match (match_print.h).
#include "match_print.h"

#include <stdio.h>

#include "match_affinity.h"
#include "rules.h"
#include "stats.h"
#include "variant.h"

static void print_elo(const char *label, const MatchTally *t) {
    EloEstimate e = stats_elo_penta(t->penta);
    printf("%s Elo %.1f +/- %.1f, nElo %.1f +/- %.1f, LOS %.1f %%", label, e.elo, e.elo_error,
           e.nelo, e.nelo_error, 100.0 * e.los);
}

// Engine 0's score in per cent: a win counts 1, a draw 1/2.
static double score_percent(const MatchTally *t) {
    return t->games ? 100.0 * (t->wins[0] + 0.5 * t->draws) / t->games : 0.0;
}

void match_print_progress(const MatchTally *t, const MatchConfig *c, void *arg) {
    (void)arg;
    // Draws are shown once there are any (janggi has none: its line is W - L).
    if (t->draws)
        printf("pairs %d/%d  %s %ld - %ld - %ld %s (%.1f %%) ", t->pairs_done, t->pairs_total,
               c->engine[0].name, t->wins[0], t->draws, t->wins[1], c->engine[1].name,
               score_percent(t));
    else
        printf("pairs %d/%d  %s %ld - %ld %s (%.1f %%) ", t->pairs_done, t->pairs_total,
               c->engine[0].name, t->wins[0], t->wins[1], c->engine[1].name, score_percent(t));
    print_elo("|", t);
    if (c->sprt_enabled)
        printf(" | LLR %.2f (%.2f, %.2f)", t->llr, c->sprt.lower, c->sprt.upper);
    printf("\n");
    fflush(stdout);
}

// Wins of each engine by end reason (a loss of one is a win of the other). The fault rows
// (time, illegal-move, crash) are always shown, so "no fault" reads as an explicit 0.
static void print_reasons(const MatchTally *t, const MatchConfig *c) {
    printf("%-16s %20.20s %20.20s\n", "won by", c->engine[0].name, c->engine[1].name);
    for (int r = 1; r < REASON_NB; r++) {
        bool fault = r == REASON_TIME || r == REASON_ILLEGAL_MOVE || r == REASON_CRASH;
        if (fault || t->wins_by[0][r] || t->wins_by[1][r])
            printf("%-16s %20ld %20ld\n", rules_reason_name(r), t->wins_by[0][r], t->wins_by[1][r]);
    }
}

void match_print_cores(bool affinity, int at_once, int threads) {
    int cpus[MATCH_CPUS_MAX];
    int n = match_affinity_cpus(cpus, MATCH_CPUS_MAX);
    char msg[256];
    if (match_affinity_overbooked(at_once, threads, n, msg, sizeof msg))
        printf("Warning: %s%s\n", msg, affinity ? " (so --affinity pinned nothing)" : "");
    else if (affinity)
        printf("Affinity: each game's engines pinned to %d core%s of their own, of %d\n", threads,
               threads == 1 ? "" : "s", n);
}

void match_print_summary(const MatchTally *t, const MatchConfig *c) {
    printf("\n=== %s vs %s: %ld games, %d pairs (%d read back from the state file) ===\n",
           c->engine[0].name, c->engine[1].name, t->games, t->pairs_done, t->pairs_resumed);
    char openings[4200];
    OpeningsPlan plan = match_config_openings(c);
    match_openings_source(&plan, openings, sizeof openings);
    printf("Openings: %s, %d random plies\n", openings, c->random_plies);
    // Cho's wins and the first mover's are told apart: Han moves first in many suite lines.
    const char *cho = variant_or_default(c->variant)->side_names[0];
    if (t->draws) {
        printf("Score %ld - %ld - %ld (wins - draws - losses, %.1f %%); %s won %ld, the side that "
               "moved first in the start position %ld\n",
               t->wins[0], t->draws, t->wins[1], score_percent(t), cho, t->cho_wins,
               t->first_mover_wins);
        printf("Draws by reason:");
        for (int r = 1; r < REASON_NB; r++)
            if (t->draws_by[r])
                printf(" %s %ld", rules_reason_name(r), t->draws_by[r]);
        printf("\n");
    } else
        printf("Score %ld - %ld (%.1f %%); %s won %ld, the side that moved first in the start "
               "position %ld\n",
               t->wins[0], t->wins[1], score_percent(t), cho, t->cho_wins, t->first_mover_wins);
    for (int e = 0; e < 2; e++) {
        printf("%s wins by reason:", c->engine[e].name);
        for (int r = 1; r < REASON_NB; r++)
            if (t->wins_by[e][r])
                printf(" %s %ld", rules_reason_name(r), t->wins_by[e][r]);
        printf("  (restarts after faults: %ld)\n", t->restarts[e]);
    }
    print_reasons(t, c);
    if (match_adjudicates(c)) {
        long resigned, drawn;
        char text[160];
        match_adjudicated(t, &resigned, &drawn);
        match_adjudication_text(c, text, sizeof text);
        printf("Adjudicated (%s): %ld of %ld games, %ld by resignation, %ld drawn; games "
               "averaged %.1f plies\n",
               text, resigned + drawn, t->games, resigned, drawn,
               t->games ? (double)t->plies / (double)t->games : 0.0);
    }
    print_elo("", t);
    EloEstimate e = stats_elo_penta(t->penta);
    printf("\n95%% Elo interval [%.1f, %.1f]", e.elo_lower, e.elo_upper);
    printf("\nPentanomial [LL, LD, WL+DD, WD, WW] = [%ld, %ld, %ld, %ld, %ld]\n", t->penta[0],
           t->penta[1], t->penta[2], t->penta[3], t->penta[4]);
    if (c->sprt_enabled) {
        const char *verdict[] = {"continue (no bound crossed)", "H0 accepted", "H1 accepted"};
        printf("SPRT [%.2f, %.2f] alpha %.3f beta %.3f: LLR %.3f (%.3f, %.3f): %s\n", c->sprt.elo0,
               c->sprt.elo1, c->sprt.alpha, c->sprt.beta, t->llr, c->sprt.lower, c->sprt.upper,
               verdict[t->sprt_result]);
    }
    match_print_cores(c->affinity, c->concurrency, match_affinity_threads(c->engine, 2));
    if (t->interrupted)
        printf("Interrupted after %d of %d pairs; --resume continues it.\n", t->pairs_done,
               t->pairs_total);
}
