// SPDX-License-Identifier: MIT
// Files named by the user (engine/files.h, issue 39): lines read whole, never in pieces.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "files.h"

static void test_read_line(void **state) {
    (void)state;
    char text[] = "ab\r\nxxxxxxxxxx\n\nabcde\r\nlast", buf[6];
    FILE *f = fmemopen(text, strlen(text), "r");
    assert_non_null(f);
    assert_int_equal(files_read_line(f, buf, sizeof buf), 2);
    assert_string_equal(buf, "ab");
    // Too long: its start, its whole length, and the rest of it is not the next line.
    assert_int_equal(files_read_line(f, buf, sizeof buf), 10);
    assert_string_equal(buf, "xxxxx");
    assert_int_equal(files_read_line(f, buf, sizeof buf), 0);
    assert_string_equal(buf, "");
    assert_int_equal(files_read_line(f, buf, sizeof buf), 5); // fits without its "\r"
    assert_string_equal(buf, "abcde");
    assert_int_equal(files_read_line(f, buf, sizeof buf), 4); // no newline at the end
    assert_string_equal(buf, "last");
    assert_int_equal(files_read_line(f, buf, sizeof buf), -1);
    fclose(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
