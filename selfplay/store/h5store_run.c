// SPDX-License-Identifier: MIT
// Run folders of shard files, and merging shards into one file.
#include "h5store.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "files.h"
#include "h5store_internal.h"

int64_t h5store_shard_number(const char *path) {
    const char *name = strrchr(path, '/');
    name = name ? name + 1 : path;
    char *end;
    long long k = strtoll(name + strlen(H5STORE_SHARD_PREFIX), &end, 10);
    return strcmp(end, ".h5") == 0 && k >= 0 ? (int64_t)k : -1;
}

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

typedef struct IdRow {
    uint32_t id;
    uint32_t file; // index in the folder's sorted list
} IdRow;

static int compare_id_row(const void *a, const void *b) {
    const IdRow *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return (x->file > y->file) - (x->file < y->file);
}

// Refuses a folder where one game id is stored twice (e.g. a merged file written back into
// the folder): every reader would count those games twice. Reads only the game_id columns.
static Status check_unique_ids(const char *dir, char **paths, size_t n, ErrorInfo *err) {
    IdRow *rows = NULL;
    size_t count = 0, cap = 0;
    Status st = STATUS_OK;
    for (size_t i = 0; i < n && st == STATUS_OK; i++) {
        uint32_t *ids;
        size_t k;
        st = h5store_read_game_ids(paths[i], &ids, &k, err);
        if (st == STATUS_OK && count + k > cap) {
            size_t nc = (count + k) * 2;
            IdRow *grown = realloc(rows, nc * sizeof *rows);
            if (!grown)
                st = error_set(err, STATUS_NOMEM, "out of memory listing %s", dir);
            else
                rows = grown, cap = nc;
        }
        for (size_t g = 0; st == STATUS_OK && g < k; g++)
            rows[count++] = (IdRow){.id = ids[g], .file = (uint32_t)i};
        free(ids);
    }
    if (st == STATUS_OK && count > 1)
        qsort(rows, count, sizeof *rows, compare_id_row);
    for (size_t r = 1; st == STATUS_OK && r < count; r++)
        if (rows[r].id == rows[r - 1].id && rows[r].file == rows[r - 1].file)
            st = error_set(err, STATUS_FORMAT, "%s: game id %u is stored twice in %s", dir,
                           rows[r].id, paths[rows[r].file]);
        else if (rows[r].id == rows[r - 1].id)
            st = error_set(err, STATUS_FORMAT,
                           "%s: game id %u is stored twice, in %s and in %s (a merged file "
                           "inside the run folder?); move one out",
                           dir, rows[r].id, paths[rows[r - 1].file], paths[rows[r].file]);
    free(rows);
    return st;
}

Status h5store_list_files(const char *dir, char ***paths, size_t *n, ErrorInfo *err) {
    *paths = NULL;
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return errno == ENOENT ? STATUS_OK : h5store_fail(err, dir, "listing the folder");
    size_t cap = 0;
    Status st = STATUS_OK;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name), plen = strlen(H5STORE_SHARD_PREFIX);
        if (len < plen + 3 || strncmp(e->d_name, H5STORE_SHARD_PREFIX, plen) != 0 ||
            strcmp(e->d_name + len - 3, ".h5") != 0)
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

Status h5store_list_run(const char *dir, char ***paths, size_t *n, ErrorInfo *err) {
    Status st = h5store_list_files(dir, paths, n, err);
    if (st == STATUS_OK)
        st = check_unique_ids(dir, *paths, *n, err);
    if (st != STATUS_OK) {
        h5store_free_list(*paths, *n);
        *paths = NULL;
        *n = 0;
    }
    return st;
}

// The absolute form of path, which need not exist yet: its longest existing ancestor resolved

// Appends a copy of path to the list.
static Status push_file(char ***files, size_t *n, const char *path, ErrorInfo *err) {
    char **p = realloc(*files, (*n + 1) * sizeof *p);
    if (!p)
        return error_set(err, STATUS_NOMEM, "out of memory");
    *files = p;
    if (!(p[*n] = strdup(path)))
        return error_set(err, STATUS_NOMEM, "out of memory");
    ++*n;
    return STATUS_OK;
}

Status h5store_expand_inputs(char *const *paths, size_t n, char ***files, size_t *nfiles,
                             ErrorInfo *err) {
    *files = NULL, *nfiles = 0;
    Status s = STATUS_OK;
    for (size_t i = 0; i < n && s == STATUS_OK; i++) {
        struct stat sb;
        if (stat(paths[i], &sb) != 0) {
            s = error_set(err, STATUS_IO, "%s: no such file or folder", paths[i]);
            break;
        }
        if (!S_ISDIR(sb.st_mode)) {
            s = push_file(files, nfiles, paths[i], err);
            continue;
        }
        char **shards = NULL;
        size_t ns = 0;
        s = h5store_list_run(paths[i], &shards, &ns, err);
        if (s == STATUS_OK && ns == 0)
            s = error_set(err, STATUS_IO, "%s: a folder without shard files", paths[i]);
        for (size_t k = 0; k < ns && s == STATUS_OK; k++)
            s = push_file(files, nfiles, shards[k], err);
        h5store_free_list(shards, ns);
    }
    if (s != STATUS_OK) {
        h5store_free_list(*files, *nfiles);
        *files = NULL, *nfiles = 0;
    }
    return s;
}

