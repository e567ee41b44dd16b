// SPDX-License-Identifier: MIT
// PGN output for janggi and xiangqi games: the seven-tag roster plus Variant ("janggi",
// "xiangqi"), SetUp/FEN, the end reason (Termination) and PlyCount; a draw is "1/2-1/2". Moves are
// written in UCI form ("h3e3"; a pass as the general's square twice), as Fairy-Stockfish reads and
// writes them, not in SAN.
#pragma once

#include <stdio.h>

#include "rules.h"
#include "status.h"
#include "types.h"

/// An extra tag pair (e.g. GameId), written after the standard ones.
typedef struct PgnTag {
    const char *name, *value;
} PgnTag;

/// One finished game as the PGN writer needs it. Any text may be given: tag values are escaped
/// as PGN strings (a quote and a backslash each preceded by a backslash; a control character
/// written as a space), and a '}' in a comment is written as ')'.
typedef struct PgnGame {
    const char *event, *site, *date; // date as YYYY.MM.DD
    long long round;                 // the game pair's number, shared by both games of a pair
    const char *white, *black;       // Cho's and Han's engine names
    const char *variant;             // the Variant tag (Variant.name); NULL: the default, janggi
    const char *fen;                 // the start position
    const char *opening;             // e.g. "ma-sang-sang-ma vs sang-ma-ma-sang"; may be NULL
    const char *time_control;        // PGN TimeControl value, e.g. "10+0.1" or "-"; may be NULL
    const Move *moves;
    int nmoves;
    Side winner;     // when not drawn
    bool draw;       // drawn: Result "1/2-1/2"
    bool unknown;    // no result known (an imported record, a PV end): Result "*"
    bool unfinished; // not a finished game (a PV end): no Termination tag
    EndReason reason;
    const char *detail;          // a closing comment (why the game ended); may be NULL
    const char *const *comments; // NULL, or nmoves comments (each NULL or one after its move)
    const PgnTag *tags;          // ntags extra tags; may be NULL
    int ntags;
} PgnGame;

/// Appends one game to f. Termination is the rules page's reason name ("checkmate",
/// "bikjang", "time", "illegal-move", "crash", ...), left out for an unfinished game. The moves
/// are numbered from 1 at the FEN, a first move of Han (Black) as "1... ". STATUS_IO
/// when the write fails ("PGN: write failed (cause)"), errno left as its cause.
Status pgn_write(FILE *f, const PgnGame *g, ErrorInfo *err);
