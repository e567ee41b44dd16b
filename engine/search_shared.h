// SPDX-License-Identifier: MIT
// What the search's rooms share behind search.h, and nothing outside engine/search*.c and
// engine/searcher.c includes: the Searcher every thread searches with, the helpers several rooms
// call (inline where a node calls them), and each room's functions. The rooms, calls going down:
// searcher.c (a Searcher's lifetime and settings), search_root.c (search_run: iterative deepening
// at the root, MultiPV, time, info lines), search_smp.c (Lazy SMP: the helper threads and the
// vote), search_thread.c (one thread: cleared, started, its iterations and their record),
// search_tree.c (negamax and quiescence), search_prune.h (the pruning and extension steps),
// search_order.c (move ordering and the histories).
#pragma once

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "board.h"
#include "movegen.h"
#include "nnue.h"
#include "search.h"
#include "search_params.h"
#include "timeman.h"
#include "tt.h"
#include "variant.h"

enum {
    LMR_N = 64,
    EVAL_CLAMP = 18000,
    EVAL_CACHE_N = 1 << 16,
    CORR_N = 1 << 14,       // correction history entries per side and table
    QS_NO_CHECKS = -MAX_PLY // a quiescence depth below every qs_check_plies: captures only
};

// A cache of static evaluations by Zobrist key. The evaluation depends on the position only,
// except for POINTS_LATE near the move limit, where the cache is not used.
typedef struct EvalCacheEntry {
    uint64_t key;
    int32_t eval;
} EvalCacheEntry;

typedef int16_t ContHist[PIECE_NB][SQUARE_NB];

// A helper thread's state (Lazy SMP), changed under its pool_lock and announced on its
// pool_cond: parked between searches, searching from search_smp_start until it stops (it sees
// the stop, or reaches the depth limit), told to end when the helper is destroyed.
typedef enum HelperState { HELPER_PARKED, HELPER_SEARCHING, HELPER_QUIT } HelperState;

// A completed iteration of one thread: what the vote (smp_pick) weighs and the info line gives.
typedef struct Iteration {
    int depth, seldepth; // depth 0: none completed yet
    Score score;
    int pv_len;
    Move pv[MAX_PLY];
} Iteration;

