// SPDX-License-Identifier: MIT
// The UCI front end's own room, below the command loop (engine/uci.c), the commands
// (engine/uci_commands.c) and the option table (engine/uci_options.c): the context and the
// helpers they share (uci_context.c). Not an API.
#pragma once

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "board.h"
#include "nnue.h"
#include "perft.h"
#include "search.h"
#include "types.h"

enum {
    UCI_MAX_LINE = 65536,
    UCI_MAX_TOKENS = 4096,
    UCI_HASH_DEFAULT_MB = 16,
    UCI_MOVE_OVERHEAD_DEFAULT_MS = 10, // Stockfish's default
    UCI_MOVE_OVERHEAD_MAX_MS = 5000,
    UCI_ECHO_MAX = 40,          // bytes of the user's text quoted in an error message
    UCI_OPTION_VALUE_MAX = 1024 // bytes of a setoption value (EvalFile's path)
};

// The EvalFile value that stands for the variant's compiled-in net (none: no net).
#define UCI_EVAL_FILE_EMBEDDED "<embedded>"

/// What the thread started by `go` does.
typedef enum { JOB_SEARCH, JOB_PERFT } Job;

struct UciContext {
    FILE *out;
    const Variant *variant; // the UCI_Variant option: the game `position` sets up
    Board board;
    size_t hash_mb;
    int64_t move_overhead; // ms, the Move Overhead option
    int multipv;           // the MultiPV option: lines searched and reported
    int skill;             // the Skill Level option (SEARCH_SKILL_MAX: full strength)
    uint64_t skill_seed;   // advanced at each weakened go, so that games differ
    bool limit_strength;   // UCI_LimitStrength: play at elo (it then overrides Skill Level)
    int elo;               // UCI_Elo (strength.h)
    bool show_wdl;         // UCI_ShowWDL: `wdl W D L` in each info line (wdl.h)
    bool trace_replies;    // Trace Replies: an `info string reply ...` line for each reply at ply 1
    bool position_ok;      // false after a refused `position`, until a good one arrives
    Searcher *searcher;
    // The evaluation: the net of `variant` (EvalFile's, or the compiled-in one; NULL: none),
    // used when use_nnue (`Use NNUE`); the classical evaluation otherwise. use_nnue starts true
    // where the variant has a compiled-in net, and a variant without a net then evaluates
    // classically; nnue_asked: `Use NNUE true` was set, so a missing net is said (at setoption,
    // at a new variant, at go), never a silent fallback; nnue_set: Use NNUE was set at all, so
    // it is kept (else use_nnue follows the net: true while one is loaded).
    NnueNet *net;
    char eval_file[UCI_OPTION_VALUE_MAX];
    bool use_nnue, nnue_asked, nnue_set;
    // The running search or perft: its thread, its own copy of the position and limits (or
    // depth), the stop flag.
    pthread_t thread;
    bool searching;
    atomic_bool stop;
    atomic_bool ponderhit; // a `go ponder` search got its ponderhit
    Job job;
    Board search_board;
    SearchLimits limits;
    int perft_depth;
    PerftDivide perft;
    pthread_mutex_t out_lock; // the search thread and the command handler share out
    Board scratch;            // `position` builds here and commits only when all is valid
    char *tokens[UCI_MAX_TOKENS];
};

/// The user's text s of len bytes quoted for a message into out (cap bytes): at most
/// UCI_ECHO_MAX bytes, every byte outside printable ASCII as \xNN, "..." when cut.
void uci_quote_text(const char *s, size_t len, char *out, size_t cap);

/// Answers `info string error: MSG`, every byte of msg outside printable ASCII as \xNN.
void uci_reply_error(UciContext *ctx, const char *msg);

/// Makes the searcher evaluate as the options say: the net when Use NNUE is on and a net is
/// loaded, the classical evaluation otherwise (Use NNUE never set follows the net).
void uci_nnue_apply(UciContext *ctx);

/// Says that Use NNUE is on without a net for the variant, so the classical evaluation stands in.
void uci_nnue_say_missing(UciContext *ctx);

/// Replaces the net by the variant's compiled-in one (none: no net); one that does not load is
/// said, and leaves no net.
void uci_nnue_take_embedded(UciContext *ctx);
