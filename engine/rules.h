// SPDX-License-Identifier: MIT
// End-of-game rules of the rules pages: janggi's (checkmate, bikjang, repetition with its
// perpetual-check exception, two passes, the 200-ply limit) and the point count; xiangqi's
// (checkmate, stalemate, perpetual check and chase, the draws).
#pragma once

#include "types.h"

/// Why a game ended. The first six are the board rules, then those set by tools; the board
/// rules of later variants follow (their codes are appended, never renumbered).
typedef enum {
    REASON_NONE = 0,
    REASON_CHECKMATE,
    REASON_BIKJANG,
    REASON_REPETITION,
    REASON_PERPETUAL_CHECK,
    REASON_DOUBLE_PASS,
    REASON_MOVE_LIMIT,
    REASON_RESIGN,
    REASON_TIME,
    REASON_ADJUDICATION,
    REASON_ILLEGAL_MOVE,
    REASON_CRASH,
    REASON_STALEMATE,       // xiangqi: the side to move, not in check, has no legal move and loses
    REASON_PERPETUAL_CHASE, // xiangqi: a repetition in which one side chased an unprotected
                            // piece with every move (chase.h); that side loses
    REASON_MATERIAL,        // xiangqi: neither side can ever attack the enemy general: drawn
    REASON_NO_CAPTURE,      // Variant.no_capture_limit plies without a capture: drawn
    REASON_NB
} EndReason;

// Janggi's numbers, from which VARIANT_JANGGI is built; the rules read the Board's variant.
// GAME_PLY_LIMIT also bounds the arrays that hold one game's plies.
enum {
    GAME_PLY_LIMIT = 200, // the game ends by points after this ply
    HAN_BONUS_HALF = 3    // Han's 1.5 points for moving second, in half points
};

/// What *loser of rules_end_reason() holds when no side lost by the rule that ended the game.
enum {
    RULES_BY_POINTS = -1, // the points decide (janggi), or no rule ended the game
    RULES_DRAW = -2       // the game is drawn (xiangqi)
};

struct GameResult {
    bool over;
    bool draw;          // the game is drawn (xiangqi only; janggi has no draw)
    Side winner;        // valid when over and not drawn (CHO in a draw)
    EndReason reason;   // REASON_NONE while the game goes on
    int points_half[2]; // both point totals in half points (Han's bonus included)
};

/// The name of a reason as the rules page writes it ("checkmate", "perpetual-check", ...).
const char *rules_reason_name(EndReason reason);

/// Parses a reason name; returns REASON_NONE if unknown.
EndReason rules_reason_parse(const char *name);

/// A side's points in half points, by the variant's values (janggi: chariot 13, cannon 7,
/// horse 5, elephant 3, guard 3, soldier 2, general 0, plus 1.5 for Han; rules page, "Points").
int rules_points_half(const Board *b, Side side);

/// A side's pieces' points in half points, without the bonus of the side moving second: its
/// material by the rules' count (0 in a variant that counts no points).
int rules_material_half(const Board *b, Side side);

/// Whether the variant counts points (janggi does, xiangqi does not).
bool rules_counts_points(const Variant *v);

/// The side ahead on points (never equal: the bonus is a half point).
Side rules_points_leader(const Board *b);

/// Judges the current position, reached by the last ply made on b, by the rules page:
/// checkmate first (and, in a variant without the pass, stalemate: no legal move loses), then
/// the variant's end rules in its order (rules_end_reason()).
/// Fills *res (over = false while the game goes on; draw for a drawn end) and returns res->over.
bool rules_game_over(Board *b, GameResult *res);

/// The end rules other than checkmate, in the order of b's variant (janggi: bikjang,
/// repetition with its perpetual-check exception, two passes, move limit; xiangqi: too little
/// material, repetition with perpetual check and chase, the capture-free limit): the first that
/// ends the game at the current position, REASON_NONE if none. The one place that order is
/// written; the search asks it too. *loser is the side that lost by the rule (perpetual check
/// or chase), RULES_DRAW for a drawn end, RULES_BY_POINTS otherwise.
EndReason rules_end_reason(const Board *b, int *loser);

/// Bikjang left standing: the generals face now and faced, after a capture, one ply ago.
bool rules_bikjang_ends(const Board *b);

/// The last two plies were both passes.
bool rules_double_pass(const Board *b);

/// Repetition: the current position occurs for at least the third time. On true, *loser is
/// the side that gave check with every move since the first occurrence, or -1 if none or both
/// (janggi's rule; xiangqi's adds the chase, judged by rules_end_reason()).
bool rules_repetition(const Board *b, int *loser);

/// The index in b->states of the first of the three occurrences of the current position (the
/// start of the repetition cycle, rules page), -1 if it has not occurred three times. Only the
/// plies since the last capture are searched (no position before a capture can recur).
int rules_repetition_start(const Board *b);

/// Too little material to mate (xiangqi, rules page "Game end", made precise here): neither side
/// has a chariot, cannon, horse or soldier. Generals, advisors and elephants alone can never
/// attack the enemy general (advisors stay in their palace, elephants on their side, and a
/// general never moves onto the facing file), so no side can ever give check. This is the
/// rule of the Chinese Xiangqi Association ("neither side has a piece that can cross the
/// river"). Endings that are drawn by play but not by this test (general and cannon against a
/// bare general) go on, to the repetition or capture-free rules.
bool rules_material_insufficient(const Board *b);
