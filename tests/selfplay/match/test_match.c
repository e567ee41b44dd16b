// SPDX-License-Identifier: MIT
// The match tool end to end, its games: bookkeeping over all 16 pairings, faults injected by a
// fake engine (crash, hang, illegal move, garbage, bestmove (none), flag fall), the SPRT's stop,
// the engines' options and variants, and real engines (Fairy-Stockfish, Hansu). Resume and the
// match's files: test_match_resume.c.
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine.h"
#include "match.h"
#include "pgn.h"
#include "rules.h"
#include "sha256.h"
#include "timeman.h"
#include "uci_child.h"
#include "variant.h"

#include "match_test_util.h"

static const char FSF_PATH[] = "/usr/games/fairy-stockfish";

// 32 games of two well-behaved engines: every pairing twice, colours swapped, PGN complete.
static void test_bookkeeping_16_pairings(void **state) {
    (void)state;
    char pgn[512], st[512];
    temp_path(pgn, sizeof pgn, "book.pgn");
    temp_path(st, sizeof st, "book.state");
    MatchConfig c = base_config(32);
    c.concurrency = 2;
    c.pgn_path = pgn;
    c.state_path = st;
    c.openings_path = MATCH_OPENINGS_STARTS; // the formation pairings, not the default suite
    fake_spec(&c.engine[0], "A", "good", NULL);
    fake_spec(&c.engine[1], "B", "good", NULL);
    MatchTally t;
    ErrorInfo err;
    assert_int_equal(match_run(&c, &t, NULL, NULL, &err), STATUS_OK);
    assert_consistent(&t, 16);
    assert_false(t.interrupted);
    assert_int_equal(t.restarts[0] + t.restarts[1], 0);
    assert_int_equal(count_in_file(pgn, "[Variant \"janggi\"]"), 32);
    assert_int_equal(count_in_file(pgn, "[White \"A\"]"), 16);
    assert_int_equal(count_in_file(pgn, "[White \"B\"]"), 16);
    assert_int_equal(count_in_file(pgn, "[Opening \"sang-ma-ma-sang vs ma-sang-ma-sang\"]"), 2);
    assert_int_equal(count_in_file(pgn, "[PlyCount "), 32);
    assert_int_equal(count_in_file(st, "pair "), 16);
    unlink(pgn);
    unlink(st);
}

// One faulty engine: every game it plays is lost with the given reason, it is restarted,
// and the match completes.
static void run_fault(const char *mode, const char *n, EndReason want, int64_t watchdog) {
    MatchConfig c = base_config(4);
    c.watchdog = watchdog;
    fake_spec(&c.engine[0], "good", "good", NULL);
    fake_spec(&c.engine[1], "faulty", mode, n);
    MatchTally t;
    ErrorInfo err;
    Status st = match_run(&c, &t, NULL, NULL, &err);
    if (st != STATUS_OK)
        print_error("match_run: %s\n", err.msg);
    assert_int_equal(st, STATUS_OK);
    assert_consistent(&t, 2);
    assert_int_equal(t.wins[0], 4);
    assert_int_equal(t.wins_by[0][want], 4);
    assert_int_equal(t.restarts[1], 4);
    assert_int_equal(t.restarts[0], 0);
}

static void test_fault_crash(void **state) {
    (void)state;
    run_fault("crash", "3", REASON_CRASH, 2000);
}
static void test_fault_hang(void **state) {
    (void)state;
    run_fault("hang", "2", REASON_TIME, 300);
}
// True when pid is gone or a zombie (killed; reaping it is init's business).
static bool process_gone(int pid) {
    char path[64], line[512];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return true;
    bool zombie = fgets(line, sizeof line, f) && strstr(line, ") Z ") != NULL;
    fclose(f);
    return zombie;
}

