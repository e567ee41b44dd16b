// SPDX-License-Identifier: MIT
// The board: pieces on the 90 points, piece lists, the incrementally kept Zobrist key, and
// the stack of states that make/unmake and the end-of-game rules walk through.
#pragma once

#include "geometry.h"
#include "types.h"

/// What one ply changed, and what the rules need to know about the position it reached.
typedef struct StateInfo {
    uint64_t key;           // Zobrist key of this position (pieces and side to move)
    Move move;              // the move or pass that reached this position; MOVE_NONE at the root
    Piece captured;         // the piece that move captured, EMPTY if none
    uint8_t in_check;       // the side to move is in check here
    uint8_t exposed;        // the side not to move's general is attacked here: only a set-up
                            // or a pass in check can leave it so; after a move it is 0 (a
                            // move must be legal: one made only to be tested leaves it 0)
    uint8_t facing;         // the two generals face each other on an open file here
    uint8_t piece_count;    // pieces of both sides on the board here (32 at the start)
    uint16_t since_capture; // plies since the last capture (bounds the repetition search);
                            // with Variant.halfmove_captures_only it starts at the FEN's clock
    uint16_t halfmove;      // FEN halfmove clock: plies since the last capture or soldier move
} StateInfo;

struct Board {
    const Variant *variant; // the game played (board_clear sets the default, janggi)
    const Geometry *geo;    // variant->geometry, kept here for the move generator
    Piece squares[SQUARE_NB];
    uint8_t index[SQUARE_NB];  // where the piece on a square sits in its list
    uint8_t list[PIECE_NB][5]; // squares of each piece, in no order
    uint8_t count[PIECE_NB];
    Square general[SIDE_NB]; // SQ_NONE while a position is being set up
    Side side;               // side to move
    int start_ply;           // plies played before the root state (from the FEN move fields)
    int nstates;             // states[nstates - 1] is the current position
    StateInfo states[MAX_GAME_PLY + MAX_PLY + 8];
};

/// Empties the board: no pieces, Cho to move, ply 0, the default variant (janggi).
void board_clear(Board *b);

/// Empties the board like board_clear(), for the game of variant v.
void board_clear_variant(Board *b, const Variant *v);

/// Puts a piece on an empty square during set-up. Call board_finish_setup() afterwards.
void board_put(Board *b, Piece pc, Square sq);

/// Makes the current set-up the root: side to move, plies already played, FEN halfmove clock.
/// Computes key, check and facing flags, and forgets any move history.
void board_finish_setup(Board *b, Side side, int start_ply, int halfmove);

/// Plays a legal move or pass (move_is_pass). The move must be legal (asserted in Debug): the
/// check flag of the position it reaches tests only what the move changed (board.c).
void board_make(Board *b, Move m);

/// Takes back the last move made with board_make().
void board_unmake(Board *b);

/// True when `by` attacks sq: some piece of `by` could move there if sq held an enemy piece.
bool board_attacked(const Board *b, Square sq, Side by);

/// True when side's general is attacked: by board_attacked(), or, under the flying-general
/// rule (xiangqi), by the enemy general facing it on an open file. The legality test, the
/// check flag and the FEN check judge the flying general this way (board_attacked() itself
/// knows no general's attack along a file).
bool board_general_attacked(const Board *b, Side side);

/// True when `by` attacks sq with a chariot or cannon along ray r of sq (b->geo->rays[sq][r]).
bool board_ray_attacked(const Board *b, Square sq, int r, Side by);

/// True when `by` attacks sq with a horse or an elephant.
bool board_leaper_attacked(const Board *b, Square sq, Side by);

/// True when the two generals stand on the same file with nothing between them.
bool board_generals_facing(const Board *b);

/// Zobrist key recomputed from scratch (the incremental key must always equal it).
uint64_t board_compute_key(const Board *b);

/// Checks piece lists, occupancy, counts, general squares and the key against each other.
/// Returns true when consistent; otherwise writes what is wrong into why (may be NULL).
bool board_is_consistent(const Board *b, char *why, int why_len);

/// The current state.
static inline const StateInfo *board_state(const Board *b) { return &b->states[b->nstates - 1]; }
/// The piece on sq, EMPTY if none.
static inline Piece board_at(const Board *b, Square sq) { return b->squares[sq]; }
/// The side to move is in check.
static inline bool board_in_check(const Board *b) { return board_state(b)->in_check; }
/// Zobrist key of the current position.
static inline uint64_t board_key(const Board *b) { return board_state(b)->key; }
/// Plies played in the game so far, counting those implied by the FEN move fields.
static inline int board_game_ply(const Board *b) { return b->start_ply + b->nstates - 1; }
/// Index in ray of its first occupied point at or after i; ray->len when there is none.
static inline int ray_next_piece(const Board *b, const Ray *ray, int i) {
    while (i < ray->len && b->squares[ray->sq[i]] == EMPTY)
        i++;
    return i;
}

// The janggi cannon rule (rules page, "Cannon"; Variant.cannon == CANNON_JANGGI), written once
// for the move generator, the attack test and the evaluation: a cannon moves and captures along
// a line over exactly one screen, the screen is never a cannon, and it never captures a cannon.

/// True when screen may serve a cannon as its screen.
static inline bool cannon_may_jump(Piece screen) { return piece_kind(screen) != CANNON; }

/// True when a cannon may capture target (an enemy piece past its screen).
static inline bool cannon_may_capture(Piece target) { return piece_kind(target) != CANNON; }

/// Number of pieces of the given side and kind on the board.
static inline int board_count(const Board *b, Side side, Kind kind) {
    return b->count[piece_make(side, kind)];
}
