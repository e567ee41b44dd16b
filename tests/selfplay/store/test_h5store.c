// SPDX-License-Identifier: MIT
// HDF5 store: write and read back every field and attribute, the replay check of stored
// games, merging, the digest header, schema-1 files, value ranges, and refusal of missing,
// foreign, truncated and corrupt files; a full disk
// (RLIMIT_FSIZE) and an unwritable folder give a clear error and leave finished files readable.
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <hdf5.h>

#include "engine.h"
#include "h5store.h"
#include "h5store_internal.h"
#include "selfplay_util.h"
#include "sha256.h"
#include "variant.h"
#include "verify.h"

#define DIR HANSU_BINARY_DIR "/test_h5store.d"

static StoreMeta sample_meta(int64_t shard) {
    StoreMeta m;
    memset(&m, 0, sizeof m);
    m.schema_version = H5STORE_SCHEMA_VERSION;
    snprintf(m.engine_version, sizeof m.engine_version, "hansu test");
    snprintf(m.bench, sizeof m.bench, "12345");
    snprintf(m.weights_sha256, sizeof m.weights_sha256, "ab12");
    snprintf(m.limits, sizeof m.limits, "nodes=100 nodes_spread=0");
    snprintf(m.schedule, sizeof m.schedule, "round-robin");
    snprintf(m.run_config, sizeof m.run_config, "seed=5 nodes=100");
    snprintf(m.host, sizeof m.host, "testhost");
    snprintf(m.start_time, sizeof m.start_time, "2026-01-01T00:00:00Z");
    snprintf(m.end_time, sizeof m.end_time, "2026-01-01T01:00:00Z");
    m.seed = 0xFEDCBA9876543210ull;
    m.nodes = 100;
    m.random_plies = 8;
    m.shard = shard;
    return m;
}

// The variant attribute: written as named, read back (the data then knows its variant); an
// unknown name is refused on writing. Xiangqi is stored since schema 3.
static void test_variant_attribute(void **state) {
    (void)state;
    sp_fresh_dir(DIR);
    ShardData d, back;
    shard_data_init(&d);
    shard_data_init(&back);
    sp_random_games(&d, 0, 4, 1);
    StoreMeta m = sample_meta(0), m2;
    ErrorInfo err;
    snprintf(m.variant, sizeof m.variant, "janggi");
    assert_int_equal(h5store_write(DIR "/v.h5", &m, &d, &err), STATUS_OK);
    assert_int_equal(h5store_read(DIR "/v.h5", &m2, &back, &err), STATUS_OK);
    assert_string_equal(m2.variant, "janggi");
    snprintf(m.variant, sizeof m.variant, "shogi");
    assert_int_equal(h5store_write(DIR "/w.h5", &m, &d, &err), STATUS_RANGE);
    assert_non_null(strstr(err.msg, "'shogi'"));
    assert_int_equal(access(DIR "/w.h5", F_OK), -1);
    assert_ptr_equal(back.variant, &VARIANT_JANGGI);
    snprintf(m.variant, sizeof m.variant, "xiangqi");
    assert_int_equal(h5store_write(DIR "/x.h5", &m, &d, &err), STATUS_OK);
    assert_int_equal(h5store_read(DIR "/x.h5", &m2, &back, &err), STATUS_OK);
    assert_string_equal(m2.variant, "xiangqi");
    assert_int_equal(m2.schema_version, 3);
    assert_ptr_equal(back.variant, &VARIANT_XIANGQI);
    shard_data_free(&d);
    shard_data_free(&back);
}

