// SPDX-License-Identifier: MIT
// Time management: how long one move may think, from the UCI clock fields.
#pragma once

#include <stdint.h>

#include "types.h"

typedef struct SearchParams SearchParams; // search_params.h: the tunable constants

/// What limits one search. Zero/false fields are unused. Times in milliseconds.
typedef struct SearchLimits {
    int depth;             // plies; fixed-depth search
    uint64_t nodes;        // stop after this many nodes (exactly reproducible)
    int64_t movetime;      // ms for this move
    int64_t time[SIDE_NB]; // remaining clock, ms (wtime = Cho, btime = Han)
    int64_t inc[SIDE_NB];  // increment per move, ms
    int movestogo;         // moves to the next time control, 0 = sudden death
    int64_t byoyomi;       // ms each move has once the clock is spent (go byoyomi, as
                           // Fairy-Stockfish and USI: Japanese byo-yomi), 0 = none
    bool infinite;         // search until stopped
    int64_t move_overhead; // ms kept back from any time budget for lag (UCI Move Overhead)
    int multipv;           // lines to search and report (UCI MultiPV); 0 or 1: the best only
    int mate;              // moves: stop once a win in at most this many is found (go mate)
    bool ponder;           // go ponder: the clock starts at search_ponderhit, not before
    double skill;          // skill 0..SEARCH_SKILL_MAX (search.h), continuous: below the max
                           // plays weaker (UCI Skill Level, UCI_Elo through strength.h)
    bool limit_skill;      // false: full strength, skill unused
    uint64_t skill_seed;   // the seed of a weakened search's choice
    bool trace_replies;    // report each reply at ply 1 (SEARCH_INFO_REPLY; UCI Trace Replies)
    int nsearchmoves;      // root moves to choose from (go searchmoves); 0: every legal move
    Move searchmoves[MAX_MOVES];
} SearchLimits;

/// The two budgets of one move, in ms. 0 means no limit.
typedef struct TimeBudget {
    int64_t soft; // do not start another iteration after this
    int64_t hard; // stop the search at once after this
} TimeBudget;

/// Budgets for the side to move from limits, with the time factors of params (tm_*; the
/// numbers below are their defaults). Every budget first keeps back
/// limits->move_overhead ms (the UCI option Move Overhead: lag between GUI and engine).
/// movetime: hard = movetime - overhead (at least 1), no soft budget, so the search uses the
/// whole time. Clocks: soft = (time - overhead) / movestogo (or / 30 in sudden death) plus
/// 3/4 of the increment, hard = 4 soft; both at most a third of time - overhead (9/10 when
/// movestogo is 1). depth/nodes/infinite alone: no limit.
/// Byo-yomi (limits->byoyomi > 0, the period of each move after the main clock): with the main
/// clock spent, the period is the move's time (hard = byoyomi - overhead, no soft budget, as
/// movetime: unused period time is lost); before, the period counts as an increment (soft adds
/// tm_inc_pct % of it) and hard, still at most a third of the main clock, gets the whole period
/// on top, since the period covers a move that runs past the main clock.
TimeBudget timeman_budget(const SearchLimits *limits, Side us, const SearchParams *params);

/// What the search saw in its iterations so far, for the scale of the soft budget.
typedef struct TimeSignals {
    int depth;                  // the iteration just completed, plies
    int stable;                 // iterations in a row with the same best move (0: it changed)
    Score score, prev;          // this iteration's score and the one before's, cp (side to move)
    bool decided;               // either is a decided score (a game end in the tree)
    uint64_t best_nodes, nodes; // the iteration's nodes on its best root move, and in all
} TimeSignals;

/// The scale of the soft budget after an iteration, in percent: 100 while params->tm_adapt is
/// 0, before depth 5, or for a decided score. Otherwise the product of three factors, each in
/// percent and the product clamped to 40..250: best-move stability (tm_stab_max when the best
/// move just changed, falling linearly to tm_stab_min after 6 stable iterations), a falling
/// score (100 + tm_drop_pct per 10 cp of fall, at most + tm_drop_max; a rise takes at most
/// 15 off) and the best move's share of the nodes (tm_node_base - tm_node_mult x share).
/// The ideas are Stockfish's and Ethereal's (best-move instability, falling eval, the nodes
/// spent on the best move); the formula and constants are Hansu's, tuned by scripts/spsa.
int timeman_scale(const TimeSignals *sig, const SearchParams *params);

/// Milliseconds on a monotonic clock.
int64_t timeman_now_ms(void);
