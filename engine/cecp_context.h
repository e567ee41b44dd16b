// SPDX-License-Identifier: MIT
// The CECP front end's own room, below both engine/cecp.c (the searches, the command loop) and
// engine/cecp_commands.c (the commands): the context and the helpers both use (cecp_context.c).
// Not an API.
#pragma once

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include "board.h"
#include "search.h" // Searcher, NnueNet, SearchLimits
#include "types.h"

enum {
    CECP_MAX_LINE = 65536,
    CECP_HASH_DEFAULT_MB = 16,
    CECP_MOVE_OVERHEAD_DEFAULT_MS = 10,
    CECP_MOVE_OVERHEAD_MAX_MS = 5000,
    CECP_ECHO_MAX = 40, // bytes of the user's text quoted in an answer
    CECP_PATH_MAX_LEN = 1024,
    CECP_MATE_BASE = 100000 // XBoard reads a score of 100000 + N as a mate in N moves
};

// The EvalFile value that stands for the variant's compiled-in net.
#define CECP_EVAL_FILE_EMBEDDED "<embedded>"

// What the running search is for: a move of the game, pondering on the opponent's time (its
// result is never played), analysis (no move either).
typedef enum { MODE_THINK, MODE_PONDER, MODE_ANALYZE } CecpMode;

struct CecpContext {
    FILE *out;
    const Variant *variant;
    Board board;
    int engine_side; // the side the engine plays, SIDE_NB in force mode
    bool post, ponder, analyzing;
    // The clocks: `level` (moves per period, base and increment) or `st`, and `sd`; `time` and
    // `otim` as the GUI last sent them (ms).
    int level_moves, depth;
    int64_t level_base_ms, level_inc_ms, st_ms, time_ms, otim_ms;
    int64_t move_overhead;
    Searcher *searcher;
    NnueNet *net; // the evaluation: the net in use, NULL for the classical one
    bool use_nnue;
    char eval_file[CECP_PATH_MAX_LEN];
    // The strength: Skill Level, or with limit_strength UCI_Elo (strength.h); skill_seed is
    // advanced at each weakened search, so that games differ.
    int skill, elo;
    bool limit_strength;
    uint64_t skill_seed;
    Move ponder_move; // the reply the last search expected, MOVE_NONE when none
    uint64_t claimed; // the position (key ^ ply) whose end was last claimed
    // The running search: its thread, mode, position, limits; stop ends it, abort says that a
    // game search ended by a command plays no move.
    pthread_t thread;
    bool searching;
    atomic_int mode;                 // a CecpMode; the thread turns a game search into pondering
    atomic_bool stop, abort, played; // played: a game search has played (or given up) its move
    Board search_board;
    SearchLimits limits;
    pthread_mutex_t out_lock; // the search thread and the command handler share out and board
    // The answers to `ping` that wait for the game search's move ("pong N\n" each; NULL: none):
    // written right after the move (cecp_answer_ping).
    char *pongs;
    size_t pongs_len;
    Board scratch;
};

/// The user's text s quoted for an answer into out (cap bytes): at most CECP_ECHO_MAX bytes, every
/// byte outside printable ASCII as \xNN, "..." when cut.
void cecp_quote(const char *s, char *out, size_t cap);

/// Writes `Error (REASON): COMMAND`, the protocol's answer to a command it cannot carry out.
void cecp_reply_error(CecpContext *ctx, const char *reason, const char *cmd);

/// Makes the searcher evaluate with path's net (CECP_EVAL_FILE_EMBEDDED: the variant's
/// compiled-in one) when use_nnue, classically otherwise. False, the evaluation unchanged and
/// `telluser` saying why, when the net is refused.
bool cecp_apply_eval(CecpContext *ctx, const char *path, bool use_nnue);

/// Makes v the game's variant, from its start position, with its compiled-in net.
void cecp_set_variant(CecpContext *ctx, const Variant *v);

/// Answers `ping N` (args: N) as protocol version 2 asks: at once, unless the engine is
/// thinking on its own move (a game search that has not played yet; pondering and analysis do
/// not count), when `pong N` waits and is written right after the move (or, when the search
/// plays none, when it ends). Called with out_lock held. Out of memory: answered at once.
void cecp_answer_ping(CecpContext *ctx, const char *args);
