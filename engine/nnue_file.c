// SPDX-License-Identifier: MIT
// The .nnue file (docs/nnue.md, "File format"): a 60-byte header, the provenance JSON, the
// quantised body, a CRC-32 over all of it; every field little-endian. Reading checks each field
// before the body is touched, so a foreign, truncated or damaged file is refused by name.
#include "nnue.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "files.h"
#include "variant.h"

#define NNUE_MAGIC "HNSUNNUE"
enum {
    NNUE_FORMAT_VERSION = 1,
    NNUE_FEATURES_PIECE_POINT = 1, // (own/their, kind, point), Han's view rotated 180 degrees
    HEADER_BYTES = 60,
    BODY_BYTES = 2 * (NNUE_L1 + NNUE_INPUTS * NNUE_L1 + 2 * NNUE_L1) + 4,
    CRC_BYTES = 4,
    FILE_MAX = 64 << 20 // no net of this format comes near; a larger file is not one
};

uint32_t nnue_crc32(const uint8_t *data, size_t len) {
    uint32_t table[256];
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        table[i] = c;
    }
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < len; i++)
        crc = table[(crc ^ data[i]) & 0xFF] ^ (crc >> 8);
    return crc ^ 0xFFFFFFFFu;
}

// --- little-endian fields -----------------------------------------------------------------

static void put_u32(uint8_t **p, uint32_t v) {
    for (int k = 0; k < 4; k++)
        *(*p)++ = (uint8_t)(v >> (8 * k));
}
static void put_i16s(uint8_t **p, const int16_t *v, size_t n) {
    for (size_t i = 0; i < n; i++)
        *(*p)++ = (uint8_t)((uint16_t)v[i] & 0xFF), *(*p)++ = (uint8_t)((uint16_t)v[i] >> 8);
}
static uint32_t get_u32(const uint8_t **p) {
    uint32_t v = 0;
    for (int k = 0; k < 4; k++)
        v |= (uint32_t) * (*p)++ << (8 * k);
    return v;
}
static void get_i16s(const uint8_t **p, int16_t *v, size_t n) {
    for (size_t i = 0; i < n; i++, *p += 2)
        v[i] = (int16_t)(uint16_t)((*p)[0] | (*p)[1] << 8);
}

// --- writing ------------------------------------------------------------------------------

uint8_t *nnue_serialise(const NnueNet *net, size_t *len) {
    size_t plen = strnlen(net->provenance, NNUE_PROVENANCE_MAX);
    *len = HEADER_BYTES + plen + BODY_BYTES + CRC_BYTES;
    uint8_t *buf = calloc(1, *len), *p = buf;
    if (!buf)
        return NULL;
    memcpy(p, NNUE_MAGIC, 8), p += 8;
    put_u32(&p, NNUE_FORMAT_VERSION);
    memcpy(p, net->variant, strnlen(net->variant, 15)), p += 16;
    put_u32(&p, NNUE_FEATURES_PIECE_POINT);
    put_u32(&p, NNUE_INPUTS);
    put_u32(&p, NNUE_L1);
    put_u32(&p, NNUE_ACTIVATION_SCRELU);
    put_u32(&p, NNUE_QA);
    put_u32(&p, NNUE_QB);
    put_u32(&p, (uint32_t)net->scale);
    put_u32(&p, (uint32_t)plen);
    memcpy(p, net->provenance, plen), p += plen;
    put_i16s(&p, net->ft_bias, NNUE_L1);
    put_i16s(&p, &net->ft_weight[0][0], (size_t)NNUE_INPUTS * NNUE_L1);
    put_i16s(&p, net->out_weight, 2 * NNUE_L1);
    put_u32(&p, (uint32_t)net->out_bias);
    put_u32(&p, nnue_crc32(buf, (size_t)(p - buf)));
    return buf;
}

Status nnue_save(const NnueNet *net, const char *path, ErrorInfo *err) {
    size_t len;
    uint8_t *buf = nnue_serialise(net, &len);
    if (!buf)
        return error_set(err, STATUS_NOMEM, "%s: out of memory serialising the net", path);
    Status s = cli_write_atomic(path, (const char *)buf, len, err);
    free(buf);
    return s;
}

// --- reading ------------------------------------------------------------------------------

// Checks one architecture field against what this build computes with.
static Status want(const char *name, const char *field, uint32_t got, uint32_t expect,
                   ErrorInfo *err) {
    if (got == expect)
        return STATUS_OK;
    return error_set(err, STATUS_FORMAT, "%s: %s is %u, this engine takes %u", name, field, got,
                     expect);
}

