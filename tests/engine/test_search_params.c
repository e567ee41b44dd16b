// SPDX-License-Identifier: MIT
// engine/search_params.c: the table of search_params.def read back (names unique and found
// case-insensitively, defaults inside their ranges and in SEARCH_PARAMS_DEFAULT, each index
// its own field), and search_params_set's checks: every bound accepted, one past it refused as
// STATUS_RANGE, non-integers as STATUS_SYNTAX, the parameters unchanged on refusal.
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "search_params.h"

static void test_table(void **state) {
    (void)state;
    const int n = search_params_count();
    assert_true(n > 0);
    assert_int_equal(n * (int)sizeof(int), (int)sizeof(SearchParams));
    for (int i = 0; i < n; i++) {
        const SearchParamInfo *p = search_param_info(i);
        assert_true(p->min <= p->def && p->def <= p->max);
        assert_int_equal(search_params_get(&SEARCH_PARAMS_DEFAULT, i), p->def);
        assert_true(p->doc && p->doc[0]);
        assert_int_equal(search_param_find(p->name), i);
        char upper[64];
        snprintf(upper, sizeof upper, "%s", p->name);
        for (char *c = upper; *c; c++)
            *c = (char)toupper((unsigned char)*c);
        assert_int_equal(search_param_find(upper), i);
    }
    assert_int_equal(search_param_find("no_such_param"), -1);
    assert_int_equal(search_param_find(""), -1);
}

// Each index reaches its own field: setting one changes that value and no other.
static void test_fields_distinct(void **state) {
    (void)state;
    const int n = search_params_count();
    for (int i = 0; i < n; i++) {
        SearchParams p = SEARCH_PARAMS_DEFAULT;
        const SearchParamInfo *info = search_param_info(i);
        int v = info->def != info->max ? info->max : info->min;
        char text[32];
        ErrorInfo err = {{0}};
        snprintf(text, sizeof text, "%d", v);
        if (info->min == info->max)
            continue;
        assert_int_equal(search_params_set(&p, i, text, &err), STATUS_OK);
        for (int j = 0; j < n; j++)
            assert_int_equal(search_params_get(&p, j),
                             j == i ? v : search_params_get(&SEARCH_PARAMS_DEFAULT, j));
    }
}

static void expect_refused(int i, const char *text, Status want) {
    SearchParams p = SEARCH_PARAMS_DEFAULT;
    ErrorInfo err = {{0}};
    assert_int_equal(search_params_set(&p, i, text, &err), want);
    assert_memory_equal(&p, &SEARCH_PARAMS_DEFAULT, sizeof p);
    if (!strstr(err.msg, search_param_info(i)->name))
        fail_msg("'%s' does not name %s", err.msg, search_param_info(i)->name);
}

static void test_set_checks(void **state) {
    (void)state;
    for (int i = 0; i < search_params_count(); i++) {
        const SearchParamInfo *info = search_param_info(i);
        SearchParams p = SEARCH_PARAMS_DEFAULT;
        ErrorInfo err = {{0}};
        char text[32];
        snprintf(text, sizeof text, "%d", info->min);
        assert_int_equal(search_params_set(&p, i, text, &err), STATUS_OK);
        assert_int_equal(search_params_get(&p, i), info->min);
        snprintf(text, sizeof text, "%d", info->max);
        assert_int_equal(search_params_set(&p, i, text, &err), STATUS_OK);
        assert_int_equal(search_params_get(&p, i), info->max);
        snprintf(text, sizeof text, "%d", info->min - 1);
        expect_refused(i, text, STATUS_RANGE);
        snprintf(text, sizeof text, "%d", info->max + 1);
        expect_refused(i, text, STATUS_RANGE);
        expect_refused(i, "", STATUS_SYNTAX);
        expect_refused(i, "abc", STATUS_SYNTAX);
        expect_refused(i, "12x", STATUS_SYNTAX);
        expect_refused(i, "1.5", STATUS_SYNTAX);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_fields_distinct),
        cmocka_unit_test(test_set_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
