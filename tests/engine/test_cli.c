// SPDX-License-Identifier: MIT
// The front ends' shared helpers (engine/cli.h): strict number parsing with messages naming
// flag and text, JSON strings and numbers, and the all-or-nothing result file.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli.h"

static void test_integers(void **state) {
    (void)state;
    ErrorInfo err;
    int64_t v = 0;
    assert_int_equal(cli_parse_i64("--games", "-12", -20, 20, &v, &err), STATUS_OK);
    assert_int_equal(v, -12);
    assert_int_equal(cli_parse_i64("--games", "12x", 0, 20, &v, &err), STATUS_SYNTAX);
    assert_string_equal(err.msg, "--games: '12x' is not a number");
    assert_int_equal(cli_parse_i64("--games", "", 0, 20, &v, &err), STATUS_SYNTAX);
    assert_int_equal(cli_parse_i64("--games", "99999999999999999999", 0, 20, &v, &err),
                     STATUS_SYNTAX);
    assert_int_equal(cli_parse_i64("--games", "21", 0, 20, &v, &err), STATUS_RANGE);
    assert_string_equal(err.msg, "--games: 21 is out of range 0..20");
    int i = 7;
    assert_int_equal(cli_parse_int("--depth", "3", 1, 64, &i, &err), STATUS_OK);
    assert_int_equal(i, 3);
    assert_int_equal(cli_parse_int("--depth", "0", 1, 64, &i, &err), STATUS_RANGE);
    assert_int_equal(i, 3); // untouched on error
}

// strtoull reads "-1" as the largest value: the parser must refuse it.
static void test_unsigned(void **state) {
    (void)state;
    ErrorInfo err;
    uint64_t v = 0;
    assert_int_equal(cli_parse_u64("--seed", "18446744073709551615", UINT64_MAX, &v, &err),
                     STATUS_OK);
    assert_true(v == UINT64_MAX);
    assert_int_equal(cli_parse_u64("--seed", "-1", UINT64_MAX, &v, &err), STATUS_SYNTAX);
    assert_string_equal(err.msg, "--seed: '-1' is not a number");
    assert_int_equal(cli_parse_u64("--hash", "5000", 4096, &v, &err), STATUS_RANGE);
    assert_string_equal(err.msg, "--hash: 5000 is out of range 0..4096");
}

static void test_doubles(void **state) {
    (void)state;
    ErrorInfo err;
    double v = 0;
    assert_int_equal(cli_parse_double("--hours", "0.25", 0, HUGE_VAL, &v, &err), STATUS_OK);
    assert_true(v == 0.25);
    assert_int_equal(cli_parse_double("--hours", "inf", 0, HUGE_VAL, &v, &err), STATUS_SYNTAX);
    assert_int_equal(cli_parse_double("--hours", "nan", 0, HUGE_VAL, &v, &err), STATUS_SYNTAX);
    assert_int_equal(cli_parse_double("--hours", "1e400", 0, HUGE_VAL, &v, &err), STATUS_SYNTAX);
    assert_string_equal(err.msg, "--hours: '1e400' is not a finite number");
    assert_int_equal(cli_parse_double("--hours", "-1", 0, HUGE_VAL, &v, &err), STATUS_RANGE);
    // Decimal only: strtod reads hexadecimal ("0x10" as 16), spaces and "infinity" too.
    const char *refused[] = {"0x10", "0X1p3", " 5", "5 ", "infinity", ".", "1e", "1e+", "+", ""};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        assert_int_equal(cli_parse_double("--x", refused[i], -HUGE_VAL, HUGE_VAL, &v, &err),
                         STATUS_SYNTAX);
        assert_non_null(strstr(err.msg, "is not a finite number"));
    }
    const char *taken[] = {"5", "-5", "+2.5", ".5", "5.", "1e3", "-1.5E-2"};
    const double values[] = {5, -5, 2.5, 0.5, 5, 1000, -0.015};
    for (size_t i = 0; i < sizeof taken / sizeof taken[0]; i++) {
        assert_int_equal(cli_parse_double("--x", taken[i], -HUGE_VAL, HUGE_VAL, &v, &err),
                         STATUS_OK);
        assert_true(v == values[i]);
    }
}

static void test_json_text(void **state) {
    (void)state;
    char buf[128] = {0};
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    assert_non_null(f);
    cli_json_string(f, "a\"b\\c\nd");
    fputc(' ', f);
    cli_json_number(f, 0.5);
    fputc(' ', f);
    cli_json_number(f, INFINITY);
    fputc(' ', f);
    cli_json_number(f, NAN);
    fclose(f);
    assert_string_equal(buf, "\"a\\\"b\\\\c\\u000ad\" 0.5 null null");
}

static void test_write_atomic(void **state) {
    (void)state;
    char dir[] = "/tmp/hansu-test-cli-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128], tmp[140], got[32] = {0};
    snprintf(path, sizeof path, "%s/r.json", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    ErrorInfo err;
    assert_int_equal(cli_write_atomic(path, "{\"a\": 1}\n", 9, &err), STATUS_OK);
    assert_int_equal(cli_write_atomic(path, "{}\n", 3, &err), STATUS_OK); // replaces it
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    assert_int_equal(fread(got, 1, sizeof got - 1, f), 3);
    fclose(f);
    assert_string_equal(got, "{}\n");
    assert_int_equal(access(tmp, F_OK), -1); // no temporary file left
    char bad[160];
    snprintf(bad, sizeof bad, "%s/missing/r.json", dir);
    assert_int_equal(cli_write_atomic(bad, "{}", 2, &err), STATUS_IO);
    assert_non_null(strstr(err.msg, "missing/r.json: No such file or directory"));
    unlink(path);
    rmdir(dir);
}

// An output path is checked before the work: an empty name, a folder, a missing folder refused
// by flag and name; a writable path accepted and left as it was (no file made).
static void test_check_writable(void **state) {
    (void)state;
    ErrorInfo err;
    assert_int_equal(cli_check_writable("--out", "", &err), STATUS_IO);
    assert_string_equal(err.msg, "--out: an empty file name");
    assert_int_equal(cli_check_writable("--out", "/tmp", &err), STATUS_IO);
    assert_non_null(strstr(err.msg, "--out /tmp: a folder, not a file"));
    assert_int_equal(cli_check_writable("--json", "/nonexistent-hansu/x.json", &err), STATUS_IO);
    assert_non_null(strstr(err.msg, "cannot write into its folder /nonexistent-hansu"));
    char path[64];
    snprintf(path, sizeof path, "/tmp/hansu-check-writable-%d", (int)getpid());
    assert_int_equal(cli_check_writable("--out", path, &err), STATUS_OK);
    assert_int_equal(access(path, F_OK), -1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integers),     cmocka_unit_test(test_unsigned),
        cmocka_unit_test(test_doubles),      cmocka_unit_test(test_json_text),
        cmocka_unit_test(test_write_atomic), cmocka_unit_test(test_check_writable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