static void test_round_trip(void **state) {
    (void)state;
    sp_fresh_dir(DIR);
    ShardData d, back;
    shard_data_init(&d);
    shard_data_init(&back);
    sp_random_games(&d, 0, 48, 1);
    StoreMeta m = sample_meta(3), m2;
    ErrorInfo err;
    assert_int_equal(h5store_write(DIR "/a.h5", &m, &d, &err), STATUS_OK);
    assert_int_equal(access(DIR "/a.h5.tmp", F_OK), -1);
    assert_int_equal(h5store_read(DIR "/a.h5", &m2, &back, &err), STATUS_OK);
    char why[128] = "";
    assert_true(shard_data_equal(&d, &back, why, sizeof why));
    assert_int_equal(m2.schema_version, H5STORE_SCHEMA_VERSION);
    assert_string_equal(m2.engine_version, m.engine_version);
    assert_string_equal(m2.variant, "janggi"); // "" writes the default variant
    assert_string_equal(m2.bench, m.bench);
    assert_string_equal(m2.weights_sha256, m.weights_sha256);
    assert_string_equal(m2.limits, m.limits);
    assert_string_equal(m2.schedule, m.schedule);
    assert_string_equal(m2.run_config, m.run_config);
    assert_string_equal(m2.host, m.host);
    assert_string_equal(m2.start_time, m.start_time);
    assert_string_equal(m2.end_time, m.end_time);
    assert_true(m2.seed == m.seed);
    assert_int_equal(m2.nodes, 100);
    assert_int_equal(m2.random_plies, 8);
    assert_int_equal(m2.shard, 3);
    assert_int_equal(verify_games(&back, &err), STATUS_OK);
    // An empty file is valid too.
    ShardData empty;
    shard_data_init(&empty);
    assert_int_equal(h5store_write(DIR "/empty.h5", &m, &empty, &err), STATUS_OK);
    assert_int_equal(h5store_read(DIR "/empty.h5", NULL, &back, &err), STATUS_OK);
    assert_int_equal(back.games.count, 0);
    shard_data_free(&d);
    shard_data_free(&back);
}

// The replay check finds a changed board, move, flag and result.
static void test_verify_detects(void **state) {
    (void)state;
    ShardData d;
    shard_data_init(&d);
    sp_random_games(&d, 0, 4, 2);
    ErrorInfo err;
    assert_int_equal(verify_games(&d, &err), STATUS_OK);
    d.positions.board[5 * 32 + 11] ^= 1;
    assert_int_equal(verify_games(&d, &err), STATUS_FORMAT);
    d.positions.board[5 * 32 + 11] ^= 1;
    d.positions.flags[7] ^= 1;
    assert_int_equal(verify_games(&d, &err), STATUS_FORMAT);
    d.positions.flags[7] ^= 1;
    d.games.winner[1] ^= 1;
    assert_int_equal(verify_games(&d, &err), STATUS_FORMAT);
    assert_non_null(strstr(err.msg, "game 1"));
    d.games.winner[1] ^= 1;
    d.positions.result_stm[0] = (int8_t)-d.positions.result_stm[0];
    assert_int_equal(verify_games(&d, &err), STATUS_FORMAT);
    shard_data_free(&d);
}

static void test_merge(void **state) {
    (void)state;
    sp_fresh_dir(DIR);
    ShardData a, b, all, merged, sorted;
    shard_data_init(&a);
    shard_data_init(&b);
    shard_data_init(&all);
    shard_data_init(&merged);
    shard_data_init(&sorted);
    sp_random_games(&a, 0, 20, 3);
    sp_random_games(&b, 20, 12, 4);
    StoreMeta m0 = sample_meta(0), m1 = sample_meta(1), mm;
    ErrorInfo err;
    assert_int_equal(h5store_write(DIR "/shard-000000.h5", &m0, &a, &err), STATUS_OK);
    assert_int_equal(h5store_write(DIR "/shard-000001.h5", &m1, &b, &err), STATUS_OK);
    char **paths;
    size_t n;
    assert_int_equal(h5store_list_run(DIR, &paths, &n, &err), STATUS_OK);
    assert_int_equal(n, 2);
    assert_int_equal(h5store_merge(paths, n, DIR "/merged.h5", &err), STATUS_OK);
    assert_int_equal(h5store_read(DIR "/merged.h5", &mm, &merged, &err), STATUS_OK);
    assert_int_equal(mm.shard, -1);
    shard_data_append(&all, &a, NULL);
    shard_data_append(&all, &b, NULL);
    assert_true(shard_data_equal(&all, &merged, NULL, 0));
    // The same games twice are refused.
    char *twice[2] = {paths[0], paths[0]};
    assert_int_equal(h5store_merge(twice, 2, DIR "/bad.h5", &err), STATUS_FORMAT);
    assert_non_null(strstr(err.msg, "twice"));
    assert_int_equal(access(DIR "/bad.h5", F_OK), -1);
    // Another run (other run_config) is refused.
    StoreMeta other = sample_meta(2);
    snprintf(other.run_config, sizeof other.run_config, "seed=6");
    assert_int_equal(h5store_write(DIR "/other.h5", &other, &b, &err), STATUS_OK);
    char *mixed[2] = {paths[0], DIR "/other.h5"};
    assert_int_equal(h5store_merge(mixed, 2, DIR "/bad.h5", &err), STATUS_FORMAT);
    // An output that is an input, or lies inside an input folder, is refused before writing.
    assert_int_equal(h5store_merge(paths, n, paths[1], &err), STATUS_RANGE);
    assert_non_null(strstr(err.msg, "also an input"));
    assert_int_equal(h5store_merge(paths, n, DIR "/../test_h5store.d/shard-000000.h5", &err),
                     STATUS_RANGE);
    char *folder[1] = {DIR};
    assert_int_equal(h5store_check_output(DIR "/shard-000005.h5", folder, 1, &err), STATUS_RANGE);
    assert_non_null(strstr(err.msg, "inside the input folder"));
    assert_int_equal(h5store_check_output(DIR "/sub/all.h5", folder, 1, &err), STATUS_RANGE);
    assert_int_equal(h5store_check_output(DIR ".merged.h5", folder, 1, &err), STATUS_OK);
    char **again;
    size_t m;
    assert_int_equal(h5store_list_run(DIR, &again, &m, &err), STATUS_OK); // nothing written
    assert_int_equal(m, 2);
    h5store_free_list(again, m);
    h5store_free_list(paths, n);
    shard_data_free(&a);
    shard_data_free(&b);
    shard_data_free(&all);
    shard_data_free(&merged);
    shard_data_free(&sorted);
}

