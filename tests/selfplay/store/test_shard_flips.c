// SPDX-License-Identifier: MIT
// Seeded single-bit flips of a small real shard (issue 10, item 2), each through the programs
// a user runs: `hansu-selfplay verify`, the tuner's loader (`hansu-tune --dry-run`), and on
// every fourth flip `hansu-selfplay --resume` and `merge` of a folder holding it. No run may
// end by a signal or a sanitizer report, and each refuses the file by name. Then flips with
// the digest header rewritten to match (the second line of defence: HDF5's checksums and the
// readers' type checks) must never crash, and a file they accept must read back unchanged.
// Last, `hansu-selfplay digest` on a schema-1 file.
// Usage: test_shard_flips [FLIPS] (default 300; the `slow` entry runs more).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <fcntl.h>
#include <hdf5.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine.h"
#include "h5store.h"
#include "h5store_internal.h"
#include "selfplay_util.h"

#define SELFPLAY HANSU_BINARY_DIR "/selfplay/hansu-selfplay"
#define TUNE HANSU_BINARY_DIR "/tuner/hansu-tune"

extern char **environ;
static int flips = 300;
// The work folder and its files; named for the flip count, so the default and the `slow`
// entries can run at once.
static char DIR[512], ORIGINAL[600], FLIPPED[700], ERR_FILE[600], RUN[600], MERGED[600], OLD[600],
    OLD_SHARD[700];

static uint64_t next_rand(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static unsigned char *slurp(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *size = (size_t)ftell(f);
    rewind(f);
    unsigned char *buf = malloc(*size);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, *size, f), *size);
    fclose(f);
    return buf;
}

static void spill(const char *path, const unsigned char *data, size_t size) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
}

// Runs argv (stdout to /dev/null, stderr to ERR_FILE) and returns its wait status; the
// program's stderr is left in err.
static int run_tool(char *const argv[], char *err, size_t err_len) {
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, ERR_FILE, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid;
    assert_int_equal(posix_spawn(&pid, argv[0], &fa, NULL, argv, environ), 0);
    posix_spawn_file_actions_destroy(&fa);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    FILE *f = fopen(ERR_FILE, "r");
    size_t n = f ? fread(err, 1, err_len - 1, f) : 0;
    err[n] = 0;
    if (f)
        fclose(f);
    return status;
}

// The outcome a refusal must have: a normal exit 1, one message naming the file, no
// sanitizer report.
static void expect_refusal(const char *what, int flip, int status, const char *err,
                           const char *name) {
    if (WIFSIGNALED(status))
        fail_msg("%s, flip %d: killed by signal %d: %s", what, flip, WTERMSIG(status), err);
    if (strstr(err, "Sanitizer") || strstr(err, "runtime error"))
        fail_msg("%s, flip %d: sanitizer report: %s", what, flip, err);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 1)
        fail_msg("%s, flip %d: exit %d, not a refusal: %s", what, flip, WEXITSTATUS(status), err);
    if (!strstr(err, name))
        fail_msg("%s, flip %d: the message does not name %s: %s", what, flip, name, err);
}

// A small real shard (a few games from the runner) to flip bits in.
static int setup(void **state) {
    (void)state;
    sp_fresh_dir(DIR);
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "'%s' --games 3 --nodes 20 --threads 1 --hash 1 --no-bench "
             "--progress 1000 --out '%s/good' >/dev/null",
             SELFPLAY, DIR);
    return system(cmd) == 0 ? 0 : -1;
}

static void flip_bit(unsigned char *buf, size_t size, uint64_t *rng) {
    uint64_t bit = next_rand(rng) % (size * 8);
    buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
}

static void test_flips_are_refused(void **state) {
    (void)state;
    size_t size;
    unsigned char *good = slurp(ORIGINAL, &size), *buf = malloc(size);
    assert_non_null(buf);
    sp_fresh_dir(RUN);
    char err[4096];
    uint64_t rng = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < flips; i++) {
        memcpy(buf, good, size);
        flip_bit(buf, size, &rng);
        spill(FLIPPED, buf, size);
        char *verify[] = {SELFPLAY, "verify", FLIPPED, NULL};
        expect_refusal("verify", i, run_tool(verify, err, sizeof err), err, FLIPPED);
        char *tune[] = {TUNE, "--dry-run", "--threads", "1", FLIPPED, NULL};
        expect_refusal("hansu-tune", i, run_tool(tune, err, sizeof err), err, FLIPPED);
        if (i % 4 != 0)
            continue;
        // The folder as --resume and merge see it: listed, every shard's digest checked.
        char *resume[] = {SELFPLAY, "--resume", "--out",      RUN,         "--games",
                          "3",      "--nodes",  "20",         "--threads", "1",
                          "--hash", "1",        "--no-bench", NULL};
        expect_refusal("--resume", i, run_tool(resume, err, sizeof err), err, FLIPPED);
        char *merge[] = {SELFPLAY, "merge", "-o", MERGED, RUN, NULL};
        expect_refusal("merge", i, run_tool(merge, err, sizeof err), err, FLIPPED);
        assert_int_equal(access(MERGED, F_OK), -1);
    }
    free(good);
    free(buf);
}

