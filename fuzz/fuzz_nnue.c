// SPDX-License-Identifier: MIT
// libFuzzer target for nnue_load_memory(): any bytes are refused with a message that names the
// file (STATUS_FORMAT), or load as a net of an architecture the engine evaluates (L1 a multiple
// of NNUE_L1_STEP up to NNUE_L1_MAX, 1 or 9 buckets as the input set says) whose evaluation is
// the same on every kernel and survives a write and a reload. A broken invariant aborts.
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

static void check(bool ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "fuzz_nnue: %s\n", what);
        abort();
    }
}

// A loaded net: its architecture in range, the same output on every kernel, and written and
// read back, the same output again.
static void check_loaded(const NnueNet *net, const Variant *v) {
    check(net->l1 > 0 && net->l1 <= NNUE_L1_MAX && net->l1 % NNUE_L1_STEP == 0, "L1 out of range");
    check(net->buckets == (net->input_set == NNUE_INPUT_PALACE ? NNUE_PALACE_BUCKETS : 1),
          "buckets disagree with the input set");
    check(net->out_buckets == 1, "output buckets");
    static Board b;
    static _Alignas(64) NnueAccumulator acc;
    check(fen_parse_variant(&b, v, v->start_fen, NULL) == STATUS_OK, "start FEN refused");
    nnue_refresh(net, &b, &acc, NNUE_PORTABLE);
    int64_t out = nnue_output(net, &acc, b.side, NNUE_PORTABLE);
    check(out == nnue_output(net, &acc, b.side, nnue_path_best()), "kernels disagree");
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
            check_loaded(net, variants[k]);
        else
            check(st == STATUS_FORMAT && strstr(err.msg, "fuzz.nnue") != NULL,
                  "refused without STATUS_FORMAT or the file's name");
    }
    free(copy);
    return 0;
}
