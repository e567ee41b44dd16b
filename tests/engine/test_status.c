// SPDX-License-Identifier: MIT
// engine/status.c: error_set formats into the message (cut at its size, never past it), accepts
// a NULL ErrorInfo and returns the status it was given; status_name names every status.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "status.h"

static void test_error_set(void **state) {
    (void)state;
    ErrorInfo err;
    memset(&err, 'x', sizeof err);
    assert_int_equal(error_set(&err, STATUS_RANGE, "%s %d: %.1f", "depth", 99, 2.25), STATUS_RANGE);
    assert_string_equal(err.msg, "depth 99: 2.2");
    assert_int_equal(error_set(NULL, STATUS_IO, "%s", "ignored"), STATUS_IO);
    // A message longer than the buffer is cut, NUL-terminated, and nothing beyond is written.
    struct {
        ErrorInfo e;
        char guard[16];
    } box;
    memset(&box, '#', sizeof box);
    char long_text[600];
    memset(long_text, 'a', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    assert_int_equal(error_set(&box.e, STATUS_SYNTAX, "%s", long_text), STATUS_SYNTAX);
    assert_int_equal(strlen(box.e.msg), sizeof box.e.msg - 1);
    for (size_t i = 0; i < sizeof box.guard; i++)
        assert_int_equal(box.guard[i], '#');
}

static void test_status_name(void **state) {
    (void)state;
    static const char *const want[] = {"ok", "syntax", "illegal", "range", "io", "format", "nomem"};
    for (Status s = STATUS_OK; s <= STATUS_NOMEM; s++)
        assert_string_equal(status_name(s), want[s]);
    assert_string_equal(status_name((Status)(STATUS_NOMEM + 1)), "unknown");
    assert_string_equal(status_name((Status)-1), "unknown");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_error_set),
        cmocka_unit_test(test_status_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
