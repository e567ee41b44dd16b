// SPDX-License-Identifier: MIT
// Evaluation: trace parity (eval == linear rebuild from trace and weights) on thousands of
// positions from random games of all 16 formation pairings, mirror symmetry, and the header
// printer (byte-stable, parses back to the compiled weights, same layout as the header).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "board.h"
#include "engine.h"
#include "eval_header.h"
#include "fen.h"
#include "janggi/eval_layout.h"
#include "janggi/formation.h"
#include "movegen.h"
#include "rules.h"
#include "variant.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

// Plays one random game from a pairing and calls fn on every position reached.
static int random_game(Board *b, int pairing, int max_plies, void (*fn)(Board *, void *),
                       void *arg) {
    formation_setup(b, pairing_cho(pairing), pairing_han(pairing));
    int n = 0;
    for (int ply = 0; ply < max_plies; ply++) {
        GameResult gr;
        MoveList l;
        if (rules_game_over(b, &gr))
            break;
        movegen_legal(b, &l);
        Move m = l.moves[rng() % (uint64_t)l.count];
        if (move_is_pass(m) && l.count > 1 && rng() % 4)
            m = l.moves[0]; // fewer passes: longer games
        board_make(b, m);
        fn(b, arg);
        n++;
    }
    return n;
}

typedef struct Stats {
    int positions, late, danger;
} Stats;

// True when one side's danger index is positive: the squared term counts.
static bool danger_counts(const EvalTrace *t) {
    for (Side s = CHO; s <= HAN; s++) {
        int64_t mg = 0;
        for (int i = EVAL_SPEC_JANGGI.danger_begin; i < EVAL_SPEC_JANGGI.danger_end; i++)
            mg += (int64_t)EVAL_WEIGHTS_FLAT[i].mg * t->count[i][s];
        if (eval_danger(mg) > 0)
            return true;
    }
    return false;
}

static void check_parity(Board *b, void *arg) {
    static EvalTrace trace;
    Stats *st = arg;
    Score e = eval_evaluate(b);
    Score t = eval_trace(b, &trace);
    assert_int_equal(e, t);
    assert_int_equal(e, eval_rebuild(&EVAL_SPEC_JANGGI, &trace, EVAL_WEIGHTS_FLAT, b->side));
    assert_true(trace.phase >= 0 && trace.phase <= EVAL_PHASE_MAX);
    st->positions++;
    st->late += trace.count[EVAL_OFF_POINTS_LATE][CHO] != 0;
    st->danger += danger_counts(&trace);
}

static void test_trace_parity(void **state) {
    (void)state;
    static Board b;
    Stats st = {0, 0, 0};
    for (int g = 0; g < 64; g++)
        random_game(&b, g % PAIRING_NB, 120, check_parity, &st);
    // Games that start late in the 200 plies exercise POINTS_LATE.
    for (int g = 0; g < 16; g++) {
        formation_setup(&b, pairing_cho(g), pairing_han(g));
        b.start_ply = 150;
        for (int ply = 0; ply < 50; ply++) {
            GameResult gr;
            MoveList l;
            if (rules_game_over(&b, &gr))
                break;
            movegen_legal(&b, &l);
            board_make(&b, l.moves[rng() % (uint64_t)l.count]);
            check_parity(&b, &st);
        }
    }
    print_message("trace parity on %d positions (%d with POINTS_LATE, %d with a danger penalty)\n",
                  st.positions, st.late, st.danger);
    assert_true(st.positions >= 3000);
    assert_true(st.late > 100);
    assert_true(st.danger > 100);
}

// The position mirrored top-bottom with colours and the side to move swapped.
static void mirror(const Board *b, Board *m) {
    board_clear(m);
    for (Square sq = 0; sq < SQUARE_NB; sq++) {
        Piece pc = board_at(b, sq);
        if (pc != EMPTY)
            board_put(m, piece_make(!piece_side(pc), piece_kind(pc)),
                      square_make(square_file(sq), RANK_NB - 1 - square_rank(sq)));
    }
    board_finish_setup(m, !b->side, board_game_ply(b), 0);
}

// Weights without the term that models Han's 1.5-point bonus (POINTS_LATE).
static EvalWeight symmetric_weights[EVAL_PARAM_NB];

static void check_mirror(Board *b, void *arg) {
    static Board m;
    static EvalTrace tb, tm;
    Stats *st = arg;
    mirror(b, &m);
    eval_trace(b, &tb);
    eval_trace(&m, &tm);
    assert_int_equal(tb.phase, tm.phase);
    assert_int_equal(eval_rebuild(&EVAL_SPEC_JANGGI, &tb, symmetric_weights, b->side),
                     eval_rebuild(&EVAL_SPEC_JANGGI, &tm, symmetric_weights, m.side));
    if (board_game_ply(b) <= GAME_PLY_LIMIT - EVAL_POINTS_WINDOW)
        assert_int_equal(eval_evaluate(b), eval_evaluate(&m));
    st->positions++;
}

