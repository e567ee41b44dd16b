// SPDX-License-Identifier: MIT
// Run folders of shard files, and merging shards into one file.
#include "h5store.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h5store_internal.h"

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
        return errno == ENOENT ? STATUS_OK : h5store_fail(err, dir, "listing the folder");
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
    h5store_quiet();
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
    H5Writer w = {.file = -1, .path = tmp};
    ShardData d;
    shard_data_init(&d);
    st = h5writer_open(&w, tmp, &meta, games, positions, err);
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
            st = h5writer_put(&w, &d, goff, poff, err);
        goff += d.games.count;
        poff += d.positions.count;
    }
    if (st == STATUS_OK)
        st = h5writer_finish(&w, out, err);
    if (st != STATUS_OK)
        h5writer_abort(&w);
    shard_data_free(&d);
    free(seen);
    return st;
}