// A hung engine is killed with its whole process group: the child it forked dies too.
static void test_fault_hang_kills_children(void **state) {
    (void)state;
    char pidfile[sizeof((EngineSpec *)0)->args[0]];
    temp_path(pidfile, sizeof pidfile, "child_pid");
    unlink(pidfile);
    MatchConfig c = base_config(2);
    c.watchdog = 300;
    fake_spec(&c.engine[0], "good", "good", NULL);
    fake_spec(&c.engine[1], "faulty", "hangchild", "0");
    snprintf(c.engine[1].args[c.engine[1].nargs++], sizeof c.engine[1].args[0], "%s", pidfile);
    MatchTally t;
    ErrorInfo err;
    assert_int_equal(match_run(&c, &t, NULL, NULL, &err), STATUS_OK);
    assert_int_equal(t.wins_by[0][REASON_TIME], 2);
    FILE *f = fopen(pidfile, "r");
    assert_non_null(f);
    int pid = 0;
    assert_int_equal(fscanf(f, "%d", &pid), 1);
    fclose(f);
    assert_true(pid > 1);
    bool gone = false;
    for (int i = 0; i < 100 && !(gone = process_gone(pid)); i++)
        usleep(10000);
    if (!gone)
        kill(pid, SIGKILL); // do not leave it behind when the test fails
    assert_true(gone);
    unlink(pidfile);
}

// Start failures are told apart: an exec failure, and an engine that exits before uciok.
static void test_start_errors(void **state) {
    (void)state;
    UciChild *e = NULL;
    ErrorInfo err;
    EngineSpec spec = {.name = "missing", .cmd = "/nonexistent/engine"};
    int64_t t0 = timeman_now_ms();
    assert_int_equal(child_start(&e, &spec, 5000, &err), STATUS_IO);
    assert_null(e);
    assert_non_null(strstr(err.msg, "cannot execute /nonexistent/engine: No such file"));
    EngineSpec quits = {.name = "false", .cmd = "/bin/sh", .nargs = 2, .args = {"-c", "exit 3"}};
    assert_int_equal(child_start(&e, &quits, 5000, &err), STATUS_IO);
    assert_non_null(strstr(err.msg, "exited before uciok (exit status 3)"));
    assert_true(timeman_now_ms() - t0 < 4000); // neither waited for the timeout
}

static void test_fault_illegal(void **state) {
    (void)state;
    run_fault("illegal", "1", REASON_ILLEGAL_MOVE, 2000);
}
static void test_fault_garbage(void **state) {
    (void)state;
    run_fault("garbage", "0", REASON_ILLEGAL_MOVE, 2000);
}
static void test_fault_none(void **state) {
    (void)state;
    run_fault("none", "2", REASON_ILLEGAL_MOVE, 2000);
}

// A clock of 0.25 s + 0 against an engine that takes 100 ms a move: the flag falls.
static void test_time_loss(void **state) {
    (void)state;
    MatchConfig c = base_config(2);
    fake_spec(&c.engine[0], "good", "good", NULL);
    fake_spec(&c.engine[1], "slow", "slow", "100");
    c.limits[1] = (Limits){.kind = LIMIT_CLOCK, .base = 250, .inc = 0};
    MatchTally t;
    ErrorInfo err;
    assert_int_equal(match_run(&c, &t, NULL, NULL, &err), STATUS_OK);
    assert_consistent(&t, 1);
    assert_int_equal(t.wins_by[0][REASON_TIME], 2);
}

// Byo-yomi 0 s + 2 x 0.1 s against an engine that takes 150 ms a move: its first move uses
// up one period, its second the last one, and it loses on time.
static void test_byoyomi_loss(void **state) {
    (void)state;
    MatchConfig c = base_config(2);
    c.margin = 20;
    fake_spec(&c.engine[0], "good", "good", NULL);
    fake_spec(&c.engine[1], "slow", "slow", "150");
    c.limits[1] = (Limits){.kind = LIMIT_CLOCK, .byoyomi = 100, .periods = 2};
    MatchTally t;
    ErrorInfo err;
    assert_int_equal(match_run(&c, &t, NULL, NULL, &err), STATUS_OK);
    assert_consistent(&t, 1);
    assert_int_equal(t.wins_by[0][REASON_TIME], 2);
}

