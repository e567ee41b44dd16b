// SPDX-License-Identifier: MIT
// Float net to the engine's quantised NnueNet (QA, QB, QA^2 QB units, rounded to nearest), and
// the check that the engine's integer evaluation of the decoded boards follows the float one.
#include "nnue_train.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "variant.h"

static int16_t q16(float x, double unit, int limit) {
    double r = round((double)x * unit);
    return (int16_t)(r > limit ? limit : r < -limit ? -limit : r);
}

Status float_net_from_quantised(FloatNet *net, const NnueNet *q, int scale, ErrorInfo *err) {
    const bool palace = net->inputs == NNUE_TRAIN_PALACE_INPUTS;
    if ((net->inputs != NNUE_INPUTS && !palace) || net->hidden != q->l1 ||
        (q->input_set == NNUE_INPUT_PALACE && !palace))
        return error_set(err, STATUS_RANGE,
                         "a %d x %d net cannot start from the engine's %s net of L1 %d (a plain "
                         "net starts a plain or a palace net of its L1, a palace net a palace "
                         "net)",
                         net->inputs, net->hidden,
                         q->input_set == NNUE_INPUT_PALACE ? "palace" : "plain", q->l1);
    if (q->out_buckets != 1 && q->out_buckets != net->outs)
        return error_set(err, STATUS_RANGE,
                         "the net to start from has %d output buckets, this run trains %d (a net "
                         "of 1 starts any number)",
                         q->out_buckets, net->outs);
    const int h = net->hidden;
    const double out = (double)q->scale / scale;
    // A palace net in training holds 9 bucket rows and a shared row per feature, summed at export
    // (nnue_quantise): a plain net's rows become the shared rows (every bucket starts as it), a
    // palace net's its bucket rows; the other rows start at 0.
    const size_t rows = (size_t)nnue_train_inputs(palace ? NNUE_INPUT_PALACE : NNUE_INPUT_PLAIN);
    const size_t first =
        palace && q->input_set == NNUE_INPUT_PLAIN ? (size_t)NNUE_PALACE_BUCKETS * NNUE_INPUTS : 0;
    memset(net->ft_w, 0, rows * (size_t)h * sizeof *net->ft_w);
    for (int f = 0; f < q->buckets * NNUE_INPUTS; f++)
        for (int j = 0; j < h; j++)
            net->ft_w[(first + (size_t)f) * h + j] = (float)nnue_weight_row(q, f)[j] / NNUE_QA;
    for (int j = 0; j < h; j++)
        net->ft_b[j] = (float)q->ft_bias[j] / NNUE_QA;
    for (int k = 0; k < net->outs; k++) { // a net of one output layer starts each of them
        const int from = q->out_buckets == 1 ? 0 : k;
        for (int j = 0; j < 2 * h; j++)
            net->out_w[k * 2 * h + j] = (float)(q->out_weight[from * 2 * h + j] * out / NNUE_QB);
        net->out_b[k] = (float)(q->out_bias[from] * out / ((double)NNUE_QA * NNUE_QA * NNUE_QB));
    }
    return STATUS_OK;
}

// The engine's input set of a float net of `inputs` inputs; false for neither.
static bool input_set_of(int inputs, NnueInputSet *set) {
    *set = inputs == NNUE_TRAIN_PALACE_INPUTS ? NNUE_INPUT_PALACE : NNUE_INPUT_PLAIN;
    return inputs == NNUE_INPUTS || inputs == NNUE_TRAIN_PALACE_INPUTS;
}

