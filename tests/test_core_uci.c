// SPDX-License-Identifier: MIT
// Perft through the front ends: `go perft N` in the UCI loop (through the uci API, answers
// written to a temporary stream) and `hansu perft` on the command line (the built executable
// run with popen). Divide lines are `move: count`; the answer ends with `Nodes searched: N`.
// Only position, go perft and d are tested here; the rest of uci.c has its own tests.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "board.h"
#include "engine.h"
#include "fen.h"
#include "notation.h"
#include "oracle_util.h"
#include "perft.h"
#include "uci.h"

static Board board;

// Reads a stream to its end (malloc'd, NUL-terminated).
static char *read_all_stream(FILE *f) {
    size_t cap = 1 << 16, len = 0, got;
    char *buf = malloc(cap);
    assert_non_null(buf);
    while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (len + 1 == cap) {
            buf = realloc(buf, cap *= 2);
            assert_non_null(buf);
        }
    }
    buf[len] = '\0';
    return buf;
}

// Runs the command lines through a fresh UCI context; returns everything it wrote (malloc'd).
static char *uci_run(const char *const *lines, int n) {
    FILE *out = tmpfile();
    assert_non_null(out);
    UciContext *ctx = uci_create(out);
    assert_non_null(ctx);
    for (int i = 0; i < n; i++)
        uci_handle_line(ctx, lines[i]);
    uci_handle_line(ctx, "isready"); // answered once everything before it is done
    uci_destroy(ctx);
    rewind(out);
    char *text = read_all_stream(out);
    fclose(out);
    return text;
}

// Runs a shell command; returns its standard output and error (malloc'd) and exit status.
static char *shell_run(const char *cmd, int *exit_status) {
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char *text = read_all_stream(p);
    int st = pclose(p);
    *exit_status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return text;
}

static int find_root_move(const Move *root, int n, const char *name) {
    for (int k = 0; k < n; k++) {
        char s[MOVE_STR_LEN];
        move_to_uci(root[k], s);
        if (strcmp(s, name) == 0)
            return k;
    }
    return -1;
}

// Checks a perft answer: the divide lines (when divide) are exactly the root moves of fen
// after moves, each with its perft(depth - 1), and `Nodes searched: N` is the total. Other
// lines (info) are allowed.
static void check_perft_output(const char *out, const char *fen, const char *moves, int depth,
                               bool divide) {
    test_load_fen(&board, fen);
    test_play(&board, moves);
    Move root[MAX_MOVES];
    uint64_t counts[MAX_MOVES];
    bool seen[MAX_MOVES] = {false};
    int n = depth > 0 ? perft_divide(&board, depth, root, counts) : 0;
    uint64_t total = perft(&board, depth);
    int lines = 0, totals = 0;
    char *copy = strdup(out);
    for (char *line = strtok(copy, "\n"); line; line = strtok(NULL, "\n")) {
        char mv[16], tail;
        unsigned long long count;
        if (sscanf(line, "Nodes searched: %llu%c", &count, &tail) == 1) {
            assert_int_equal(count, total);
            totals++;
        } else if (sscanf(line, "%15[a-i0-9]: %llu%c", mv, &count, &tail) == 2) {
            int k = find_root_move(root, n, mv);
            if (k < 0)
                fail_msg("divide line '%s' names no root move", line);
            assert_false(seen[k]);
            seen[k] = true;
            assert_int_equal(count, counts[k]);
            lines++;
        }
    }
    free(copy);
    assert_int_equal(totals, 1);
    assert_int_equal(lines, divide ? n : 0);
}

// The `Fen:` line of the first `d` answer in out, copied into fen.
static void fen_of_display(const char *out, char *fen, size_t len) {
    const char *p = strstr(out, "Fen: ");
    assert_non_null(p);
    p += 5;
    size_t n = strcspn(p, "\n");
    assert_true(n < len);
    memcpy(fen, p, n);
    fen[n] = '\0';
}

static const char *const C07 =
    "1n1kaabn1/cr2N4/5C1c1/p1pNp3p/9/9/P1PbP1P1P/3r1p3/4A4/R1BA1KB1R b - - 0 1";

static void test_uci_go_perft(void **state) {
    (void)state;
    const char *start[] = {"position startpos", "go perft 2"};
    char *out = uci_run(start, 2);
    check_perft_output(out, FEN_START, "", 2, true);
    assert_non_null(strstr(out, "Nodes searched: 1024\n"));
    free(out);
    char c07[256];
    snprintf(c07, sizeof c07, "position fen %s", C07);
    const char *c07_lines[] = {c07, "go perft 3"};
    out = uci_run(c07_lines, 2);
    check_perft_output(out, C07, "", 3, true);
    assert_non_null(strstr(out, "d10d9: "));
    assert_non_null(strstr(out, "a9e9: "));
    assert_non_null(strstr(out, "Nodes searched: 2644\n"));
    free(out);
    // After moves, with a pass written as 0000; after two passes nothing follows.
    const char *moves[] = {"position startpos moves e4d4 0000 d4d5", "go perft 2"};
    out = uci_run(moves, 2);
    check_perft_output(out, FEN_START, "e4d4 e9e9 d4d5", 2, true);
    free(out);
    const char *passes[] = {"position startpos moves e2e2 @@@@", "go perft 1"};
    out = uci_run(passes, 2);
    assert_non_null(strstr(out, "Nodes searched: 0\n"));
    free(out);
    const char *zero[] = {"position startpos", "go perft 0"};
    out = uci_run(zero, 2);
    assert_non_null(strstr(out, "Nodes searched: 1\n"));
    free(out);
}

