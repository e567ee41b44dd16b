// SPDX-License-Identifier: MIT
// UCI scripts driven through uci_handle_line with the answers written to an in-memory stream, the
// protocol's side: the janggi dialect and UCI_Variant, errors that name the token and leave the
// position alone, moves after the end of the game, go after a refused position, overlong lines,
// options (case, the GUI's, strength and WDL), bench's arguments, bytes that are not text
// (escaped; a NUL refuses the line). The search commands: test_uci_go.c.
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

// The FEN that `d` prints.
static void current_fen(UciSession *s, char *fen, size_t n) {
    const char *d = strstr(uci_session_say(s, "d"), "Fen: ");
    assert_non_null(d);
    snprintf(fen, n, "%s", d + 5);
    fen[strcspn(fen, "\n")] = '\0';
}

static void test_handshake(void **state) {
    (void)state;
    UciSession s;
    uci_session_open(&s);
    const char *a = uci_session_say(&s, "uci");
    assert_non_null(strstr(a, "id name Hansu"));
    assert_non_null(
        strstr(a, "option name UCI_Variant type combo default janggi var janggi var xiangqi\n"));
    assert_non_null(strstr(a, "option name Hash type spin"));
    assert_non_null(strstr(a, "option name Threads type spin default 1 min 1 max 1024"));
    assert_non_null(strstr(a, "option name Move Overhead type spin default 10 min 0 max 5000\n"));
    assert_non_null(strstr(a, "uciok\n"));
    assert_string_equal(uci_session_say(&s, "isready"), "readyok\n");
    assert_string_equal(uci_session_say(&s, "setoption name UCI_Variant value janggi"), "");
    assert_string_equal(uci_session_say(&s, "setoption name Hash value 8"), "");
    assert_string_equal(uci_session_say(&s, "setoption name Move Overhead value 0"), "");
    assert_string_equal(uci_session_say(&s, "setoption name move overhead value 5000"), "");
    static const char *const bad_overheads[] = {"-1", "5001", "x", "10ms", ""};
    for (size_t i = 0; i < sizeof bad_overheads / sizeof bad_overheads[0]; i++) {
        char line[96];
        snprintf(line, sizeof line, "setoption name Move Overhead value %s", bad_overheads[i]);
        const char *e = uci_session_say(&s, line);
        if (!strstr(e, "info string error: setoption: Move Overhead value '"))
            fail_msg("'%s' answered: %s", line, e);
    }
    assert_non_null(
        strstr(uci_session_say(&s, "setoption name Hash value 0"), "info string error:"));
    assert_non_null(
        strstr(uci_session_say(&s, "setoption name Bogus Option value 3"), "'Bogus Option'"));
    assert_non_null(
        strstr(uci_session_say(&s, "setoption name UCI_Variant value shogi"), "'shogi'"));
    assert_non_null(strstr(uci_session_say(&s, "frobnicate"),
                           "info string error: unknown command 'frobnicate'"));
    assert_string_equal(uci_session_say(&s, "ucinewgame"), "");
    uci_session_close(&s);
}