// An openings file of FENs replaces the 16 pairings; comments and blank lines are skipped.
static void test_openings_file(void **state) {
    (void)state;
    char path[512], pgn[512];
    temp_path(path, sizeof path, "open.fen");
    temp_path(pgn, sizeof pgn, "open.pgn");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("# two openings\n"
          "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1\n\n"
          "rbna1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ANBR w - - 0 1\n",
          f);
    fclose(f);
    MatchConfig c = base_config(8);
    c.openings_path = path;
    c.pgn_path = pgn;
    fake_spec(&c.engine[0], "A", "good", NULL);
    fake_spec(&c.engine[1], "B", "good", NULL);
    MatchTally t;
    ErrorInfo err;
    assert_int_equal(match_run(&c, &t, NULL, NULL, &err), STATUS_OK);
    assert_consistent(&t, 4);
    assert_int_equal(count_in_file(pgn, "[FEN \"rbna1abnr/"), 4);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs("rnba1abnr/4k4/9 w - - 0 1\n", f); // 3 ranks: refused with the line number
    fclose(f);
    assert_int_not_equal(match_run(&c, &t, NULL, NULL, &err), STATUS_OK);
    assert_non_null(strstr(err.msg, ":1:"));
    unlink(path), unlink(pgn);
}

// A stop request (as from SIGTERM) before the start: nothing is played, nothing recorded.
static void test_stop_flag(void **state) {
    (void)state;
    atomic_bool stop = true;
    MatchConfig c = base_config(4);
    c.stop = &stop;
    fake_spec(&c.engine[0], "A", "good", NULL);
    fake_spec(&c.engine[1], "B", "good", NULL);
    MatchTally t;
    ErrorInfo err;
    assert_int_equal(match_run(&c, &t, NULL, NULL, &err), STATUS_OK);
    assert_true(t.interrupted);
    assert_int_equal(t.games, 0);
}

// SPRT stops the match as soon as a bound is crossed: H1 against an engine that always
// crashes; H0 between two equal engines (every pair splits 1-1).
static void test_sprt_stops(void **state) {
    (void)state;
    MatchConfig c = base_config(400);
    c.sprt_enabled = true;
    assert_true(stats_sprt_init(&c.sprt, 0.0, 50.0, 0.05, 0.05));
    fake_spec(&c.engine[0], "A", "good", NULL);
    fake_spec(&c.engine[1], "B", "crash", NULL);
    MatchTally t;
    ErrorInfo err;
    assert_int_equal(match_run(&c, &t, NULL, NULL, &err), STATUS_OK);
    assert_int_equal(t.sprt_result, SPRT_H1);
    assert_false(t.interrupted);
    assert_true(t.pairs_done < 200 && t.llr >= c.sprt.upper);
    assert_consistent(&t, t.pairs_done);
    c.random_plies = 6;
    fake_spec(&c.engine[1], "B", "good", NULL);
    assert_int_equal(match_run(&c, &t, NULL, NULL, &err), STATUS_OK);
    assert_int_equal(t.sprt_result, SPRT_H0);
    assert_true(t.pairs_done < 200 && t.llr <= c.sprt.lower);
    assert_consistent(&t, t.pairs_done);
}

// Fairy-Stockfish against itself at a few nodes over all 16 pairings (skipped without it).
static void test_fsf_selfplay(void **state) {
    (void)state;
    if (access(FSF_PATH, X_OK) != 0)
        skip();
    MatchConfig c = base_config(32);
    c.concurrency = 2;
    c.limits[0].nodes = c.limits[1].nodes = 64;
    for (int e = 0; e < 2; e++) {
        EngineSpec *s = &c.engine[e];
        snprintf(s->name, sizeof s->name, "fsf%d", e);
        snprintf(s->cmd, sizeof s->cmd, "%s", FSF_PATH);
        snprintf(s->opt_name[0], sizeof s->opt_name[0], "UCI_Variant");
        snprintf(s->opt_value[0], sizeof s->opt_value[0], "janggi");
        s->noptions = 1;
    }
    MatchTally t;
    ErrorInfo err;
    Status st = match_run(&c, &t, NULL, NULL, &err);
    if (st != STATUS_OK)
        print_error("match_run: %s\n", err.msg);
    assert_int_equal(st, STATUS_OK);
    assert_consistent(&t, 16);
    print_message("FSF vs FSF: %ld - %ld, checkmate %ld, illegal %ld\n", t.wins[0], t.wins[1],
                  t.wins_by[0][REASON_CHECKMATE] + t.wins_by[1][REASON_CHECKMATE],
                  t.wins_by[0][REASON_ILLEGAL_MOVE] + t.wins_by[1][REASON_ILLEGAL_MOVE]);
}

