// SPDX-License-Identifier: MIT
// The games hansu-selfplay label takes (docs/data-format.md, "Labelled games"): read from PGN
// files (pgn_read.h), each checked before any search, its outcome as the store holds it, its start
// (formations, the variant's start or an opening) and its game id fixed by the inputs alone.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules.h"
#include "status.h"
#include "types.h"

/// One game to store: where it came from, how it starts and ends, its moves.
typedef struct LabelGame {
    uint32_t id;      // game_id: its index in input order, or with openings
                      // k * (openings) + its opening (label_inputs_read)
    int input;        // index of its file in LabelInputs.paths
    int number, line; // its number in the file and the line of its first tag
    int cho, han;     // janggi's formations (0 with openings, and in xiangqi)
    int start;        // index of its start FEN in LabelInputs.fens
    uint8_t sides;    // sides whose positions may be labelled: bit 1 << CHO, 1 << HAN
    int winner;       // CHO, HAN or WINNER_DRAW
    EndReason reason; // the rules' end, else resign or adjudication (by the tool)
    int nmoves;
    Move *moves;
} LabelGame;

/// Every input file and the games taken from them, in input order.
typedef struct LabelInputs {
    const Variant *variant; // of every game (--variant, else the first game's)
    LabelGame *games;
    size_t count, cap;
    char **fens; // distinct start positions (fen_write), in order of first use
    int nfens;
    bool openings;   // some game starts elsewhere than a formation pairing / the variant's
                     // start: every game is stored from its FEN (the openings attribute)
    char **paths;    // the input files, as given
    char (*sha)[65]; // their SHA-256 (hex)
    size_t *taken;   // games taken from each
    size_t npaths;
    size_t read, left_out, not_player; // games read; left out (named); without the --to-move player
} LabelInputs;

/// Reads every file of paths[0..n) (PGN, plain or .gz) into in: games of variant v (NULL: the
/// first game's [Variant], janggi without one). A game the store cannot hold is left out and named
/// on standard error with its file, line and why: no result ("*", none), a janggi draw, no moves,
/// more plies than the store holds; a game the rules end before its last move keeps its moves up to
/// that end (a warning names it), and where its Result differs from the rules' the rules' is kept
/// (warned). to_move: a player's name (the White or Black tag, exact): only the positions that
/// player moves in may be labelled, and a game they do not play is left out (counted); NULL:
/// every position. Errors name the file and line: STATUS_IO (missing, unreadable, a folder),
/// STATUS_FORMAT (pgn_read_file's; a game of another variant; no game stored at all;
/// openings over H5STORE_OPENINGS_MAX bytes), STATUS_NOMEM.
Status label_inputs_read(char *const *paths, size_t n, const Variant *v, const char *to_move,
                         LabelInputs *in, ErrorInfo *err);

/// Sets up b at the start of g (its FEN in in->fens).
void label_game_start(const LabelInputs *in, const LabelGame *g, Board *b);

/// The openings attribute of in (its FENs one a line; "" without openings) into out of len
/// bytes; false when it does not fit.
bool label_inputs_openings(const LabelInputs *in, char *out, size_t len);

/// The sources attribute ("<sha256> <games> <path>" a line) into out of len bytes, and the
/// first 16 hex digits of the SHA-256 of the inputs' digests and game counts (paths left out:
/// a file moved elsewhere is the same input) into digest. False when it does not fit.
bool label_inputs_sources(const LabelInputs *in, char *out, size_t len, char digest[17]);

/// Frees what in holds (NULL accepted) and leaves it empty.
void label_inputs_free(LabelInputs *in);