struct Searcher {
    SearchParams params; // the tunable constants (search_params.def)
    TT *tt;              // the table searched: the main searcher's tt_own, shared by its helpers
    TT tt_own;
    Board board;
    int history[PIECE_NB][SQUARE_NB];
    // Continuation histories (ch_on): cont_hist[pc1][to1] is the table of the moves that follow a
    // move of piece pc1 to to1, one or two plies before; [EMPTY][0] stands for no move (a pass,
    // the null move, before the root). Capture history (caph_on): by mover, point, victim kind.
    ContHist *cont_hist; // PIECE_NB x SQUARE_NB tables, 4 MB
    int16_t capture_hist[PIECE_NB][SQUARE_NB][KIND_NB];
    Piece moved_piece[MAX_PLY + 2]; // the piece moved by the move made at ply (EMPTY: a pass)
    Square moved_to[MAX_PLY + 2];
    Move excluded[MAX_PLY + 2]; // the singular extension's excluded move at ply
    // Correction history (corr_on): what searches found the static evaluation to miss, in
    // 1/CORR_GRAIN cp, by side to move and a key of the soldiers' points or of the material.
    int16_t corr_soldiers[SIDE_NB][CORR_N], corr_material[SIDE_NB][CORR_N];
    Move killers[MAX_PLY + 2][2];
    // countermove: the quiet move that last cut after the opponent's move of piece pc to point to.
    Move countermoves[PIECE_NB][SQUARE_NB];
    // spite_ext: the check that the move of ply - 1 gave to the node at ply earns its extension
    // (SEE >= 0 or discovered), set by the node at ply - 1 before it searches the move.
    bool check_ext_ok[MAX_PLY + 2];
    uint64_t rep_ends; // repetition ends met by the search (rep_tt): a node compares before, after
    Move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pv_len[MAX_PLY + 1];
    int eval_stack[MAX_PLY + 2];
    uint8_t lmr[LMR_N][LMR_N];
    EvalCacheEntry eval_cache[EVAL_CACHE_N];
    uint64_t nodes, node_limit;
    int64_t start_ms, hard_ms;
    // The main thread's node and time limits (node_limit, or with helpers the shared count's
    // smp_node_limit and the helpers' stop_all, smp_armed; hard_ms) are armed when it completes
    // its first iteration (search_thread_arm), 0 and false until then: a limit never cuts the
    // main thread's depth 1, so the move played was compared with every other, as Stockfish
    // stops for a limit only once its main thread completed an iteration. Helpers are armed from
    // the start (their cut iterations never vote), so only the main thread searches past a limit
    // to the end of its depth 1. A stop (the caller's flag) still ends any iteration.
    uint64_t armed_nodes;
    int64_t armed_hard_ms;
    bool smp_armed;
    atomic_bool *stop;
    bool stopped;
    int seldepth;
    bool after_null[MAX_PLY + 2]; // the last ply was the null move: no pass back here
    bool tt_off;                  // quiescence neither probes nor stores the TT (search_quiet_pv)
    // The net's evaluation (search_set_net); NULL: the variant's classical one. acc[ply] is the
    // accumulator of the board at ply: refreshed at the root, and after each make the ply's
    // delta is kept (acc_delta) and applied only when the position is evaluated (search_acc):
    // a node cut before its evaluation (a TT cut, a game end) and whose subtree evaluates
    // nothing costs no update, as Stockfish updates lazily. acc_ready[ply]: acc[ply] is
    // computed. Nothing to do at unmake.
    const NnueNet *net;
    NnuePath nnue_path;
    NnueAccumulator *acc; // MAX_PLY + 2 entries, 64-byte aligned; allocated with the first net
    NnueDelta acc_delta[MAX_PLY + 2]; // the move's delta from acc[ply - 1] to acc[ply]
    bool acc_ready[MAX_PLY + 2];
    NnueCache *nnue_cache; // this thread's accumulator cache (bucketed nets), allocated with acc
    bool nnue_check;       // search_set_nnue_check: compare every evaluated accumulator
    uint64_t nnue_checked, nnue_mismatches;
    // Lazy SMP (search_set_threads): the main searcher owns nhelpers helpers, which search the
    // same root on their own threads with their own histories and share only the TT, the stop
    // flag stop_all (smp_stop points to it; NULL when there are no helpers) and the node counts
    // each thread publishes in nodes_pub every poll_interval nodes. A helper's thread lives as long
    // as the helper and is parked between searches (state); a search wakes it (search_smp_start),
    // and it parks again when it stops, which may be after search_run has answered: search_run
    // tells the helpers to stop and answers without waiting, search_smp_wait waits for them to
    // park.
    int nhelpers, id;
    Searcher **helpers;
    // A helper's tables (search_thread_clear) are cleared by its own thread at its next search,
    // where search_clear asked for it (clear_pending) and it has searched since its last clear
    // (dirty): ucinewgame with 256 threads cleared 1.3 GB on the command thread, page by page of
    // memory no search had touched.
    bool clear_pending, dirty;
    Searcher *main; // the main searcher (itself for the main searcher)
    atomic_bool stop_all;
    atomic_bool *smp_stop;
    uint64_t smp_node_limit; // `go nodes` over every thread (the per-thread node_limit is 0)
    uint64_t poll_mask;      // poll_budget runs when (nodes & poll_mask) == 0 (search_thread_start)
    const SearchLimits *run_limits; // main's: the limits of the search under way (main only)
    int max_depth;                  // a helper's depth limit, taken from those limits at its start
    pthread_t thread;               // a helper's thread
    HelperState state;
    pthread_mutex_t pool_lock;
    pthread_cond_t pool_cond;
    _Atomic uint64_t nodes_pub;
    // The root (search_run): the moves it may choose from (go searchmoves; nroot_allowed 0:
    // every legal move) and those left out as the lines found before in this iteration
    // (MultiPV); the main thread's info callback for the root move under search.
    Move root_allowed[MAX_MOVES], root_excluded[SEARCH_MULTIPV_MAX];
    int nroot_allowed, nroot_excluded;
    SearchInfoFn on_info;
    void *info_arg;
    int root_depth;
    bool trace;               // search_thread_start: the main thread reports each reply at ply 1
    Move trace_root;          // the root move whose replies it reports
    uint64_t root_best_nodes; // nodes spent on the root's best move in its last search
    // go ponder: the clock stands until search_ponderhit stores the time it was called.
    bool pondering;
    _Atomic int64_t ponderhit_ms;
    // The best root move of the iteration under way, across its aspiration searches: the last
    // one searched to the end with a score above alpha (iter_pv_len 0: none yet). Kept when the
    // iteration is cut (search_thread_cut), as Stockfish keeps the root moves it finished.
    // Another move counts only once the last iteration's best move (done.pv[0]) has been searched
    // to the end in the same root search (iter_prev_done): a move searched before it raised
    // alpha over less than that move's score.
    int iter_pv_len;
    Score iter_score;
    Move iter_pv[MAX_PLY];
    bool iter_prev_done;
    // The last iteration this thread completed, for the vote (smp_pick) and its info line;
    // done_lock guards it, as the main thread reads a helper's while the helper may still run.
    Iteration done;
    pthread_mutex_t done_lock;
};