#ifdef HANSU_ENGINE_PATH
// Two Hansu processes at fixed nodes over all 16 pairings. The search is reproducible at
// fixed nodes and `ucinewgame` clears it, so both games of a pair are the same game with the
// engines swapped: every pair must split 1-1, which checks the colour and pair bookkeeping.
static void test_hansu_selfplay(void **state) {
    (void)state;
    MatchConfig c = base_config(32);
    c.concurrency = 2;
    c.limits[0].nodes = c.limits[1].nodes = 150;
    for (int e = 0; e < 2; e++) {
        snprintf(c.engine[e].name, sizeof c.engine[e].name, "hansu%d", e);
        snprintf(c.engine[e].cmd, sizeof c.engine[e].cmd, "%s", HANSU_ENGINE_PATH);
    }
    MatchTally t;
    ErrorInfo err;
    Status st = match_run(&c, &t, NULL, NULL, &err);
    if (st != STATUS_OK)
        print_error("match_run: %s\n", err.msg);
    assert_int_equal(st, STATUS_OK);
    assert_consistent(&t, 16);
    assert_int_equal(t.penta[PENTA_WL_DD], 16);
    for (int e = 0; e < 2; e++) {
        assert_int_equal(t.restarts[e], 0);
        assert_int_equal(t.wins_by[e][REASON_ILLEGAL_MOVE] + t.wins_by[e][REASON_CRASH] +
                             t.wins_by[e][REASON_TIME],
                         0);
    }
}
#endif

// Totals of a match that may have draws: wins, draws and pairs add up, the pentanomial
// classes agree with the games' half points, and every game has one reason.
static void assert_consistent_draws(const MatchTally *t, int pairs) {
    assert_int_equal(t->pairs_done, pairs);
    assert_int_equal(t->games, 2 * pairs);
    assert_int_equal(t->wins[0] + t->wins[1] + t->draws, t->games);
    long penta = 0, by_reason = 0, half = 0;
    for (int i = 0; i < PENTA_NB; i++)
        penta += t->penta[i], half += i * t->penta[i];
    for (int r = 0; r < REASON_NB; r++)
        by_reason += t->wins_by[0][r] + t->wins_by[1][r] + t->draws_by[r];
    assert_int_equal(penta, pairs);
    assert_int_equal(by_reason, t->games);
    assert_int_equal(half, 2 * t->wins[0] + t->draws); // engine 0's half points
}

