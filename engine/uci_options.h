// SPDX-License-Identifier: MIT
// The UCI option table: what `uci` lists and `setoption` sets (uci_options.c), above the context
// (uci_context.h) and below the command loop (uci.c). Not an API.
#pragma once

#include "uci_context.h"

/// Answers `uci`: the engine's name and author, every option with its type, default and range
/// (the search's tunable constants too), then `uciok`.
void uci_options_list(UciContext *ctx);

/// setoption name <name...> [value <value...>] (tok: the line's n tokens): a bad name or value
/// answers `info string error: ...` naming it and changes nothing.
void uci_options_set(UciContext *ctx, char **tok, int n);
