// SPDX-License-Identifier: MIT
// The in-memory form of self-play data: one column array per stored field (columns.def), for
// the games and for their positions. A worker fills one game; the writer gathers many.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "status.h"
#include "types.h"

// Bits of the `flags` position column.
enum {
    POS_IN_CHECK = 1,     // the side to move is in check
    POS_BEST_CAPTURE = 2, // the move played (the search's best move) captures
    POS_RANDOM = 4,       // the move was chosen at random (opening); score is 0, not searched
    POS_FLAGS_ALL = POS_IN_CHECK | POS_BEST_CAPTURE | POS_RANDOM
};

// Value ranges of columns.def that no engine header names: the largest stored move (both
// squares 89) and the board points of one side, in half points (rules page, "Points").
enum { STORED_MOVE_MAX = 89 | 89 << 7, POINTS_HALF_MAX = 144 };

// The longest game the store holds (schema 3): janggi's games end by ply 200; self-play
// adjudicates a xiangqi game still going at ply STORE_PLY_MAX as drawn. The `winner` of a
// drawn game (schema 3; xiangqi only).
enum { STORE_PLY_MAX = 600, WINNER_DRAW = 2 };

/// The result_stm column's value for a position with side stm to move in a game won by winner
/// (CHO, HAN or WINNER_DRAW): +1 won, 0 drawn, -1 lost.
static inline int8_t shard_result_stm(int winner, int stm) {
    return winner == WINNER_DRAW ? 0 : stm == winner ? 1 : -1;
}

// Stored scores: centipawns clamped to +-STORED_CP_MAX; a mate in n plies is stored as
// +-(STORED_MATE - n), so |score| >= STORED_MATE_MIN marks a mate (positive: stm mates).
enum { STORED_CP_MAX = 29999, STORED_MATE = 32000, STORED_MATE_MIN = 30000 };

typedef struct GameColumns {
    size_t count, cap;
#define GAME_COLUMN(name, ctype, h5type, lo, hi, doc) ctype *name;
#define POSITION_COLUMN(name, ctype, width, h5type, lo, hi, doc)
#include "columns.def"
#undef GAME_COLUMN
#undef POSITION_COLUMN
} GameColumns;

typedef struct PositionColumns {
    size_t count, cap;
#define GAME_COLUMN(name, ctype, h5type, lo, hi, doc)
#define POSITION_COLUMN(name, ctype, width, h5type, lo, hi, doc) ctype *name;
#include "columns.def"
#undef GAME_COLUMN
#undef POSITION_COLUMN
} PositionColumns;

/// Games and their positions. games.pos_start/pos_end index rows of `positions`.
typedef struct ShardData {
    GameColumns games;
    PositionColumns positions;
    const Variant *variant; // the game of every row (the file's variant attribute); NULL: janggi
    // The run's openings (the file's openings attribute, docs/data-format.md): FENs one a line,
    // game g starting from line game_id % (lines); NULL: none (the variant's start positions).
    // Owned (shard_data_set_openings); kept by shard_data_clear.
    char *openings;
    // Every game is one standalone position, not a line of a game (a file of PV ends,
    // docs/data-format.md: the formation_schedule attribute starts with
    // H5STORE_POSITIONS_SCHEDULE): a game's start is its stored board, with its side to move
    // and ply, and it holds that one position. Kept by shard_data_clear.
    bool standalone;
} ShardData;

/// An empty ShardData (no allocation yet).
void shard_data_init(ShardData *d);

/// Frees the columns and leaves d empty (NULL accepted).
void shard_data_free(ShardData *d);

/// Empties d, keeping its allocations for reuse.
void shard_data_clear(ShardData *d);

/// Makes room for `games` more games and `positions` more positions. STATUS_NOMEM on failure.
Status shard_data_reserve(ShardData *d, size_t games, size_t positions, ErrorInfo *err);

/// Appends one empty game row and returns its index (capacity must have been reserved).
size_t shard_data_add_game(ShardData *d);

/// Appends one empty position row and returns its index (capacity must have been reserved).
size_t shard_data_add_position(ShardData *d);

/// Appends the position b before move m of game id (capacity must have been reserved): its packed
/// board, side to move, ply and move, the stored score (cp, the side to move's view, already in
/// the store's range), and its flags: in check, the move captures, and with !searched the
/// not-searched bit (POS_RANDOM: the trainers drop it). Every writer of positions (self-play,
/// imported and labelled games) appends through it.
void shard_data_add_played(ShardData *d, const Board *b, uint32_t id, Move m, int16_t score,
                           bool searched);

/// Appends every game of src to dst, shifting pos_start/pos_end to dst's rows.
Status shard_data_append(ShardData *dst, const ShardData *src, ErrorInfo *err);

/// Appends src's games [first, end) and their positions (a game's positions are contiguous and
/// in game order) to dst, shifting pos_start/pos_end to dst's rows. STATUS_RANGE for a range
/// outside src, STATUS_NOMEM, STATUS_FORMAT for games of another run's openings.
Status shard_data_append_games(ShardData *dst, const ShardData *src, size_t first, size_t end,
                               ErrorInfo *err);

/// Compares every field of every row. Returns true when equal; otherwise names the first
/// difference in why (may be NULL).
bool shard_data_equal(const ShardData *a, const ShardData *b, char *why, size_t why_len);

/// Checks everything a reader can check without replaying the games (verify.h does that):
/// the position ranges of the games tile the positions in order with their plies, each
/// position names its game, every value lies in its range of columns.def, board bytes are
/// squares or PACKED_NONE, a move's squares are squares, and for each position of a game
/// ply = row - pos_start, stm = ply & 1 and result_stm = +1 exactly when stm is the winner
/// (with openings, or standalone, the first row's ply counts as the game's start; a standalone
/// game holds one position). STATUS_FORMAT naming the row, game, column and value of the first
/// failure.
Status shard_data_check(const ShardData *d, ErrorInfo *err);

/// The game that game g of d stands for in a split or a cap by game: its own game_id and seed,
/// or for a standalone position (a PV end, d->standalone) its source game's: the id its seed
/// column holds and seed 0 (what label stores for its games), so a PV end lands with its game.
void shard_data_source_game(const ShardData *d, size_t g, uint32_t *id, uint64_t *seed);

/// Sets d's openings to a copy of text (one FEN a line; NULL or "" for none). STATUS_NOMEM.
Status shard_data_set_openings(ShardData *d, const char *text, ErrorInfo *err);

/// Number of openings (lines) in d->openings; 0 without.
int shard_data_opening_count(const ShardData *d);

/// Sets up b at the start of game g of d: with d->standalone its stored board (its first row's,
/// with that row's side to move and ply), else its opening (line game_id % n of d->openings, as
/// fen_parse_variant reads it), else its formations (janggi), else the variant's start
/// position. STATUS_FORMAT naming the game when the opening or the stored board is not a
/// position of the variant (packed_board_decode_variant, then fen_parse_variant of its FEN:
/// two pieces on a square, no general, a piece off its squares, the side not to move in check).
Status shard_data_game_start(const ShardData *d, size_t g, Board *b, ErrorInfo *err);

/// Stored form of a search score (see STORED_MATE): cp clamped, mates marked.
int16_t stored_score(int score, int mate_score, int mate_in_max);

/// Heap bytes held by d's columns.
size_t shard_data_bytes(const ShardData *d);
