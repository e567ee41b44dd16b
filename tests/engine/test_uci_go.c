// SPDX-License-Identifier: MIT
// UCI scripts driven through uci_handle_line, the search commands: go's limits and the forms that
// move now or are refused (each still answered by one bestmove), decided scores as `score mate N`
// whatever the rule that ends the game, stop during `go infinite`, MultiPV, searchmoves, go mate,
// ponder, reproducible `go nodes` after ucinewgame, game over, perft that stop and quit
// interrupt, the end of input (a search that waits for stop or ponderhit is stopped, a finite one
// finishes), the time budgets with Move Overhead, the search's tunables as options. The
// protocol's side: test_uci.c.
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "engine.h"
#include "fen.h"
#include "search.h"
#include "search_params.h"
#include "strength.h"
#include "timeman.h"
#include "uci.h"
#include "uci_session.h"

static void test_go_limits(void **state) {
    (void)state;
    UciSession s;
    uci_session_open(&s);
    uci_session_say(&s, "position startpos");
    const char *a = uci_session_say(&s, "go depth 4");
    assert_non_null(strstr(a, "info depth 4 seldepth "));
    assert_non_null(strstr(a, " score cp "));
    assert_non_null(strstr(a, " nps "));
    assert_non_null(strstr(a, " pv "));
    assert_non_null(strstr(a, "bestmove "));
    int64_t t0 = timeman_now_ms();
    assert_non_null(strstr(uci_session_say(&s, "go movetime 100"), "bestmove "));
    int64_t t1 = timeman_now_ms();
    assert_true(t1 - t0 < 1000);
    assert_non_null(strstr(
        uci_session_say(&s, "go wtime 2000 btime 2000 winc 10 binc 10 movestogo 20"), "bestmove "));
    assert_true(timeman_now_ms() - t1 < 1500);
    assert_non_null(strstr(uci_session_say(&s, "go depth x"), "'depth'"));
    assert_non_null(strstr(uci_session_say(&s, "go sideways 3"), "'sideways'"));
    a = uci_session_say(&s, "go perft 2");
    assert_non_null(strstr(a, "Nodes searched: 1024"));
    uci_session_close(&s);
}

// A decided game prints as `score mate N` whatever its kind, N the moves to the end, negative
// for the side that loses (as Fairy-Stockfish prints a variant's game ends): after Cho's pass,
// Han's pass back wins on points; a mate in 2 is `mate 2`, being mated next move `mate -1`.
static void test_decided_scores(void **state) {
    (void)state;
    UciSession s;
    uci_session_open(&s);
    uci_session_say(&s, "position startpos moves e2e2");
    const char *a = uci_session_say(&s, "go depth 3");
    assert_non_null(strstr(a, "info depth 3 "));
    assert_non_null(strstr(a, " score mate 1 "));
    assert_non_null(strstr(a, "bestmove e9e9"));
    // Han's general held on rank 10: whatever Han plays, the pass included, b1b10 mates.
    uci_session_say(&s, "position fen 4k4/R8/9/9/9/9/3PPP3/9/9/1R1K5 b - - 0 30");
    assert_non_null(strstr(uci_session_say(&s, "go depth 4"), " score mate -1 "));
    uci_session_say(&s, "position fen 3aa4/3k5/4c4/4b1pp1/9/9/1p1P5/5R2C/4A3r/4K2C1 w - - 7 34");
    assert_non_null(strstr(uci_session_say(&s, "go depth 7"), " score mate 2 "));
    uci_session_close(&s);
}

