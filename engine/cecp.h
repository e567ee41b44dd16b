// SPDX-License-Identifier: MIT
// The CECP (XBoard/WinBoard protocol version 2) front end: command handling over a context that
// owns the game, the engine's side, the clocks and the settings, writing every answer to one
// output stream. `hansu` speaks it when the first command it reads is `xboard` (docs/xboard.md).
#pragma once

#include <stdio.h>

#include "types.h"

/// Creates a context with janggi's start position, the engine in force mode (playing neither
/// side, as after `xboard`), that writes its answers to out. Returns NULL when memory is short.
CecpContext *cecp_create(FILE *out);

/// Frees a context (NULL is accepted); ends any running search first, playing no move.
void cecp_destroy(CecpContext *ctx);

/// Handles one command line (without or with its newline). An unknown command answers
/// `Error (unknown command): CMD`, a bad argument `Error (REASON): CMD`, an illegal or malformed
/// move `Illegal move (REASON): MOVE`; none of them changes the game. A search (`go`, a move
/// when the engine is on move, `analyze`, pondering after `hard`) runs in a thread of its own;
/// `?` makes it move now, and the commands that change the game end it first (a move thought
/// about is then not played). Returns false after `quit`.
bool cecp_handle_line(CecpContext *ctx, const char *line);

/// Waits until a running game search has played its move (after `go` or a move to the engine),
/// and stops pondering and analysis. Returns at once when none runs. Tests use it to read the
/// answer of a command deterministically.
void cecp_wait(CecpContext *ctx);

/// Reads commands from in until `quit` or end of input, then ends any search (a game search
/// plays its move first). A line that holds a NUL byte is refused. Returns 0.
int cecp_loop(CecpContext *ctx, FILE *in);
