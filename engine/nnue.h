// SPDX-License-Identifier: MIT
// NNUE evaluation (issue 26): a (2 x 7 x 90 -> L1) x 2 -> 1 network with SCReLU, quantised
// integer inference in the Bullet/akimbo scheme, accumulators kept per perspective and
// updated from move deltas, a portable C path and an AVX2 path that give identical scores.
// The file format (.nnue) is in nnue_file.c; docs/nnue.md describes both byte by byte.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "status.h"
#include "types.h"

// Architecture constants. L1 is fixed at compile time; a file of another L1 is refused.
enum {
    NNUE_L1 = 256,                            // hidden neurons per perspective
    NNUE_KINDS = KIND_NB - 1,                 // piece kinds of every variant (7)
    NNUE_INPUTS = 2 * NNUE_KINDS * SQUARE_NB, // (own/their, kind, point): 1,260
    NNUE_QA = 255,                            // feature transformer scale (activation 1.0)
    NNUE_QB = 256,                            // output weight scale (64 erred 11 cp mean)
    NNUE_OUT_WEIGHT_MAX = 128,                // |output weight|: QA * w fits in int16
    NNUE_ACTIVATION_SCRELU = 1,               // clamp(x, 0, 1)^2, the only one so far
    NNUE_PROVENANCE_MAX = 8192                // bytes of provenance JSON, NUL excluded
};

/// A quantised network. Feature weights are rows of NNUE_L1 int16 (QA units), one row per
/// input; output weights are the side to move's NNUE_L1 then the other side's (QB units); the
/// output bias is in QA * QA * QB units. Score in centipawns = output * scale / (QA^2 * QB).
typedef struct NnueNet {
    char variant[16];                         // Variant.name of the game it was trained on
    int32_t scale;                            // centipawns per unit of float output (e.g. 400)
    char provenance[NNUE_PROVENANCE_MAX + 1]; // UTF-8 JSON text (training data, epochs, ...)
    _Alignas(64) int16_t ft_bias[NNUE_L1];
    _Alignas(64) int16_t ft_weight[NNUE_INPUTS][NNUE_L1];
    _Alignas(64) int16_t out_weight[2 * NNUE_L1];
    int32_t out_bias;
} NnueNet;

/// The hidden layer before activation for both perspectives, indexed by Side (not by side to
/// move): v[CHO] sees the board as Cho does, v[HAN] rotated 180 degrees.
typedef struct NnueAccumulator {
    _Alignas(64) int16_t v[SIDE_NB][NNUE_L1];
} NnueAccumulator;

/// The features a move or pass changes: up to 2 removed (the mover from its point, a captured
/// piece) and 1 added (the mover on its new point), as (piece, point) pairs. A pass: none.
typedef struct NnueDelta {
    int nsub, nadd;
    Piece sub_pc[2], add_pc[1];
    Square sub_sq[2], add_sq[1];
} NnueDelta;

/// A zeroed net on the heap, aligned as its type asks (64 bytes; malloc's 16 is not enough for
/// vector code the compiler may emit). Free with free(). NULL when out of memory.
NnueNet *nnue_net_alloc(void);

/// Which code computes updates and outputs; all give the same integers. NNUE_AVX2 exists only
/// when built with __AVX2__, NNUE_AVX512 with __AVX512BW__ (-march=native on such a CPU).
typedef enum { NNUE_PORTABLE = 0, NNUE_AVX2 = 1, NNUE_AVX512 = 2, NNUE_PATH_NB } NnuePath;

/// The fastest path this build has: AVX-512, else AVX2, else portable.
NnuePath nnue_path_best(void);

/// True when path is compiled into this build.
bool nnue_path_available(NnuePath path);

/// The path's name: "portable", "avx2", "avx512".
const char *nnue_path_name(NnuePath path);

/// The path called name (as nnue_path_name writes it) into *path; false for another name.
bool nnue_path_find(const char *name, NnuePath *path);

