// SPDX-License-Identifier: MIT
// bench: the engine's signature. A fixed list of positions of a variant (janggi's
// data/bench.fen, another's data/bench-<variant>.fen: engine/variants.def) searched to a fixed
// depth with a cleared TT; the total node count changes only when search or evaluation changes.
#pragma once

#include <stdint.h>
#include <stdio.h>

#include "nnue.h" // NnuePath
#include "search_params.h"
#include "status.h"
#include "types.h"

enum {
    BENCH_DEPTH = 9, // plies, the depth of the signature
    BENCH_HASH_MB = 16
};

/// What a bench run measured.
typedef struct BenchResult {
    int positions;
    uint64_t nodes;
    int64_t time_ms;
} BenchResult;

/// The default variant's compiled-in position list (janggi's data/bench.fen): one FEN per line;
/// lines starting with '#' and blank lines are skipped.
const char *bench_default_text(void);

/// The compiled-in position list of variant v (the default's data/bench.fen, another's
/// data/bench-<name>.fen), in the same format; every variant of variants.def has one.
const char *bench_text(const Variant *v);

/// Searches every FEN of text (positions of variant v) to depth plies, each with a freshly
/// cleared searcher of hash_mb MB. When out is not NULL, prints one line per position, then
/// `Nodes searched: N` and `Nodes/second: N`. Returns STATUS_SYNTAX (naming the line) on a bad
/// FEN, STATUS_NOMEM.
Status bench_run(const Variant *v, const char *text, int depth, size_t hash_mb, FILE *out,
                 BenchResult *res, ErrorInfo *err);

typedef struct NnueNet NnueNet; // nnue.h

/// bench_run() evaluating with net (of variant v; NULL: the classical evaluation, as bench_run)
/// on the kernels of path (nnue_path_best() for the engine's own; STATUS_RANGE if this build
/// lacks it).
Status bench_run_net(const Variant *v, const char *text, int depth, size_t hash_mb,
                     const NnueNet *net, NnuePath path, FILE *out, BenchResult *res,
                     ErrorInfo *err);

/// bench_run_net() on threads search threads (Lazy SMP, search_set_threads) with the search's
/// tunable constants params (NULL: their defaults, the signature's): with more than one thread
/// the node count varies from run to run, so it measures speed (nodes/s), not the signature.
/// STATUS_NOMEM also when the threads cannot be had.
Status bench_run_smp(const Variant *v, const char *text, int depth, size_t hash_mb,
                     const NnueNet *net, NnuePath path, int threads, const SearchParams *params,
                     FILE *out, BenchResult *res, ErrorInfo *err);
