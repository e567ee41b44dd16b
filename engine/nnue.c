// SPDX-License-Identifier: MIT
// NNUE inference: accumulator refresh and update, the SCReLU output layer; a portable C path
// and AVX2 and AVX-512 paths that compute the same integers (int16 wraps alike, int32 lanes never
// wrap, lanes summed in int64).
#include "nnue.h"

#include <stdlib.h>
#include <string.h>

#include "board.h"

#if defined(__AVX2__) || defined(__AVX512BW__)
#include <immintrin.h>
#endif
// The kernels are inlined into dispatchers that call them with L1 a constant for the common
// sizes (NNUE_L1, NNUE_L1_MAX), so those loops are unrolled as a compile-time L1's were.
#define KERNEL static inline __attribute__((always_inline))

#if defined(__AVX2__)
#define NNUE_HAVE_AVX2 1
#else
#define NNUE_HAVE_AVX2 0
#endif
#if defined(__AVX512BW__)
#define NNUE_HAVE_AVX512 1
#else
#define NNUE_HAVE_AVX512 0
#endif

static const char *const PATH_NAMES[NNUE_PATH_NB] = {"portable", "avx2", "avx512"};

NnueNet *nnue_net_alloc(void) {
    NnueNet *net = aligned_alloc(64, sizeof *net); // sizeof is a multiple of the alignment
    if (net) {
        // Zeroed: all but the feature rows beyond a plain L1-256 net's, which a load or a
        // quantisation writes before use; pages never touched take no memory.
        memset(net, 0, offsetof(NnueNet, ft_weight));
        memset(net->ft_weight, 0, sizeof(int16_t) * NNUE_INPUTS * NNUE_L1);
        memset(net->out_weight, 0, sizeof *net - offsetof(NnueNet, out_weight));
        net->input_set = NNUE_INPUT_PLAIN;
        net->buckets = net->out_buckets = 1;
        net->l1 = NNUE_L1;
    }
    return net;
}

NnuePath nnue_path_best(void) {
    return NNUE_HAVE_AVX512 ? NNUE_AVX512 : NNUE_HAVE_AVX2 ? NNUE_AVX2 : NNUE_PORTABLE;
}

bool nnue_path_available(NnuePath path) {
    return path == NNUE_PORTABLE || (path == NNUE_AVX2 && NNUE_HAVE_AVX2) ||
           (path == NNUE_AVX512 && NNUE_HAVE_AVX512);
}

const char *nnue_path_name(NnuePath path) {
    return path >= 0 && path < NNUE_PATH_NB ? PATH_NAMES[path] : "?";
}

bool nnue_path_find(const char *name, NnuePath *path) {
    for (int p = 0; p < NNUE_PATH_NB; p++)
        if (strcmp(name, PATH_NAMES[p]) == 0) {
            *path = (NnuePath)p;
            return true;
        }
    return false;
}

// --- row kernels (unaligned loads: a net or accumulator on any heap or stack address) -----
// --------------------------------------------------------------------------

// dst = src + sum(add rows) - sum(sub rows), each l1 int16, wrapping as int16.
KERNEL void rows_portable(int l1, const int16_t *src, int16_t *dst, const int16_t *const *add,
                          int nadd, const int16_t *const *sub, int nsub) {
    for (int i = 0; i < l1; i++) {
        uint16_t x = (uint16_t)src[i];
        for (int k = 0; k < nadd; k++)
            x = (uint16_t)(x + (uint16_t)add[k][i]);
        for (int k = 0; k < nsub; k++)
            x = (uint16_t)(x - (uint16_t)sub[k][i]);
        dst[i] = (int16_t)x;
    }
}

// Sum over i of clamp(v[i], 0, QA)^2 * w[i], as the AVX2 path forms it: (v * w) as int16
// (exact: |w| <= NNUE_OUT_WEIGHT_MAX), times v.
KERNEL int64_t screlu_portable(int l1, const int16_t *v, const int16_t *w) {
    int64_t sum = 0;
    for (int i = 0; i < l1; i++) {
        int c = v[i] < 0 ? 0 : v[i] > NNUE_QA ? NNUE_QA : v[i];
        sum += (int64_t)(int16_t)(c * w[i]) * c;
    }
    return sum;
}

