// SPDX-License-Identifier: MIT
// A variant: everything the core asks about the game it plays (the board's move tables, the
// piece set and its letters, which rules apply and in what order the game ends, the points,
// the start positions). A Board carries one; the core reads it instead of testing a name.
// Janggi (engine/janggi/) is the default; xiangqi (engine/xiangqi/) is its sibling.
#pragma once

#include "geometry.h"
#include "status.h"
#include "types.h"

/// The end rules a variant may apply, besides checkmate (always first).
typedef enum {
    END_BIKJANG,     // the generals face after a capture and the next ply leaves them facing
    END_REPETITION,  // threefold repetition, decided by points or the perpetual-check rule
    END_DOUBLE_PASS, // two passes in a row
    END_MOVE_LIMIT,  // the ply limit is reached
    END_MATERIAL,    // neither side has a piece that could ever attack the enemy general: drawn
                     // (first in end_order when a variant has it)
    END_NO_CAPTURE,  // no_capture_limit plies without a capture: drawn
    END_RULE_NB
} EndRule;

/// How a cannon moves and captures. Janggi: moves and captures over exactly one screen, never a
/// cannon, and never captures a cannon (board.h, cannon_may_jump and cannon_may_capture).
/// Xiangqi: moves like a chariot without capturing; captures over exactly one screen of any
/// kind, any enemy piece (cannons included).
typedef enum { CANNON_JANGGI, CANNON_XIANGQI } CannonRule;

/// A row of the strength limiter's table (strength.h, UCI_Elo): the Elo measured for the path
/// position x, in thousandths.
typedef struct StrengthPoint {
    int elo, x_milli;
} StrengthPoint;

/// What a threefold repetition (END_REPETITION) decides. Janggi: the side that checked with
/// every move of the cycle loses, any other repetition is decided by points. Xiangqi: the side
/// that checked with every move, or chased one unprotected piece with every move (chase.h),
/// loses; both offending or neither, the game is drawn.
typedef enum { REPETITION_JANGGI, REPETITION_XIANGQI } RepetitionRule;

