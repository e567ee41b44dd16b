// SPDX-License-Identifier: MIT
// A rating list fitted to all games of a tournament at once, as Ordo does: the logistic Elo
// model's maximum-likelihood ratings (each game's score s against the expected
// E = 1 / (1 + 10^(-(Ra - Rb) / 400)), log-likelihood s ln E + (1 - s) ln(1 - E)), anchored on
// one player or on a mean of 0; errors and LOS from simulation: each pairing's game pairs drawn
// again from its own pentanomial counts, the list fitted again (Ordo's simulations, on pairs as
// fastchess counts them, so the errors know that the two games of a pair are not independent).
// A pairing that one side won whole has no finite maximum-likelihood difference: it counts one
// drawn game more (half a point each), as BayesElo's prior of drawn games does, but only there.
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "stats.h"

enum { RATING_MAX_PLAYERS = 16 };

/// The games of one pairing: players a and b (0-based), pentanomial counts from a's side.
typedef struct RatingPairing {
    int a, b;
    long penta[PENTA_NB];
} RatingPairing;

typedef struct RatingList {
    int n;
    double elo[RATING_MAX_PLAYERS];    // fitted Elo
    double error[RATING_MAX_PLAYERS];  // 95% half-width (1.96 standard deviations over the
                                       // simulations) of the Elo against the anchor; 0 for the
                                       // anchor itself
    bool prior[RATING_MAX_PLAYERS];    // one of its pairings was won whole (by either side):
                                       // its rating leans on the drawn game added there
    double points[RATING_MAX_PLAYERS]; // points scored (win 1, draw 1/2)
    long games[RATING_MAX_PLAYERS];
    int order[RATING_MAX_PLAYERS];       // players by Elo, best first
    double los_next[RATING_MAX_PLAYERS]; // LOS of order[k] over order[k + 1], 0..1 (last: 0)
} RatingList;

/// The maximum-likelihood Elo of n players from ng pairings into elo[], their mean 0 (players
/// with no games between their groups keep the groups' start apart: 0). Newton's method on the
/// log-likelihood; a pairing won whole counts a drawn game more.
void rating_fit(int n, const RatingPairing *g, int ng, double elo[]);

/// The rating list: rating_fit, shifted so that player anchor has anchor_elo (anchor < 0: the
/// mean is 0), with errors and LOS from `simulations` resamplings (0: errors and LOS left 0)
/// drawn from seed, so the same games give the same list.
void rating_list(int n, const RatingPairing *g, int ng, int anchor, double anchor_elo,
                 int simulations, uint64_t seed, RatingList *out);
