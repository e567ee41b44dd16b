// SPDX-License-Identifier: MIT
// The float network of the NNUE trainer, its gradient, AdamW with a cosine learning rate and
// sparse input rows, OpenMP mini-batches reduced in a fixed order (the same seed and thread
// count give the same bytes), checkpoints, and the quantisation to the engine's NnueNet.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nnue.h"
#include "nnue_data.h"
#include "nnue_stream.h"
#include "status.h"

enum {
    NNUE_TRAIN_FEATURES_MAX = 64, // active inputs per perspective: 32 pieces, twice for palace
    // A palace net in training: 9 buckets of 1,260 rows, then 1,260 shared rows (the factoriser)
    // that every bucket's row is trained with and that export adds into each bucket's.
    NNUE_TRAIN_PALACE_INPUTS = (NNUE_PALACE_BUCKETS + 1) * NNUE_INPUTS
};

/// The default range of every feature weight: a bias plus 32 rows of it stay inside int16 once
/// quantised (33 * 1.98 * QA < 32,767).
#define NNUE_TRAIN_CLIP 1.98

/// The float net's input count for input_set: NNUE_INPUTS (plain) or NNUE_TRAIN_PALACE_INPUTS.
int nnue_train_inputs(NnueInputSet input_set);

/// The active inputs of p for a float net of `inputs` inputs, per perspective: NNUE_INPUTS,
/// nnue_position_features(); NNUE_TRAIN_PALACE_INPUTS, each piece's row in the perspective's
/// general's bucket (nnue_palace_bucket) then its shared row; NNUE_PALACE_BUCKETS *
/// NNUE_INPUTS (the trainer's folded rows, bucket + shared), the bucket rows alone. Returns the
/// count per perspective.
int nnue_train_features(const NnuePosition *p, int inputs,
                        uint16_t feats[2][NNUE_TRAIN_FEATURES_MAX]);

/// Float weights of a (inputs -> hidden) x 2 -> 1 SCReLU network with outs output layers, in one
/// array: feature rows (inputs x hidden), feature bias (hidden), output weights (per output
/// layer, the side to move's hidden then the other side's), output biases (outs). A position's
/// output layer is chosen by its pieces (nnue_out_bucket, as the engine chooses it). hidden is a
/// runtime size (NNUE_L1 for a net the engine loads; smaller in tests). Output in units of
/// `scale` centipawns.
typedef struct FloatNet {
    int inputs, hidden, outs;
    size_t n;                           // parameters in all
    float *p;                           // the parameters
    float *ft_w, *ft_b, *out_w, *out_b; // views into p
} FloatNet;

/// Parameters of a net of inputs x hidden with outs output layers: feature rows and bias, output
/// weights and biases.
size_t float_net_params(int inputs, int hidden, int outs);

/// Allocates a net with uniform random weights from seed (Kaiming-like ranges), outs output layers
/// (1..NNUE_OUT_BUCKETS_MAX; with 1 the weights are those of a net before output buckets).
/// STATUS_RANGE for a size out of range, STATUS_NOMEM.
Status float_net_init(FloatNet *net, int inputs, int hidden, int outs, uint64_t seed,
                      ErrorInfo *err);

/// The output layer of a position whose features (nnue_train_features for net->inputs) number n
/// per perspective: nnue_out_bucket of its pieces (n, or n / 2 for the unfolded palace rows, two
/// per piece).
int float_net_out_bucket(const FloatNet *net, int n);

/// Frees net's parameters (NULL fields accepted).
void float_net_free(FloatNet *net);

/// Float output (scale-less units: centipawns / scale) of the net for features feats[CHO],
/// feats[HAN] (n each) with stm to move.
double float_net_forward(const FloatNet *net, const uint16_t feats[2][NNUE_TRAIN_FEATURES_MAX],
                         int n, int stm);

/// Loss (sigmoid(out * scale / s) - target)^2 of one position and, when grad is not NULL, adds
/// its gradient into grad (net->n floats) and marks the touched feature rows in touched.
double float_net_backward(const FloatNet *net, const NnuePosition *pos, double lambda,
                          double scale_over_s, double s, float *grad, uint8_t *touched);

