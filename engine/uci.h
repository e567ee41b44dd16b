// SPDX-License-Identifier: MIT
// The UCI front end in Fairy-Stockfish's janggi dialect: command handling over a context
// that owns the position and options, writing every answer to one output stream.
#pragma once

#include <stdio.h>

#include "types.h"

/// Creates a context with the start position that writes its answers to out.
/// Returns NULL when memory is short.
UciContext *uci_create(FILE *out);

/// Frees a context (NULL is accepted); stops any running search first.
void uci_destroy(UciContext *ctx);

/// Handles one command line (without or with its newline). A malformed command answers
/// `info string error: ...` (user text in it quoted with bytes outside printable ASCII as
/// \xNN) and changes nothing. Every `go` but `go perft` is answered by exactly one bestmove:
/// `bestmove (none)` when it cannot search (refused limits, no valid position, game over).
/// `go` and `go perft` run in a thread of their own; `stop` and `quit` end either, `isready`
/// and `uci` are answered beside them. Returns false after `quit`.
bool uci_handle_line(UciContext *ctx, const char *line);

/// Waits until a running search or perft (started by `go`) has printed its answer. Returns at
/// once when none runs. Tests use it to read the answer of a `go` deterministically.
void uci_wait(UciContext *ctx);

/// Reads commands from in until `quit` or end of input, then waits for a running search or
/// perft to answer; a search that would wait for `stop` or `ponderhit` (go infinite, go ponder
/// before its ponderhit) is stopped and answers its bestmove. A line that holds a NUL byte is
/// refused. Returns 0.
int uci_loop(UciContext *ctx, FILE *in);
