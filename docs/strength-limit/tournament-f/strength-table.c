// The janggi table tournament F's levels are played with (engine/janggi/variant.c from the commit
// that made it: the curve through D and E, curve/janggi-levels.md), read by
// `scripts/calibrate-strength rate --played-with` (docs/strength-limit.md).
static const StrengthPoint STRENGTH_TABLE[] = {
    {1668, 212}, {1714, 250}, {1776, 300}, {1838, 350}, {1901, 400}, {1964, 450},
    {2028, 500}, {2091, 550}, {2156, 600}, {2221, 650}, {2286, 700}, {2351, 750},
    {2418, 800}, {2484, 850}, {2551, 900}, {2618, 950}, {2641, 967},
};
