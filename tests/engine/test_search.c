// SPDX-License-Identifier: MIT
// Search: mates in 1, 2 and 3 (chariot, horse, elephant, cannon over a screen, palace
// diagonals), each confirmed as a mate of that length by Fairy-Stockfish 11.1 with no pass in
// its principal variation (it also reports point-decided ends as mate); the shortest mate at
// every depth (no pruning cut against a decided beta); the game ends of the
// rules page scored by points or perpetual check, ranked by distance before kind (the losing
// side takes the later loss, the winning side the sooner win); a pass that lets the opponent end
// the game by passing back never chosen when it loses on points, and chosen when it wins; the move
// limit and a standing bikjang scored as the points decide at every depth; exact node limits;
// reproducible search after search_clear; no illegal bestmove over many random positions; the
// quiescence line of search_quiet_pv independent of earlier searches and stopped before a game
// end; mates in 2 that start with a check found at depth 1 by quiescence's quiet checks.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bench.h"
#include "board.h"
#include "engine.h"
#include "fen.h"
#include "janggi/formation.h"
#include "movegen.h"
#include "notation.h"
#include "rules.h"
#include "search.h"
#include "search_params.h"
#include "variant.h"

typedef struct MateCase {
    int moves; // mate in this many moves of the side to move
    const char *fen;
    const char *first; // the mating move Fairy-Stockfish found (one of possibly several)
} MateCase;

// clang-format off
static const MateCase MATES[] = {
    {3, "2b1a4/3k1a1R1/n4n3/9/B8/9/4B1PPp/3bC1N2/3K1A3/3A2C2 w - - 2 32", "h9f9"}, // R
    {2, "3aa4/3k5/4c4/4b1pp1/9/9/1p1P5/5R2C/4A3r/4K2C1 w - - 7 34", "f3f9"}, // R
    {3, "rn1a1abnr/9/1c3k1c1/p1pp2pp1/9/1N2N1P2/1PP1P3P/1C2C4/4K3R/R1BA1A1Bb w - - 7 9", "e5d7"}, // N
    {1, "3a1a1n1/4k4/4c1P2/3b4P/9/1r7/9/2p6/3AAN3/1c1KC4 b - - 0 35", "d7b4"}, // B
    {3, "3a2n2/4a4/1r1k5/2R6/9/3p5/1PB1C1PP1/5N3/4K4/1N1A1A1B1 w - - 4 38", "c7d7"}, // R
    {3, "4k4/3na4/3P5/7p1/7P1/9/5R3/9/4A4/4K1N2 w - - 1 60", "f4e4"}, // R
    {3, "3k3br/4a4/1R3n3/8p/2p1p4/rN5P1/2PP5/1C3A3/c4K3/2RA5 w - - 0 25", "b8b10"}, // R
    {1, "3kca3/3a5/8n/9/3N5/6b2/3p5/3ACK3/3A1c3/9 w - - 2 57", "d6c8"}, // N
    {3, "3n5/9/1R1a1k3/2B1P1pp1/p8/9/9/3cA4/4KA3/9 w - - 9 56", "b8d8"}, // R
    {1, "5ab2/3a5/4bk3/9/3Bc2p1/1p4P2/3cPP3/3C1A1C1/9/r3nKBN1 b - - 0 31", "e1d3"}, // N
    {2, "rb3aN2/4a4/3nk1nR1/1ppp3C1/9/9/P1c1P1PP1/1C7/9/RNBKAA1B1 w - - 6 17", "h8g8"}, // R
    {3, "4ka3/4a2RR/c3bc3/2p4B1/P2p5/4p2P1/P8/9/N3K4/2BA1A3 w - - 0 44", "h9e9"}, // R
    {2, "rn1a1R3/4a2b1/1c1kbR3/p1pp2pr1/8p/6P2/1PP6/1C2CN3/4K4/1B1ANA1B1 w - - 7 23", "f10e9"}, // R
    {1, "5k1N1/2C2a3/2P1a4/6B2/9/6PP1/9/9/4CK3/3A1ABN1 w - - 12 66", "h10g8"}, // N
    {2, "3a1Cb2/r2k5/2c1b4/n1R6/4p4/p8/4P1P1P/5K3/1C2A2R1/1B2c2B1 w - - 4 24", "h2h9"}, // R
    {2, "4k2b1/3an3R/R3cPCc1/1p1p5/2p1p4/3P5/P1P1N2P1/6N2/4K4/2BA1AB2 w - - 0 32", "a8a10"}, // R
    {2, "3ka4/3a5/3n5/4b1b1p/9/3r1p3/9/9/6B2/3A1K3 b - - 3 57", "d5d1"}, // R
    {2, "1n1a5/6R2/1c1k5/Np3P3/p1p1P4/9/1PP6/9/5K3/3r5 w - - 2 57", "a7b9"}, // N
    {2, "2bCck3/5a3/4a4/2C5r/9/PP7/9/9/3K5/9 b - - 2 71", "i7i2"}, // R
    {2, "5k3/9/6R2/1pp6/r5B1p/c2P5/1P6P/3C5/9/3KAA1B1 w - - 3 53", "g8f8"}, // R
    {1, "4k4/9/9/2N6/9/5c3/4Cn3/5Ap2/9/5K3 w - - 0 66", "c7e8"}, // N
    {2, "4k3c/3a5/2N6/b6pp/4N4/6PP1/PP7/5A3/5C3/2BK5 w - - 3 50", "e6f8"}, // N
    {2, "3a5/4a2R1/1c1k5/1pp6/9/R2n5/1PP2P1N1/3N5/4K4/1B1ACA1B1 w - - 11 31", "a5d5"}, // R
    {2, "4k1Cb1/1R1aa4/3C3c1/p1Bb1ppp1/4c4/3P5/PP2N2PP/5N3/5K3/4AA1BR w - - 3 26", "b9b10"}, // R
    {2, "1n2aar2/3k5/3c5/2p3C1p/1p1p5/c1b5P/4N1R2/r2A5/4K4/b4A3 b - - 7 38", "a3d3"}, // R
    {3, "R2C5/4k4/5a3/1p2b4/4N4/2R6/PP4P2/4K4/5A3/3AN4 w - - 1 35", "c5c9"}, // R
    {1, "1bn2a3/9/3ak4/9/9/2p3P2/PP1bN2P1/1C1A5/4A4/5Knr1 b - - 3 30", "g1h3"}, // N
    {1, "3aa4/9/4k1N2/4b4/4p3P/p8/9/3K1n3/9/5A2C w - - 2 74", "i1i8"}, // C
    {1, "3k5/9/5a3/9/7P1/3nBBP2/9/1n1p1N3/3A5/3KA4 b - - 1 54", "d5c3"}, // N
    {3, "7C1/3ac4/3k1a3/1p4R2/7R1/1b3P3/6P2/5N1C1/3A1K3/1B4BN1 w - - 3 27", "h3h8"}, // C
    {2, "2b1aa1nC/4k4/2n4c1/p1pp2pp1/1r7/4N4/1PP1c1b1P/4BRC2/3K5/1NBA1A2R b - - 1 13", "b6d6"}, // R
    {1, "3aa4/2c2k3/2n2n1c1/p1p1bb1r1/6N2/3P4r/1PP5P/4BK3/4AA3/9 b - - 5 40", "h7h3"}, // R
    {1, "9/4a4/2ca1k3/5r3/6PP1/7C1/2n6/3K5/4A4/5A3 b - - 4 52", "f7d7"}, // R
    {1, "1b3a1b1/3ak4/3nc4/2pp2p2/6R2/p1PP4n/P6r1/3KC4/1r7/3AA4 b - - 5 34", "h4d4"}, // R
    {1, "1b1a1a3/4k4/3rc4/9/7p1/1b2C2Pr/2p2P3/1R7/1B1A1C3/3KNA3 b - - 2 38", "d8d2"}, // R
    {1, "3a1a3/4k4/4cn1c1/2pb3pp/1Bp6/5P3/1PP6/2rC1K3/5A3/5A1NR b - - 1 23", "c3d3"}, // R
    {1, "4a1bn1/2RR5/4bk1c1/p3p2p1/4n4/3P1p3/9/1C1N2cC1/4K4/1B1AA1B2 w - - 0 20", "d9f9"}, // R
    {1, "1n3a2r/3a5/4k4/1pp1p4/9/4P1PP1/1P2BP3/5K3/4AA3/2B5c b - - 2 30", "i10i3"}, // R
    {1, "3a1a2b/4kn2r/2r1c2c1/R4B2p/2p3P2/3R5/1PP4P1/1N5C1/4KA3/2NAC2B1 w - - 7 23", "d5d10"}, // R
    {1, "1n1R3br/4ak3/5n2c/bpp3pp1/1c7/1C4N1P/rNP1P4/4C2R1/3AK4/1B3A1B1 w - - 5 20", "d10e9"}, // R along the palace diagonal d10-e9
    {1, "3k5/R8/4P4/9/9/9/9/9/9/5K3 w - - 0 1", "a9e9"}, // R on e9 checks d10 along the palace diagonal
    {1, "3bkb3/8R/4N4/9/C1P6/9/9/9/9/3K5 w - - 0 1", "a6e6"}, // C over the e8 screen
};
// clang-format on

