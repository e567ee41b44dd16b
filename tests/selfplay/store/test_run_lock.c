// SPDX-License-Identifier: MIT
// selfplay/store/run_lock.c: one writer at a time. A lock holds its holder's pid and refuses a
// second taker by name and pid; released, its file is gone and the lock free; a holder killed
// without releasing blocks nobody; the parts of one split run share the folder but refuse a
// whole-run writer, the same part twice and a split into another count; an unopenable path is
// refused naming it. (flock(2) locks belong to open files, so one process can play both sides.)
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "run_lock.h"

static char dir[4096];

static int setup(void **state) {
    (void)state;
    snprintf(dir, sizeof dir, "%s/test_run_lock.XXXXXX", HANSU_BINARY_DIR);
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void expect_refused(Status st, const ErrorInfo *err, const char *part) {
    assert_int_equal(st, STATUS_IO);
    if (!strstr(err->msg, part))
        fail_msg("'%s' does not name '%s'", err->msg, part);
}

static void test_take_release(void **state) {
    (void)state;
    char path[4200], pid[32], text[64] = "";
    ErrorInfo err = {{0}};
    RunLock *a = NULL, *b = NULL;
    snprintf(path, sizeof path, "%s/%s", dir, RUN_LOCK_NAME);
    snprintf(pid, sizeof pid, "pid %d", (int)getpid());
    assert_int_equal(run_lock_take_dir(dir, &a, &err), STATUS_OK);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(text, sizeof text, f));
    fclose(f);
    assert_int_equal(atoi(text), (int)getpid());
    // A second taker is refused, naming the file and the holder's pid.
    expect_refused(run_lock_take(path, &b, &err), &err, path);
    expect_refused(STATUS_IO, &err, pid);
    assert_null(b);
    run_lock_release(a);
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(run_lock_take(path, &b, &err), STATUS_OK);
    run_lock_release(b);
    run_lock_release(NULL);
}

// A holder that ends without releasing (as under SIGKILL) leaves its file but not its lock.
static void test_killed_holder(void **state) {
    (void)state;
    char path[4200];
    ErrorInfo err = {{0}};
    RunLock *a = NULL;
    snprintf(path, sizeof path, "%s/killed.lock", dir);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0)
        _exit(run_lock_take(path, &a, &err) == STATUS_OK ? 0 : 1);
    int status = 0;
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_int_equal(access(path, F_OK), 0);
    assert_int_equal(run_lock_take(path, &a, &err), STATUS_OK);
    run_lock_release(a);
}

static void test_parts(void **state) {
    (void)state;
    ErrorInfo err = {{0}};
    RunLock *p1 = NULL, *p2 = NULL, *x = NULL;
    assert_int_equal(run_lock_take_part(dir, 1, 2, &p1, &err), STATUS_OK);
    assert_int_equal(run_lock_take_part(dir, 2, 2, &p2, &err), STATUS_OK);
    expect_refused(run_lock_take_part(dir, 1, 2, &x, &err), &err, "part-1-of-2");
    expect_refused(run_lock_take_dir(dir, &x, &err), &err, "locked by another writer");
    expect_refused(run_lock_take_part(dir, 1, 3, &x, &err), &err, "a split into 2");
    assert_null(x);
    run_lock_release(p1);
    run_lock_release(p2);
    // Parts done: a whole-run writer may write, and parts are then refused.
    assert_int_equal(run_lock_take_dir(dir, &x, &err), STATUS_OK);
    expect_refused(run_lock_take_part(dir, 1, 3, &p1, &err), &err, "locked by another writer");
    run_lock_release(x);
    assert_int_equal(run_lock_take_part(dir, 1, 3, &p1, &err), STATUS_OK);
    run_lock_release(p1);
}

static void test_bad_path(void **state) {
    (void)state;
    char file[4200], under[4300];
    ErrorInfo err = {{0}};
    RunLock *a = NULL;
    snprintf(file, sizeof file, "%s/regular", dir);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fclose(f);
    snprintf(under, sizeof under, "%s/x.lock", file);
    expect_refused(run_lock_take(under, &a, &err), &err, under);
    expect_refused(STATUS_IO, &err, "Not a directory");
    assert_null(a);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_take_release),
        cmocka_unit_test(test_killed_holder),
        cmocka_unit_test(test_parts),
        cmocka_unit_test(test_bad_path),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
