// SPDX-License-Identifier: MIT
// The strength limiter: a requested Elo to a position on the path of weakened settings, by the
// variant's table (Variant.strength_table, engine/<variant>/variant.c).
#include "strength.h"

#include <math.h>

#include "search.h"
#include "variant.h"

StrengthSetting strength_at(double x) {
    x = x < 0 ? 0 : x > 1 ? 1 : x;
    double nodes = STRENGTH_NODES_MIN * pow((double)STRENGTH_NODES_MAX / STRENGTH_NODES_MIN, x);
    return (StrengthSetting){.skill = SEARCH_SKILL_MAX * x, .nodes = (uint64_t)(nodes + 0.5)};
}

double strength_x_of_elo(const Variant *v, int elo) {
    const StrengthPoint *t = variant_or_default(v)->strength_table;
    int n = variant_or_default(v)->strength_table_len;
    elo = elo < STRENGTH_ELO_MIN   ? STRENGTH_ELO_MIN
          : elo > STRENGTH_ELO_MAX ? STRENGTH_ELO_MAX
                                   : elo;
    if (elo <= t[0].elo)
        return t[0].x_milli / 1000.0;
    for (int i = 1; i < n; i++)
        if (elo <= t[i].elo) {
            double f = (double)(elo - t[i - 1].elo) / (t[i].elo - t[i - 1].elo);
            return (t[i - 1].x_milli + f * (t[i].x_milli - t[i - 1].x_milli)) / 1000.0;
        }
    return t[n - 1].x_milli / 1000.0;
}

StrengthSetting strength_of_elo(const Variant *v, int elo) {
    return strength_at(strength_x_of_elo(v, elo));
}

void strength_apply(SearchLimits *lim, const Variant *v, bool limit_strength, int elo,
                    int skill_level) {
    lim->limit_skill = skill_level < SEARCH_SKILL_MAX;
    lim->skill = skill_level;
    if (!limit_strength)
        return;
    StrengthSetting st = strength_of_elo(v, elo);
    lim->limit_skill = true;
    lim->skill = st.skill;
    if (!lim->nodes || lim->nodes > st.nodes)
        lim->nodes = st.nodes;
}
