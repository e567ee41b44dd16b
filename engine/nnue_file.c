// SPDX-License-Identifier: MIT
// The .nnue file (docs/nnue.md, "File format"): a 72-byte header carrying the architecture
// (format version 2, output buckets among it; version 1's 60-byte header still read), the
// provenance JSON, the quantised body, a CRC-32 over all of it; every field little-endian. Reading
// checks each field before the body is touched, so a foreign, truncated or damaged file is refused
// by name.
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
    NNUE_FORMAT_VERSION = 2,       // the architecture in the header; a net version 1 can hold
                                   // (plain, L1 256, 1 output) is still written as version 1
    NNUE_FEATURES_PIECE_POINT = 1, // version 1's feature set: NNUE_INPUT_PLAIN
    HEADER_BYTES_V1 = 60,
    HEADER_BYTES = 72,
    CRC_BYTES = 4,
    FILE_MAX = 64 << 20 // the largest net (9 x 1,260 x 512) takes 11.6 MB; a larger file is not one
};

// The architecture a header describes, and where its body starts.
typedef struct {
    uint32_t version, input_set, inputs, buckets, l1, out_buckets, out_kind;
    size_t header_bytes;
} Arch;

// Bytes of the body (biases, weights, output layer) of a net of arch a.
static size_t body_bytes(const Arch *a) {
    size_t ft = (size_t)a->l1 + (size_t)a->buckets * a->inputs * a->l1;
    return 2 * (ft + (size_t)a->out_buckets * 2 * a->l1) + 4 * (size_t)a->out_buckets;
}

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

// Version 1's header and body: a plain L1-256 net written as before version 2 existed, so that
// its bytes, and the SHA-256 that runs record of them, stay the same.
static uint8_t *serialise_v1(const NnueNet *net, size_t plen, size_t *len) {
    Arch arch = {1, NNUE_INPUT_PLAIN, NNUE_INPUTS,    1, NNUE_L1,
                 1, NNUE_OUTPUT_NONE, HEADER_BYTES_V1};
    *len = HEADER_BYTES_V1 + plen + body_bytes(&arch) + CRC_BYTES;
    uint8_t *buf = calloc(1, *len), *p = buf;
    if (!buf)
        return NULL;
    memcpy(p, NNUE_MAGIC, 8), p += 8;
    put_u32(&p, 1);
    memcpy(p, net->variant, strnlen(net->variant, 15)), p += 16;
    const uint32_t fields[] = {NNUE_FEATURES_PIECE_POINT, NNUE_INPUTS,   NNUE_L1,
                               NNUE_ACTIVATION_SCRELU,    NNUE_QA,       NNUE_QB,
                               (uint32_t)net->scale,      (uint32_t)plen};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        put_u32(&p, fields[i]);
    return buf;
}

// Version 2's header: the architecture in full.
static uint8_t *serialise_v2(const NnueNet *net, size_t plen, size_t *len) {
    const uint32_t out_kind = net->out_buckets > 1 ? NNUE_OUTPUT_MATERIAL : NNUE_OUTPUT_NONE;
    Arch arch = {
        NNUE_FORMAT_VERSION, (uint32_t)net->input_set,   NNUE_INPUTS, (uint32_t)net->buckets,
        (uint32_t)net->l1,   (uint32_t)net->out_buckets, out_kind,    HEADER_BYTES};
    *len = HEADER_BYTES + plen + body_bytes(&arch) + CRC_BYTES;
    uint8_t *buf = calloc(1, *len), *p = buf;
    if (!buf)
        return NULL;
    memcpy(p, NNUE_MAGIC, 8), p += 8;
    put_u32(&p, NNUE_FORMAT_VERSION);
    memcpy(p, net->variant, strnlen(net->variant, 15)), p += 16;
    const uint32_t fields[] = {
        arch.input_set,   arch.inputs,          arch.buckets,           arch.l1,
        arch.out_buckets, arch.out_kind,        NNUE_ACTIVATION_SCRELU, NNUE_QA,
        NNUE_QB,          (uint32_t)net->scale, (uint32_t)plen};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        put_u32(&p, fields[i]);
    return buf;
}