static void test_mirror_symmetry(void **state) {
    (void)state;
    static Board b;
    Stats st = {0, 0, 0};
    memcpy(symmetric_weights, EVAL_WEIGHTS_FLAT, sizeof symmetric_weights);
    symmetric_weights[EVAL_OFF_POINTS_LATE] = (EvalWeight){0, 0};
    for (int g = 0; g < 32; g++)
        random_game(&b, g % PAIRING_NB, 120, check_mirror, &st);
    assert_true(st.positions >= 1000);
}

// The point rule decides a game at the move limit whatever is left on the board, so the points
// term near the limit (what a net gets added, eval_ply_term) rates a lead on points as good and
// a deficit as bad at every phase: positions of random games' first 60 plies (much material),
// their move numbers set to put them 1 to 39 plies before the limit. (It pointed the other way
// with much material while the tuner fitted its middlegame weight: -26 against +37.)
typedef struct LeadStats {
    int checked;
} LeadStats;

static void check_points_lead(Board *b, void *arg) {
    LeadStats *st = arg;
    char fen[FEN_BUFFER], late_fen[FEN_BUFFER + 16];
    fen_write(b, fen, sizeof fen);
    char *last = strrchr(fen, ' ');
    assert_non_null(last);
    *last = '\0';
    static Board late;
    for (int to_limit = 1; to_limit < EVAL_POINTS_WINDOW; to_limit += 7) {
        int ply = b->variant->ply_limit - to_limit;
        if ((ply & 1) != (b->side == HAN)) // the side to move decides the ply's parity
            ply--;
        snprintf(late_fen, sizeof late_fen, "%s %d", fen, ply / 2 + 1);
        assert_int_equal(fen_parse(&late, late_fen, NULL), STATUS_OK);
        assert_int_equal(board_game_ply(&late), ply);
        int lead = rules_points_half(&late, late.side) - rules_points_half(&late, !late.side);
        int term = eval_ply_term(&late);
        if (lead > 0)
            assert_true(term > 0);
        else if (lead < 0)
            assert_true(term < 0);
        else
            assert_int_equal(term, 0);
        st->checked++;
    }
}

static void test_points_term_follows_the_lead(void **state) {
    (void)state;
    static Board b;
    LeadStats st = {0};
    for (int g = 0; g < 32; g++)
        random_game(&b, g % PAIRING_NB, 60, check_points_lead, &st);
    assert_true(st.checked >= 5000);
}

static void test_start_position(void **state) {
    (void)state;
    static Board b;
    assert_int_equal(fen_parse(&b, FEN_START, NULL), STATUS_OK);
    Score e = eval_evaluate(&b);
    assert_true(e > -100 && e < 100);
    // Cho without a chariot is clearly worse, from both points of view.
    assert_int_equal(
        fen_parse(&b, "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/1NBA1ABNR w", NULL),
        STATUS_OK);
    assert_true(eval_evaluate(&b) < -700);
    assert_int_equal(
        fen_parse(&b, "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/1NBA1ABNR b", NULL),
        STATUS_OK);
    assert_true(eval_evaluate(&b) > 700);
}

static void print_header(const EvalWeight *w, char **buf, size_t *len) {
    FILE *f = open_memstream(buf, len);
    EvalBannerInput in[2] = {{"runs/a.h5", "sha256:00ff"}, {"runs/b.h5", "sha256:ff00"}};
    EvalBanner bn = {"test", "a note", in, 2, "--skip-plies 8", 1.25, 10, 0.1, 0.2};
    assert_int_equal(eval_header_write(f, &EVAL_SPEC_JANGGI, &bn, w, NULL), STATUS_OK);
    fclose(f);
}