// A folder holding one game id twice (a merged file written back as a shard) is refused by
// name; the same ids in two folders (two runs, two iterations) are not.
static void test_duplicate_ids_in_folder(void **state) {
    (void)state;
    sp_fresh_dir(DIR);
    sp_fresh_dir(DIR "/b");
    ShardData a, b;
    shard_data_init(&a);
    shard_data_init(&b);
    sp_random_games(&a, 0, 6, 3);
    sp_random_games(&b, 6, 4, 4);
    StoreMeta m0 = sample_meta(0), m1 = sample_meta(1);
    ErrorInfo err;
    assert_int_equal(h5store_write(DIR "/shard-000000.h5", &m0, &a, &err), STATUS_OK);
    assert_int_equal(h5store_write(DIR "/shard-000001.h5", &m1, &b, &err), STATUS_OK);
    assert_int_equal(h5store_write(DIR "/b/shard-000000.h5", &m0, &a, &err), STATUS_OK);
    char **paths;
    size_t n;
    assert_int_equal(h5store_list_run(DIR "/b", &paths, &n, &err), STATUS_OK);
    h5store_free_list(paths, n);
    assert_int_equal(h5store_list_run(DIR, &paths, &n, &err), STATUS_OK);
    assert_int_equal(n, 2);
    assert_int_equal(h5store_merge(paths, n, DIR "/b/merged.h5", &err), STATUS_OK);
    h5store_free_list(paths, n);
    assert_int_equal(rename(DIR "/b/merged.h5", DIR "/shard-000002.h5"), 0);
    assert_int_equal(h5store_list_run(DIR, &paths, &n, &err), STATUS_FORMAT);
    assert_null(paths);
    assert_int_equal(n, 0);
    assert_non_null(strstr(err.msg, "game id 0 is stored twice"));
    assert_non_null(strstr(err.msg, "shard-000000.h5"));
    assert_non_null(strstr(err.msg, "shard-000002.h5"));
    shard_data_free(&a);
    shard_data_free(&b);
}

static void write_bytes(const char *path, const void *data, size_t len) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

// Rewrites the schema_version attribute in place (the digest no longer matches).
static void set_schema_version(const char *path, int64_t v) {
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t a = H5Aopen(f, "schema_version", H5P_DEFAULT);
    assert_true(f >= 0 && a >= 0);
    assert_true(H5Awrite(a, H5T_NATIVE_INT64, &v) >= 0);
    H5Aclose(a);
    H5Fclose(f);
}

