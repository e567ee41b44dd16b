// SPDX-License-Identifier: MIT
// Which positions of a batched data set an MPI rank holds, and their exchange (share.h).
#include "share.h"

#include <stdint.h>
#include <string.h>

#include "cluster.h"

TuneShare tune_share_make(size_t npos, size_t batch, int rank, int ranks, int threads) {
    if (ranks < 1)
        ranks = 1, rank = 0;
    return (TuneShare){.npos = npos,
                       .batch = batch && batch < npos ? batch : npos,
                       .first = rank * threads,
                       .threads = threads,
                       .all = ranks * threads};
}

void tune_static_share(size_t begin, size_t end, int threads, int t, size_t *lo, size_t *hi) {
    size_t n = end - begin, q = n / (size_t)threads, rem = n % (size_t)threads, i = (size_t)t;
    *lo = begin + (i < rem ? (q + 1) * i : q * i + rem);
    *hi = *lo + q + (i < rem);
}

size_t tune_share_batches(const TuneShare *sh) {
    return sh->npos ? (sh->npos + sh->batch - 1) / sh->batch : 0;
}

// The rank's held range of [begin, end): from its first thread's share to its last's.
static void held(const TuneShare *sh, size_t begin, size_t end, size_t *lo, size_t *hi) {
    size_t x;
    tune_static_share(begin, end, sh->all, sh->first, lo, &x);
    tune_static_share(begin, end, sh->all, sh->first + sh->threads - 1, &x, hi);
}

void tune_share_batch(const TuneShare *sh, size_t b, size_t *begin, size_t *end, size_t *lo,
                      size_t *hi, size_t *at) {
    *begin = b * sh->batch;
    *end = *begin + sh->batch < sh->npos ? *begin + sh->batch : sh->npos;
    held(sh, *begin, *end, lo, hi);
    // Every batch before b is a full one, of which the rank holds the same count.
    size_t flo, fhi;
    held(sh, 0, sh->batch, &flo, &fhi);
    *at = b * (fhi - flo);
}

size_t tune_share_count(const TuneShare *sh) {
    size_t nb = tune_share_batches(sh);
    if (nb == 0)
        return 0;
    size_t begin, end, lo, hi, at;
    tune_share_batch(sh, nb - 1, &begin, &end, &lo, &hi, &at);
    return at + (hi - lo);
}

void tune_share_gather(const TuneShare *sh, const void *local, void *global) {
    uint64_t *g = global;
    memset(g, 0, sh->npos * sizeof *g);
    const unsigned char *src = local;
    for (size_t b = 0, nb = tune_share_batches(sh); b < nb; b++) {
        size_t begin, end, lo, hi, at;
        tune_share_batch(sh, b, &begin, &end, &lo, &hi, &at);
        if (hi > lo)
            memcpy(g + lo, src + at * sizeof *g, (hi - lo) * sizeof *g);
    }
    cluster_sum_u64(g, sh->npos);
}

Status tune_agree(Status st, ErrorInfo *err) {
    uint64_t failed = st != STATUS_OK;
    cluster_sum_u64(&failed, 1);
    if (st == STATUS_OK && failed)
        return error_set(err, STATUS_IO, "another MPI rank failed (its message is above)");
    return st;
}