#ifdef HANSU_ENGINE_PATH
// Xiangqi, Hansu against Hansu at 200 nodes: 8 games from the start position with 4 random
// plies, every engine told UCI_Variant xiangqi (else its moves would be refused as janggi
// moves), draws counted in the totals, the pentanomial and the PGN ("1/2-1/2", Variant
// "xiangqi"); the state file names the variant and a resume reads draws back.
static void test_hansu_xiangqi(void **state) {
    (void)state;
    char pgn[512], st[512];
    temp_path(pgn, sizeof pgn, "xq.pgn");
    temp_path(st, sizeof st, "xq.state");
    MatchConfig c = base_config(8);
    c.variant = &VARIANT_XIANGQI;
    c.random_plies = 4;
    c.seed = 4;
    c.pgn_path = pgn;
    c.state_path = st;
    c.stop_after_pairs = 2;
    c.limits[0].nodes = c.limits[1].nodes = 200;
    for (int e = 0; e < 2; e++) {
        snprintf(c.engine[e].name, sizeof c.engine[e].name, "hansu%d", e);
        snprintf(c.engine[e].cmd, sizeof c.engine[e].cmd, "%s", HANSU_ENGINE_PATH);
        // The classical evaluation, so that the games (and the draws asked for below) do not
        // change with each shipped net.
        snprintf(c.engine[e].opt_name[0], sizeof c.engine[e].opt_name[0], "Use NNUE");
        snprintf(c.engine[e].opt_value[0], sizeof c.engine[e].opt_value[0], "false");
        c.engine[e].noptions = 1;
    }
    MatchTally t;
    ErrorInfo err;
    assert_int_equal(match_run(&c, &t, NULL, NULL, &err), STATUS_OK);
    assert_true(t.interrupted);
    c.stop_after_pairs = 0;
    c.resume = true;
    Status s = match_run(&c, &t, NULL, NULL, &err);
    if (s != STATUS_OK)
        print_error("match_run: %s\n", err.msg);
    assert_int_equal(s, STATUS_OK);
    assert_int_equal(t.pairs_resumed, 2);
    assert_consistent_draws(&t, 4);
    for (int e = 0; e < 2; e++)
        assert_int_equal(t.wins_by[e][REASON_ILLEGAL_MOVE] + t.wins_by[e][REASON_CRASH] +
                             t.wins_by[e][REASON_TIME],
                         0);
    print_message("xiangqi: %ld - %ld - %ld, penta [%ld %ld %ld %ld %ld]\n", t.wins[0], t.draws,
                  t.wins[1], t.penta[0], t.penta[1], t.penta[2], t.penta[3], t.penta[4]);
    assert_int_equal(count_in_file(pgn, "[Variant \"xiangqi\"]"), 8);
    assert_int_equal(count_in_file(pgn, "[Result \"1/2-1/2\"]"), t.draws);
    assert_int_equal(count_in_file(st, " variant=xiangqi"), 1);
    // Seed 4 gives draws as well as wins with the classical evaluation (seed 3 did before
    // xiangqi's safety terms; it now gives none): both kinds are counted.
    assert_true(t.draws > 0 && t.wins[0] + t.wins[1] > 0);
    // An engine told another variant is refused before any game.
    snprintf(c.engine[1].opt_name[0], sizeof c.engine[1].opt_name[0], "UCI_Variant");
    snprintf(c.engine[1].opt_value[0], sizeof c.engine[1].opt_value[0], "janggi");
    c.engine[1].noptions = 1;
    assert_int_equal(match_run(&c, &t, NULL, NULL, &err), STATUS_SYNTAX);
    assert_non_null(strstr(err.msg, "option.UCI_Variant=janggi, but the match plays xiangqi"));
    unlink(pgn), unlink(st);
}
#endif

// Xiangqi against Fairy-Stockfish (UCI_Variant xiangqi set by the match tool): 2 games, no
// fault on either side, the rules core refereeing every move.
static void test_fsf_xiangqi(void **state) {
    (void)state;
#ifdef HANSU_ENGINE_PATH
    if (access(FSF_PATH, X_OK) != 0)
        skip();
    MatchConfig c = base_config(2);
    c.variant = &VARIANT_XIANGQI;
    c.limits[0].nodes = c.limits[1].nodes = 500;
    snprintf(c.engine[0].name, sizeof c.engine[0].name, "hansu");
    snprintf(c.engine[0].cmd, sizeof c.engine[0].cmd, "%s", HANSU_ENGINE_PATH);
    snprintf(c.engine[1].name, sizeof c.engine[1].name, "fsf");
    snprintf(c.engine[1].cmd, sizeof c.engine[1].cmd, "%s", FSF_PATH);
    MatchTally t;
    ErrorInfo err;
    Status s = match_run(&c, &t, NULL, NULL, &err);
    if (s != STATUS_OK)
        print_error("match_run: %s\n", err.msg);
    assert_int_equal(s, STATUS_OK);
    assert_consistent_draws(&t, 1);
    for (int e = 0; e < 2; e++)
        assert_int_equal(t.wins_by[e][REASON_ILLEGAL_MOVE] + t.wins_by[e][REASON_CRASH] +
                             t.wins_by[e][REASON_TIME],
                         0);
    print_message("hansu vs fsf (xiangqi): %ld - %ld - %ld\n", t.wins[0], t.draws, t.wins[1]);
#else
    skip();
#endif
}