// ---------------------------------------------------------------------------------------
// Helpers of several rooms

// Victim and attacker order for MVV-LVA and the delta margin of quiescence: the search's own
// scale, not the rules' points (Variant.points_half, which give the general 0): a capture of the
// general does not occur, but its value keeps an attack by the general last in LVA order.
static const int ORDER_VALUE[KIND_NB] = {0, 50, 3, 13, 7, 5, 3, 2};

/// A margin of search_params.def (classical cp) in the units of the evaluation that searches:
/// scaled by net_scale_pct / 100 when a net evaluates.
static inline int search_margin(const Searcher *s, int cp) {
    return s->net ? cp * s->params.net_scale_pct / 100 : cp;
}

static inline bool search_is_capture(const Board *b, Move m) {
    return !move_is_pass(m) && b->squares[move_to(m)] != EMPTY;
}

// board_make(m) at ply, and with a net the move's delta from acc[ply] to acc[ply + 1] (a pass's
// is empty: a copy), applied when ply + 1 is evaluated (search_acc). A bucketed net updates at
// once: a general's move refreshes from the board as it stands then. Unmaking is board_unmake
// alone: the search steps back to acc[ply].
static inline void search_make_move(Searcher *s, Move m, int ply) {
    s->moved_piece[ply] = move_is_pass(m) ? EMPTY : s->board.squares[move_from(m)];
    s->moved_to[ply] = move_is_pass(m) ? 0 : move_to(m);
    board_make(&s->board, m);
    tt_prefetch(s->tt, board_key(&s->board)); // the child's probe, while the net updates
    if (s->net) {
        NnueDelta *d = &s->acc_delta[ply + 1];
        nnue_delta_after_make(&s->board, d);
        s->acc_ready[ply + 1] = s->net->buckets > 1;
        if (s->acc_ready[ply + 1])
            nnue_update(s->net, &s->acc[ply], &s->acc[ply + 1], d, s->nnue_cache, s->nnue_path);
    }
}

// acc[ply], computed: the deltas since the nearest computed ply before it applied in turn.
static inline const NnueAccumulator *search_acc(Searcher *s, int ply) {
    assert(s->acc_ready[0]); // search_nnue_root refreshed the root
    int k = ply;
    while (!s->acc_ready[k])
        k--;
    for (k++; k <= ply; k++) {
        nnue_update(s->net, &s->acc[k - 1], &s->acc[k], &s->acc_delta[k], NULL, s->nnue_path);
        s->acc_ready[k] = true;
    }
    return &s->acc[ply];
}

// Refreshes the root's accumulator (acc[0]) from s->board when a net evaluates.
static inline void search_nnue_root(Searcher *s) {
    if (s->net) {
        nnue_refresh(s->net, &s->board, &s->acc[0], s->nnue_path);
        s->acc_ready[0] = true;
    }
}

// A decided score counts the plies from the root, the TT's from its node (search.h: a ply is
// SCORE_PER_PLY score units).
static inline int score_to_tt(int v, int ply) {
    return tt_score_to(v, SCORE_PER_PLY * ply, SCORE_DECISIVE);
}

static inline int score_from_tt(int v, int ply) {
    return tt_score_from(v, SCORE_PER_PLY * ply, SCORE_DECISIVE);
}

// The side to move must answer a bikjang: the generals face after a capture in the game.
static inline bool search_bikjang_pending(const Board *b) {
    const StateInfo *st = board_state(b);
    return st->facing && st->piece_count < 32 && b->variant->bikjang;
}

// A quiet move may end the game here, so no quiet move is sure to keep it going, as standing
// pat or a cut on the static evaluation assumes: a bikjang stands (a quiet move that leaves the
// generals facing ends the game), or the next ply reaches the move limit (every move does).
static inline bool search_quiet_move_may_end(const Board *b) {
    return search_bikjang_pending(b) || board_game_ply(b) + 1 >= b->variant->ply_limit;
}

