// SPDX-License-Identifier: MIT
// Engines that speak CECP (the XBoard/WinBoard protocol, version 2) instead of UCI (issue 43),
// as cutechess-cli's and fastchess's proto=xboard: uci_child.c speaks UCI to the match and this
// translates each line both ways, so the referee, the clocks and the faults stay as they are.
// Moves: CECP numbers ranks from 0 ("h2e2"), UCI as Hansu writes them from 1 ("h3e3").
#pragma once

#include <stdbool.h>
#include <stddef.h>

typedef struct Cecp Cecp;

/// Writes one raw line to the engine; false when it can no longer be written to.
typedef bool (*CecpWrite)(void *ctx, const char *line);

/// A translator for one engine process, NULL when out of memory.
Cecp *cecp_new(void);

/// Frees c. Accepts NULL.
void cecp_free(Cecp *c);

/// Reads one line of the engine's answer to `xboard` / `protover 2`: its `feature` lines
/// (variants, setboard, usermove, ping, myname). True once it sent done=1.
bool cecp_feature(Cecp *c, const char *line);

/// The variants the engine's features named, space-separated with a trailing space
/// ("xiangqi "), as the UCI_Variant combo's values are kept; "" when it named none.
const char *cecp_variants(const Cecp *c);

/// True when the engine can be set up in any position (feature setboard=1); without it a game
/// must begin at the variant's start position (`new`, then the moves).
bool cecp_setboard(const Cecp *c);

/// Says one UCI command in CECP through write(ctx, ...): isready (ping), setoption (option, or
/// the variant for the next `new`), ucinewgame (new, easy, post), position (kept for the next
/// go), go (force, the position, the limits: sd / st / level, time, otim; go), stop (?), quit.
/// False when a write fails, or a position the engine cannot be told (no setboard) or a `go
/// nodes` is asked for.
bool cecp_command(Cecp *c, const char *uci, CecpWrite write, void *ctx);

/// Rewrites one line from the engine into UCI in place: `move X` as `bestmove Y`, `pong N` (of
/// the last ping) as `readyok`, a thinking line (ply score time nodes pv) as `info depth D score
/// cp S nodes N`; other lines as they are. False for a line to drop (an older pong).
bool cecp_reply(Cecp *c, char *line, size_t len);

/// A reply the translator makes itself (readyok for an engine without ping) into line; false
/// when there is none.
bool cecp_pending(Cecp *c, char *line, size_t len);
