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

_Static_assert(EVAL_OFF_DANGER_OFFSET + 1 == EVAL_PARAM_NB &&
                   EVAL_OFF_DANGER_ATTACKER == EVAL_END_HANGING + 1,
               "the danger terms form one block at the end of eval_terms.def");

// Running sums in Cho's view, each side's danger index against the enemy general, and the
// trace when one is wanted.
typedef struct Acc {
    int mg, eg;
    int danger_mg[SIDE_NB], danger_eg[SIDE_NB];
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

// Counts n occurrences of the danger parameter `param` for side (its attack on the enemy
// general): into the side's danger index, squared at the end (eval.h).
static inline void add_danger(Acc *a, int param, Side side, int n) {
    assert(param >= EVAL_OFF_DANGER_ATTACKER);
    a->danger_mg[side] += EVAL_WEIGHTS_DATA[param].mg * n;
    a->danger_eg[side] += EVAL_WEIGHTS_DATA[param].eg * n;
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

// ---- The general's safety and hanging pieces ----

// Point values for "attacked by a cheaper piece": the rules' points, the general above all.
static const uint8_t KIND_VALUE[KIND_NB] = {0, 100, 3, 13, 7, 5, 3, 2};

enum { MAX_TARGETS = 40 };

// What both sides attack, and where a move would check the enemy general.
typedef struct Attacks {
    uint8_t count[SIDE_NB][SQUARE_NB];    // pieces of a side attacking (or defending) a point
    uint8_t cheapest[SIDE_NB][SQUARE_NB]; // smallest KIND_VALUE among them (UINT8_MAX: none)
    uint8_t ring[SIDE_NB][SQUARE_NB];     // 1 on the ring of side's general
    uint8_t check[SIDE_NB][SQUARE_NB];    // bit k: a piece of side of kind k there checks
    uint8_t moves[SIDE_NB][SQUARE_NB];    // bit k: a piece of side of kind k can move there
                                          // and check (filled for check points only)
    uint8_t move_sq[SIDE_NB][SQUARE_NB];  // the points of `moves` that are set, in order
    int move_n[SIDE_NB];
} Attacks;

// The points a piece of side us and kind k on `from` attacks (own pieces included: those it
// defends). A cannon needs one non-cannon screen and never takes a cannon.
static int piece_targets(const Board *b, const Geometry *geo, Square from, Side us, Kind k,
                         uint8_t *out) {
    int n = 0;
    if (k == CHARIOT || k == CANNON) {
        for (int r = 0; r < geo->ray_count[from]; r++) {
            const Ray *ray = &geo->rays[from][r];
            int i = 0;
            if (k == CANNON) {
                i = ray_next_piece(b, ray, 0);
                if (i == ray->len || !cannon_may_jump(b->squares[ray->sq[i]]))
                    continue;
                i++;
            }
            for (; i < ray->len; i++) {
                Piece t = b->squares[ray->sq[i]];
                if (t == EMPTY || k == CHARIOT || cannon_may_capture(t))
                    out[n++] = ray->sq[i];
                if (t != EMPTY)
                    break;
            }
        }
    } else if (k == HORSE) {
        for (int i = 0; i < geo->horse_count[from]; i++)
            if (b->squares[geo->horse[from][i].leg] == EMPTY)
                out[n++] = geo->horse[from][i].to;
    } else if (k == ELEPHANT) {
        for (int i = 0; i < geo->elephant_count[from]; i++) {
            ElephantStep e = geo->elephant[from][i];
            if (b->squares[e.leg1] == EMPTY && b->squares[e.leg2] == EMPTY)
                out[n++] = e.to;
        }
    } else if (k == SOLDIER) {
        for (int i = 0; i < geo->soldier_count[us][from]; i++)
            out[n++] = geo->soldier[us][from][i];
    } else {
        for (int i = 0; i < geo->palace_step_count[from]; i++)
            out[n++] = geo->palace_steps[from][i];
    }
    assert(n <= MAX_TARGETS);
    return n;
}

// The ring of side's general: the points of its palace next to it.
static void mark_ring(const Board *b, const Geometry *geo, Attacks *at, Side side) {
    Square g = b->general[side];
    int gf = square_file(g), gr = square_rank(g);
    for (int df = -1; df <= 1; df++)
        for (int dr = -1; dr <= 1; dr++) {
            int f = gf + df, r = gr + dr;
            if ((df || dr) && f >= 0 && f < FILE_NB && r >= 0 && r < RANK_NB &&
                geometry_in_palace(geo, side, square_make(f, r)))
                at->ring[side][square_make(f, r)] = 1;
        }
}

// The points from which a piece of side us of each kind would attack the enemy general.
static void mark_checks(const Board *b, const Geometry *geo, Attacks *at, Side us) {
    Square g = b->general[!us];
    uint8_t *check = at->check[us];
    for (int r = 0; r < geo->ray_count[g]; r++) {
        const Ray *ray = &geo->rays[g][r];
        int i1 = ray_next_piece(b, ray, 0);
        for (int i = 0; i <= i1 && i < ray->len; i++)
            check[ray->sq[i]] |= 1 << CHARIOT;
        if (i1 == ray->len || !cannon_may_jump(b->squares[ray->sq[i1]]))
            continue;
        int i2 = ray_next_piece(b, ray, i1 + 1);
        for (int i = i1 + 1; i <= i2 && i < ray->len; i++)
            check[ray->sq[i]] |= 1 << CANNON;
    }
    for (int i = 0; i < geo->horse_from_count[g]; i++)
        if (b->squares[geo->horse_from[g][i].leg] == EMPTY)
            check[geo->horse_from[g][i].to] |= 1 << HORSE;
    for (int i = 0; i < geo->elephant_from_count[g]; i++) {
        ElephantStep e = geo->elephant_from[g][i];
        if (b->squares[e.leg1] == EMPTY && b->squares[e.leg2] == EMPTY)
            check[e.to] |= 1 << ELEPHANT;
    }
    for (int i = 0; i < geo->soldier_from_count[us][g]; i++)
        check[geo->soldier_from[us][g][i]] |= 1 << SOLDIER;
}

// One piece's attacks into the maps; its ring hits and check moves. Returns the ring hits.
static int piece_attacks(const Board *b, const Geometry *geo, Attacks *at, Square from, Side us,
                         Kind k) {
    uint8_t targets[MAX_TARGETS];
    int n = piece_targets(b, geo, from, us, k, targets), ring = 0;
    Square enemy_general = b->general[!us];
    for (int i = 0; i < n; i++) {
        Square to = targets[i];
        at->count[us][to]++;
        if (KIND_VALUE[k] < at->cheapest[us][to])
            at->cheapest[us][to] = KIND_VALUE[k];
        ring += at->ring[!us][to];
        Piece t = b->squares[to];
        if ((at->check[us][to] >> k & 1) && to != enemy_general &&
            (t == EMPTY || piece_side(t) != us)) {
            if (!at->moves[us][to])
                at->move_sq[us][at->move_n[us]++] = (uint8_t)to;
            at->moves[us][to] |= (uint8_t)(1 << k);
        }
    }
    return ring;
}

// Enemy pieces pinned to their general by us: the sole blocker of a chariot line, either of
// two screens of a cannon line (the other one a valid screen), a horse's or an elephant's leg.
static int count_pins(const Board *b, const Geometry *geo, Side us) {
    Square g = b->general[!us];
    Piece chariot = piece_make(us, CHARIOT), cannon = piece_make(us, CANNON);
    int pins = 0;
    for (int r = 0; r < geo->ray_count[g]; r++) {
        const Ray *ray = &geo->rays[g][r];
        int i1 = ray_next_piece(b, ray, 0);
        if (i1 == ray->len)
            continue;
        int i2 = ray_next_piece(b, ray, i1 + 1);
        if (i2 == ray->len)
            continue;
        Piece p1 = b->squares[ray->sq[i1]], p2 = b->squares[ray->sq[i2]];
        if (b->squares[ray->sq[i2]] == chariot) {
            pins += piece_side(p1) != us;
            continue;
        }
        int i3 = ray_next_piece(b, ray, i2 + 1);
        if (i3 == ray->len || b->squares[ray->sq[i3]] != cannon)
            continue;
        pins += piece_side(p1) != us && cannon_may_jump(p2);
        pins += piece_side(p2) != us && cannon_may_jump(p1);
    }
    Piece horse = piece_make(us, HORSE), elephant = piece_make(us, ELEPHANT);
    for (int i = 0; i < geo->horse_from_count[g]; i++) {
        HorseStep h = geo->horse_from[g][i];
        Piece leg = b->squares[h.leg];
        pins += b->squares[h.to] == horse && leg != EMPTY && piece_side(leg) != us;
    }
    for (int i = 0; i < geo->elephant_from_count[g]; i++) {
        ElephantStep e = geo->elephant_from[g][i];
        Piece l1 = b->squares[e.leg1], l2 = b->squares[e.leg2];
        if (b->squares[e.to] != elephant || (l1 != EMPTY) == (l2 != EMPTY))
            continue;
        Piece leg = l1 != EMPTY ? l1 : l2;
        pins += piece_side(leg) != us;
    }
    return pins;
}

// Checks of us next move: safe where the enemy attacks the point not at all.
static void eval_checks(const Attacks *at, Acc *a, Side us) {
    unsigned safe = 0, unsafe = 0;
    for (int i = 0; i < at->move_n[us]; i++) {
        Square to = at->move_sq[us][i];
        if (at->count[!us][to] == 0)
            safe |= at->moves[us][to];
        else
            unsafe |= at->moves[us][to];
    }
    int unsafe_only = 0;
    for (Kind k = CHARIOT; k <= SOLDIER; k++) {
        if (safe >> k & 1)
            add_danger(a, EVAL_OFF_DANGER_SAFE_CHECK + k, us, 1);
        unsafe_only += (unsafe >> k & 1) && !(safe >> k & 1);
    }
    add_danger(a, EVAL_OFF_DANGER_UNSAFE_CHECK, us, unsafe_only);
}

// The danger terms of both sides and the hanging pieces (eval_terms.def).
static void eval_safety(const Board *b, const Geometry *geo, Acc *a) {
    Attacks at;
    memset(&at, 0, sizeof at);
    memset(at.cheapest, UINT8_MAX, sizeof at.cheapest);
    for (Side us = CHO; us <= HAN; us++) {
        mark_ring(b, geo, &at, us);
        mark_checks(b, geo, &at, us);
    }
    for (Side us = CHO; us <= HAN; us++) {
        int ring_attacks = 0;
        for (Kind k = GENERAL; k <= SOLDIER; k++) {
            Piece pc = piece_make(us, k);
            int attackers = 0;
            for (int i = 0; i < b->count[pc]; i++) {
                int hits = piece_attacks(b, geo, &at, b->list[pc][i], us, k);
                ring_attacks += hits;
                attackers += hits > 0;
            }
            add_danger(a, EVAL_OFF_DANGER_ATTACKER + k, us, attackers);
        }
        add_danger(a, EVAL_OFF_DANGER_RING_ATTACK, us, ring_attacks);
    }
    for (Side us = CHO; us <= HAN; us++) {
        int weak = 0;
        for (Square sq = 0; sq < SQUARE_NB; sq++)
            weak += at.ring[!us][sq] && at.count[us][sq] && at.count[!us][sq] < 2;
        add_danger(a, EVAL_OFF_DANGER_WEAK_RING, us, weak);
        eval_checks(&at, a, us);
        add_danger(a, EVAL_OFF_DANGER_PINNED, us, count_pins(b, geo, us));
        add_danger(a, EVAL_OFF_DANGER_OFFSET, us, 1);
        for (Kind k = GUARD; k <= SOLDIER; k++) {
            Piece pc = piece_make(us, k);
            for (int i = 0; i < b->count[pc]; i++) {
                Square sq = b->list[pc][i];
                if (at.count[!us][sq] &&
                    (!at.count[us][sq] || at.cheapest[!us][sq] < KIND_VALUE[k]))
                    add(a, EVAL_OFF_HANGING + k, us, 1);
            }
        }
    }
    a->mg += (int)(eval_danger(a->danger_mg[CHO]) - eval_danger(a->danger_mg[HAN]));
    a->eg += (int)(eval_danger(a->danger_eg[CHO]) - eval_danger(a->danger_eg[HAN]));
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
    Acc a = {.trace = trace};
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
    eval_safety(b, geo, &a);
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
    .danger_begin = EVAL_OFF_DANGER_ATTACKER,
    .danger_end = EVAL_PARAM_NB,
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
    int64_t mg = 0, eg = 0, danger_mg[SIDE_NB] = {0}, danger_eg[SIDE_NB] = {0};
    for (int i = 0; i < spec->param_count; i++) {
        if (i >= spec->danger_begin && i < spec->danger_end) {
            for (Side s = CHO; s <= HAN; s++) {
                danger_mg[s] += weights[i].mg * trace->count[i][s];
                danger_eg[s] += weights[i].eg * trace->count[i][s];
            }
            continue;
        }
        int d = trace->count[i][CHO] - trace->count[i][HAN];
        mg += weights[i].mg * d;
        eg += weights[i].eg * d;
    }
    mg += eval_danger(danger_mg[CHO]) - eval_danger(danger_mg[HAN]);
    eg += eval_danger(danger_eg[CHO]) - eval_danger(danger_eg[HAN]);
    int t = (int)eval_clamp(eval_taper(mg, eg, trace->phase, spec->phase_max));
    return side_to_move == CHO ? t : -t;
}
