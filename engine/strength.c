// SPDX-License-Identifier: MIT
// The strength limiter's table: Elo to a position on the path of weakened settings.
#include "strength.h"

#include <math.h>

#include "search.h"

// Measured Elo (the scale of strength.h) of path positions x (in thousandths), increasing in
// both: the fit of scripts/calibrate-strength's second tournament (seed 4602, 5 s + 0.05 s, its
// eight levels played with the first tournament's table; docs/strength-limit.md). Below x = 0.2
// the levels measured no weaker (the path is flat there) and above the last row the path was
// not measured, so the range offered (strength.h) lies inside the table.
// clang-format off
static const struct { int elo, x_milli; } TABLE[] = {
    {1686, 199}, {1908, 403}, {2068, 542}, {2176, 682}, {2317, 780}, {2468, 912}, {2554, 970},
};
// clang-format on
enum { TABLE_LEN = sizeof TABLE / sizeof TABLE[0] };

StrengthSetting strength_at(double x) {
    x = x < 0 ? 0 : x > 1 ? 1 : x;
    double nodes = STRENGTH_NODES_MIN * pow((double)STRENGTH_NODES_MAX / STRENGTH_NODES_MIN, x);
    return (StrengthSetting){.skill = SEARCH_SKILL_MAX * x, .nodes = (uint64_t)(nodes + 0.5)};
}

double strength_x_of_elo(int elo) {
    elo = elo < STRENGTH_ELO_MIN   ? STRENGTH_ELO_MIN
          : elo > STRENGTH_ELO_MAX ? STRENGTH_ELO_MAX
                                   : elo;
    if (elo <= TABLE[0].elo)
        return TABLE[0].x_milli / 1000.0;
    for (int i = 1; i < TABLE_LEN; i++)
        if (elo <= TABLE[i].elo) {
            double f = (double)(elo - TABLE[i - 1].elo) / (TABLE[i].elo - TABLE[i - 1].elo);
            return (TABLE[i - 1].x_milli + f * (TABLE[i].x_milli - TABLE[i - 1].x_milli)) / 1000.0;
        }
    return TABLE[TABLE_LEN - 1].x_milli / 1000.0;
}

StrengthSetting strength_of_elo(int elo) { return strength_at(strength_x_of_elo(elo)); }

void strength_apply(SearchLimits *lim, bool limit_strength, int elo, int skill_level) {
    lim->limit_skill = skill_level < SEARCH_SKILL_MAX;
    lim->skill = skill_level;
    if (!limit_strength)
        return;
    StrengthSetting st = strength_of_elo(elo);
    lim->limit_skill = true;
    lim->skill = st.skill;
    if (!lim->nodes || lim->nodes > st.nodes)
        lim->nodes = st.nodes;
}