uint8_t *nnue_serialise(const NnueNet *net, size_t *len) {
    size_t plen = strnlen(net->provenance, NNUE_PROVENANCE_MAX);
    bool v1 = net->input_set == NNUE_INPUT_PLAIN && net->l1 == NNUE_L1 && net->out_buckets == 1;
    uint8_t *buf = v1 ? serialise_v1(net, plen, len) : serialise_v2(net, plen, len);
    if (!buf)
        return NULL;
    uint8_t *p = buf + (v1 ? HEADER_BYTES_V1 : HEADER_BYTES);
    memcpy(p, net->provenance, plen), p += plen;
    put_i16s(&p, net->ft_bias, (size_t)net->l1);
    for (int f = 0; f < net->buckets * NNUE_INPUTS; f++)
        put_i16s(&p, nnue_weight_row(net, f), (size_t)net->l1);
    put_i16s(&p, net->out_weight, (size_t)net->out_buckets * 2 * (size_t)net->l1);
    for (int k = 0; k < net->out_buckets; k++)
        put_u32(&p, (uint32_t)net->out_bias[k]);
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

// Version 1's architecture fields (offset 28): plain inputs, L1 256, one output layer.
static Status read_arch_v1(const uint8_t **p, const char *name, Arch *a, ErrorInfo *err) {
    static const struct {
        const char *field;
        uint32_t value;
    } fixed[] = {
        {"feature set", NNUE_FEATURES_PIECE_POINT}, {"inputs", NNUE_INPUTS}, {"L1", NNUE_L1},
        {"activation", NNUE_ACTIVATION_SCRELU},     {"QA", NNUE_QA},         {"QB", NNUE_QB}};
    Status s = STATUS_OK;
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0] && s == STATUS_OK; i++)
        s = want(name, fixed[i].field, get_u32(p), fixed[i].value, err);
    *a = (Arch){1, NNUE_INPUT_PLAIN, NNUE_INPUTS, 1, NNUE_L1, 1, NNUE_OUTPUT_NONE, HEADER_BYTES_V1};
    return s;
}

// Version 2's output buckets: kind 0 (none) with one output layer, or kind 1 (by the pieces on
// the board) with 2..NNUE_OUT_BUCKETS_MAX.
static Status check_out_buckets(const char *name, const Arch *a, ErrorInfo *err) {
    if (a->out_kind == NNUE_OUTPUT_NONE && a->out_buckets != 1)
        return error_set(err, STATUS_FORMAT,
                         "%s: output buckets is %u with output bucket kind 0 (none), which "
                         "takes 1",
                         name, a->out_buckets);
    if (a->out_kind == NNUE_OUTPUT_MATERIAL &&
        (a->out_buckets < 2 || a->out_buckets > NNUE_OUT_BUCKETS_MAX))
        return error_set(err, STATUS_FORMAT,
                         "%s: output buckets is %u, this engine takes 2 to %d by pieces on the "
                         "board (output bucket kind 1)",
                         name, a->out_buckets, NNUE_OUT_BUCKETS_MAX);
    if (a->out_kind != NNUE_OUTPUT_NONE && a->out_kind != NNUE_OUTPUT_MATERIAL)
        return error_set(err, STATUS_FORMAT,
                         "%s: output bucket kind is %u, this engine takes 0 (none) or 1 (pieces "
                         "on the board)",
                         name, a->out_kind);
    return STATUS_OK;
}

// Version 2's architecture fields (offset 28), each checked against what this build evaluates.
static Status read_arch_v2(const uint8_t **p, const char *name, Arch *a, ErrorInfo *err) {
    a->version = 2, a->header_bytes = HEADER_BYTES;
    a->input_set = get_u32(p), a->inputs = get_u32(p), a->buckets = get_u32(p);
    a->l1 = get_u32(p), a->out_buckets = get_u32(p), a->out_kind = get_u32(p);
    if (a->input_set != NNUE_INPUT_PLAIN && a->input_set != NNUE_INPUT_PALACE)
        return error_set(err, STATUS_FORMAT,
                         "%s: input set is %u, this engine takes 1 (plain) or 2 (palace)", name,
                         a->input_set);
    Status s = want(name, "inputs", a->inputs, NNUE_INPUTS, err);
    if (s == STATUS_OK)
        s = want(name, "input buckets", a->buckets,
                 a->input_set == NNUE_INPUT_PALACE ? NNUE_PALACE_BUCKETS : 1, err);
    if (s == STATUS_OK && (a->l1 == 0 || a->l1 > NNUE_L1_MAX || a->l1 % NNUE_L1_STEP))
        return error_set(err, STATUS_FORMAT,
                         "%s: L1 is %u, this engine takes a multiple of %d up to %d", name, a->l1,
                         NNUE_L1_STEP, NNUE_L1_MAX);
    if (s == STATUS_OK)
        s = check_out_buckets(name, a, err);
    if (s == STATUS_OK)
        s = want(name, "activation", get_u32(p), NNUE_ACTIVATION_SCRELU, err);
    if (s == STATUS_OK)
        s = want(name, "QA", get_u32(p), NNUE_QA, err);
    if (s == STATUS_OK)
        s = want(name, "QB", get_u32(p), NNUE_QB, err);
    return s;
}