#if NNUE_HAVE_AVX2
KERNEL void rows_avx2(int l1, const int16_t *src, int16_t *dst, const int16_t *const *add, int nadd,
                      const int16_t *const *sub, int nsub) {
    for (int i = 0; i < l1; i += 16) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(src + i));
        for (int k = 0; k < nadd; k++)
            x = _mm256_add_epi16(x, _mm256_loadu_si256((const __m256i *)(add[k] + i)));
        for (int k = 0; k < nsub; k++)
            x = _mm256_sub_epi16(x, _mm256_loadu_si256((const __m256i *)(sub[k] + i)));
        _mm256_storeu_si256((__m256i *)(dst + i), x);
    }
}

// Each int32 lane sums 2 * l1 / 16 <= 64 products of at most QA * (QA * 128): < 2^31.
KERNEL int64_t screlu_avx2(int l1, const int16_t *v, const int16_t *w) {
    const __m256i zero = _mm256_setzero_si256(), qa = _mm256_set1_epi16(NNUE_QA);
    __m256i sum = _mm256_setzero_si256();
    for (int i = 0; i < l1; i += 16) {
        __m256i c = _mm256_loadu_si256((const __m256i *)(v + i));
        c = _mm256_min_epi16(_mm256_max_epi16(c, zero), qa);
        __m256i cw = _mm256_mullo_epi16(c, _mm256_loadu_si256((const __m256i *)(w + i)));
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(cw, c));
    }
    int32_t lane[8];
    _mm256_storeu_si256((__m256i *)lane, sum);
    int64_t total = 0;
    for (int k = 0; k < 8; k++)
        total += lane[k];
    return total;
}
#endif

#if NNUE_HAVE_AVX512
KERNEL void rows_avx512(int l1, const int16_t *src, int16_t *dst, const int16_t *const *add,
                        int nadd, const int16_t *const *sub, int nsub) {
    for (int i = 0; i < l1; i += 32) {
        __m512i x = _mm512_loadu_si512((const void *)(src + i));
        for (int k = 0; k < nadd; k++)
            x = _mm512_add_epi16(x, _mm512_loadu_si512((const void *)(add[k] + i)));
        for (int k = 0; k < nsub; k++)
            x = _mm512_sub_epi16(x, _mm512_loadu_si512((const void *)(sub[k] + i)));
        _mm512_storeu_si512((void *)(dst + i), x);
    }
}

// Each of 16 int32 lanes sums 2 * l1 / 32 <= 32 products of at most QA * (QA * 128): < 2^31;
// the lanes are added in int64 (their int32 sum could wrap).
KERNEL int64_t screlu_avx512(int l1, const int16_t *v, const int16_t *w) {
    const __m512i zero = _mm512_setzero_si512(), qa = _mm512_set1_epi16(NNUE_QA);
    __m512i sum = _mm512_setzero_si512();
    for (int i = 0; i < l1; i += 32) {
        __m512i c = _mm512_loadu_si512((const void *)(v + i));
        c = _mm512_min_epi16(_mm512_max_epi16(c, zero), qa);
        __m512i cw = _mm512_mullo_epi16(c, _mm512_loadu_si512((const void *)(w + i)));
        sum = _mm512_add_epi32(sum, _mm512_madd_epi16(cw, c));
    }
    __m512i lo = _mm512_cvtepi32_epi64(_mm512_castsi512_si256(sum));
    __m512i hi = _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(sum, 1));
    return _mm512_reduce_add_epi64(_mm512_add_epi64(lo, hi));
}
#endif

// l1 is a multiple of NNUE_L1_STEP (the loader checks it): every vector loop ends exactly.
KERNEL void rows_any(NnuePath path, int l1, const int16_t *src, int16_t *dst,
                     const int16_t *const *add, int nadd, const int16_t *const *sub, int nsub) {
#if NNUE_HAVE_AVX512
    if (path == NNUE_AVX512) {
        rows_avx512(l1, src, dst, add, nadd, sub, nsub);
        return;
    }
#endif
#if NNUE_HAVE_AVX2
    if (path == NNUE_AVX2) {
        rows_avx2(l1, src, dst, add, nadd, sub, nsub);
        return;
    }
#endif
    (void)path;
    rows_portable(l1, src, dst, add, nadd, sub, nsub);
}