static Searcher *searcher;

static int setup(void **state) {
    (void)state;
    searcher = search_create(16);
    return searcher ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    search_destroy(searcher);
    return 0;
}

static void load(Board *b, const char *fen, const char *moves) {
    ErrorInfo err;
    assert_int_equal(fen_parse(b, fen, &err), STATUS_OK);
    char buf[512];
    snprintf(buf, sizeof buf, "%s", moves ? moves : "");
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        Move m;
        assert_int_equal(move_parse_uci(b, tok, &m, &err), STATUS_OK);
        board_make(b, m);
    }
}

static SearchResult run_depth(const Board *b, int depth) {
    SearchLimits lim = {.depth = depth};
    search_clear(searcher);
    return search_run(searcher, b, &lim, NULL, NULL, NULL);
}

// Mates in 2 from MATES that start with a check and end with a quiet check: at depth 1 the
// evasion is searched by the check extension, and the mating move only by quiescence's quiet
// checks (qs_check_plies); with them off, depth 1 does not see the mate.
static void test_qs_check_mates(void **state) {
    (void)state;
    static const char *const FENS[] = {
        "3ka4/3a5/3n5/4b1b1p/9/3r1p3/9/9/6B2/3A1K3 b - - 3 57",
        "1n1a5/6R2/1c1k5/Np3P3/p1p1P4/9/1PP6/9/5K3/3r5 w - - 2 57",
        "5k3/9/6R2/1pp6/r5B1p/c2P5/1P6P/3C5/9/3KAA1B1 w - - 3 53",
        "1n2aar2/3k5/3c5/2p3C1p/1p1p5/c1b5P/4N1R2/r2A5/4K4/b4A3 b - - 7 38",
    };
    static Board b;
    SearchParams off = SEARCH_PARAMS_DEFAULT;
    off.qs_check_plies = 0;
    assert_true(SEARCH_PARAMS_DEFAULT.qs_check_plies > 0);
    for (size_t i = 0; i < sizeof FENS / sizeof FENS[0]; i++) {
        load(&b, FENS[i], NULL);
        SearchResult with = run_depth(&b, 1);
        search_set_params(searcher, &off);
        SearchResult without = run_depth(&b, 1);
        search_set_params(searcher, &SEARCH_PARAMS_DEFAULT);
        if (with.score != score_win(3, SCORE_END_MATE) || without.score == with.score)
            fail_msg("%s: depth 1 scores %d with quiet checks, %d without (mate in 2: %d)", FENS[i],
                     with.score, without.score, score_win(3, SCORE_END_MATE));
    }
}

static void test_mates(void **state) {
    (void)state;
    static Board b;
    int n = (int)(sizeof MATES / sizeof MATES[0]), failures = 0;
    for (int i = 0; i < n; i++) {
        load(&b, MATES[i].fen, NULL);
        SearchResult r = run_depth(&b, 2 * MATES[i].moves + 5);
        char mv[MOVE_STR_LEN];
        move_to_uci(r.best, mv);
        if (r.score != score_win(2 * MATES[i].moves - 1, SCORE_END_MATE) && ++failures)
            print_error("case %d (%s): score %d, bestmove %s, expected mate in %d", i, MATES[i].fen,
                        r.score, mv, MATES[i].moves);
        if (MATES[i].moves == 1) {
            GameResult gr;
            board_make(&b, r.best);
            assert_true(rules_game_over(&b, &gr));
            assert_int_equal(gr.reason, REASON_CHECKMATE);
        }
    }
    assert_int_equal(failures, 0);
    print_message("%d mates found\n", n);
}

typedef struct EndCase {
    const char *fen, *moves, *best; // best may be NULL when any move does
    int min_score, max_score;
} EndCase;

