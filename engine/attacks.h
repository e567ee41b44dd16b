// SPDX-License-Identifier: MIT
// Attack maps of a position, the evaluations' one account of who bears on which point: sets of
// points (Points, geometry.h), what each piece attacks (piece_reach), both sides' maps gathered
// once per evaluation (Maps), and the counts of the general's safety and of hanging pieces that
// the danger index of engine/eval.h weighs (attacks_safety). Each variant's evaluation
// (janggi/eval.c, xiangqi/eval.c) adds these counts with its own weights; the variants differ in
// the cannon (variant.h's CannonRule) and in their move tables (Board.geo), never in this code.
//
// Everything here is static inline: each evaluation is compiled with its own constant cannon
// rule, so the search's copy has no variant test left in it.
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "board.h"
#include "eval.h"
#include "geometry.h"
#include "variant.h"

// ---- Sets of points ----

// clang-format off
#define ATTACKS_POINT_(sq) ((Points)1 << (sq))
#define ATTACKS_POINTS_9_(sq) ATTACKS_POINT_(sq), ATTACKS_POINT_(sq + 1), ATTACKS_POINT_(sq + 2), \
    ATTACKS_POINT_(sq + 3), ATTACKS_POINT_(sq + 4), ATTACKS_POINT_(sq + 5),                      \
    ATTACKS_POINT_(sq + 6), ATTACKS_POINT_(sq + 7), ATTACKS_POINT_(sq + 8)
/// The one-point sets, a table: cheaper than a 128-bit shift by a variable count.
static const Points ATTACKS_POINT[SQUARE_NB] = {
    ATTACKS_POINTS_9_(0), ATTACKS_POINTS_9_(9), ATTACKS_POINTS_9_(18), ATTACKS_POINTS_9_(27),
    ATTACKS_POINTS_9_(36), ATTACKS_POINTS_9_(45), ATTACKS_POINTS_9_(54), ATTACKS_POINTS_9_(63),
    ATTACKS_POINTS_9_(72), ATTACKS_POINTS_9_(81),
};
#undef ATTACKS_POINTS_9_
#undef ATTACKS_POINT_
// clang-format on

/// The set of point sq alone.
static inline Points point_set(Square sq) { return ATTACKS_POINT[sq]; }

/// True when p holds point sq.
static inline bool points_has(Points p, Square sq) { return (p >> sq) & 1; }

/// The point of p nearest the start of a ray running up (to higher points) or down; p not empty.
static inline Square points_nearest(Points p, bool up) {
    uint64_t lo = (uint64_t)p, hi = (uint64_t)(p >> 64);
    if (up)
        return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(hi);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(lo);
}

/// The points of a ray from its start up to sq, sq included (up: sq and below; down: sq and
/// above).
static inline Points points_through(Square sq, bool up) {
    Points p = point_set(sq);
    return up ? p | (p - 1) : ~(p - 1);
}

/// The number of points in p.
static inline int points_count(Points p) {
    return __builtin_popcountll((uint64_t)p) + __builtin_popcountll((uint64_t)(p >> 64));
}

// ---- What one piece bears on ----

/// The points a piece attacks and the moves it has, found in one walk of its move tables.
typedef struct Reach {
    Points attacks; // points it attacks, own pieces included (those it defends)
    Points seen;    // attacks, plus the cannons a janggi cannon meets past its screen (it cannot
                    // take them, but it bears on the point)
    int blocked;    // horse and elephant moves blocked on their legs
    int screens;    // cannon lines whose first piece may serve as a screen
} Reach;