// Turns a file into the form of a schema-1 file: version 1, the `host` attribute a
// variable-length string, no digest header (libhdf5 finds the superblock after the 512 zeros).
static void make_legacy(const char *path) {
    set_schema_version(path, H5STORE_LEGACY_SCHEMA_VERSION);
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(f >= 0 && H5Adelete(f, "host") >= 0);
    hid_t type = H5Tcopy(H5T_C_S1), space = H5Screate(H5S_SCALAR);
    assert_true(H5Tset_size(type, H5T_VARIABLE) >= 0);
    hid_t a = H5Acreate2(f, "host", type, space, H5P_DEFAULT, H5P_DEFAULT);
    const char *host = "testhost";
    assert_true(a >= 0 && H5Awrite(a, type, &host) >= 0);
    H5Aclose(a), H5Sclose(space), H5Tclose(type), H5Fclose(f);
    static const char zeros[H5STORE_USERBLOCK];
    FILE *out = fopen(path, "r+b");
    assert_non_null(out);
    assert_int_equal(fwrite(zeros, 1, sizeof zeros, out), sizeof zeros);
    fclose(out);
}

static void test_bad_files(void **state) {
    (void)state;
    sp_fresh_dir(DIR);
    ShardData d;
    shard_data_init(&d);
    ErrorInfo err;
    // Missing.
    assert_int_equal(h5store_read(DIR "/missing.h5", NULL, &d, &err), STATUS_IO);
    assert_non_null(strstr(err.msg, "missing.h5"));
    // Not HDF5.
    write_bytes(DIR "/text.h5", "hello, not hdf5\n", 16);
    assert_int_equal(h5store_read(DIR "/text.h5", NULL, &d, &err), STATUS_FORMAT);
    assert_non_null(strstr(err.msg, "not a hansu self-play file"));
    assert_non_null(strstr(err.msg, "text.h5"));
    // HDF5 but foreign: no digest header (the message says how a schema-1 file is converted).
    hid_t f = H5Fcreate(DIR "/foreign.h5", H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(f >= 0);
    H5Fclose(f);
    assert_int_equal(h5store_read(DIR "/foreign.h5", NULL, &d, &err), STATUS_FORMAT);
    assert_non_null(strstr(err.msg, "no digest header"));
    assert_non_null(strstr(err.msg, "hansu-selfplay digest"));
    // Unknown schema version, the digest rewritten to match: the version check refuses it.
    sp_random_games(&d, 0, 3, 5);
    StoreMeta m = sample_meta(0);
    assert_int_equal(h5store_write(DIR "/v.h5", &m, &d, &err), STATUS_OK);
    set_schema_version(DIR "/v.h5", 99);
    assert_int_equal(h5store_read(DIR "/v.h5", NULL, &d, &err), STATUS_FORMAT);
    assert_non_null(strstr(err.msg, "corrupt")); // changed since written: the digest says so
    assert_int_equal(h5store_seal_file(DIR "/v.h5", &err), STATUS_OK);
    assert_int_equal(h5store_read(DIR "/v.h5", NULL, &d, &err), STATUS_FORMAT);
    assert_non_null(strstr(err.msg, "schema version 99"));
    // Truncated: the first half of a good file.
    assert_int_equal(h5store_write(DIR "/good.h5", &m, &d, &err), STATUS_OK);
    FILE *in = fopen(DIR "/good.h5", "rb");
    static char buf[1 << 20];
    size_t len = fread(buf, 1, sizeof buf, in);
    fclose(in);
    write_bytes(DIR "/half.h5", buf, len / 2);
    assert_int_equal(h5store_read(DIR "/half.h5", NULL, &d, &err), STATUS_FORMAT);
    assert_non_null(strstr(err.msg, "half.h5: corrupt"));
    write_bytes(DIR "/short.h5", buf, 100); // within the header
    assert_int_equal(h5store_read(DIR "/short.h5", NULL, &d, &err), STATUS_FORMAT);
    assert_non_null(strstr(err.msg, "truncated"));
    // Corrupt: garbage in the middle (data chunks or metadata).
    memset(buf + len / 3, 0x5A, len / 3);
    write_bytes(DIR "/garbled.h5", buf, len);
    assert_int_equal(h5store_read(DIR "/garbled.h5", NULL, &d, &err), STATUS_FORMAT);
    assert_non_null(strstr(err.msg, "garbled.h5: corrupt"));
    // The same through the other readers.
    size_t games, positions;
    assert_int_equal(h5store_read_meta(DIR "/garbled.h5", NULL, &games, &positions, &err),
                     STATUS_FORMAT);
    assert_int_equal(rename(DIR "/garbled.h5", DIR "/shard-000000.h5"), 0);
    char **paths;
    size_t n;
    assert_int_equal(h5store_list_run(DIR, &paths, &n, &err), STATUS_FORMAT);
    assert_non_null(strstr(err.msg, "shard-000000.h5: corrupt"));
    shard_data_free(&d);
}

// The digest header: three lines naming the SHA-256 and the length of the bytes after the
// 512-byte header (so `tail -c +513 FILE | sha256sum` checks it too), zeros after them; the
// merge (written by HDF5 on disk, sealed afterwards) carries one too.
static void test_digest_header(void **state) {
    (void)state;
    sp_fresh_dir(DIR);
    ShardData d;
    shard_data_init(&d);
    sp_random_games(&d, 0, 5, 8);
    StoreMeta m = sample_meta(0);
    ErrorInfo err;
    assert_int_equal(h5store_write(DIR "/shard-000000.h5", &m, &d, &err), STATUS_OK);
    char *in[1] = {DIR "/shard-000000.h5"};
    if (h5store_merge(in, 1, DIR ".merged.h5", &err) != STATUS_OK)
        fail_msg("%s", err.msg);
    const char *files[2] = {DIR "/shard-000000.h5", DIR ".merged.h5"};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(h5store_check_digest(files[i], &err), STATUS_OK);
        FILE *f = fopen(files[i], "rb");
        static unsigned char buf[1 << 20];
        size_t len = fread(buf, 1, sizeof buf, f);
        fclose(f);
        assert_true(len > H5STORE_USERBLOCK && len < sizeof buf);
        Sha256 s;
        char hex[65], want[256];
        sha256_init(&s);
        sha256_update(&s, buf + H5STORE_USERBLOCK, len - H5STORE_USERBLOCK);
        sha256_final(&s, hex);
        snprintf(want, sizeof want, "hansu-selfplay shard\nsha256 %s\nbytes %zu\n", hex,
                 len - H5STORE_USERBLOCK);
        assert_memory_equal(buf, want, strlen(want));
        for (size_t k = strlen(want); k < H5STORE_USERBLOCK; k++)
            assert_int_equal(buf[k], 0);
        // Any one flipped bit is found, in the header as in the data.
        for (size_t at = 0; at < len; at += len / 97 + 1) {
            buf[at] ^= 0x10;
            write_bytes(DIR "/flip.h5", buf, len);
            buf[at] ^= 0x10;
            assert_int_equal(h5store_check_digest(DIR "/flip.h5", &err), STATUS_FORMAT);
            assert_non_null(strstr(err.msg, "flip.h5"));
        }
    }
    shard_data_free(&d);
}