// Once a clock field is given, a missing or zero clock of the side to move, like movetime 0,
// means move now: a finished depth-1 search and its bestmove, never a search until `stop`.
static void test_go_move_now(void **state) {
    (void)state;
    static const char *const forms[] = {
        "go movetime 0",
        "go wtime 0 btime 0",
        "go btime 100",   // Cho to move: no wtime, so Cho's clock is 0
        "go winc 100000", // a clock of 0 whatever the increment
        "go movestogo 20",
        "go wtime 0 btime 9000 winc 50 binc 50 movestogo 3",
        "go depth 9 wtime 0", // move now wins over a deeper limit
        "go movetime 0 wtime 60000 btime 60000",
        "go wtime -100 btime 100", // a clock past zero: move now, as Stockfish does
        "go wtime -99999999999999999999 btime 100",
    };
    UciSession s;
    uci_session_open(&s);
    uci_session_say(&s, "position startpos");
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        const char *a = uci_session_say(&s, forms[i]);
        if (!strstr(a, "info depth 1 ") || strstr(a, "info depth 2 ") || !strstr(a, "bestmove ") ||
            strstr(a, "error"))
            fail_msg("'%s' answered:\n%s", forms[i], a);
    }
    // Han to move: now btime is the clock that counts, and wtime alone means move now.
    uci_session_say(&s, "position startpos moves c4c5");
    assert_non_null(strstr(uci_session_say(&s, "go wtime 100000"), "bestmove "));
    assert_non_null(strstr(uci_session_say(&s, "go btime 0 wtime 100000"), "bestmove "));
    // Only the mover's clock counts: Han's search is not refused for Cho's clock past zero.
    const char *a = uci_session_say(&s, "go wtime -100 btime 5000");
    if (strstr(a, "error") || !strstr(a, "bestmove ") || strstr(a, "bestmove (none)"))
        fail_msg("'go wtime -100 btime 5000' with Han to move answered:\n%s", a);
    a = uci_session_say(&s, "go btime -5 wtime 100000");
    if (!strstr(a, "info depth 1 ") || strstr(a, "info depth 2 ") || strstr(a, "error"))
        fail_msg("'go btime -5 wtime 100000' with Han to move answered:\n%s", a);
    uci_session_close(&s);
}

// Byo-yomi (Fairy-Stockfish's `go ... byoyomi MS`): a spent clock with a period is no move-now
// search, the token is refused without a number, and it stops a searchmoves list.
static void test_go_byoyomi(void **state) {
    (void)state;
    UciSession s;
    uci_session_open(&s);
    uci_session_say(&s, "position startpos");
    const char *a = uci_session_say(&s, "go wtime 0 btime 0 byoyomi 300");
    if (!strstr(a, "info depth 2 ") || !strstr(a, "bestmove ") || strstr(a, "error"))
        fail_msg("'go wtime 0 btime 0 byoyomi 300' answered:\n%s", a);
    a = uci_session_say(&s, "go byoyomi 300 searchmoves b1c3");
    if (!strstr(a, "bestmove b1c3") || strstr(a, "error"))
        fail_msg("'go byoyomi 300 searchmoves b1c3' answered:\n%s", a);
    a = uci_session_say(&s, "go searchmoves b1c3 byoyomi 300");
    if (!strstr(a, "bestmove b1c3") || strstr(a, "error"))
        fail_msg("'go searchmoves b1c3 byoyomi 300' answered:\n%s", a);
    a = uci_session_say(&s, "go wtime 0 byoyomi 0"); // no period: move now
    if (!strstr(a, "info depth 1 ") || strstr(a, "info depth 2 ") || strstr(a, "error"))
        fail_msg("'go wtime 0 byoyomi 0' answered:\n%s", a);
    a = uci_session_say(&s, "go wtime 0 byoyomi -5");
    if (!strstr(a, "'byoyomi' needs a non-negative number") || !strstr(a, "bestmove (none)"))
        fail_msg("'go wtime 0 byoyomi -5' answered:\n%s", a);
    a = uci_session_say(&s, "go byoyomi");
    if (!strstr(a, "'byoyomi'") || !strstr(a, "bestmove (none)"))
        fail_msg("'go byoyomi' answered:\n%s", a);
    uci_session_close(&s);
}

