// The xiangqi table tournament X4's levels are played with (engine/xiangqi/variant.c from the
// commit that made it: the curve through X, X2 and X3, curve/xiangqi-levels.md), read by
// `scripts/calibrate-strength rate --played-with` (docs/strength-limit.md).
static const StrengthPoint STRENGTH_TABLE[] = {
    {1639, 262}, {1711, 300}, {1802, 350}, {1890, 400}, {1974, 450}, {2056, 500},
    {2135, 550}, {2211, 600}, {2283, 650}, {2353, 700}, {2419, 750}, {2482, 800},
    {2543, 850}, {2600, 900}, {2654, 950}, {2672, 967},
};