// A bad position command answers an error naming the problem and keeps the position.
static void test_uci_position_errors(void **state) {
    (void)state;
    static const char *const bad[] = {
        "position startpos moves e4d4 pass",
        "position startpos moves e2e4x",
        "position startpos moves e4d4 e4d5",
        "position fen 9/4k4/9/9/9/9/9/4K4/9 w - - 0 1",
        "position fen 5k3/4a4/3CN4/9/1PP5p/9/8P/4C4/4A4/2B1K4 w - - 0 46",
        "position sideways",
    };
    static const char *const names[] = {"pass", "e2e4x", "e4d5", "ranks", "check", NULL};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *lines[] = {"position startpos moves a4a5", "d", bad[i], "d"};
        char *out = uci_run(lines, 4);
        const char *err = strstr(out, "info string");
        if (!err)
            fail_msg("'%s' got no error answer: %s", bad[i], out);
        if (names[i] && !strstr(err, names[i]))
            fail_msg("'%s': answer does not name '%s': %s", bad[i], names[i], out);
        char before[FEN_BUFFER], after[FEN_BUFFER];
        fen_of_display(out, before, sizeof before);
        fen_of_display(err, after, sizeof after);
        assert_string_equal(before, after);
        assert_string_equal(before, "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/P8/2P1P1P1P/1C5C1/4K4/"
                                    "RNBA1ABNR b - - 0 1");
        free(out);
    }
}

static char *hansu_cli(const char *args, int *exit_status) {
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s/engine/hansu' %s 2>&1", HANSU_BINARY_DIR, args);
    return shell_run(cmd, exit_status);
}

static void test_cli_perft(void **state) {
    (void)state;
    int rc;
    char *out = hansu_cli("perft --depth 2 --divide", &rc);
    assert_int_equal(rc, 0);
    check_perft_output(out, FEN_START, "", 2, true);
    // The answer ends with the total.
    const char *total = strstr(out, "Nodes searched: 1024\n");
    assert_non_null(total);
    assert_string_equal(total, "Nodes searched: 1024\n");
    free(out);
    static const char *const c08 = "1C3a3/2R6/1r1k5/9/8r/5B3/1P7/6N2/4A4/4KA3 b - - 7 61";
    char args[512];
    snprintf(args, sizeof args, "perft --fen '%s' --depth 3", c08);
    out = hansu_cli(args, &rc);
    assert_int_equal(rc, 0);
    check_perft_output(out, c08, "", 3, false);
    free(out);
    snprintf(args, sizeof args, "perft --fen '%s' --depth 1 --divide", c08);
    out = hansu_cli(args, &rc);
    assert_int_equal(rc, 0);
    check_perft_output(out, c08, "", 1, true);
    assert_non_null(strstr(out, "d8e8: 1\n"));
    assert_non_null(strstr(out, "i6f6: 1\n"));
    assert_non_null(strstr(out, "Nodes searched: 2\n"));
    free(out);
}

static void test_cli_errors(void **state) {
    (void)state;
    static const char *const bad[] = {
        "perft --fen '9/4k4/9/9/9/9/9/4K4/9 w - - 0 1' --depth 1",
        "perft --depth x",
        "perft --depth -1",
        "perft",
        "perft --depth 1 --bogus",
        "bench 3 extra",
        "bench x",
        "--help extra",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc;
        char *out = hansu_cli(bad[i], &rc);
        if (rc == 0)
            fail_msg("'hansu %s' exited 0: %s", bad[i], out);
        assert_null(strstr(out, "Nodes searched:"));
        assert_true(strlen(out) > 0);
        free(out);
    }
}

// Compiles a weights header as eval.c does (S defined first); returns the compiler's status.
static int compile_header(const char *path) {
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "printf '#define S(mg, eg) {(mg), (eg)}\\n#include \"%s\"\\n' | "
             "cc -std=c11 -fsyntax-only -I'%s/engine' -x c - 2>&1",
             path, HANSU_SOURCE_DIR);
    int rc;
    char *out = shell_run(cmd, &rc);
    if (rc != 0)
        print_error("%s", out);
    free(out);
    return rc;
}

// print-weights --note: a note that would break the banner's `//` comment (a newline or
// another control character, a trailing backslash) is refused before anything is written;
// any other note gives a header that compiles.
static void test_cli_print_weights(void **state) {
    (void)state;
    char path[] = "/tmp/hansu-weights-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    static const char *const bad[] = {"\"$(printf 'line one\\nline two')\"",
                                      "\"$(printf 'tab\\there')\"",
                                      "\"$(printf 'esc\\033[2J')\"", "'ends in \\'"};
    char args[512];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(args, sizeof args, "'%s/engine/hansu' print-weights --note %s 2>&1 > '%s'",
                 HANSU_BINARY_DIR, bad[i], path);
        int rc;
        char *out = shell_run(args, &rc);
        if (rc != 2 || !strstr(out, "hansu print-weights: banner note: "))
            fail_msg("'%s' exited %d: %s", args, rc, out);
        free(out);
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        assert_int_equal(fgetc(f), EOF); // nothing written
        fclose(f);
    }
    snprintf(args, sizeof args,
             "print-weights --note 'a note with /* */, \" and a \\ inside' > '%s'", path);
    int rc;
    free(hansu_cli(args, &rc));
    assert_int_equal(rc, 0);
    assert_int_equal(compile_header(path), 0);
    remove(path);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uci_go_perft),
        cmocka_unit_test(test_uci_position_errors),
        cmocka_unit_test(test_cli_perft),
        cmocka_unit_test(test_cli_errors),
        cmocka_unit_test(test_cli_print_weights),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