static Status check_header(const uint8_t *data, size_t len, const char *name, const Variant *v,
                           NnueNet *net, uint32_t *plen, ErrorInfo *err) {
    if (len < 8 || memcmp(data, NNUE_MAGIC, 8) != 0)
        return error_set(err, STATUS_FORMAT, "%s: not a Hansu NNUE file (no %s magic)", name,
                         NNUE_MAGIC);
    if (len < HEADER_BYTES + CRC_BYTES)
        return error_set(err, STATUS_FORMAT, "%s: truncated header (%zu bytes)", name, len);
    const uint8_t *p = data + 8;
    Status s = want(name, "format version", get_u32(&p), NNUE_FORMAT_VERSION, err);
    if (s != STATUS_OK)
        return s;
    memcpy(net->variant, p, 16), p += 16;
    if (net->variant[15] != '\0')
        return error_set(err, STATUS_FORMAT, "%s: variant field is not a terminated name", name);
    if (strcmp(net->variant, v->name) != 0)
        return error_set(err, STATUS_FORMAT, "%s: a net for %s, not for %s", name, net->variant,
                         v->name);
    static const struct {
        const char *field;
        uint32_t value;
    } arch[] = {
        {"feature set", NNUE_FEATURES_PIECE_POINT}, {"inputs", NNUE_INPUTS}, {"L1", NNUE_L1},
        {"activation", NNUE_ACTIVATION_SCRELU},     {"QA", NNUE_QA},         {"QB", NNUE_QB}};
    for (size_t i = 0; i < sizeof arch / sizeof arch[0] && s == STATUS_OK; i++)
        s = want(name, arch[i].field, get_u32(&p), arch[i].value, err);
    if (s != STATUS_OK)
        return s;
    net->scale = (int32_t)get_u32(&p);
    if (net->scale <= 0 || net->scale > 100000)
        return error_set(err, STATUS_FORMAT, "%s: scale %d out of range 1..100000", name,
                         net->scale);
    *plen = get_u32(&p);
    if (*plen > NNUE_PROVENANCE_MAX)
        return error_set(err, STATUS_FORMAT, "%s: provenance of %u bytes (at most %d)", name, *plen,
                         NNUE_PROVENANCE_MAX);
    size_t expect = HEADER_BYTES + (size_t)*plen + BODY_BYTES + CRC_BYTES;
    if (len != expect)
        return error_set(err, STATUS_FORMAT, "%s: %s: %zu bytes, the header says %zu", name,
                         len < expect ? "truncated" : "trailing bytes", len, expect);
    return STATUS_OK;
}

Status nnue_load_memory(const uint8_t *data, size_t len, const char *name, const Variant *v,
                        NnueNet *net, ErrorInfo *err) {
    uint32_t plen = 0;
    Status s = check_header(data, len, name, variant_or_default(v), net, &plen, err);
    if (s != STATUS_OK)
        return s;
    const uint8_t *p = data + len - CRC_BYTES;
    uint32_t stored = get_u32(&p), crc = nnue_crc32(data, len - CRC_BYTES);
    if (stored != crc)
        return error_set(err, STATUS_FORMAT,
                         "%s: checksum mismatch (CRC-32 %08x stored, %08x computed): damaged", name,
                         stored, crc);
    p = data + HEADER_BYTES;
    memcpy(net->provenance, p, plen), p += plen;
    net->provenance[plen] = '\0';
    get_i16s(&p, net->ft_bias, NNUE_L1);
    get_i16s(&p, &net->ft_weight[0][0], (size_t)NNUE_INPUTS * NNUE_L1);
    get_i16s(&p, net->out_weight, 2 * NNUE_L1);
    net->out_bias = (int32_t)get_u32(&p);
    for (int i = 0; i < 2 * NNUE_L1; i++)
        if (abs(net->out_weight[i]) > NNUE_OUT_WEIGHT_MAX)
            return error_set(err, STATUS_FORMAT, "%s: output weight %d is %d (at most +-%d)", name,
                             i, net->out_weight[i], NNUE_OUT_WEIGHT_MAX);
    return STATUS_OK;
}

Status nnue_load(const char *path, const Variant *v, NnueNet *net, ErrorInfo *err) {
    FILE *f;
    Status opened = files_open_input(path, "rb", &f, err);
    if (opened != STATUS_OK)
        return opened;
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    Status s = STATUS_OK;
    uint8_t *buf = NULL;
    size_t len = 0;
    if (size < 0 || fseek(f, 0, SEEK_SET) != 0)
        s = error_set(err, STATUS_IO, "%s: cannot seek: %s", path, strerror(errno));
    else if (size > FILE_MAX)
        s = error_set(err, STATUS_FORMAT, "%s: %ld bytes, larger than any net", path, size);
    else if (!(buf = malloc((size_t)size + 1)))
        s = error_set(err, STATUS_NOMEM, "%s: out of memory reading the net", path);
    else if ((len = fread(buf, 1, (size_t)size, f)) != (size_t)size)
        s = error_set(err, STATUS_IO, "%s: read error", path);
    fclose(f);
    if (s == STATUS_OK)
        s = nnue_load_memory(buf, len, path, v, net, err);
    free(buf);
    return s;
}
