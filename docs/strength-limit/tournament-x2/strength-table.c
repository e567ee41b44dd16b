// The xiangqi table tournament X2's levels were played with (engine/xiangqi/variant.c at 23b3e54,
// the fit of tournament X), read by `scripts/calibrate-strength rate --played-with`
// (docs/strength-limit.md).
static const StrengthPoint STRENGTH_TABLE[] = {
    {1700, 262}, {1751, 297}, {2007, 474}, {2294, 665}, {2506, 829}, {2696, 967},
};
