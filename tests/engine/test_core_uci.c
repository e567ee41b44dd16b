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
    uci_wait(ctx); // a perft runs in its own thread, as a search does
    uci_handle_line(ctx, "isready");
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

// One oracle position: its perft counts by depth (perft_janggi.tsv) and, when the oracle has
// it, its sorted depth-1 move list (moves_janggi.tsv, space-separated).
typedef struct OraclePos {
    const char *fen;
    uint64_t nodes[6]; // nodes[d] for depth d, 0 when the oracle has no row
    const char *moves; // NULL when moves_janggi.tsv does not list the position
} OraclePos;

static Tsv perft_tsv, moves_tsv;

// The oracle's counts for fen; fails the test when the oracle does not hold the position.
static OraclePos oracle_pos(const char *fen) {
    if (!perft_tsv.count) {
        oracle_load(&perft_tsv, "perft_janggi.tsv");
        oracle_load(&moves_tsv, "moves_janggi.tsv");
    }
    OraclePos o = {fen, {0}, NULL};
    for (int i = 0; i < perft_tsv.count; i++) {
        const TsvRow *r = &perft_tsv.rows[i];
        int d = atoi(r->field[3]);
        if (r->nfields == 5 && strcmp(r->field[2], fen) == 0 && d >= 1 && d <= 5)
            o.nodes[d] = strtoull(r->field[4], NULL, 10);
    }
    for (int i = 0; i < moves_tsv.count; i++)
        if (moves_tsv.rows[i].nfields == 3 && strcmp(moves_tsv.rows[i].field[1], fen) == 0)
            o.moves = moves_tsv.rows[i].field[2];
    if (!o.nodes[1])
        fail_msg("the oracle has no perft row for '%s'", fen);
    return o;
}

// True when name is one of the space-separated moves of list.
static bool list_has_move(const char *list, const char *name) {
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return true;
    return false;
}

// Checks a perft answer against counts that do not come from Hansu: `Nodes searched: N` is
// want_total, and (when divide) there are want_moves divide lines `move: count`, no move
// twice, each in oracle_moves when given (the oracle's own move list), adding up to N.
// Other lines (info) are allowed.
static void check_perft_output(const char *out, uint64_t want_total, int want_moves,
                               const char *oracle_moves, bool divide) {
    int lines = 0, totals = 0;
    uint64_t sum = 0;
    char seen[MAX_MOVES][16];
    char *copy = strdup(out);
    for (char *line = strtok(copy, "\n"); line; line = strtok(NULL, "\n")) {
        char mv[16], tail;
        unsigned long long count;
        if (sscanf(line, "Nodes searched: %llu%c", &count, &tail) == 1) {
            if (count != want_total)
                fail_msg("Nodes searched: %llu, the oracle says %llu\n%s", count,
                         (unsigned long long)want_total, out);
            totals++;
        } else if (sscanf(line, "%15[a-i0-9]: %llu%c", mv, &count, &tail) == 2) {
            if (oracle_moves && !list_has_move(oracle_moves, mv))
                fail_msg("divide line '%s' names no move of the oracle's list", line);
            for (int k = 0; k < lines; k++)
                if (strcmp(seen[k], mv) == 0)
                    fail_msg("divide line '%s' repeats a move", line);
            assert_true(lines < MAX_MOVES);
            snprintf(seen[lines++], sizeof seen[0], "%s", mv);
            sum += count;
        }
    }
    free(copy);
    assert_int_equal(totals, 1);
    assert_int_equal(lines, divide ? want_moves : 0);
    if (divide)
        assert_int_equal(sum, want_total);
}

