// SPDX-License-Identifier: MIT
// Texel tuning (Peter Österlund, "Texel's tuning method", 2014) of a tapered linear
// evaluation stored as sparse traces, with Adam (Kingma & Ba 2015) or plain gradient descent.
//
// The loss, exactly (double precision):
//   E_j   = sum_i coef_ij * (mg_i * phase_j + eg_i * (phase_max - phase_j)) / phase_max
//           (trace_store.h; cp, side to move's view, no truncation)
//   p_j   = sigmoid(K * E_j) = 1 / (1 + 10^(-K * E_j / 400))   (Österlund's form)
//   MSE   = (1 / N) * sum_j (p_j - t_j)^2
// with the target t_j = (1 - lambda) * result_j + lambda * sigmoid(K * score_j) (result 1 when
// the side to move won, 0 when it lost: janggi has no draws; positions without a stored score
// use lambda = 0). Gradient, for each parameter i:
//   dMSE/dE_j  = (2 / N) * (p_j - t_j) * p_j * (1 - p_j) * K * ln(10) / 400
//   dMSE/dmg_i = sum_j dMSE/dE_j * coef_ij * phase_j / phase_max
//   dMSE/deg_i = sum_j dMSE/dE_j * coef_ij * (phase_max - phase_j) / phase_max
// Weight vectors are double w[2 * nparams]: w[2i] = mg_i, w[2i + 1] = eg_i, in cp.
//
// Regularisation toward the starting weights w0 (ridge regression / a Gaussian prior centred
// on w0, i.e. the maximum a posteriori estimate; Hastie, Tibshirani & Friedman, "The Elements
// of Statistical Learning", 2nd ed., section 3.4.1). The optimiser minimises
//   J = MSE + (l2 / N) * sum_i ((w_i - w0_i) / 100)^2           (N: training positions)
//     = (1 / N) * [ sum_j (p_j - t_j)^2 + l2 * sum_i ((w_i - w0_i) / 100)^2 ]
//   dJ/dw_i = dMSE/dw_i + (2 * l2 / N) * (w_i - w0_i) / 100^2
// so l2 means the same at every data size: a deviation of one pawn (100 cp) in one weight
// costs as much as l2 positions predicted with a squared error of 1 (in the Bayesian reading,
// l2 = sigma^2 / tau^2: per-position noise variance over the prior variance in pawns^2). A
// weight that few positions touch stays near w0; with more data the data term dominates.
// Every reported MSE (per-epoch lines, validation, early stopping) is the MSE alone.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "share.h"
#include "status.h"
#include "trace_store.h"

typedef enum { TUNE_ADAM, TUNE_GD } TuneMethod;

/// Every setting of a training run; none is compiled in (the front end fills them from flags).
typedef struct TuneConfig {
    TuneMethod method;
    double lr;             // Adam: step size in cp; GD: multiplier of the gradient (cp^2 units)
    double beta1, beta2;   // Adam moment decay rates (paper defaults 0.9, 0.999)
    double epsilon;        // Adam denominator guard
    int epochs;            // passes over the training set
    size_t batch;          // positions per step; 0 = full batch (one step per epoch)
    int patience;          // stop after this many epochs without a better validation MSE; 0 = never
    int threads;           // OpenMP threads (>= 1)
    uint64_t seed;         // order of mini-batches
    double k;              // sigmoid scale K
    const uint8_t *frozen; // nparams flags, 1 = keep this parameter (mg and eg) fixed; NULL = none
    double l2;             // prior weight (see above); 0 = no regularisation
    const double *w0;      // 2 * nparams weights the prior pulls toward; NULL = the start of w
    int rank, ranks;       // MPI: this process is rank `rank` of `ranks`, each with `threads`
                           // threads; ranks <= 1: this process alone (see tune_gradient_split)
    // MPI: the stores hold only this rank's shares of the whole sets (share.h; the training
    // set's batches of `batch`, the validation set as one batch); NULL: the whole sets.
    const TuneShare *train_share, *valid_share;
} TuneConfig;

/// What one epoch did, for the per-epoch line and the loss CSV.
typedef struct TuneEpoch {
    int epoch;            // 1-based
    double train_mse;     // mean of the batch losses before each step (full batch: exact)
    double valid_mse;     // after the epoch; NAN without a validation set
    double train_seconds; // wall time of the training pass (gradient, loss and steps)
    double valid_seconds; // wall time of the validation pass
} TuneEpoch;

/// Called after every epoch (may be NULL in the config's caller).
typedef void (*TuneEpochFn)(const TuneEpoch *epoch, void *arg);

