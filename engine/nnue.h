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

// Architecture constants. L1 is chosen per net at load time (the file's header), up to
// NNUE_L1_MAX; the weight arrays are sized for the largest net so that the kernels index them
// with one stride whatever the net.
enum {
    NNUE_L1 = 256,                            // hidden neurons of format-1 nets and the trainer's
    NNUE_L1_MAX = 512,                        // the widest net this build takes
    NNUE_L1_STEP = 32,                        // L1 is a multiple of it (one AVX-512 register)
    NNUE_KINDS = KIND_NB - 1,                 // piece kinds of every variant (7)
    NNUE_INPUTS = 2 * NNUE_KINDS * SQUARE_NB, // (own/their, kind, point): 1,260 per bucket
    NNUE_PALACE_BUCKETS = 9,                  // the own general's point in the palace
    NNUE_BUCKETS_MAX = NNUE_PALACE_BUCKETS,   // input buckets of the largest input set
    NNUE_OUT_BUCKETS_MAX = 8,                 // output layers chosen by pieces on the board
    NNUE_PIECES_MAX = 32,                     // pieces at the start of both variants
    NNUE_QA = 255,                            // feature transformer scale (activation 1.0)
    NNUE_QB = 256,                            // output weight scale (64 erred 11 cp mean)
    NNUE_OUT_WEIGHT_MAX = 128,                // |output weight|: QA * w fits in int16
    NNUE_ACTIVATION_SCRELU = 1,               // clamp(x, 0, 1)^2, the only one so far
    NNUE_PROVENANCE_MAX = 8192                // bytes of provenance JSON, NUL excluded
};

/// Input sets, as the file's header numbers them. PLAIN: the 1,260 (own/their, kind, point)
/// features per perspective. PALACE: the same features indexed by the perspective's own
/// general's point in the palace (9 buckets of 1,260, the point mirrored as the features are).
typedef enum { NNUE_INPUT_PLAIN = 1, NNUE_INPUT_PALACE = 2 } NnueInputSet;

/// Output bucket kinds, as the file's header numbers them. NONE: one output layer. MATERIAL: 2 to
/// NNUE_OUT_BUCKETS_MAX output layers, one chosen per position by the pieces on the board
/// (nnue_out_bucket), as Stockfish's layer stacks are.
typedef enum { NNUE_OUTPUT_NONE = 0, NNUE_OUTPUT_MATERIAL = 1 } NnueOutputKind;

/// The output layer 0..out_buckets-1 of a position with `pieces` pieces on the board (both
/// sides, generals included): out_buckets equal slices of 1..32 pieces, (pieces - 1) *
/// out_buckets / 32, so 8 buckets take 4 piece counts each (Stockfish's (pieces - 1) / 4). More
/// than 32 pieces count as 32; none as 1.
static inline int nnue_out_bucket(int pieces, int out_buckets) {
    if (out_buckets <= 1)
        return 0;
    pieces = pieces < 1 ? 1 : pieces > NNUE_PIECES_MAX ? NNUE_PIECES_MAX : pieces;
    return (pieces - 1) * out_buckets / NNUE_PIECES_MAX;
}

/// A quantised network. Feature weights are rows of l1 int16 (QA units) laid end to end, one
/// row per (bucket, input): row bucket * NNUE_INPUTS + input (nnue_weight_row). Output weights
/// are per output bucket (nnue_out_bucket) the side to move's l1 then the other side's (QB units),
/// bucket k's at out_weight + k * 2 * l1; the output biases are in QA * QA * QB units. Score in
/// centipawns = output * scale / (QA^2 * QB).
typedef struct NnueNet {
    char variant[16];                         // Variant.name of the game it was trained on
    int32_t scale;                            // centipawns per unit of float output (e.g. 400)
    int32_t input_set;                        // NnueInputSet
    int32_t buckets;                          // input buckets: 1 (plain), 9 (palace)
    int32_t l1;                               // hidden neurons per perspective, <= NNUE_L1_MAX
    int32_t out_buckets;                      // output layers: 1 (kind NONE), 2..8 (MATERIAL)
    char provenance[NNUE_PROVENANCE_MAX + 1]; // UTF-8 JSON text (training data, epochs, ...)
    _Alignas(64) int16_t ft_bias[NNUE_L1_MAX];
    _Alignas(64) int16_t ft_weight[NNUE_BUCKETS_MAX * NNUE_INPUTS * NNUE_L1_MAX];
    _Alignas(64) int16_t out_weight[NNUE_OUT_BUCKETS_MAX * 2 * NNUE_L1_MAX];
    int32_t out_bias[NNUE_OUT_BUCKETS_MAX];
} NnueNet;

/// Feature weight row r (bucket * NNUE_INPUTS + input) of net: net->l1 int16. Like strchr, it
/// takes a const net and gives a writable row, for the loader and the trainer's quantiser.
static inline int16_t *nnue_weight_row(const NnueNet *net, int r) {
    return (int16_t *)net->ft_weight + (size_t)r * (size_t)net->l1;
}

/// The hidden layer before activation for both perspectives, indexed by Side (not by side to
/// move): v[CHO] sees the board as Cho does, v[HAN] rotated 180 degrees. Only the net's first
/// l1 entries of each are kept; the rest is unspecified (compare with nnue_acc_equal). pieces:
/// the pieces on the board, which choose the output bucket (kept by refresh and update).
typedef struct NnueAccumulator {
    _Alignas(64) int16_t v[SIDE_NB][NNUE_L1_MAX];
    int32_t pieces;
} NnueAccumulator;