static void test_game_ends(void **state) {
    (void)state;
    static const char *const C02 =
        "rn1a1a1br/4k4/c4n3/bpp2pC1p/1c7/9/1PP1P1PP1/1CN6/4K4/1RBA1ANBR w - - 0 1";
    static const char *const C12 = "9/3c1k3/3a1aN2/9/9/4R4/3r5/9/4CA3/3AK4 w - - 0 1";
    static const char *const C11 = "9/c1P6/3k5/7c1/9/9/9/9/4K4/4C1B2 w - - 0 1";
    // A win on points or by the perpetual-check rule on the next ply (the margin is not scored);
    // where any move wins, one that also mates would score a mate (mate1, the best on ply 1).
    const int points1 = score_win(1, SCORE_END_POINTS), mate1 = score_win(1, SCORE_END_MATE);
    const EndCase cases[] = {
        // After Cho's pass, Han's pass ends the game by two passes: Han wins 73.5 : 72.
        {FEN_START, "e2e2", "e9e9", points1, points1},
        // Bikjang stands: taking the cannon keeps the generals facing, Han wins 71.5 : 65.
        {C02, "e4d4", "f7g7", points1, points1},
        // Ply 200: whatever Han plays ends the game by the move limit, Han ahead on points.
        {"rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR b - - 0 100", "", NULL,
         points1, mate1},
        // Han completes the threefold repetition of Cho's perpetual check: Cho loses.
        {C12, "g8h10 f9f10 h10g8 f10f9 g8h10 f9f10 h10g8", "f10f9", score_win(1, SCORE_END_RULE),
         score_win(1, SCORE_END_RULE)},
        // Han's pass completes a plain repetition: decided by points, Han 15.5 : 12.
        {C11, "e2e3 d8d8 e3e2 d8d8 e2e3 d8d8 e3e2", NULL, points1, mate1},
        // Oracle C01: in check from the f10 cannon, the only legal move is f3e2.
        {"2R1acb2/4ak3/4B1n2/n3p4/7p1/3P5/1PP4P1/2N1CK1C1/5A2r/5A3 w - - 1 25", "", "f3e2",
         -SCORE_INFINITE, SCORE_INFINITE},
    };
    static Board b;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        load(&b, cases[i].fen, cases[i].moves);
        SearchResult r = run_depth(&b, 6);
        char mv[MOVE_STR_LEN];
        move_to_uci(r.best, mv);
        if (r.score < cases[i].min_score || r.score > cases[i].max_score ||
            (cases[i].best && strcmp(mv, cases[i].best) != 0))
            fail_msg("end case %zu: bestmove %s score %d", i, mv, r.score);
    }
    // The game already over at the root: no move.
    load(&b, FEN_START, "e2e2 e9e9");
    assert_int_equal(run_depth(&b, 3).best, MOVE_NONE);
}

// Positions where passing loses on the spot: the side to move is behind on points and not in
// check, so the opponent's pass back ends the game by two passes and the points decide; no mate
// is in sight (a depth-10 search scores each within 300 cp). The first is issue 10's position;
// the others are from self-play at 300 nodes (seed 11), where the side to move passed there
// and lost so.
static const char *const PASS_LOSES[] = {
    "1b3a1b1/4a4/1n1k1n1c1/1pp1C1pp1/5p3/9/PP1rBPPP1/2cN3C1/R3K4/1B1A1A1N1 w - - 12 22",
    "1b1akc3/4a4/1c1n5/1pp4pp/3p5/5R3/2PPP1PP1/1C3N1C1/3AK4/r2A3B1 w - - 0 26",
    "1b1a1a1n1/r3k4/3n1c1c1/1pp1b1pp1/3p4r/5R3/PP2P2PP/1C1N1N3/2R1K2C1/1B1A1A1B1 w - - 0 13",
    "2b1ak3/4a4/2n1cn3/5R3/6p2/2p1pp3/PP1r2PP1/2N4C1/3A5/2BK1C1B1 b - - 0 29",
    "5a3/4kc3/6C2/4ppp2/7R1/9/3rN4/9/4A4/4K1B2 b - - 0 91",
    "1nb1akbn1/6r2/1cc2a3/1ppr1ppp1/P3R4/1N1PP1N2/5R1PP/2C1B4/4A3C/2BAK4 w - - 0 29",
    "rb1a2b1r/4ka3/3n1c2n/5p1p1/p2pp2c1/8R/1PP1P1PP1/1C1N1N1C1/R3K4/1B1A1A1B1 w - - 0 14",
    "1b1aka3/8r/1c1n3c1/pp2n1p2/3p3C1/2P1P2P1/3P1B3/1C3N3/R3K4/1NBA1A3 b - - 0 24",
    "3a1ab2/4kc3/4b3R/3n1p3/2n1p4/3p5/1PP1PP3/3CK1Nr1/1C2A4/1B4B2 w - - 0 31",
};

// The limits the pass tests search at: depth 1 and 2, 300, 1000 and 3000 nodes.
static const SearchLimits PASS_LIMITS[] = {
    {.depth = 1}, {.depth = 2}, {.nodes = 300}, {.nodes = 1000}, {.nodes = 3000}};
enum { PASS_LIMITS_N = sizeof PASS_LIMITS / sizeof PASS_LIMITS[0] };

static SearchResult run_limits(const Board *b, const SearchLimits *lim) {
    search_clear(searcher);
    return search_run(searcher, b, lim, NULL, NULL, NULL);
}

static Move pass_of(const Board *b) { return move_make(b->general[b->side], b->general[b->side]); }

// Score of a win on points decided `ply` plies from the root (whatever the margin).
static int points_win(int ply) { return score_win(ply, SCORE_END_POINTS); }

static void test_pass_losing_on_points(void **state) {
    (void)state;
    static Board b, after;
    int n = (int)(sizeof PASS_LOSES / sizeof PASS_LOSES[0]), failures = 0;
    for (int i = 0; i < n; i++) {
        load(&b, PASS_LOSES[i], NULL);
        assert_false(board_in_check(&b));
        assert_int_not_equal(rules_points_leader(&b), b.side);
        // The premise: after the pass, the opponent passes back and wins on points.
        after = b;
        board_make(&after, pass_of(&b));
        SearchResult r = run_depth(&after, 1);
        assert_true(move_is_pass(r.best));
        assert_int_equal(r.score, points_win(1));
        for (int k = 0; k < PASS_LIMITS_N; k++) {
            r = run_limits(&b, &PASS_LIMITS[k]);
            char mv[MOVE_STR_LEN];
            move_to_uci(r.best, mv);
            if ((move_is_pass(r.best) || r.score <= -SCORE_DECISIVE) && ++failures)
                print_error("case %d (%s), depth %d nodes %llu: bestmove %s score %d\n", i,
                            PASS_LOSES[i], PASS_LIMITS[k].depth,
                            (unsigned long long)PASS_LIMITS[k].nodes, mv, r.score);
        }
    }
    assert_int_equal(failures, 0);
}

// After the opponent's pass, the side ahead on points passes back and wins, even where the
// static evaluation says it stands worse (the second case: -267 cp for the side ahead).
static void test_pass_winning_on_points(void **state) {
    (void)state;
    static const char *const CASES[] = {PASS_LOSES[0], PASS_LOSES[5], PASS_LOSES[3]};
    static Board b;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        load(&b, CASES[i], NULL);
        board_make(&b, pass_of(&b));
        assert_int_equal(rules_points_leader(&b), b.side);
        for (int k = 0; k < PASS_LIMITS_N; k++) {
            SearchResult r = run_limits(&b, &PASS_LIMITS[k]);
            char mv[MOVE_STR_LEN];
            move_to_uci(r.best, mv);
            if (!move_is_pass(r.best) || r.score != points_win(1))
                fail_msg("case %zu, depth %d nodes %llu: bestmove %s score %d", i,
                         PASS_LIMITS[k].depth, (unsigned long long)PASS_LIMITS[k].nodes, mv,
                         r.score);
        }
    }
}

