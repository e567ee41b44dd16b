// SPDX-License-Identifier: MIT
// The evaluation: one pass over the pieces of both sides that counts every term of
// eval_terms.def and sums the counts with the generated weights (optionally into a trace).
#include "eval.h"

#include <assert.h>
#include <string.h>

#include "board.h"
#include "geometry.h"
#include "janggi/janggi.h"
#include "rules.h"
#include "variant.h"

// This evaluation is janggi's: its terms (janggi/eval_terms.def), its weights, and the palace
// files as compile-time constants of janggi.h, the numbers VARIANT_JANGGI is built from (read
// from the variant at run time they cost 3 % of the bench's instructions). A second variant
// brings its own term list and weights in its folder (xiangqi/eval.c), reached by its EvalSpec.

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

const EvalWeight *const EVAL_WEIGHTS_FLAT = EVAL_WEIGHTS_DATA;

const int *const EVAL_PHASE_WEIGHT = EVAL_PHASE_WEIGHT_DATA;
const int EVAL_PHASE_MAX = EVAL_PHASE_MAX_DATA;
const int EVAL_POINTS_WINDOW = EVAL_POINTS_WINDOW_DATA;

// Running sums in Cho's view, and the trace when one is wanted.
typedef struct Acc {
    int mg, eg;
    EvalTrace *trace;
} Acc;

// Counts n occurrences of flat parameter `param` for side.
static inline void add(Acc *a, int param, Side side, int n) {
    int signed_n = side == CHO ? n : -n;
    a->mg += EVAL_WEIGHTS_DATA[param].mg * signed_n;
    a->eg += EVAL_WEIGHTS_DATA[param].eg * signed_n;
    if (a->trace)
        a->trace->count[param][side] = (int16_t)(a->trace->count[param][side] + n);
}

// Rank of sq as side sees it (0 = own back rank).
static inline int own_rank(Side side, Square sq) {
    return side == CHO ? square_rank(sq) : RANK_NB - 1 - square_rank(sq);
}

// Mobility and palace pressure of a chariot or cannon (cannon: over exactly one screen).
static void eval_slider(const Board *b, const Geometry *geo, Acc *a, Square from, Side us,
                        bool cannon) {
    int moves = 0, palace = 0, screens = 0;
    for (int r = 0; r < geo->ray_count[from]; r++) {
        const Ray *ray = &geo->rays[from][r];
        int i = 0;
        if (cannon) {
            i = ray_next_piece(b, ray, 0);
            if (i == ray->len || !cannon_may_jump(b->squares[ray->sq[i]]))
                continue;
            screens++;
            i++;
        }
        for (; i < ray->len; i++) {
            Square to = ray->sq[i];
            Piece target = b->squares[to];
            palace += geometry_in_palace(geo, !us, to);
            if (target == EMPTY) {
                moves++;
                continue;
            }
            moves += piece_side(target) != us && !(cannon && !cannon_may_capture(target));
            break;
        }
    }
    Kind k = cannon ? CANNON : CHARIOT;
    add(a, EVAL_OFF_MOBILITY + k, us, moves);
    add(a, EVAL_OFF_PALACE_ATTACK + k, us, palace);
    if (cannon)
        add(a, EVAL_OFF_CANNON_SCREEN, us, screens);
}

