// SPDX-License-Identifier: MIT
// Janggi's evaluation (janggi/eval_layout.h): one pass over the pieces of both sides that counts
// every term of janggi/eval_terms.def and sums the counts with the generated weights (optionally
// into a trace), by the formula of engine/eval.h.
#include "janggi/eval_layout.h"

#include <assert.h>
#include <string.h>

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

// ---- Sets of points ----

// Points (geometry.h): each side's attacks are gathered once per evaluation into such sets, and
// every term that asks "who attacks this point" reads them.

// clang-format off
#define POINT_(sq) ((Points)1 << (sq))
#define POINTS_9_(sq) POINT_(sq), POINT_(sq + 1), POINT_(sq + 2), POINT_(sq + 3), POINT_(sq + 4), \
    POINT_(sq + 5), POINT_(sq + 6), POINT_(sq + 7), POINT_(sq + 8)
// The one-point sets, a table: cheaper than a 128-bit shift by a variable count.
static const Points POINT[SQUARE_NB] = {
    POINTS_9_(0), POINTS_9_(9), POINTS_9_(18), POINTS_9_(27), POINTS_9_(36),
    POINTS_9_(45), POINTS_9_(54), POINTS_9_(63), POINTS_9_(72), POINTS_9_(81),
};
#undef POINTS_9_
#undef POINT_
// clang-format on

static inline Points point_set(Square sq) { return POINT[sq]; }

static inline bool points_has(Points p, Square sq) { return (p >> sq) & 1; }

// The point of p nearest the start of a ray running up (to higher points) or down; p not empty.
static inline Square points_nearest(Points p, bool up) {
    uint64_t lo = (uint64_t)p, hi = (uint64_t)(p >> 64);
    if (up)
        return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(hi);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(lo);
}

// The points of a ray from its start up to sq, sq included (up: sq and below; down: sq and
// above).
static inline Points points_through(Square sq, bool up) {
    Points p = point_set(sq);
    return up ? p | (p - 1) : ~(p - 1);
}

static inline int points_count(Points p) {
    return __builtin_popcountll((uint64_t)p) + __builtin_popcountll((uint64_t)(p >> 64));
}

// The palace of side, from janggi.h's constants (the geometry's palace_of, asserted).
static inline Points palace_points(Side side) {
    Points p = 0;
    for (int r = 0; r < JANGGI_PALACE_RANKS; r++)
        for (int f = JANGGI_PALACE_FILE_MIN; f <= JANGGI_PALACE_FILE_MAX; f++)
            p |= point_set(square_make(f, side == CHO ? r : RANK_NB - 1 - r));
    return p;
}

#ifndef NDEBUG
static bool palace_points_match(const Geometry *geo) {
    for (Square sq = 0; sq < SQUARE_NB; sq++)
        for (Side s = CHO; s <= HAN; s++)
            if (points_has(palace_points(s), sq) != geometry_in_palace(geo, s, sq))
                return false;
    return true;
}
#endif

// ---- What one piece bears on ----

// The points a piece attacks and the moves it has, found in one walk of its move tables.
typedef struct Reach {
    Points attacks; // points it attacks, own pieces included (those it defends)
    Points seen;    // attacks, plus the cannons a cannon meets past its screen (it cannot take
                    // them, but it bears on the point: palace_attack counts it)
    int blocked;    // horse and elephant moves blocked on their legs
    int screens;    // cannon lines whose first piece may serve as a screen
} Reach;

// A chariot's or cannon's lines. A cannon needs one non-cannon screen and never takes a cannon.
static inline void slider_reach(const Board *b, const Geometry *geo, Points occupied, Square from,
                                bool cannon, Reach *out) {
    for (int r = 0; r < geo->ray_count[from]; r++) {
        Points line = geo->ray_points[from][r], hit = line & occupied;
        bool up = geo->rays[from][r].sq[0] > from;
        if (cannon) {
            if (!hit)
                continue;
            Square screen = points_nearest(hit, up);
            if (!cannon_may_jump(b->squares[screen]))
                continue;
            out->screens++;
            line &= ~points_through(screen, up);
            hit &= line;
        }
        if (!hit) {
            out->seen |= line;
            out->attacks |= line;
            continue;
        }
        Square blocker = points_nearest(hit, up);
        line &= points_through(blocker, up);
        out->seen |= line;
        out->attacks |=
            !cannon || cannon_may_capture(b->squares[blocker]) ? line : line & ~point_set(blocker);
    }
}

