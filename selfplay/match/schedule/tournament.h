// SPDX-License-Identifier: MIT
// Tournaments (issue 43): N engines in a gauntlet (the first K, the seeds, against each of the
// others) or a round robin (every pair), each pairing a match of its own (match.h: game pairs
// with colours swapped, the same openings for every pairing) with its own PGN and resume state,
// all of them sharing one number of games at once (match_slots.h).
#pragma once

#include "match.h"
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

/// Called after each finished pair of any pairing with the tournament so far (p: the pairing
/// that finished one), one call at a time.
typedef void (*TournamentProgressFn)(const TournamentTally *t, const TournamentConfig *c, int p,
                                     void *arg);

/// Plays the tournament: each pairing's match (match_run) in a thread of its own, all taking
/// their games from c->base.concurrency slots; a fatal error in one stops all. *t gets the totals
/// (t->pairing malloc'd: tournament_tally_free). On --resume a pairing without a state file yet
/// starts afresh. Errors: check of the config (STATUS_RANGE/SYNTAX naming it), the first
/// pairing's error, the JSON or the joined PGN not written.
Status tournament_run(const TournamentConfig *c, TournamentTally *t, TournamentProgressFn progress,
                      void *arg, ErrorInfo *err);

/// The rating list of the games so far (rating.h), anchored as c says, with errors and LOS from
/// 1000 simulations seeded by c->base.seed.
void tournament_ratings(const TournamentConfig *c, const TournamentTally *t, RatingList *out);

/// Frees t's pairings. Accepts a tally never filled (zeroed).
void tournament_tally_free(TournamentTally *t);
