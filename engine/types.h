// SPDX-License-Identifier: MIT
// The one vocabulary of Hansu: sides, piece kinds, squares, moves, and the forward
// declarations of every shared struct, so other headers stay light.
#pragma once

#include <stdbool.h>
#include <stdint.h>

// Board geometry: 9 files (a-i) x 10 ranks (1-10). Square index = rank * 9 + file with
// rank 0 = rank 1 (Cho's back rank) and file 0 = file a.
enum { FILE_NB = 9, RANK_NB = 10, SQUARE_NB = 90 };

typedef int Square;

enum { SQ_NONE = -1 };

/// Square index of (file 0..8, rank 0..9).
static inline Square square_make(int file, int rank) { return rank * FILE_NB + file; }
/// File 0..8 of a square.
static inline int square_file(Square sq) { return sq % FILE_NB; }
/// Rank 0..9 of a square (0 = rank 1).
static inline int square_rank(Square sq) { return sq / FILE_NB; }

// Sides. Cho moves first and is "white" in FEN/UCI (upper case, `w`); Han is "black".
typedef enum { CHO = 0, HAN = 1, SIDE_NB = 2 } Side;

// Piece kinds, numbered from 1 so that a Piece of 0 means an empty point.
typedef enum {
    KIND_NONE = 0,
    GENERAL = 1,
    GUARD = 2,
    CHARIOT = 3,
    CANNON = 4,
    HORSE = 5,
    ELEPHANT = 6,
    SOLDIER = 7,
    KIND_NB = 8
} Kind;

// A piece is kind | side << 3; EMPTY is 0.
typedef uint8_t Piece;
enum { EMPTY = 0, PIECE_NB = 16 };

static inline Piece piece_make(Side side, Kind kind) { return (Piece)(kind | (side << 3)); }
static inline Kind piece_kind(Piece pc) { return (Kind)(pc & 7); }
static inline Side piece_side(Piece pc) { return (Side)(pc >> 3); }

// A move: from | to << 7. A pass is written as the mover's general square twice (from == to),
// exactly as UCI writes it ("e2e2"). MOVE_NONE (a1a1) can never be a pass: no general stands on a1.
typedef uint16_t Move;
enum { MOVE_NONE = 0 };

static inline Move move_make(Square from, Square to) { return (Move)(from | (to << 7)); }
static inline Square move_from(Move m) { return m & 127; }
static inline Square move_to(Move m) { return (m >> 7) & 127; }
static inline bool move_is_pass(Move m) { return m != MOVE_NONE && move_from(m) == move_to(m); }

// Limits.
enum {
    MAX_MOVES = 192,    // above the most moves any janggi position can have
    MAX_PLY = 128,      // deepest search line
    MAX_GAME_PLY = 1024 // longest move history a Board keeps (games end at ply 200)
};

// The deepest search any tool asks for: --depth, hansu-match's depth=, go depth, bench.
enum { DEPTH_MAX = MAX_PLY - 1 };

/// Centipawn score; decided games (mates, other game ends) score near SCORE_WIN (search.h).
typedef int32_t Score;

typedef struct Board Board;
typedef struct MoveList MoveList;
typedef struct GameResult GameResult;
typedef struct Variant Variant;
typedef struct Geometry Geometry;
typedef struct UciContext UciContext;   // the UCI front end's state (uci.h, uci_context.h)
typedef struct CecpContext CecpContext; // the CECP front end's state (cecp.h, cecp_context.h)
