// SPDX-License-Identifier: MIT
// Openings files (engine/openings.h), the reader hansu-match and hansu-selfplay share: FENs in
// file order with their lines, comments and blank lines skipped, the "# variant:" line, and
// every error naming the file and line.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine.h"
#include "fen.h"
#include "openings.h"
#include "variant.h"

static const char XQ_AFTER_C2E2[] =
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";

// Writes text to a fresh file and returns its path.
static const char *write_file(const char *text) {
    static char path[64];
    snprintf(path, sizeof path, "/tmp/hansu-openings-%d.fen", (int)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static Status load(const char *text, const Variant *v, Openings *o, ErrorInfo *err) {
    const char *path = write_file(text);
    Status st = openings_load(path, v, o, err);
    unlink(path);
    return st;
}

static void test_reads_in_order(void **state) {
    (void)state;
    Openings o;
    ErrorInfo err;
    char text[512];
    snprintf(text, sizeof text, "# variant: xiangqi\n# 1. C2=5\n%s\n\n%s\r\n", XQ_AFTER_C2E2,
             VARIANT_XIANGQI.start_fen);
    assert_int_equal(load(text, &VARIANT_XIANGQI, &o, &err), STATUS_OK);
    assert_int_equal(o.count, 2);
    assert_string_equal(o.fen[0], XQ_AFTER_C2E2);
    assert_string_equal(o.fen[1], VARIANT_XIANGQI.start_fen);
    assert_int_equal(o.line[0], 3);
    assert_int_equal(o.line[1], 5);
    openings_free(&o);
    openings_free(&o); // emptied: a second free is harmless
    openings_free(NULL);
}

static void test_errors(void **state) {
    (void)state;
    Openings o;
    ErrorInfo err;
    // A bad FEN: its file and line.
    assert_int_not_equal(load("# x\n4k4/9 w - - 0 1\n", &VARIANT_XIANGQI, &o, &err), STATUS_OK);
    assert_non_null(strstr(err.msg, "/tmp/hansu-openings-"));
    assert_non_null(strstr(err.msg, ":2:"));
    assert_int_equal(o.count, 0);
    // A position xiangqi refuses (an elephant across the river), on line 1.
    assert_int_equal(load("4k4/9/9/9/2B6/9/9/9/9/4K4 w - - 0 1\n", &VARIANT_XIANGQI, &o, &err),
                     STATUS_ILLEGAL);
    assert_non_null(strstr(err.msg, ":1:"));
    // A file of another variant, read for xiangqi and for janggi.
    char text[256];
    snprintf(text, sizeof text, "# variant: janggi\n%s\n", VARIANT_XIANGQI.start_fen);
    assert_int_equal(load(text, &VARIANT_XIANGQI, &o, &err), STATUS_FORMAT);
    assert_non_null(strstr(err.msg, ":1: a file of variant 'janggi', not xiangqi"));
    snprintf(text, sizeof text, "# variant: xiangqi\n%s\n", VARIANT_XIANGQI.start_fen);
    assert_int_equal(load(text, &VARIANT_JANGGI, &o, &err), STATUS_FORMAT);
    assert_non_null(strstr(err.msg, "not janggi"));
    // Comments only; a missing file.
    assert_int_equal(load("# nothing\n\n", &VARIANT_XIANGQI, &o, &err), STATUS_FORMAT);
    assert_non_null(strstr(err.msg, "no FEN"));
    assert_int_equal(openings_load("/nonexistent/x.fen", &VARIANT_XIANGQI, &o, &err), STATUS_IO);
    assert_non_null(strstr(err.msg, "/nonexistent/x.fen"));
}

// A UTF-8 byte order mark, indented comments and FENs, and the variant line in any case.
static void test_bom_comments_case(void **state) {
    (void)state;
    Openings o;
    ErrorInfo err;
    char text[512];
    snprintf(text, sizeof text,
             "\xEF\xBB\xBF# Variant: Xiangqi\n  # indented comment\n\t#tab\n  %s\n", XQ_AFTER_C2E2);
    assert_int_equal(load(text, &VARIANT_XIANGQI, &o, &err), STATUS_OK);
    assert_int_equal(o.count, 1);
    assert_string_equal(o.fen[0], XQ_AFTER_C2E2);
    assert_int_equal(o.line[0], 4);
    openings_free(&o);
    // A BOM before a FEN on line 1.
    snprintf(text, sizeof text, "\xEF\xBB\xBF%s\n", VARIANT_XIANGQI.start_fen);
    assert_int_equal(load(text, &VARIANT_XIANGQI, &o, &err), STATUS_OK);
    assert_int_equal(o.count, 1);
    openings_free(&o);
    // The capitalised variant line still refuses a xiangqi file for janggi, and so does an
    // indented one with a BOM before it.
    snprintf(text, sizeof text, "# Variant: Xiangqi\n%s\n", VARIANT_XIANGQI.start_fen);
    assert_int_equal(load(text, &VARIANT_JANGGI, &o, &err), STATUS_FORMAT);
    assert_non_null(strstr(err.msg, ":1: a file of variant 'xiangqi', not janggi"));
    snprintf(text, sizeof text, "\xEF\xBB\xBF  #VARIANT : XIANGQI\n%s\n",
             VARIANT_XIANGQI.start_fen);
    assert_int_equal(load(text, &VARIANT_JANGGI, &o, &err), STATUS_FORMAT);
    assert_non_null(strstr(err.msg, "not janggi"));
    // An unknown variant: an error naming the file and line.
    snprintf(text, sizeof text, "# a comment\n# variant: chess\n%s\n", VARIANT_XIANGQI.start_fen);
    assert_int_equal(load(text, &VARIANT_XIANGQI, &o, &err), STATUS_FORMAT);
    assert_non_null(strstr(err.msg, "/tmp/hansu-openings-"));
    assert_non_null(strstr(err.msg, ":2: unknown variant 'chess'"));
    // A comment that only starts like the key is a comment.
    snprintf(text, sizeof text, "# variants differ\n%s\n", VARIANT_XIANGQI.start_fen);
    assert_int_equal(load(text, &VARIANT_XIANGQI, &o, &err), STATUS_OK);
    openings_free(&o);
}

// A line is read whole (issue 39 §2): a comment longer than the reader's line buffer is skipped
// whole, even when it ends in a FEN (read in pieces, that FEN was played as an opening); a line
// that is not a comment and too long for a FEN is refused naming its own line.
static void test_long_lines(void **state) {
    (void)state;
    Openings o;
    ErrorInfo err;
    char pad[301], text[1024];
    memset(pad, 'x', 300);
    pad[300] = '\0';
    // The old FEN starts right where a reader of FEN_MAX_INPUT + 7 bytes a line cut it.
    snprintf(text, sizeof text, "# %.*s3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1\n%s\n",
             FEN_MAX_INPUT + 5, pad, VARIANT_JANGGI.start_fen);
    assert_int_equal(load(text, &VARIANT_JANGGI, &o, &err), STATUS_OK);
    assert_int_equal(o.count, 1);
    assert_string_equal(o.fen[0], VARIANT_JANGGI.start_fen);
    assert_int_equal(o.line[0], 2);
    openings_free(&o);
    snprintf(text, sizeof text, "# %s\n%s\n%s\n", pad, VARIANT_JANGGI.start_fen, pad);
    assert_int_equal(load(text, &VARIANT_JANGGI, &o, &err), STATUS_RANGE);
    assert_non_null(strstr(err.msg, ":3: a line of 300 bytes, longer than a FEN can be"));
    assert_int_equal(o.count, 0);
}

// A NUL byte inside a line (re-trial of issue 39): refused naming the file and line; as a C
// string the line ended there and "FEN\0OTHER" was read as the FEN.
static void test_nul_byte(void **state) {
    (void)state;
    char path[64], text[256];
    snprintf(path, sizeof path, "/tmp/hansu-openings-nul-%d.fen", (int)getpid());
    int n =
        snprintf(text, sizeof text, "%s\n%s", VARIANT_JANGGI.start_fen, VARIANT_JANGGI.start_fen);
    assert_true(n > 0 && (size_t)n < sizeof text);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(text, 1, (size_t)n, f);
    fwrite("\0OTHER\n", 1, 7, f);
    fclose(f);
    Openings o;
    ErrorInfo err;
    assert_int_equal(openings_load(path, &VARIANT_JANGGI, &o, &err), STATUS_FORMAT);
    unlink(path);
    char want[128];
    snprintf(want, sizeof want, "openings %s:2: a NUL byte in the line", path);
    if (!strstr(err.msg, want))
        fail_msg("%s", err.msg);
}

// Each variant's compiled-in suite reads as its file data/openings-<name>.fen does, FEN for FEN
// and line for line (the build embeds the file as it is at configure time).
static void test_builtin_equals_file(void **state) {
    (void)state;
    const Variant *variants[] = {&VARIANT_JANGGI, &VARIANT_XIANGQI};
    for (size_t i = 0; i < sizeof variants / sizeof *variants; i++) {
        const Variant *v = variants[i];
        char want_name[64], path[512];
        snprintf(want_name, sizeof want_name, "data/openings-%s.fen", v->name);
        assert_non_null(openings_builtin_name(v));
        assert_string_equal(openings_builtin_name(v), want_name);
        snprintf(path, sizeof path, "%s/%s", HANSU_SOURCE_DIR, want_name);
        Openings file, built;
        ErrorInfo err;
        assert_int_equal(openings_load(path, v, &file, &err), STATUS_OK);
        assert_int_equal(openings_load_builtin(v, &built, &err), STATUS_OK);
        assert_true(built.count > 0);
        assert_int_equal(built.count, file.count);
        for (int k = 0; k < file.count; k++) {
            assert_string_equal(built.fen[k], file.fen[k]);
            assert_int_equal(built.line[k], file.line[k]);
        }
        openings_free(&file);
        openings_free(&built);
    }
    // The janggi suite is a janggi file: read as xiangqi it is refused by its variant line.
    Openings o;
    ErrorInfo err;
    char path[512];
    snprintf(path, sizeof path, "%s/data/openings-janggi.fen", HANSU_SOURCE_DIR);
    assert_int_equal(openings_load(path, &VARIANT_XIANGQI, &o, &err), STATUS_FORMAT);
    assert_non_null(strstr(err.msg, "a file of variant 'janggi'"));
}

// A folder or a FIFO named as the openings file is refused by what it is, at once (a FIFO
// would block the reader: hansu-match hung on one, deaf to SIGTERM).
static void test_not_a_regular_file(void **state) {
    (void)state;
    Openings o;
    ErrorInfo err;
    assert_int_equal(openings_load("/tmp", &VARIANT_JANGGI, &o, &err), STATUS_IO);
    assert_non_null(strstr(err.msg, "/tmp: is a folder"));
    char fifo[64];
    snprintf(fifo, sizeof fifo, "/tmp/hansu-openings-fifo-%d", (int)getpid());
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(openings_load(fifo, &VARIANT_JANGGI, &o, &err), STATUS_IO);
    assert_non_null(strstr(err.msg, "not a regular file"));
    unlink(fifo);
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reads_in_order),     cmocka_unit_test(test_errors),
        cmocka_unit_test(test_bom_comments_case),  cmocka_unit_test(test_builtin_equals_file),
        cmocka_unit_test(test_not_a_regular_file), cmocka_unit_test(test_long_lines),
        cmocka_unit_test(test_nul_byte),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
