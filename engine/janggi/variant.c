// SPDX-License-Identifier: MIT
// Janggi as the rules page describes it (/work/shared/rules/janggi.md in the workplace,
// docs/rules-janggi.md here), and the table of known variants (xiangqi in engine/xiangqi/).
#include "variant.h"

#include <string.h>

#include "fen.h"
#include "janggi/eval_layout.h"
#include "janggi/formation.h"
#include "janggi/janggi.h"

static void setup_formations(Board *b, int cho, int han) {
    formation_setup(b, (Formation)cho, (Formation)han);
}

// The strength limiter's table (strength.h): measured Elo of path positions x (in thousandths),
// increasing in both: one curve through the levels of tournaments D and E (docs/strength-limit.md,
// "One curve through the levels"; seeds 5401-5407 and 5411-5416: the levels' 1,408 games against
// Fairy-Stockfish 11.1 at 500 to 128 k nodes a move and, for the scale, at 5 s + 0.05 s = 2500 on
// this machine), Elo = 1411.6 + 1189.5 x + 84.9 x^2, each level weighted by its error; a row every
// 0.05 of x over the x the levels played. E verified D's table (every level within its error)
// before this one, and tournament F this one where it moved a level (1700-2100, each within its
// own and the curve's errors); the range offered (strength.h, 1700-2550) lies inside it.
// clang-format off
static const StrengthPoint STRENGTH_TABLE[] = {
    {1668, 212}, {1714, 250}, {1776, 300}, {1838, 350}, {1901, 400}, {1964, 450},
    {2028, 500}, {2091, 550}, {2156, 600}, {2221, 650}, {2286, 700}, {2351, 750},
    {2418, 800}, {2484, 850}, {2551, 900}, {2618, 950}, {2641, 967},
};
// clang-format on

const Variant VARIANT_JANGGI = {
    .name = "janggi",
    .side_names = {"Cho", "Han"},
    .geometry = &janggi_geometry,
    .letters = " KARCNBP",
    .kind_names = {"none", "general", "guard", "chariot", "cannon", "horse", "elephant", "soldier"},
    .set_count = {0, 1, 2, 2, 2, 2, 2, 5},
    // Rules page, "Points": chariot 13, cannon 7, horse 5, elephant 3, guard 3, soldier 2.
    .points_half = {0, 0, 6, 26, 14, 10, 6, 4},
    .exchange_half = {0, 0, 6, 26, 14, 10, 6, 4}, // the points
    .second_bonus_half = 3,                       // Han's 1.5 points
    .pass = true,
    .bikjang = true,
    .palace_diagonals = true,
    .flying_general = false,
    .cannon = CANNON_JANGGI,
    .repetition = REPETITION_JANGGI,
    // Rules page, "End of the game": after checkmate, in this order.
    .end_order = {END_BIKJANG, END_REPETITION, END_DOUBLE_PASS, END_MOVE_LIMIT},
    .end_rule_count = 4,
    .ply_limit = 200,
    // The sigmoid_s of the compiled-in net's provenance (data/nets/janggi-r4.json), the scale
    // the trainer fitted to the games' results; decided by points, janggi has no draws.
    .wdl_scale = 508.73,
    .wdl_margin = 0.0,
    // No blend yet: the goal matches at 40 s + 0.4 s with 25 % and 50 % decide it
    // (docs/scaling.md, "The decisive experiment").
    .eval_blend = 0,
    .strength_table = STRENGTH_TABLE,
    .strength_table_len = sizeof STRENGTH_TABLE / sizeof STRENGTH_TABLE[0],
    .no_capture_limit = 0, // no such rule: the ply limit ends every game
    .halfmove_captures_only = false,
    .palace_file_min = JANGGI_PALACE_FILE_MIN,
    .palace_file_max = JANGGI_PALACE_FILE_MAX,
    .palace_ranks = JANGGI_PALACE_RANKS,
    .start_fen = FEN_START,
    .formation_count = FORMATION_NB,
    .formation_names = FORMATION_NAMES,
    .setup_formations = setup_formations,
    .check_placement = NULL,
    .eval = &EVAL_SPEC_JANGGI,
    .init = janggi_geometry_init,
};
