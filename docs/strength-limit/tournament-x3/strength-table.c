// The xiangqi table tournament X3's levels are played with (engine/xiangqi/variant.c from the
// commit that made it: the curve through X and X2, curve/xiangqi-levels.md), read by
// `scripts/calibrate-strength rate --played-with` (docs/strength-limit.md).
static const StrengthPoint STRENGTH_TABLE[] = {
    {1618, 262}, {1683, 300}, {1767, 350}, {1850, 400}, {1932, 450}, {2012, 500},
    {2091, 550}, {2168, 600}, {2244, 650}, {2319, 700}, {2392, 750}, {2464, 800},
    {2534, 850}, {2603, 900}, {2671, 950}, {2693, 967},
};