// An option the engine refuses ("No such option: X", "info string error: ...") is a start
// error naming it; the option it knows is taken.
static void test_option_refused(void **state) {
    (void)state;
    EngineSpec spec;
    fake_spec(&spec, "fake", "good", NULL);
    spec.noptions = 2;
    snprintf(spec.opt_name[0], sizeof spec.opt_name[0], "Hash");
    snprintf(spec.opt_value[0], sizeof spec.opt_value[0], "8");
    snprintf(spec.opt_name[1], sizeof spec.opt_name[1], "Hahs");
    snprintf(spec.opt_value[1], sizeof spec.opt_value[1], "16");
    UciChild *e = NULL;
    ErrorInfo err;
    assert_int_equal(child_start(&e, &spec, 5000, &err), STATUS_RANGE);
    assert_null(e);
    if (!strstr(err.msg, "refused option Hahs=16") || !strstr(err.msg, "No such option: Hahs"))
        fail_msg("%s", err.msg);
    spec.noptions = 1;
    assert_int_equal(child_start(&e, &spec, 5000, &err), STATUS_OK);
    child_stop(e);
    // Through the match: the start error stops it.
    MatchConfig c = base_config(2);
    fake_spec(&c.engine[0], "A", "good", NULL);
    c.engine[1] = spec;
    c.engine[1].noptions = 2;
    MatchTally t;
    assert_int_equal(match_run(&c, &t, NULL, NULL, &err), STATUS_RANGE);
    assert_non_null(strstr(err.msg, "Hahs"));
    const char *real[] = {FSF_PATH,
#ifdef HANSU_ENGINE_PATH
                          HANSU_ENGINE_PATH
#endif
    };
    for (size_t i = 0; i < sizeof real / sizeof *real; i++) {
        if (access(real[i], X_OK) != 0)
            continue;
        spec = (EngineSpec){.noptions = 1};
        snprintf(spec.name, sizeof spec.name, "real");
        snprintf(spec.cmd, sizeof spec.cmd, "%s", real[i]);
        snprintf(spec.opt_name[0], sizeof spec.opt_name[0], "UCI_Varaint");
        snprintf(spec.opt_value[0], sizeof spec.opt_value[0], "janggi");
        assert_int_equal(child_start(&e, &spec, 10000, &err), STATUS_RANGE);
        print_message("%s: %s\n", real[i], err.msg);
        assert_non_null(strstr(err.msg, "UCI_Varaint"));
    }
}

// Warnings a match gave (MatchConfig.warn).
typedef struct Warnings {
    int count;
    char text[4][256];
} Warnings;

static void collect_warning(const char *msg, void *arg) {
    Warnings *w = arg;
    if (w->count < 4)
        snprintf(w->text[w->count], sizeof w->text[0], "%s", msg);
    w->count++;
}

// A match of 2 games between two fake engines whose UCI_Variant combo is `offered`
// (FAKE_ENGINE_VARIANTS), engine B given option.UCI_Variant=`given` unless NULL.
static Status variant_match(const char *offered, const char *given, const char *pgn, MatchTally *t,
                            Warnings *w, ErrorInfo *err) {
    MatchConfig c = base_config(2);
    c.pgn_path = pgn;
    c.warn = collect_warning;
    c.warn_arg = w;
    *w = (Warnings){0};
    fake_spec(&c.engine[0], "A", "good", NULL);
    fake_spec(&c.engine[1], "B", "good", NULL);
    if (given) {
        snprintf(c.engine[1].opt_name[0], sizeof c.engine[1].opt_name[0], "UCI_Variant");
        snprintf(c.engine[1].opt_value[0], sizeof c.engine[1].opt_value[0], "%s", given);
        c.engine[1].noptions = 1;
    }
    setenv("FAKE_ENGINE_VARIANTS", offered, 1);
    Status st = match_run(&c, t, NULL, NULL, err);
    unsetenv("FAKE_ENGINE_VARIANTS");
    return st;
}