// A chariot on a palace file with an open line to the enemy palace.
static void eval_chariot_file(const Board *b, Acc *a, Square sq, Side us) {
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

// Horse, elephant, soldier, general and guard moves: count targets and blocked legs.
static void eval_stepper(const Board *b, const Geometry *geo, Acc *a, Square from, Side us,
                         Kind k) {
    int moves = 0, palace = 0, blocked = 0;
    const uint8_t *steps = NULL;
    int n = 0;
    if (k == HORSE) {
        for (int i = 0; i < geo->horse_count[from]; i++) {
            HorseStep h = geo->horse[from][i];
            if (b->squares[h.leg] != EMPTY) {
                blocked++;
                continue;
            }
            Piece t = b->squares[h.to];
            palace += geometry_in_palace(geo, !us, h.to);
            moves += t == EMPTY || piece_side(t) != us;
        }
        add(a, EVAL_OFF_HORSE_BLOCKED, us, blocked);
    } else if (k == ELEPHANT) {
        for (int i = 0; i < geo->elephant_count[from]; i++) {
            ElephantStep e = geo->elephant[from][i];
            if (b->squares[e.leg1] != EMPTY || b->squares[e.leg2] != EMPTY) {
                blocked++;
                continue;
            }
            Piece t = b->squares[e.to];
            palace += geometry_in_palace(geo, !us, e.to);
            moves += t == EMPTY || piece_side(t) != us;
        }
        add(a, EVAL_OFF_ELEPHANT_BLOCKED, us, blocked);
    } else {
        steps = k == SOLDIER ? geo->soldier[us][from] : geo->palace_steps[from];
        n = k == SOLDIER ? geo->soldier_count[us][from] : geo->palace_step_count[from];
        for (int i = 0; i < n; i++) {
            Piece t = b->squares[steps[i]];
            palace += geometry_in_palace(geo, !us, steps[i]);
            moves += t == EMPTY || piece_side(t) != us;
        }
    }
    add(a, EVAL_OFF_MOBILITY + k, us, moves);
    add(a, EVAL_OFF_PALACE_ATTACK + k, us, palace);
}

// Terms that depend on the kind alone, beyond material, PST and moves.
static void eval_piece_extras(const Board *b, const Geometry *geo, Acc *a, Square sq, Side us,
                              Kind k) {
    Square g = b->general[us];
    if (k == GUARD) {
        for (int i = 0; i < geo->palace_step_count[g]; i++)
            if (geo->palace_steps[g][i] == sq)
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
static void eval_open_files(const Board *b, Acc *a, Side us) {
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

static int eval_phase(const Board *b) {
    int phase = 0;
    for (Kind k = GENERAL; k <= SOLDIER; k++)
        phase += EVAL_PHASE_WEIGHT[k] * (board_count(b, CHO, k) + board_count(b, HAN, k));
    return phase < EVAL_PHASE_MAX ? phase : EVAL_PHASE_MAX;
}

static Score evaluate(const Board *b, EvalTrace *trace) {
    assert(b->variant->eval == &EVAL_SPEC_JANGGI &&
           b->variant->palace_file_min == JANGGI_PALACE_FILE_MIN &&
           b->variant->palace_file_max == JANGGI_PALACE_FILE_MAX &&
           b->variant->palace_ranks == JANGGI_PALACE_RANKS);
    const Geometry *geo = b->geo; // read once: the tables are reached by this pointer
    Acc a = {0, 0, trace};
    for (Side us = CHO; us <= HAN; us++) {
        for (Kind k = GENERAL; k <= SOLDIER; k++) {
            Piece pc = piece_make(us, k);
            for (int i = 0; i < b->count[pc]; i++) {
                Square sq = b->list[pc][i];
                int row = RANK_NB - 1 - own_rank(us, sq);
                add(&a, EVAL_OFF_MATERIAL + k, us, 1);
                add(&a, EVAL_OFF_PST + k * SQUARE_NB + row * FILE_NB + square_file(sq), us, 1);
                if (k == CHARIOT || k == CANNON)
                    eval_slider(b, geo, &a, sq, us, k == CANNON);
                else
                    eval_stepper(b, geo, &a, sq, us, k);
                eval_piece_extras(b, geo, &a, sq, us, k);
            }
        }
        eval_open_files(b, &a, us);
    }
    add(&a, EVAL_OFF_TEMPO, b->side, 1);
    // The point rule decides every game that reaches the 200-ply limit: let the points weigh
    // more and more as it nears (this term is the one that knows Han's 1.5 bonus).
    int late = board_game_ply(b) - (b->variant->ply_limit - EVAL_POINTS_WINDOW);
    if (late > 0)
        for (Side us = CHO; us <= HAN; us++)
            add(&a, EVAL_OFF_POINTS_LATE, us, rules_points_half(b, us) * late);
    int phase = eval_phase(b);
    if (trace)
        trace->phase = phase;
    int t = (int)eval_clamp(eval_taper(a.mg, a.eg, phase, EVAL_PHASE_MAX));
    return b->side == CHO ? t : -t;
}

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
    .phase_note =
        "// Not tuned (engine/eval.h): phase weight per kind (none, general, guard, chariot,\n"
        "// cannon, horse, elephant, soldier), the phase of the full set, and the plies\n"
        "// before the 200-ply limit at which points_late starts to count.\n",
    .kind_names = VARIANT_JANGGI.kind_names,
    .evaluate = evaluate,
};

const EvalSpec *eval_spec_find(const char *name) {
    const Variant *v = variant_find(name);
    return v ? v->eval : NULL;
}

// Janggi's evaluation is called directly (the search's hot path), the others by their spec.
Score eval_evaluate(const Board *b) {
    const EvalSpec *spec = b->variant->eval;
    return spec == &EVAL_SPEC_JANGGI ? evaluate(b, NULL) : spec->evaluate(b, NULL);
}

Score eval_trace(const Board *b, EvalTrace *trace) {
    memset(trace, 0, sizeof *trace);
    return b->variant->eval->evaluate(b, trace);
}

Score eval_rebuild(const EvalSpec *spec, const EvalTrace *trace, const EvalWeight *weights,
                   Side side_to_move) {
    int mg = 0, eg = 0;
    for (int i = 0; i < spec->param_count; i++) {
        int d = trace->count[i][CHO] - trace->count[i][HAN];
        mg += weights[i].mg * d;
        eg += weights[i].eg * d;
    }
    int t = (int)eval_taper(mg, eg, trace->phase, spec->phase_max);
    return side_to_move == CHO ? t : -t;
}
