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
    if (net)
        memset(net, 0, sizeof *net);
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

// dst = src + sum(add rows) - sum(sub rows), each NNUE_L1 int16, wrapping as int16.
static void rows_portable(const int16_t *src, int16_t *dst, const int16_t *const *add, int nadd,
                          const int16_t *const *sub, int nsub) {
    for (int i = 0; i < NNUE_L1; i++) {
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
static int64_t screlu_portable(const int16_t *v, const int16_t *w) {
    int64_t sum = 0;
    for (int i = 0; i < NNUE_L1; i++) {
        int c = v[i] < 0 ? 0 : v[i] > NNUE_QA ? NNUE_QA : v[i];
        sum += (int64_t)(int16_t)(c * w[i]) * c;
    }
    return sum;
}

#if NNUE_HAVE_AVX2
static void rows_avx2(const int16_t *src, int16_t *dst, const int16_t *const *add, int nadd,
                      const int16_t *const *sub, int nsub) {
    for (int i = 0; i < NNUE_L1; i += 16) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(src + i));
        for (int k = 0; k < nadd; k++)
            x = _mm256_add_epi16(x, _mm256_loadu_si256((const __m256i *)(add[k] + i)));
        for (int k = 0; k < nsub; k++)
            x = _mm256_sub_epi16(x, _mm256_loadu_si256((const __m256i *)(sub[k] + i)));
        _mm256_storeu_si256((__m256i *)(dst + i), x);
    }
}

// Each int32 lane sums 2 * NNUE_L1 / 16 products of at most QA * (QA * 128): < 2^31.
static int64_t screlu_avx2(const int16_t *v, const int16_t *w) {
    const __m256i zero = _mm256_setzero_si256(), qa = _mm256_set1_epi16(NNUE_QA);
    __m256i sum = _mm256_setzero_si256();
    for (int i = 0; i < NNUE_L1; i += 16) {
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
static void rows_avx512(const int16_t *src, int16_t *dst, const int16_t *const *add, int nadd,
                        const int16_t *const *sub, int nsub) {
    for (int i = 0; i < NNUE_L1; i += 32) {
        __m512i x = _mm512_loadu_si512((const void *)(src + i));
        for (int k = 0; k < nadd; k++)
            x = _mm512_add_epi16(x, _mm512_loadu_si512((const void *)(add[k] + i)));
        for (int k = 0; k < nsub; k++)
            x = _mm512_sub_epi16(x, _mm512_loadu_si512((const void *)(sub[k] + i)));
        _mm512_storeu_si512((void *)(dst + i), x);
    }
}

// Each of 16 int32 lanes sums 2 * NNUE_L1 / 32 products of at most QA * (QA * 128): < 2^31;
// the lanes are added in int64 (their int32 sum could wrap).
static int64_t screlu_avx512(const int16_t *v, const int16_t *w) {
    const __m512i zero = _mm512_setzero_si512(), qa = _mm512_set1_epi16(NNUE_QA);
    __m512i sum = _mm512_setzero_si512();
    for (int i = 0; i < NNUE_L1; i += 32) {
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

static void rows(NnuePath path, const int16_t *src, int16_t *dst, const int16_t *const *add,
                 int nadd, const int16_t *const *sub, int nsub) {
#if NNUE_HAVE_AVX512
    if (path == NNUE_AVX512) {
        rows_avx512(src, dst, add, nadd, sub, nsub);
        return;
    }
#endif
#if NNUE_HAVE_AVX2
    if (path == NNUE_AVX2) {
        rows_avx2(src, dst, add, nadd, sub, nsub);
        return;
    }
#endif
    (void)path;
    rows_portable(src, dst, add, nadd, sub, nsub);
}

static int64_t screlu(NnuePath path, const int16_t *v, const int16_t *w) {
#if NNUE_HAVE_AVX512
    if (path == NNUE_AVX512)
        return screlu_avx512(v, w);
#endif
#if NNUE_HAVE_AVX2
    if (path == NNUE_AVX2)
        return screlu_avx2(v, w);
#endif
    (void)path;
    return screlu_portable(v, w);
}

// --- accumulators -------------------------------------------------------------------------

void nnue_refresh(const NnueNet *net, const Board *b, NnueAccumulator *acc, NnuePath path) {
    enum { CHUNK = 8 }; // rows added per kernel call
    for (Side p = CHO; p <= HAN; p++) {
        const int16_t *add[CHUNK] = {NULL};
        int n = 0;
        memcpy(acc->v[p], net->ft_bias, sizeof acc->v[p]);
        for (Square sq = 0; sq < SQUARE_NB; sq++) {
            if (b->squares[sq] == EMPTY)
                continue;
            add[n++] = net->ft_weight[nnue_feature(p, b->squares[sq], sq)];
            if (n == CHUNK)
                rows(path, acc->v[p], acc->v[p], add, n, NULL, 0), n = 0;
        }
        if (n)
            rows(path, acc->v[p], acc->v[p], add, n, NULL, 0);
    }
}

void nnue_update(const NnueNet *net, const NnueAccumulator *src, NnueAccumulator *dst,
                 const NnueDelta *delta, NnuePath path) {
    for (Side p = CHO; p <= HAN; p++) {
        const int16_t *add[1] = {NULL}, *sub[2] = {NULL, NULL};
        for (int k = 0; k < delta->nadd; k++)
            add[k] = net->ft_weight[nnue_feature(p, delta->add_pc[k], delta->add_sq[k])];
        for (int k = 0; k < delta->nsub; k++)
            sub[k] = net->ft_weight[nnue_feature(p, delta->sub_pc[k], delta->sub_sq[k])];
        rows(path, src->v[p], dst->v[p], add, delta->nadd, sub, delta->nsub);
    }
}

void nnue_delta_after_make(const Board *b, NnueDelta *delta) {
    const StateInfo *st = board_state(b);
    delta->nsub = delta->nadd = 0;
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
    int64_t sum = screlu(path, acc->v[stm], net->out_weight) +
                  screlu(path, acc->v[!stm], net->out_weight + NNUE_L1);
    return sum + net->out_bias;
}

Score nnue_evaluate(const NnueNet *net, const NnueAccumulator *acc, Side stm, NnuePath path) {
    const int64_t unit = (int64_t)NNUE_QA * NNUE_QA * NNUE_QB;
    return (Score)(nnue_output(net, acc, stm, path) * net->scale / unit);
}