// Issue 23: a janggi match tells every engine that offers UCI_Variant the variant (an engine
// whose default is chess played chess moves: illegal-move losses, exit 0), refuses a combo that
// lacks janggi and an option.UCI_Variant naming another variant before any game, and names an
// engine without the option in a warning.
static void test_variant_option(void **state) {
    (void)state;
    char pgn[512];
    temp_path(pgn, sizeof pgn, "variant.pgn");
    MatchTally t;
    ErrorInfo err;
    Warnings w;
    // The default is chess: told janggi, both play janggi.
    assert_int_equal(variant_match("chess janggi", NULL, NULL, &t, &w, &err), STATUS_OK);
    assert_consistent(&t, 1);
    assert_int_equal(t.wins_by[0][REASON_ILLEGAL_MOVE] + t.wins_by[1][REASON_ILLEGAL_MOVE], 0);
    assert_int_equal(w.count, 0);
    // An option.UCI_Variant that agrees (in any case) is taken as given.
    assert_int_equal(variant_match("chess janggi", "JANGGI", NULL, &t, &w, &err), STATUS_OK);
    assert_int_equal(t.wins_by[0][REASON_ILLEGAL_MOVE] + t.wins_by[1][REASON_ILLEGAL_MOVE], 0);
    // Another variant given: refused before any game, no file written.
    unlink(pgn);
    assert_int_equal(variant_match("janggi xiangqi", "xiangqi", pgn, &t, &w, &err), STATUS_SYNTAX);
    if (!strstr(err.msg, "engine B: option.UCI_Variant=xiangqi, but the match plays janggi"))
        fail_msg("%s", err.msg);
    assert_int_equal(access(pgn, F_OK), -1);
    // A combo without janggi: refused before any game, naming the engine and what it offers.
    assert_int_equal(variant_match("chess shogi", NULL, pgn, &t, &w, &err), STATUS_RANGE);
    if (!strstr(err.msg, "engine A: its UCI_Variant option does not offer janggi") ||
        !strstr(err.msg, "chess shogi"))
        fail_msg("%s", err.msg);
    assert_int_equal(access(pgn, F_OK), -1);
    // No UCI_Variant option: played as janggi, each engine named in a warning.
    assert_int_equal(variant_match("", NULL, NULL, &t, &w, &err), STATUS_OK);
    assert_consistent(&t, 1);
    assert_int_equal(w.count, 2);
    assert_non_null(strstr(w.text[0], "engine A offers no UCI_Variant option"));
    assert_non_null(strstr(w.text[1], "engine B offers no UCI_Variant option"));
}

// Fairy-Stockfish (default chess) in a janggi match without option.UCI_Variant: told janggi by
// the match, it plays no illegal move (skipped without it).
static void test_fsf_told_janggi(void **state) {
    (void)state;
    if (access(FSF_PATH, X_OK) != 0)
        skip();
    MatchConfig c = base_config(2);
    c.limits[0].nodes = c.limits[1].nodes = 200;
    for (int e = 0; e < 2; e++) {
        snprintf(c.engine[e].name, sizeof c.engine[e].name, "fsf%d", e);
        snprintf(c.engine[e].cmd, sizeof c.engine[e].cmd, "%s", FSF_PATH);
    }
    MatchTally t;
    ErrorInfo err;
    assert_int_equal(match_run(&c, &t, NULL, NULL, &err), STATUS_OK);
    assert_consistent(&t, 1);
    assert_int_equal(t.wins_by[0][REASON_ILLEGAL_MOVE] + t.wins_by[1][REASON_ILLEGAL_MOVE], 0);
}