// Past the digest (header rewritten to match the damaged bytes), libhdf5 parses damaged
// metadata and chunks: refused (checksums, type and range checks) or, when the flip hit
// bytes that no reader uses, read back exactly as before. Never a signal.
static void test_second_line_of_defence(void **state) {
    (void)state;
    size_t size;
    unsigned char *good = slurp(ORIGINAL, &size), *buf = malloc(size);
    assert_non_null(buf);
    ShardData want, got;
    shard_data_init(&want);
    shard_data_init(&got);
    StoreMeta want_meta, got_meta;
    ErrorInfo e;
    assert_int_equal(h5store_read(ORIGINAL, &want_meta, &want, &e), STATUS_OK);
    char err[4096];
    uint64_t rng = 0xD1B54A32D192ED03ull;
    int refused = 0, unchanged = 0;
    for (int i = 0; i < flips / 3; i++) {
        memcpy(buf, good, size);
        uint64_t bit = H5STORE_USERBLOCK * 8 + next_rand(&rng) % ((size - H5STORE_USERBLOCK) * 8);
        buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        spill(FLIPPED, buf, size);
        assert_int_equal(h5store_seal_file(FLIPPED, &e), STATUS_OK);
        assert_int_equal(h5store_check_digest(FLIPPED, &e), STATUS_OK);
        char *verify[] = {SELFPLAY, "verify", FLIPPED, NULL};
        int status = run_tool(verify, err, sizeof err);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && !strstr(err, "Sanitizer")) {
            // Accepted: then it must hold exactly the data and attributes written.
            assert_int_equal(h5store_read(FLIPPED, &got_meta, &got, &e), STATUS_OK);
            char why[128] = "";
            if (!shard_data_equal(&want, &got, why, sizeof why) ||
                memcmp(&want_meta, &got_meta, sizeof want_meta) != 0)
                fail_msg("flip of bit %llu accepted with other content: %s",
                         (unsigned long long)bit, why);
            unchanged++;
            continue;
        }
        expect_refusal("verify past the digest", i, status, err, FLIPPED);
        refused++;
    }
    print_message("past the digest: %d flips refused, %d in unused bytes (content unchanged)\n",
                  refused, unchanged);
    shard_data_free(&want);
    shard_data_free(&got);
    free(good);
    free(buf);
}

// `hansu-selfplay digest`: a schema-1 file (no digest header, version 1) is refused by verify
// with the way out, converted after its replay, then verified; a sound file is left alone, a
// damaged one refused and left untouched.
static void test_digest_command(void **state) {
    (void)state;
    sp_fresh_dir(OLD);
    size_t size;
    unsigned char *good = slurp(ORIGINAL, &size);
    static const char zeros[H5STORE_USERBLOCK];
    memcpy(good, zeros, sizeof zeros); // no digest header: libhdf5 finds the data at 512
    spill(OLD_SHARD, good, size);
    hid_t f = H5Fopen(OLD_SHARD, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t a = H5Aopen(f, "schema_version", H5P_DEFAULT);
    int64_t one = H5STORE_LEGACY_SCHEMA_VERSION;
    assert_true(f >= 0 && a >= 0 && H5Awrite(a, H5T_NATIVE_INT64, &one) >= 0);
    H5Aclose(a), H5Fclose(f);
    char err[4096];
    char *verify[] = {SELFPLAY, "verify", OLD, NULL};
    expect_refusal("verify schema 1", 0, run_tool(verify, err, sizeof err), err,
                   "hansu-selfplay digest");
    char *digest[] = {SELFPLAY, "digest", OLD, NULL};
    assert_int_equal(run_tool(digest, err, sizeof err), 0);
    assert_int_equal(run_tool(verify, err, sizeof err), 0);
    ShardData want, got;
    shard_data_init(&want);
    shard_data_init(&got);
    ErrorInfo e;
    StoreMeta m;
    assert_int_equal(h5store_read(ORIGINAL, NULL, &want, &e), STATUS_OK);
    assert_int_equal(h5store_read(OLD_SHARD, &m, &got, &e), STATUS_OK);
    assert_int_equal(m.schema_version, H5STORE_SCHEMA_VERSION);
    assert_true(shard_data_equal(&want, &got, NULL, 0));
    // Sound: left alone (exit 0). Damaged: refused, not blessed with a new digest.
    assert_int_equal(run_tool(digest, err, sizeof err), 0);
    free(good);
    good = slurp(ORIGINAL, &size);
    good[size / 2] ^= 4;
    spill(OLD_SHARD, good, size);
    expect_refusal("digest of a damaged file", 0, run_tool(digest, err, sizeof err), err,
                   "shard-000000.h5: corrupt");
    assert_int_equal(h5store_check_digest(OLD_SHARD, &e), STATUS_FORMAT);
    shard_data_free(&want);
    shard_data_free(&got);
    free(good);
}

int main(int argc, char **argv) {
    if (argc > 1)
        flips = atoi(argv[1]);
    snprintf(DIR, sizeof DIR, "%s/test_shard_flips-%d.d", HANSU_BINARY_DIR, flips);
    snprintf(ORIGINAL, sizeof ORIGINAL, "%s/good/shard-000000.h5", DIR);
    snprintf(RUN, sizeof RUN, "%s/run", DIR);
    snprintf(FLIPPED, sizeof FLIPPED, "%s/shard-000000.h5", RUN);
    snprintf(ERR_FILE, sizeof ERR_FILE, "%s/stderr.txt", DIR);
    snprintf(MERGED, sizeof MERGED, "%s/merged.h5", DIR);
    snprintf(OLD, sizeof OLD, "%s/old", DIR);
    snprintf(OLD_SHARD, sizeof OLD_SHARD, "%s/shard-000000.h5", OLD);
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flips_are_refused),
        cmocka_unit_test(test_second_line_of_defence),
        cmocka_unit_test(test_digest_command),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
