// SPDX-License-Identifier: MIT
// The HDF5 store of self-play data (schema in docs/data-format.md): whole files written under a
// temporary name, closed, fsync'ed and renamed; reading back with checks; merging shards.
// The serial HDF5 library is not thread-safe: call these from one thread at a time.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shard_data.h"
#include "status.h"

// Schema 2: the digest header in the user block, HDF5 1.10 metadata checksums, Fletcher32 on
// every chunk, fixed-length string attributes (docs/data-format.md). Schema 1 had none of them.
// Schema 3 (this one) adds draws (winner 2, result_stm 0), xiangqi files and games up to
// STORE_PLY_MAX plies; schema 2 files (janggi, no draws: the same columns, narrower values) read
// unchanged.
enum {
    H5STORE_SCHEMA_VERSION = 3,
    H5STORE_SCHEMA_JANGGI_ONLY = 2,
    H5STORE_LEGACY_SCHEMA_VERSION = 1
};
// Bytes before the HDF5 data: the digest header (HDF5 user block, a power of 2 >= 512).
enum { H5STORE_USERBLOCK = 512 };
// The longest openings attribute (its FENs joined by newlines, the terminator included): the
// longest string attribute a reader accepts. 128 KiB: janggi's suite (480 FENs, about 35 KB)
// with room for a book four times its size.
enum { H5STORE_OPENINGS_MAX = 131072 };
// The longest sources attribute (hansu-selfplay label's input files), the terminator included.
enum { H5STORE_SOURCES_MAX = 16384 };
#define H5STORE_FORMAT "hansu-selfplay"
// The start of the formation_schedule attribute of a file of standalone positions (PV ends of
// hansu-selfplay label, docs/data-format.md): each game there is one position, set up from its
// stored board (ShardData.standalone), not replayed from an opening.
#define H5STORE_POSITIONS_SCHEDULE "labelled positions:"
// The formation_schedule of the PV-end file of line shard k in a label run folder: this, then k,
// then ", " and how they were searched.
#define H5STORE_PV_SCHEDULE H5STORE_POSITIONS_SCHEDULE " PV ends of the searches of shard "
// The formation_schedule of PV-end files of several shards merged into one (h5store_merge): this,
// then ", " and how they were searched.
#define H5STORE_PV_MERGED_SCHEDULE                                                                 \
    H5STORE_POSITIONS_SCHEDULE " PV ends of the searches of several shards (merged)"
#define H5STORE_SHARD_PREFIX "shard-"
// The game ids of PV ends (hansu-selfplay label --pv-ends): H5STORE_PV_ID_BASE + (the source
// game's index in input order) x STORE_PLY_MAX + (the searched position's plies in that game), so
// they are fixed by the inputs, unique in a run folder and never a game's (a run with PV ends
// keeps its games' ids below it). `verify` refuses a PV end below it.
#define H5STORE_PV_ID_BASE 0x80000000u

/// File attributes: provenance of the data and the settings that made it.
typedef struct StoreMeta {
    int schema_version;      // H5STORE_SCHEMA_VERSION when written; as found when read
    char variant[16];        // the variant played (Variant.name); "" writes the default, janggi
    char engine_version[64]; // engine version string
    char bench[32];          // bench signature (nodes), "unknown" when not built in
    char weights_sha256[72]; // SHA-256 of the eval weights header compiled in
    char limits[160];        // search limits in words, e.g. "nodes=2000 spread=0.1"
    char schedule[160];      // how pairings are assigned to game ids
    char run_config[512];    // all settings that decide the games; --resume requires equality
    // The run's openings (hansu-selfplay --openings): the FENs one a line, game g starting from
    // line game_id % (lines); "" for none, when the attribute is not written (old files: none).
    char openings[H5STORE_OPENINGS_MAX];
    // The files a labelled file's games came from (hansu-selfplay label): one a line,
    // "<SHA-256 hex> <games taken> <path>"; "" for none, when the attribute is not written.
    char sources[H5STORE_SOURCES_MAX];
    char host[64];
    char start_time[32];  // ISO 8601 UTC, first game of this file started
    char end_time[32];    // ISO 8601 UTC, file written
    uint64_t seed;        // run seed (--seed)
    int64_t nodes;        // nodes per move, 0 if unused
    int64_t depth;        // plies per move, 0 if unused
    int64_t movetime_ms;  // ms per move, 0 if unused
    int64_t random_plies; // random opening plies per game
    int64_t shard;        // shard number in the run folder; -1 for a merged file
} StoreMeta;

/// Whether a formation_schedule attribute marks a file of standalone positions
/// (H5STORE_POSITIONS_SCHEDULE).
bool h5store_schedule_standalone(const char *schedule);

