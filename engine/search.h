// SPDX-License-Identifier: MIT
// Alpha-beta search: iterative deepening PVS with a TT, quiescence, null move (a pass as a tempo),
// LMR and every end-of-game rule of the rules page inside the tree.
#pragma once

#include <stdatomic.h>
#include <stddef.h>

#include "nnue.h"    // NnuePath
#include "timeman.h" // SearchLimits
#include "types.h"

// Scores, from the side to move's view. A position still in play scores in centipawns,
// |v| < SCORE_DECISIVE. A game end found in the tree, n plies from the root, scores
//     win: SCORE_WIN - SCORE_PER_PLY * n - kind      loss: the win's negation
// (score_win). Distance first, kind only as a tie-break: janggi has no draws and a loss is a
// loss whatever rule ends the game, so a winning side takes the soonest win and a losing side
// the latest loss (every ply more is a chance for the opponent to err), be it a mate, the
// perpetual-check rule or points. Ranking the kinds first (any points loss above any mate) let a
// side that saw itself mated in 15 plies pass now and lose on points at once. At one distance a
// mate comes first (it is decided by the position alone; the perpetual-check and repetition
// ends also depend on the game's history, which the TT does not key), then the perpetual-check
// rule, then points. (Points first, the end that asks least of the winner, was measured too: in
// self-play at 2000 nodes, 300 games, it steered 9 games into double-pass ends lost by the first
// passer, mate first 1.) The margin of a points win is not scored: it does not change the
// result, and as a tie-break below the kind it would need some 200 steps a ply, beyond the
// TT's 16 bits.
typedef enum ScoreEnd {
    SCORE_END_MATE,   // checkmate
    SCORE_END_RULE,   // perpetual check: the side that gives it loses
    SCORE_END_POINTS, // points: bikjang, repetition, double pass, move limit
    SCORE_END_NB
} ScoreEnd;

enum {
    SCORE_INFINITE = 32000,
    SCORE_WIN = 31000,            // above every score: score_win(0, SCORE_END_MATE)
    SCORE_PER_PLY = SCORE_END_NB, // decided scores per ply of distance, one per kind
    // |score| >= this: the game is decided. Room for twice MAX_PLY plies: a TT score taken at
    // another ply than its store (tt_score_from) stays decided.
    SCORE_DECISIVE = SCORE_WIN - 2 * SCORE_PER_PLY * MAX_PLY
};

/// The score of a win of the given kind ply plies from the root (negate it for a loss).
static inline Score score_win(int ply, ScoreEnd kind) {
    return SCORE_WIN - SCORE_PER_PLY * ply - (int)kind;
}

/// Whether v is a decided score (a game end in the tree), won or lost.
static inline bool score_is_decided(Score v) { return v >= SCORE_DECISIVE || v <= -SCORE_DECISIVE; }

/// The plies from the root to the game end of a decided score v.
static inline int score_end_plies(Score v) {
    return (SCORE_WIN - (v < 0 ? -v : v)) / SCORE_PER_PLY;
}

/// What an info callback reports: a line of a finished iteration, (on searches longer than
/// SEARCH_CURRMOVE_MS) the root move the main thread starts to search, or, with
/// SearchLimits.trace_replies, each reply the main thread searched (or pruned) at ply 1: how the
/// search treated the opponent's answers to a root move (issue 56's diagnostics).
typedef enum SearchInfoKind {
    SEARCH_INFO_LINE,
    SEARCH_INFO_CURRMOVE,
    SEARCH_INFO_REPLY
} SearchInfoKind;

enum { SEARCH_CURRMOVE_MS = 3000, SEARCH_MULTIPV_MAX = 256 };

/// Skill levels (UCI Skill Level): SEARCH_SKILL_MAX is full strength. Below it a search
/// (limits->limit_skill) is at most 1 + skill plies deep, keeps at least SEARCH_SKILL_LINES
/// lines, and plays a line chosen at random among those within SEARCH_SKILL_LOSS_CP x
/// (SEARCH_SKILL_MAX - skill) / SEARCH_SKILL_MAX cp of the best, a line's chance falling with
/// its loss as exp(-loss / T), T = 10 + 110 x (SEARCH_SKILL_MAX - skill) / SEARCH_SKILL_MAX cp.
/// The loss is capped below a minor piece's worth, so a weakened engine errs as a weaker
/// player does, by a worse plan, never by throwing a piece away; a decided score (a mate or
/// any game end found) is played as found.
enum { SEARCH_SKILL_MAX = 20, SEARCH_SKILL_LINES = 4, SEARCH_SKILL_LOSS_CP = 250 };

