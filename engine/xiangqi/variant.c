// SPDX-License-Identifier: MIT
// Xiangqi as the rules page describes it (/work/shared/rules/xiangqi.md in the workplace,
// docs/rules-xiangqi.md here); its evaluation is xiangqi/eval.c.
#include "variant.h"

#include <stdio.h>

#include "board.h"
#include "xiangqi/eval_layout.h"
#include "xiangqi/xiangqi.h"

// The start position, as Fairy-Stockfish writes it.
static const char XIANGQI_START_FEN[] =
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

static void square_name(Square sq, char out[16]) {
    snprintf(out, 16, "%c%d", 'a' + square_file(sq), square_rank(sq) + 1);
}

// Advisors on their 5 points, elephants on their 7 (their own side), soldiers where a soldier
// can stand: the pieces of a position that play could have reached.
static Status check_placement(const Board *b, ErrorInfo *err) {
    for (Square sq = 0; sq < SQUARE_NB; sq++) {
        Piece pc = b->squares[sq];
        Side s = piece_side(pc);
        const char *what = NULL;
        if (pc == EMPTY)
            continue;
        if (piece_kind(pc) == GUARD && b->geo->guard_step_count[sq] == 0)
            what = "advisor off the palace's diagonals";
        else if (piece_kind(pc) == ELEPHANT && !xiangqi_elephant_point(s, sq))
            what =
                xiangqi_own_half(s, sq) ? "elephant off its 7 points" : "elephant across the river";
        else if (piece_kind(pc) == SOLDIER && !xiangqi_soldier_point(s, sq))
            what = "soldier where no soldier can stand (behind its start or off its file)";
        if (what) {
            char name[16];
            square_name(sq, name);
            return error_set(err, STATUS_ILLEGAL, "FEN: %s %s on %s", b->variant->side_names[s],
                             what, name);
        }
    }
    return STATUS_OK;
}

// The strength limiter's table (strength.h) on xiangqi's own scale (Fairy-Stockfish 11.1 playing
// xiangqi at 5 s + 0.05 s = 2500 on this machine): one curve through the levels of tournaments X,
// X2 and X3 (docs/strength-limit.md, "One curve through the levels"; seeds 5451-5457, 5461-5466
// and 5471-5474: the levels' 2,016 games against Fairy-Stockfish 11.1 xiangqi at 500 to 128 k
// nodes a move and at the clock), Elo = 1099.9 + 2220.1 x - 614.8 x^2, each level weighted by its
// error; a row every 0.05 of x over the x the levels played. X2 and X3 each checked the table
// before it on games of their own; tournament X4 checked this one (1700-2300, each level within
// its own and the curve's errors).
// clang-format off
static const StrengthPoint STRENGTH_TABLE[] = {
    {1639, 262}, {1711, 300}, {1802, 350}, {1890, 400}, {1974, 450}, {2056, 500},
    {2135, 550}, {2211, 600}, {2283, 650}, {2353, 700}, {2419, 750}, {2482, 800},
    {2543, 850}, {2600, 900}, {2654, 950}, {2672, 967},
};
// clang-format on

const Variant VARIANT_XIANGQI = {
    .name = "xiangqi",
    .side_names = {"Red", "Black"},
    .geometry = &xiangqi_geometry,
    .letters = " KARCNBP", // Fairy-Stockfish's xiangqi letters: K A R C N B P
    .kind_names = {"none", "general", "advisor", "chariot", "cannon", "horse", "elephant",
                   "soldier"},
    .set_count = {0, 1, 2, 2, 2, 2, 2, 5},
    .points_half = {0}, // xiangqi has no point count
    // The field's usual scale (chariot 9, cannon 4.5, horse 4, advisor and elephant 2, soldier
    // 1), in half points: advisor 4, chariot 18, cannon 9, horse 8, elephant 4, soldier 2.
    .exchange_half = {0, 0, 4, 18, 9, 8, 4, 2},
    .second_bonus_half = 0,
    .pass = false,
    .bikjang = false,
    .palace_diagonals = false,
    .flying_general = true,
    .cannon = CANNON_XIANGQI,
    .repetition = REPETITION_XIANGQI,
    // Rules page, "Legality and game end", after checkmate and stalemate. Too little material
    // can only arise by a capture, a repetition and the capture-free limit only without one,
    // so the order decides only between the last two: a repetition may be a loss, it comes
    // first.
    .end_order = {END_MATERIAL, END_REPETITION, END_NO_CAPTURE},
    .end_rule_count = 3,
    .ply_limit = 1 << 30, // no limit on the game's length (the capture-free limit ends it)
    // Scale and draw margin fitted together by maximum likelihood (scripts/fit-wdl.py) to 12,682
    // positions of the xiangqi match games in docs/match-report, each searched at 2000 nodes
    // (docs/strength-limit/wdl-xiangqi-fit.json); the net's scale (544) with its own fitted
    // margin (476) fits them worse (log-likelihood -10,632 against -10,530).
    .wdl_scale = 420.0,
    .wdl_margin = 400.3,
    // No blend: xiangqi's net is borne out by its games at 40 s + 0.4 s against Fairy-Stockfish
    // (expected score 0.038 above the actual; janggi's 0.160: issue 55).
    .eval_blend = 0,
    .strength_table = STRENGTH_TABLE,
    .strength_table_len = sizeof STRENGTH_TABLE / sizeof STRENGTH_TABLE[0],
    .no_capture_limit = 300,        // the project rule of the rules page
    .halfmove_captures_only = true, // Fairy-Stockfish's xiangqi FEN
    .palace_file_min = 3,
    .palace_file_max = 5,
    .palace_ranks = 3,
    .start_fen = XIANGQI_START_FEN,
    .formation_count = 0,
    .formation_names = NULL,
    .setup_formations = NULL,
    .check_placement = check_placement,
    .eval = &EVAL_SPEC_XIANGQI,
    .init = xiangqi_geometry_init,
};
