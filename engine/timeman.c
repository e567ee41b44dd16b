// SPDX-License-Identifier: MIT
// Time management (see timeman.h).
#include "timeman.h"

#include <time.h>

#include "search_params.h"

int64_t timeman_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

TimeBudget timeman_budget(const SearchLimits *limits, Side us, const SearchParams *params) {
    TimeBudget tb = {0, 0};
    int64_t overhead = limits->move_overhead > 0 ? limits->move_overhead : 0;
    if (limits->infinite)
        return tb;
    // movetime is the time of this move: search until it is spent (no soft budget, as in
    // Stockfish), keeping back only the overhead.
    if (limits->movetime > 0) {
        int64_t t = limits->movetime - overhead;
        tb.hard = t > 1 ? t : 1;
        return tb;
    }
    int64_t left = limits->time[us], inc = limits->inc[us];
    int64_t byo = limits->byoyomi > 0 ? limits->byoyomi : 0;
    if (byo && left - overhead <= 0) { // in byo-yomi: the period is this move's time
        tb.hard = left + byo - overhead > 1 ? left + byo - overhead : 1;
        return tb;
    }
    if (left <= 0 && inc <= 0)
        return tb;
    int mtg = limits->movestogo > 0 ? (limits->movestogo < 40 ? limits->movestogo : 40)
                                    : params->tm_moves;
    int64_t usable = left - overhead;
    if (usable < 1)
        usable = 1;
    int64_t base = usable / mtg + (inc + byo) * params->tm_inc_pct / 100;
    int64_t cap = (mtg == 1 ? usable * 9 / 10 : usable / params->tm_cap_div) + byo;
    tb.soft = base < cap ? base : cap;
    tb.hard = tb.soft * params->tm_hard_mult < cap ? tb.soft * params->tm_hard_mult : cap;
    if (tb.soft < 1)
        tb.soft = 1;
    if (tb.hard < tb.soft)
        tb.hard = tb.soft;
    return tb;
}

int timeman_scale(const TimeSignals *sig, const SearchParams *params) {
    enum { STABLE_PLIES = 6, SCALE_MIN = 40, SCALE_MAX = 250 };
    if (!params->tm_adapt || sig->depth < 5 || sig->nodes == 0 || sig->decided)
        return 100;
    int stable = sig->stable < STABLE_PLIES ? sig->stable : STABLE_PLIES;
    int64_t stab =
        params->tm_stab_max - (params->tm_stab_max - params->tm_stab_min) * stable / STABLE_PLIES;
    int64_t fall = (int64_t)(sig->prev - sig->score) * params->tm_drop_pct / 10;
    int64_t drop = 100 + (fall > params->tm_drop_max ? params->tm_drop_max
                          : fall < -15               ? -15
                                                     : fall);
    int64_t share = (int64_t)(sig->best_nodes * 100 / sig->nodes);
    int64_t node = params->tm_node_base - params->tm_node_mult * (share > 100 ? 100 : share) / 100;
    int64_t scale = stab * drop / 100 * node / 100;
    return (int)(scale < SCALE_MIN ? SCALE_MIN : scale > SCALE_MAX ? SCALE_MAX : scale);
}