KERNEL int64_t screlu_any(NnuePath path, int l1, const int16_t *v, const int16_t *w) {
#if NNUE_HAVE_AVX512
    if (path == NNUE_AVX512)
        return screlu_avx512(l1, v, w);
#endif
#if NNUE_HAVE_AVX2
    if (path == NNUE_AVX2)
        return screlu_avx2(l1, v, w);
#endif
    (void)path;
    return screlu_portable(l1, v, w);
}

KERNEL void rows(NnuePath path, int l1, const int16_t *src, int16_t *dst, const int16_t *const *add,
                 int nadd, const int16_t *const *sub, int nsub) {
    if (l1 == NNUE_L1)
        rows_any(path, NNUE_L1, src, dst, add, nadd, sub, nsub);
    else if (l1 == NNUE_L1_MAX)
        rows_any(path, NNUE_L1_MAX, src, dst, add, nadd, sub, nsub);
    else
        rows_any(path, l1, src, dst, add, nadd, sub, nsub);
}

static int64_t screlu(NnuePath path, int l1, const int16_t *v, const int16_t *w) {
    return l1 == NNUE_L1       ? screlu_any(path, NNUE_L1, v, w)
           : l1 == NNUE_L1_MAX ? screlu_any(path, NNUE_L1_MAX, v, w)
                               : screlu_any(path, l1, v, w);
}

// --- accumulators -------------------------------------------------------------------------

int nnue_bucket(const NnueNet *net, const Board *b, Side perspective) {
    if (net->input_set != NNUE_INPUT_PALACE || b->general[perspective] >= SQUARE_NB)
        return 0;
    return nnue_palace_bucket(perspective, b->general[perspective]);
}

// The weight row of piece pc on sq seen from perspective p in bucket.
static inline const int16_t *row(const NnueNet *net, int bucket, Side p, Piece pc, Square sq) {
    return nnue_weight_row(net, bucket * NNUE_INPUTS + nnue_feature(p, pc, sq));
}

// Recomputes perspective p of acc from every piece of b.
static void refresh_side(const NnueNet *net, const Board *b, Side p, NnueAccumulator *acc,
                         NnuePath path) {
    enum { CHUNK = 8 }; // rows added per kernel call
    const int16_t *add[CHUNK] = {NULL};
    int n = 0, bucket = nnue_bucket(net, b, p);
    memcpy(acc->v[p], net->ft_bias, sizeof(int16_t) * (size_t)net->l1);
    for (Square sq = 0; sq < SQUARE_NB; sq++) {
        if (b->squares[sq] == EMPTY)
            continue;
        add[n++] = row(net, bucket, p, b->squares[sq], sq);
        if (n == CHUNK)
            rows(path, net->l1, acc->v[p], acc->v[p], add, n, NULL, 0), n = 0;
    }
    if (n)
        rows(path, net->l1, acc->v[p], acc->v[p], add, n, NULL, 0);
}

void nnue_refresh(const NnueNet *net, const Board *b, NnueAccumulator *acc, NnuePath path) {
    for (Side p = CHO; p <= HAN; p++)
        refresh_side(net, b, p, acc, path);
    acc->pieces = board_state(b)->piece_count;
}

void nnue_cache_reset(NnueCache *cache, const NnueNet *net) {
    cache->net = net;
    if (!net)
        return;
    for (Side p = CHO; p <= HAN; p++)
        for (int k = 0; k < net->buckets; k++) {
            memcpy(cache->entry[p][k].v, net->ft_bias, sizeof(int16_t) * (size_t)net->l1);
            memset(cache->entry[p][k].squares, EMPTY, sizeof cache->entry[p][k].squares);
        }
}

