// SPDX-License-Identifier: MIT
// selfplay/store/durable.c: a durable write leaves exactly the bytes given (truncating what was
// there), a rename replaces the final file whole and leaves no temporary, and every failure
// (a folder that is a regular file or missing, a full device, a missing temporary) is
// STATUS_IO naming the path and the cause.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "durable.h"

static char dir[4096];

static void path_in(char *out, size_t len, const char *name) {
    snprintf(out, len, "%s/%s", dir, name);
}

// The file's whole content, which must be len bytes equal to want.
static void expect_content(const char *path, const void *want, size_t len) {
    static char got[1 << 16];
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t n = fread(got, 1, sizeof got, f);
    fclose(f);
    assert_int_equal(n, len);
    if (len)
        assert_memory_equal(got, want, len);
}

static void expect_error(Status st, const ErrorInfo *err, const char *path, const char *cause) {
    assert_int_equal(st, STATUS_IO);
    if (!strstr(err->msg, path) || !strstr(err->msg, cause))
        fail_msg("'%s' names not both '%s' and '%s'", err->msg, path, cause);
}

static int setup(void **state) {
    (void)state;
    snprintf(dir, sizeof dir, "%s/test_durable.XXXXXX", HANSU_BINARY_DIR);
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_write(void **state) {
    (void)state;
    char path[4200];
    ErrorInfo err = {{0}};
    static char big[40000];
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (char)(i * 7 + 3);
    path_in(path, sizeof path, "w.bin");
    assert_int_equal(durable_write(path, big, sizeof big, &err), STATUS_OK);
    expect_content(path, big, sizeof big);
    // A shorter write over it truncates: no tail of the old content is left.
    assert_int_equal(durable_write(path, "abc", 3, &err), STATUS_OK);
    expect_content(path, "abc", 3);
    assert_int_equal(durable_write(path, "", 0, &err), STATUS_OK);
    expect_content(path, "", 0);
    assert_int_equal(durable_fsync(path, &err), STATUS_OK);
}

static void test_rename(void **state) {
    (void)state;
    char tmp[4200], fin[4200];
    ErrorInfo err = {{0}};
    path_in(tmp, sizeof tmp, "r.bin.tmp");
    path_in(fin, sizeof fin, "r.bin");
    assert_int_equal(durable_write(fin, "old content, longer", 19, &err), STATUS_OK);
    assert_int_equal(durable_write(tmp, "new", 3, &err), STATUS_OK);
    assert_int_equal(durable_rename(tmp, fin, &err), STATUS_OK);
    expect_content(fin, "new", 3);
    assert_int_equal(access(tmp, F_OK), -1);
    // A missing temporary: refused, naming the final path; the final file is untouched.
    Status st = durable_rename(tmp, fin, &err);
    expect_error(st, &err, fin, "No such file or directory");
    expect_content(fin, "new", 3);
    // A path without a folder: the rename's folder is the current one.
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(dir), 0);
    assert_int_equal(durable_write("plain.tmp", "x", 1, &err), STATUS_OK);
    st = durable_rename("plain.tmp", "plain", &err);
    assert_int_equal(chdir(cwd), 0);
    assert_int_equal(st, STATUS_OK);
    path_in(fin, sizeof fin, "plain");
    expect_content(fin, "x", 1);
}

static void test_errors(void **state) {
    (void)state;
    char file[4200], under[4300], missing[4300];
    ErrorInfo err = {{0}};
    path_in(file, sizeof file, "regular");
    assert_int_equal(durable_write(file, "f", 1, &err), STATUS_OK);
    // A path under a regular file.
    snprintf(under, sizeof under, "%s/x.bin", file);
    expect_error(durable_write(under, "y", 1, &err), &err, under, "Not a directory");
    expect_error(durable_fsync(under, &err), &err, under, "Not a directory");
    // A missing folder, a missing file.
    path_in(missing, sizeof missing, "no/such/x.bin");
    expect_error(durable_write(missing, "y", 1, &err), &err, missing, "No such file or directory");
    path_in(missing, sizeof missing, "absent.bin");
    expect_error(durable_fsync(missing, &err), &err, missing, "No such file or directory");
    // A rename into a path under a regular file.
    expect_error(durable_rename(file, under, &err), &err, under, "Not a directory");
    // A full device: the write's error, not a silent short file.
    if (access("/dev/full", W_OK) == 0)
        expect_error(durable_write("/dev/full", "data", 4, &err), &err, "/dev/full",
                     "No space left on device");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_write),
        cmocka_unit_test(test_rename),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