static void test_header_printer(void **state) {
    (void)state;
    size_t n1, n2;
    char *h1 = NULL, *h2 = NULL;
    print_header(EVAL_WEIGHTS_FLAT, &h1, &n1);
    print_header(EVAL_WEIGHTS_FLAT, &h2, &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(h1, h2, n1);
    assert_non_null(strstr(h1, "DO NOT EDIT"));
    assert_non_null(strstr(h1, "runs/b.h5 sha256:ff00"));
    // clang-format leaves the whole file alone, banner included: reflowed, its input lines
    // (path and hash, past 100 columns) ran into one another.
    static const char head[] = "// SPDX-License-Identifier: MIT\n// clang-format off\n";
    static const char tail[] = "// clang-format on\n";
    assert_memory_equal(h1, head, sizeof head - 1);
    assert_string_equal(h1 + n1 - (sizeof tail - 1), tail);
    // Parses back: the S(mg, eg) values in order are the flat vector.
    int count = 0;
    for (const char *p = strstr(h1, "EVAL_WEIGHTS_DATA"); (p = strstr(p, "S(")); p += 2) {
        int mg, eg;
        assert_int_equal(sscanf(p, "S(%d, %d)", &mg, &eg), 2);
        assert_true(count < EVAL_PARAM_NB);
        assert_int_equal(mg, EVAL_WEIGHTS_FLAT[count].mg);
        assert_int_equal(eg, EVAL_WEIGHTS_FLAT[count].eg);
        count++;
    }
    assert_int_equal(count, EVAL_PARAM_NB);
#ifndef HANSU_CUSTOM_WEIGHTS
    // engine/janggi/eval_weights.h is this printer's output: same text from "#pragma once" on.
    FILE *f = fopen(HANSU_SOURCE_DIR "/engine/janggi/eval_weights.h", "r");
    assert_non_null(f);
    static char file[1 << 20];
    size_t fl = fread(file, 1, sizeof file - 1, f);
    fclose(f);
    file[fl] = '\0';
    assert_memory_equal(file, head, sizeof head - 1);
    const char *a = strstr(file, "#pragma once"), *b = strstr(h1, "#pragma once");
    assert_non_null(a);
    assert_string_equal(a, b);
#endif
    free(h1);
    free(h2);
}

static void test_term_list(void **state) {
    (void)state;
    int off = 0;
    for (int t = 0; t < EVAL_TERM_NB; t++) {
        assert_int_equal(EVAL_TERMS[t].offset, off);
        off += EVAL_TERMS[t].size;
    }
    assert_int_equal(off, EVAL_PARAM_NB);
}

// Counts of the safety terms on hand-built positions (Han's general on e9, Cho's on e2).
static void test_safety_counts(void **state) {
    (void)state;
    static Board b;
    static EvalTrace t;
    // Cho's chariot on e4, Han's horse on e7 between it and Han's general: the horse is
    // pinned and hangs (no Han piece attacks e7), and taking it checks from a point Han does
    // not attack: a safe chariot check. The chariot attacks no ring point (the horse blocks).
    assert_int_equal(fen_parse(&b, "9/4k4/9/4n4/9/9/4R4/9/4K4/9 w", NULL), STATUS_OK);
    eval_trace(&b, &t);
    assert_int_equal(t.count[EVAL_OFF_DANGER_PINNED][CHO], 1);
    assert_int_equal(t.count[EVAL_OFF_HANGING + HORSE][HAN], 1);
    assert_int_equal(t.count[EVAL_OFF_DANGER_SAFE_CHECK + CHARIOT][CHO], 1);
    assert_int_equal(t.count[EVAL_OFF_DANGER_ATTACKER + CHARIOT][CHO], 0);
    assert_int_equal(t.count[EVAL_OFF_DANGER_OFFSET][CHO], 1);
    assert_int_equal(t.count[EVAL_OFF_DANGER_OFFSET][HAN], 1);
    assert_int_equal(t.count[EVAL_OFF_DANGER_PINNED][HAN], 0);
    // Cho's cannon on e4 behind Han's soldier on e6 and horse on e7: either may leave the line
    // and the other becomes the screen of a check, so both are pinned.
    assert_int_equal(fen_parse(&b, "9/4k4/9/4n4/4p4/9/4C4/9/4K4/9 w", NULL), STATUS_OK);
    eval_trace(&b, &t);
    assert_int_equal(t.count[EVAL_OFF_DANGER_PINNED][CHO], 2);
    // A Han guard on d8 and chariot on d10: Cho's chariot on d4 attacks the ring point d8
    // (held by the guard, defended by the general and the chariot: not weak).
    assert_int_equal(fen_parse(&b, "3r5/4k4/3a5/9/9/9/3R5/9/4K4/9 w", NULL), STATUS_OK);
    eval_trace(&b, &t);
    assert_int_equal(t.count[EVAL_OFF_DANGER_ATTACKER + CHARIOT][CHO], 1);
    assert_int_equal(t.count[EVAL_OFF_DANGER_RING_ATTACK][CHO], 1);
    assert_int_equal(t.count[EVAL_OFF_DANGER_WEAK_RING][CHO], 0);
    assert_int_equal(t.count[EVAL_OFF_HANGING + GUARD][HAN], 0);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_term_list),
        cmocka_unit_test(test_start_position),
        cmocka_unit_test(test_trace_parity),
        cmocka_unit_test(test_mirror_symmetry),
        cmocka_unit_test(test_header_printer),
        cmocka_unit_test(test_safety_counts),
        cmocka_unit_test(test_points_term_follows_the_lead),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