// Where every move of the opponent ends the game by the move limit, the value of a move is the
// point count, not the static evaluation. Cho (5 : 4.5 ahead) cannot give check, take or make
// the generals face: at ply 198 every move wins on points two plies later; at ply 197 Han
// loses so three plies later whatever it plays.
static void test_move_limit_by_points(void **state) {
    (void)state;
    static const char *const AT_198 = "3k5/4a4/9/9/9/3P5/9/9/4A4/4K4 w - - 0 100";
    static const char *const AT_197 = "3k5/4a4/9/9/9/3P5/9/9/4A4/4K4 b - - 0 99";
    static Board b;
    load(&b, AT_198, NULL);
    int win = points_win(2);
    for (int k = 0; k < PASS_LIMITS_N; k++) {
        SearchResult r = run_limits(&b, &PASS_LIMITS[k]);
        if (r.score != win)
            fail_msg("ply 198, depth %d nodes %llu: score %d, expected %d", PASS_LIMITS[k].depth,
                     (unsigned long long)PASS_LIMITS[k].nodes, r.score, win);
    }
    load(&b, AT_197, NULL);
    for (int k = 1; k < PASS_LIMITS_N; k++) {
        SearchResult r = run_limits(&b, &PASS_LIMITS[k]);
        if (r.score != -points_win(3))
            fail_msg("ply 197, depth %d nodes %llu: score %d, expected %d", PASS_LIMITS[k].depth,
                     (unsigned long long)PASS_LIMITS[k].nodes, r.score, -points_win(3));
    }
}

// A bikjang stands. Behind on points, Han must break it (any move that leaves the generals
// facing, the pass included, loses at once; here only the chariot's f10e9 and the guard's
// d10e9 break it, and d10e9 then loses to a1a10+, whose one answer e9d10 faces the generals
// again); ahead, it leaves it standing and wins (oracle C02: taking the cannon keeps the
// generals facing).
static void test_bikjang_by_points(void **state) {
    (void)state;
    static Board b;
    load(&b, "3akr3/9/9/9/9/9/9/9/4K4/R1R6 b - - 0 40", NULL);
    for (int k = 0; k < PASS_LIMITS_N; k++) {
        SearchResult r = run_limits(&b, &PASS_LIMITS[k]);
        Board after = b;
        board_make(&after, r.best);
        if (board_state(&after)->facing || r.score <= -SCORE_DECISIVE)
            fail_msg("behind, depth %d nodes %llu: score %d, generals still facing %d",
                     PASS_LIMITS[k].depth, (unsigned long long)PASS_LIMITS[k].nodes, r.score,
                     board_state(&after)->facing);
    }
    load(&b, "rn1a1a1br/4k4/c4n3/bpp2pC1p/1c7/9/1PP1P1PP1/1CN6/4K4/1RBA1ANBR w - - 0 1", "e4d4");
    Move take;
    ErrorInfo err;
    assert_int_equal(move_parse_uci(&b, "f7g7", &take, &err), STATUS_OK);
    for (int k = 0; k < PASS_LIMITS_N; k++) {
        SearchResult r = run_limits(&b, &PASS_LIMITS[k]);
        if (r.best != take || r.score != points_win(1))
            fail_msg("ahead, depth %d nodes %llu: score %d", PASS_LIMITS[k].depth,
                     (unsigned long long)PASS_LIMITS[k].nodes, r.score);
    }
}

// Decided scores rank by distance first (search.h): a loss is a loss whatever its kind, so the
// losing side takes the latest and the winning side the soonest. Han's general on e10 is held
// on rank 10 by the a9 chariot (the soldiers on d4-f4 keep the generals from facing). After
// Cho's pass, Han's pass back loses on points at once (ply 1), any other move is mated by
// b1b10 (ply 2): Han must move and be mated later, not pass (the ranking by kind, any points
// loss above any mate, passed here).
static void test_later_loss_before_points_loss(void **state) {
    (void)state;
    static Board b, after;
    load(&b, "4k4/R8/9/9/9/9/3PPP3/9/9/1R1K5 w - - 0 30", "d1d1");
    assert_false(board_in_check(&b));
    assert_int_not_equal(rules_points_leader(&b), b.side);
    after = b; // the premise: Han's pass ends the game by two passes, lost on points
    board_make(&after, pass_of(&b));
    GameResult gr;
    assert_true(rules_game_over(&after, &gr));
    assert_int_equal(gr.reason, REASON_DOUBLE_PASS);
    assert_int_equal(gr.winner, CHO);
    for (int k = 1; k < PASS_LIMITS_N; k++) {
        SearchResult r = run_limits(&b, &PASS_LIMITS[k]);
        char mv[MOVE_STR_LEN];
        move_to_uci(r.best, mv);
        if (move_is_pass(r.best) || r.score != -score_win(2, SCORE_END_MATE))
            fail_msg("depth %d nodes %llu: bestmove %s score %d, expected mated on ply 2",
                     PASS_LIMITS[k].depth, (unsigned long long)PASS_LIMITS[k].nodes, mv, r.score);
    }
}

// The winning side takes the soonest win, of any kind: after Han's pass, Cho (ahead) wins on
// points by passing back (ply 1) before its mate by a8a9 and b1b10 (ply 3); where it also has
// a mate on ply 1 (the chariot already on a9), the kind breaks the tie: mate first.
static void test_sooner_win_whatever_kind(void **state) {
    (void)state;
    static Board b, after;
    ErrorInfo err;
    Move m;
    load(&b, "4k4/9/R8/9/9/9/3PPP3/9/9/1R1K5 b - - 0 30", "e10e10");
    assert_int_equal(rules_points_leader(&b), b.side);
    after = b;
    assert_int_equal(move_parse_uci(&after, "a8a9", &m, &err), STATUS_OK);
    board_make(&after, m);
    assert_int_equal(run_depth(&after, 3).score, -score_win(2, SCORE_END_MATE)); // the mate
    for (int k = 0; k < PASS_LIMITS_N; k++) {
        SearchResult r = run_limits(&b, &PASS_LIMITS[k]);
        char mv[MOVE_STR_LEN];
        move_to_uci(r.best, mv);
        if (!move_is_pass(r.best) || r.score != points_win(1))
            fail_msg("points first, depth %d nodes %llu: bestmove %s score %d",
                     PASS_LIMITS[k].depth, (unsigned long long)PASS_LIMITS[k].nodes, mv, r.score);
    }
    load(&b, "4k4/R8/9/9/9/9/3PPP3/9/9/1R1K5 b - - 0 30", "e10e10");
    after = b;
    assert_int_equal(move_parse_uci(&after, "b1b10", &m, &err), STATUS_OK);
    board_make(&after, m);
    GameResult gr;
    assert_true(rules_game_over(&after, &gr));
    assert_int_equal(gr.reason, REASON_CHECKMATE); // the mate on ply 1
    for (int k = 0; k < PASS_LIMITS_N; k++) {
        SearchResult r = run_limits(&b, &PASS_LIMITS[k]);
        char mv[MOVE_STR_LEN];
        move_to_uci(r.best, mv);
        if (r.best != m || r.score != score_win(1, SCORE_END_MATE))
            fail_msg("mate on the tie, depth %d nodes %llu: bestmove %s score %d",
                     PASS_LIMITS[k].depth, (unsigned long long)PASS_LIMITS[k].nodes, mv, r.score);
    }
}

