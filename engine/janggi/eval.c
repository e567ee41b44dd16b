// SPDX-License-Identifier: MIT
// Janggi's evaluation (janggi/eval_layout.h): one pass over the pieces of both sides that counts
// every term of janggi/eval_terms.def and sums the counts with the generated weights (optionally
// into a trace), by the formula of engine/eval.h.
#include "janggi/eval_layout.h"

#include <assert.h>
#include <string.h>

#include "attacks.h"
#include "board.h"
#include "geometry.h"
#include "janggi/janggi.h"
#include "rules.h"
#include "variant.h"

// This evaluation reads the palace files as compile-time constants of janggi.h, the numbers
// VARIANT_JANGGI is built from (read from the variant at run time they cost 3 % of the bench's
// instructions).

// The weights header: engine/janggi/eval_weights.h, or the one named by -DHANSU_EVAL_WEIGHTS.
#define S(mg, eg)                                                                                  \
    { (mg), (eg) }
#ifdef HANSU_EVAL_WEIGHTS_FILE
#include HANSU_EVAL_WEIGHTS_FILE
#else
#include "janggi/eval_weights.h"
#endif
#undef S

_Static_assert(sizeof EVAL_WEIGHTS_DATA / sizeof EVAL_WEIGHTS_DATA[0] == EVAL_PARAM_NB,
               "eval_weights.h does not match eval_terms.def");
_Static_assert((int)EVAL_PARAM_NB <= (int)EVAL_PARAM_MAX, "janggi's layout is larger than a trace");

// The SHA-256 of the weights header, set by engine/CMakeLists.txt.
#ifndef HANSU_EVAL_WEIGHTS_SHA256
#define HANSU_EVAL_WEIGHTS_SHA256 "none"
#endif

