// SPDX-License-Identifier: MIT
// UCI move strings: from and to squares with ranks 1-10 ("a10a9"); a pass is the general's
// square twice ("e2e2"), and is also read as "0000" or "@@@@". CECP (XBoard) move strings: ranks
// counted 0-9 as XBoard counts them on a 10-rank board ("h0g2" is UCI "h1g3"), a pass "@@@@".
#pragma once

#include <stddef.h>

#include "status.h"
#include "types.h"

enum { MOVE_STR_LEN = 8 }; // buffer size for any move string this module writes

/// Writes the UCI string of m (a pass as the general's square twice) into out.
/// MOVE_NONE is written as "(none)", as Fairy-Stockfish does in `bestmove (none)`.
void move_to_uci(Move m, char out[MOVE_STR_LEN]);

/// Writes a square's name ("e2", "a10") into out (at least 4 bytes).
void square_to_str(Square sq, char out[4]);

/// Reads a square name ("a1" .. "i10"). Returns SQ_NONE if malformed. *len gets its length.
Square square_parse(const char *s, int *len);

/// Reads a move string and checks that it is legal in b. On success *out is the move.
/// Errors: STATUS_SYNTAX (not a move string, names the token) or STATUS_ILLEGAL (well formed
/// but not a legal move or pass here, with the reason).
Status move_parse_uci(Board *b, const char *str, Move *out, ErrorInfo *err);

/// Writes m as XBoard writes moves on a 10-rank board (CECP): ranks 0-9, so UCI "h1g3" is "h0g2";
/// a pass as "@@@@" (XBoard's null move). MOVE_NONE is written as "(none)".
void move_to_cecp(Move m, char out[MOVE_STR_LEN]);

/// Reads a CECP move string ("h0g2"; a pass as "@@@@", "0000", "pass" or "--") and checks that it
/// is legal in b. On success *out is the move. Errors as move_parse_uci(), the message
/// "move 'TEXT': REASON".
Status move_parse_cecp(Board *b, const char *str, Move *out, ErrorInfo *err);