// Refused go forms: an error naming the token, no search, and the one bestmove every go
// gets (a GUI waits for it): `bestmove (none)`, after the error line.
static void test_go_refused(void **state) {
    (void)state;
    static const struct {
        const char *go, *says;
    } refused[] = {
        {"go depth 0", "go: 'depth' needs a positive number"},
        {"go nodes 0", "go: 'nodes' needs a positive number"},
        {"go depth -1", "'depth'"},
        {"go nodes -5", "'nodes'"},
        {"go movetime -1", "go: 'movetime' needs a non-negative number"},
        {"go wtime -1x btime 100", "go: 'wtime' needs a number, not '-1x'"},
        {"go btime - wtime 100", "'btime'"},
        {"go btime", "'btime'"},
        {"go searchmoves", "go searchmoves: no move given"},
        {"go searchmoves depth 3", "go searchmoves: no move given"},
        {"go searchmoves b1c3 b1b5", "go searchmoves: move 'b1b5': not legal"},
        {"go searchmoves zz9", "go searchmoves: "},
        {"go mate 0", "go: 'mate' needs a positive number"},
        {"go mate", "'mate'"},
        {"go depth 5x", "go: 'depth' needs a positive number, not '5x'"},
        {"go nodes 1e3", "'nodes'"},
        {"go movetime abc", "'movetime'"},
        {"go wtime 10.5 btime 100", "'wtime'"},
        {"go depth", "'depth'"},
        {"go movetime +", "'movetime'"},
    };
    UciSession s;
    uci_session_open(&s);
    uci_session_say(&s, "position startpos");
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        const char *a = uci_session_say(&s, refused[i].go);
        const char *err = strstr(a, "info string error: ");
        const char *none = strstr(a, "bestmove (none)\n");
        if (!err || !strstr(a, refused[i].says) || !none || none < err ||
            uci_session_count(a, "bestmove") != 1 || strstr(a, "info depth"))
            fail_msg("'%s' answered:\n%s", refused[i].go, a);
    }
    assert_non_null(strstr(uci_session_say(&s, "go depth 1"), "bestmove "));
    uci_session_close(&s);
}

static void test_go_infinite_stop(void **state) {
    (void)state;
    UciSession s;
    uci_session_open(&s);
    uci_handle_line(s.ctx, "position startpos moves c4c5");
    uci_handle_line(s.ctx, "go infinite");
    uci_handle_line(s.ctx, "isready"); // answered while the search runs
    const char *a = uci_session_say(&s, "stop");
    assert_non_null(strstr(a, "readyok"));
    assert_non_null(strstr(a, "bestmove "));
    uci_session_close(&s);
}

