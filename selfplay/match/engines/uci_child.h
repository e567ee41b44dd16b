// SPDX-License-Identifier: MIT
// A UCI engine run as a child process: spawned with fork/exec over two pipes, spoken to in
// lines, read with deadlines, and watched for crashes (EOF, exit) and hangs (no answer in time).
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "status.h"

enum {
    ENGINE_MAX_ARGS = 16,
    ENGINE_MAX_OPTIONS = 16,
    ENGINE_LINE_MAX = 8192 // longest line kept; longer lines are cut
};

/// How to start an engine: program, arguments, and the UCI options sent after `uciok`.
typedef struct EngineSpec {
    char name[64];
    char cmd[512];
    int nargs;
    char args[ENGINE_MAX_ARGS][128];
    int noptions;
    char opt_name[ENGINE_MAX_OPTIONS][64];
    char opt_value[ENGINE_MAX_OPTIONS][256];
    bool xboard; // proto=xboard: the engine speaks CECP (cecp_child.h), translated both ways
    bool ponder; // ponder: the engine thinks on its predicted reply in the opponent's time
} EngineSpec;

/// Outcome of reading one line.
typedef enum {
    CHILD_LINE = 0, // a line was read
    CHILD_TIMEOUT,  // the deadline passed with no complete line
    CHILD_EOF       // the engine closed its output or exited: a crash
} ChildRead;

typedef struct UciChild UciChild;

/// Starts the engine, sends `uci` and waits for `uciok` (noting its UCI_Variant option:
/// child_variant_offer), sends each option followed by
/// `isready` and waits for `readyok`, all within timeout_ms. SIGPIPE is ignored from then on,
/// so a write to a dead engine fails instead of killing the match. The child gets SIGKILL when
/// the thread that started it ends (PR_SET_PDEATHSIG): start and stop an engine in one thread.
/// Errors: STATUS_IO (spawn failed, the engine died or did not answer in time), STATUS_RANGE
/// (the engine refused an option: child_reply_is_refusal), with the engine's name and the
/// option in the message.
Status child_start(UciChild **out, const EngineSpec *spec, int64_t timeout_ms, ErrorInfo *err);

/// True for an engine's reply that refuses a command: "No such option: X" (Stockfish,
/// Fairy-Stockfish), a line naming an "unknown option", "info string error: ..." (Hansu) or
/// "error ...".
bool child_reply_is_refusal(const char *line);

/// Sends `quit`, waits up to 200 ms for the process to leave, then kills it. NULL accepted.
void child_stop(UciChild *e);

/// Kills the process at once (SIGKILL) and reaps it; the handle stays valid for child_stop.
void child_kill(UciChild *e);

/// Writes one line (the newline is added). False when the engine can no longer be written to.
bool child_send(UciChild *e, const char *line);

/// False for a CECP engine without setboard: its games must begin at the variant's start
/// position.
bool child_can_set_position(const UciChild *e);

/// The engine's process id; 0 once it has exited (or e is NULL).
int child_pid(const UciChild *e);

/// Reads the next line into buf (without the newline) before deadline_ms (timeman_now_ms time).
ChildRead child_read_line(UciChild *e, char *buf, size_t len, int64_t deadline_ms);

/// Sends `isready` and waits for `readyok` before deadline_ms, dropping other lines (e.g. a
/// late `bestmove`). True when the engine answered.
bool child_sync(UciChild *e, int64_t deadline_ms);

/// How an engine's `uci` reply offered the UCI_Variant option (a combo of variant names).
typedef enum {
    VARIANT_OPTION_NONE = 0, // no UCI_Variant option: the engine plays one game natively
    VARIANT_OPTION_OFFERS,   // the combo lists the variant
    VARIANT_OPTION_LACKS     // the combo does not list it
} VariantOffer;

/// Whether the started engine's UCI_Variant combo lists variant (compared without case, as
/// Stockfish compares combo values).
VariantOffer child_variant_offer(const UciChild *e, const char *variant);

/// The UCI_Variant combo's values as the engine listed them, each followed by a space ("" when
/// it offers none; cut after about 4000 characters).
const char *child_variant_values(const UciChild *e);

/// The spec the engine was started from.
const EngineSpec *child_spec(const UciChild *e);
