// SPDX-License-Identifier: MIT
// A match's running totals (MatchTally): each finished pair added, from engine 0's side, with
// the pentanomial counts, the SPRT's LLR and verdict (stats.h).
#pragma once

#include <stdbool.h>

#include "match_config.h"
#include "match_game.h"
#include "rules.h"
#include "stats.h"

/// The running totals, always from engine 0's side unless indexed by engine.
typedef struct MatchTally {
    int pairs_total;   // pairs in the whole match
    int pairs_done;    // finished pairs, those of a resumed run included
    int pairs_resumed; // of which read back from the state file
    long games;
    long wins[2];               // games won by engine i
    long wins_by[2][REASON_NB]; // games won by engine i, by end reason
    long draws;                 // drawn games (xiangqi; adjudication at GAME_PLY_CAP)
    long draws_by[REASON_NB];   // drawn games by end reason
    long cho_wins;              // games won by Cho (Red in xiangqi), whoever moved first
    long first_mover_wins;      // games won by the side to move in the game's start position
    long penta[PENTA_NB];       // engine 0's game pairs
    long restarts[2];           // engine restarts after faults
    long plies;                 // plies of all games (their mean: what adjudication saves)
    double llr;
    SprtResult sprt_result;
    bool interrupted; // stopped before all pairs were played (signal or test hook)
} MatchTally;

/// Called after each finished pair, with the totals so far (under the match's lock).
typedef void (*MatchProgressFn)(const MatchTally *t, const MatchConfig *c, void *arg);

/// Games adjudicated in tally t: won by an adjudicated resignation, drawn by adjudication.
void match_adjudicated(const MatchTally *t, long *resigned, long *drawn);

/// Adds finished pair k to tally t and marks it in done (game 0: engine 0 is Cho; game 1:
/// engine 1 is Cho); first: the side to move in the pair's start position
/// (match_openings_first_side). With c's SPRT, its LLR and verdict.
void match_tally_pair(MatchTally *t, bool *done, const MatchConfig *c, int k, Side first,
                      const GameRecord g[2]);
