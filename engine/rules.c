// SPDX-License-Identifier: MIT
// End-of-game rules and points, exactly as the rules page states them (see rules.h).
#include "rules.h"

#include <assert.h>
#include <stddef.h>
#include <string.h>

#include "board.h"
#include "chase.h"
#include "movegen.h"
#include "variant.h"

static const char *const REASON_NAMES[REASON_NB] = {
    "none",         "checkmate",       "bikjang",
    "repetition",   "perpetual-check", "double-pass",
    "move-limit",   "resign",          "time",
    "adjudication", "illegal-move",    "crash",
    "stalemate",    "perpetual-chase", "insufficient-material",
    "no-capture"};

const char *rules_reason_name(EndReason reason) {
    return (unsigned)reason < REASON_NB ? REASON_NAMES[reason] : "unknown";
}

EndReason rules_reason_parse(const char *name) {
    for (int r = 1; r < REASON_NB; r++)
        if (strcmp(name, REASON_NAMES[r]) == 0)
            return (EndReason)r;
    return REASON_NONE;
}

int rules_material_half(const Board *b, Side side) {
    const Variant *v = b->variant;
    int total = 0;
    for (Kind k = GUARD; k <= SOLDIER; k++)
        total += v->points_half[k] * board_count(b, side, k);
    return total;
}

int rules_points_half(const Board *b, Side side) {
    return rules_material_half(b, side) + (side == HAN ? b->variant->second_bonus_half : 0);
}

bool rules_counts_points(const Variant *v) {
    for (Kind k = GUARD; k <= SOLDIER; k++)
        if (v->points_half[k])
            return true;
    return false;
}

Side rules_points_leader(const Board *b) {
    return rules_points_half(b, CHO) > rules_points_half(b, HAN) ? CHO : HAN;
}

bool rules_bikjang_ends(const Board *b) {
    int cur = b->nstates - 1;
    if (cur < 1)
        return false;
    const StateInfo *now = &b->states[cur], *before = &b->states[cur - 1];
    return now->facing && before->facing && before->piece_count < 32 && b->variant->bikjang;
}

bool rules_double_pass(const Board *b) {
    int cur = b->nstates - 1;
    return cur >= 2 && move_is_pass(b->states[cur].move) && move_is_pass(b->states[cur - 1].move);
}

int rules_repetition_start(const Board *b) {
    const int cur = b->nstates - 1;
    const StateInfo *now = &b->states[cur];
    int occurrences = 1, first = cur;
    for (int i = cur - 2; i >= 0 && cur - i <= now->since_capture; i -= 2)
        if (b->states[i].key == now->key)
            occurrences++, first = i;
    return occurrences >= 3 ? first : -1;
}

// checks[s]: side s gave check with every one of its moves from states[first] to the current
// position (the perpetual-check rule of both rules pages).
static void checks_in_cycle(const Board *b, int first, bool checks[SIDE_NB]) {
    const int cur = b->nstates - 1;
    checks[CHO] = checks[HAN] = true;
    // states[j].in_check tells whether the ply into j gave check; that ply was made by the
    // side not to move at j, i.e. by b->side when (cur - j) is odd.
    for (int j = first + 1; j <= cur; j++) {
        Side mover = ((cur - j) & 1) ? b->side : (Side)!b->side;
        if (!b->states[j].in_check)
            checks[mover] = false;
    }
}

bool rules_repetition(const Board *b, int *loser) {
    const int first = rules_repetition_start(b);
    if (first < 0)
        return false;
    bool checks[SIDE_NB];
    checks_in_cycle(b, first, checks);
    *loser = checks[CHO] == checks[HAN] ? -1 : checks[CHO] ? CHO : HAN;
    return true;
}

// A threefold repetition judged by the variant's rule (Variant.repetition). Xiangqi (rules
// page, "Points this page pins down"): a side offends when it checked with every move of the
// cycle or chased one unprotected piece with every move (chase.c); exactly one offender loses
// (by perpetual check if it checked throughout, else by perpetual chase); both offending (two
// checkers, two chasers, or a checker and a chaser) or neither, the game is drawn.
static EndReason judge_repetition(const Board *b, int *loser) {
    const int first = rules_repetition_start(b);
    if (first < 0)
        return REASON_NONE;
    bool checks[SIDE_NB], offends[SIDE_NB];
    checks_in_cycle(b, first, checks);
    offends[CHO] = checks[CHO], offends[HAN] = checks[HAN];
    const bool xiangqi = b->variant->repetition == REPETITION_XIANGQI;
    if (xiangqi && !(checks[CHO] && checks[HAN])) {
        bool chases[SIDE_NB];
        chase_in_cycle(b, first, chases);
        offends[CHO] = offends[CHO] || chases[CHO];
        offends[HAN] = offends[HAN] || chases[HAN];
    }
    if (offends[CHO] != offends[HAN]) {
        *loser = offends[CHO] ? CHO : HAN;
        return checks[*loser] ? REASON_PERPETUAL_CHECK : REASON_PERPETUAL_CHASE;
    }
    *loser = xiangqi ? RULES_DRAW : RULES_BY_POINTS;
    return REASON_REPETITION;
}

