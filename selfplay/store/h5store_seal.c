// SPDX-License-Identifier: MIT
// The digest header of a shard: the HDF5 user block (the file's first H5STORE_USERBLOCK bytes,
// which libhdf5 skips) holds the SHA-256 and the length of every byte after it. Readers check
// it before libhdf5 sees a byte, so a damaged file is refused by name instead of crashing
// inside the library (docs/data-format.md, "Integrity").
#include "h5store_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sha256.h"

#define SEAL_MAGIC "hansu-selfplay shard\n"
static const unsigned char HDF5_SIGNATURE[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};

// The header block of a body of len bytes with SHA-256 hex: three text lines, then zeros.
static void build_block(unsigned char block[H5STORE_USERBLOCK], const char hex[65], size_t len) {
    memset(block, 0, H5STORE_USERBLOCK);
    snprintf((char *)block, H5STORE_USERBLOCK, SEAL_MAGIC "sha256 %s\nbytes %zu\n", hex, len);
}

void h5store_seal_image(unsigned char *image, size_t size) {
    Sha256 s;
    char hex[65];
    sha256_init(&s);
    sha256_update(&s, image + H5STORE_USERBLOCK, size - H5STORE_USERBLOCK);
    sha256_final(&s, hex);
    build_block(image, hex, size - H5STORE_USERBLOCK);
}

static Status seal_fail(ErrorInfo *err, const char *path, const char *what) {
    return error_set(err, STATUS_IO, "%s: %s failed (%s)", path, what, strerror(errno));
}

Status h5store_seal_file(const char *path, ErrorInfo *err) {
    int fd = open(path, O_RDWR);
    if (fd < 0)
        return seal_fail(err, path, "opening to write the digest");
    Status st = STATUS_OK;
    Sha256 s;
    sha256_init(&s);
    unsigned char buf[1 << 16];
    size_t len = 0;
    off_t at = H5STORE_USERBLOCK;
    for (ssize_t n; st == STATUS_OK && (n = pread(fd, buf, sizeof buf, at)) != 0; at += n) {
        if (n < 0 && errno == EINTR)
            n = 0;
        else if (n < 0)
            st = seal_fail(err, path, "reading back to digest");
        else
            sha256_update(&s, buf, (size_t)n), len += (size_t)n;
    }
    char hex[65];
    sha256_final(&s, hex);
    unsigned char block[H5STORE_USERBLOCK];
    build_block(block, hex, len);
    if (st == STATUS_OK && pwrite(fd, block, sizeof block, 0) != (ssize_t)sizeof block)
        st = seal_fail(err, path, "writing the digest");
    if (st == STATUS_OK && fsync(fd) < 0)
        st = seal_fail(err, path, "fsync");
    if (close(fd) < 0 && st == STATUS_OK)
        st = seal_fail(err, path, "closing");
    return st;
}

// Reads the whole file into a malloc'ed buffer.
static Status read_all(const char *path, unsigned char **out, size_t *size, ErrorInfo *err) {
    *out = NULL;
    *size = 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return seal_fail(err, path, "opening");
    struct stat sb;
    Status st = fstat(fd, &sb) < 0 ? seal_fail(err, path, "stat") : STATUS_OK;
    if (st == STATUS_OK && !S_ISREG(sb.st_mode))
        st = error_set(err, STATUS_IO, "%s: not a regular file", path);
    size_t want = st == STATUS_OK ? (size_t)sb.st_size : 0, got = 0;
    unsigned char *buf = st == STATUS_OK ? malloc(want ? want : 1) : NULL;
    if (st == STATUS_OK && !buf)
        st = error_set(err, STATUS_NOMEM, "%s: out of memory for %zu bytes", path, want);
    while (st == STATUS_OK && got < want) {
        ssize_t n = read(fd, buf + got, want - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            st = n < 0 ? seal_fail(err, path, "reading")
                       : error_set(err, STATUS_IO, "%s: shrank while being read", path);
        got += n > 0 ? (size_t)n : 0;
    }
    close(fd);
    if (st != STATUS_OK) {
        free(buf);
        return st;
    }
    *out = buf;
    *size = want;
    return STATUS_OK;
}

// True when the HDF5 signature is where libhdf5 looks for it: at 0, 512, 1024, 2048, ...
static bool is_hdf5(const unsigned char *image, size_t size) {
    for (size_t at = 0; at + sizeof HDF5_SIGNATURE <= size; at = at ? 2 * at : 512)
        if (!memcmp(image + at, HDF5_SIGNATURE, sizeof HDF5_SIGNATURE))
            return true;
    return false;
}

// Checks the header of a file image of size bytes; the message names path.
static Status check_image(const char *path, const unsigned char *image, size_t size,
                          ErrorInfo *err) {
    size_t magic = strlen(SEAL_MAGIC);
    if (size < magic || memcmp(image, SEAL_MAGIC, magic) != 0) {
        if (is_hdf5(image, size))
            return error_set(err, STATUS_FORMAT,
                             "%s: no digest header: not a hansu self-play file of schema %d (a "
                             "schema-1 shard, written before digests, is converted by "
                             "'hansu-selfplay digest FILE')",
                             path, H5STORE_SCHEMA_VERSION);
        return error_set(err, STATUS_FORMAT,
                         "%s: not a hansu self-play file (no digest header; %zu bytes)", path,
                         size);
    }
    if (size < H5STORE_USERBLOCK)
        return error_set(err, STATUS_FORMAT, "%s: corrupt: truncated to %zu bytes", path, size);
    Sha256 s;
    char hex[65];
    sha256_init(&s);
    sha256_update(&s, image + H5STORE_USERBLOCK, size - H5STORE_USERBLOCK);
    sha256_final(&s, hex);
    unsigned char want[H5STORE_USERBLOCK];
    build_block(want, hex, size - H5STORE_USERBLOCK);
    if (memcmp(want, image, H5STORE_USERBLOCK) != 0)
        return error_set(err, STATUS_FORMAT,
                         "%s: corrupt: its SHA-256 digest header does not match its %zu bytes "
                         "(damaged, truncated or changed since it was written)",
                         path, size);
    return STATUS_OK;
}

Status h5store_load_image(const char *path, void **image, size_t *size, ErrorInfo *err) {
    unsigned char *buf;
    Status st = read_all(path, &buf, size, err);
    if (st == STATUS_OK && (st = check_image(path, buf, *size, err)) != STATUS_OK) {
        free(buf);
        buf = NULL;
    }
    *image = buf;
    return st;
}

Status h5store_check_digest(const char *path, ErrorInfo *err) {
    void *image;
    size_t size;
    Status st = h5store_load_image(path, &image, &size, err);
    free(image);
    return st;
}

bool h5store_has_header(const char *path) {
    char head[sizeof SEAL_MAGIC] = "";
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(head, 1, sizeof head - 1, f) : 0;
    if (f)
        fclose(f);
    return n == sizeof head - 1 && memcmp(head, SEAL_MAGIC, n) == 0;
}