// check_perft_output() with the oracle's counts of fen at depth.
static void check_perft_oracle(const char *out, const char *fen, int depth, bool divide) {
    OraclePos o = oracle_pos(fen);
    assert_true(depth >= 1 && depth <= 5 && o.nodes[depth]);
    check_perft_output(out, o.nodes[depth], (int)o.nodes[1], o.moves, divide);
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

// `go perft N` through the UCI loop, divided by root move, against counts that do not come
// from Hansu: every oracle position at depths 1 to 3; C07 of cases_janggi.md; positions after
// moves and passes, counted by Fairy-Stockfish 11.1 (janggicasual, the rules page's perft).
static void test_uci_go_perft(void **state) {
    (void)state;
    oracle_pos(FEN_START); // loads the oracle
    int checked = 0;
    for (int i = 0; i < perft_tsv.count; i++) {
        const TsvRow *r = &perft_tsv.rows[i];
        int depth = atoi(r->field[3]);
        if (depth > 3)
            continue;
        char pos[320];
        snprintf(pos, sizeof pos, "position fen %s", r->field[2]);
        char go[32];
        snprintf(go, sizeof go, "go perft %d", depth);
        const char *lines[] = {pos, go};
        char *out = uci_run(lines, 2);
        check_perft_oracle(out, r->field[2], depth, true);
        free(out);
        checked++;
    }
    assert_true(checked >= 150);
    char c07[256];
    snprintf(c07, sizeof c07, "position fen %s", C07);
    const char *c07_lines[] = {c07, "go perft 3"};
    char *out = uci_run(c07_lines, 2);
    check_perft_output(out, 2644, 2, "a9e9 d10d9", true);
    free(out);
    // After moves, with a pass written as 0000; after two passes nothing follows.
    const char *moves[] = {"position startpos moves e4d4 0000 d4d5", "go perft 2"};
    out = uci_run(moves, 2);
    check_perft_output(out, 1088, 32, NULL, true);
    free(out);
    const char *passes[] = {"position startpos moves e2e2 @@@@", "go perft 1"};
    out = uci_run(passes, 2);
    check_perft_output(out, 0, 0, NULL, true);
    free(out);
    const char *zero[] = {"position startpos", "go perft 0"};
    out = uci_run(zero, 2);
    check_perft_output(out, 1, 0, NULL, false); // depth 0: no root moves, one leaf
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

// The count of a bench's "Nodes searched: N" line, -1 without one.
static long bench_nodes(const char *out) {
    const char *line = strstr(out, "Nodes searched: ");
    return line ? strtol(line + strlen("Nodes searched: "), NULL, 10) : -1;
}

// `hansu perft --variant xiangqi`: the start position's published 79666 at depth 3, a FEN read
// as xiangqi (X02 of perft_xiangqi.tsv, 67 at depth 2), an unknown variant refused.
static void test_cli_perft_xiangqi(void **state) {
    (void)state;
    int rc;
    char *out = hansu_cli("perft --variant xiangqi --depth 3", &rc);
    assert_int_equal(rc, 0);
    assert_string_equal(out, "Nodes searched: 79666\n");
    free(out);
    out = hansu_cli("perft --variant xiangqi --fen '6b2/4k4/3n5/6p2/9/8p/9/3A1A3/5K3/6B2 w - - 1 "
                    "36' --depth 2",
                    &rc);
    assert_int_equal(rc, 0);
    assert_string_equal(out, "Nodes searched: 67\n");
    free(out);
    out = hansu_cli("perft --variant shogi --depth 1", &rc);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(out, "--variant 'shogi' is not known"));
    free(out);
    // bench and print-weights take the variant too: xiangqi's positions, its own header.
    out = hansu_cli("bench --variant xiangqi 1", &rc);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "Positions: 40\n"));
    free(out);
    out = hansu_cli("print-weights --variant xiangqi", &rc);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "// variant: xiangqi\n"));
    assert_non_null(strstr(out, "// TEMPO (tempo): for the side to move\n"));
    free(out);
    out = hansu_cli("bench --variant shogi", &rc);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(out, "hansu bench: --variant 'shogi' is not known"));
    free(out);
    // --simd names the kernels: an unknown one is refused before the bench, naming those built.
    out = hansu_cli("bench --simd avx9 1", &rc);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(out, "--simd 'avx9': not a kernel of this build (it has portable"));
    assert_null(strstr(out, "Nodes searched"));
    free(out);
    out = hansu_cli("bench --simd portable 1", &rc);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "Nodes searched"));
    free(out);
    // --set NAME=VALUE: a search parameter, as its UCI option; the default's value gives the
    // default's count, another value another; refused before the bench out of range or unknown.
    out = hansu_cli("bench 4", &rc);
    assert_int_equal(rc, 0);
    long plain = bench_nodes(out);
    free(out);
    out = hansu_cli("bench --set rfp_margin=90 --set eval_blend=0 4", &rc);
    assert_int_equal(rc, 0);
    assert_int_equal(bench_nodes(out), plain);
    free(out);
    out = hansu_cli("bench --set eval_blend=40 4", &rc);
    assert_int_equal(rc, 0);
    assert_int_not_equal(bench_nodes(out), plain);
    free(out);
    const char *bad[][2] = {
        {"bench --set eval_blend=101 1", "--set eval_blend value '101' is not -1..100"},
        {"bench --set eval_blend=-2 1", "--set eval_blend value '-2' is not -1..100"},
        {"bench --set no_such=1 1", "--set 'no_such' is not a search parameter"},
        {"bench --set eval_blend 1", "--set 'eval_blend' is not NAME=VALUE"},
        {"bench --set =5 1", "--set '=5' is not NAME=VALUE"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        out = hansu_cli(bad[i][0], &rc);
        assert_int_equal(rc, 2);
        assert_non_null(strstr(out, bad[i][1]));
        assert_null(strstr(out, "Nodes searched"));
        free(out);
    }
}

