// The xiangqi table tournament X's levels were played with (engine/xiangqi/variant.c before
// 23b3e54, the fit of the xiangqi tournament, seed 4604), read by `scripts/calibrate-strength rate
// --played-with` (docs/strength-limit.md).
static const StrengthPoint STRENGTH_TABLE[] = {
    {1599, 212}, {1817, 396}, {2017, 583}, {2205, 768}, {2404, 896}, {2425, 967},
};