/// One finished iteration's line (or a root move under search), as reported in `info` lines.
typedef struct SearchInfo {
    SearchInfoKind kind;
    int depth, seldepth;
    int multipv; // LINE: the line's rank, 1 = the best (MultiPV lines come in rank order)
    Score score; // centipawns from the side to move's view, or a mate score
    uint64_t nodes;
    int64_t time_ms;
    Move currmove;      // CURRMOVE: the root move; REPLY: the reply
    int currmovenumber; // CURRMOVE, REPLY: its number in its node's move order, from 1 (REPLY:
                        // among the legal moves tried, pruned ones included)
    // REPLY (depth: the iteration's): the root move replied to, the depth of the reply's node,
    // the late move reduction of its first search (0: none), the depth it was last searched to
    // (its node's depth - 1, less any reduction, the TT move's extension added), whether late
    // move or futility pruning left it out (then not searched), score: its value from the
    // replying side's view as the search returned it (a bound outside the window).
    Move root_move;
    int node_depth, reduction, searched_depth;
    bool pruned;
    int pv_len;
    Move pv[MAX_PLY];
} SearchInfo;

/// The answer of a search.
typedef struct SearchResult {
    Move best;   // MOVE_NONE only when the game is already over at the root
    Move ponder; // MOVE_NONE if unknown
    Score score; // side to move's view, cp or mate score
    int depth;   // last completed iteration (a cut one may still have chosen best: search_run)
    uint64_t nodes;
    int64_t time_ms;
} SearchResult;

/// Called after each completed iteration (and may be NULL).
typedef void (*SearchInfoFn)(const SearchInfo *info, void *arg);

/// A searcher owns everything a search needs (TT, history, killers, stack), and with Lazy SMP
/// its helper threads (search_set_threads). Searchers share nothing: create one per
/// concurrent search.
typedef struct Searcher Searcher;

enum { SEARCH_THREADS_MAX = 1024 }; // the most threads one search takes (UCI Threads)

/// Creates a searcher with a TT of hash_mb megabytes (>= 1), searching on one thread. NULL when
/// memory is short.
Searcher *search_create(size_t hash_mb);

/// Makes s search on threads threads (1..SEARCH_THREADS_MAX) by Lazy SMP: threads - 1 helper
/// threads search the same root at once, each with its own history, killers and evaluation
/// cache, sharing s's TT (lock-free, tt.h) and its stop flag. The helper threads are started
/// here and parked between searches (search_destroy or a smaller count ends them); each
/// search_run wakes them, and tells them to stop when it answers without waiting for them:
/// every later call that changes s (the next search_run, search_clear, search_resize,
/// search_set_*, search_evaluate, search_quiet_pv, search_destroy) waits for them to park
/// first, and search_wait does only that. The move played is a vote of the threads' last
/// completed iterations (search_smp.c, smp_pick). Node limits count every thread's nodes; with more
/// than one thread a search is not reproducible. Helpers kept when the count shrinks keep what
/// they learnt. False (s unchanged) for a count out of range, or when memory is short or a
/// thread cannot be started. Not during a search.
bool search_set_threads(Searcher *s, int threads);

/// Waits until the helper threads of s's last search have stopped searching (parked:
/// search_set_threads); returns at once when none searches. Not during a search.
void search_wait(Searcher *s);

/// The threads s searches on (1 for a new searcher).
int search_get_threads(const Searcher *s);

/// Permille of s's TT used by the current (or last) search, from a sample of its first 1000
/// slots: UCI `info hashfull`.
int search_hashfull(const Searcher *s);

typedef struct SearchParams SearchParams; // search_params.h: the tunable constants

/// Makes s search with params (a copy is kept); the reduction table is rebuilt from them. A new
/// searcher has SEARCH_PARAMS_DEFAULT. Not during a search.
void search_set_params(Searcher *s, const SearchParams *params);

/// The parameters s searches with.
const SearchParams *search_get_params(const Searcher *s);

typedef struct NnueNet NnueNet; // nnue.h: a quantised network

