// SPDX-License-Identifier: MIT
// The front ends' flag parser (engine/flags.h): a table of every value kind parsed into a
// struct, the one-line errors naming the flag (unknown, missing value, bad value, out of
// range), and the help text listing every flag of the table.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "flags.h"

typedef struct Opts {
    int games;
    int64_t margin;
    uint64_t seed;
    size_t hash;
    double valid;
    const char *event, *out;
    int optimizer;
    bool resume, bench, games_given;
    int items; // words of the --engine groups
    char last_item[32];
    int half; // --half N stores N / 2 (a setter)
} Opts;

static const char *const OPTIMIZERS[] = {"adam", "gd", "sgd", NULL};

static Status set_item(const Flag *flag, const char *value, void *dest, ErrorInfo *err) {
    (void)flag, (void)err;
    Opts *o = dest;
    if (value)
        o->items++, snprintf(o->last_item, sizeof o->last_item, "%s", value);
    return STATUS_OK;
}

static Status set_half(const Flag *flag, const char *value, void *dest, ErrorInfo *err) {
    Opts *o = dest;
    if (strcmp(value, "odd") == 0)
        return error_set(err, STATUS_SYNTAX, "%s: '%s' is odd", flag->name, value);
    o->half = atoi(value) / 2;
    return STATUS_OK;
}

static const Flag TABLE[] = {
    {.kind = FLAG_SECTION, .help = "Games:"},
    {"--games", FLAG_INT, FLAG_DEST(Opts, games), .lo = 2, .hi = 100, .meta = "N",
     .help = "games [32]", FLAG_GIVEN(Opts, games_given)},
    {"--margin", FLAG_INT, FLAG_DEST(Opts, margin), .lo = 0, .hi = INT64_MAX, .meta = "MS",
     .help = "clock overrun allowed"},
    {"--seed", FLAG_UINT, FLAG_DEST(Opts, seed), .max = UINT64_MAX, .meta = "S", .help = "seed"},
    {"--hash", FLAG_UINT, FLAG_DEST(Opts, hash), .max = 1024, .meta = "MB", .help = "TT size"},
    {"--valid", FLAG_DOUBLE, FLAG_DEST(Opts, valid), .dlo = 0, .dhi = 1, .meta = "F",
     .help = "validation share\nof the games"},
    {"--event", FLAG_STRING, FLAG_DEST(Opts, event), .meta = "TEXT", .help = "event tag"},
    {"--out", FLAG_PATH, FLAG_DEST(Opts, out), .meta = "FILE", .help = "output file"},
    {"--optimizer", FLAG_ENUM, FLAG_DEST(Opts, optimizer), .choices = OPTIMIZERS,
     .meta = "adam|gd|sgd", .help = "optimiser"},
    {"--resume", FLAG_BOOL, FLAG_DEST(Opts, resume), .help = "continue"},
    {"--no-bench", FLAG_BOOL, FLAG_DEST(Opts, bench), .off = true, .help = "skip the bench"},
    {"--engine", FLAG_GROUP, .set = set_item, .meta = "KEY=VALUE...", .help = "an engine"},
    {"--half", FLAG_CALL, .set = set_half, .value = true, .meta = "N", .help = "half of N"},
};

// Parses the words of line (split at spaces) into *o from defaults; the status.
static Status parse(const char *line, Opts *o, FlagResult *res, char **pos, ErrorInfo *err) {
    static char buf[512];
    static char *argv[32];
    snprintf(buf, sizeof buf, "%s", line);
    int argc = 0;
    argv[argc++] = "prog";
    for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
        argv[argc++] = w;
    *o = (Opts){.games = 32, .bench = true};
    res->pos = pos;
    return flags_parse(TABLE, FLAGS_COUNT(TABLE), argc, argv, 1, o, res, err);
}