const EvalTermInfo EVAL_TERMS[EVAL_TERM_NB] = {
#define EVAL_TERM(ID, name, SHAPE, meaning)                                                        \
    {#ID, #name, EVAL_SHAPE_##SHAPE, EVAL_OFF_##ID, EVAL_SHAPE_##SHAPE##_N, meaning},
#include "janggi/eval_terms.def"
#undef EVAL_TERM
};

const EvalWeight *const EVAL_WEIGHTS_FLAT = EVAL_WEIGHTS_DATA;

const int *const EVAL_PHASE_WEIGHT = EVAL_PHASE_WEIGHT_DATA;
const int EVAL_PHASE_MAX = EVAL_PHASE_MAX_DATA;
const int EVAL_POINTS_WINDOW = EVAL_POINTS_WINDOW_DATA;

_Static_assert(EVAL_OFF_DANGER_OFFSET + 1 == EVAL_PARAM_NB &&
                   EVAL_OFF_DANGER_ATTACKER == EVAL_END_HANGING + 1,
               "the danger terms form one block at the end of eval_terms.def");

// Counts n occurrences of flat parameter `param` for side (eval.h).
static inline void add(EvalAcc *a, int param, Side side, int n) {
    eval_acc_add(a, EVAL_WEIGHTS_DATA, param, side, n, false);
}

// Counts n occurrences of the danger parameter `param` for side (its attack on the enemy
// general): into the side's danger index, squared at the end (eval.h).
static inline void add_danger(EvalAcc *a, int param, Side side, int n) {
    assert(param >= EVAL_OFF_DANGER_ATTACKER);
    eval_acc_add(a, EVAL_WEIGHTS_DATA, param, side, n, true);
}

// Rank of sq as side sees it (0 = own back rank).
static inline int own_rank(Side side, Square sq) {
    return side == CHO ? square_rank(sq) : RANK_NB - 1 - square_rank(sq);
}

// A chariot on a palace file with an open line to the enemy palace.
static void eval_chariot_file(const Board *b, EvalAcc *a, Square sq, Side us) {
    int file = square_file(sq), rank = square_rank(sq);
    if (file < JANGGI_PALACE_FILE_MIN || file > JANGGI_PALACE_FILE_MAX)
        return;
    // The enemy palace's nearest rank.
    int step = us == CHO ? 1 : -1,
        palace_edge = us == CHO ? RANK_NB - JANGGI_PALACE_RANKS : JANGGI_PALACE_RANKS - 1;
    for (int r = rank + step; us == CHO ? r < palace_edge : r > palace_edge; r += step)
        if (b->squares[square_make(file, r)] != EMPTY)
            return;
    add(a, EVAL_OFF_CHARIOT_PALACE_FILE, us, 1);
}

// Terms that depend on the kind alone, beyond material, PST and moves.
static inline __attribute__((always_inline)) void eval_piece_extras(const Board *b,
                                                                    const Geometry *geo,
                                                                    const Maps *m, EvalAcc *a,
                                                                    Square sq, Side us, Kind k) {
    if (k == GUARD) {
        if (points_has(m->shield[us], sq))
            add(a, EVAL_OFF_GUARD_SHIELD, us, 1);
    } else if (k == ELEPHANT && own_rank(us, sq) <= 2)
        add(a, EVAL_OFF_ELEPHANT_HOME, us, 1);
    else if (k == CHARIOT)
        eval_chariot_file(b, a, sq, us);
    else if (k == SOLDIER) {
        int file = square_file(sq);
        Piece own = piece_make(us, SOLDIER);
        if ((file > 0 && b->squares[sq - 1] == own) ||
            (file < FILE_NB - 1 && b->squares[sq + 1] == own))
            add(a, EVAL_OFF_SOLDIER_CONNECTED, us, 1);
        if (own_rank(us, sq) >= 5)
            add(a, EVAL_OFF_SOLDIER_ADVANCED, us, 1);
        if (geometry_in_palace(geo, !us, sq))
            add(a, EVAL_OFF_SOLDIER_PALACE, us, 1);
    }
}

// Palace files (d, e, f) with no own piece in front of the own palace.
static void eval_open_files(const Board *b, EvalAcc *a, Side us) {
    int open = 0;
    for (int file = JANGGI_PALACE_FILE_MIN; file <= JANGGI_PALACE_FILE_MAX; file++) {
        bool blocked = false;
        for (int r = JANGGI_PALACE_RANKS; r < RANK_NB && !blocked; r++) {
            Square sq = square_make(file, us == CHO ? r : RANK_NB - 1 - r);
            blocked = b->squares[sq] != EMPTY && piece_side(b->squares[sq]) == us;
        }
        open += !blocked;
    }
    add(a, EVAL_OFF_OPEN_PALACE_FILE, us, open);
}

// ---- The general's safety and hanging pieces ----

// Point values for "attacked by a cheaper piece": the rules' points, the general above all.
static const uint8_t KIND_VALUE[KIND_NB] = {0, 100, 3, 13, 7, 5, 3, 2};

// The danger terms of both sides that need both sides' attacks, and the hanging pieces
// (attacks.h; the attackers and ring attacks were counted piece by piece in eval_kind()).
static void eval_safety(const Board *b, const Geometry *geo, const Maps *m, EvalAcc *a) {
    const SafetyLayout layout = {.hanging = EVAL_OFF_HANGING,
                                 .weak_ring = EVAL_OFF_DANGER_WEAK_RING,
                                 .safe_check = EVAL_OFF_DANGER_SAFE_CHECK,
                                 .unsafe_check = EVAL_OFF_DANGER_UNSAFE_CHECK,
                                 .pinned = EVAL_OFF_DANGER_PINNED,
                                 .offset = EVAL_OFF_DANGER_OFFSET};
    attacks_eval_safety(b, geo, m, a, EVAL_WEIGHTS_DATA, layout, CANNON_JANGGI, KIND_VALUE);
}

// The pieces of side us and kind k: material, PST, moves, palace pressure, blocked legs and
// screens, the kind's terms (eval_piece_extras), and their attacks into the maps and on the enemy
// general's ring. Returns the ring attacks. Counts of the kind are summed before they are added.
static inline __attribute__((always_inline)) int eval_kind(const Board *b, const Geometry *geo,
                                                           Maps *m, EvalAcc *a, Side us, Kind k) {
    Piece pc = piece_make(us, k);
    Points occupied = m->occupied[CHO] | m->occupied[HAN];
    int moves = 0, palace = 0, blocked = 0, screens = 0, ring = 0, attackers = 0;
    for (int i = 0; i < b->count[pc]; i++) {
        Square sq = b->list[pc][i];
        int row = RANK_NB - 1 - own_rank(us, sq);
        add(a, EVAL_OFF_PST + k * SQUARE_NB + row * FILE_NB + square_file(sq), us, 1);
        Reach r = piece_reach(b, geo, occupied, sq, us, k, CANNON_JANGGI);
        moves += points_count(r.attacks & ~m->occupied[us]);
        palace += points_count(r.seen & m->palace[!us]);
        blocked += r.blocked;
        screens += r.screens;
        int hits = maps_add(m, us, k, r.attacks);
        ring += hits;
        attackers += hits > 0;
        eval_piece_extras(b, geo, m, a, sq, us, k);
    }
    add(a, EVAL_OFF_MATERIAL + k, us, b->count[pc]);
    add(a, EVAL_OFF_MOBILITY + k, us, moves);
    add(a, EVAL_OFF_PALACE_ATTACK + k, us, palace);
    if (k == HORSE)
        add(a, EVAL_OFF_HORSE_BLOCKED, us, blocked);
    else if (k == ELEPHANT)
        add(a, EVAL_OFF_ELEPHANT_BLOCKED, us, blocked);
    else if (k == CANNON)
        add(a, EVAL_OFF_CANNON_SCREEN, us, screens);
    add_danger(a, EVAL_OFF_DANGER_ATTACKER + k, us, attackers);
    return ring;
}

static int eval_phase(const Board *b) {
    int phase = 0;
    for (Kind k = GENERAL; k <= SOLDIER; k++)
        phase += EVAL_PHASE_WEIGHT[k] * (board_count(b, CHO, k) + board_count(b, HAN, k));
    return phase < EVAL_PHASE_MAX ? phase : EVAL_PHASE_MAX;
}

// The point rule decides every game that reaches the 200-ply limit: let the points weigh more
// and more as it nears (this term is the one that knows Han's 1.5 bonus). False before the
// window (EVAL_POINTS_WINDOW plies before the limit), where it counts nothing.
static bool points_late(const Board *b, EvalAcc *a) {
    int late = board_game_ply(b) - (b->variant->ply_limit - EVAL_POINTS_WINDOW);
    if (late <= 0)
        return false;
    for (Side us = CHO; us <= HAN; us++)
        add(a, EVAL_OFF_POINTS_LATE, us, rules_points_half(b, us) * late);
    return true;
}

// The evaluation (eval.h's formula); written once, inlined into the two callers below so that
// the search's copy, with no trace, drops every trace test.
static inline __attribute__((always_inline)) Score evaluate_terms(const Board *b,
                                                                  EvalTrace *trace) {
    assert(b->variant->eval == &EVAL_SPEC_JANGGI &&
           b->variant->palace_file_min == JANGGI_PALACE_FILE_MIN &&
           b->variant->palace_file_max == JANGGI_PALACE_FILE_MAX &&
           b->variant->palace_ranks == JANGGI_PALACE_RANKS);
    const Geometry *geo = b->geo; // read once: the tables are reached by this pointer
    EvalAcc a = {.trace = trace};
    Maps m;
    maps_init(b, geo, &m);
    for (Side us = CHO; us <= HAN; us++) {
        int ring_attacks = 0;
        for (Kind k = GENERAL; k <= SOLDIER; k++)
            ring_attacks += eval_kind(b, geo, &m, &a, us, k);
        add_danger(&a, EVAL_OFF_DANGER_RING_ATTACK, us, ring_attacks);
        eval_open_files(b, &a, us);
    }
    eval_safety(b, geo, &m, &a);
    add(&a, EVAL_OFF_TEMPO, b->side, 1);
    points_late(b, &a);
    int phase = eval_phase(b);
    if (trace)
        trace->phase = phase;
    int t = (int)eval_clamp(eval_taper(a.mg, a.eg, phase, EVAL_PHASE_MAX));
    return b->side == CHO ? t : -t;
}

static Score evaluate(const Board *b, EvalTrace *trace) { return evaluate_terms(b, trace); }

// The points term alone, tapered, side to move's view: what a net, which sees no ply, adds.
static Score evaluate_ply_term(const Board *b) {
    EvalAcc a = {0};
    if (!points_late(b, &a))
        return 0;
    int t = (int)eval_taper(a.mg, a.eg, eval_phase(b), EVAL_PHASE_MAX);
    return b->side == CHO ? t : -t;
}

static Score evaluate_untraced(const Board *b) { return evaluate_terms(b, NULL); }

const EvalSpec EVAL_SPEC_JANGGI = {
    .variant = "janggi",
    .terms_file = "engine/janggi/eval_terms.def",
    .weights_file = "engine/janggi/eval_weights.h",
    .terms = EVAL_TERMS,
    .term_count = EVAL_TERM_NB,
    .param_count = EVAL_PARAM_NB,
    .weights = EVAL_WEIGHTS_DATA,
    .phase_weight = EVAL_PHASE_WEIGHT_DATA,
    .phase_max = EVAL_PHASE_MAX_DATA,
    .points_window = EVAL_POINTS_WINDOW_DATA,
    // The point rule decides a game at the move limit whatever the phase: the points term's
    // weights, equal in both phases, are not the data's to fit (a fit gave the middlegame -26).
    .rule_terms = "points_late",
    .danger_begin = EVAL_OFF_DANGER_ATTACKER,
    .danger_end = EVAL_PARAM_NB,
    .phase_note =
        "// Not tuned (engine/eval.h): phase weight per kind (none, general, guard, chariot,\n"
        "// cannon, horse, elephant, soldier), the phase of the full set, and the plies\n"
        "// before the 200-ply limit at which points_late starts to count.\n",
    .kind_names = VARIANT_JANGGI.kind_names,
    .weights_sha256 = HANSU_EVAL_WEIGHTS_SHA256,
    .evaluate = evaluate,
    .evaluate_fast = evaluate_untraced,
    .ply_term = evaluate_ply_term,
};
