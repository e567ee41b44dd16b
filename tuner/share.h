// SPDX-License-Identifier: MIT
// The positions one MPI rank holds of a data set (issue 15): a set of npos positions cut into
// fixed, contiguous batches, each batch split among ranks*threads threads by OpenMP's static
// split; rank r's threads r*threads .. r*threads+threads-1 take one contiguous range of every
// batch, and the rank holds those ranges, batch after batch, in one compact TraceStore.
#pragma once

#include <stddef.h>

#include "status.h"

/// This rank's part of a data set of npos positions in batches of `batch` positions.
typedef struct TuneShare {
    size_t npos;  // positions of the whole set (on every rank)
    size_t batch; // positions per batch, 1 .. npos (the last batch may be shorter)
    int first;    // this rank's first thread among `all` (rank * threads)
    int threads;  // this rank's threads
    int all;      // threads of all ranks (ranks * threads)
} TuneShare;

/// The share of rank `rank` of `ranks` with `threads` threads each of npos positions in batches
/// of `batch` (0 or >= npos: one batch, as the optimiser takes them).
TuneShare tune_share_make(size_t npos, size_t batch, int rank, int ranks, int threads);

/// Thread t's share [lo, hi) of [begin, end) among `threads` threads under OpenMP's
/// schedule(static) as libgomp cuts it: n / threads each, one more for the first n % threads.
void tune_static_share(size_t begin, size_t end, int threads, int t, size_t *lo, size_t *hi);

/// Number of batches (0 for an empty set).
size_t tune_share_batches(const TuneShare *sh);

/// Batch b's global range [begin, end), its part this rank holds [lo, hi) and the index `at`
/// of global position lo in the rank's store.
void tune_share_batch(const TuneShare *sh, size_t b, size_t *begin, size_t *end, size_t *lo,
                      size_t *hi, size_t *at);

/// Positions this rank holds.
size_t tune_share_count(const TuneShare *sh);

/// Every rank's held values (8 bytes each, in the rank's store order: `local`) placed at their
/// global indices in `global` (npos values of 8 bytes), on every rank: the bits are copied, as
/// each slot comes from exactly one rank (an integer sum over ranks, cluster_sum_u64, of slots
/// that the other ranks leave at 0). Every rank must call it alike. One process: a copy.
void tune_share_gather(const TuneShare *sh, const void *local, void *global);

/// Under MPI: st on a rank that failed, STATUS_IO on every other rank when any failed, so no
/// rank waits in a collective call for a failed one. Every rank must call it. One process: st.
Status tune_agree(Status st, ErrorInfo *err);