// The shortest mate is reported at every depth, though the side being mated is usually ahead
// by its static evaluation: a reverse-futility or null-move cut against a decided beta (the
// mate in 3 already found) used to hide the mate in 2, h4h9 (a self-play position, Cho to
// move; Fairy-Stockfish 11.1: mate 2, h4h9 b2d3 h9e9), so depths 3 to 10 reported mate in 3.
// From depth 5 (the mate's 3 plies and 2 more) on, nothing but a cut can hide it.
static void test_shortest_mate(void **state) {
    (void)state;
    static Board b;
    load(&b, "3k5/c8/9/9/6B2/9/p6R1/3A1C3/1n2A4/5K3 w - - 1 82", NULL);
    for (int depth = 5; depth <= 11; depth++) {
        SearchResult r = run_depth(&b, depth);
        char mv[MOVE_STR_LEN];
        move_to_uci(r.best, mv);
        if (r.score != score_win(3, SCORE_END_MATE))
            fail_msg("depth %d: bestmove %s score %d, expected mate in 2 (%d)", depth, mv, r.score,
                     score_win(3, SCORE_END_MATE));
    }
}

static void test_node_limit_exact(void **state) {
    (void)state;
    static Board b;
    load(&b, FEN_START, "c4c5 g7g6");
    SearchLimits lim = {.nodes = 12345};
    for (int rep = 0; rep < 2; rep++) {
        search_clear(searcher);
        SearchResult r1 = search_run(searcher, &b, &lim, NULL, NULL, NULL);
        search_clear(searcher);
        SearchResult r2 = search_run(searcher, &b, &lim, NULL, NULL, NULL);
        assert_int_equal(r1.nodes, lim.nodes);
        assert_int_equal(r2.nodes, lim.nodes);
        assert_int_equal(r1.best, r2.best);
        assert_int_equal(r1.score, r2.score);
        lim.nodes = 1000;
    }
}

// A node limit below depth 1's nodes does not cut it (the limits are armed by the first completed
// iteration, as in Stockfish): the search stops at the node after depth 1 and plays its move.
// Han's generals face Cho's with a piece captured, so the pass and e10e9 lose at once by
// bikjang on points, and d10e9 loses to a1a10+ (its one answer e9d10 faces the generals again);
// f10e9 holds. Cut before depth 1 ended, the search played the pass up to 37 nodes and d10e9 up
// to 196, each the best root move it had finished.
static void test_limit_after_depth_one(void **state) {
    (void)state;
    static const char *const FENS[] = {"3akr3/9/9/9/9/9/9/9/4K4/R1R6 b - - 0 40", FEN_START};
    static Board b;
    for (int f = 0; f < 2; f++) {
        load(&b, FENS[f], NULL);
        SearchResult d1 = run_depth(&b, 1);
        assert_true(d1.nodes > 1);
        for (uint64_t n = 1; n <= d1.nodes + 2; n++) {
            SearchLimits lim = {.nodes = n};
            SearchResult r = run_limits(&b, &lim);
            if (r.depth < 1 || r.best != d1.best || r.score != d1.score ||
                r.nodes != (n > d1.nodes ? n : d1.nodes))
                fail_msg("%s, go nodes %llu: depth %d score %d nodes %llu; depth 1: score %d "
                         "nodes %llu",
                         FENS[f], (unsigned long long)n, r.depth, r.score,
                         (unsigned long long)r.nodes, d1.score, (unsigned long long)d1.nodes);
        }
    }
    load(&b, FENS[0], NULL);
    Board after = b;
    board_make(&after, run_depth(&b, 1).best);
    assert_false(board_state(&after)->facing);
}

// The iterations of a search (search_run's info callback): depth, nodes so far and best move.
typedef struct Iterations {
    int n, depth[MAX_PLY];
    uint64_t nodes[MAX_PLY];
    Move best[MAX_PLY];
} Iterations;

static void on_iteration(const SearchInfo *info, void *arg) {
    Iterations *it = arg;
    if (info->kind != SEARCH_INFO_LINE || info->multipv != 1 || it->n >= MAX_PLY)
        return;
    it->depth[it->n] = info->depth;
    it->nodes[it->n] = info->nodes;
    it->best[it->n++] = info->pv[0];
}

// An iteration cut by the node limit keeps the root moves it searched to the end: where
// iteration d finds a best move B other than iteration d - 1's A, a search stopped in iteration
// d plays A until B is searched and found better, and B from then on (the last completed depth
// stays d - 1). Without it (the iteration thrown away) every such search played A. The node
// limit cuts a search at a fixed node, and a single-threaded search after search_clear is the
// same up to it, so each limit stops the same search at a later point.
static void test_cut_iteration(void **state) {
    (void)state;
    static const char *fens[] = {
        "r1ba1abnr/4k4/1cn4c1/p1p1p1pp1/9/9/P1P1P1P1P/2N1C2C1/4K4/R1BA1ABNR w - - 2 3",
        "rbna1ab1r/4k4/1c4nc1/p1p1p1pp1/9/9/P1P1P1P1P/1CN3NC1/4K4/R1BA1AB1R w - - 0 3",
        "rnba1ab1r/4k4/1c4nc1/1pp1p1p1p/9/4P4/P1P3P1P/1C4NC1/4K4/RBNA1AB1R w - - 0 3",
        // Formation starts of data/bench.fen whose best move changes after depth 5 with
        // issue 56's tt_eval and see_prune on (the three above then keep theirs).
        "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
        "rbna1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
        "rbna1anbr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RBNA1ANBR w - - 0 1",
        "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RBNA1ABNR w - - 0 1",
        "rbna1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RBNA1ABNR w - - 0 1",
    };
    static Board b;
    int changes = 0, cut_plays_new = 0;
    for (size_t f = 0; f < sizeof fens / sizeof *fens; f++) {
        load(&b, fens[f], NULL);
        Iterations it = {0};
        SearchLimits full = {.depth = 10};
        search_clear(searcher);
        search_run(searcher, &b, &full, on_iteration, &it, NULL);
        int k = it.n - 1;
        while (k > 0 && (it.best[k] == it.best[k - 1] || it.depth[k] < 5))
            k--;
        if (k == 0)
            continue;
        changes++;
        Move a = it.best[k - 1], nb = it.best[k];
        bool seen_new = false;
        // 31 cuts spread over iteration k, and one at its last node but one: a search can
        // confirm its new best move in the last few nodes of the iteration (with issue 56's
        // bundle A on, within 4 and 300 of its end in two of these positions).
        for (int step = 1; step <= 32; step++) {
            SearchLimits lim = {.nodes = step < 32
                                             ? it.nodes[k - 1] + (it.nodes[k] - it.nodes[k - 1]) *
                                                                     (uint64_t)step / 32
                                             : it.nodes[k] - 1};
            search_clear(searcher);
            SearchResult r = search_run(searcher, &b, &lim, NULL, NULL, NULL);
            assert_int_equal(r.depth, it.depth[k - 1]);
            if (seen_new)
                assert_int_equal(r.best, nb);
            else
                assert_true(movegen_is_legal(&b, r.best));
            seen_new |= r.best == nb;
            (void)a;
        }
        cut_plays_new += seen_new;
    }
    print_message("%d best-move changes between iterations; the cut iteration's new best played "
                  "in %d\n",
                  changes, cut_plays_new);
    assert_true(changes >= 2);
    assert_int_equal(cut_plays_new, changes);
}