static Status check_header(const uint8_t *data, size_t len, const char *name, const Variant *v,
                           NnueNet *net, Arch *arch, uint32_t *plen, ErrorInfo *err) {
    if (len < 8 || memcmp(data, NNUE_MAGIC, 8) != 0)
        return error_set(err, STATUS_FORMAT, "%s: not a Hansu NNUE file (no %s magic)", name,
                         NNUE_MAGIC);
    if (len < HEADER_BYTES_V1 + CRC_BYTES)
        return error_set(err, STATUS_FORMAT, "%s: truncated header (%zu bytes)", name, len);
    const uint8_t *p = data + 8;
    uint32_t version = get_u32(&p);
    if (version != 1 && version != NNUE_FORMAT_VERSION)
        return error_set(err, STATUS_FORMAT, "%s: format version is %u, this engine takes 1 or %d",
                         name, version, NNUE_FORMAT_VERSION);
    if (version == 2 && len < HEADER_BYTES + CRC_BYTES)
        return error_set(err, STATUS_FORMAT, "%s: truncated header (%zu bytes)", name, len);
    memcpy(net->variant, p, 16), p += 16;
    if (net->variant[15] != '\0')
        return error_set(err, STATUS_FORMAT, "%s: variant field is not a terminated name", name);
    if (strcmp(net->variant, v->name) != 0)
        return error_set(err, STATUS_FORMAT, "%s: a net for %s, not for %s", name, net->variant,
                         v->name);
    Status s = version == 1 ? read_arch_v1(&p, name, arch, err) : read_arch_v2(&p, name, arch, err);
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
    size_t expect = arch->header_bytes + (size_t)*plen + body_bytes(arch) + CRC_BYTES;
    if (len != expect)
        return error_set(err, STATUS_FORMAT, "%s: %s: %zu bytes, the header says %zu", name,
                         len < expect ? "truncated" : "trailing bytes", len, expect);
    return STATUS_OK;
}

Status nnue_load_memory(const uint8_t *data, size_t len, const char *name, const Variant *v,
                        NnueNet *net, ErrorInfo *err) {
    uint32_t plen = 0;
    Arch a = {0};
    Status s = check_header(data, len, name, variant_or_default(v), net, &a, &plen, err);
    if (s != STATUS_OK)
        return s;
    const uint8_t *p = data + len - CRC_BYTES;
    uint32_t stored = get_u32(&p), crc = nnue_crc32(data, len - CRC_BYTES);
    if (stored != crc)
        return error_set(err, STATUS_FORMAT,
                         "%s: checksum mismatch (CRC-32 %08x stored, %08x computed): damaged", name,
                         stored, crc);
    net->input_set = (int32_t)a.input_set, net->buckets = (int32_t)a.buckets;
    net->l1 = (int32_t)a.l1, net->out_buckets = (int32_t)a.out_buckets;
    p = data + a.header_bytes;
    memcpy(net->provenance, p, plen), p += plen;
    net->provenance[plen] = '\0';
    get_i16s(&p, net->ft_bias, a.l1);
    get_i16s(&p, net->ft_weight, (size_t)a.buckets * a.inputs * a.l1);
    get_i16s(&p, net->out_weight, (size_t)a.out_buckets * 2 * a.l1);
    for (uint32_t k = 0; k < a.out_buckets; k++)
        net->out_bias[k] = (int32_t)get_u32(&p);
    for (int i = 0; i < net->out_buckets * 2 * net->l1; i++)
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