// MultiPV 3: each iteration reports lines multipv 1, 2, 3 in that order, with scores that do not
// rise and three different first moves; the bestmove is line 1's. MultiPV 1 prints `multipv 1`
// and searches as before (the same nodes as a search that never set it); more lines than moves
// are cut to the moves there are (a position with two legal moves).
static void test_multipv(void **state) {
    (void)state;
    UciSession s;
    uci_session_open(&s);
    assert_string_equal(uci_session_say(&s, "setoption name MultiPV value 3"), "");
    uci_session_say(&s, "position startpos moves c4c5");
    const char *a = uci_session_say(&s, "go depth 5");
    const char *d5 = strstr(a, "info depth 5 ");
    assert_non_null(d5);
    char first[3][16];
    long score[3];
    for (int k = 0; k < 3; k++) {
        char key[32];
        snprintf(key, sizeof key, " multipv %d score cp ", k + 1);
        const char *p = strstr(d5, key);
        assert_non_null(p);
        score[k] = strtol(p + strlen(key), NULL, 10);
        const char *pv = strstr(p, " pv ");
        assert_non_null(pv);
        assert_int_equal(sscanf(pv, " pv %15s", first[k]), 1);
    }
    assert_true(score[0] >= score[1] && score[1] >= score[2]);
    assert_string_not_equal(first[0], first[1]);
    assert_string_not_equal(first[1], first[2]);
    assert_string_not_equal(first[0], first[2]);
    char best[32];
    snprintf(best, sizeof best, "bestmove %s", first[0]);
    assert_non_null(strstr(a, best));
    assert_non_null(strstr(uci_session_say(&s, "setoption name MultiPV value 0"), "1..256"));
    assert_non_null(strstr(uci_session_say(&s, "setoption name MultiPV value 257"), "1..256"));
    // MultiPV 1 searches as a context that never set it: the same nodes.
    uci_session_say(&s, "setoption name MultiPV value 1");
    uci_session_say(&s, "ucinewgame");
    uci_session_say(&s, "position startpos moves c4c5");
    a = uci_session_say(&s, "go depth 5");
    assert_non_null(strstr(a, " multipv 1 "));
    assert_null(strstr(a, " multipv 2 "));
    long one = uci_session_last_value(a, " nodes ");
    UciSession fresh;
    uci_session_open(&fresh);
    uci_session_say(&fresh, "position startpos moves c4c5");
    assert_int_equal(uci_session_last_value(uci_session_say(&fresh, "go depth 5"), " nodes "), one);
    uci_session_close(&fresh);
    // More lines asked than the position has moves: one line per legal move (the pass
    // included), no more. Cho's general and two guards against a lone general.
    uci_session_say(&s, "setoption name MultiPV value 256");
    uci_session_say(&s, "position fen 3k5/9/9/9/9/9/9/9/3A1A3/4K4 w - - 0 1");
    long moves = uci_session_last_value(uci_session_say(&s, "go perft 1"), "Nodes searched: ");
    assert_true(moves > 1 && moves < 20);
    a = uci_session_say(&s, "go depth 3");
    char key[32];
    snprintf(key, sizeof key, " multipv %ld ", moves);
    assert_non_null(strstr(a, key));
    snprintf(key, sizeof key, " multipv %ld ", moves + 1);
    assert_null(strstr(a, key));
    assert_null(strstr(a, "error"));
    uci_session_close(&s);
}

// go searchmoves: the root chooses among the moves named (the bestmove and every line's first
// move are one of them, even when a better move exists); with MultiPV 2 the two lines are the
// two moves named.
static void test_searchmoves(void **state) {
    (void)state;
    UciSession s;
    uci_session_open(&s);
    uci_session_say(&s, "position startpos");
    const char *a = uci_session_say(&s, "go depth 5 searchmoves i4i5 a4a5");
    assert_true(strstr(a, "bestmove i4i5") || strstr(a, "bestmove a4a5"));
    for (const char *p = a; (p = strstr(p, " pv ")) != NULL; p += 4)
        assert_true(strncmp(p, " pv i4i5", 8) == 0 || strncmp(p, " pv a4a5", 8) == 0);
    uci_session_say(&s, "setoption name MultiPV value 2");
    a = uci_session_say(&s, "go depth 4 searchmoves i4i5 a4a5 i4i5");
    const char *d4 = strstr(a, "info depth 4 ");
    assert_non_null(d4);
    assert_non_null(strstr(d4, " multipv 2 "));
    assert_null(strstr(d4, " multipv 3 "));
    assert_true((strstr(d4, " pv i4i5") != NULL) + (strstr(d4, " pv a4a5") != NULL) == 2);
    // A mate exists elsewhere but not among the moves named: not played.
    uci_session_say(&s, "setoption name MultiPV value 1");
    uci_session_say(&s, "position fen 3k5/9/9/9/9/9/9/9/4R4/R3K4 w - - 0 1");
    a = uci_session_say(&s, "go depth 3 searchmoves e2e3");
    assert_non_null(strstr(a, "bestmove e2e3"));
    uci_session_close(&s);
}