// Perspective p of acc from b through cache: its bucket's entry brought to b's pieces (the rows
// of the points that differ subtracted and added), then copied into acc.
static __attribute__((noinline)) void refresh_side_cached(const NnueNet *net, const Board *b,
                                                          Side p, NnueAccumulator *acc,
                                                          NnueCache *cache, NnuePath path) {
    enum { CHUNK = 8 }; // rows of each sign per kernel call
    if (cache->net != net)
        nnue_cache_reset(cache, net);
    const int bucket = nnue_bucket(net, b, p);
    int16_t *v = cache->entry[p][bucket].v;
    Piece *held = cache->entry[p][bucket].squares;
    const int16_t *add[CHUNK], *sub[CHUNK];
    int nadd = 0, nsub = 0;
    for (Square sq = 0; sq < SQUARE_NB; sq++) {
        const Piece now = b->squares[sq], was = held[sq];
        if (now == was)
            continue;
        if (was != EMPTY)
            sub[nsub++] = row(net, bucket, p, was, sq);
        if (now != EMPTY)
            add[nadd++] = row(net, bucket, p, now, sq);
        held[sq] = now;
        if (nadd == CHUNK || nsub == CHUNK)
            rows(path, net->l1, v, v, add, nadd, sub, nsub), nadd = nsub = 0;
    }
    if (nadd || nsub)
        rows(path, net->l1, v, v, add, nadd, sub, nsub);
    memcpy(acc->v[p], v, sizeof(int16_t) * (size_t)net->l1);
}

void nnue_update(const NnueNet *net, const NnueAccumulator *src, NnueAccumulator *dst,
                 const NnueDelta *delta, NnueCache *cache, NnuePath path) {
    dst->pieces = src->pieces + delta->nadd - delta->nsub; // a capture takes one off
    for (Side p = CHO; p <= HAN; p++) {
        // A bucketed perspective whose general moved sees every feature in another bucket.
        if (net->buckets > 1 && delta->nadd && delta->add_pc[0] == piece_make(p, GENERAL)) {
            if (cache)
                refresh_side_cached(net, delta->board, p, dst, cache, path);
            else
                refresh_side(net, delta->board, p, dst, path);
            continue;
        }
        int bucket = net->buckets > 1 ? nnue_bucket(net, delta->board, p) : 0;
        const int16_t *add[1] = {NULL}, *sub[2] = {NULL, NULL};
        for (int k = 0; k < delta->nadd; k++)
            add[k] = row(net, bucket, p, delta->add_pc[k], delta->add_sq[k]);
        for (int k = 0; k < delta->nsub; k++)
            sub[k] = row(net, bucket, p, delta->sub_pc[k], delta->sub_sq[k]);
        rows(path, net->l1, src->v[p], dst->v[p], add, delta->nadd, sub, delta->nsub);
    }
}

bool nnue_acc_equal(const NnueNet *net, const NnueAccumulator *a, const NnueAccumulator *b) {
    size_t bytes = sizeof(int16_t) * (size_t)net->l1;
    return a->pieces == b->pieces && memcmp(a->v[CHO], b->v[CHO], bytes) == 0 &&
           memcmp(a->v[HAN], b->v[HAN], bytes) == 0;
}

void nnue_delta_after_make(const Board *b, NnueDelta *delta) {
    const StateInfo *st = board_state(b);
    delta->nsub = delta->nadd = 0;
    delta->board = b;
    if (st->move == MOVE_NONE || move_is_pass(st->move))
        return;
    Square from = move_from(st->move), to = move_to(st->move);
    Piece mover = b->squares[to];
    delta->sub_pc[0] = mover, delta->sub_sq[0] = from;
    delta->add_pc[0] = mover, delta->add_sq[0] = to;
    delta->nsub = delta->nadd = 1;
    if (st->captured != EMPTY)
        delta->sub_pc[1] = st->captured, delta->sub_sq[1] = to, delta->nsub = 2;
}

// --- output -------------------------------------------------------------------------------

int64_t nnue_output(const NnueNet *net, const NnueAccumulator *acc, Side stm, NnuePath path) {
    const int k = nnue_out_bucket(acc->pieces, net->out_buckets);
    const int16_t *w = net->out_weight + (size_t)k * 2 * (size_t)net->l1;
    int64_t sum =
        screlu(path, net->l1, acc->v[stm], w) + screlu(path, net->l1, acc->v[!stm], w + net->l1);
    return sum + net->out_bias[k];
}

Score nnue_evaluate(const NnueNet *net, const NnueAccumulator *acc, Side stm, NnuePath path) {
    const int64_t unit = (int64_t)NNUE_QA * NNUE_QA * NNUE_QB;
    return (Score)(nnue_output(net, acc, stm, path) * net->scale / unit);
}
