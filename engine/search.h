// SPDX-License-Identifier: MIT
// Alpha-beta search: iterative deepening PVS with a TT, quiescence, null move (a pass as a tempo),
// LMR and every end-of-game rule of the rules page inside the tree.
#pragma once

#include <stdatomic.h>
#include <stddef.h>

#include "types.h"

enum {
    SCORE_INFINITE = 32000,
    SCORE_MATE = 31000, // mate in 0 plies; mate in n plies scores SCORE_MATE - n
    SCORE_MATE_IN_MAX = SCORE_MATE - 2 * MAX_PLY,
    // Game ends that are not mates. Janggi has no draws: a rule that ends the game decides it.
    SCORE_RULE_WIN = 25000,   // won by perpetual check of the opponent: SCORE_RULE_WIN - ply
    SCORE_POINTS_WIN = 20000, // won on points (bikjang, repetition, double pass, move limit):
                              // SCORE_POINTS_WIN + SCORE_POINTS_PER_HALF * margin - ply,
                              // margin = point lead in half points, at most SCORE_POINTS_MARGIN_MAX
    SCORE_POINTS_PER_HALF = 5,
    SCORE_POINTS_MARGIN_MAX = 200,
    SCORE_DECISIVE = 19000 // |score| >= this: the game is decided (mate, rule or points)
};

/// What limits one search. Zero/false fields are unused. Times in milliseconds.
typedef struct SearchLimits {
    int depth;             // plies; fixed-depth search
    uint64_t nodes;        // stop after this many nodes (exactly reproducible)
    int64_t movetime;      // ms for this move
    int64_t time[SIDE_NB]; // remaining clock, ms (wtime = Cho, btime = Han)
    int64_t inc[SIDE_NB];  // increment per move, ms
    int movestogo;         // moves to the next time control, 0 = sudden death
    bool infinite;         // search until stopped
    int64_t move_overhead; // ms kept back from any time budget for lag (UCI Move Overhead)
} SearchLimits;

/// One finished iteration, as reported in `info` lines.
typedef struct SearchInfo {
    int depth, seldepth;
    Score score; // centipawns from the side to move's view, or a mate score
    uint64_t nodes;
    int64_t time_ms;
    int pv_len;
    Move pv[MAX_PLY];
} SearchInfo;

/// The answer of a search.
typedef struct SearchResult {
    Move best;   // MOVE_NONE only when the game is already over at the root
    Move ponder; // MOVE_NONE if unknown
    Score score; // side to move's view, cp or mate score
    int depth;   // last completed iteration
    uint64_t nodes;
    int64_t time_ms;
} SearchResult;

/// Called after each completed iteration (and may be NULL).
typedef void (*SearchInfoFn)(const SearchInfo *info, void *arg);

/// A searcher owns everything one search thread needs (TT, history, killers, stack).
/// Create one per thread; they share nothing.
typedef struct Searcher Searcher;

/// Creates a searcher with a TT of hash_mb megabytes (>= 1). NULL when memory is short.
Searcher *search_create(size_t hash_mb);

/// Frees a searcher (NULL accepted).
void search_destroy(Searcher *s);

/// Resizes the TT (clears it). Returns false when memory is short (the old TT is kept).
bool search_resize(Searcher *s, size_t hash_mb);

/// Forgets everything learnt (TT, history, killers): `ucinewgame`.
void search_clear(Searcher *s);

/// Searches root (not modified) within limits. stop may be NULL; when another thread sets
/// *stop the search ends and returns its best move so far. Deterministic for depth/nodes limits
/// given the same searcher state (e.g. after search_clear).
SearchResult search_run(Searcher *s, const Board *root, const SearchLimits *limits,
                        SearchInfoFn on_info, void *info_arg, atomic_bool *stop);

/// The principal variation of the search's own quiescence (search.c, qsearch) from b (not
/// modified), searched with a full window, no node or time limit, and nothing learnt before
/// (no TT, killers and history cleared): the result depends on b only (its position and
/// history), whatever s searched before. The line is cut before its first pass, before its
/// first move after which the game is over (rules_game_over: a mate, bikjang, repetition, two
/// passes, the move limit), and after max_plies (>= 0) moves; so the position it reaches is
/// one still in play. Writes the moves to pv[0..n-1] (pv holds max_plies moves) and returns n,
/// 0 when b is already quiet (or its best line at once a pass or a game end). Leaves s's
/// history and killers cleared (its TT as it was): a later search_run starts from those.
int search_quiet_pv(Searcher *s, const Board *b, int max_plies, Move *pv);