// `hansu perft` against the oracle: every oracle position at depth 2 with --divide, the start
// position at depth 3 without; C08 of cases_janggi.md (exactly d8e8 and i6f6).
static void test_cli_perft(void **state) {
    (void)state;
    int rc;
    char *out = hansu_cli("perft --depth 2 --divide", &rc);
    assert_int_equal(rc, 0);
    check_perft_oracle(out, FEN_START, 2, true);
    // The answer ends with the total.
    const char *total = strstr(out, "Nodes searched: 1024\n");
    assert_non_null(total);
    assert_string_equal(total, "Nodes searched: 1024\n");
    free(out);
    out = hansu_cli("perft --depth 3", &rc);
    assert_int_equal(rc, 0);
    check_perft_oracle(out, FEN_START, 3, false);
    free(out);
    char args[512];
    for (int i = 0; i < perft_tsv.count; i++) {
        const TsvRow *r = &perft_tsv.rows[i];
        if (atoi(r->field[3]) != 2)
            continue;
        snprintf(args, sizeof args, "perft --fen '%s' --depth 2 --divide", r->field[2]);
        out = hansu_cli(args, &rc);
        assert_int_equal(rc, 0);
        check_perft_oracle(out, r->field[2], 2, true);
        free(out);
    }
    static const char *const c08 = "1C3a3/2R6/1r1k5/9/8r/5B3/1P7/6N2/4A4/4KA3 b - - 7 61";
    snprintf(args, sizeof args, "perft --fen '%s' --depth 1 --divide", c08);
    out = hansu_cli(args, &rc);
    assert_int_equal(rc, 0);
    check_perft_output(out, 2, 2, "d8e8 i6f6", true);
    assert_non_null(strstr(out, "d8e8: 1\n"));
    assert_non_null(strstr(out, "i6f6: 1\n"));
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
                                      "\"$(printf 'tab\\there')\"", "\"$(printf 'esc\\033[2J')\"",
                                      "'ends in \\'"};
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
        cmocka_unit_test(test_uci_go_perft),      cmocka_unit_test(test_uci_position_errors),
        cmocka_unit_test(test_cli_perft),         cmocka_unit_test(test_cli_errors),
        cmocka_unit_test(test_cli_perft_xiangqi), cmocka_unit_test(test_cli_print_weights),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
