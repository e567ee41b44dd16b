// SPDX-License-Identifier: MIT
// selfplay/cluster.c on one process: --part I/K parsed or refused by name (syntax and range
// apart), and the collective calls as one process makes them (part 1 of 1, sums and maxima
// unchanged, the chained sum adding the one share once, no message waiting). The calls over
// several ranks: tests/selfplay/cluster_selfplay.sh and cluster_match.sh (label mpi).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cluster.h"

static void expect_part(const char *text, unsigned index, unsigned count) {
    ClusterPart p = {0, 0};
    ErrorInfo err = {{0}};
    if (cluster_parse_part("--part", text, 64, &p, &err) != STATUS_OK)
        fail_msg("%s refused: %s", text, err.msg);
    assert_int_equal(p.index, index);
    assert_int_equal(p.count, count);
}

static void expect_refused(const char *text, Status want, const char *msg) {
    ClusterPart p = {7, 7};
    ErrorInfo err = {{0}};
    assert_int_equal(cluster_parse_part("--part", text, 64, &p, &err), want);
    if (strcmp(err.msg, msg) != 0)
        fail_msg("%s: '%s', expected '%s'", text, err.msg, msg);
    assert_int_equal(p.index, 7); // untouched
}

static void test_parse_part(void **state) {
    (void)state;
    expect_part("1/1", 1, 1);
    expect_part("3/4", 3, 4);
    expect_part("64/64", 64, 64);
    expect_refused("x", STATUS_SYNTAX, "--part: 'x' is not I/K (part I of K, e.g. 1/4)");
    expect_refused("/4", STATUS_SYNTAX, "--part: '/4' is not I/K (part I of K, e.g. 1/4)");
    expect_refused("1/", STATUS_SYNTAX, "--part: '1/' is not I/K (part I of K, e.g. 1/4)");
    expect_refused("1/2x", STATUS_SYNTAX, "--part: '1/2x' is not I/K (part I of K, e.g. 1/4)");
    expect_refused("-1/2", STATUS_SYNTAX, "--part: '-1/2' is not I/K (part I of K, e.g. 1/4)");
    expect_refused("1/0", STATUS_RANGE, "--part 1/0: K must be in 1..64");
    expect_refused("1/65", STATUS_RANGE, "--part 1/65: K must be in 1..64");
    expect_refused("0/2", STATUS_RANGE, "--part 0/2: I must be in 1..2 (parts count from 1)");
    expect_refused("3/2", STATUS_RANGE, "--part 3/2: I must be in 1..2 (parts count from 1)");
}

static int adds;

static void add_share(double *acc, void *arg) {
    adds++;
    acc[0] += *(const double *)arg;
    acc[1] += 2 * *(const double *)arg;
}

static void test_one_process(void **state) {
    (void)state;
    ClusterPart self = cluster_self();
    assert_int_equal(self.index, 1);
    assert_int_equal(self.count, 1);
    uint64_t u[3] = {1, 0, UINT64_MAX};
    cluster_sum_u64(u, 3);
    assert_true(u[0] == 1 && u[1] == 0 && u[2] == UINT64_MAX);
    double d[2] = {-1.5, 2.25};
    cluster_max_f64(d, 2);
    assert_true(d[0] == -1.5 && d[1] == 2.25);
    double acc[2] = {0.5, 0}, share = 3;
    cluster_chain_sum(acc, 2, add_share, &share);
    assert_int_equal(adds, 1);
    assert_true(acc[0] == 3.5 && acc[1] == 6);
    cluster_barrier();
    int source = -1;
    size_t len = 99;
    assert_false(cluster_poll(1, &source, &len));
    char buf[4] = "abc";
    cluster_bcast(buf, sizeof buf, 0);
    assert_string_equal(buf, "abc");
}

int main(int argc, char **argv) {
    ErrorInfo err = {{0}};
    if (cluster_init(&argc, &argv, &err) != STATUS_OK) {
        print_error("%s\n", err.msg);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_part),
        cmocka_unit_test(test_one_process),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    cluster_finish();
    return failed;
}