// The techniques behind the search parameters that are off by default (continuation history,
// capture history, singular extensions, correction history, ProbCut, and issue 56's bundles: the
// TT's bound over the eval, the net's scale of the margins, every quiet check in quiescence; the
// history bonus, PV nodes' history, improving at the root, the counter-move table, the prior
// counter-move's bonus, the TT-PV flag, cut-node and capture reductions; the spite-check
// extension; repetition ends kept out of the TT; razoring and SEE pruning; tt_eval and see_prune,
// on by default since their SPRTs, turned off; net_scale_pct, which only a net's search sees, in
// test_nnue_search), each alone and all together, each changing the search's nodes, and the
// switches off by default all set off the default's: on the first bench positions of both variants
// a legal bestmove, the same search twice after search_clear (the node count is reproducible), and
// the mate in 2 below still found at every depth.
static void test_depth_techniques(void **state) {
    (void)state;
    static const struct {
        const char *name, *set; // set: "name=value ..." of search_params.def
    } configs[] = {
        {"default", ""},
        {"the new switches off", "spite_ext=0 countermove=0 prior_cm_bonus=0 rep_tt=0 ttpv=0 "
                                 "lmr_cut=0 lmr_captures=0 razor=0 qs_checks_all=0"},
        {"ch_on", "ch_on=1"},
        {"caph_on", "caph_on=1"},
        {"se_depth 6", "se_depth=6"},
        {"corr_on", "corr_on=1"},
        {"pc_depth 3", "pc_depth=3"},
        {"tt_eval off", "tt_eval=0"},
        {"qs_checks_all", "qs_checks_all=1"},
        {"bundle A", "tt_eval=1 net_scale_pct=145 qs_checks_all=1"},
        {"hist_bonus", "hist_bonus=1"},
        {"hist_pv", "hist_pv=1"},
        {"improving_root", "improving_root=1"},
        {"countermove", "countermove=1"},
        {"prior_cm_bonus", "prior_cm_bonus=1"},
        {"ttpv", "ttpv=1"},
        {"lmr_cut", "lmr_cut=1"},
        {"lmr_captures", "lmr_captures=1"},
        {"bundle B", "ch_on=1 hist_bonus=1 hist_pv=1 improving_root=1 countermove=1 "
                     "prior_cm_bonus=1 ttpv=1 lmr_cut=1 lmr_captures=1"},
        {"spite_ext", "spite_ext=1"},
        {"bundle C", "spite_ext=1 qs_checks_all=1"},
        {"rep_tt", "rep_tt=1"},
        {"razor", "razor=1"},
        {"see_prune off", "see_prune=0"},
        {"bundle D", "razor=1 see_prune=1"},
        {"all", "ch_on=1 caph_on=1 se_depth=4 corr_on=1 pc_depth=3 tt_eval=1 net_scale_pct=145 "
                "qs_checks_all=1 hist_bonus=1 hist_pv=1 improving_root=1 countermove=1 "
                "prior_cm_bonus=1 ttpv=1 lmr_cut=1 lmr_captures=1 spite_ext=1 rep_tt=1 razor=1 "
                "see_prune=1"}};
    static Board b;
    uint64_t default_nodes = 0;
    for (size_t c = 0; c < sizeof configs / sizeof *configs; c++) {
        uint64_t nodes = 0;
        SearchParams p = SEARCH_PARAMS_DEFAULT;
        char set[512];
        snprintf(set, sizeof set, "%s", configs[c].set);
        for (char *tok = strtok(set, " "); tok; tok = strtok(NULL, " ")) {
            char *eq = strchr(tok, '=');
            assert_non_null(eq);
            *eq = 0;
            ErrorInfo err;
            assert_int_equal(search_params_set(&p, search_param_find(tok), eq + 1, &err),
                             STATUS_OK);
        }
        search_set_params(searcher, &p);
        for (int vi = 0; vi < 2; vi++) {
            const Variant *v = vi ? &VARIANT_XIANGQI : &VARIANT_JANGGI;
            const char *text = bench_text(v);
            for (int k = 0; k < 5 && *text; k++) {
                const char *eol = strchr(text, '\n');
                size_t len = eol ? (size_t)(eol - text) : strlen(text);
                char line[256] = {0};
                memcpy(line, text, len < sizeof line - 1 ? len : sizeof line - 1);
                text = eol ? eol + 1 : text + len;
                if (!line[0] || line[0] == '#') {
                    k--;
                    continue;
                }
                assert_int_equal(fen_parse_variant(&b, v, line, NULL), STATUS_OK);
                SearchLimits lim = {.depth = 7};
                search_clear(searcher);
                SearchResult r1 = search_run(searcher, &b, &lim, NULL, NULL, NULL);
                search_clear(searcher);
                SearchResult r2 = search_run(searcher, &b, &lim, NULL, NULL, NULL);
                if (!movegen_is_pseudo_legal(&b, r1.best) || !movegen_is_legal(&b, r1.best) ||
                    r1.nodes != r2.nodes || r1.best != r2.best)
                    fail_msg("%s, %s: %s: not a reproducible legal answer", configs[c].name,
                             v->name, line);
                nodes += r1.nodes;
            }
        }
        // Each switch changes the search (none is wired to nothing); all off, none does.
        if (c == 0)
            default_nodes = nodes;
        else if (c == 1 && nodes != default_nodes)
            fail_msg("%s: %llu nodes, the default %llu", configs[c].name, (unsigned long long)nodes,
                     (unsigned long long)default_nodes);
        else if (c > 1 && nodes == default_nodes)
            fail_msg("%s: the same %llu nodes as the default", configs[c].name,
                     (unsigned long long)nodes);
        load(&b, "3k5/c8/9/9/6B2/9/p6R1/3A1C3/1n2A4/5K3 w - - 1 82", NULL);
        for (int depth = 5; depth <= 8; depth++)
            if (run_depth(&b, depth).score != score_win(3, SCORE_END_MATE))
                fail_msg("%s: depth %d: the mate in 2 is not found", configs[c].name, depth);
    }
    search_set_params(searcher, &SEARCH_PARAMS_DEFAULT);
}

