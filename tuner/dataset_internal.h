// SPDX-License-Identifier: MIT
// The steps of dataset.c that dataset_share.c (the MPI ranks' loader) takes too; not for
// other callers.
#pragma once

#include <stdint.h>

#include "dataset.h"
#include "h5store.h"
#include "search.h"
#include "shard_data.h"

/// Hash of each loading thread's quiescence searcher (its TT is unused), MB.
enum { QUIESCE_HASH_MB = 1 };

/// Rows of one file kept for training and validation (malloc'ed; free both).
typedef struct RowLists {
    size_t *train, *valid;
    size_t ntrain, nvalid;
} RowLists;

/// The salt of the seeded order of file i (0-based) of a load.
static inline uint64_t dataset_file_salt(size_t i) { return 0x9e3779b97f4a7c15ULL * (i + 2); }

/// The rows of file d that f keeps, split by game into out's lists, each in a seeded random
/// order from f->seed and salt (row order with f->keep_order); the drops counted in st.
/// STATUS_NOMEM when memory is short.
Status dataset_select_rows(const ShardData *d, const DatasetFilter *f, uint64_t salt, RowLists *out,
                           DatasetStats *st, ErrorInfo *err);

/// Traces rows[0..n) of d (from the file at path) with `threads` threads (qs: one quiescence
/// searcher each, for f->quiesce) and appends them to out in list order; positions refused by
/// trace parity are left out (counted in st), and kept[i], when kept is not NULL, says which
/// rows were kept. STATUS_FORMAT naming path and row for an undecodable board.
Status dataset_build_rows(const ShardData *d, const size_t *rows, size_t n, const DatasetFilter *f,
                          int threads, Searcher **qs, const char *path, TraceStore *out,
                          DatasetStats *st, uint8_t *kept, ErrorInfo *err);

/// Gives empty training and validation stores the fit's danger range (f's variant's EvalSpec,
/// trace_store.h), as both loaders (dataset_load, dataset_load_share) need before tracing.
void dataset_set_danger(const DatasetFilter *f, TraceStore *train, TraceStore *valid);

/// STATUS_OK when the file at path (its meta) holds f's variant; else STATUS_FORMAT naming the
/// file, and `first` (the first file read) when it is another one.
Status dataset_check_variant(const char *path, const StoreMeta *meta, const DatasetFilter *f,
                             const char *first, ErrorInfo *err);
