// SPDX-License-Identifier: MIT
// The strength limiter (UCI_LimitStrength, UCI_Elo): a requested Elo as a weakened search's
// settings, from a table measured in matches (docs/strength-limit.md).
#pragma once

#include <stdint.h>

#include "timeman.h" // SearchLimits
#include "types.h"

/// The Elo range UCI_Elo offers. Each variant's scale has its own anchor: Fairy-Stockfish 11.1 at
/// full strength (that variant, its default settings, one thread) at 5 s + 0.05 s a game is 2500
/// by definition, on the machine where the tables were measured (docs/strength-limit.md).
enum { STRENGTH_ELO_MIN = 1700, STRENGTH_ELO_MAX = 2550, STRENGTH_ELO_DEFAULT = 2000 };

/// What a requested strength sets in the search (timeman.h, SearchLimits): the skill (search.h,
/// SEARCH_SKILL_*: the depth cap 1 + skill, the lines kept, the loss allowed and the temperature
/// of the choice among them) and a cap on the nodes of each move, so that a weakened engine
/// reads less far on any clock and any machine.
typedef struct StrengthSetting {
    double skill;   // 0..SEARCH_SKILL_MAX, continuous
    uint64_t nodes; // the most nodes a move searches
} StrengthSetting;

/// The setting of path position x in [0, 1] (clamped): 0 the weakest, 1 the strongest the
/// limiter plays. skill = SEARCH_SKILL_MAX x; nodes = STRENGTH_NODES_MIN x
/// (STRENGTH_NODES_MAX / STRENGTH_NODES_MIN)^x, geometric, as strength grows with the log of
/// the nodes. Both are increasing in x, so strength is a smooth increasing function of x.
StrengthSetting strength_at(double x);

enum { STRENGTH_NODES_MIN = 200, STRENGTH_NODES_MAX = 131072 };

/// The path position x in [0, 1] that plays at elo (clamped to STRENGTH_ELO_MIN..MAX) on variant
/// v's scale (NULL: the default variant): v's table measured by scripts/calibrate-strength
/// (Variant.strength_table), interpolated linearly; outside the table, its first or last x.
double strength_x_of_elo(const Variant *v, int elo);

/// strength_at(strength_x_of_elo(v, elo)).
StrengthSetting strength_of_elo(const Variant *v, int elo);

/// Sets the weakening fields of lim (limit_skill, skill, and the node cap): with limit_strength
/// the setting of elo on variant v's scale (UCI_Elo; lim->nodes becomes the lower of its own and
/// the cap), else skill_level (UCI Skill Level, 0..SEARCH_SKILL_MAX; the max: full strength). The
/// front ends' one way to weaken a search (UCI and CECP).
void strength_apply(SearchLimits *lim, const Variant *v, bool limit_strength, int elo,
                    int skill_level);