// (symlinks, "..") with the rest appended as written.
static bool resolve_path(const char *path, char *out) {
    char head[PATH_MAX], real_head[PATH_MAX];
    if (snprintf(head, sizeof head, "%s", path) >= (int)sizeof head)
        return false;
    size_t cut = strlen(head);
    while (!realpath(cut ? head : ".", real_head)) {
        char *slash = strrchr(head, '/');
        if (cut == 0 || (slash == head && cut == 1))
            return false; // not even the current folder or the root resolves
        if (!slash)
            cut = 0; // relative: the current folder next
        else if (slash == head)
            cut = 1, head[1] = '\0'; // the root
        else
            cut = (size_t)(slash - head), *slash = '\0';
    }
    const char *tail = path + cut;
    while (*tail == '/')
        tail++;
    int len = snprintf(out, PATH_MAX, "%s%s%s", strcmp(real_head, "/") ? real_head : "",
                       *tail || !strcmp(real_head, "/") ? "/" : "", tail);
    return len > 0 && len < PATH_MAX;
}

Status h5store_check_output(const char *out, char *const *inputs, size_t n, ErrorInfo *err) {
    char real_out[PATH_MAX], real_in[PATH_MAX];
    if (!resolve_path(out, real_out))
        return STATUS_OK; // nothing can be written there; the write reports it
    for (size_t i = 0; i < n; i++) {
        struct stat sb;
        if (!realpath(inputs[i], real_in) || stat(real_in, &sb) != 0)
            continue; // the read reports it
        size_t len = strlen(real_in);
        bool inside = S_ISDIR(sb.st_mode) && strncmp(real_out, real_in, len) == 0 &&
                      (real_out[len] == '/' || (len == 1 && real_in[0] == '/'));
        if (inside)
            return error_set(err, STATUS_RANGE,
                             "output %s lies inside the input folder %s: "
                             "write it elsewhere",
                             out, inputs[i]);
        if (strcmp(real_out, real_in) == 0)
            return error_set(err, STATUS_RANGE, "output %s is also an input: write it elsewhere",
                             out);
    }
    return STATUS_OK;
}

// Pass 1 of a merge: sizes, id range and the meta of the merged file.
static Status merge_scan(char *const *inputs, size_t n, StoreMeta *meta, size_t *games,
                         size_t *positions, ErrorInfo *err) {
    *games = *positions = 0;
    bool mixed = false; // schedules differ: PV ends of several shards
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
        else if (h5store_schedule_standalone(m.schedule) !=
                 h5store_schedule_standalone(meta->schedule))
            return error_set(err, STATUS_FORMAT,
                             "%s and %s: standalone positions (PV ends) and games cannot be "
                             "merged into one file",
                             inputs[i], inputs[0]);
        mixed |= strcmp(m.schedule, meta->schedule) != 0;
        if (strcmp(m.start_time, meta->start_time) < 0)
            snprintf(meta->start_time, sizeof meta->start_time, "%s", m.start_time);
        if (strcmp(m.end_time, meta->end_time) > 0)
            snprintf(meta->end_time, sizeof meta->end_time, "%s", m.end_time);
        *games += g;
        *positions += p;
    }
    meta->shard = -1;
    if (mixed && h5store_schedule_standalone(meta->schedule)) {
        char *tail = strchr(meta->schedule, ','); // ", each searched at ..."
        char was[sizeof meta->schedule];
        snprintf(was, sizeof was, "%s", tail ? tail : "");
        snprintf(meta->schedule, sizeof meta->schedule, "%s%.*s", H5STORE_PV_MERGED_SCHEDULE,
                 (int)(sizeof meta->schedule - sizeof H5STORE_PV_MERGED_SCHEDULE), was);
    }
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
    h5store_quiet();
    if (n == 0)
        return error_set(err, STATUS_IO, "merge: no input files");
    Status st = h5store_check_output(out, inputs, n, err);
    if (st != STATUS_OK)
        return st;
    StoreMeta meta;
    // The ids seen, a bitmap for each half of the id space: ids from 2^31 (PV ends, label_pv.h)
    // cost what ids from 0 do.
    size_t games, positions, goff = 0, poff = 0, seen_bytes[2] = {0, 0};
    uint8_t *seen[2] = {NULL, NULL};
    st = merge_scan(inputs, n, &meta, &games, &positions, err);
    if (st != STATUS_OK)
        return st;
    char target[FILES_PATH_MAX], tmp[FILES_PATH_MAX + 8];
    if ((st = h5store_output_target(out, target, err)) != STATUS_OK)
        return st;
    snprintf(tmp, sizeof tmp, "%s.tmp", target);
    errno = 0;
    H5Writer w = {.file = -1, .path = tmp};
    ShardData d;
    shard_data_init(&d);
    st = h5writer_open(&w, tmp, &meta, games, positions, err);
    for (size_t i = 0; st == STATUS_OK && i < n; i++) {
        st = h5store_read(inputs[i], NULL, &d, err);
        for (size_t g = 0; st == STATUS_OK && g < d.games.count; g++) {
            bool nomem = false;
            uint32_t id = d.games.game_id[g];
            if (!mark_id(&seen[id >> 31], &seen_bytes[id >> 31], id & 0x7fffffffu, &nomem))
                st = nomem ? error_set(err, STATUS_NOMEM, "merge: out of memory")
                           : error_set(err, STATUS_FORMAT, "%s: game id %u appears twice",
                                       inputs[i], d.games.game_id[g]);
            d.games.pos_start[g] += poff;
            d.games.pos_end[g] += poff;
        }
        if (st == STATUS_OK)
            st = h5writer_put(&w, &d, goff, poff, err);
        goff += d.games.count;
        poff += d.positions.count;
    }
    if (st == STATUS_OK)
        st = h5writer_finish(&w, target, err);
    if (st != STATUS_OK)
        h5writer_abort(&w);
    shard_data_free(&d);
    free(seen[0]);
    free(seen[1]);
    return st;
}
