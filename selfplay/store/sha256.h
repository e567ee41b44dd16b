// SPDX-License-Identifier: MIT
// SHA-256 (FIPS 180-4): the digest of every self-play shard (h5store) and the input hashes in
// the provenance banner of the tuner's weights header.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "status.h"

/// Running SHA-256 state.
typedef struct Sha256 {
    uint32_t h[8];
    uint64_t length; // bytes hashed so far
    uint8_t block[64];
    size_t fill; // bytes waiting in block
} Sha256;

/// Starts a hash (FIPS 180-4, section 5.3.3 initial value).
void sha256_init(Sha256 *s);

/// Adds len bytes.
void sha256_update(Sha256 *s, const void *data, size_t len);

/// Finishes the hash and writes 64 lower-case hex digits and a NUL into hex (65 bytes).
void sha256_final(Sha256 *s, char hex[65]);

/// Hashes a whole file into hex (65 bytes). STATUS_IO with the path and errno text on failure.
Status sha256_file(const char *path, char hex[65], ErrorInfo *err);