/// Training settings (flags of hansu-nnue).
typedef struct NnueTrainConfig {
    int hidden;             // L1: a multiple of NNUE_L1_STEP up to NNUE_L1_MAX for a net to write
    int out_buckets;        // output layers by pieces on the board (1..NNUE_OUT_BUCKETS_MAX)
    NnueInputSet input_set; // plain, or palace (factorised: nnue_train_inputs)
    int epochs;             // passes over the training positions
    int batch;              // positions per step
    int threads;            // OpenMP threads
    double lr, lr_min;      // cosine schedule from lr down to lr_min over all steps
    double weight_decay;    // AdamW's decoupled decay
    double beta1, beta2, eps;
    double lambda;     // weight of the result in the target
    double s;          // sigmoid scale of scores, centipawns (fitted when <= 0)
    int scale;         // centipawns per unit of net output (NnueNet.scale)
    double clip;       // every weight kept in +-clip: quantised sums stay inside int16
    double out_clip;   // output weights kept in +-out_clip: (NNUE_OUT_WEIGHT_MAX - 1) / NNUE_QB
    uint32_t init_crc; // 0: random first weights; else the CRC-32 of the net they came from
                       // (--init; a resume needs the same)
    uint64_t seed;
    const char *variant;      // the variant's name ("janggi", "xiangqi"): a resume needs the same
    const NnueFilter *filter; // the data's filters (a resume needs the same); NULL: the defaults
} NnueTrainConfig;

/// Defaults: hidden NNUE_L1, 1 output layer, 10 epochs, batch 16384, 1 thread, lr 0.001 -> 0.00001,
/// decay 0.01, betas 0.9 / 0.999, eps 1e-8, lambda 0.5, s fitted, scale 400, clip 1.98, output clip
/// 127 / NNUE_QB, seed 1, variant janggi.
NnueTrainConfig nnue_train_config_default(void);

/// Figures of one epoch.
typedef struct NnueEpoch {
    double train_loss;    // mean loss over the epoch's steps (the weights moving)
    double valid_loss;    // mean loss on the validation positions after the epoch
    double pos_per_s;     // training positions per wall-clock second
    double pos_per_cpu_s; // per second of CPU time of the process (all threads): on a machine
                          // shared with other work, the rate the threads got
} NnueEpoch;

/// Optimiser state and progress: what a checkpoint holds.
typedef struct NnueTrainer {
    NnueTrainConfig cfg;
    FloatNet net;
    float *m, *v; // AdamW moments
    // A palace net is trained on folded rows (bucket row + shared row, refreshed before each
    // step): view is the net with ft_w = folded and only the bucket rows as inputs, so a
    // position costs what a plain one does; the shared rows' gradient is the sum of their
    // buckets'. NULL / unused for a plain net.
    float *folded;
    FloatNet view;
    int epoch;         // epochs done
    int64_t step;      // optimiser steps done
    NnueEpoch *epochs; // per epoch done (cfg.epochs entries)
    // per-thread scratch
    float **grad;         // gradient per thread (net.n floats)
    uint8_t **touched;    // feature rows touched per thread (inputs bytes)
    uint8_t *any_touched; // feature rows touched by any thread
} NnueTrainer;

/// Sets up a trainer for cfg (cfg->s must be > 0 already). STATUS_NOMEM.
Status nnue_trainer_init(NnueTrainer *t, const NnueTrainConfig *cfg, ErrorInfo *err);

/// Frees everything (NULL fields accepted).
void nnue_trainer_free(NnueTrainer *t);

/// One epoch over train (shuffled from seed and epoch number), then the validation loss; stores
/// both and the positions/s in the trainer. Deterministic for a seed and thread count. Out of
/// memory the epoch is left undone (t->epoch unchanged).
void nnue_trainer_epoch(NnueTrainer *t, const NnuePosition *train, size_t ntrain,
                        const NnuePosition *valid, size_t nvalid);

/// One epoch over the batches of s (nnue_stream_epoch for t->epoch, then nnue_stream_next until
/// the epoch is over: as many steps as batches, the cosine schedule counting
/// nnue_stream_positions), then the validation loss, as nnue_trainer_epoch; a held stream gives
/// its bytes. nnue_stream_next's errors (the epoch left undone); STATUS_RANGE when s's batch is
/// not the trainer's.
Status nnue_trainer_epoch_stream(NnueTrainer *t, NnueStream *s, const NnuePosition *valid,
                                 size_t nvalid, ErrorInfo *err);

