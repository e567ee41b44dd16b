// SPDX-License-Identifier: MIT
// libFuzzer target for nnue_load_memory(): any bytes are refused with a message that names the
// file (STATUS_FORMAT), or load as a net of an architecture the engine evaluates (L1 a multiple
// of NNUE_L1_STEP up to NNUE_L1_MAX, 1 or 9 buckets as the input set says, 1 output layer of kind
// 0 or 2..8 of kind 1, by pieces) whose evaluation, in every output layer, is the same on every
// kernel and survives a write and a reload. A refusal of a version-2 header whose output bucket
// fields are out of range names them. A broken invariant aborts.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "engine.h"
#include "fen.h"
#include "nnue.h"
#include "variant.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t u32_at(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void check(bool ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "fuzz_nnue: %s\n", what);
        abort();
    }
}

// Whether data is a version-2 header for v whose fields before the output buckets are all
// valid and whose output bucket pair is not: the loader must refuse it naming the field.
static bool bad_out_buckets(const uint8_t *data, size_t size, const Variant *v) {
    if (size < 76 || memcmp(data, "HNSUNNUE", 8) != 0 || u32_at(data + 8) != 2)
        return false;
    char name[16] = {0};
    strncpy(name, v->name, sizeof name - 1);
    uint32_t set = u32_at(data + 28), buckets = u32_at(data + 36), l1 = u32_at(data + 40);
    if (memcmp(data + 12, name, 16) != 0 || (set != NNUE_INPUT_PLAIN && set != NNUE_INPUT_PALACE) ||
        u32_at(data + 32) != NNUE_INPUTS ||
        buckets != (set == NNUE_INPUT_PALACE ? NNUE_PALACE_BUCKETS : 1u) || l1 == 0 ||
        l1 > NNUE_L1_MAX || l1 % NNUE_L1_STEP)
        return false;
    uint32_t outs = u32_at(data + 44), kind = u32_at(data + 48);
    return !((kind == NNUE_OUTPUT_NONE && outs == 1) ||
             (kind == NNUE_OUTPUT_MATERIAL && outs >= 2 && outs <= NNUE_OUT_BUCKETS_MAX));
}

// A loaded net: its architecture in range, the same output on every kernel, and written and
// read back, the same output again.
static void check_loaded(const NnueNet *net, const Variant *v, const uint8_t *data) {
    check(net->l1 > 0 && net->l1 <= NNUE_L1_MAX && net->l1 % NNUE_L1_STEP == 0, "L1 out of range");
    check(net->buckets == (net->input_set == NNUE_INPUT_PALACE ? NNUE_PALACE_BUCKETS : 1),
          "buckets disagree with the input set");
    check(net->out_buckets >= 1 && net->out_buckets <= NNUE_OUT_BUCKETS_MAX, "output buckets");
    if (data[8] == 2) // the header's kind: 1 (pieces) exactly when there are several layers
        check(u32_at(data + 48) == (net->out_buckets > 1 ? NNUE_OUTPUT_MATERIAL : NNUE_OUTPUT_NONE),
              "output bucket kind disagrees with the count");
    static Board b;
    static _Alignas(64) NnueAccumulator acc;
    check(fen_parse_variant(&b, v, v->start_fen, NULL) == STATUS_OK, "start FEN refused");
    nnue_refresh(net, &b, &acc, NNUE_PORTABLE);
    int64_t out = nnue_output(net, &acc, b.side, NNUE_PORTABLE);
    check(out == nnue_output(net, &acc, b.side, nnue_path_best()), "kernels disagree");
    for (int pieces = 1; pieces <= NNUE_PIECES_MAX; pieces++) { // every output layer
        NnueAccumulator fewer = acc;
        fewer.pieces = pieces;
        check(nnue_output(net, &fewer, b.side, NNUE_PORTABLE) ==
                  nnue_output(net, &fewer, b.side, nnue_path_best()),
              "kernels disagree in an output layer");
    }
    size_t len;
    uint8_t *bytes = nnue_serialise(net, &len);
    NnueNet *again = nnue_net_alloc();
    ErrorInfo err;
    check(bytes && again, "out of memory");
    check(nnue_load_memory(bytes, len, "again", v, again, &err) == STATUS_OK, err.msg);
    nnue_refresh(again, &b, &acc, NNUE_PORTABLE);
    check(nnue_output(again, &acc, b.side, NNUE_PORTABLE) == out, "reload changed the output");
    free(again);
    free(bytes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    engine_init();
    static NnueNet *net;
    if (!net && !(net = nnue_net_alloc()))
        return 0;
    uint8_t *copy = malloc(size ? size : 1); // the reader must bound its own reads: exact size
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    const Variant *variants[] = {&VARIANT_JANGGI, &VARIANT_XIANGQI};
    for (int k = 0; k < 2; k++) {
        ErrorInfo err;
        memset(&err, 0, sizeof err);
        Status st = nnue_load_memory(copy, size, "fuzz.nnue", variants[k], net, &err);
        if (st == STATUS_OK)
            check_loaded(net, variants[k], copy);
        else
            check(st == STATUS_FORMAT && strstr(err.msg, "fuzz.nnue") != NULL,
                  "refused without STATUS_FORMAT or the file's name");
        if (bad_out_buckets(copy, size, variants[k]))
            check(st == STATUS_FORMAT && strstr(err.msg, "output bucket") != NULL,
                  "bad output buckets loaded or not named");
    }
    free(copy);
    return 0;
}
