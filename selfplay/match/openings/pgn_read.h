// SPDX-License-Identifier: MIT
// Reading PGN games (plain or gzip-compressed) as Hansu's tools and Fairy-Stockfish write them:
// the tags a tool needs (players, result, end reason, variant, start FEN) and the moves in UCI
// form ("h3e3"; a pass as the general's square twice), each checked by the rules core. Comments,
// variations, NAGs and '%' escape lines are skipped (PGN standard, 8.2). The opening books
// (book.h) and hansu-selfplay label read their PGN here.
#pragma once

#include <stdbool.h>

#include "fen.h"
#include "rules.h"
#include "status.h"
#include "types.h"

enum {
    PGN_READ_PLIES_MAX = 1024, // moves kept of one game; later ones are counted as dropped
    PGN_READ_TAG_MAX = 128     // bytes kept of a tag's value (longer values are cut)
};

/// One game as read: its tags, start position and moves.
typedef struct PgnReadGame {
    int number;     // its number in the file, from 1
    int first_line; // the line of its first tag or move
    const Variant *variant;
    char white[PGN_READ_TAG_MAX], black[PGN_READ_TAG_MAX]; // "" when the tag is absent
    char result[PGN_READ_TAG_MAX];      // the Result tag, else the movetext's result token, else ""
    char termination[PGN_READ_TAG_MAX]; // the Termination tag, "" when absent
    char start_fen[FEN_BUFFER]; // the start ([FEN], else the variant's), as fen_write writes it
    Move moves[PGN_READ_PLIES_MAX];
    int nmoves;
    int dropped;    // move words not read: after the rules ended the game, or past max_plies
    bool over;      // the rules end the game after its last move read ...
    GameResult end; // ... so (rules_game_over after it)
} PgnReadGame;

/// Called with each game as its movetext ends (a result token, a tag after its moves, the end
/// of the file); g is valid during the call only. A status other than STATUS_OK stops the reading
/// and is returned (with err as the callback set it).
typedef Status (*PgnGameFn)(const PgnReadGame *g, void *arg, ErrorInfo *err);

/// How a file is read.
typedef struct PgnReadOptions {
    const Variant *variant; // every game must be of it ([Variant] names it or is absent); NULL:
                            // each game's [Variant] (janggi without one)
    int max_plies;          // moves read of each game (< 0: all, up to PGN_READ_PLIES_MAX)
    const char *prefix;     // put before every message (e.g. "openings "), may be NULL
} PgnReadOptions;

/// Reads the games of the PGN file path (gzip-compressed or not: zlib tells) in order, each
/// passed to fn. A game is read to its end by the rules: the move that ends it is kept
/// (g->over), the words after it are not read (counted in g->dropped). *games gets the number of
/// games read (the number of the game being read when an error stopped it). Errors name the file
/// and line, and the move: STATUS_IO (unreadable, a corrupt .gz), STATUS_FORMAT (binary data, a
/// game of another variant, a bad FEN, an illegal or malformed move, a comment or variation still
/// open at a game's end or the file's, a stray ')' or '}', a tag inside a variation), or fn's.
Status pgn_read_file(const char *path, const PgnReadOptions *opt, PgnGameFn fn, void *arg,
                     int *games, ErrorInfo *err);