typedef struct Variant {
    const char *name; // "janggi", "xiangqi": the UCI_Variant value, PGN Variant tag, file attribute
    const char *side_names[SIDE_NB]; // "Cho", "Han" (janggi); "Red", "Black" (xiangqi)
    const Geometry *geometry;        // move tables of the 9x10 board (filled by engine_init())
    char letters[KIND_NB + 1];       // FEN letter of each kind (upper case = Cho), index Kind
    const char *kind_names[KIND_NB]; // "general", ... ("none" for KIND_NONE)
    uint8_t set_count[KIND_NB];      // pieces of each kind in one side's full set
    uint8_t points_half[KIND_NB];    // point value of each kind in half points
    uint8_t exchange_half[KIND_NB];  // what static exchange evaluation (see.h) counts each kind
                                     // as, in half points (the general 0)
    uint8_t second_bonus_half;       // points given to the side moving second (Han)
    bool pass;                       // a side not in check may pass (without it, a side
                                     // with no legal move has lost: stalemate)
    bool bikjang;                    // END_BIKJANG applies
    bool palace_diagonals;           // pieces move along the palace's drawn diagonals
    bool flying_general;       // the generals may not face on an open file: each attacks along it
    CannonRule cannon;         // the cannon's rule
    RepetitionRule repetition; // what a threefold repetition decides
    EndRule end_order[END_RULE_NB]; // the end rules in the order they are judged
    uint8_t end_rule_count;         // entries of end_order in use
    int ply_limit;                  // the game ends by points after this ply
    // END_NO_CAPTURE: the game is drawn once this many plies were played without a capture
    // (StateInfo.since_capture: with halfmove_captures_only, the FEN's clock included; 0: no such
    // rule; at least 8 otherwise, rules_end_reason() asserts it). A tool that wants another limit
    // plays on a copy of the Variant with its own value (self-play and match flags).
    int no_capture_limit;
    // The FEN halfmove clock counts the plies since the last capture only, as Fairy-Stockfish
    // writes xiangqi (its soldiers do not restart it); the Board's since_capture then starts
    // at the FEN's clock. False (janggi): a soldier move restarts it too (StateInfo.halfmove).
    bool halfmove_captures_only;
    int8_t palace_file_min, palace_file_max; // files of the palaces (d..f)
    int8_t palace_ranks;                     // ranks of each palace, counted from the own back rank
    const char *start_fen;                   // the standard start position
    int formation_count;                     // start formations of one side (0: start_fen only)
    const char *const *formation_names;      // their names, formation_count entries
    // Sets up the start position of formations (cho, han), each 0..formation_count - 1.
    void (*setup_formations)(Board *b, int cho, int han);
    // Placement rules of the variant past one general each in its palace and guards in the
    // palace (fen.c checks those): NULL when there are none. Returns the error of the first
    // piece that breaks one (STATUS_ILLEGAL), naming it and its point.
    Status (*check_placement)(const Board *b, ErrorInfo *err);
    const struct EvalSpec *eval; // the variant's evaluation: terms, weights, phase (eval.h)
    // The win, draw and loss model of a score (wdl.h, UCI_ShowWDL), in centipawns:
    // W = sigma((cp - wdl_margin) / wdl_scale), L likewise for -cp; margin 0: no draws.
    double wdl_scale, wdl_margin;
    // The share (%) of the classical evaluation blended into the compiled-in net's where the
    // search parameter eval_blend is -1, its default (search_params.def; issue 55, item 5).
    int eval_blend;
    // The strength limiter's table (strength.h): the measured Elo of path positions x on this
    // variant's own scale (Fairy-Stockfish 11.1 playing it at 5 s + 0.05 s = 2500), both
    // increasing, strength_table_len >= 2 rows (docs/strength-limit.md).
    const StrengthPoint *strength_table;
    int strength_table_len;
    void (*init)(void); // builds its start-up tables (its geometry): engine_init()
} Variant;

/// The known variants, one for each line of variants.def, each defined in its folder
/// (VARIANT_JANGGI in engine/janggi/variant.c, the default; VARIANT_XIANGQI in
/// engine/xiangqi/variant.c).
#define VARIANT(SYMBOL, folder) extern const Variant SYMBOL;
#include "variants.def"
#undef VARIANT

/// The known variants, variant_count() entries in the order of variants.def (janggi first).
int variant_count(void);
const Variant *variant_at(int i);

/// The variant called name, in any case ("XIANGQI" is xiangqi): the one look-up of every
/// --variant flag, UCI_Variant (as Stockfish matches combo values), an openings file's
/// "# variant:" line and a stored file's variant. NULL if unknown (or name is NULL).
const Variant *variant_find(const char *name);

/// The names of the known variants, "janggi, xiangqi", into buf (cap bytes, cut if short), for
/// a front end's message or help. Returns buf.
char *variant_names(char *buf, size_t cap);

/// The variant a Board gets when nothing else is asked for: the first of variants.def (janggi).
static inline const Variant *variant_default(void) { return &VARIANT_JANGGI; }

/// v itself, or the default variant where v is NULL (a config that names no variant).
static inline const Variant *variant_or_default(const Variant *v) {
    return v ? v : variant_default();
}

/// Number of formation pairings (Cho's formation, Han's formation) of v.
static inline int variant_pairing_count(const Variant *v) {
    return v->formation_count * v->formation_count;
}

/// Cho's and Han's formation of pairing p (p = cho * formation_count + han).
static inline int variant_pairing_cho(const Variant *v, int p) { return p / v->formation_count; }
static inline int variant_pairing_han(const Variant *v, int p) { return p % v->formation_count; }

/// Sets up b at the start position of pairing p of v, Cho to move, ply 0.
static inline void variant_setup_pairing(const Variant *v, Board *b, int p) {
    v->setup_formations(b, variant_pairing_cho(v, p), variant_pairing_han(v, p));
}