Status nnue_quantise(const FloatNet *net, int scale, const char *variant, const char *provenance,
                     NnueNet *out, ErrorInfo *err) {
    NnueInputSet set;
    if (!input_set_of(net->inputs, &set) || net->hidden > NNUE_L1_MAX || net->hidden % NNUE_L1_STEP)
        return error_set(err, STATUS_RANGE,
                         "a %d x %d net cannot be written: the engine takes %d or %d inputs and "
                         "an L1 that is a multiple of %d up to %d",
                         net->inputs, net->hidden, NNUE_INPUTS, NNUE_TRAIN_PALACE_INPUTS,
                         NNUE_L1_STEP, NNUE_L1_MAX);
    if (net->outs < 1 || net->outs > NNUE_OUT_BUCKETS_MAX)
        return error_set(err, STATUS_RANGE,
                         "a net of %d output buckets cannot be written: the engine takes 1 to %d",
                         net->outs, NNUE_OUT_BUCKETS_MAX);
    const int h = net->hidden, buckets = set == NNUE_INPUT_PALACE ? NNUE_PALACE_BUCKETS : 1;
    memset(out->variant, 0, sizeof out->variant);
    snprintf(out->variant, sizeof out->variant, "%s", variant);
    snprintf(out->provenance, sizeof out->provenance, "%s", provenance ? provenance : "{}");
    out->scale = scale;
    out->input_set = set, out->buckets = buckets, out->out_buckets = net->outs, out->l1 = h;
    // A palace bucket's row is its own plus the shared row (the factoriser), folded here.
    const float *shared = net->ft_w + (size_t)NNUE_PALACE_BUCKETS * NNUE_INPUTS * h;
    for (int r = 0; r < buckets * NNUE_INPUTS; r++)
        for (int j = 0; j < h; j++) {
            float x = net->ft_w[(size_t)r * h + j];
            if (set == NNUE_INPUT_PALACE) {
                x += shared[(size_t)(r % NNUE_INPUTS) * h + j];
                x = x > NNUE_TRAIN_CLIP    ? NNUE_TRAIN_CLIP
                    : x < -NNUE_TRAIN_CLIP ? -NNUE_TRAIN_CLIP
                                           : x;
            }
            nnue_weight_row(out, r)[j] = q16(x, NNUE_QA, INT16_MAX);
        }
    for (int j = 0; j < h; j++)
        out->ft_bias[j] = q16(net->ft_b[j], NNUE_QA, INT16_MAX);
    for (int j = 0; j < net->outs * 2 * h; j++)
        out->out_weight[j] = q16(net->out_w[j], NNUE_QB, NNUE_OUT_WEIGHT_MAX);
    for (int k = 0; k < net->outs; k++)
        out->out_bias[k] = (int32_t)lround((double)net->out_b[k] * NNUE_QA * NNUE_QA * NNUE_QB);
    return STATUS_OK;
}

size_t nnue_weights_changed(const NnueNet *a, const NnueNet *b, bool *out_bias_changed) {
    size_t n = 0;
    // b plain and a palace (a palace net started from a plain one): each bucket against b's rows
    for (int f = 0; f < a->buckets * NNUE_INPUTS; f++)
        for (int j = 0; j < a->l1; j++)
            n += nnue_weight_row(a, f)[j] != nnue_weight_row(b, f % (b->buckets * NNUE_INPUTS))[j];
    for (int j = 0; j < a->l1; j++)
        n += a->ft_bias[j] != b->ft_bias[j];
    // b of one output layer (a fine-tune's --init) is compared with each of a's.
    *out_bias_changed = false;
    for (int k = 0; k < a->out_buckets; k++) {
        const int kb = b->out_buckets == 1 ? 0 : k;
        for (int j = 0; j < 2 * a->l1; j++)
            n += a->out_weight[k * 2 * a->l1 + j] != b->out_weight[kb * 2 * a->l1 + j];
        *out_bias_changed |= a->out_bias[k] != b->out_bias[kb];
    }
    return n;
}

Status nnue_quant_check(const FloatNet *fnet, const NnueNet *qnet, const NnuePosition *pos,
                        size_t n, size_t limit, QuantCheck *out, ErrorInfo *err) {
    memset(out, 0, sizeof *out);
    const Variant *v = variant_find(qnet->variant);
    Board *b = malloc(sizeof *b);
    NnueAccumulator *acc = aligned_alloc(64, sizeof *acc);
    Status s = b && acc ? STATUS_OK : error_set(err, STATUS_NOMEM, "out of memory");
    if (s == STATUS_OK && !v)
        s = error_set(err, STATUS_FORMAT, "net for unknown variant '%s'", qnet->variant);
    double sum = 0;
    for (size_t i = 0; i < n && i < limit && s == STATUS_OK; i++) {
        PackedBoard pb;
        memcpy(pb.sq, pos[i].board, PACKED_BOARD_BYTES);
        s = packed_board_decode_variant(&pb, v, pos[i].stm ? HAN : CHO, 0, b, err);
        if (s != STATUS_OK)
            break;
        uint16_t feats[2][NNUE_TRAIN_FEATURES_MAX];
        int nf = nnue_train_features(&pos[i], fnet->inputs, feats);
        double fcp = float_net_forward(fnet, feats, nf, pos[i].stm) * qnet->scale;
        nnue_refresh(qnet, b, acc, nnue_path_best());
        double d = fabs(fcp - nnue_evaluate(qnet, acc, b->side, nnue_path_best()));
        sum += d;
        out->max_cp = d > out->max_cp ? d : out->max_cp;
        out->positions++;
    }
    out->mean_cp = out->positions ? sum / (double)out->positions : 0;
    free(acc);
    free(b);
    return s;
}
