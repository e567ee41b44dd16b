// SPDX-License-Identifier: MIT
// A match's running totals (match_tally.h): each finished pair added, the SPRT's verdict.
#include "match_tally.h"

#include "stats.h"

void match_tally_pair(MatchTally *t, bool *done, const MatchConfig *c, int k, Side first,
                      const GameRecord g[2]) {
    done[k] = true;
    t->pairs_done++;
    int half = 0; // engine 0's half points of the pair: a win 2, a draw 1
    for (int i = 0; i < 2; i++) {
        t->games++;
        t->plies += g[i].plies;
        if (g[i].winner == GAME_DRAWN) {
            t->draws++;
            t->draws_by[g[i].reason]++;
            half += 1;
            continue;
        }
        t->wins[g[i].winner]++;
        t->wins_by[g[i].winner][g[i].reason]++;
        const Side won = g[i].winner == i ? CHO : HAN; // the Cho engine of game i is engine i
        t->cho_wins += won == CHO;
        t->first_mover_wins += won == first;
        half += g[i].winner == 0 ? 2 : 0;
    }
    t->penta[half]++;
    if (c->sprt_enabled) {
        t->llr = stats_sprt_llr_penta(&c->sprt, t->penta);
        t->sprt_result = stats_sprt_decide(&c->sprt, t->llr);
    }
}

void match_adjudicated(const MatchTally *t, long *resigned, long *drawn) {
    *resigned = t->wins_by[0][REASON_RESIGN] + t->wins_by[1][REASON_RESIGN];
    *drawn = t->draws_by[REASON_ADJUDICATION];
}
