// SPDX-License-Identifier: MIT
// selfplay/store/sha256.c against FIPS 180-4's published examples (NIST CSRC "SHA256.pdf"), the
// empty message and one million 'a'; the same digest whatever the pieces the data comes in (every
// split of a message that spans two blocks); sha256_file equal to the in-memory hash, and its
// error naming the path.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "sha256.h"

static void hash(const void *data, size_t len, char hex[65]) {
    Sha256 s;
    sha256_init(&s);
    sha256_update(&s, data, len);
    sha256_final(&s, hex);
}

static void test_vectors(void **state) {
    (void)state;
    static const struct {
        const char *msg;
        const char *hex;
    } v[] = {
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        char hex[65];
        hash(v[i].msg, strlen(v[i].msg), hex);
        assert_string_equal(hex, v[i].hex);
    }
    // One million 'a', fed in uneven pieces.
    Sha256 s;
    char hex[65], buf[997];
    memset(buf, 'a', sizeof buf);
    sha256_init(&s);
    for (size_t left = 1000000; left > 0;) {
        size_t n = left < sizeof buf ? left : sizeof buf;
        sha256_update(&s, buf, n);
        left -= n;
    }
    sha256_final(&s, hex);
    assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// 130 bytes (two blocks and a bit) in two and in three pieces, at every split point.
static void test_pieces(void **state) {
    (void)state;
    unsigned char msg[130];
    char whole[65], hex[65];
    for (size_t i = 0; i < sizeof msg; i++)
        msg[i] = (unsigned char)(i * 31 + 7);
    hash(msg, sizeof msg, whole);
    for (size_t a = 0; a <= sizeof msg; a++)
        for (size_t b = a; b <= sizeof msg; b += 13) {
            Sha256 s;
            sha256_init(&s);
            sha256_update(&s, msg, a);
            sha256_update(&s, msg + a, b - a);
            sha256_update(&s, msg + b, sizeof msg - b);
            sha256_final(&s, hex);
            if (strcmp(hex, whole) != 0)
                fail_msg("pieces %zu, %zu, %zu: %s, whole: %s", a, b - a, sizeof msg - b, hex,
                         whole);
        }
}

static void test_file(void **state) {
    (void)state;
    char path[4096], hex[65], want[65];
    ErrorInfo err = {{0}};
    static unsigned char data[200000];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (unsigned char)(i ^ (i >> 8));
    snprintf(path, sizeof path, "%s/test_sha256-%d.bin", HANSU_BINARY_DIR, (int)getpid());
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, sizeof data, f), sizeof data);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(sha256_file(path, hex, &err), STATUS_OK);
    hash(data, sizeof data, want);
    assert_string_equal(hex, want);
    unlink(path);
    assert_int_equal(sha256_file(path, hex, &err), STATUS_IO);
    if (!strstr(err.msg, path) || !strstr(err.msg, "No such file or directory"))
        fail_msg("'%s' names not the path and the cause", err.msg);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors),
        cmocka_unit_test(test_pieces),
        cmocka_unit_test(test_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
