// SPDX-License-Identifier: MIT
// HDF5 store: one dataset per column under /games and /positions, chunked near 1 MiB,
// deflate level 4 with the shuffle filter for fields wider than a byte.
#include "h5store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rules.h"

enum {
    CHUNK_BYTES = 1 << 20, // fits the default 1 MiB chunk cache
    DEFLATE_LEVEL = 4      // the measured size/speed trade-off (issue 4)
};

// An open output file, its path, and the rows it will hold.
typedef struct Writer {
    hid_t file;
    const char *path; // the temporary path being written
    bool in_memory;   // built by the core driver in memory; written out by write_image()
    size_t games, positions;
} Writer;

static Status h5_fail(ErrorInfo *err, const char *path, const char *what) {
    int e = errno;
    if (e)
        return error_set(err, STATUS_IO, "%s: %s failed (%s)", path, what, strerror(e));
    return error_set(err, STATUS_IO, "%s: %s failed", path, what);
}

// Silences HDF5's own error printing (errors come back as Status with a message), and keeps
// HDF5 from closing files at exit: after a failed H5Fclose (full disk) its exit handler
// crashes on the half-closed file. Every file here is closed explicitly before returning.
static void quiet_hdf5(void) {
    H5dont_atexit(); // refused, harmlessly, once the library is initialised
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

// --- attributes ---------------------------------------------------------------------------

static herr_t write_attr(hid_t loc, const char *name, hid_t type, const void *value) {
    hid_t space = H5Screate(H5S_SCALAR);
    if (space < 0)
        return -1;
    hid_t attr = H5Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    herr_t rc = attr < 0 ? -1 : H5Awrite(attr, type, value);
    if (attr >= 0 && H5Aclose(attr) < 0)
        rc = -1;
    H5Sclose(space);
    return rc;
}

static herr_t write_attr_str(hid_t loc, const char *name, const char *value) {
    hid_t type = H5Tcopy(H5T_C_S1);
    if (type < 0)
        return -1;
    herr_t rc = H5Tset_size(type, H5T_VARIABLE);
    if (rc >= 0)
        rc = H5Tset_cset(type, H5T_CSET_UTF8);
    if (rc >= 0)
        rc = write_attr(loc, name, type, &value);
    H5Tclose(type);
    return rc;
}

static herr_t write_attr_i64(hid_t loc, const char *name, int64_t v) {
    return write_attr(loc, name, H5T_NATIVE_INT64, &v);
}

static herr_t read_attr_str(hid_t loc, const char *name, char *out, size_t out_len) {
    out[0] = 0;
    hid_t attr = H5Aopen(loc, name, H5P_DEFAULT);
    if (attr < 0)
        return -1;
    herr_t rc = -1;
    hid_t ftype = H5Aget_type(attr), mtype = H5Tcopy(H5T_C_S1);
    if (ftype < 0 || mtype < 0 || H5Tget_class(ftype) != H5T_STRING
        || H5Tset_cset(mtype, H5Tget_cset(ftype)) < 0)
        goto cleanup;
    if (H5Tis_variable_str(ftype) > 0) {
        char *s = NULL;
        if (H5Tset_size(mtype, H5T_VARIABLE) < 0 || H5Aread(attr, mtype, &s) < 0)
            goto cleanup;
        snprintf(out, out_len, "%s", s ? s : "");
        H5free_memory(s);
    } else {
        size_t n = H5Tget_size(ftype);
        char *buf = calloc(n + 1, 1);
        if (!buf || H5Tset_size(mtype, n + 1) < 0 || H5Aread(attr, mtype, buf) < 0) {
            free(buf);
            goto cleanup;
        }
        snprintf(out, out_len, "%s", buf);
        free(buf);
    }
    rc = 0;
cleanup:
    if (ftype >= 0)
        H5Tclose(ftype);
    if (mtype >= 0)
        H5Tclose(mtype);
    H5Aclose(attr);
    return rc;
}

static herr_t read_attr_i64(hid_t loc, const char *name, int64_t *v) {
    hid_t attr = H5Aopen(loc, name, H5P_DEFAULT);
    if (attr < 0)
        return -1;
    herr_t rc = H5Aread(attr, H5T_NATIVE_INT64, v);
    H5Aclose(attr);
    return rc;
}

static herr_t write_meta(hid_t file, const StoreMeta *m) {
    char reasons[256] = "", formations[128] = "";
    for (int r = 0; r < REASON_NB; r++)
        snprintf(reasons + strlen(reasons), sizeof reasons - strlen(reasons), "%s%s",
                 r ? "," : "", r ? rules_reason_name((EndReason)r) : "none");
    snprintf(formations, sizeof formations,
             "ma-sang-sang-ma,sang-ma-sang-ma,ma-sang-ma-sang,sang-ma-ma-sang");
    int64_t seed_bits;
    memcpy(&seed_bits, &m->seed, sizeof seed_bits);
    herr_t rc = 0;
    rc |= write_attr_str(file, "format", H5STORE_FORMAT);
    rc |= write_attr_i64(file, "schema_version", H5STORE_SCHEMA_VERSION);
    rc |= write_attr_str(file, "engine_version", m->engine_version);
    rc |= write_attr_str(file, "bench", m->bench);
    rc |= write_attr_str(file, "weights_sha256", m->weights_sha256);
    rc |= write_attr_str(file, "search_limits", m->limits);
    rc |= write_attr_str(file, "formation_schedule", m->schedule);
    rc |= write_attr_str(file, "run_config", m->run_config);
    rc |= write_attr_str(file, "host", m->host);
    rc |= write_attr_str(file, "start_time", m->start_time);
    rc |= write_attr_str(file, "end_time", m->end_time);
    rc |= write_attr(file, "seed", H5T_NATIVE_UINT64, &m->seed);
    rc |= write_attr_i64(file, "nodes", m->nodes);
    rc |= write_attr_i64(file, "depth", m->depth);
    rc |= write_attr_i64(file, "movetime_ms", m->movetime_ms);
    rc |= write_attr_i64(file, "random_plies", m->random_plies);
    rc |= write_attr_i64(file, "shard", m->shard);
    rc |= write_attr_str(file, "reason_names", reasons);
    rc |= write_attr_str(file, "formation_names", formations);
    return rc < 0 ? -1 : 0;
}

static Status read_meta(hid_t file, const char *path, StoreMeta *m, ErrorInfo *err) {
    char format[64];
    int64_t version = 0;
    memset(m, 0, sizeof *m);
    if (H5Aexists(file, "format") <= 0 || read_attr_str(file, "format", format, sizeof format) < 0
        || strcmp(format, H5STORE_FORMAT) != 0)
        return error_set(err, STATUS_FORMAT, "%s: not a hansu self-play file (no format='%s')",
                         path, H5STORE_FORMAT);
    if (read_attr_i64(file, "schema_version", &version) < 0 || version != H5STORE_SCHEMA_VERSION)
        return error_set(err, STATUS_FORMAT, "%s: schema version %lld is not the known %d", path,
                         (long long)version, H5STORE_SCHEMA_VERSION);
    m->schema_version = (int)version;
    herr_t rc = 0;
    rc |= read_attr_str(file, "engine_version", m->engine_version, sizeof m->engine_version);
    rc |= read_attr_str(file, "bench", m->bench, sizeof m->bench);
    rc |= read_attr_str(file, "weights_sha256", m->weights_sha256, sizeof m->weights_sha256);
    rc |= read_attr_str(file, "search_limits", m->limits, sizeof m->limits);
    rc |= read_attr_str(file, "formation_schedule", m->schedule, sizeof m->schedule);
    rc |= read_attr_str(file, "run_config", m->run_config, sizeof m->run_config);
    rc |= read_attr_str(file, "host", m->host, sizeof m->host);
    rc |= read_attr_str(file, "start_time", m->start_time, sizeof m->start_time);
    rc |= read_attr_str(file, "end_time", m->end_time, sizeof m->end_time);
    hid_t attr = H5Aopen(file, "seed", H5P_DEFAULT);
    rc |= attr < 0 ? -1 : H5Aread(attr, H5T_NATIVE_UINT64, &m->seed);
    if (attr >= 0)
        H5Aclose(attr);
    rc |= read_attr_i64(file, "nodes", &m->nodes);
    rc |= read_attr_i64(file, "depth", &m->depth);
    rc |= read_attr_i64(file, "movetime_ms", &m->movetime_ms);
    rc |= read_attr_i64(file, "random_plies", &m->random_plies);
    rc |= read_attr_i64(file, "shard", &m->shard);
    if (rc < 0)
        return error_set(err, STATUS_FORMAT, "%s: a file attribute is missing or malformed", path);
    return STATUS_OK;
}

// --- datasets -----------------------------------------------------------------------------

// The memory (and file) type of a column: the scalar type, or an array of width of it.
static hid_t column_type(hid_t base, hsize_t width) {
    return width > 1 ? H5Tarray_create2(base, 1, &width) : H5Tcopy(base);
}

static herr_t create_column(hid_t group, const char *name, hid_t base, hsize_t width,
                            size_t rows, const char *doc) {
    hid_t type = column_type(base, width), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    hsize_t dims = rows;
    hid_t space = H5Screate_simple(1, &dims, NULL);
    herr_t rc = type < 0 || dcpl < 0 || space < 0 ? -1 : 0;
    size_t elem = rc < 0 ? 1 : H5Tget_size(type);
    if (rc >= 0 && rows > 0) {
        hsize_t chunk = CHUNK_BYTES / elem;
        chunk = chunk < 1 ? 1 : chunk > rows ? rows : chunk;
        rc = H5Pset_chunk(dcpl, 1, &chunk);
        if (rc >= 0 && elem > 1)
            rc = H5Pset_shuffle(dcpl);
        if (rc >= 0)
            rc = H5Pset_deflate(dcpl, DEFLATE_LEVEL);
    }
    hid_t ds = rc < 0 ? -1 : H5Dcreate2(group, name, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (ds < 0 || write_attr_str(ds, "doc", doc) < 0)
        rc = -1;
    if (ds >= 0 && H5Dclose(ds) < 0)
        rc = -1;
    if (space >= 0)
        H5Sclose(space);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (type >= 0)
        H5Tclose(type);
    return rc;
}

// Writes rows [offset, offset + count) of a column from buf.
static herr_t write_rows(hid_t file, const char *path, hid_t base, hsize_t width, hsize_t offset,
                         hsize_t count, const void *buf) {
    if (count == 0)
        return 0;
    hid_t ds = H5Dopen2(file, path, H5P_DEFAULT);
    hid_t type = column_type(base, width);
    hid_t fspace = ds < 0 ? -1 : H5Dget_space(ds), mspace = H5Screate_simple(1, &count, NULL);
    herr_t rc = ds < 0 || type < 0 || fspace < 0 || mspace < 0 ? -1 : 0;
    if (rc >= 0)
        rc = H5Sselect_hyperslab(fspace, H5S_SELECT_SET, &offset, NULL, &count, NULL);
    if (rc >= 0)
        rc = H5Dwrite(ds, type, mspace, fspace, H5P_DEFAULT, buf);
    if (mspace >= 0)
        H5Sclose(mspace);
    if (fspace >= 0)
        H5Sclose(fspace);
    if (type >= 0)
        H5Tclose(type);
    if (ds >= 0 && H5Dclose(ds) < 0)
        rc = -1;
    return rc;
}

// Reads a whole column into buf, which holds `rows` rows; fails when the length differs.
static herr_t read_rows(hid_t file, const char *path, hid_t base, hsize_t width, size_t rows,
                        void *buf) {
    hid_t ds = H5Dopen2(file, path, H5P_DEFAULT);
    hid_t type = column_type(base, width);
    hid_t fspace = ds < 0 ? -1 : H5Dget_space(ds);
    herr_t rc = ds < 0 || type < 0 || fspace < 0 ? -1 : 0;
    hsize_t dims = 0;
    if (rc >= 0 && (H5Sget_simple_extent_ndims(fspace) != 1
                    || H5Sget_simple_extent_dims(fspace, &dims, NULL) < 0 || dims != rows))
        rc = -1;
    if (rc >= 0 && rows > 0)
        rc = H5Dread(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
    if (fspace >= 0)
        H5Sclose(fspace);
    if (type >= 0)
        H5Tclose(type);
    if (ds >= 0)
        H5Dclose(ds);
    return rc;
}

static herr_t dataset_rows(hid_t file, const char *path, size_t *rows) {
    hid_t ds = H5Dopen2(file, path, H5P_DEFAULT);
    hid_t space = ds < 0 ? -1 : H5Dget_space(ds);
    hsize_t dims = 0;
    herr_t rc = space < 0 || H5Sget_simple_extent_ndims(space) != 1
                        || H5Sget_simple_extent_dims(space, &dims, NULL) < 0
                    ? -1
                    : 0;
    *rows = (size_t)dims;
    if (space >= 0)
        H5Sclose(space);
    if (ds >= 0)
        H5Dclose(ds);
    return rc;
}

// --- writing ------------------------------------------------------------------------------

static Status writer_open(Writer *w, const char *tmp, const StoreMeta *meta, size_t games,
                          size_t positions, ErrorInfo *err) {
    w->path = tmp;
    w->games = games;
    w->positions = positions;
    // In memory, HDF5 never meets a full disk: its close cannot fail half-way, and the image
    // goes to disk through plain write() calls whose errors are ours to report.
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl < 0 || (w->in_memory && H5Pset_fapl_core(fapl, CHUNK_BYTES, 0) < 0))
        w->file = -1;
    else
        w->file = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    if (fapl >= 0)
        H5Pclose(fapl);
    if (w->file < 0)
        return h5_fail(err, tmp, "creating the file");
    hid_t g = H5Gcreate2(w->file, "games", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hid_t p = H5Gcreate2(w->file, "positions", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    herr_t rc = g < 0 || p < 0 ? -1 : write_meta(w->file, meta);
#define GAME_COLUMN(name, ctype, h5type, doc) if (rc >= 0) rc = create_column(g, #name, h5type, 1, games, doc);
#define POSITION_COLUMN(name, ctype, width, h5type, doc) if (rc >= 0) rc = create_column(p, #name, h5type, width, positions, doc);
#include "columns.def"
#undef GAME_COLUMN
#undef POSITION_COLUMN
    if (g >= 0)
        H5Gclose(g);
    if (p >= 0)
        H5Gclose(p);
    return rc < 0 ? h5_fail(err, tmp, "creating the datasets") : STATUS_OK;
}

// Writes the rows of d at the given offsets (d's pos_start/pos_end must already be rebased).
static Status writer_put(Writer *w, const ShardData *d, size_t game_off, size_t pos_off,
                         ErrorInfo *err) {
    herr_t rc = 0;
    size_t ng = d->games.count, np = d->positions.count;
#define GAME_COLUMN(name, ctype, h5type, doc) if (rc >= 0) rc = write_rows(w->file, "games/" #name, h5type, 1, game_off, ng, d->games.name);
#define POSITION_COLUMN(name, ctype, width, h5type, doc) if (rc >= 0) rc = write_rows(w->file, "positions/" #name, h5type, width, pos_off, np, d->positions.name);
#include "columns.def"
#undef GAME_COLUMN
#undef POSITION_COLUMN
    return rc < 0 ? h5_fail(err, w->path, "writing the data") : STATUS_OK;
}

static Status fsync_path(const char *path, int flags, ErrorInfo *err) {
    int fd = open(path, flags);
    if (fd < 0 || fsync(fd) < 0) {
        Status st = h5_fail(err, path, "fsync");
        if (fd >= 0)
            close(fd);
        return st;
    }
    return close(fd) < 0 ? h5_fail(err, path, "close") : STATUS_OK;
}

// Writes the in-memory file image to w->path and fsyncs it.
static Status write_image(Writer *w, ErrorInfo *err) {
    ssize_t size = H5Fflush(w->file, H5F_SCOPE_GLOBAL) < 0 ? -1
                                                             : H5Fget_file_image(w->file, NULL, 0);
    char *image = size > 0 ? malloc((size_t)size) : NULL;
    if (!image || H5Fget_file_image(w->file, image, (size_t)size) != size) {
        free(image);
        return h5_fail(err, w->path, "building the file image");
    }
    herr_t rc = H5Fclose(w->file);
    w->file = -1;
    int fd = rc < 0 ? -1 : open(w->path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    Status st = fd < 0 ? h5_fail(err, w->path, rc < 0 ? "closing the file" : "creating the file")
                       : STATUS_OK;
    for (ssize_t done = 0; st == STATUS_OK && done < size;) {
        ssize_t n = write(fd, image + done, (size_t)(size - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            st = h5_fail(err, w->path, "writing the file");
        done += n > 0 ? n : 0;
    }
    if (st == STATUS_OK && fsync(fd) < 0)
        st = h5_fail(err, w->path, "fsync");
    if (fd >= 0 && close(fd) < 0 && st == STATUS_OK)
        st = h5_fail(err, w->path, "closing the file");
    free(image);
    return st;
}

// Closes the file, makes it durable and moves it to its final name.
static Status writer_finish(Writer *w, const char *final_path, ErrorInfo *err) {
    Status st;
    if (w->in_memory) {
        st = write_image(w, err);
    } else {
        herr_t rc = H5Fclose(w->file);
        w->file = -1;
        st = rc < 0 ? h5_fail(err, w->path, "closing the file")
                    : fsync_path(w->path, O_RDONLY, err);
    }
    if (st != STATUS_OK)
        return st;
    if (rename(w->path, final_path) < 0)
        return h5_fail(err, final_path, "renaming the finished file");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", final_path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *(slash == dir ? slash + 1 : slash) = 0;
    else
        snprintf(dir, sizeof dir, ".");
    return fsync_path(dir, O_RDONLY | O_DIRECTORY, err);
}

static void writer_abort(Writer *w) {
    if (w->file >= 0)
        H5Fclose(w->file);
    w->file = -1;
    unlink(w->path);
}

Status h5store_write(const char *path, const StoreMeta *meta, const ShardData *data,
                     ErrorInfo *err) {
    quiet_hdf5();
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    errno = 0;
    Writer w = {.file = -1, .in_memory = true};
    Status st = writer_open(&w, tmp, meta, data->games.count, data->positions.count, err);
    if (st == STATUS_OK)
        st = writer_put(&w, data, 0, 0, err);
    if (st == STATUS_OK)
        st = writer_finish(&w, path, err);
    if (st != STATUS_OK)
        writer_abort(&w);
    return st;
}

// --- reading ------------------------------------------------------------------------------

// Checks that positions ranges tile the positions in order and game ids agree.
static Status check_consistent(const ShardData *d, const char *path, ErrorInfo *err) {
    uint64_t next = 0;
    for (size_t g = 0; g < d->games.count; g++) {
        uint64_t s = d->games.pos_start[g], e = d->games.pos_end[g];
        if (s != next || e < s || e > d->positions.count || e - s != d->games.plies[g])
            return error_set(err, STATUS_FORMAT,
                             "%s: game row %zu has position range [%llu, %llu) (expected start "
                             "%llu, %u plies)",
                             path, g, (unsigned long long)s, (unsigned long long)e,
                             (unsigned long long)next, d->games.plies[g]);
        for (uint64_t p = s; p < e; p++)
            if (d->positions.game_id[p] != d->games.game_id[g])
                return error_set(err, STATUS_FORMAT, "%s: position %llu names game %u, not %u",
                                 path, (unsigned long long)p, d->positions.game_id[p],
                                 d->games.game_id[g]);
        next = e;
    }
    if (next != d->positions.count)
        return error_set(err, STATUS_FORMAT, "%s: %zu positions but games cover %llu", path,
                         d->positions.count, (unsigned long long)next);
    return STATUS_OK;
}

static Status open_checked(const char *path, hid_t *file, StoreMeta *meta, size_t *games,
                           size_t *positions, ErrorInfo *err) {
    quiet_hdf5();
    if (access(path, R_OK) < 0)
        return h5_fail(err, path, "opening");
    if (H5Fis_hdf5(path) <= 0)
        return error_set(err, STATUS_FORMAT, "%s: not an HDF5 file, or truncated/corrupt", path);
    *file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (*file < 0)
        return error_set(err, STATUS_FORMAT, "%s: cannot be opened as HDF5 (corrupt?)", path);
    StoreMeta local;
    Status st = read_meta(*file, path, meta ? meta : &local, err);
    if (st == STATUS_OK && (dataset_rows(*file, "games/game_id", games) < 0
                            || dataset_rows(*file, "positions/game_id", positions) < 0))
        st = error_set(err, STATUS_FORMAT, "%s: the games or positions tables are missing", path);
    if (st != STATUS_OK) {
        H5Fclose(*file);
        *file = -1;
    }
    return st;
}

Status h5store_read_meta(const char *path, StoreMeta *meta, size_t *games, size_t *positions,
                         ErrorInfo *err) {
    hid_t file = -1;
    size_t g = 0, p = 0;
    Status st = open_checked(path, &file, meta, &g, &p, err);
    if (st == STATUS_OK && H5Fclose(file) < 0)
        st = h5_fail(err, path, "closing");
    if (games)
        *games = g;
    if (positions)
        *positions = p;
    return st;
}

Status h5store_read(const char *path, StoreMeta *meta, ShardData *data, ErrorInfo *err) {
    hid_t file = -1;
    size_t ng = 0, np = 0;
    shard_data_clear(data);
    Status st = open_checked(path, &file, meta, &ng, &np, err);
    if (st != STATUS_OK)
        return st;
    st = shard_data_reserve(data, ng, np, err);
    if (st != STATUS_OK)
        goto cleanup;
    herr_t rc = 0;
#define GAME_COLUMN(name, ctype, h5type, doc) if (rc >= 0) rc = read_rows(file, "games/" #name, h5type, 1, ng, data->games.name);
#define POSITION_COLUMN(name, ctype, width, h5type, doc) if (rc >= 0) rc = read_rows(file, "positions/" #name, h5type, width, np, data->positions.name);
#include "columns.def"
#undef GAME_COLUMN
#undef POSITION_COLUMN
    if (rc < 0) {
        st = error_set(err, STATUS_FORMAT, "%s: a column is missing, of another length or unreadable",
                       path);
        goto cleanup;
    }
    data->games.count = ng;
    data->positions.count = np;
    st = check_consistent(data, path, err);
cleanup:
    if (H5Fclose(file) < 0 && st == STATUS_OK)
        st = h5_fail(err, path, "closing");
    if (st != STATUS_OK)
        shard_data_clear(data);
    return st;
}

// --- run folders and merging --------------------------------------------------------------

void h5store_shard_path(const char *dir, int64_t k, char *out, size_t out_len) {
    snprintf(out, out_len, "%s/" H5STORE_SHARD_PREFIX "%06lld.h5", dir, (long long)k);
}

static int compare_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void h5store_free_list(char **paths, size_t n) {
    for (size_t i = 0; paths && i < n; i++)
        free(paths[i]);
    free(paths);
}

Status h5store_list_run(const char *dir, char ***paths, size_t *n, ErrorInfo *err) {
    *paths = NULL;
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return errno == ENOENT ? STATUS_OK : h5_fail(err, dir, "listing the folder");
    size_t cap = 0;
    Status st = STATUS_OK;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name), plen = strlen(H5STORE_SHARD_PREFIX);
        if (len < plen + 3 || strncmp(e->d_name, H5STORE_SHARD_PREFIX, plen) != 0
            || strcmp(e->d_name + len - 3, ".h5") != 0)
            continue;
        if (*n == cap) {
            cap = cap ? cap * 2 : 16;
            char **grown = realloc(*paths, cap * sizeof **paths);
            if (!grown) {
                st = error_set(err, STATUS_NOMEM, "out of memory listing %s", dir);
                break;
            }
            *paths = grown;
        }
        size_t plen_all = strlen(dir) + len + 2;
        (*paths)[*n] = malloc(plen_all);
        if (!(*paths)[*n]) {
            st = error_set(err, STATUS_NOMEM, "out of memory listing %s", dir);
            break;
        }
        snprintf((*paths)[(*n)++], plen_all, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    if (st != STATUS_OK) {
        h5store_free_list(*paths, *n);
        *paths = NULL;
        *n = 0;
        return st;
    }
    if (*n > 1) // qsort must not see the NULL list of an empty folder
        qsort(*paths, *n, sizeof **paths, compare_str);
    return STATUS_OK;
}

// Pass 1 of a merge: sizes, id range and the meta of the merged file.
static Status merge_scan(char *const *inputs, size_t n, StoreMeta *meta, size_t *games,
                         size_t *positions, ErrorInfo *err) {
    *games = *positions = 0;
    for (size_t i = 0; i < n; i++) {
        StoreMeta m;
        size_t g, p;
        Status st = h5store_read_meta(inputs[i], &m, &g, &p, err);
        if (st != STATUS_OK)
            return st;
        if (i == 0)
            *meta = m;
        else if (strcmp(m.run_config, meta->run_config) != 0)
            return error_set(err, STATUS_FORMAT, "%s: another run (run_config differs from %s)",
                             inputs[i], inputs[0]);
        if (strcmp(m.start_time, meta->start_time) < 0)
            snprintf(meta->start_time, sizeof meta->start_time, "%s", m.start_time);
        if (strcmp(m.end_time, meta->end_time) > 0)
            snprintf(meta->end_time, sizeof meta->end_time, "%s", m.end_time);
        *games += g;
        *positions += p;
    }
    meta->shard = -1;
    return STATUS_OK;
}

// Marks ids in a growing bitmap; false on a duplicate or when memory is short (*nomem set).
static bool mark_id(uint8_t **seen, size_t *bytes, uint32_t id, bool *nomem) {
    if (id / 8 >= *bytes) {
        size_t nb = (id / 8 + 1) * 2;
        uint8_t *p = realloc(*seen, nb);
        if (!p) {
            *nomem = true;
            return false;
        }
        memset(p + *bytes, 0, nb - *bytes);
        *seen = p;
        *bytes = nb;
    }
    if ((*seen)[id / 8] & (1u << (id % 8)))
        return false;
    (*seen)[id / 8] |= (uint8_t)(1u << (id % 8));
    return true;
}

Status h5store_merge(char *const *inputs, size_t n, const char *out, ErrorInfo *err) {
    quiet_hdf5();
    if (n == 0)
        return error_set(err, STATUS_IO, "merge: no input files");
    StoreMeta meta;
    size_t games, positions, goff = 0, poff = 0, seen_bytes = 0;
    uint8_t *seen = NULL;
    Status st = merge_scan(inputs, n, &meta, &games, &positions, err);
    if (st != STATUS_OK)
        return st;
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    errno = 0;
    Writer w = {.file = -1, .path = tmp};
    ShardData d;
    shard_data_init(&d);
    st = writer_open(&w, tmp, &meta, games, positions, err);
    for (size_t i = 0; st == STATUS_OK && i < n; i++) {
        st = h5store_read(inputs[i], NULL, &d, err);
        for (size_t g = 0; st == STATUS_OK && g < d.games.count; g++) {
            bool nomem = false;
            if (!mark_id(&seen, &seen_bytes, d.games.game_id[g], &nomem))
                st = nomem ? error_set(err, STATUS_NOMEM, "merge: out of memory")
                           : error_set(err, STATUS_FORMAT, "%s: game id %u appears twice",
                                       inputs[i], d.games.game_id[g]);
            d.games.pos_start[g] += poff;
            d.games.pos_end[g] += poff;
        }
        if (st == STATUS_OK)
            st = writer_put(&w, &d, goff, poff, err);
        goff += d.games.count;
        poff += d.positions.count;
    }
    if (st == STATUS_OK)
        st = writer_finish(&w, out, err);
    if (st != STATUS_OK)
        writer_abort(&w);
    shard_data_free(&d);
    free(seen);
    return st;
}
