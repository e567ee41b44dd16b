// SPDX-License-Identifier: MIT
// The UCI commands (uci_commands.c), above the context (uci_context.h) and below the command
// loop (uci.c), which calls each with the line's tokens (tok[0] the command) under out_lock.
// Not an API.
#pragma once

#include <stdbool.h>

#include "uci_context.h"

/// position startpos|fen FEN [moves ...]: built aside and committed only when all of it is
/// valid; a refused one leaves no position to search until a good one arrives.
void uci_position(UciContext *ctx, char **tok, int n);

/// go [limits] or go perft N: starts the search (or perft) thread; a refused search answers
/// `bestmove (none)`, a refused perft an error only.
void uci_go(UciContext *ctx, char **tok, int n);

/// ponderhit: the pondering search goes on on the clock; an error when none ponders.
void uci_ponderhit(UciContext *ctx);

/// bench [DEPTH]: the variant's bench with the evaluation the options select.
void uci_bench(UciContext *ctx, char **tok, int n);

/// d: the board, its FEN and Zobrist key.
void uci_display(UciContext *ctx);

/// eval: the static evaluation the search uses at the position, and which one it is.
void uci_eval(UciContext *ctx);

/// Whether the job under way is a search that answers only when told (`go infinite`, `go
/// ponder` before its ponderhit): whatever must wait for it stops it instead.
bool uci_waits_for_stop(UciContext *ctx);

/// A `go mate N` search with no depth, node or time limit: it ends only when a mate is proven.
bool uci_unbounded_mate(const UciContext *ctx);
