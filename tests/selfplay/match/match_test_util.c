// SPDX-License-Identifier: MIT
// What the match tool's end-to-end tests share: fake engines, settings, files, tally checks.
#include "match_test_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

void fake_spec(EngineSpec *e, const char *name, const char *mode, const char *n) {
    *e = (EngineSpec){0};
    snprintf(e->name, sizeof e->name, "%s", name);
    snprintf(e->cmd, sizeof e->cmd, "%s", FAKE_ENGINE_PATH);
    snprintf(e->args[e->nargs++], sizeof e->args[0], "%s", mode);
    if (n)
        snprintf(e->args[e->nargs++], sizeof e->args[0], "%s", n);
}

MatchConfig base_config(int games) {
    MatchConfig c = {.games = games,
                     .concurrency = 1,
                     .margin = 50,
                     .watchdog = 2000,
                     .start_timeout = 5000,
                     .event = "test",
                     .site = "test"};
    c.limits[0] = c.limits[1] = (Limits){.kind = LIMIT_NODES, .nodes = 1};
    return c;
}

void temp_path(char *out, size_t len, const char *tag) {
    snprintf(out, len, "%s/tests/match_%s_%d", HANSU_BINARY_DIR, tag, (int)getpid());
}

int count_in_file(const char *path, const char *needle) {
    FILE *f = fopen(path, "r");
    int n = 0;
    char line[4096];
    while (f && fgets(line, sizeof line, f))
        n += strstr(line, needle) != NULL;
    if (f)
        fclose(f);
    return n;
}

void assert_consistent(const MatchTally *t, int pairs) {
    assert_int_equal(t->pairs_done, pairs);
    assert_int_equal(t->games, 2 * pairs);
    assert_int_equal(t->wins[0] + t->wins[1], t->games);
    long penta = 0, by_reason = 0;
    for (int i = 0; i < PENTA_NB; i++)
        penta += t->penta[i];
    for (int e = 0; e < 2; e++)
        for (int r = 0; r < REASON_NB; r++)
            by_reason += t->wins_by[e][r];
    assert_int_equal(penta, pairs);
    assert_int_equal(by_reason, t->games);
    assert_int_equal(t->penta[PENTA_LD] + t->penta[PENTA_WD], 0); // janggi: no draws
    assert_int_equal(t->wins[0], 2 * t->penta[PENTA_WW] + t->penta[PENTA_WL_DD]);
}