/// The features a move or pass changes: up to 2 removed (the mover from its point, a captured
/// piece) and 1 added (the mover on its new point), as (piece, point) pairs. A pass: none.
/// board is the position after the move: a bucketed net refreshes from it the perspective whose
/// general moved.
typedef struct NnueDelta {
    int nsub, nadd;
    Piece sub_pc[2], add_pc[1];
    Square sub_sq[2], add_sq[1];
    const Board *board;
} NnueDelta;

/// A zeroed plain net of L1 NNUE_L1 (input set PLAIN, 1 bucket, 1 output layer) on the heap,
/// aligned as its type asks (64 bytes; malloc's 16 is not enough for vector code the compiler
/// may emit). Room for the largest net (about 12 MB); only a plain L1-256 net's feature rows are
/// zeroed, the others are unspecified until nnue_load or a quantisation writes them (so a
/// smaller net's untouched pages take no memory). Free with free(). NULL when out of memory.
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

/// The palace bucket 0..8 of perspective's general on point general: (rank, file - 3) of the
/// point in the palace, rotated 180 degrees for Han as the features are (rank 0 is the back
/// rank). A point outside the palace counts as the nearest palace point.
static inline int nnue_palace_bucket(Side perspective, Square general) {
    int psq = perspective == CHO ? general : SQUARE_NB - 1 - general;
    int file = psq % 9, rank = psq / 9;
    file = file < 3 ? 3 : file > 5 ? 5 : file;
    rank = rank > 2 ? 2 : rank;
    return rank * 3 + file - 3;
}

/// The bucket of perspective's features on board b: its palace bucket for a PALACE net, 0 for a
/// plain one.
int nnue_bucket(const NnueNet *net, const Board *b, Side perspective);

/// Recomputes both perspectives of acc from every piece of b.
void nnue_refresh(const NnueNet *net, const Board *b, NnueAccumulator *acc, NnuePath path);

/// A search thread's accumulator cache for bucketed nets (Stockfish's "Finny tables"): for each
/// perspective and input bucket, that bucket's accumulator of the last position it was
/// refreshed for, and that position's pieces. A general's move then refreshes its perspective
/// from the cache entry of its new bucket, adding and subtracting the rows of only the points
/// whose piece differs (a few, where a refresh adds every piece's row). Exact: int16 wraps, so
/// the integers do not depend on the order of the rows. About 25 KB; one per thread, never
/// shared. Entries belong to one net: any use with another net empties it, and so must
/// nnue_cache_reset where a net was freed (another may be loaded at its address).
typedef struct NnueCache {
    const NnueNet *net; // the net whose rows the entries hold (NULL: empty)
    struct {
        _Alignas(64) int16_t v[NNUE_L1_MAX]; // the bucket's accumulator of squares
        Piece squares[SQUARE_NB];            // the pieces it holds (EMPTY: none)
    } entry[SIDE_NB][NNUE_BUCKETS_MAX];
} NnueCache;

/// Empties cache for net (each entry: the net's biases and no piece). net may be NULL.
void nnue_cache_reset(NnueCache *cache, const NnueNet *net);

/// dst = src with delta applied to both perspectives (src == dst allowed): the search keeps one
/// accumulator per ply and unmakes for free. With a bucketed net, a perspective whose general
/// moved is refreshed from delta->board instead (its bucket may have changed), through cache
/// when it is not NULL (the same integers, fewer rows), else from every piece.
void nnue_update(const NnueNet *net, const NnueAccumulator *src, NnueAccumulator *dst,
                 const NnueDelta *delta, NnueCache *cache, NnuePath path);

/// The delta of the move that reached b's current position, read after board_make(): the mover
/// now on move_to, StateInfo.captured. A pass (or the root) gives an empty delta. Keeps b.
void nnue_delta_after_make(const Board *b, NnueDelta *delta);

/// Whether a and b hold the same net->l1 entries for both perspectives and the same pieces.
bool nnue_acc_equal(const NnueNet *net, const NnueAccumulator *a, const NnueAccumulator *b);

/// The raw output in QA^2 * QB units of acc with stm to move, from the output layer of acc's
/// pieces (nnue_out_bucket; wraps never: |out weight| <= NNUE_OUT_WEIGHT_MAX keeps every int32
/// lane in range).
int64_t nnue_output(const NnueNet *net, const NnueAccumulator *acc, Side stm, NnuePath path);

/// Centipawns from the side to move's view: nnue_output() * scale / (QA^2 * QB), rounded to 0.
Score nnue_evaluate(const NnueNet *net, const NnueAccumulator *acc, Side stm, NnuePath path);

/// Reads a .nnue file (format version 1 or 2) for variant v (NULL: janggi) into net, its
/// architecture (input set, buckets, L1, output buckets) from the header. Refuses, naming path and
/// the reason: STATUS_IO (unreadable), STATUS_FORMAT (not a Hansu NNUE file, another format
/// version, another variant, an architecture this build cannot evaluate, named by field, truncated
/// or too long, checksum mismatch, output weights out of range). net is left unspecified on error.
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

/// Serialises net (format in docs/nnue.md) into a malloc'ed buffer of *len bytes: format version
/// 1 for a plain L1-256 net with one output layer (the bytes, and so the SHA-256 that runs
/// record, of every such net stay as before version 2), version 2 for any other (output bucket
/// kind MATERIAL when it has more than one output layer). NULL when out
/// of memory.
uint8_t *nnue_serialise(const NnueNet *net, size_t *len);

/// Writes net to path whole (PATH.tmp, fsync, rename: cli_write_atomic). STATUS_IO naming the
/// file; STATUS_NOMEM.
Status nnue_save(const NnueNet *net, const char *path, ErrorInfo *err);

/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320, as zlib's crc32) of len bytes.
uint32_t nnue_crc32(const uint8_t *data, size_t len);
