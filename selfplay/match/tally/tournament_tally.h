// SPDX-License-Identifier: MIT
// A tournament's settings and totals (issue 43): its engines and kind (a gauntlet or a round
// robin), its pairings, each with its match's tally (match_tally.h), and the rating list of them.
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "match_config.h"
#include "match_tally.h"
#include "rating.h"

enum { TOURNAMENT_MAX_ENGINES = 16 };

typedef enum { TOURNAMENT_GAUNTLET = 0, TOURNAMENT_ROUND_ROBIN } TournamentKind;

typedef struct TournamentConfig {
    MatchConfig base; // what every pairing shares: variant, games (per pairing), concurrency
                      // (games at once over the whole tournament), margin, watchdog, openings,
                      // random plies, seed, resume, stop, warn, event, site, stop_after_pairs
                      // (per pairing); its engines, limits, files and SPRT are not used
    int nengines;     // 2..TOURNAMENT_MAX_ENGINES
    EngineSpec engine[TOURNAMENT_MAX_ENGINES];
    Limits limits[TOURNAMENT_MAX_ENGINES];
    TournamentKind kind;
    int seeds;             // gauntlet: engines 0..seeds-1 each play every later engine (>= 1)
    const char *pgn_path;  // NULL: no PGN. Else pairing (i, j) writes BASE-I-J.pgn and its state
                           // BASE-I-J.pgn.state (BASE: the path less ".pgn", I and J 1-based),
                           // and pgn_path gets every pairing's games at the end
    const char *json_path; // NULL: none; else tournament_json_write at each pair and the end
    int anchor;            // the engine whose rating is anchor_elo in the rating list; -1: the
                           // ratings average 0
    double anchor_elo;
} TournamentConfig;

/// One pairing: engine a (its match's engine 0, scored) against engine b, and its totals.
typedef struct Pairing {
    int a, b;
    MatchTally tally;
} Pairing;

/// The tournament so far.
typedef struct TournamentTally {
    int npairings;
    Pairing *pairing;            // npairings, in the order tournament_pairings gives
    int pairs_done, pairs_total; // over all pairings
    bool interrupted;            // stopped before every pair was played
} TournamentTally;

/// The pairings of c in *out (up to max): round robin (0,1), (0,2), ... (1,2), ...; gauntlet
/// (s, j) for each seed s and each later non-seed j. Returns how many.
int tournament_pairings(const TournamentConfig *c, Pairing *out, int max);

/// Pairing p's PGN path (pairing (i, j) of "out.pgn": "out-I-J.pgn") into buf; false when it
/// does not fit.
bool tournament_pairing_pgn(const char *pgn_path, const Pairing *p, char *buf, size_t len);

/// The rating list of the games so far (rating.h), anchored as c says, with errors and LOS from
/// 1000 simulations seeded by c->base.seed.
void tournament_ratings(const TournamentConfig *c, const TournamentTally *t, RatingList *out);

/// Frees t's pairings. Accepts a tally never filled (zeroed).
void tournament_tally_free(TournamentTally *t);