// A schema-1 file (no digest header, version 1, variable-length strings as schema 1 wrote
// them) is refused by h5store_read with the way to convert it, and h5store_read_legacy reads it.
static void test_legacy_file(void **state) {
    (void)state;
    sp_fresh_dir(DIR);
    ShardData d, back;
    shard_data_init(&d);
    shard_data_init(&back);
    sp_random_games(&d, 0, 4, 9);
    StoreMeta m = sample_meta(2), m2;
    ErrorInfo err;
    assert_int_equal(h5store_write(DIR "/old.h5", &m, &d, &err), STATUS_OK);
    make_legacy(DIR "/old.h5");
    assert_int_equal(h5store_read(DIR "/old.h5", NULL, &back, &err), STATUS_FORMAT);
    assert_non_null(strstr(err.msg, "hansu-selfplay digest"));
    assert_int_equal(h5store_read_legacy(DIR "/old.h5", &m2, &back, &err), STATUS_OK);
    assert_int_equal(m2.schema_version, H5STORE_LEGACY_SCHEMA_VERSION);
    assert_string_equal(m2.host, m.host); // the variable-length string
    assert_true(shard_data_equal(&d, &back, NULL, 0));
    // A file with a digest is not read unchecked, even by the legacy reader.
    assert_int_equal(h5store_write(DIR "/new.h5", &m, &d, &err), STATUS_OK);
    assert_int_equal(h5store_read_legacy(DIR "/new.h5", &m2, &back, &err), STATUS_FORMAT);
    shard_data_free(&d);
    shard_data_free(&back);
}

