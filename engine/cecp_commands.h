// SPDX-License-Identifier: MIT
// The CECP command table (cecp_commands.c), above the context (cecp_context.h) and below the
// command loop (cecp.c), which finds each line's command here. Not an API.
#pragma once

#include "cecp_context.h"

/// How a command meets a running search: it runs beside it (clocks, output, questions), makes a
/// game search move now (`?`), or ends it first (whatever changes the game or the settings: a
/// game search then plays no move; analysis restarts after it).
typedef enum { BESIDE, MOVE_NOW, ENDS_SEARCH } Meets;

/// A command: its name, its handler (given the command's name and the rest of its line,
/// trimmed, which it may modify) and how it meets a running search.
typedef struct CecpCommand {
    const char *name;
    void (*fn)(CecpContext *ctx, const char *cmd, char *args);
    Meets meets;
} CecpCommand;

/// The command called name, NULL if none.
const CecpCommand *cecp_command_find(const char *name);

/// A move of the game for either side from its CECP text, or `Illegal move (REASON): TEXT`.
void cecp_play_move(CecpContext *ctx, const char *text);