// stop_decided (issue 56, row 8): on a clock, a game end found within the depth ends the search
// at 2 (any end), at 1 only a win (the loss, a mate in 1 against, is searched on: the mate-distance
// bounds make the deeper iterations cheap, up to the last depth, MAX_PLY - 1), at 0 neither.
// Depths, not times: the 60 s of movetime are never reached.
static void test_stop_decided(void **state) {
    (void)state;
    static Board win, loss;
    load(&win, "3k5/c8/9/9/6B2/9/p6R1/3A1C3/1n2A4/5K3 w - - 1 82", NULL);
    load(&loss, "3k5/c8/9/9/6B2/9/p6R1/3A1C3/1n2A4/5K3 w - - 1 82", "h4e4");
    SearchLimits lim = {.movetime = 60000};
    for (int sd = 0; sd <= 2; sd++) {
        SearchParams p = SEARCH_PARAMS_DEFAULT;
        p.stop_decided = sd;
        search_set_params(searcher, &p);
        search_clear(searcher);
        SearchResult w = search_run(searcher, &win, &lim, NULL, NULL, NULL);
        search_clear(searcher);
        SearchResult l = search_run(searcher, &loss, &lim, NULL, NULL, NULL);
        assert_int_equal(w.score, score_win(3, SCORE_END_MATE));
        assert_int_equal(l.score, -score_win(2, SCORE_END_MATE));
        bool w_stopped = w.depth < MAX_PLY - 1, l_stopped = l.depth < MAX_PLY - 1;
        if (w_stopped != (sd >= 1) || l_stopped != (sd == 2))
            fail_msg("stop_decided %d: the win stopped at depth %d, the loss at %d", sd, w.depth,
                     l.depth);
    }
    search_set_params(searcher, &SEARCH_PARAMS_DEFAULT);
}

// nmp_guard (issue 56, row 10): in xiangqi a side with no chariot, cannon or horse gives no null
// move (a different tree from the unguarded one, the same answer here: three soldiers win); in
// janggi, which can always pass, the guard changes nothing, node for node.
static void test_nmp_guard(void **state) {
    (void)state;
    static Board x, j;
    assert_int_equal(
        fen_parse_variant(&x, &VARIANT_XIANGQI, "4k4/9/9/9/9/2P1P1P2/9/9/4A4/4KA3 w - - 0 1", NULL),
        STATUS_OK);
    load(&j, "3k5/4a4/9/9/9/3P5/9/9/4A4/4K4 w - - 0 60", NULL);
    SearchResult r[2][2]; // [variant][guard]
    for (int g = 0; g < 2; g++) {
        SearchParams p = SEARCH_PARAMS_DEFAULT;
        p.nmp_guard = g;
        search_set_params(searcher, &p);
        r[0][g] = run_depth(&x, 10);
        r[1][g] = run_depth(&j, 10);
    }
    search_set_params(searcher, &SEARCH_PARAMS_DEFAULT);
    assert_int_not_equal(r[0][0].nodes, r[0][1].nodes);
    assert_true(r[0][0].score > 0 && r[0][1].score > 0);
    assert_int_equal(r[1][0].nodes, r[1][1].nodes);
    assert_int_equal(r[1][0].best, r[1][1].best);
}

// The lines of the last iteration a search reported (info callback).
typedef struct Lines {
    int depth, n;
    Move first[SEARCH_MULTIPV_MAX];
    Score score[SEARCH_MULTIPV_MAX];
} Lines;

static void keep_lines(const SearchInfo *info, void *arg) {
    Lines *l = arg;
    if (info->kind != SEARCH_INFO_LINE)
        return;
    if (info->depth != l->depth)
        l->depth = info->depth, l->n = 0;
    l->first[l->n] = info->pv[0];
    l->score[l->n++] = info->score;
}

// With MultiPV every line of depth 1 is searched before a limit is armed (Stockfish counts a
// depth completed once all its lines are): `go nodes 10` with 5 lines reports 5 at depth 1.
static void test_limit_after_depth_one_lines(void **state) {
    (void)state;
    static Board b;
    load(&b, FEN_START, NULL);
    for (int lines = 2; lines <= 5; lines += 3) {
        SearchLimits lim = {.nodes = 10, .multipv = lines};
        Lines l = {0};
        search_clear(searcher);
        search_run(searcher, &b, &lim, keep_lines, &l, NULL);
        if (l.depth != 1 || l.n != lines)
            fail_msg("MultiPV %d, go nodes 10: %d lines at depth %d", lines, l.n, l.depth);
    }
}

// Skill Level: below full strength the move played is one of the last iteration's lines, never
// more than the level's loss below the best (250 cp at level 0, 175 at 6), and the choice
// varies with the seed; the depth is capped at 1 + level; at full strength (or without
// limit_skill) the search is the plain one, node for node.
static void test_skill_level(void **state) {
    (void)state;
    static Board b;
    load(&b, FEN_START, "c4c5 g7g6 b1c3");
    for (int level = 0; level <= 6; level += 6) {
        int distinct = 0;
        Move seen[64];
        for (uint64_t seed = 1; seed <= 16; seed++) {
            SearchLimits lim = {.depth = 12,
                                .multipv = 6,
                                .limit_skill = true,
                                .skill = level,
                                .skill_seed = seed * 7919};
            Lines lines = {0};
            search_clear(searcher);
            SearchResult r = search_run(searcher, &b, &lim, keep_lines, &lines, NULL);
            assert_true(r.depth <= 1 + level);
            int k = 0;
            while (k < lines.n && lines.first[k] != r.best)
                k++;
            if (k == lines.n)
                fail_msg("level %d: the move played is not one of the lines", level);
            int loss = lines.score[0] - lines.score[k];
            if (loss > SEARCH_SKILL_LOSS_CP * (SEARCH_SKILL_MAX - level) / SEARCH_SKILL_MAX)
                fail_msg("level %d: a line %d cp below the best was played", level, loss);
            int d = 0;
            while (d < distinct && seen[d] != r.best)
                d++;
            if (d == distinct)
                seen[distinct++] = r.best;
        }
        assert_true(distinct >= 2);
    }
    SearchLimits full = {.depth = 8, .limit_skill = true, .skill = SEARCH_SKILL_MAX},
                 plain = {.depth = 8};
    search_clear(searcher);
    SearchResult a = search_run(searcher, &b, &full, NULL, NULL, NULL);
    search_clear(searcher);
    SearchResult p = search_run(searcher, &b, &plain, NULL, NULL, NULL);
    assert_int_equal(a.nodes, p.nodes);
    assert_int_equal(a.best, p.best);
}

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void test_legal_bestmoves(void **state) {
    (void)state;
    static Board b;
    int searched = 0;
    for (int g = 0; g < 32; g++) {
        formation_setup(&b, pairing_cho(g % PAIRING_NB), pairing_han(g % PAIRING_NB));
        search_clear(searcher);
        for (int ply = 0; ply < 200; ply++) {
            GameResult gr;
            MoveList l;
            if (rules_game_over(&b, &gr))
                break;
            movegen_legal(&b, &l);
            if (ply % 7 == 3) {
                SearchLimits lim = {.nodes = 300 + rng() % 700};
                SearchResult r = search_run(searcher, &b, &lim, NULL, NULL, NULL);
                bool found = false;
                for (int i = 0; i < l.count; i++)
                    found |= l.moves[i] == r.best;
                assert_true(found);
                searched++;
            }
            board_make(&b, l.moves[rng() % (uint64_t)l.count]);
        }
    }
    print_message("%d random positions searched, every bestmove legal\n", searched);
    assert_true(searched > 300);
}

