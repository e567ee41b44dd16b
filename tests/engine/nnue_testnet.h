// SPDX-License-Identifier: MIT
// Random nets for the NNUE tests: weights in the ranges a trained net has.
#pragma once

#include <stdint.h>

#include "nnue.h"

/// A net of the variant named variant with random weights drawn from *rng (prng_next): feature
/// biases -200..300, feature weights -90..90, output weights to the loader's limit
/// (NNUE_OUT_WEIGHT_MAX), SCALE 400, a provenance naming a random test number. Free with free().
NnueNet *nnue_test_random_net(const char *variant, uint64_t *rng);

/// nnue_test_random_net() of another architecture: input set (NNUE_INPUT_PLAIN, or
/// NNUE_INPUT_PALACE with its 9 buckets) and L1 (a multiple of NNUE_L1_STEP up to NNUE_L1_MAX).
NnueNet *nnue_test_random_net_arch(const char *variant, NnueInputSet input_set, int l1,
                                   uint64_t *rng);

/// nnue_test_random_net_arch() with out_buckets output layers (1..NNUE_OUT_BUCKETS_MAX), each
/// with its own random weights and bias; with 1 it draws what nnue_test_random_net_arch() does.
NnueNet *nnue_test_random_net_outs(const char *variant, NnueInputSet input_set, int l1,
                                   int out_buckets, uint64_t *rng);