// Values outside the ranges of columns.def are refused by every reader, naming the file,
// the column and the value; the same check is the first step of verify_games.
static void test_value_ranges(void **state) {
    (void)state;
    sp_fresh_dir(DIR);
    ShardData d, back;
    shard_data_init(&d);
    shard_data_init(&back);
    StoreMeta m = sample_meta(0);
    ErrorInfo err;
    static const char *const want[] = {"winner 7 is outside 0..2", "result_stm 0",
                                       "move 65535 is outside",    "board byte 3 is 90",
                                       "move 100 names a square",  "reason 0 is outside",
                                       "ply 5 and side",           "flags 8 is outside"};
    for (int c = 0; c < (int)(sizeof want / sizeof want[0]); c++) {
        shard_data_clear(&d);
        sp_random_games(&d, 0, 3, 10);
        assert_int_equal(verify_games(&d, &err), STATUS_OK);
        PositionColumns *p = &d.positions;
        switch (c) {
        case 0:
            d.games.winner[1] = 7;
            break;
        case 1:
            memset(p->result_stm, 0, p->count);
            break;
        case 2:
            p->move[4] = 65535;
            break;
        case 3:
            p->board[6 * 32 + 3] = 90;
            break;
        case 4:
            p->move[4] = 100;
            break; // from square 100, to 0
        case 5:
            d.games.reason[2] = 0;
            break;
        case 6:
            p->ply[d.games.pos_start[1] + 2] = 5;
            break;
        case 7:
            p->flags[9] = 8;
            break;
        }
        assert_int_equal(verify_games(&d, &err), STATUS_FORMAT);
        assert_non_null(strstr(err.msg, want[c]));
        assert_int_equal(h5store_write(DIR "/bad.h5", &m, &d, &err), STATUS_OK);
        assert_int_equal(h5store_read(DIR "/bad.h5", NULL, &back, &err), STATUS_FORMAT);
        if (!strstr(err.msg, want[c]) || !strstr(err.msg, "bad.h5"))
            fail_msg("case %d: %s", c, err.msg);
    }
    shard_data_free(&d);
    shard_data_free(&back);
}

// In a child with a 64 KiB file size limit, writing a large file fails with a clear error,
// removes its temporary file and leaves the small file written before readable.
static void test_disk_full(void **state) {
    (void)state;
    sp_fresh_dir(DIR);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        ShardData small, big;
        shard_data_init(&small);
        shard_data_init(&big);
        sp_random_games(&small, 0, 2, 6);
        sp_random_games(&big, 0, 400, 7);
        StoreMeta m = sample_meta(0);
        ErrorInfo err;
        struct rlimit lim = {64 << 10, 64 << 10};
        signal(SIGXFSZ, SIG_IGN);
        if (setrlimit(RLIMIT_FSIZE, &lim) != 0)
            _exit(10);
        if (h5store_write(DIR "/shard-000000.h5", &m, &small, &err) != STATUS_OK)
            _exit(11);
        Status st = h5store_write(DIR "/shard-000000.h5", &m, &big, &err);
        if (st != STATUS_IO || !strstr(err.msg, "shard-000000.h5"))
            _exit(12);
        fprintf(stderr, "disk full child: %s\n", err.msg);
        if (access(DIR "/shard-000000.h5.tmp", F_OK) == 0)
            _exit(13);
        _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    ShardData d;
    shard_data_init(&d);
    ErrorInfo err;
    assert_int_equal(h5store_read(DIR "/shard-000000.h5", NULL, &d, &err), STATUS_OK);
    assert_int_equal(d.games.count, 2);
    assert_int_equal(verify_games(&d, &err), STATUS_OK);
    shard_data_free(&d);
}

static void test_unwritable(void **state) {
    (void)state;
    ShardData d;
    shard_data_init(&d);
    StoreMeta m = sample_meta(0);
    ErrorInfo err;
    assert_int_equal(h5store_write("/nonexistent-dir/x/shard.h5", &m, &d, &err), STATUS_IO);
    assert_non_null(strstr(err.msg, "/nonexistent-dir/x/shard.h5"));
}

int main(void) {
    engine_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_variant_attribute),
        cmocka_unit_test(test_verify_detects),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_duplicate_ids_in_folder),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_digest_header),
        cmocka_unit_test(test_legacy_file),
        cmocka_unit_test(test_value_ranges),
        cmocka_unit_test(test_disk_full),
        cmocka_unit_test(test_unwritable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