/// Makes s evaluate with net, or with NULL the position's variant's classical evaluation (as a
/// new searcher does). The net is read only: any number of searchers (threads) may share one; it
/// must outlive its use and be of the variant searched (nnue_load checks the file's). Clears
/// what s learnt (search_clear): the TT's and the cache's evaluations came from the other
/// evaluation. False when the accumulator stack (one per ply, about 130 KB) cannot be
/// allocated; s then keeps its evaluation. Not during a search.
bool search_set_net(Searcher *s, const NnueNet *net);

/// Makes s's net run on the kernels of path (nnue.h; a new searcher has nnue_path_best()): the
/// same scores, another speed, for benchmarks. False, s unchanged, when this build lacks path.
bool search_set_nnue_path(Searcher *s, NnuePath path);

/// The net s evaluates with, NULL for the classical evaluation.
const NnueNet *search_get_net(const Searcher *s);

/// The static evaluation s's search uses at b (not modified): the net's, on a refreshed
/// accumulator, or the classical one; centipawns from the side to move's view, clamped as the
/// search clamps it. For `eval` and tests; not during a search.
Score search_evaluate(Searcher *s, const Board *b);

/// Test hook: with on, every evaluation by the net in a search compares the incrementally kept
/// accumulator with a full refresh (slow). Resets the counts.
void search_set_nnue_check(Searcher *s, bool on);

/// The evaluations compared since search_set_nnue_check(s, true), and in *mismatches how many
/// differed from a refresh (0 when the incremental updates are right).
uint64_t search_nnue_checked(Searcher *s, uint64_t *mismatches);

/// Frees a searcher (NULL accepted).
void search_destroy(Searcher *s);

/// Resizes the TT (clears it). Returns false when memory is short (the old TT is kept).
bool search_resize(Searcher *s, size_t hash_mb);

/// Forgets everything learnt (TT, history, killers): `ucinewgame`.
void search_clear(Searcher *s);

/// Searches root (not modified) within limits. stop may be NULL; when another thread sets
/// *stop the search ends and returns its best move so far (every thread reads it at every node).
/// With helper threads *stop must stay valid until they have parked (search_wait, or any later
/// call that changes s): a helper may read it after search_run has returned. Deterministic for
/// depth/nodes limits given the same searcher state (e.g. after search_clear) and one thread.
/// limits->multipv lines (at most the root's moves) are searched each iteration, line k with
/// the best moves of lines 1..k-1 left out at the root, and reported in rank order; the move
/// played is the best line's. An iteration cut by a stop or a limit still counts where it
/// searched a root move to the end and found it better than the last iteration's best (which
/// it searched first): that move is played, with an info line of the cut depth (one line only;
/// the result's depth stays the last completed iteration's). limits->searchmoves restricts the
/// root's moves (each must be legal: the caller checks). limits->mate stops the search once a win
/// in that many moves or fewer is proven. With limits->ponder the clock (soft and hard budgets)
/// starts only when search_ponderhit is called; until then the search runs as `go infinite` does.
SearchResult search_run(Searcher *s, const Board *root, const SearchLimits *limits,
                        SearchInfoFn on_info, void *info_arg, atomic_bool *stop);

/// Tells a search of s started with limits->ponder that the move it pondered was played: its
/// clock starts now. Called from another thread, after search_ponder_reset: a ponderhit sent
/// before the pondering search's thread reaches search_run is kept for it.
void search_ponderhit(Searcher *s);

/// Forgets any ponderhit of s: to be called before a search with limits->ponder is started (a
/// search without it forgets them itself).
void search_ponder_reset(Searcher *s);

/// The principal variation of the search's own quiescence (search_tree.c, qsearch) from b (not
/// modified), searched with a full window, no node or time limit, and nothing learnt before
/// (no TT, killers and history cleared): the result depends on b only (its position and
/// history), whatever s searched before. The line is cut before its first pass, before its
/// first move after which the game is over (rules_game_over: a mate, bikjang, repetition, two
/// passes, the move limit), and after max_plies (>= 0) moves; so the position it reaches is
/// one still in play. Writes the moves to pv[0..n-1] (pv holds max_plies moves) and returns n,
/// 0 when b is already quiet (or its best line at once a pass or a game end). Leaves s's
/// history and killers cleared (its TT as it was): a later search_run starts from those.
int search_quiet_pv(Searcher *s, const Board *b, int max_plies, Move *pv);