/// A chariot's or cannon's lines (a cannon's: past its screen, where it captures; a xiangqi
/// cannon's quiet moves before the screen are not attacks).
static inline void slider_reach(const Board *b, const Geometry *geo, Points occupied, Square from,
                                bool cannon, CannonRule rule, Reach *out) {
    for (int r = 0; r < geo->ray_count[from]; r++) {
        Points line = geo->ray_points[from][r], hit = line & occupied;
        bool up = geo->rays[from][r].sq[0] > from;
        if (cannon) {
            if (!hit)
                continue;
            Square screen = points_nearest(hit, up);
            if (rule == CANNON_JANGGI && !cannon_may_jump(b->squares[screen]))
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
        out->attacks |= !cannon || rule == CANNON_XIANGQI || cannon_may_capture(b->squares[blocker])
                            ? line
                            : line & ~point_set(blocker);
    }
}

/// What the piece of side us and kind k on `from` bears on (the variant's moves, own pieces
/// included: an attack on one is a defence).
static inline Reach piece_reach(const Board *b, const Geometry *geo, Points occupied, Square from,
                                Side us, Kind k, CannonRule rule) {
    Reach r = {0, 0, 0, 0};
    if (k == CHARIOT || k == CANNON) {
        slider_reach(b, geo, occupied, from, k == CANNON, rule, &r);
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
        r.attacks = k == SOLDIER ? geo->soldier_points[us][from]
                    : k == GUARD ? geo->guard_step_points[from]
                                 : geo->palace_step_points[from];
    }
    r.seen = r.attacks;
    return r;
}

// ---- Both sides' maps ----

/// Both sides' pieces and attacks, gathered once per evaluation.
typedef struct Maps {
    Points occupied[SIDE_NB];         // side's pieces
    Points ring[SIDE_NB];             // the ring of side's general
    Points palace[SIDE_NB];           // side's palace
    Points shield[SIDE_NB];           // the palace steps of side's general
    Points any[SIDE_NB];              // points side attacks (or defends) at least once
    Points twice[SIDE_NB];            // ... at least twice
    Points by_kind[SIDE_NB][KIND_NB]; // ... with a piece of that kind
} Maps;

/// The ring of side's general: the points of its palace next to it. The eight shifts reach the
/// general's neighbours; those that wrap round the board's edge land on files a, b, h or i, never
/// in a palace, and the palace mask drops them.
static inline Points general_ring(const Board *b, const Maps *m, Side side) {
    Points g = point_set(b->general[side]);
    Points near = g << 1 | g >> 1 | g << (FILE_NB - 1) | g >> (FILE_NB - 1) | g << FILE_NB |
                  g >> FILE_NB | g << (FILE_NB + 1) | g >> (FILE_NB + 1);
    return near & m->palace[side];
}

/// The maps' fixed parts: pieces, rings, palaces and shields (the attacks start empty).
static inline void maps_init(const Board *b, const Geometry *geo, Maps *m) {
    memset(m, 0, sizeof *m);
    for (Side s = CHO; s <= HAN; s++) {
        for (Kind k = GENERAL; k <= SOLDIER; k++) {
            Piece pc = piece_make(s, k);
            for (int i = 0; i < b->count[pc]; i++)
                m->occupied[s] |= point_set(b->list[pc][i]);
        }
        m->palace[s] = geo->palace_points[s];
        m->ring[s] = general_ring(b, m, s);
        m->shield[s] = geo->palace_step_points[b->general[s]];
    }
}

/// Adds the attacks of one piece of side us and kind k to the maps; returns how many points of
/// the enemy general's ring it attacks.
static inline int maps_add(Maps *m, Side us, Kind k, Points attacks) {
    m->twice[us] |= m->any[us] & attacks;
    m->any[us] |= attacks;
    m->by_kind[us][k] |= attacks;
    return points_count(attacks & m->ring[!us]);
}

// ---- The general's safety and hanging pieces ----

/// The points from which a piece of side us of each kind would attack the enemy general
/// (check[k] for kind k): a chariot's or cannon's lines seen from the general, and the reverse
/// tables of the others.
static inline void check_points(const Board *b, const Geometry *geo, Points occupied, Side us,
                                CannonRule rule, Points check[KIND_NB]) {
    Square g = b->general[!us];
    Reach chariot = {0, 0, 0, 0}, cannon = {0, 0, 0, 0};
    slider_reach(b, geo, occupied, g, false, rule, &chariot);
    slider_reach(b, geo, occupied, g, true, rule, &cannon);
    check[CHARIOT] = chariot.attacks;
    check[CANNON] = cannon.seen; // the point past the screen may hold a janggi cannon
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

/// Enemy pieces pinned to their general by us: the sole blocker of a chariot line, either of
/// two screens of a cannon line (the other one a valid screen), a horse's or an elephant's leg.
static inline int count_pins(const Board *b, const Geometry *geo, Side us, CannonRule rule) {
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
        pins += piece_side(p1) != us && (rule == CANNON_XIANGQI || cannon_may_jump(p2));
        pins += piece_side(p2) != us && (rule == CANNON_XIANGQI || cannon_may_jump(p1));
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

/// The counts of side us's attack on the enemy general and of its own hanging pieces that need
/// both sides' maps (the attackers and ring attacks are counted piece by piece, maps_add).
typedef struct SafetyCounts {
    int weak_ring;            // enemy ring points we attack, defended by fewer than two
    bool safe_check[KIND_NB]; // a check next move by that kind onto a point the enemy does not
                              // attack
    int unsafe_check;         // kinds whose checks next move all land on attacked points
    int pins;                 // count_pins
    int hanging[KIND_NB];     // own pieces attacked and undefended, or attacked by a cheaper
                              // piece (kind_value: the variant's point values, the general's
                              // above all)
} SafetyCounts;

/// Fills c for side us from the complete maps m (every piece added with maps_add).
static inline void attacks_safety(const Board *b, const Geometry *geo, const Maps *m, Side us,
                                  CannonRule rule, const uint8_t kind_value[KIND_NB],
                                  SafetyCounts *c) {
    c->weak_ring = points_count(m->ring[!us] & m->any[us] & ~m->twice[!us]);
    Points check[KIND_NB] = {0};
    check_points(b, geo, m->occupied[CHO] | m->occupied[HAN], us, rule, check);
    Points reachable = ~m->occupied[us] & ~point_set(b->general[!us]);
    c->unsafe_check = 0;
    c->safe_check[GENERAL] = c->safe_check[GUARD] = false;
    for (Kind k = CHARIOT; k <= SOLDIER; k++) {
        Points moves = m->by_kind[us][k] & check[k] & reachable;
        bool safe = (moves & ~m->any[!us]) != 0, unsafe = (moves & m->any[!us]) != 0;
        c->safe_check[k] = safe;
        c->unsafe_check += unsafe && !safe;
    }
    c->pins = count_pins(b, geo, us, rule);
    c->hanging[GENERAL] = 0;
    for (Kind k = GUARD; k <= SOLDIER; k++) {
        Points cheaper = 0;
        for (Kind j = GENERAL; j <= SOLDIER; j++)
            if (kind_value[j] < kind_value[k])
                cheaper |= m->by_kind[!us][j];
        Points hanging = m->any[!us] & (~m->any[us] | cheaper);
        Piece pc = piece_make(us, k);
        int n = 0;
        for (int i = 0; i < b->count[pc]; i++)
            n += points_has(hanging, b->list[pc][i]);
        c->hanging[k] = n;
    }
}

/// Where a variant's layout keeps the safety terms (flat indices of eval_terms.def): hanging and
/// safe_check by kind, the others scalars, all danger terms but hanging.
typedef struct SafetyLayout {
    int hanging, weak_ring, safe_check, unsafe_check, pinned, offset;
} SafetyLayout;

/// Counts both sides' safety terms (attacks_safety, the danger offset once per side) into a
/// with the variant's weights w at the flat indices of layout, then adds the squared danger
/// indices (eval_acc_danger): the last step of an evaluation, once every piece is in the maps.
static inline void attacks_eval_safety(const Board *b, const Geometry *geo, const Maps *m,
                                       EvalAcc *a, const EvalWeight *w, SafetyLayout layout,
                                       CannonRule rule, const uint8_t kind_value[KIND_NB]) {
    for (Side us = CHO; us <= HAN; us++) {
        SafetyCounts c;
        attacks_safety(b, geo, m, us, rule, kind_value, &c);
        eval_acc_add(a, w, layout.weak_ring, us, c.weak_ring, true);
        for (Kind k = CHARIOT; k <= SOLDIER; k++)
            if (c.safe_check[k])
                eval_acc_add(a, w, layout.safe_check + k, us, 1, true);
        eval_acc_add(a, w, layout.unsafe_check, us, c.unsafe_check, true);
        eval_acc_add(a, w, layout.pinned, us, c.pins, true);
        eval_acc_add(a, w, layout.offset, us, 1, true);
        for (Kind k = GUARD; k <= SOLDIER; k++)
            eval_acc_add(a, w, layout.hanging + k, us, c.hanging[k], false);
    }
    eval_acc_danger(a);
}