// search_quiet_pv depends on the position only: after a search of the same position has
// filled the TT, killers and history, it gives the line a searcher that never searched gives;
// every move of the line is legal and leaves the game in play.
static void test_quiet_pv_deterministic(void **state) {
    (void)state;
    static Board b, w;
    Searcher *clean = search_create(1);
    assert_non_null(clean);
    int checked = 0, lines = 0;
    for (int g = 0; g < 16; g++) {
        formation_setup(&b, pairing_cho(g % PAIRING_NB), pairing_han(g % PAIRING_NB));
        search_clear(searcher);
        for (int ply = 0; ply < 160; ply++) {
            GameResult gr;
            MoveList l;
            if (rules_game_over(&b, &gr))
                break;
            movegen_legal(&b, &l);
            if (ply % 5 == 2) {
                SearchLimits lim = {.nodes = 2000};
                search_run(searcher, &b, &lim, NULL, NULL, NULL);
                Move a[8], c[8];
                int na = search_quiet_pv(searcher, &b, 8, a), nc = search_quiet_pv(clean, &b, 8, c);
                assert_int_equal(na, nc);
                assert_memory_equal(a, c, sizeof *a * (size_t)na);
                w = b;
                for (int i = 0; i < na; i++) {
                    assert_false(move_is_pass(a[i]));
                    assert_true(movegen_is_pseudo_legal(&w, a[i]) && movegen_is_legal(&w, a[i]));
                    board_make(&w, a[i]);
                    assert_false(rules_game_over(&w, &gr));
                }
                checked++, lines += na > 0;
            }
            board_make(&b, l.moves[rng() % (uint64_t)l.count]);
        }
    }
    search_destroy(clean);
    print_message("%d positions, %d with a quiescence line: the same after a search\n", checked,
                  lines);
    assert_true(lines > 50);
}

// The line stops before a pass or a move that ends the game, where the quiescence search's own
// line has one: after Cho's pass, Han's pass back wins on points; at ply 199 every move ends
// the game by the move limit, and taking the soldier wins by most.
static void test_quiet_pv_game_ends(void **state) {
    (void)state;
    static Board b;
    Move pv[8];
    load(&b, PASS_LOSES[0], NULL);
    board_make(&b, pass_of(&b));
    assert_int_equal(search_quiet_pv(searcher, &b, 8, pv), 0);
    assert_true(move_is_pass(run_depth(&b, 1).best));
    load(&b, "3k5/4a4/9/9/9/r2P5/9/9/4A4/4K4 b - - 0 100", NULL);
    assert_int_equal(board_game_ply(&b), 199);
    assert_int_equal(search_quiet_pv(searcher, &b, 8, pv), 0);
    // Without the game end the capture is the line (at ply 167: nearer the limit Han's lead of
    // 12.5 points saturates the evaluation's bound before and after the capture).
    load(&b, "3k5/4a4/9/9/9/r2P5/9/9/4A4/4K4 b - - 0 84", NULL);
    assert_int_equal(search_quiet_pv(searcher, &b, 8, pv), 1);
    assert_int_equal(search_quiet_pv(searcher, &b, 0, pv), 0);
}

// The replies at ply 1 (SearchLimits.trace_replies): only the main thread's ply-1 moves, each a
// legal reply to the root move searched (here the only one, by searchmoves), numbered from 1 at
// each node; a pruned reply is not searched, a searched one at most its node's depth - 1 plus
// an extension; and asking for them changes nothing in the search (nodes and move alike).
typedef struct Replies {
    Board after; // the position after the root move
    int count, pruned, reduced;
    bool bad;
} Replies;

static void on_reply(const SearchInfo *info, void *arg) {
    Replies *r = arg;
    if (info->kind != SEARCH_INFO_REPLY)
        return;
    MoveList l;
    movegen_legal(&r->after, &l);
    bool legal = false;
    for (int i = 0; i < l.count; i++)
        legal |= l.moves[i] == info->currmove;
    r->bad |= !legal || info->currmovenumber < 1 || info->currmovenumber > l.count ||
              info->node_depth < 0 || info->reduction < 0;
    r->bad |= !info->pruned && (info->searched_depth > info->node_depth ||
                                info->searched_depth + info->reduction > info->node_depth + 1);
    r->count++;
    r->pruned += info->pruned;
    r->reduced += info->reduction > 0;
}

static void test_trace_replies(void **state) {
    (void)state;
    static Board b;
    load(&b, VARIANT_JANGGI.start_fen, NULL);
    Move root;
    ErrorInfo err;
    assert_int_equal(move_parse_uci(&b, "b1c3", &root, &err), STATUS_OK);
    static Replies r;
    r.after = b;
    board_make(&r.after, root);
    SearchLimits lim = {.depth = 7, .nsearchmoves = 1, .searchmoves = {root}};
    search_clear(searcher);
    SearchResult plain = search_run(searcher, &b, &lim, NULL, NULL, NULL);
    lim.trace_replies = true;
    search_clear(searcher);
    SearchResult traced = search_run(searcher, &b, &lim, on_reply, &r, NULL);
    assert_int_equal(plain.nodes, traced.nodes);
    assert_int_equal(plain.best, traced.best);
    assert_false(r.bad);
    assert_true(r.count > 50 && r.reduced > 0);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mates),
        cmocka_unit_test(test_trace_replies),
        cmocka_unit_test(test_game_ends),
        cmocka_unit_test(test_pass_losing_on_points),
        cmocka_unit_test(test_pass_winning_on_points),
        cmocka_unit_test(test_move_limit_by_points),
        cmocka_unit_test(test_bikjang_by_points),
        cmocka_unit_test(test_later_loss_before_points_loss),
        cmocka_unit_test(test_sooner_win_whatever_kind),
        cmocka_unit_test(test_shortest_mate),
        cmocka_unit_test(test_node_limit_exact),
        cmocka_unit_test(test_limit_after_depth_one),
        cmocka_unit_test(test_limit_after_depth_one_lines),
        cmocka_unit_test(test_cut_iteration),
        cmocka_unit_test(test_legal_bestmoves),
        cmocka_unit_test(test_quiet_pv_deterministic),
        cmocka_unit_test(test_quiet_pv_game_ends),
        cmocka_unit_test(test_qs_check_mates),
        cmocka_unit_test(test_depth_techniques),
        cmocka_unit_test(test_stop_decided),
        cmocka_unit_test(test_nmp_guard),
        cmocka_unit_test(test_skill_level),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