/// Input index 0..NNUE_INPUTS-1 of piece pc on point sq seen from perspective: (own 0 / their
/// 1, kind - 1, point) with the point rotated 180 degrees (sq -> 89 - sq) for Han.
static inline int nnue_feature(Side perspective, Piece pc, Square sq) {
    int their = piece_side(pc) != perspective;
    int psq = perspective == CHO ? sq : SQUARE_NB - 1 - sq;
    return (their * NNUE_KINDS + (int)piece_kind(pc) - 1) * SQUARE_NB + psq;
}

/// Recomputes both perspectives of acc from every piece of b.
void nnue_refresh(const NnueNet *net, const Board *b, NnueAccumulator *acc, NnuePath path);

/// dst = src with delta applied to both perspectives (src == dst allowed): the search keeps one
/// accumulator per ply and unmakes for free.
void nnue_update(const NnueNet *net, const NnueAccumulator *src, NnueAccumulator *dst,
                 const NnueDelta *delta, NnuePath path);

/// The delta of the move that reached b's current position, read after board_make(): the mover
/// now on move_to, StateInfo.captured. A pass (or the root) gives an empty delta.
void nnue_delta_after_make(const Board *b, NnueDelta *delta);

/// The raw output in QA^2 * QB units of acc with stm to move (wraps never: |out weight| <=
/// NNUE_OUT_WEIGHT_MAX keeps every int32 lane in range).
int64_t nnue_output(const NnueNet *net, const NnueAccumulator *acc, Side stm, NnuePath path);

/// Centipawns from the side to move's view: nnue_output() * scale / (QA^2 * QB), rounded to 0.
Score nnue_evaluate(const NnueNet *net, const NnueAccumulator *acc, Side stm, NnuePath path);

/// Reads a .nnue file for variant v (NULL: janggi) into net. Refuses, naming path and the
/// reason: STATUS_IO (unreadable), STATUS_FORMAT (not a Hansu NNUE file, another format version,
/// another variant, another architecture, truncated or too long, checksum mismatch, output
/// weights out of range). net is left unspecified on error.
Status nnue_load(const char *path, const Variant *v, NnueNet *net, ErrorInfo *err);

/// nnue_load() from len bytes in memory (an embedded net); name stands for the path in messages.
Status nnue_load_memory(const uint8_t *data, size_t len, const char *name, const Variant *v,
                        NnueNet *net, ErrorInfo *err);

/// The net compiled into the binary for variant v (NULL: janggi): engine/<variant>/net.nnue at
/// build time (engine/CMakeLists.txt). Sets *data and *len (the file's bytes, for
/// nnue_load_memory) and returns true; false when v has none.
bool nnue_embedded(const Variant *v, const uint8_t **data, size_t *len);

/// The net a front end's flags choose for variant v (NULL: janggi): the file evalfile when it is
/// not NULL, else v's compiled-in net, else none; classical asks for none. Sets *net to a net the
/// caller frees, or to NULL (the classical evaluation) with STATUS_OK. Errors: STATUS_RANGE when
/// both classical and evalfile are given, STATUS_NOMEM, and nnue_load()'s refusals.
Status nnue_load_selected(const Variant *v, const char *evalfile, bool classical, NnueNet **net,
                          ErrorInfo *err);

/// Serialises net (format in docs/nnue.md) into a malloc'ed buffer of *len bytes. NULL when out
/// of memory.
uint8_t *nnue_serialise(const NnueNet *net, size_t *len);

/// Writes net to path whole (PATH.tmp, fsync, rename: cli_write_atomic). STATUS_IO naming the
/// file; STATUS_NOMEM.
Status nnue_save(const NnueNet *net, const char *path, ErrorInfo *err);

/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320, as zlib's crc32) of len bytes.
uint32_t nnue_crc32(const uint8_t *data, size_t len);
