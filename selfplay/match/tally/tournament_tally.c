// SPDX-License-Identifier: MIT
// A tournament's pairings and its rating list (tournament_tally.h).
#include "tournament_tally.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RATING_SIMULATIONS = 1000 };
_Static_assert((int)TOURNAMENT_MAX_ENGINES <= (int)RATING_MAX_PLAYERS, "every engine is rated");

int tournament_pairings(const TournamentConfig *c, Pairing *out, int max) {
    int n = 0;
    for (int a = 0; a < c->nengines; a++)
        for (int b = a + 1; b < c->nengines; b++) {
            bool plays = c->kind == TOURNAMENT_ROUND_ROBIN || (a < c->seeds && b >= c->seeds);
            if (plays && n < max)
                out[n++] = (Pairing){.a = a, .b = b};
        }
    return n;
}

bool tournament_pairing_pgn(const char *pgn_path, const Pairing *p, char *buf, size_t len) {
    size_t n = strlen(pgn_path);
    if (n > 4 && strcmp(pgn_path + n - 4, ".pgn") == 0)
        n -= 4;
    int w = snprintf(buf, len, "%.*s-%d-%d.pgn", (int)n, pgn_path, p->a + 1, p->b + 1);
    return w > 0 && (size_t)w < len;
}

void tournament_ratings(const TournamentConfig *c, const TournamentTally *t, RatingList *out) {
    RatingPairing g[TOURNAMENT_MAX_ENGINES * (TOURNAMENT_MAX_ENGINES - 1) / 2];
    for (int p = 0; p < t->npairings; p++) {
        g[p] = (RatingPairing){.a = t->pairing[p].a, .b = t->pairing[p].b};
        memcpy(g[p].penta, t->pairing[p].tally.penta, sizeof g[p].penta);
    }
    rating_list(c->nengines, g, t->npairings, c->anchor, c->anchor_elo, RATING_SIMULATIONS,
                c->base.seed, out);
}

void tournament_tally_free(TournamentTally *t) {
    free(t->pairing);
    t->pairing = NULL;
}
