// SPDX-License-Identifier: MIT
// The CECP translator (cecp.h, issue 43) on its own: features read, each UCI command said in
// CECP (the lines an XBoard engine gets), each engine line read back as UCI.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cecp_child.h"
#include "engine.h"

// The lines written to the "engine", joined by '|'.
typedef struct Sent {
    char text[4096];
} Sent;

static bool collect(void *ctx, const char *line) {
    Sent *s = ctx;
    size_t n = strlen(s->text);
    snprintf(s->text + n, sizeof s->text - n, "%s%s", n ? "|" : "", line);
    return true;
}

static Cecp *started(bool setboard) {
    Cecp *c = cecp_new();
    assert_non_null(c);
    assert_false(cecp_feature(c, "tellics say MaxQi"));
    assert_false(cecp_feature(c, setboard ? "feature setboard=1 ping=1 usermove=1 done=0"
                                          : "feature setboard=0 ping=1 done=0"));
    assert_true(cecp_feature(c, "feature variants=\"xiangqi,normal\" myname=\"X Y\" done=1"));
    assert_string_equal(cecp_variants(c), "xiangqi normal ");
    assert_int_equal(cecp_setboard(c), setboard);
    return c;
}

// Without setboard: a game from the start is `new`, the variant and the moves (ranks from 0).
static void test_from_start(void **state) {
    (void)state;
    Cecp *c = started(false);
    Sent s = {""};
    assert_true(cecp_command(c, "setoption name UCI_Variant value xiangqi", collect, &s));
    assert_true(cecp_command(c, "setoption name Hash value 8", collect, &s));
    assert_true(cecp_command(c, "isready", collect, &s));
    assert_true(cecp_command(c, "ucinewgame", collect, &s));
    assert_string_equal(s.text, "option Hash=8|ping 1|new|variant xiangqi|easy|post|force");
    s.text[0] = '\0';
    assert_true(cecp_command(c,
                             "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/"
                             "RNBAKABNR w - - 0 1 moves h3e3 h10g8",
                             collect, &s));
    assert_true(cecp_command(c, "go wtime 5000 btime 4000 winc 100 binc 100", collect, &s));
    assert_string_equal(s.text, "new|variant xiangqi|force|h2e2|h9g7|level 0 0:05 0.1|time 500|"
                                "otim 400|go");
    // Another position than the start cannot be told without setboard; nodes never.
    assert_true(cecp_command(c, "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", collect, &s));
    assert_false(cecp_command(c, "go depth 3", collect, &s));
    assert_false(cecp_command(c, "go nodes 100", collect, &s));
    cecp_free(c);
}

// With setboard and usermove: force, setboard, usermove; the limits by depth and move time.
static void test_setboard(void **state) {
    (void)state;
    Cecp *c = started(true);
    Sent s = {""};
    assert_true(
        cecp_command(c, "position fen 4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 1 moves e10e9", collect, &s));
    assert_true(cecp_command(c, "go depth 7", collect, &s));
    assert_string_equal(s.text, "force|setboard 4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 1|usermove "
                                "e9e8|sd 7|st 100000|go");
    s.text[0] = '\0';
    assert_true(cecp_command(c, "go movetime 2500", collect, &s));
    assert_string_equal(s.text, "force|setboard 4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 1|usermove "
                                "e9e8|st 2|go");
    s.text[0] = '\0';
    assert_true(cecp_command(c, "stop", collect, &s));
    assert_true(cecp_command(c, "quit", collect, &s));
    assert_string_equal(s.text, "?|quit");
    cecp_free(c);
}

// The engine's lines as UCI: its move (ranks from 1), its thinking, the last ping's pong.
static void test_replies(void **state) {
    (void)state;
    Cecp *c = started(true);
    Sent s = {""};
    char line[128];
    snprintf(line, sizeof line, "move h9g7");
    assert_true(cecp_reply(c, line, sizeof line));
    assert_string_equal(line, "bestmove h10g8");
    snprintf(line, sizeof line, " 3     17        0       2844 h9g7");
    assert_true(cecp_reply(c, line, sizeof line));
    assert_string_equal(line, "info depth 3 score cp 17 nodes 2844");
    assert_true(cecp_command(c, "isready", collect, &s));
    assert_true(cecp_command(c, "isready", collect, &s));
    snprintf(line, sizeof line, "pong 1");
    assert_false(cecp_reply(c, line, sizeof line)); // an older ping's answer
    snprintf(line, sizeof line, "pong 2");
    assert_true(cecp_reply(c, line, sizeof line));
    assert_string_equal(line, "readyok");
    snprintf(line, sizeof line, "Error (unknown command): foo");
    assert_true(cecp_reply(c, line, sizeof line));
    assert_string_equal(line, "Error (unknown command): foo");
    cecp_free(c);
}

// A janggi pass both ways in XBoard's form: UCI's general square twice (or "0000") goes out as
// "@@@@", and the engine's "move @@@@" comes back as a pass the referee reads ("0000"). The pass
// went out renumbered as a move ("usermove e0e0"), and "move @@@@" was never delivered (the
// engine that passed lost by "hang").
static void test_pass(void **state) {
    (void)state;
    Cecp *c = started(true);
    Sent s = {""};
    const char *fen = "position fen 9/3k5/9/9/3r1r3/9/9/2n6/9/4K4 w - - 0 1 moves ";
    char cmd[160];
    snprintf(cmd, sizeof cmd, "%se1e1 d6d1", fen);
    assert_true(cecp_command(c, cmd, collect, &s));
    assert_true(cecp_command(c, "go depth 3", collect, &s));
    assert_string_equal(s.text, "force|setboard 9/3k5/9/9/3r1r3/9/9/2n6/9/4K4 w - - 0 1|"
                                "usermove @@@@|usermove d5d0|sd 3|st 100000|go");
    char line[64];
    snprintf(line, sizeof line, "move @@@@");
    assert_true(cecp_reply(c, line, sizeof line));
    assert_string_equal(line, "bestmove 0000");
    snprintf(line, sizeof line, "move e1e1"); // two squares: only renumbered
    assert_true(cecp_reply(c, line, sizeof line));
    assert_string_equal(line, "bestmove e2e2");
    s.text[0] = '\0';
    snprintf(cmd, sizeof cmd, "%s0000 d6d1 @@@@", fen);
    assert_true(cecp_command(c, cmd, collect, &s));
    assert_true(cecp_command(c, "go depth 3", collect, &s));
    assert_string_equal(s.text, "force|setboard 9/3k5/9/9/3r1r3/9/9/2n6/9/4K4 w - - 0 1|"
                                "usermove @@@@|usermove d5d0|usermove @@@@|sd 3|st 100000|go");
    cecp_free(c);
}

// An engine without ping: the translator answers readyok itself.
static void test_no_ping(void **state) {
    (void)state;
    Cecp *c = cecp_new();
    assert_true(cecp_feature(c, "feature done=1"));
    Sent s = {""};
    char line[32];
    assert_false(cecp_pending(c, line, sizeof line));
    assert_true(cecp_command(c, "isready", collect, &s));
    assert_string_equal(s.text, "");
    assert_true(cecp_pending(c, line, sizeof line));
    assert_string_equal(line, "readyok");
    assert_false(cecp_pending(c, line, sizeof line));
    cecp_free(c);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_from_start), cmocka_unit_test(test_setboard),
        cmocka_unit_test(test_replies),    cmocka_unit_test(test_pass),
        cmocka_unit_test(test_no_ping),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
