// SPDX-License-Identifier: MIT
// What h5store.c shares with h5store_run.c: the file writer and the error helpers.
#pragma once

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>

#include "h5store.h"
#include "shard_data.h"
#include "status.h"

/// The memory of an in-memory file, kept through HDF5's file image callbacks so that the
/// complete image, as H5Fclose leaves it, is ours after the close.
typedef struct H5Image {
    unsigned char *mem;    // the core driver's buffer while the file is open
    size_t size, cap;      // bytes HDF5 asked for (the file's end), bytes allocated
    unsigned char *closed; // the buffer after H5Fclose (free it); its length is size
} H5Image;

/// An output file being written, its (temporary) path and the rows it will hold.
typedef struct H5Writer {
    hid_t file;
    const char *path; // the temporary path being written
    bool in_memory;   // built by HDF5's core driver in memory, written out at the end
    size_t games, positions;
    H5Image image; // in_memory: the file's bytes
} H5Writer;

/// Creates the file with its attributes and the empty columns for games and positions rows.
Status h5writer_open(H5Writer *w, const char *tmp, const StoreMeta *meta, size_t games,
                     size_t positions, ErrorInfo *err);

/// Writes d's rows at the given row offsets (pos_start/pos_end already rebased by the caller).
Status h5writer_put(H5Writer *w, const ShardData *d, size_t game_off, size_t pos_off,
                    ErrorInfo *err);

/// Closes the file, fsyncs it and renames it to final_path (durable.h).
Status h5writer_finish(H5Writer *w, const char *final_path, ErrorInfo *err);

/// Closes what is open and removes the temporary file.
void h5writer_abort(H5Writer *w);

/// Reads only the games/game_id column of a file (checks of its attributes as h5store_read):
/// *ids is malloc'ed, *n rows. On error *ids is NULL.
Status h5store_read_game_ids(const char *path, uint32_t **ids, size_t *n, ErrorInfo *err);

/// Writes the digest header into the first H5STORE_USERBLOCK bytes of a complete file image of
/// size bytes (size > H5STORE_USERBLOCK): the SHA-256 and length of the bytes after them.
void h5store_seal_image(unsigned char *image, size_t size);

/// The same for a closed file on disk: reads it back, writes the header in place, fsyncs it.
/// STATUS_IO naming path on failure.
Status h5store_seal_file(const char *path, ErrorInfo *err);

/// Reads the whole file at path into *image (malloc'ed, *size bytes) and checks its digest
/// header (h5store_check_digest); on error *image is NULL.
Status h5store_load_image(const char *path, void **image, size_t *size, ErrorInfo *err);

/// True when the file at path starts with a digest header (sound or not).
bool h5store_has_header(const char *path);

/// STATUS_IO with "path: what failed (errno text)".
Status h5store_fail(ErrorInfo *err, const char *path, const char *what);

/// Silences HDF5's error printing and its exit-time clean-up; call before any HDF5 use.
void h5store_quiet(void);