// The engines die with the match, even a SIGKILLed one, while they are deep in a "search"
// that reads no stdin (so no EOF would end them).
static void test_engines_die_with_match(void **state) {
    (void)state;
    char pids[512];
    temp_path(pids, sizeof pids, "engine_pids");
    unlink(pids);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        setenv("FAKE_ENGINE_PIDFILE", pids, 1);
        MatchConfig c = base_config(2);
        c.watchdog = 600000;
        fake_spec(&c.engine[0], "A", "hang", "0");
        fake_spec(&c.engine[1], "B", "hang", "0");
        MatchTally t;
        ErrorInfo err;
        match_run(&c, &t, NULL, NULL, &err);
        _exit(0);
    }
    // Each engine is started twice: once to read its options (it quits at once), then for
    // the games; the last two pids are those playing.
    for (int i = 0; i < 500 && count_in_file(pids, "") < 4; i++)
        usleep(10000);
    usleep(100000); // the first `go`: engine A hangs in pause()
    int pid[2] = {0, 0}, probe[2];
    FILE *f = fopen(pids, "r");
    int got = f ? fscanf(f, "%d %d %d %d", &probe[0], &probe[1], &pid[0], &pid[1]) : 0;
    if (f)
        fclose(f);
    kill(child, SIGKILL); // before any check: a failed check must not leave the match running
    waitpid(child, NULL, 0);
    assert_int_equal(got, 4);
    for (int e = 0; e < 2; e++) {
        bool gone = false;
        for (int i = 0; i < 200 && !(gone = process_gone(pid[e])); i++)
            usleep(10000);
        if (!gone)
            kill(pid[e], SIGKILL);
        if (!gone)
            fail_msg("engine %d (pid %d) outlived the SIGKILLed match", e, pid[e]);
    }
    unlink(pids);
}

static void test_bad_config(void **state) {
    (void)state;
    MatchConfig c = base_config(3);
    fake_spec(&c.engine[0], "A", "good", NULL);
    fake_spec(&c.engine[1], "B", "good", NULL);
    MatchTally t;
    ErrorInfo err;
    assert_int_equal(match_run(&c, &t, NULL, NULL, &err), STATUS_RANGE);
    c.games = 2;
    c.limits[0].nodes = 0;
    assert_int_equal(match_run(&c, &t, NULL, NULL, &err), STATUS_RANGE);
    c.limits[0].nodes = 1;
    snprintf(c.engine[1].cmd, sizeof c.engine[1].cmd, "/nonexistent/engine");
    assert_int_equal(match_run(&c, &t, NULL, NULL, &err), STATUS_IO);
    Limits l;
    assert_int_equal(match_parse_limit("tc=10+0.1", &l, &err), STATUS_OK);
    assert_true(l.kind == LIMIT_CLOCK && l.base == 10000 && l.inc == 100);
    assert_int_equal(match_parse_limit("byoyomi=300+3x30", &l, &err), STATUS_OK);
    assert_true(l.base == 300000 && l.periods == 3 && l.byoyomi == 30000);
    assert_int_equal(match_parse_limit("nodes=abc", &l, &err), STATUS_SYNTAX);
    c.random_plies = GAME_PLY_LIMIT + 1;
    assert_int_equal(match_run(&c, &t, NULL, NULL, &err), STATUS_RANGE);
    assert_non_null(strstr(err.msg, "random-plies"));
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bookkeeping_16_pairings),
        cmocka_unit_test(test_fault_crash),
        cmocka_unit_test(test_fault_hang),
        cmocka_unit_test(test_fault_hang_kills_children),
        cmocka_unit_test(test_start_errors),
        cmocka_unit_test(test_fault_illegal),
        cmocka_unit_test(test_fault_garbage),
        cmocka_unit_test(test_fault_none),
        cmocka_unit_test(test_time_loss),
        cmocka_unit_test(test_byoyomi_loss),
        cmocka_unit_test(test_stop_flag),
        cmocka_unit_test(test_openings_file),
        cmocka_unit_test(test_sprt_stops),
        cmocka_unit_test(test_bad_config),
        cmocka_unit_test(test_option_refused),
        cmocka_unit_test(test_engines_die_with_match),
        cmocka_unit_test(test_variant_option),
        cmocka_unit_test(test_fsf_told_janggi),
        cmocka_unit_test(test_fsf_selfplay),
        cmocka_unit_test(test_fsf_xiangqi),
#ifdef HANSU_ENGINE_PATH
        cmocka_unit_test(test_hansu_selfplay),
        cmocka_unit_test(test_hansu_xiangqi),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