bool rules_material_insufficient(const Board *b) {
    static const Kind ATTACKERS[] = {CHARIOT, CANNON, HORSE, SOLDIER};
    for (int s = 0; s < SIDE_NB; s++)
        for (size_t k = 0; k < sizeof ATTACKERS / sizeof ATTACKERS[0]; k++)
            if (board_count(b, (Side)s, ATTACKERS[k]))
                return false;
    return true;
}

static bool by_points(const Board *b, GameResult *res, EndReason reason) {
    res->over = true;
    res->reason = reason;
    res->winner = res->points_half[CHO] > res->points_half[HAN] ? CHO : HAN;
    (void)b;
    return true;
}

bool rules_game_over(Board *b, GameResult *res) {
    res->points_half[CHO] = rules_points_half(b, CHO);
    res->points_half[HAN] = rules_points_half(b, HAN);
    res->over = false;
    res->draw = false;
    res->reason = REASON_NONE;
    res->winner = CHO;
    // With the pass (janggi) a side not in check always has a move; without it (xiangqi) a side
    // with no legal move loses whether in check or not.
    const bool in_check = board_in_check(b);
    if ((in_check || !b->variant->pass) && !movegen_has_legal(b)) {
        res->over = true;
        res->reason = in_check ? REASON_CHECKMATE : REASON_STALEMATE;
        res->winner = !b->side;
        return true;
    }
    int loser;
    EndReason reason = rules_end_reason(b, &loser);
    if (reason == REASON_NONE)
        return false;
    if (loser == RULES_BY_POINTS)
        return by_points(b, res, reason);
    res->over = true;
    res->reason = reason;
    res->draw = loser == RULES_DRAW;
    res->winner = res->draw ? CHO : (Side)!loser;
    return true;
}

EndReason rules_end_reason(const Board *b, int *loser) {
    const Variant *v = b->variant;
    const StateInfo *st = board_state(b);
    *loser = RULES_BY_POINTS;
    assert(v->no_capture_limit == 0 || v->no_capture_limit >= 8);
    // What each rule needs at the least, tested first because most positions (all the search's
    // nodes) meet none: facing generals, a pass just played, 8 plies without a capture (a
    // position recurs 4 plies later at the soonest, 2 only through two passes, so a threefold
    // repetition in fewer plies ends with two passes or came after an earlier end; the
    // capture-free limit is 8 plies or more), the limit; and where the material rule applies (it
    // comes first in its variant's order), a capture just made or the set-up position: material
    // changes only by a capture.
    const bool passed = move_is_pass(st->move);
    const bool material_changed = st->captured != EMPTY || b->nstates == 1;
    if (!st->facing && !passed && st->since_capture < 8 && board_game_ply(b) < v->ply_limit &&
        (!material_changed || v->end_order[0] != END_MATERIAL))
        return REASON_NONE;
    const bool may_repeat = st->since_capture >= 8 || (passed && rules_double_pass(b));
    for (int i = 0; i < v->end_rule_count; i++) {
        EndReason r;
        switch (v->end_order[i]) {
        case END_BIKJANG:
            if (rules_bikjang_ends(b))
                return REASON_BIKJANG;
            break;
        case END_REPETITION:
            if (may_repeat && (r = judge_repetition(b, loser)) != REASON_NONE)
                return r;
            break;
        case END_DOUBLE_PASS:
            if (rules_double_pass(b))
                return REASON_DOUBLE_PASS;
            break;
        case END_MOVE_LIMIT:
            if (board_game_ply(b) >= v->ply_limit)
                return REASON_MOVE_LIMIT;
            break;
        case END_MATERIAL:
            assert(i == 0); // the quick test above reads it there
            if (material_changed && rules_material_insufficient(b)) {
                *loser = RULES_DRAW;
                return REASON_MATERIAL;
            }
            break;
        case END_NO_CAPTURE:
            if (v->no_capture_limit > 0 && st->since_capture >= v->no_capture_limit) {
                *loser = RULES_DRAW;
                return REASON_NO_CAPTURE;
            }
            break;
        default:
            break;
        }
    }
    return REASON_NONE;
}