// go mate N: stops at the first iteration that proves a win within N moves (here a mate in 1,
// found at depth 1), reported as `score mate 1`.
static void test_go_mate(void **state) {
    (void)state;
    UciSession s;
    uci_session_open(&s);
    uci_session_say(&s, "position fen 3k5/9/9/9/9/9/9/9/4R4/R3K4 w - - 0 1");
    const char *a = uci_session_say(&s, "go mate 2");
    assert_non_null(strstr(a, " score mate 1 "));
    assert_non_null(strstr(a, "bestmove a1d1"));
    assert_null(strstr(a, "info depth 3 "));
    uci_session_close(&s);
}

// go ponder: no bestmove before ponderhit or stop, whatever the clock says; after ponderhit the
// search ends on its clock with one bestmove; a ponderhit with nothing pondering is an error; a
// `stop` ends a ponder search at once with its bestmove.
static void test_ponder(void **state) {
    (void)state;
    UciSession s;
    uci_session_open(&s);
    uci_session_say(&s, "position startpos moves c4c5");
    uci_session_send(&s, "go ponder wtime 100 btime 100");
    // The 100 ms clock would end the search at once: pondering, it runs on until ponderhit
    // (here until its iterations reach depth 8, whatever the time).
    for (bool deep = false; !deep;) {
        // Each answer holds whole lines (the engine writes a line at a time).
        const char *a = uci_session_send(&s, "isready");
        assert_null(strstr(a, "bestmove"));
        deep = uci_session_last_value(a, "info depth ") >= 8; // at or past depth 8
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    // After ponderhit the search ends on its 100 ms clock (uci_session_say waits for it).
    const char *a = uci_session_say(&s, "ponderhit");
    assert_int_equal(uci_session_count(a, "bestmove"), 1);
    assert_non_null(strstr(uci_session_say(&s, "ponderhit"), "ponderhit: no search is pondering"));
    uci_session_send(&s, "go ponder wtime 100000 btime 100000");
    a = uci_session_say(&s, "stop");
    assert_int_equal(uci_session_count(a, "bestmove"), 1);
    // A command that must wait for the search (a new position) stops a ponder search first.
    uci_session_send(&s, "go ponder wtime 100000 btime 100000");
    a = uci_session_say(&s, "position startpos");
    assert_int_equal(uci_session_count(a, "bestmove"), 1);
    uci_session_close(&s);
}

// Returns the node count of the last info line and copies the bestmove line.
static uint64_t run_nodes(UciSession *s, char *best, size_t n) {
    uci_session_say(s, "ucinewgame");
    uci_session_say(s, "position startpos moves c4c5 g7g6");
    const char *a = uci_session_say(s, "go nodes 20000");
    const char *bm = strstr(a, "bestmove ");
    assert_non_null(bm);
    snprintf(best, n, "%s", bm);
    uint64_t nodes = 0;
    for (const char *p = a; (p = strstr(p, " nodes ")); p++)
        nodes = strtoull(p + 7, NULL, 10);
    return nodes;
}

static void test_reproducible_nodes(void **state) {
    (void)state;
    UciSession s;
    uci_session_open(&s);
    char b1[64], b2[64];
    uint64_t n1 = run_nodes(&s, b1, sizeof b1);
    uci_session_say(&s, "go depth 6"); // disturb the TT and history in between
    uint64_t n2 = run_nodes(&s, b2, sizeof b2);
    assert_true(n1 > 0);
    assert_int_equal(n1, n2);
    assert_string_equal(b1, b2);
    uci_session_close(&s);
}

static void test_game_over(void **state) {
    (void)state;
    UciSession s;
    uci_session_open(&s);
    uci_session_say(&s, "position startpos moves e2e2 e9e9");
    const char *a = uci_session_say(&s, "go depth 3");
    assert_non_null(strstr(a, "info string game over: double-pass"));
    assert_non_null(strstr(a, "bestmove (none)"));
    assert_int_equal(uci_session_count(a, "bestmove"), 1);
    uci_session_say(
        &s, "position fen rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR b - - 0 "
            "100 moves e9e9");
    a = uci_session_say(&s, "go nodes 100");
    assert_non_null(strstr(a, "game over: move-limit"));
    assert_non_null(strstr(a, "bestmove (none)"));
    uci_session_close(&s);
}

// `go perft 20` (years of counting) runs beside the command loop like a search: isready is
// answered at once, and stop (or quit) ends it with what it counted, marked as interrupted.
static void test_perft_interrupted(void **state) {
    (void)state;
    static const char *const enders[] = {"stop", "quit"};
    for (int e = 0; e < 2; e++) {
        UciSession s;
        uci_session_open(&s);
        uci_session_say(&s, "position startpos");
        uci_handle_line(s.ctx, "go perft 20");
        uci_handle_line(s.ctx, "isready");
        bool running = uci_handle_line(s.ctx, enders[e]);
        assert_int_equal(running, e == 0);
        const char *a = uci_session_say(&s, "isready");
        if (!strstr(a, "readyok\n") || !strstr(a, "info string perft interrupted: ") ||
            !strstr(a, "root moves counted in full\n") ||
            uci_session_count(a, " (interrupted)\n") != 1 ||
            uci_session_count(a, "Nodes searched: ") != 1 || strstr(a, "bestmove"))
            fail_msg("go perft 20, isready, %s answered:\n%s", enders[e], a);
        unsigned long long total;
        assert_int_equal(sscanf(strstr(a, "Nodes searched: "), "Nodes searched: %llu (", &total),
                         1);
        if (e == 0) // the engine goes on as usual
            assert_non_null(
                strstr(uci_session_say(&s, "go perft 2"), "\nNodes searched: 1024\n\n"));
        uci_session_close(&s);
    }
}

// A perft that is not stopped is answered in full at the end of input, as a search is.
static void test_perft_at_end_of_input(void **state) {
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    static const char script[] = "position startpos\ngo perft 3\n";
    FILE *in = fmemopen((void *)script, sizeof script - 1, "r");
    assert_non_null(in);
    UciContext *ctx = uci_create(out);
    assert_non_null(ctx);
    assert_int_equal(uci_loop(ctx, in), 0);
    uci_destroy(ctx);
    fclose(in);
    fclose(out);
    assert_non_null(strstr(buf, "\nNodes searched: 33316\n\n"));
    assert_null(strstr(buf, "interrupted"));
    free(buf);
}

// A uci_loop over a script, in a thread of its own so that a loop that never returns fails the
// test instead of hanging it.
typedef struct LoopRun {
    const char *script;
    char *out;
    int rc;
    atomic_bool done;
} LoopRun;

static void *loop_thread(void *arg) {
    LoopRun *run = arg;
    size_t len = 0;
    FILE *out = open_memstream(&run->out, &len);
    FILE *in = fmemopen((void *)run->script, strlen(run->script), "r");
    UciContext *ctx = uci_create(out);
    if (out && in && ctx)
        run->rc = uci_loop(ctx, in);
    uci_destroy(ctx);
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    atomic_store(&run->done, true);
    return NULL;
}

// The end of input ends every search that would wait for `stop` or `ponderhit` (go ponder
// before its ponderhit, whatever its clock, depth or mate limit; go infinite, with or without
// one; go mate with no other limit, which ends only on a mate), with its one bestmove, and
// uci_loop returns 0: the engine exits when the GUI has gone instead of searching on. A finite
// search (go depth, go ponder after its ponderhit) finishes.
// Nothing is timed: the guard only turns a loop that never returns into a failure.
static void test_end_of_input(void **state) {
    (void)state;
    enum { GUARD_S = 120 };
    static const struct {
        const char *script, *must; // must: a line the answer holds (a finished search's)
    } runs[] = {
        {"position startpos moves c4c5\ngo ponder wtime 100000 btime 100000\n", NULL},
        {"position startpos\ngo ponder depth 2\n", NULL},
        {"position startpos\ngo ponder mate 1\n", NULL},
        {"position startpos\ngo ponder\n", NULL},
        {"position startpos\ngo infinite\n", NULL},
        {"position startpos\ngo infinite depth 2\n", NULL},
        {"position startpos\ngo mate 1 infinite\n", NULL},
        {"position startpos\ngo mate 3\n", NULL}, // no mate there: it would search on forever
        {"position startpos\ngo depth 4\n", "info depth 4 "},
        {"position startpos\ngo ponder wtime 2000 btime 2000\nponderhit\n", NULL},
        {"position startpos\ngo ponder depth 3\nponderhit\n", "info depth 3 "},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        static LoopRun run;
        run = (LoopRun){.script = runs[i].script, .rc = -1};
        atomic_init(&run.done, false);
        pthread_t t;
        assert_int_equal(pthread_create(&t, NULL, loop_thread, &run), 0);
        for (int ms = 0; !atomic_load(&run.done); ms += 10) {
            if (ms >= GUARD_S * 1000)
                fail_msg("uci_loop over '%s' had not returned after %d s: the search went on "
                         "after the end of input",
                         runs[i].script, GUARD_S);
            struct timespec ts = {0, 10000000};
            nanosleep(&ts, NULL);
        }
        pthread_join(t, NULL);
        if (run.rc != 0 || uci_session_count(run.out, "bestmove ") != 1 ||
            (runs[i].must && !strstr(run.out, runs[i].must)))
            fail_msg("uci_loop over '%s' returned %d and answered:\n%s", runs[i].script, run.rc,
                     run.out);
        free(run.out);
    }
}

// timeman_budget's numbers, which `go` reaches with the Move Overhead option in
// limits.move_overhead: movetime is spent in full but for the overhead (no soft budget that
// ends the search early), and the clock budgets keep the overhead back too.
static void test_time_budget(void **state) {
    (void)state;
    SearchLimits lim = {.movetime = 50, .move_overhead = 10};
    TimeBudget tb = timeman_budget(&lim, CHO, &SEARCH_PARAMS_DEFAULT);
    assert_int_equal(tb.hard, 40);
    assert_int_equal(tb.soft, 0); // no iteration limit: the hard budget alone ends the search
    lim.move_overhead = 0;
    assert_int_equal(timeman_budget(&lim, CHO, &SEARCH_PARAMS_DEFAULT).hard, 50);
    lim.move_overhead = 5000; // more than the move has: still a budget, the smallest
    assert_int_equal(timeman_budget(&lim, HAN, &SEARCH_PARAMS_DEFAULT).hard, 1);
    // Sudden death, 10 s: (10000 - overhead) / 30, hard 4 times that, under a third.
    SearchLimits clk = {.time = {10000, 500}, .move_overhead = 1000};
    tb = timeman_budget(&clk, CHO, &SEARCH_PARAMS_DEFAULT);
    assert_int_equal(tb.soft, 9000 / 30);
    assert_int_equal(tb.hard, 4 * (9000 / 30));
    clk.move_overhead = 0;
    assert_int_equal(timeman_budget(&clk, CHO, &SEARCH_PARAMS_DEFAULT).soft, 10000 / 30);
    // Han's clock is Han's; the cap is a third of what is left after the overhead.
    clk.move_overhead = 200;
    tb = timeman_budget(&clk, HAN, &SEARCH_PARAMS_DEFAULT);
    assert_int_equal(tb.soft, (500 - 200) / 30);
    assert_int_equal(tb.hard, 4 * ((500 - 200) / 30));
    // 30 ms left after the overhead and a large increment: the cap of a third wins.
    clk.time[HAN] = 230, clk.inc[HAN] = 1000;
    tb = timeman_budget(&clk, HAN, &SEARCH_PARAMS_DEFAULT);
    assert_int_equal(tb.soft, 30 / 3);
    assert_int_equal(tb.hard, 30 / 3);
    // One move to the control: up to 9/10 of the clock less the overhead.
    SearchLimits last = {.time = {1000, 1000}, .movestogo = 1, .move_overhead = 100};
    tb = timeman_budget(&last, CHO, &SEARCH_PARAMS_DEFAULT);
    assert_int_equal(tb.soft, 900 * 9 / 10);
    assert_int_equal(tb.hard, 900 * 9 / 10);
    SearchLimits none = {.depth = 5, .move_overhead = 10};
    tb = timeman_budget(&none, CHO, &SEARCH_PARAMS_DEFAULT);
    assert_int_equal(tb.soft, 0);
    assert_int_equal(tb.hard, 0);
}

// The search's tunable constants as UCI options (search_params.def): each listed with its
// default and range, an out-of-range or malformed value refused by name with the range and the
// parameter kept, a good one reaching the search (the LMR table rebuilt from lmr_div) and the
// time budget.
static void test_search_params(void **state) {
    (void)state;
    UciSession s;
    uci_session_open(&s);
    const char *a = uci_session_say(&s, "uci");
    assert_non_null(strstr(a, "option name rfp_margin type spin default 90 min 20 max 300\n"));
    for (int i = 0; i < search_params_count(); i++) {
        const SearchParamInfo *p = search_param_info(i);
        char line[160];
        snprintf(line, sizeof line, "option name %s type spin default %d min %d max %d\n", p->name,
                 p->def, p->min, p->max);
        assert_non_null(strstr(a, line));
        assert_int_equal(search_params_get(&SEARCH_PARAMS_DEFAULT, i), p->def);
    }
    char best[64];
    uint64_t n_default = run_nodes(&s, best, sizeof best);
    static const char *const bad[] = {"301", "19", "x", "90cp", "", "99999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char line[96];
        snprintf(line, sizeof line, "setoption name rfp_margin value %s", bad[i]);
        const char *e = uci_session_say(&s, line);
        if (!strstr(e, "info string error: setoption: rfp_margin value '"))
            fail_msg("'%s' answered: %s", line, e);
    }
    assert_non_null(
        strstr(uci_session_say(&s, "setoption name rfp_margin value 301"), "is not 20..300"));
    assert_int_equal(run_nodes(&s, best, sizeof best), n_default); // the refused values left it
    assert_string_equal(uci_session_say(&s, "setoption name LMR_DIV value 150"), "");
    assert_int_not_equal(run_nodes(&s, best, sizeof best), n_default);
    assert_string_equal(uci_session_say(&s, "setoption name lmr_div value 225"), "");
    assert_int_equal(run_nodes(&s, best, sizeof best), n_default);
    uci_session_close(&s);

    SearchParams p = SEARCH_PARAMS_DEFAULT;
    ErrorInfo err;
    assert_int_equal(search_params_set(&p, search_param_find("tm_moves"), "20", &err), STATUS_OK);
    SearchLimits clk = {.time = {10000, 10000}};
    assert_int_equal(timeman_budget(&clk, CHO, &p).soft, 10000 / 20);
    assert_int_equal(search_params_set(&p, search_param_find("tm_moves"), "4", &err), STATUS_RANGE);
    assert_non_null(strstr(err.msg, "tm_moves value '4' is not 5..80"));
    assert_int_equal(p.tm_moves, 20);
    assert_int_equal(search_param_find("no_such_param"), -1);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_go_limits),
        cmocka_unit_test(test_decided_scores),
        cmocka_unit_test(test_go_infinite_stop),
        cmocka_unit_test(test_reproducible_nodes),
        cmocka_unit_test(test_game_over),
        cmocka_unit_test(test_go_move_now),
        cmocka_unit_test(test_go_byoyomi),
        cmocka_unit_test(test_go_refused),
        cmocka_unit_test(test_perft_interrupted),
        cmocka_unit_test(test_perft_at_end_of_input),
        cmocka_unit_test(test_end_of_input),
        cmocka_unit_test(test_time_budget),
        cmocka_unit_test(test_search_params),
        cmocka_unit_test(test_multipv),
        cmocka_unit_test(test_searchmoves),
        cmocka_unit_test(test_go_mate),
        cmocka_unit_test(test_ponder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
