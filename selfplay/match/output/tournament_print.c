// SPDX-License-Identifier: MIT
// What hansu-match prints of a tournament (tournament_print.h).
#include "tournament_print.h"

#include <stdio.h>

#include "variant.h"

// The engine's points against its opponent in pairing p, and the games they played.
static double points_of(const Pairing *p, int engine) {
    const MatchTally *m = &p->tally;
    return (p->a == engine ? m->wins[0] : m->wins[1]) + 0.5 * m->draws;
}

static void print_ratings(const TournamentTally *t, const TournamentConfig *c) {
    RatingList r;
    tournament_ratings(c, t, &r);
    if (c->anchor >= 0)
        printf("Rating list (Elo fitted to all games, %s = %.0f; +/- 95 %%):\n",
               c->engine[c->anchor].name, c->anchor_elo);
    else
        printf("Rating list (Elo fitted to all games, average 0; +/- 95 %%):\n");
    printf("%4s %-20s %8s %7s %8s %6s %7s %9s\n", "rank", "engine", "Elo", "+/-", "points", "games",
           "score", "LOS next");
    for (int k = 0; k < r.n; k++) {
        int i = r.order[k];
        printf("%4d %-20.20s %7.1f%s %7.1f %8.1f %6ld %6.1f%%", k + 1, c->engine[i].name, r.elo[i],
               r.prior[i] ? "*" : " ", r.error[i], r.points[i], r.games[i],
               r.games[i] ? 100.0 * r.points[i] / (double)r.games[i] : 0.0);
        if (k + 1 < r.n)
            printf(" %8.1f%%", 100.0 * r.los_next[k]);
        printf("\n");
    }
    for (int i = 0; i < r.n; i++)
        if (r.prior[i]) {
            printf("(* a pairing won whole: rated as if it had one drawn game more)\n");
            break;
        }
    fflush(stdout);
}

void tournament_print_progress(const TournamentTally *t, const TournamentConfig *c, int p,
                               void *arg) {
    const TournamentPrint *print = arg;
    const Pairing *pg = &t->pairing[p];
    const MatchTally *m = &pg->tally;
    printf("pairs %d/%d  %s vs %s: %ld - %ld - %ld (%.1f %%)\n", t->pairs_done, t->pairs_total,
           c->engine[pg->a].name, c->engine[pg->b].name, m->wins[0], m->draws, m->wins[1],
           m->games ? 100.0 * points_of(pg, pg->a) / (double)m->games : 0.0);
    if (print && print->interval > 0 && t->pairs_done % print->interval == 0 &&
        t->pairs_done < t->pairs_total)
        print_ratings(t, c);
    fflush(stdout);
}

// Rows: each engine's points against each opponent, "-" where they did not meet.
static void print_crosstable(const TournamentTally *t, const TournamentConfig *c) {
    printf("Crosstable (points of the row's engine against the column's, of the games played):\n");
    printf("%-20s", "");
    for (int j = 0; j < c->nengines; j++)
        printf(" %12.12s", c->engine[j].name);
    printf("\n");
    for (int i = 0; i < c->nengines; i++) {
        printf("%-20.20s", c->engine[i].name);
        for (int j = 0; j < c->nengines; j++) {
            const Pairing *met = NULL;
            for (int p = 0; p < t->npairings && !met; p++)
                if ((t->pairing[p].a == i && t->pairing[p].b == j) ||
                    (t->pairing[p].a == j && t->pairing[p].b == i))
                    met = &t->pairing[p];
            if (!met) {
                printf(" %12s", "-");
                continue;
            }
            char cell[32];
            snprintf(cell, sizeof cell, "%g/%ld", points_of(met, i), met->tally.games);
            printf(" %12s", cell);
        }
        printf("\n");
    }
}

static void print_pairing(const Pairing *pg, const TournamentConfig *c) {
    const MatchTally *m = &pg->tally;
    EloEstimate e = stats_elo_penta(m->penta);
    printf("%s vs %s: %ld - %ld - %ld (wins - draws - losses, %.1f %%), Elo %.1f +/- %.1f, "
           "nElo %.1f +/- %.1f, LOS %.1f %%, pentanomial [%ld, %ld, %ld, %ld, %ld]",
           c->engine[pg->a].name, c->engine[pg->b].name, m->wins[0], m->draws, m->wins[1],
           100.0 * e.score, e.elo, e.elo_error, e.nelo, e.nelo_error, 100.0 * e.los, m->penta[0],
           m->penta[1], m->penta[2], m->penta[3], m->penta[4]);
    if (m->pairs_resumed)
        printf(", %d pairs read back", m->pairs_resumed);
    printf("\n");
}

// Per engine, over all its pairings: games lost by a fault and restarts after faults.
static void print_faults(const TournamentTally *t, const TournamentConfig *c) {
    printf("Faults (games lost by time, illegal move, crash; restarts):\n");
    for (int i = 0; i < c->nengines; i++) {
        long lost[3] = {0}, restarts = 0;
        static const EndReason FAULTS[] = {REASON_TIME, REASON_ILLEGAL_MOVE, REASON_CRASH};
        for (int p = 0; p < t->npairings; p++) {
            const Pairing *pg = &t->pairing[p];
            if (pg->a != i && pg->b != i)
                continue;
            int me = pg->a == i ? 0 : 1;
            for (int k = 0; k < 3; k++)
                lost[k] += pg->tally.wins_by[1 - me][FAULTS[k]];
            restarts += pg->tally.restarts[me];
        }
        printf("  %-20.20s time %ld, illegal-move %ld, crash %ld; restarts %ld\n",
               c->engine[i].name, lost[0], lost[1], lost[2], restarts);
    }
}

void tournament_print_summary(const TournamentTally *t, const TournamentConfig *c) {
    int resumed = 0;
    long games = 0;
    for (int p = 0; p < t->npairings; p++) {
        resumed += t->pairing[p].tally.pairs_resumed;
        games += t->pairing[p].tally.games;
    }
    printf("\n=== %s of %d engines: %d pairings, %ld games, %d pairs (%d read back from the "
           "state files) ===\n",
           c->kind == TOURNAMENT_GAUNTLET ? "Gauntlet" : "Round robin", c->nengines, t->npairings,
           games, t->pairs_done, resumed);
    char openings[4200];
    OpeningsPlan plan = match_config_openings(&c->base);
    match_openings_source(&plan, openings, sizeof openings);
    printf("Openings: %s, %d random plies\n", openings, c->base.random_plies);
    print_ratings(t, c);
    print_crosstable(t, c);
    printf("Pairings (the first engine's score):\n");
    for (int p = 0; p < t->npairings; p++)
        print_pairing(&t->pairing[p], c);
    print_faults(t, c);
    if (match_adjudicates(&c->base)) {
        long resigned = 0, drawn = 0, plies = 0;
        for (int p = 0; p < t->npairings; p++) {
            long r, d;
            match_adjudicated(&t->pairing[p].tally, &r, &d);
            resigned += r;
            drawn += d;
            plies += t->pairing[p].tally.plies;
        }
        char text[160];
        match_adjudication_text(&c->base, text, sizeof text);
        printf("Adjudicated (%s): %ld of %ld games, %ld by resignation, %ld drawn; games "
               "averaged %.1f plies\n",
               text, resigned + drawn, games, resigned, drawn,
               games ? (double)plies / (double)games : 0.0);
    }
    if (t->interrupted)
        printf("Interrupted after %d of %d pairs; --resume continues it.\n", t->pairs_done,
               t->pairs_total);
}