/// Mean loss over positions (no gradient), threads as the config says.
double nnue_trainer_loss(const NnueTrainer *t, const NnuePosition *pos, size_t n);

/// Writes the trainer state to path (atomically), with its settings (the data filters among
/// them, cfg.filter) and the inputs of d (each file's path and SHA-256; the positions read,
/// dropped, trained on, held out; d NULL: none). STATUS_IO, STATUS_NOMEM.
Status nnue_checkpoint_save(const NnueTrainer *t, const NnueData *d, const char *path,
                            ErrorInfo *err);

/// Checks the checkpoint at path against cfg before any data is read (--resume): present and
/// readable, a checkpoint of this version and net, the same settings and data filters (the
/// sigmoid scale aside while cfg->s is still to be fitted from the data), undamaged.
/// nnue_checkpoint_load's errors but the inputs'.
Status nnue_checkpoint_check(const NnueTrainConfig *cfg, const char *path, ErrorInfo *err);

/// Restores a trainer initialised with the same config from path, trained on the inputs of d
/// (as nnue_checkpoint_save). STATUS_FORMAT naming path when it is not a checkpoint, is damaged,
/// was written by an older trainer (checkpoint version 2 and before: no filters or inputs
/// recorded; "delete it or train without --resume"), under other settings or filters (the
/// message names the first that differs), or from other inputs: another number of files, a file
/// whose SHA-256 differs (its path may: a moved folder), other position counts (the message
/// names the first, a file by its number, paths and short digests); STATUS_IO, STATUS_NOMEM.
Status nnue_checkpoint_load(NnueTrainer *t, const NnueData *d, const char *path, ErrorInfo *err);

/// Sets net's weights to those of q in float units: q's integers over QA, QB and QA^2 QB, output
/// weights and bias times q->scale / scale (the trainer's centipawns per output unit); net's
/// hidden must be q's L1. A plain q starts a plain net, or a palace net (factorised: q's rows
/// become the shared rows, the bucket rows 0, so every bucket starts as q); a palace q starts a
/// palace net (its bucket rows, the shared rows 0). A q of one output layer starts each of net's
/// output layers; else q's must be as many as net's. Quantising the result with scale gives q back
/// (a plain q's rows in every bucket). STATUS_RANGE naming the sizes when they do not fit.
Status float_net_from_quantised(FloatNet *net, const NnueNet *q, int scale, ErrorInfo *err);

/// Quantises net into out: weights rounded to QA, QB and QA^2 QB units; a palace net's shared
/// rows are added into each bucket's first (the sum kept in +-NNUE_TRAIN_CLIP). variant and
/// provenance are copied. STATUS_RANGE when hidden is not an L1 the engine takes or the inputs
/// are neither plain nor palace.
Status nnue_quantise(const FloatNet *net, int scale, const char *variant, const char *provenance,
                     NnueNet *out, ErrorInfo *err);

/// Integer weights (feature rows and bias, output weights) that differ between a and b (of the
/// same L1; b of one input bucket and one output layer compared with each of a's, as an --init
/// net that started a palace net of output buckets), of buckets * NNUE_INPUTS * l1 + l1 +
/// out_buckets * 2 * l1; *out_bias_changed says whether any output bias does. 0 after a fine-tune
/// from b means rounding erased what it learnt (issue 39).
size_t nnue_weights_changed(const NnueNet *a, const NnueNet *b, bool *out_bias_changed);

/// Float and quantised evaluations compared on positions (the engine's own refresh and
/// evaluate on the decoded board): max and mean absolute difference in centipawns.
typedef struct QuantCheck {
    double max_cp, mean_cp;
    size_t positions;
} QuantCheck;

/// Compares at most limit positions of pos. STATUS_FORMAT when a board does not decode.
Status nnue_quant_check(const FloatNet *fnet, const NnueNet *qnet, const NnuePosition *pos,
                        size_t n, size_t limit, QuantCheck *out, ErrorInfo *err);