// The nodes of s's search over every thread: s's own count and the others' as last published
// (search_tree.c, poll_budget; one thread publishes every poll_interval nodes:
// search_thread_start).
static inline uint64_t search_smp_nodes(const Searcher *s) {
    const Searcher *main = s->main;
    if (!main->nhelpers)
        return main->nodes;
    uint64_t n =
        s == main ? s->nodes : atomic_load_explicit(&main->nodes_pub, memory_order_relaxed);
    for (int i = 0; i < main->nhelpers; i++)
        n += main->helpers[i] == s
                 ? s->nodes
                 : atomic_load_explicit(&main->helpers[i]->nodes_pub, memory_order_relaxed);
    return n;
}

// Whether the clock runs: not while pondering, and from the ponderhit on.
static inline bool search_clock_running(Searcher *s) {
    if (!s->pondering)
        return true;
    int64_t hit = atomic_load_explicit(&s->ponderhit_ms, memory_order_relaxed);
    if (!hit)
        return false;
    s->pondering = false;
    s->start_ms = hit;
    return true;
}

// ---------------------------------------------------------------------------------------
// search_tree.c: negamax and quiescence

/// The negamax search of s->board at ply with depth plies left (PVS, a TT, the pruning steps of
/// search_prune.h): a score in the window (alpha, beta) or a bound outside it, side to move's
/// view; 0 once s->stopped. null_ok: the null move may be tried here (not right after one).
int search_negamax(Searcher *s, int alpha, int beta, int depth, int ply, bool null_ok);

/// Quiescence from s->board at ply; qdepth 0 at its first ply, falling by one a ply (quiet checks
/// are tried while qdepth > -qs_check_plies; QS_NO_CHECKS: never).
int search_qsearch(Searcher *s, int alpha, int beta, int ply, int qdepth);

/// The static evaluation of s->board at ply (acc[ply] with a net), cached, clamped to
/// +-EVAL_CLAMP; centipawns from the side to move's view.
int search_static_eval(Searcher *s, int ply);

// ---------------------------------------------------------------------------------------
// search_thread.c: one thread's state, search start, iterations and their record

/// Forgets what thread s learnt: histories, killers, cached evaluations.
void search_thread_clear(Searcher *s);

/// Frees what every thread's Searcher t owns (its done_lock, histories and net buffers) and t;
/// a helper's thread and pool lock are ended before (search_smp.c), as is the main one's TT.
void search_thread_free(Searcher *t);

/// Allocates t's accumulators and accumulator cache (64-byte aligned) where it has none yet:
/// the first net's use. False when out of memory (what was allocated is kept, freed with t).
bool search_thread_alloc_nnue(Searcher *t);

/// Resets what s counts and learns per search (history halves, killers go) for a search within
/// limits, stopped by *stop (may be NULL).
void search_thread_start(Searcher *s, const SearchLimits *limits, atomic_bool *stop);

/// The depth limit of limits: limits->depth, or MAX_PLY - 1 when none (or out of range).
int search_thread_max_depth(const SearchLimits *limits);

/// One iteration of depth plies at the root: a window around prev, the last iteration's score,
/// widened on every failure. The score (0 once s->stopped).
int search_thread_aspiration(Searcher *s, int depth, int prev);

/// Keeps the iteration s just completed (depth, score, s's PV) for the vote and the info line.
void search_thread_keep(Searcher *s, int depth, int score);

/// Arms the main thread's node and time limits (armed_nodes, or with helpers the shared count
/// and their stop; armed_hard_ms) once it has completed an iteration, every line of it
/// (MultiPV): from then on a limit may cut an iteration. A helper's are armed at its start.
/// Idempotent.
void search_thread_arm(Searcher *s);

/// A copy of t's last completed iteration, taken under its lock (t's thread may still run).
void search_thread_read(Searcher *t, Iteration *it);

/// After s's iteration is cut by a stop: its best root move searched to the end, if any,
/// replaces the last completed iteration's line (its depth stays). True when there was one.
bool search_thread_cut(Searcher *s);

// ---------------------------------------------------------------------------------------
// search_smp.c: the Lazy SMP helpers

/// Waits for the helpers of s's last search to park (told to stop when it answered).
void search_smp_wait(Searcher *s);

/// Wakes s's helpers (all parked) to search root within s->run_limits.
void search_smp_start(Searcher *s, const Board *root);

/// Once the helpers are told to stop: the vote of every thread's last completed iteration; when
/// a helper's line wins it becomes res's answer, with an info line.
void search_smp_answer(Searcher *s, SearchResult *res, SearchInfoFn on_info, void *info_arg);