// UCI_Variant xiangqi: startpos, fen, moves and go perft in xiangqi; go searches with xiangqi's
// evaluation (a legal xiangqi bestmove, the mate in 1 found, a stalemate reported as an ended
// game), bench runs xiangqi's positions; back to janggi, whose search and bench are janggi's.
static void test_variant_xiangqi(void **state) {
    (void)state;
    UciSession s;
    uci_session_open(&s);
    char fen[256];
    assert_string_equal(uci_session_say(&s, "setoption name UCI_Variant value xiangqi"), "");
    current_fen(&s, fen, sizeof fen);
    assert_string_equal(fen,
                        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    assert_string_equal(uci_session_say(&s, "position startpos moves h3e3 h10g8"), "");
    current_fen(&s, fen, sizeof fen);
    assert_string_equal(fen,
                        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
    uci_session_say(&s, "position startpos");
    assert_non_null(strstr(uci_session_say(&s, "go perft 2"), "\nNodes searched: 1920\n"));
    const char *a = uci_session_say(&s, "go depth 3");
    assert_non_null(strstr(a, "info depth 3 seldepth "));
    assert_null(strstr(a, "info string error"));
    const char *bm = strstr(a, "bestmove ");
    assert_non_null(bm);
    char move[16];
    assert_int_equal(sscanf(bm, "bestmove %15s", move), 1);
    char line[64];
    snprintf(line, sizeof line, "position startpos moves %s", move);
    assert_string_equal(uci_session_say(&s, line), ""); // a legal xiangqi move
    // Two chariots: b10 mates at once (a9 holds rank 9).
    uci_session_say(&s, "position fen 4k4/R8/9/9/9/9/9/9/1R7/3K5 w - - 0 1");
    a = uci_session_say(&s, "go depth 3");
    assert_non_null(strstr(a, " score mate 1 "));
    assert_non_null(strstr(a, "bestmove b2b10\n"));
    // Black has no legal move and is not in check: stalemate, Black lost.
    uci_session_say(&s, "position fen 5k3/R8/9/9/9/9/9/9/9/4K4 b - - 0 1");
    a = uci_session_say(&s, "go depth 3");
    assert_non_null(strstr(a, "info string game over: stalemate, red wins\n"));
    assert_non_null(strstr(a, "bestmove (none)\n"));
    a = uci_session_say(&s, "bench 2");
    assert_non_null(strstr(a, "Positions: 40\n"));
    // A xiangqi position in janggi's palaces only under xiangqi: an elephant across the river.
    assert_non_null(strstr(uci_session_say(&s, "position fen 4k4/9/9/9/2B6/9/9/9/9/4K4 w - - 0 1"),
                           "elephant across the river"));
    assert_string_equal(uci_session_say(&s, "setoption name UCI_Variant value janggi"), "");
    uci_session_say(&s, "position startpos");
    current_fen(&s, fen, sizeof fen);
    assert_string_equal(fen, FEN_START);
    assert_non_null(strstr(uci_session_say(&s, "bench 1"), "Positions: 50\n"));
    uci_session_close(&s);
}

static void test_position_errors(void **state) {
    (void)state;
    UciSession s;
    uci_session_open(&s);
    char before[256], after[256];
    uci_session_say(&s, "position startpos moves b1c3");
    current_fen(&s, before, sizeof before);
    const char *a = uci_session_say(&s, "position startpos moves a4a5 e2e4x");
    assert_non_null(strstr(a, "info string error:"));
    assert_non_null(strstr(a, "e2e4x"));
    current_fen(&s, after, sizeof after);
    assert_string_equal(before, after);
    assert_non_null(
        strstr(uci_session_say(&s, "position startpos moves a1a9"), "info string error:"));
    assert_non_null(
        strstr(uci_session_say(&s, "position fen 9/4k4/9 w - - 0 1"), "info string error:"));
    assert_non_null(strstr(uci_session_say(&s, "position sideways"), "info string error:"));
    current_fen(&s, after, sizeof after);
    assert_string_equal(before, after);
    // The three spellings of a pass.
    assert_string_equal(uci_session_say(&s, "position startpos moves e2e2 e9e9"), "");
    assert_string_equal(uci_session_say(&s, "position startpos moves 0000 @@@@"), "");
    uci_session_close(&s);
}

// Clear Hash, Ponder and the options a GUI looks for; hashfull in info lines.
static void test_gui_options(void **state) {
    (void)state;
    UciSession s;
    uci_session_open(&s);
    const char *a = uci_session_say(&s, "uci");
    assert_non_null(strstr(a, "option name Clear Hash type button\n"));
    assert_non_null(strstr(a, "option name Ponder type check default false\n"));
    assert_non_null(strstr(a, "option name MultiPV type spin default 1 min 1 max 256\n"));
    uci_session_say(&s, "position startpos moves c4c5");
    a = uci_session_say(&s, "go depth 6");
    assert_true(uci_session_last_value(a, " hashfull ") >= 0);
    long before = uci_session_last_value(a, " nodes ");
    // After Clear Hash the same search starts from an empty table: the nodes of a first search.
    assert_string_equal(uci_session_say(&s, "setoption name Clear Hash"), "");
    uci_session_say(&s, "ucinewgame");
    a = uci_session_say(&s, "go depth 6");
    assert_int_equal(uci_session_last_value(a, " nodes "), before);
    assert_non_null(strstr(uci_session_say(&s, "uci"),
                           "option name Skill Level type spin default 20 min 0 max 20\n"));
    assert_non_null(strstr(uci_session_say(&s, "setoption name Skill Level value 21"), "0..20"));
    assert_string_equal(uci_session_say(&s, "setoption name Skill Level value 3"), "");
    a = uci_session_say(&s, "go depth 9");
    assert_non_null(strstr(a, "bestmove "));
    assert_null(strstr(a, "info depth 5 ")); // depth 1 + level at most
    assert_string_equal(uci_session_say(&s, "setoption name Skill Level value 20"), "");
    assert_string_equal(uci_session_say(&s, "setoption name Ponder value true"), "");
    assert_non_null(strstr(uci_session_say(&s, "setoption name Ponder value maybe"), "'maybe'"));
    uci_session_close(&s);
}

// Sums the `wdl W D L` of every info line of a into *lines (how many) and checks each sums to
// 1000 with every part 0..1000; returns the number of info lines with a score.
static int check_wdl(const char *a, int *lines) {
    int scored = 0;
    *lines = 0;
    for (const char *p = a; (p = strstr(p, "info depth ")) != NULL; p++) {
        const char *eol = strchr(p, '\n');
        const char *sc = strstr(p, " score ");
        if (!sc || (eol && sc > eol))
            continue;
        scored++;
        const char *w = strstr(p, " wdl ");
        if (!w || (eol && w > eol))
            continue;
        int win, draw, loss;
        assert_int_equal(sscanf(w, " wdl %d %d %d", &win, &draw, &loss), 3);
        assert_true(win >= 0 && draw >= 0 && loss >= 0 && win <= 1000 && loss <= 1000);
        assert_int_equal(win + draw + loss, 1000);
        (*lines)++;
    }
    return scored;
}

// UCI_LimitStrength, UCI_Elo and UCI_ShowWDL: listed, bad values refused with the option named
// (the old value kept), the Elo's node cap ends a deep search early, WDL in every scored info
// line (both variants) once asked for and in none before.
static void test_strength_options(void **state) {
    (void)state;
    UciSession s;
    uci_session_open(&s);
    const char *a = uci_session_say(&s, "uci");
    assert_non_null(strstr(a, "option name UCI_LimitStrength type check default false\n"));
    assert_non_null(strstr(a, "option name UCI_Elo type spin default 2000 min 1700 max 2550\n"));
    assert_non_null(strstr(a, "option name UCI_ShowWDL type check default false\n"));
    // Each bad value, and the option its error must name.
    const char *bad[][2] = {{"UCI_Elo value 1399", "UCI_Elo"},
                            {"UCI_Elo value 2701", "UCI_Elo"},
                            {"UCI_Elo value x", "UCI_Elo"},
                            {"UCI_Elo value 15OO", "UCI_Elo"},
                            {"UCI_Elo", "UCI_Elo"},
                            {"UCI_LimitStrength value 1", "UCI_LimitStrength"},
                            {"UCI_LimitStrength", "UCI_LimitStrength"},
                            {"UCI_ShowWDL value yes", "UCI_ShowWDL"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char line[96];
        snprintf(line, sizeof line, "setoption name %s", bad[i][0]);
        a = uci_session_say(&s, line);
        assert_non_null(strstr(a, "info string"));
        assert_non_null(strstr(a, bad[i][1]));
    }
    uci_session_say(&s, "position startpos moves c4c5");
    int with_wdl;
    a = uci_session_say(&s, "go depth 5");
    assert_true(check_wdl(a, &with_wdl) >= 5 && with_wdl == 0);
    // At 1700 the node cap (a few hundred nodes) ends a search asked for depth 30.
    assert_string_equal(uci_session_say(&s, "setoption name UCI_LimitStrength value true"), "");
    assert_string_equal(uci_session_say(&s, "setoption name UCI_Elo value 1700"), "");
    a = uci_session_say(&s, "go depth 30");
    assert_non_null(strstr(a, "bestmove "));
    assert_true(uci_session_last_value(a, " nodes ") <= (long)strength_of_elo(NULL, 1700).nodes);
    assert_null(strstr(a, "info depth 12 "));
    assert_string_equal(uci_session_say(&s, "setoption name UCI_LimitStrength value false"), "");
    a = uci_session_say(&s, "go depth 7");
    assert_non_null(strstr(a, "info depth 7 "));
    assert_string_equal(uci_session_say(&s, "setoption name UCI_ShowWDL value true"), "");
    for (int v = 0; v < 2; v++) {
        if (v)
            uci_session_say(&s, "setoption name UCI_Variant value xiangqi");
        uci_session_say(&s, "position startpos");
        a = uci_session_say(&s, "go depth 5");
        int scored = check_wdl(a, &with_wdl);
        assert_true(scored >= 5 && with_wdl == scored);
    }
    uci_session_close(&s);
}

// A move after the end of the game is refused by name, with the reason and the ply, and the
// position stays as it was; a FEN of an ended game alone still loads.
static void test_moves_after_game_over(void **state) {
    (void)state;
    UciSession s;
    uci_session_open(&s);
    char before[256], after[256];
    uci_session_say(&s, "position startpos moves c4c5");
    current_fen(&s, before, sizeof before);
    assert_string_equal(uci_session_say(&s, "position startpos moves e2e2 e9e9 b1c3"),
                        "info string error: move 'b1c3': the game is already over "
                        "(double-pass at ply 2)\n");
    current_fen(&s, after, sizeof after);
    assert_string_equal(before, after);
    // The GUI thinks the refused position stands: go must not answer a move of the old one.
    const char *a = uci_session_say(&s, "go depth 3");
    assert_non_null(strstr(a, "info string error: go: no position to search"));
    assert_non_null(strstr(a, "bestmove (none)\n"));
    assert_null(strstr(a, "info depth"));
    // Han is mated: the a10 chariot checks along rank 10, the i9 chariot holds e9.
    const char *mate = "position fen R3k4/8R/9/9/9/9/9/9/9/3K5 b - - 0 1";
    assert_string_equal(uci_session_say(&s, mate), "");
    a = uci_session_say(&s, "go depth 3");
    assert_non_null(strstr(a, "info string game over: checkmate"));
    assert_non_null(strstr(a, "bestmove (none)"));
    char moves[128];
    snprintf(moves, sizeof moves, "%s moves e10e9", mate);
    assert_non_null(strstr(uci_session_say(&s, moves),
                           "info string error: move 'e10e9': the game is "
                           "already over (checkmate at ply 1)"));
    // The 200-ply limit: the move that reaches ply 200 is fine, the next one is not.
    a = uci_session_say(
        &s, "position fen rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR "
            "b - - 0 100 moves e9e9 e2e2");
    assert_non_null(strstr(a, "move 'e2e2': the game is already over (move-limit at ply 200)"));
    current_fen(&s, after, sizeof after);
    assert_string_equal(after, "R3k4/8R/9/9/9/9/9/9/9/3K5 b - - 0 1");
    uci_session_close(&s);
}

// After a refused position every go and go perft is refused (with its one bestmove (none)
// for go), whatever was loaded before, until a good position arrives.
static void test_go_after_refused_position(void **state) {
    (void)state;
    static const char *const bad[] = {
        "position startpos moves b1c3 zz",
        "position fen 4k4/9/9/9/18/9/9/9/4K4/9 w - - 0 1",
        "position sideways",
        "position startpos junk",
    };
    UciSession s;
    uci_session_open(&s);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_non_null(strstr(uci_session_say(&s, "position startpos moves c4c5"), ""));
        assert_non_null(strstr(uci_session_say(&s, bad[i]), "info string error: "));
        static const char *const gos[] = {"go depth 2", "go nodes 500", "go movetime 20",
                                          "go infinite"};
        for (size_t k = 0; k < sizeof gos / sizeof gos[0]; k++) {
            const char *a = uci_session_say(&s, gos[k]);
            if (!strstr(a, "info string error: go: no position to search") ||
                uci_session_count(a, "bestmove") != 1 || !strstr(a, "bestmove (none)\n") ||
                strstr(a, "info depth"))
                fail_msg("'%s' then '%s' answered:\n%s", bad[i], gos[k], a);
        }
        const char *p = uci_session_say(&s, "go perft 1");
        assert_non_null(strstr(p, "info string error: go perft: no position"));
        assert_null(strstr(p, "Nodes searched"));
    }
    // A good position lifts the refusal.
    uci_session_say(&s, "position startpos");
    const char *a = uci_session_say(&s, "go depth 1");
    assert_non_null(strstr(a, "info depth 1 "));
    assert_null(strstr(a, "bestmove (none)"));
    assert_non_null(strstr(uci_session_say(&s, "go perft 1"), "Nodes searched: 32\n"));
    uci_session_close(&s);
}

// A line over 64 KiB is refused whole, with what its command implies: after a `position` so
// refused, `go` searches nothing (bestmove (none)) until a good position arrives; a `go` so
// refused still gets its one bestmove, `bestmove (none)`, after the error.
static void test_overlong_lines(void **state) {
    (void)state;
    size_t len = 70000;
    char *line = malloc(len + 1);
    assert_non_null(line);
    UciSession s;
    uci_session_open(&s);
    uci_session_say(&s, "position startpos moves c4c5");
    // position startpos moves c4c5 c7c6 c5c4 c6c7 ... (legal, but too long to read)
    static const char *const cycle[] = {" c4c5", " c7c6", " c5c4", " c6c7"};
    size_t at = (size_t)sprintf(line, "position startpos moves");
    for (size_t k = 0; at + 6 < len; k++)
        at += (size_t)sprintf(line + at, "%s", cycle[k % 4]);
    const char *a = uci_session_say(&s, line);
    assert_non_null(strstr(a, "info string error: command longer than 65536 characters"));
    a = uci_session_say(&s, "go depth 2");
    if (!strstr(a, "info string error: go: no position to search") ||
        uci_session_count(a, "bestmove") != 1 || !strstr(a, "bestmove (none)\n") ||
        strstr(a, "info depth"))
        fail_msg("go after an over-long position answered:\n%s", a);
    uci_session_say(&s, "position startpos");
    // go depth 1 depth 1 ... over 64 KiB: refused, one bestmove (none) after the error.
    at = (size_t)sprintf(line, "go");
    while (at + 9 < len)
        at += (size_t)sprintf(line + at, " depth 1");
    a = uci_session_say(&s, line);
    const char *err = strstr(a, "info string error: command longer than 65536 characters");
    const char *none = strstr(a, "bestmove (none)\n");
    if (!err || !none || none < err || uci_session_count(a, "bestmove") != 1 ||
        strstr(a, "info depth"))
        fail_msg("an over-long go answered:\n%s", a);
    // The position was good: the next go searches it.
    a = uci_session_say(&s, "go depth 1");
    assert_non_null(strstr(a, "info depth 1 "));
    assert_null(strstr(a, "bestmove (none)"));
    // Too many tokens is refused the same way.
    at = (size_t)sprintf(line, "go");
    while (at + 3 < 2 * 5000)
        at += (size_t)sprintf(line + at, " 1");
    a = uci_session_say(&s, line);
    assert_non_null(strstr(a, "info string error: command has too many tokens"));
    assert_int_equal(uci_session_count(a, "bestmove (none)\n"), 1);
    uci_session_close(&s);
    free(line);
}

// Option names and a combo's values are matched case-insensitively, as in Stockfish.
static void test_option_case(void **state) {
    (void)state;
    UciSession s;
    uci_session_open(&s);
    char fen[256];
    assert_string_equal(uci_session_say(&s, "setoption name UCI_Variant value XIANGQI"), "");
    current_fen(&s, fen, sizeof fen);
    assert_string_equal(fen,
                        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    assert_string_equal(uci_session_say(&s, "setoption name uci_variant value Janggi"), "");
    current_fen(&s, fen, sizeof fen);
    assert_string_equal(fen, FEN_START);
    assert_string_equal(uci_session_say(&s, "setoption name HASH value 2"), "");
    assert_non_null(strstr(uci_session_say(&s, "setoption name UCI_Variant value chess"),
                           "setoption: UCI_Variant 'chess' is not supported"));
    uci_session_close(&s);
}

// True when text holds only printable ASCII and newlines.
static bool printable(const char *text) {
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if ((*p < 0x20 && *p != '\n') || *p >= 0x7f)
            return false;
    return true;
}

// Bytes that are not text come back escaped as \xNN, and a long command is quoted cut short.
static void test_binary_echo(void **state) {
    (void)state;
    UciSession s;
    uci_session_open(&s);
    const char *a = uci_session_say(&s, "isr\x01\xff\x1b[2Jeady");
    assert_string_equal(a, "info string error: unknown command 'isr\\x01\\xFF\\x1B[2Jeady'\n");
    char lng[300];
    memset(lng, 'x', sizeof lng - 1);
    lng[sizeof lng - 1] = '\0';
    a = uci_session_say(&s, lng);
    assert_non_null(strstr(a, "unknown command 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'\n"));
    assert_true(strlen(a) < 120);
    // Binary inside other commands' errors (move strings, FEN letters, go tokens).
    static const char *const lines[] = {
        "position startpos moves b1c3\x7f", "position fen 4k4/9/9/9/9/9/9/9/4K4/\x02\x03 w - - 0 1",
        "go depth \x80\x81", "setoption name \x05 value 1", "bench \x9b"};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        a = uci_session_say(&s, lines[i]);
        if (!strstr(a, "info string error: ") || !printable(a))
            fail_msg("line %zu answered unescaped:\n%s", i, a);
    }
    uci_session_close(&s);
}

// A NUL byte would cut the line short (`isready\0junk` read as `isready`): refused whole.
static void test_nul_line(void **state) {
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    static const char script[] = "isready\0junk\nposition startpos\0 moves b1c3\nd\nisready\n";
    FILE *in = fmemopen((void *)script, sizeof script - 1, "r");
    assert_non_null(in);
    UciContext *ctx = uci_create(out);
    assert_non_null(ctx);
    assert_int_equal(uci_loop(ctx, in), 0);
    uci_destroy(ctx);
    fclose(in);
    fclose(out);
    const char *want = "info string error: command refused: a NUL byte at byte 8 of "
                       "'isready\\x00junk'\n"
                       "info string error: command refused: a NUL byte at byte 18 of "
                       "'position startpos\\x00 moves b1c3'\n";
    if (strncmp(buf, want, strlen(want)) != 0)
        fail_msg("answered:\n%s", buf);
    assert_int_equal(uci_session_count(buf, "readyok\n"), 1);
    free(buf);
}

// bench takes one optional depth and nothing more.
static void test_bench_arguments(void **state) {
    (void)state;
    UciSession s;
    uci_session_open(&s);
    const char *a = uci_session_say(&s, "bench 3 extra");
    assert_non_null(strstr(a, "info string error: bench: unexpected argument 'extra'"));
    assert_null(strstr(a, "Nodes searched"));
    assert_non_null(strstr(uci_session_say(&s, "bench 0"), "info string error: bench: depth '0'"));
    uci_session_close(&s);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_handshake),
        cmocka_unit_test(test_variant_xiangqi),
        cmocka_unit_test(test_position_errors),
        cmocka_unit_test(test_moves_after_game_over),
        cmocka_unit_test(test_go_after_refused_position),
        cmocka_unit_test(test_binary_echo),
        cmocka_unit_test(test_nul_line),
        cmocka_unit_test(test_bench_arguments),
        cmocka_unit_test(test_overlong_lines),
        cmocka_unit_test(test_option_case),
        cmocka_unit_test(test_gui_options),
        cmocka_unit_test(test_strength_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