/// Summary of a run.
typedef struct TuneResult {
    int epochs_run;
    int best_epoch;        // epoch whose weights were kept (0 = the starting weights)
    double best_valid_mse; // NAN without a validation set
    bool stopped_early;
} TuneResult;

/// sigmoid(K * e) = 1 / (1 + 10^(-K * e / 400)), e in cp.
double tune_sigmoid(double k, double e);

/// Sets every target t_j = (1 - lambda) * result_j + lambda * sigmoid(K * score_j) (lambda
/// in [0, 1]; positions without a score take the result).
void tune_set_targets(TraceStore *s, double k, double lambda);

/// MSE of weights w on store s (0 for an empty store), with `threads` OpenMP threads.
double tune_loss(const TraceStore *s, const double *w, double k, int threads);

/// MSE over positions [begin, end) of s and its gradient with respect to w (2 * nparams
/// doubles, overwritten). Per-thread buffers (scratch: threads * tune_scratch_stride(s)
/// doubles) are summed in thread order, so the result is deterministic for a thread count.
double tune_gradient(const TraceStore *s, size_t begin, size_t end, const double *w, double k,
                     int threads, double *grad, double *scratch);

/// tune_gradient spread over `ranks` processes (MPI ranks) of `threads` threads each: this
/// one (rank `rank`) computes the shares that threads rank*threads .. rank*threads+threads-1
/// of one process with ranks*threads threads would (OpenMP's static split, tune_static_share),
/// and cluster_chain_sum adds every share in that thread order, so the gradient and the
/// loss, returned on every rank, are bit for bit those of tune_gradient with ranks*threads
/// threads. [begin, end) are global indices; s->pos[at] is the global position where this
/// rank's first thread starts (its held range of the batch, share.h; in a store of the whole
/// set, that position's own index). Every rank must call it alike. scratch: (threads + 1) *
/// tune_scratch_stride(s) + 1 doubles (the last for the running sum). ranks <= 1: tune_gradient
/// on s's [begin, end).
double tune_gradient_split(const TraceStore *s, size_t begin, size_t end, size_t at,
                           const double *w, double k, int threads, int rank, int ranks,
                           double *grad, double *scratch);

/// tune_loss spread over ranks as tune_gradient_split over a set of npos positions, of which
/// s holds this rank's threads' static shares from index `at`: bit for bit tune_loss with
/// ranks*threads threads, on every rank. ranks <= 1: tune_loss of s.
double tune_loss_split(const TraceStore *s, size_t npos, size_t at, const double *w, double k,
                       int threads, int rank, int ranks);

/// tune_loss with sh->all threads of the whole set of which s holds this rank's share sh (of
/// any batch layout): every rank's differences p_j - t_j are gathered (8 bytes per position of
/// the whole set) and summed as those threads would. Every rank must call it alike.
/// STATUS_NOMEM (on every rank, tune_agree) when memory is short.
Status tune_loss_share(const TraceStore *s, const TuneShare *sh, const double *w, double k,
                       double *loss, ErrorInfo *err);

/// tune_fit_k of the whole set of which s holds this rank's share sh: the evaluations and
/// results of every position gathered (16 bytes per position), then the same fit on every
/// rank. Every rank must call it alike; STATUS_NOMEM as tune_loss_share.
Status tune_fit_k_share(const TraceStore *s, const TuneShare *sh, const double *w, double *k,
                        ErrorInfo *err);

/// Doubles of scratch each thread needs in tune_gradient().
size_t tune_scratch_stride(const TraceStore *s);

/// The regulariser (l2 / npos) * sum_i ((w_i - w0_i) / 100)^2 of cfg (0 when cfg->l2 is 0 or
/// npos is 0); when grad is not NULL its gradient is added to grad (2 * nparams doubles).
double tune_penalty(const TuneConfig *cfg, int nparams, size_t npos, const double *w0,
                    const double *w, double *grad);

/// The K minimising the MSE of w against the game results (lambda = 0) on s: a log-spaced
/// scan of [0.05, 20] then golden-section refinement to 1e-6. Returns 0 on an empty store.
double tune_fit_k(const TraceStore *s, const double *w, int threads);

/// Trains w (2 * nparams doubles, in/out) on `train` with the method of cfg, reporting each
/// epoch through on_epoch. With a non-empty `valid` (may be NULL) it keeps the weights of the
/// best validation epoch and stops after cfg->patience epochs without improvement.
/// STATUS_NOMEM when buffers cannot be allocated, STATUS_RANGE on a bad setting.
Status tune_train(const TraceStore *train, const TraceStore *valid, const TuneConfig *cfg,
                  double *w, TuneEpochFn on_epoch, void *arg, TuneResult *result, ErrorInfo *err);