/// Writes meta and data to path as one complete file (STATUS_FORMAT, nothing written, when
/// data->standalone and meta's schedule disagree: h5store_schedule_standalone): built in memory,
/// its digest header filled in, written to "<target>.tmp", fsync'ed, renamed over the target
/// (h5store_output_target: a link is followed, a device or FIFO refused), and the folder fsync'ed,
/// so path always holds either the old or the new complete file, each with its own digest. On error
/// (full disk, unwritable folder) the temporary file is removed, path is untouched and err names
/// the file and the cause. STATUS_IO on failure.
Status h5store_write(const char *path, const StoreMeta *meta, const ShardData *data,
                     ErrorInfo *err);

/// Where a store file named path is written (files_output_target, into target of
/// FILES_PATH_MAX bytes): a link's target, never the link; STATUS_IO naming path when it is a
/// device, FIFO, socket or folder, which a whole HDF5 file cannot replace or be written into.
Status h5store_output_target(const char *path, char *target, ErrorInfo *err);

/// Reads a whole file written by h5store_write (meta may be NULL). The file is read into
/// memory and its digest header checked (h5store_check_digest) before libhdf5 parses those
/// same bytes. Refuses with STATUS_FORMAT, naming path, a file without a digest header or
/// whose bytes do not match it, not of this format, of another schema version, with an
/// attribute or column of another type or shape, or whose values fail shard_data_check
/// (shard_data.h); STATUS_IO when it cannot be read. data must be initialised; it is cleared
/// first.
Status h5store_read(const char *path, StoreMeta *meta, ShardData *data, ErrorInfo *err);

/// Reads only the attributes and the row counts of a file (digest and attribute checks as
/// h5store_read).
Status h5store_read_meta(const char *path, StoreMeta *meta, size_t *games, size_t *positions,
                         ErrorInfo *err);

/// Checks the digest header of the file at path without libhdf5: the first H5STORE_USERBLOCK
/// bytes must be the header that the SHA-256 and the length of the rest of the file give.
/// STATUS_FORMAT naming path: no header (a foreign file, or schema 1: the message names the
/// `digest` command), or a header that does not match (corrupt, truncated); STATUS_IO when
/// the file cannot be read.
Status h5store_check_digest(const char *path, ErrorInfo *err);

/// Reads a schema-1 file (no digest header, written before schema 2) as h5store_read does,
/// with every check but the digest's: libhdf5 parses it unprotected, so only for converting
/// such files (hansu-selfplay digest). meta->schema_version is 1.
Status h5store_read_legacy(const char *path, StoreMeta *meta, ShardData *data, ErrorInfo *err);

/// Lists the shard files (shard-*.h5) of a run folder, sorted by name, as h5store_list_run
/// does, without reading them.
Status h5store_list_files(const char *dir, char ***paths, size_t *n, ErrorInfo *err);

/// Lists the shard files (shard-*.h5) of a run folder, sorted by name. *paths is a malloc'ed
/// array of malloc'ed strings (free with h5store_free_list). A missing folder gives n = 0.
/// Reads every shard's game ids: STATUS_FORMAT, naming the id and both files, when one game id
/// is stored twice in the folder (ids may repeat across folders: each is its own run).
Status h5store_list_run(const char *dir, char ***paths, size_t *n, ErrorInfo *err);

/// Expands paths (HDF5 files, or run folders whose shards are taken as h5store_list_run lists
/// them) into a malloc'ed list of malloc'ed file paths (free with h5store_free_list): the one
/// reading of "files and folders" on a command line (hansu-tune, hansu-selfplay verify, merge).
/// STATUS_IO for a missing path or a folder without shard files, naming it; STATUS_FORMAT as
/// h5store_list_run.
Status h5store_expand_inputs(char *const *paths, size_t n, char ***files, size_t *nfiles,
                             ErrorInfo *err);

/// Frees a list from h5store_list_run or h5store_expand_inputs (NULL accepted).
void h5store_free_list(char **paths, size_t n);

/// STATUS_RANGE when out is one of inputs or lies inside an input folder (resolved through
/// symlinks and relative paths): a merged file there would hold every game twice.
Status h5store_check_output(const char *out, char *const *inputs, size_t n, ErrorInfo *err);

/// Merges the given files (all of one run: equal run_config) into one file at out, written as
/// h5store_write does; PV-end files of several shards get H5STORE_PV_MERGED_SCHEDULE. Refuses
/// duplicate game ids, files of standalone positions with files of games
/// (h5store_schedule_standalone), and an out that is one of the inputs (h5store_check_output).
/// Memory: the largest input file.
Status h5store_merge(char *const *inputs, size_t n, const char *out, ErrorInfo *err);

/// Shard file name for shard number k in dir, written into out.
void h5store_shard_path(const char *dir, int64_t k, char *out, size_t out_len);

/// The shard number k in a shard file's path or name (shard-NNNNNN.h5), or -1 for any other name.
int64_t h5store_shard_number(const char *path);
