// SPDX-License-Identifier: MIT
// End-of-game rules and points, exactly as the rules page states them (see rules.h).
#include "rules.h"

#include <string.h>

#include "board.h"
#include "movegen.h"
#include "variant.h"

static const char *const REASON_NAMES[REASON_NB] = {
    "none",         "checkmate",  "bikjang",  "repetition", "perpetual-check",
    "double-pass",  "move-limit", "resign",   "time",       "adjudication",
    "illegal-move", "crash",      "stalemate"};

const char *rules_reason_name(EndReason reason) {
    return (unsigned)reason < REASON_NB ? REASON_NAMES[reason] : "unknown";
}

EndReason rules_reason_parse(const char *name) {
    for (int r = 1; r < REASON_NB; r++)
        if (strcmp(name, REASON_NAMES[r]) == 0)
            return (EndReason)r;
    return REASON_NONE;
}

int rules_points_half(const Board *b, Side side) {
    const Variant *v = b->variant;
    int total = side == HAN ? v->second_bonus_half : 0;
    for (Kind k = GUARD; k <= SOLDIER; k++)
        total += v->points_half[k] * board_count(b, side, k);
    return total;
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

bool rules_repetition(const Board *b, int *loser) {
    const int cur = b->nstates - 1;
    const StateInfo *now = &b->states[cur];
    int occurrences = 1, first = cur;
    for (int i = cur - 2; i >= 0 && cur - i <= now->since_capture; i -= 2)
        if (b->states[i].key == now->key)
            occurrences++, first = i;
    if (occurrences < 3)
        return false;
    // states[j].in_check tells whether the ply into j gave check; that ply was made by the
    // side not to move at j, i.e. by b->side when (cur - j) is odd.
    bool all_checks[SIDE_NB] = {true, true};
    for (int j = first + 1; j <= cur; j++) {
        Side mover = ((cur - j) & 1) ? b->side : (Side)!b->side;
        if (!b->states[j].in_check)
            all_checks[mover] = false;
    }
    *loser = all_checks[CHO] == all_checks[HAN] ? -1 : all_checks[CHO] ? CHO : HAN;
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
    if (reason != REASON_PERPETUAL_CHECK)
        return by_points(b, res, reason);
    res->over = true;
    res->reason = REASON_PERPETUAL_CHECK;
    res->winner = (Side)!loser;
    return true;
}

EndReason rules_end_reason(const Board *b, int *loser) {
    const Variant *v = b->variant;
    const StateInfo *st = board_state(b);
    *loser = -1;
    // What each rule needs at the least, tested first because most positions (all the search's
    // nodes) meet none: facing generals, a pass just played, 8 plies without a capture (a
    // position recurs 4 plies later at the soonest, 2 only through two passes, so a threefold
    // repetition in fewer plies ends with two passes or came after an earlier end), the limit.
    const bool passed = move_is_pass(st->move);
    if (!st->facing && !passed && st->since_capture < 8 && board_game_ply(b) < v->ply_limit)
        return REASON_NONE;
    const bool may_repeat = st->since_capture >= 8 || (passed && rules_double_pass(b));
    for (int i = 0; i < v->end_rule_count; i++) {
        switch (v->end_order[i]) {
        case END_BIKJANG:
            if (rules_bikjang_ends(b))
                return REASON_BIKJANG;
            break;
        case END_REPETITION:
            if (may_repeat && rules_repetition(b, loser))
                return *loser < 0 ? REASON_REPETITION : REASON_PERPETUAL_CHECK;
            break;
        case END_DOUBLE_PASS:
            if (rules_double_pass(b))
                return REASON_DOUBLE_PASS;
            break;
        case END_MOVE_LIMIT:
            if (board_game_ply(b) >= v->ply_limit)
                return REASON_MOVE_LIMIT;
            break;
        default:
            break;
        }
    }
    return REASON_NONE;
}
