// SPDX-License-Identifier: MIT
// One refereed game between two UCI engines: positions sent, moves checked by the rules core,
// the game ended only by rules_game_over or by a fault (time, illegal move, crash, hang).
#pragma once

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "rules.h"
#include "types.h"
#include "uci_child.h"

/// How one engine's moves are limited. Times in milliseconds.
typedef enum { LIMIT_NODES = 0, LIMIT_DEPTH, LIMIT_MOVETIME, LIMIT_CLOCK } LimitKind;

typedef struct Limits {
    LimitKind kind;
    long nodes;        // LIMIT_NODES: `go nodes`
    int depth;         // LIMIT_DEPTH: `go depth`
    int64_t movetime;  // LIMIT_MOVETIME: `go movetime`
    int64_t base, inc; // LIMIT_CLOCK: main time and increment per move
    int64_t byoyomi;   // LIMIT_CLOCK: byo-yomi period (0 = none); once the main time is
                       // spent the engine gets `go movetime PERIOD` for each move
    int periods;       // LIMIT_CLOCK: number of byo-yomi periods
} Limits;

/// A game still going after GAME_PLY_CAP plies of the match is adjudicated drawn
/// (REASON_ADJUDICATION). Janggi's games end by its 200-ply limit long before; xiangqi has no
/// such limit (its capture-free limit ends quiet games, but one capture every 299 plies would
/// let a game run on), so the cap keeps every game inside the board's history (MAX_GAME_PLY).
enum { GAME_PLY_CAP = 600, GAME_MAX_MOVES = GAME_PLY_CAP + 8 };
_Static_assert((int)GAME_PLY_CAP > (int)GAME_PLY_LIMIT && (int)GAME_MAX_MOVES < (int)MAX_GAME_PLY,
               "the cap lies past janggi's limit and inside a Board's history");

/// Adjudication from the engines' own scores (`info ... score cp X` / `score mate N`, from the
/// side to move's view), as cutechess-cli's and fastchess's -resign and -draw: off where the
/// move counts are 0. Both engines must agree: each of the last resign_moves moves of each side
/// reported a score at least resign_score for the same side (the other resigns, REASON_RESIGN);
/// from ply draw_after on, each of the last draw_moves moves of each side reported a score within
/// draw_score of 0 (drawn, REASON_ADJUDICATION). A move without a score breaks a run.
typedef struct Adjudication {
    int resign_moves, resign_score; // moves of each side; centipawns
    int draw_after, draw_moves, draw_score;
} Adjudication;

/// What a game is played with; arrays are indexed by side (CHO, HAN).
typedef struct GameSetup {
    const Variant *variant; // the game played; NULL: the default, janggi
    const char *fen;        // start position (checked by the caller)
    UciChild *engine[SIDE_NB];
    const Limits *limits[SIDE_NB];
    int64_t margin;                 // ms a clock may overrun
    int64_t watchdog;               // ms allowed for a move at nodes/depth limits
    atomic_bool *stop[2];           // abort between moves when either is set; each may be NULL
    const Adjudication *adjudicate; // NULL: every game played to its end
    bool ponder[SIDE_NB]; // the side's engine ponders (`go ponder`, `ponderhit` or `stop`)
} GameSetup;

/// What the referee saw of one move: the engine's last `info` line before its bestmove (score
/// from the mover's view, SCORE_NONE without one; depth and seldepth 0, nodes 0 when not given),
/// the milliseconds it took (from `go`, or from `ponderhit`) and the mover's clock after it
/// (-1 without a clock), and the engine's last `hashfull` (permille, -1 when not given).
typedef struct MoveInfo {
    int score, depth, seldepth, hashfull;
    uint64_t nodes;
    int64_t ms, clock_ms;
} MoveInfo;

enum {
    SCORE_NONE = INT32_MIN,
    SCORE_MATE = 100000
}; // MoveInfo.score: none; a mate in N is
   // +-(SCORE_MATE - N)

typedef struct GameOutcome {
    bool aborted; // stopped from outside: no result
    bool draw;    // drawn (xiangqi's draws, or adjudicated at GAME_PLY_CAP); winner is then CHO
    Side winner;
    EndReason reason;
    int points_half[SIDE_NB]; // point totals at the end, half points
    bool faulty[SIDE_NB];     // this side's engine misbehaved and must be restarted
    int nmoves;
    Move moves[GAME_MAX_MOVES];
    char detail[224];                           // why the game ended, for the PGN comment
    int ponders[SIDE_NB], ponder_hits[SIDE_NB]; // `go ponder` sent; of those, a ponderhit
    MoveInfo info[GAME_MAX_MOVES];              // moves[i]'s
} GameOutcome;

/// One game's result as the tally and the state file keep it (match_tally.h, match_state.h).
typedef struct GameRecord {
    int winner; // engine index 0/1, GAME_DRAWN for a draw
    EndReason reason;
    int plies;
} GameRecord;

enum { GAME_DRAWN = -1 };

/// Plays one game. The engines must be started, told `ucinewgame` and synced (`isready`).
/// An engine that answers `bestmove (none)` or an illegal move while the rules give it a legal
/// move loses by illegal-move; no bestmove in time loses on time (a hang at nodes/depth is
/// caught by the watchdog and also scored as time); a dead engine loses by crash.
/// A side that ponders (g->ponder) is sent, after its move, the position with the reply it
/// predicted (`bestmove M ponder P`) and `go ponder` with the clocks; when the opponent plays P
/// it gets `ponderhit` and its clock runs from then on, else `stop` (its answer is dropped) and
/// the position as played. A pondering engine is stopped when the game ends.
/// board is the caller's scratch space for the referee's position.
void match_play_game(const GameSetup *g, Board *board, GameOutcome *out);