// What the piece of side us and kind k on `from` bears on (the rules page's moves, own pieces
// included: an attack on one is a defence).
static inline Reach piece_reach(const Board *b, const Geometry *geo, Points occupied, Square from,
                                Side us, Kind k) {
    Reach r = {0, 0, 0, 0};
    if (k == CHARIOT || k == CANNON) {
        slider_reach(b, geo, occupied, from, k == CANNON, &r);
        return r;
    }
    if (k == HORSE) {
        for (int i = 0; i < geo->horse_count[from]; i++) {
            HorseStep h = geo->horse[from][i];
            if (b->squares[h.leg] != EMPTY)
                r.blocked++;
            else
                r.attacks |= point_set(h.to);
        }
    } else if (k == ELEPHANT) {
        for (int i = 0; i < geo->elephant_count[from]; i++) {
            ElephantStep e = geo->elephant[from][i];
            if (b->squares[e.leg1] != EMPTY || b->squares[e.leg2] != EMPTY)
                r.blocked++;
            else
                r.attacks |= point_set(e.to);
        }
    } else {
        r.attacks = k == SOLDIER ? geo->soldier_points[us][from] : geo->palace_step_points[from];
    }
    r.seen = r.attacks;
    return r;
}

// Both sides' pieces and attacks, gathered once per evaluation.
typedef struct Maps {
    Points occupied[SIDE_NB];         // side's pieces
    Points ring[SIDE_NB];             // the ring of side's general
    Points palace[SIDE_NB];           // side's palace
    Points shield[SIDE_NB];           // the palace steps of side's general
    Points any[SIDE_NB];              // points side attacks (or defends) at least once
    Points twice[SIDE_NB];            // ... at least twice
    Points by_kind[SIDE_NB][KIND_NB]; // ... with a piece of that kind
} Maps;

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