static void test_values(void **state) {
    (void)state;
    Opts o;
    FlagResult res;
    ErrorInfo err;
    char *pos[32];
    assert_int_equal(parse("--games 10 --margin 9000000000 --seed 18446744073709551615 --hash 64 "
                           "a.h5 --valid=0.25 --event ev --out o.pgn --optimizer gd --resume "
                           "--no-bench --engine cmd=x name=y --half 9 b.h5",
                           &o, &res, pos, &err),
                     STATUS_OK);
    assert_int_equal(o.games, 10);
    assert_true(o.games_given);
    assert_true(o.margin == 9000000000LL);
    assert_true(o.seed == UINT64_MAX);
    assert_int_equal(o.hash, 64);
    assert_true(o.valid == 0.25);
    assert_string_equal(o.event, "ev");
    assert_string_equal(o.out, "o.pgn");
    assert_int_equal(o.optimizer, 1);
    assert_true(o.resume);
    assert_false(o.bench);
    assert_int_equal(o.items, 2);
    assert_string_equal(o.last_item, "name=y");
    assert_int_equal(o.half, 4);
    assert_int_equal(res.npos, 2); // words outside a group, in order
    assert_string_equal(pos[0], "a.h5");
    assert_string_equal(pos[1], "b.h5");
    assert_false(res.help);
    // Defaults stay when a flag is not given; the last of two occurrences wins.
    assert_int_equal(parse("--games 5 --games 7", &o, &res, pos, &err), STATUS_OK);
    assert_int_equal(o.games, 7);
    assert_true(o.bench);
    assert_int_equal(parse("", &o, &res, pos, &err), STATUS_OK);
    assert_false(o.games_given);
    // Help stops the parse.
    assert_int_equal(parse("--games 5 -h --bogus", &o, &res, pos, &err), STATUS_OK);
    assert_true(res.help);
}

static void expect_error(const char *line, Status want, const char *msg, bool with_pos) {
    Opts o;
    FlagResult res;
    ErrorInfo err = {0};
    char *pos[32];
    assert_int_equal(parse(line, &o, &res, with_pos ? pos : NULL, &err), want);
    assert_string_equal(err.msg, msg);
}

static void test_errors(void **state) {
    (void)state;
    expect_error("--bogus 3", STATUS_SYNTAX, "unknown option --bogus", true);
    expect_error("--bogus=3", STATUS_SYNTAX, "unknown option --bogus", true);
    expect_error("--games", STATUS_SYNTAX, "--games needs a value", true);
    expect_error("--games x", STATUS_SYNTAX, "--games: 'x' is not a number", true);
    expect_error("--games 101", STATUS_RANGE, "--games: 101 is out of range 2..100", true);
    expect_error("--hash -1", STATUS_SYNTAX, "--hash: '-1' is not a number", true);
    expect_error("--hash 2000", STATUS_RANGE, "--hash: 2000 is out of range 0..1024", true);
    expect_error("--valid 1.5", STATUS_RANGE, "--valid: 1.5 is out of range 0..1", true);
    expect_error("--valid nan", STATUS_SYNTAX, "--valid: 'nan' is not a finite number", true);
    expect_error("--optimizer lbfgs", STATUS_SYNTAX, "--optimizer: 'lbfgs' is not adam, gd or sgd",
                 true);
    expect_error("--out=", STATUS_SYNTAX, "--out: empty path", true);
    expect_error("--resume=1", STATUS_SYNTAX, "--resume takes no value", true);
    expect_error("--half odd", STATUS_SYNTAX, "--half: 'odd' is odd", true);
    expect_error("stray", STATUS_SYNTAX, "unexpected argument 'stray'", false);
}

// The help text names every flag of the table, with its value's name and help, and the
// sections; continuation lines are indented to the column.
static void test_help(void **state) {
    (void)state;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    flags_help(f, TABLE, FLAGS_COUNT(TABLE), 20);
    fclose(f);
    for (size_t i = 0; i < FLAGS_COUNT(TABLE); i++) {
        char line[128];
        if (TABLE[i].kind == FLAG_SECTION)
            snprintf(line, sizeof line, "%s\n", TABLE[i].help);
        else
            snprintf(line, sizeof line, "  %s%s%s", TABLE[i].name, TABLE[i].meta ? " " : "",
                     TABLE[i].meta ? TABLE[i].meta : "");
        assert_non_null(strstr(text, line));
        char first[128]; // the help's first line
        snprintf(first, sizeof first, "%s", TABLE[i].help);
        first[strcspn(first, "\n")] = 0;
        assert_non_null(strstr(text, first));
    }
    assert_non_null(strstr(text, "  --games N         games [32]\n"));
    assert_non_null(strstr(text, "validation share\n                    of the games\n"));
    // Hostile trial: a flag given twice took its last value without a word anywhere a person
    // reads; the help says so now.
    assert_non_null(strstr(text, "A flag given twice counts once, with its last value"));
    free(text);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_help),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
