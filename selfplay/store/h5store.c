// SPDX-License-Identifier: MIT
// HDF5 store: one dataset per column under /games and /positions, chunked near 1 MiB,
// deflate level 4 with the shuffle filter for fields wider than a byte, Fletcher32 on every
// chunk; file format 1.10 (checksummed metadata), attributes as fixed-length strings inline in
// the checksummed object header, and the digest header in the user block (h5store_seal.c).
#include "h5store.h"

#include "h5store_internal.h"

#include <errno.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "durable.h"
#include "files.h"
#include "rules.h"
#include "variant.h"

enum {
    CHUNK_BYTES = 1 << 20,               // fits the default 1 MiB chunk cache
    DEFLATE_LEVEL = 4,                   // the measured size/speed trade-off (issue 4)
    ATTR_STR_MAX = H5STORE_OPENINGS_MAX, // the longest string attribute a reader accepts, bytes
    ATTR_COMPACT_MAX = 64                // attributes kept in the root group's object header
};

Status h5store_fail(ErrorInfo *err, const char *path, const char *what) {
    int e = errno;
    if (e)
        return error_set(err, STATUS_IO, "%s: %s failed (%s)", path, what, strerror(e));
    return error_set(err, STATUS_IO, "%s: %s failed", path, what);
}

// Silences HDF5's own error printing (errors come back as Status with a message), and keeps
// HDF5 from closing files at exit: after a failed H5Fclose (full disk) its exit handler
// crashes on the half-closed file. Every file here is closed explicitly before returning.
void h5store_quiet(void) {
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

// A fixed-length string: stored in the (checksummed) object header, where a variable-length
// one would be a reference into the global heap, which has no checksum.
static herr_t write_attr_str(hid_t loc, const char *name, const char *value) {
    hid_t type = H5Tcopy(H5T_C_S1);
    if (type < 0)
        return -1;
    size_t len = strlen(value);
    herr_t rc = H5Tset_size(type, len ? len : 1);
    if (rc >= 0)
        rc = H5Tset_strpad(type, H5T_STR_NULLPAD);
    if (rc >= 0)
        rc = H5Tset_cset(type, H5T_CSET_UTF8);
    if (rc >= 0)
        rc = write_attr(loc, name, type, len ? value : "");
    H5Tclose(type);
    return rc;
}

static herr_t write_attr_i64(hid_t loc, const char *name, int64_t v) {
    return write_attr(loc, name, H5T_NATIVE_INT64, &v);
}

// Opens attribute name of loc when it is a scalar of type class cls; -1 otherwise. Its type,
// when type is not NULL, is left open there.
static hid_t open_scalar_attr(hid_t loc, const char *name, H5T_class_t cls, hid_t *type) {
    hid_t attr = H5Aexists(loc, name) > 0 ? H5Aopen(loc, name, H5P_DEFAULT) : -1;
    hid_t space = attr < 0 ? -1 : H5Aget_space(attr);
    hid_t ftype = attr < 0 ? -1 : H5Aget_type(attr);
    bool ok = space >= 0 && ftype >= 0 && H5Sget_simple_extent_type(space) == H5S_SCALAR &&
              H5Tget_class(ftype) == cls;
    if (space >= 0)
        H5Sclose(space);
    if (ok && type)
        *type = ftype;
    else if (ftype >= 0)
        H5Tclose(ftype);
    if (!ok && attr >= 0)
        H5Aclose(attr);
    return ok ? attr : -1;
}

// A scalar string attribute: fixed-length (schema 2) or variable-length (schema 1), at most
// ATTR_STR_MAX bytes, cut to out_len.
static herr_t read_attr_str(hid_t loc, const char *name, char *out, size_t out_len) {
    out[0] = 0;
    hid_t ftype = -1;
    hid_t attr = open_scalar_attr(loc, name, H5T_STRING, &ftype);
    if (attr < 0)
        return -1;
    herr_t rc = -1;
    hid_t mtype = H5Tcopy(H5T_C_S1);
    H5T_cset_t cset = H5Tget_cset(ftype);
    htri_t vlen = H5Tis_variable_str(ftype);
    size_t n = H5Tget_size(ftype);
    if (mtype < 0 || vlen < 0 || (cset != H5T_CSET_ASCII && cset != H5T_CSET_UTF8) ||
        H5Tset_cset(mtype, cset) < 0)
        goto cleanup;
    if (vlen > 0) {
        char *s = NULL;
        if (H5Tset_size(mtype, H5T_VARIABLE) < 0 || H5Aread(attr, mtype, &s) < 0)
            goto cleanup;
        snprintf(out, out_len, "%s", s ? s : "");
        H5free_memory(s);
    } else {
        char *buf = n == 0 || n > ATTR_STR_MAX ? NULL : malloc(n + 1);
        if (!buf || H5Tset_size(mtype, n + 1) < 0 || H5Aread(attr, mtype, buf) < 0) {
            free(buf);
            goto cleanup;
        }
        size_t k = strnlen(buf, n < out_len - 1 ? n : out_len - 1);
        memcpy(out, buf, k);
        out[k] = 0;
        free(buf);
    }
    rc = 0;
cleanup:
    H5Tclose(ftype);
    if (mtype >= 0)
        H5Tclose(mtype);
    H5Aclose(attr);
    return rc;
}

// A scalar 64-bit integer attribute, read as the memory type mtype (signed or unsigned).
static herr_t read_attr_64(hid_t loc, const char *name, hid_t mtype, void *v) {
    hid_t ftype = -1;
    hid_t attr = open_scalar_attr(loc, name, H5T_INTEGER, &ftype);
    if (attr < 0)
        return -1;
    herr_t rc = H5Tget_size(ftype) == 8 ? H5Aread(attr, mtype, v) : -1;
    H5Tclose(ftype);
    H5Aclose(attr);
    return rc;
}

static herr_t read_attr_i64(hid_t loc, const char *name, int64_t *v) {
    return read_attr_64(loc, name, H5T_NATIVE_INT64, v);
}

static herr_t write_meta(hid_t file, const StoreMeta *m) {
    char reasons[256] = "", formations[128] = "";
    const Variant *v = m->variant[0] ? variant_find(m->variant) : variant_default();
    if (!v)
        return -1;
    for (int r = 0; r < REASON_NB; r++)
        snprintf(reasons + strlen(reasons), sizeof reasons - strlen(reasons), "%s%s", r ? "," : "",
                 r ? rules_reason_name((EndReason)r) : "none");
    for (int f = 0; f < v->formation_count; f++)
        snprintf(formations + strlen(formations), sizeof formations - strlen(formations), "%s%s",
                 f ? "," : "", v->formation_names[f]);
    int64_t seed_bits;
    memcpy(&seed_bits, &m->seed, sizeof seed_bits);
    herr_t rc = 0;
    rc |= write_attr_str(file, "format", H5STORE_FORMAT);
    rc |= write_attr_i64(file, "schema_version", H5STORE_SCHEMA_VERSION);
    rc |= write_attr_str(file, "variant", v->name);
    rc |= write_attr_str(file, "engine_version", m->engine_version);
    rc |= write_attr_str(file, "bench", m->bench);
    rc |= write_attr_str(file, "weights_sha256", m->weights_sha256);
    rc |= write_attr_str(file, "search_limits", m->limits);
    rc |= write_attr_str(file, "formation_schedule", m->schedule);
    rc |= write_attr_str(file, "run_config", m->run_config);
    if (m->openings[0])
        rc |= write_attr_str(file, "openings", m->openings);
    if (m->sources[0])
        rc |= write_attr_str(file, "sources", m->sources);
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

// The attributes; the schema version must be `version`.
static Status read_meta(hid_t file, const char *path, int version_want, StoreMeta *m,
                        ErrorInfo *err) {
    char format[64];
    int64_t version = 0;
    memset(m, 0, sizeof *m);
    if (read_attr_str(file, "format", format, sizeof format) < 0 ||
        strcmp(format, H5STORE_FORMAT) != 0)
        return error_set(err, STATUS_FORMAT, "%s: not a hansu self-play file (no format='%s')",
                         path, H5STORE_FORMAT);
    // Schema 2 is schema 3 without draws and xiangqi: read as it is.
    if (read_attr_i64(file, "schema_version", &version) < 0 ||
        (version != version_want &&
         !(version_want == H5STORE_SCHEMA_VERSION && version == H5STORE_SCHEMA_JANGGI_ONLY)))
        return error_set(err, STATUS_FORMAT, "%s: schema version %lld is not the %s %d", path,
                         (long long)version,
                         version_want == H5STORE_SCHEMA_VERSION ? "known" : "expected",
                         version_want);
    m->schema_version = (int)version;
    // Files written before the attribute existed are janggi's (same schema: an added attribute).
    snprintf(m->variant, sizeof m->variant, "%s", variant_default()->name);
    if (H5Aexists(file, "variant") > 0 &&
        (read_attr_str(file, "variant", m->variant, sizeof m->variant) < 0 ||
         !variant_find(m->variant)))
        return error_set(err, STATUS_FORMAT, "%s: attribute variant '%.15s' is not a known variant",
                         path, m->variant);
    // Before schema 3 the store held janggi's games only.
    if (version < H5STORE_SCHEMA_VERSION && variant_find(m->variant) != variant_default())
        return error_set(err, STATUS_FORMAT,
                         "%s: variant '%.15s' in a schema %lld file (janggi only before schema %d)",
                         path, m->variant, (long long)version, H5STORE_SCHEMA_VERSION);
    herr_t rc = 0;
    rc |= read_attr_str(file, "engine_version", m->engine_version, sizeof m->engine_version);
    rc |= read_attr_str(file, "bench", m->bench, sizeof m->bench);
    rc |= read_attr_str(file, "weights_sha256", m->weights_sha256, sizeof m->weights_sha256);
    rc |= read_attr_str(file, "search_limits", m->limits, sizeof m->limits);
    rc |= read_attr_str(file, "formation_schedule", m->schedule, sizeof m->schedule);
    rc |= read_attr_str(file, "run_config", m->run_config, sizeof m->run_config);
    // Optional (a run without openings, and every file written before they existed).
    if (H5Aexists(file, "openings") > 0)
        rc |= read_attr_str(file, "openings", m->openings, sizeof m->openings);
    if (H5Aexists(file, "sources") > 0) // optional: labelled files only
        rc |= read_attr_str(file, "sources", m->sources, sizeof m->sources);
    rc |= read_attr_str(file, "host", m->host, sizeof m->host);
    rc |= read_attr_str(file, "start_time", m->start_time, sizeof m->start_time);
    rc |= read_attr_str(file, "end_time", m->end_time, sizeof m->end_time);
    rc |= read_attr_64(file, "seed", H5T_NATIVE_UINT64, &m->seed);
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

static herr_t create_column(hid_t group, const char *name, hid_t base, hsize_t width, size_t rows,
                            const char *doc) {
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
        // Last in the pipeline: the checksum covers the compressed bytes, so a damaged chunk
        // is refused before the inflater sees it.
        if (rc >= 0)
            rc = H5Pset_fletcher32(dcpl);
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

// True when the stored type ftype has the class, size and sign of the memory type mtype (and,
// for arrays, its dimensions and element type); byte order may differ, HDF5 converts it.
static bool type_matches(hid_t ftype, hid_t mtype) {
    H5T_class_t cls = H5Tget_class(ftype);
    if (cls != H5Tget_class(mtype) || H5Tget_size(ftype) != H5Tget_size(mtype))
        return false;
    if (cls == H5T_INTEGER)
        return H5Tget_sign(ftype) == H5Tget_sign(mtype);
    if (cls != H5T_ARRAY || H5Tget_array_ndims(ftype) != 1 || H5Tget_array_ndims(mtype) != 1)
        return false;
    hsize_t fd = 0, md = 0;
    if (H5Tget_array_dims2(ftype, &fd) < 0 || H5Tget_array_dims2(mtype, &md) < 0 || fd != md)
        return false;
    hid_t fsuper = H5Tget_super(ftype), msuper = H5Tget_super(mtype);
    bool ok = fsuper >= 0 && msuper >= 0 && H5Tget_class(fsuper) == H5T_INTEGER &&
              type_matches(fsuper, msuper);
    if (fsuper >= 0)
        H5Tclose(fsuper);
    if (msuper >= 0)
        H5Tclose(msuper);
    return ok;
}

// Reads a whole column into buf, which holds `rows` rows; fails when the length or the
// stored type differs.
static herr_t read_rows(hid_t file, const char *path, hid_t base, hsize_t width, size_t rows,
                        void *buf) {
    hid_t ds = H5Dopen2(file, path, H5P_DEFAULT);
    hid_t type = column_type(base, width);
    hid_t fspace = ds < 0 ? -1 : H5Dget_space(ds), ftype = ds < 0 ? -1 : H5Dget_type(ds);
    herr_t rc =
        ds < 0 || type < 0 || fspace < 0 || ftype < 0 || !type_matches(ftype, type) ? -1 : 0;
    if (ftype >= 0)
        H5Tclose(ftype);
    hsize_t dims = 0;
    if (rc >= 0 && (H5Sget_simple_extent_ndims(fspace) != 1 ||
                    H5Sget_simple_extent_dims(fspace, &dims, NULL) < 0 || dims != rows))
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
    herr_t rc = space < 0 || H5Sget_simple_extent_ndims(space) != 1 ||
                        H5Sget_simple_extent_dims(space, &dims, NULL) < 0
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

// File image callbacks of the core driver (HDF5 user guide, "HDF5 File Image Operations"):
// the buffer grows by doubling, and at close it is kept instead of freed. H5Fget_file_image
// cannot serve: in HDF5 1.10 its copy of a file with a user block or checksummed metadata is
// not the file that H5Fclose completes.
static void *image_malloc(size_t size, H5FD_file_image_op_t op, void *udata) {
    (void)op, (void)udata;
    return malloc(size ? size : 1);
}

static void *image_memcpy(void *dst, const void *src, size_t size, H5FD_file_image_op_t op,
                          void *udata) {
    (void)op, (void)udata;
    return memcpy(dst, src, size);
}

static void *image_realloc(void *ptr, size_t size, H5FD_file_image_op_t op, void *udata) {
    H5Image *im = udata;
    (void)op;
    if (ptr && ptr != im->mem)
        return realloc(ptr, size);
    if (size > im->cap) {
        size_t cap = im->cap ? im->cap : 1 << 16;
        while (cap < size)
            cap *= 2;
        unsigned char *grown = realloc(im->mem, cap);
        if (!grown)
            return NULL;
        im->mem = grown, im->cap = cap;
    }
    im->size = size;
    return im->mem;
}

static herr_t image_free(void *ptr, H5FD_file_image_op_t op, void *udata) {
    H5Image *im = udata;
    if (ptr && ptr == im->mem && op == H5FD_FILE_IMAGE_OP_FILE_CLOSE) {
        im->closed = im->mem; // the complete file: written out by write_image
        im->mem = NULL, im->cap = 0;
    } else {
        if (ptr == im->mem)
            im->mem = NULL, im->cap = 0, im->size = 0;
        free(ptr);
    }
    return 0;
}

static void *image_udata_copy(void *udata) { return udata; } // one H5Image, shared
static herr_t image_udata_free(void *udata) { return (void)udata, 0; }

// The core driver in memory, its buffer in im, growing by one byte steps (so the image ends
// exactly at the file's end; image_realloc rounds the allocation up).
static herr_t set_in_memory(hid_t fapl, H5Image *im) {
    H5FD_file_image_callbacks_t cb = {image_malloc,
                                      image_memcpy,
                                      image_realloc,
                                      image_free,
                                      image_udata_copy,
                                      image_udata_free,
                                      im};
    herr_t rc = H5Pset_fapl_core(fapl, 1, 0);
    return rc < 0 ? rc : H5Pset_file_image_callbacks(fapl, &cb);
}

Status h5writer_open(H5Writer *w, const char *tmp, const StoreMeta *meta, size_t games,
                     size_t positions, ErrorInfo *err) {
    w->path = tmp;
    w->games = games;
    w->positions = positions;
    // In memory, HDF5 never meets a full disk: its close cannot fail half-way, and the image
    // goes to disk through plain write() calls whose errors are ours to report.
    // File format 1.10: superblock, object headers and chunk indexes carry checksums. The
    // user block is left for the digest header; all attributes stay in the root group's
    // object header.
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS), fcpl = H5Pcreate(H5P_FILE_CREATE);
    if (fapl < 0 || fcpl < 0 || (w->in_memory && set_in_memory(fapl, &w->image) < 0) ||
        H5Pset_libver_bounds(fapl, H5F_LIBVER_V110, H5F_LIBVER_V110) < 0 ||
        H5Pset_userblock(fcpl, H5STORE_USERBLOCK) < 0 ||
        H5Pset_attr_phase_change(fcpl, ATTR_COMPACT_MAX, ATTR_COMPACT_MAX - 1) < 0)
        w->file = -1;
    else
        w->file = H5Fcreate(tmp, H5F_ACC_TRUNC, fcpl, fapl);
    if (fapl >= 0)
        H5Pclose(fapl);
    if (fcpl >= 0)
        H5Pclose(fcpl);
    if (w->file < 0)
        return h5store_fail(err, tmp, "creating the file");
    hid_t g = H5Gcreate2(w->file, "games", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hid_t p = H5Gcreate2(w->file, "positions", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    herr_t rc = g < 0 || p < 0 ? -1 : write_meta(w->file, meta);
#define GAME_COLUMN(name, ctype, h5type, lo, hi, doc)                                              \
    if (rc >= 0)                                                                                   \
        rc = create_column(g, #name, h5type, 1, games, doc);
#define POSITION_COLUMN(name, ctype, width, h5type, lo, hi, doc)                                   \
    if (rc >= 0)                                                                                   \
        rc = create_column(p, #name, h5type, width, positions, doc);
#include "columns.def"
#undef GAME_COLUMN
#undef POSITION_COLUMN
    if (g >= 0)
        H5Gclose(g);
    if (p >= 0)
        H5Gclose(p);
    return rc < 0 ? h5store_fail(err, tmp, "creating the datasets") : STATUS_OK;
}

// Writes the rows of d at the given offsets (d's pos_start/pos_end must already be rebased).
Status h5writer_put(H5Writer *w, const ShardData *d, size_t game_off, size_t pos_off,
                    ErrorInfo *err) {
    herr_t rc = 0;
    size_t ng = d->games.count, np = d->positions.count;
#define GAME_COLUMN(name, ctype, h5type, lo, hi, doc)                                              \
    if (rc >= 0)                                                                                   \
        rc = write_rows(w->file, "games/" #name, h5type, 1, game_off, ng, d->games.name);
#define POSITION_COLUMN(name, ctype, width, h5type, lo, hi, doc)                                   \
    if (rc >= 0)                                                                                   \
        rc = write_rows(w->file, "positions/" #name, h5type, width, pos_off, np, d->positions.name);
#include "columns.def"
#undef GAME_COLUMN
#undef POSITION_COLUMN
    return rc < 0 ? h5store_fail(err, w->path, "writing the data") : STATUS_OK;
}

// Closes the in-memory file, fills in the digest header of its image and writes the image to
// w->path with one fsync: the digest is never on disk without its data, nor the data without.
static Status write_image(H5Writer *w, ErrorInfo *err) {
    herr_t rc = H5Fclose(w->file);
    w->file = -1;
    H5Image *im = &w->image;
    Status st = rc < 0 || !im->closed || im->size <= H5STORE_USERBLOCK
                    ? h5store_fail(err, w->path, "building the file image")
                    : STATUS_OK;
    if (st == STATUS_OK) {
        h5store_seal_image(im->closed, im->size);
        st = durable_write(w->path, im->closed, im->size, err);
    }
    free(im->closed);
    im->closed = NULL;
    return st;
}

// Closes the file, makes it durable and moves it to its final name.
Status h5writer_finish(H5Writer *w, const char *final_path, ErrorInfo *err) {
    Status st;
    if (w->in_memory) {
        st = write_image(w, err);
    } else {
        herr_t rc = H5Fclose(w->file);
        w->file = -1;
        // HDF5 has closed the file: the digest of its bytes on disk goes into the user block,
        // then the file is fsync'ed, before the rename makes it visible.
        st = rc < 0 ? h5store_fail(err, w->path, "closing the file")
                    : h5store_seal_file(w->path, err);
    }
    return st == STATUS_OK ? durable_rename(w->path, final_path, err) : st;
}

void h5writer_abort(H5Writer *w) {
    if (w->file >= 0)
        H5Fclose(w->file);
    w->file = -1;
    free(w->image.closed);
    free(w->image.mem);
    w->image = (H5Image){0};
    unlink(w->path);
}

Status h5store_output_target(const char *path, char *target, ErrorInfo *err) {
    bool in_place;
    Status st = files_output_target(path, target, &in_place, err);
    if (st == STATUS_OK && in_place)
        st = error_set(err, STATUS_IO,
                       "%s: not a regular file (a device or FIFO), which a store "
                       "file cannot be written into",
                       path);
    return st;
}

bool h5store_schedule_standalone(const char *schedule) {
    return strncmp(schedule, H5STORE_POSITIONS_SCHEDULE, strlen(H5STORE_POSITIONS_SCHEDULE)) == 0;
}

Status h5store_write(const char *path, const StoreMeta *meta, const ShardData *data,
                     ErrorInfo *err) {
    if (data->standalone != h5store_schedule_standalone(meta->schedule))
        return error_set(err, STATUS_FORMAT,
                         "%s: standalone positions need the formation_schedule '%s...', games "
                         "another",
                         path, H5STORE_POSITIONS_SCHEDULE);
    if (meta->variant[0] && !variant_find(meta->variant))
        return error_set(err, STATUS_RANGE, "%s: variant '%.15s' is not a known variant", path,
                         meta->variant);
    h5store_quiet();
    char target[FILES_PATH_MAX], tmp[FILES_PATH_MAX + 8];
    Status st = h5store_output_target(path, target, err);
    if (st != STATUS_OK)
        return st;
    snprintf(tmp, sizeof tmp, "%s.tmp", target);
    errno = 0;
    H5Writer w = {.file = -1, .in_memory = true};
    st = h5writer_open(&w, tmp, meta, data->games.count, data->positions.count, err);
    if (st == STATUS_OK)
        st = h5writer_put(&w, data, 0, 0, err);
    if (st == STATUS_OK)
        st = h5writer_finish(&w, target, err);
    if (st != STATUS_OK)
        h5writer_abort(&w);
    return st;
}

// --- reading ------------------------------------------------------------------------------

// Opens the bytes of a checked image as a read-only HDF5 file held in memory (core driver):
// libhdf5 parses exactly the bytes whose digest was checked. Takes ownership of image.
static hid_t open_image(const char *path, void *image, size_t size) {
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    herr_t rc = fapl < 0 ? -1 : H5Pset_fapl_core(fapl, CHUNK_BYTES, 0);
    if (rc >= 0)
        rc = H5Pset_file_image(fapl, image, size); // copies it
    free(image);
    // The core driver refuses a name that exists on disk when it is given an image; below a
    // regular file nothing can exist.
    char name[4200];
    snprintf(name, sizeof name, "%s/in-memory", path);
    hid_t file = rc < 0 ? -1 : H5Fopen(name, H5F_ACC_RDONLY, fapl);
    if (fapl >= 0)
        H5Pclose(fapl);
    return file;
}

// Opens path and reads its attributes and row counts. Schema 2: from its checked image;
// legacy (schema 1): from disk, unprotected.
static Status open_checked(const char *path, bool legacy, hid_t *file, StoreMeta *meta,
                           size_t *games, size_t *positions, ErrorInfo *err) {
    h5store_quiet();
    *file = -1;
    if (legacy) {
        if (access(path, R_OK) < 0)
            return h5store_fail(err, path, "opening");
        // A file with a digest header is never parsed unchecked: its check says what is wrong.
        if (h5store_has_header(path)) {
            Status st = h5store_check_digest(path, err);
            return st != STATUS_OK ? st
                                   : error_set(err, STATUS_FORMAT,
                                               "%s: has a digest: not a "
                                               "schema-1 file",
                                               path);
        }
        if (H5Fis_hdf5(path) <= 0)
            return error_set(err, STATUS_FORMAT, "%s: not an HDF5 file, or truncated/corrupt",
                             path);
        *file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    } else {
        void *image;
        size_t size;
        Status st = h5store_load_image(path, &image, &size, err);
        if (st != STATUS_OK)
            return st;
        *file = open_image(path, image, size);
    }
    if (*file < 0)
        return error_set(err, STATUS_FORMAT, "%s: cannot be opened as HDF5 (corrupt?)", path);
    StoreMeta local;
    int version = legacy ? H5STORE_LEGACY_SCHEMA_VERSION : H5STORE_SCHEMA_VERSION;
    Status st = read_meta(*file, path, version, meta ? meta : &local, err);
    if (st == STATUS_OK && (dataset_rows(*file, "games/game_id", games) < 0 ||
                            dataset_rows(*file, "positions/game_id", positions) < 0))
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
    Status st = open_checked(path, false, &file, meta, &g, &p, err);
    if (st == STATUS_OK && H5Fclose(file) < 0)
        st = h5store_fail(err, path, "closing");
    if (games)
        *games = g;
    if (positions)
        *positions = p;
    return st;
}

static Status read_file(const char *path, bool legacy, StoreMeta *meta, ShardData *data,
                        ErrorInfo *err) {
    hid_t file = -1;
    size_t ng = 0, np = 0;
    StoreMeta local;
    StoreMeta *m = meta ? meta : &local;
    shard_data_clear(data);
    Status st = open_checked(path, legacy, &file, m, &ng, &np, err);
    if (st != STATUS_OK)
        return st;
    data->variant = variant_find(m->variant); // read_meta checked it
    data->standalone = h5store_schedule_standalone(m->schedule);
    if ((st = shard_data_set_openings(data, m->openings, err)) != STATUS_OK)
        goto cleanup;
    st = shard_data_reserve(data, ng, np, err);
    if (st != STATUS_OK) {
        error_set(err, st, "%s: out of memory for %zu games and %zu positions", path, ng, np);
        goto cleanup;
    }
    herr_t rc = 0;
#define GAME_COLUMN(name, ctype, h5type, lo, hi, doc)                                              \
    if (rc >= 0)                                                                                   \
        rc = read_rows(file, "games/" #name, h5type, 1, ng, data->games.name);
#define POSITION_COLUMN(name, ctype, width, h5type, lo, hi, doc)                                   \
    if (rc >= 0)                                                                                   \
        rc = read_rows(file, "positions/" #name, h5type, width, np, data->positions.name);
#include "columns.def"
#undef GAME_COLUMN
#undef POSITION_COLUMN
    if (rc < 0) {
        st = error_set(err, STATUS_FORMAT,
                       "%s: a column is missing, of another type or length, or unreadable "
                       "(checksum?)",
                       path);
        goto cleanup;
    }
    data->games.count = ng;
    data->positions.count = np;
    ErrorInfo why;
    if ((st = shard_data_check(data, &why)) != STATUS_OK)
        error_set(err, st, "%s: %s", path, why.msg);
cleanup:
    if (H5Fclose(file) < 0 && st == STATUS_OK)
        st = h5store_fail(err, path, "closing");
    if (st != STATUS_OK)
        shard_data_clear(data);
    return st;
}

Status h5store_read(const char *path, StoreMeta *meta, ShardData *data, ErrorInfo *err) {
    return read_file(path, false, meta, data, err);
}

Status h5store_read_legacy(const char *path, StoreMeta *meta, ShardData *data, ErrorInfo *err) {
    return read_file(path, true, meta, data, err);
}

Status h5store_read_game_ids(const char *path, uint32_t **ids, size_t *n, ErrorInfo *err) {
    hid_t file = -1;
    size_t ng = 0, np = 0;
    *ids = NULL;
    *n = 0;
    Status st = open_checked(path, false, &file, NULL, &ng, &np, err);
    if (st != STATUS_OK)
        return st;
    uint32_t *buf = malloc((ng ? ng : 1) * sizeof *buf);
    if (!buf)
        st = error_set(err, STATUS_NOMEM, "out of memory reading %s", path);
    else if (read_rows(file, "games/game_id", H5T_NATIVE_UINT32, 1, ng, buf) < 0)
        st = error_set(err, STATUS_FORMAT, "%s: the game_id column is unreadable", path);
    if (H5Fclose(file) < 0 && st == STATUS_OK)
        st = h5store_fail(err, path, "closing");
    if (st != STATUS_OK) {
        free(buf);
        return st;
    }
    *ids = buf;
    *n = ng;
    return STATUS_OK;
}