// Terms that depend on the kind alone, beyond material, PST and moves.
static inline __attribute__((always_inline)) void eval_piece_extras(const Board *b,
                                                                    const Geometry *geo,
                                                                    const Maps *m, Acc *a,
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

// The ring of side's general: the points of its palace next to it. The eight shifts reach the
// general's neighbours; those that wrap round the board's edge land on files a, b, h or i, never
// in a palace, and the palace mask drops them.
static Points general_ring(const Board *b, const Maps *m, Side side) {
    Points g = point_set(b->general[side]);
    Points near = g << 1 | g >> 1 | g << (FILE_NB - 1) | g >> (FILE_NB - 1) | g << FILE_NB |
                  g >> FILE_NB | g << (FILE_NB + 1) | g >> (FILE_NB + 1);
    return near & m->palace[side];
}

// The points from which a piece of side us of each kind would attack the enemy general
// (check[k] for kind k): a chariot's or cannon's lines seen from the general, and the reverse
// tables of the others.
static void check_points(const Board *b, const Geometry *geo, Points occupied, Side us,
                         Points check[KIND_NB]) {
    Square g = b->general[!us];
    Reach chariot = {0, 0, 0, 0}, cannon = {0, 0, 0, 0};
    slider_reach(b, geo, occupied, g, false, &chariot);
    slider_reach(b, geo, occupied, g, true, &cannon);
    check[CHARIOT] = chariot.attacks;
    check[CANNON] = cannon.seen; // the cannon's point past the screen may hold a cannon
    for (int i = 0; i < geo->horse_from_count[g]; i++)
        if (b->squares[geo->horse_from[g][i].leg] == EMPTY)
            check[HORSE] |= point_set(geo->horse_from[g][i].to);
    for (int i = 0; i < geo->elephant_from_count[g]; i++) {
        ElephantStep e = geo->elephant_from[g][i];
        if (b->squares[e.leg1] == EMPTY && b->squares[e.leg2] == EMPTY)
            check[ELEPHANT] |= point_set(e.to);
    }
    for (int i = 0; i < geo->soldier_from_count[us][g]; i++)
        check[SOLDIER] |= point_set(geo->soldier_from[us][g][i]);
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

// Checks of us next move (a piece of a kind moving onto an empty or enemy point from which that
// kind attacks the enemy general): safe where the enemy attacks the point not at all.
static void eval_checks(const Board *b, const Geometry *geo, const Maps *m, Acc *a, Side us) {
    Points check[KIND_NB] = {0};
    check_points(b, geo, m->occupied[CHO] | m->occupied[HAN], us, check);
    Points reachable = ~m->occupied[us] & ~point_set(b->general[!us]);
    int unsafe_only = 0;
    for (Kind k = CHARIOT; k <= SOLDIER; k++) {
        Points moves = m->by_kind[us][k] & check[k] & reachable;
        bool safe = (moves & ~m->any[!us]) != 0, unsafe = (moves & m->any[!us]) != 0;
        if (safe)
            add_danger(a, EVAL_OFF_DANGER_SAFE_CHECK + k, us, 1);
        unsafe_only += unsafe && !safe;
    }
    add_danger(a, EVAL_OFF_DANGER_UNSAFE_CHECK, us, unsafe_only);
}

// Own pieces attacked and undefended, or attacked by a cheaper piece.
static void eval_hanging(const Board *b, const Maps *m, Acc *a, Side us) {
    for (Kind k = GUARD; k <= SOLDIER; k++) {
        Points cheaper = 0;
        for (Kind j = GENERAL; j <= SOLDIER; j++)
            if (KIND_VALUE[j] < KIND_VALUE[k])
                cheaper |= m->by_kind[!us][j];
        Points hanging = m->any[!us] & (~m->any[us] | cheaper);
        Piece pc = piece_make(us, k);
        int n = 0;
        for (int i = 0; i < b->count[pc]; i++)
            n += points_has(hanging, b->list[pc][i]);
        add(a, EVAL_OFF_HANGING + k, us, n);
    }
}

// The danger terms of both sides that need both sides' attacks, and the hanging pieces
// (the attackers and ring attacks were counted piece by piece in evaluate()).
static void eval_safety(const Board *b, const Geometry *geo, const Maps *m, Acc *a) {
    for (Side us = CHO; us <= HAN; us++) {
        int weak = points_count(m->ring[!us] & m->any[us] & ~m->twice[!us]);
        add_danger(a, EVAL_OFF_DANGER_WEAK_RING, us, weak);
        eval_checks(b, geo, m, a, us);
        add_danger(a, EVAL_OFF_DANGER_PINNED, us, count_pins(b, geo, us));
        add_danger(a, EVAL_OFF_DANGER_OFFSET, us, 1);
        eval_hanging(b, m, a, us);
    }
    a->mg += (int)(eval_danger(a->danger_mg[CHO]) - eval_danger(a->danger_mg[HAN]));
    a->eg += (int)(eval_danger(a->danger_eg[CHO]) - eval_danger(a->danger_eg[HAN]));
}

// The pieces of side us and kind k: material, PST, moves, palace pressure, blocked legs and
// screens, the kind's terms (eval_piece_extras), and their attacks into the maps and on the enemy
// general's ring. Returns the ring attacks. Counts of the kind are summed before they are added.
static inline __attribute__((always_inline)) int eval_kind(const Board *b, const Geometry *geo,
                                                           Maps *m, Acc *a, Side us, Kind k) {
    Piece pc = piece_make(us, k);
    Points occupied = m->occupied[CHO] | m->occupied[HAN];
    int moves = 0, palace = 0, blocked = 0, screens = 0, ring = 0, attackers = 0;
    for (int i = 0; i < b->count[pc]; i++) {
        Square sq = b->list[pc][i];
        int row = RANK_NB - 1 - own_rank(us, sq);
        add(a, EVAL_OFF_PST + k * SQUARE_NB + row * FILE_NB + square_file(sq), us, 1);
        Reach r = piece_reach(b, geo, occupied, sq, us, k);
        moves += points_count(r.attacks & ~m->occupied[us]);
        palace += points_count(r.seen & m->palace[!us]);
        blocked += r.blocked;
        screens += r.screens;
        m->twice[us] |= m->any[us] & r.attacks;
        m->any[us] |= r.attacks;
        m->by_kind[us][k] |= r.attacks;
        int hits = points_count(r.attacks & m->ring[!us]);
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

// The maps' fixed parts: pieces, rings and palaces (the attacks start empty).
static void maps_init(const Board *b, const Geometry *geo, Maps *m) {
    memset(m, 0, sizeof *m);
    for (Side s = CHO; s <= HAN; s++) {
        for (Kind k = GENERAL; k <= SOLDIER; k++) {
            Piece pc = piece_make(s, k);
            for (int i = 0; i < b->count[pc]; i++)
                m->occupied[s] |= point_set(b->list[pc][i]);
        }
        m->palace[s] = palace_points(s);
        m->ring[s] = general_ring(b, m, s);
        m->shield[s] = geo->palace_step_points[b->general[s]];
    }
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
static bool points_late(const Board *b, Acc *a) {
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
           b->variant->palace_ranks == JANGGI_PALACE_RANKS && palace_points_match(b->geo));
    const Geometry *geo = b->geo; // read once: the tables are reached by this pointer
    Acc a = {.trace = trace};
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
    Acc a = {0};
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
