// SPDX-License-Identifier: MIT
// Random nets for the NNUE tests (nnue_testnet.h).
#include "nnue_testnet.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "prng.h"

static int draw(uint64_t *rng, int lo, int hi) {
    return lo + (int)(prng_next(rng) % (uint64_t)(hi - lo + 1));
}

NnueNet *nnue_test_random_net_outs(const char *variant, NnueInputSet input_set, int l1,
                                   int out_buckets, uint64_t *rng) {
    NnueNet *net = nnue_net_alloc();
    assert_non_null(net);
    snprintf(net->variant, sizeof net->variant, "%s", variant);
    net->scale = 400;
    net->input_set = input_set;
    net->buckets = input_set == NNUE_INPUT_PALACE ? NNUE_PALACE_BUCKETS : 1;
    net->l1 = l1;
    net->out_buckets = out_buckets;
    snprintf(net->provenance, sizeof net->provenance, "{\"test\": %d}", draw(rng, 0, 999));
    for (int i = 0; i < l1; i++)
        net->ft_bias[i] = (int16_t)draw(rng, -200, 300);
    for (int f = 0; f < net->buckets * NNUE_INPUTS; f++)
        for (int i = 0; i < l1; i++)
            nnue_weight_row(net, f)[i] = (int16_t)draw(rng, -90, 90);
    for (int k = 0; k < out_buckets; k++) {
        for (int i = 0; i < 2 * l1; i++)
            net->out_weight[k * 2 * l1 + i] =
                (int16_t)draw(rng, -NNUE_OUT_WEIGHT_MAX, NNUE_OUT_WEIGHT_MAX);
        net->out_bias[k] = draw(rng, -1000000, 1000000);
    }
    return net;
}

NnueNet *nnue_test_random_net_arch(const char *variant, NnueInputSet input_set, int l1,
                                   uint64_t *rng) {
    return nnue_test_random_net_outs(variant, input_set, l1, 1, rng);
}

NnueNet *nnue_test_random_net(const char *variant, uint64_t *rng) {
    return nnue_test_random_net_arch(variant, NNUE_INPUT_PLAIN, NNUE_L1, rng);
}
