// The janggi table tournament E's levels were played with (engine/janggi/variant.c at 4869526,
// the fit of tournament D), read by `scripts/calibrate-strength rate --played-with`
// (docs/strength-limit.md).
static const StrengthPoint STRENGTH_TABLE[] = {
    {1576, 212}, {1881, 396}, {2117, 583}, {2376, 768}, {2548, 896}, {2655, 967},
};
