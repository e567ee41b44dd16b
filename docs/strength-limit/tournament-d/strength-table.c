// The janggi table tournament D's levels were played with (engine/janggi/variant.c before
// 4869526), read by `scripts/calibrate-strength rate --played-with` (docs/strength-limit.md).
static const StrengthPoint STRENGTH_TABLE[] = {
    {1686, 199}, {1908, 403}, {2068, 542}, {2176, 682}, {2317, 780}, {2468, 912}, {2554, 970},
};
