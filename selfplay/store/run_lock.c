// SPDX-License-Identifier: MIT
// The writer lock: flock(2) on a small file; the holder's pid is written into it for messages.
#define _GNU_SOURCE
#include "run_lock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"

// One locked file; a run lock holds one (a whole run), three (a part of a split run) or one per
// output file.
typedef struct LockFile {
    int fd;
    char *path;  // removed on release, while still locked (a shared one is left)
    bool shared; // LOCK_SH: other parts of the run hold it too
} LockFile;

enum { LOCK_FILES_MAX = RUN_LOCK_OUTPUTS_MAX > 3 ? RUN_LOCK_OUTPUTS_MAX : 3 };

struct RunLock {
    LockFile files[LOCK_FILES_MAX];
    int count;
};

// The pid text the holder wrote, or "unknown" (it may not have written it yet).
static void read_holder(int fd, char *out, size_t len) {
    char buf[32];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    buf[n > 0 ? n : 0] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    bool digits = buf[0] != '\0' && strspn(buf, "0123456789") == strlen(buf);
    snprintf(out, len, "%s", digits ? buf : "unknown");
}

// True when fd is still the file at path: a holder that released meanwhile has removed it,
// and a lock on the removed file would lock nothing.
static bool still_linked(int fd, const char *path) {
    struct stat a, b;
    return fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

// Opens and locks path (exclusively, or shared): a descriptor, or -1 with err set.
static int open_locked(const char *path, bool shared, ErrorInfo *err) {
    for (;;) {
        // O_CLOEXEC: children (engines) must not inherit the descriptor.
        int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
        if (fd < 0) {
            error_set(err, STATUS_IO, "%s: cannot open the lock file (%s)", path, strerror(errno));
            return -1;
        }
        int r;
        while ((r = flock(fd, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB)) != 0 && errno == EINTR)
            ;
        if (r == 0 && still_linked(fd, path))
            return fd;
        int code = errno;
        if (r == 0) { // locked a file its last holder had just removed: try the new one
            close(fd);
            continue;
        }
        char pid[32];
        read_holder(fd, pid, sizeof pid);
        close(fd);
        if (code == EWOULDBLOCK)
            error_set(err, STATUS_IO,
                      "%s: locked by another writer, pid %s (wait for it to "
                      "end, or stop it, before writing here)%s",
                      path, pid,
                      strcmp(pid, "unknown") == 0
                          ? "; no pid: parts of a split run (--part, mpirun) may hold it, "
                            "their pids are in the " RUN_LOCK_NAME "-part-* files beside it"
                          : "");
        else
            error_set(err, STATUS_IO, "%s: cannot lock (%s)", path, strerror(code));
        return -1;
    }
}

// Adds a locked descriptor to the lock; a lock is allocated on the first.
static Status lock_add(RunLock **lock, int fd, const char *path, bool shared, ErrorInfo *err) {
    char *copy = strdup(path);
    RunLock *l = *lock ? *lock : calloc(1, sizeof *l);
    if (!l || !copy) {
        free(copy);
        if (l != *lock)
            free(l);
        if (!shared)
            unlink(path);
        close(fd);
        return error_set(err, STATUS_NOMEM, "%s: out of memory", path);
    }
    l->files[l->count++] = (LockFile){.fd = fd, .path = copy, .shared = shared};
    *lock = l;
    return STATUS_OK;
}

// Takes path exclusively and writes this process's pid into it.
static Status take_exclusive(const char *path, RunLock **lock, ErrorInfo *err) {
    int fd = open_locked(path, false, err);
    if (fd < 0)
        return STATUS_IO;
    char text[32];
    int len = snprintf(text, sizeof text, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, text, (size_t)len, 0) != len) {
        int code = errno;
        unlink(path);
        close(fd);
        return error_set(err, STATUS_IO, "%s: cannot write the lock file (%s)", path,
                         strerror(code));
    }
    return lock_add(lock, fd, path, false, err);
}

Status run_lock_take(const char *path, RunLock **out, ErrorInfo *err) {
    *out = NULL;
    return take_exclusive(path, out, err);
}

Status run_lock_take_outputs(const char *const paths[], const char *const flags[], size_t n,
                             RunLock **out, ErrorInfo *err) {
    char held[RUN_LOCK_OUTPUTS_MAX][FILES_PATH_MAX], lock[FILES_PATH_MAX + 8];
    ErrorInfo te;
    size_t nheld = 0;
    Status st = STATUS_OK;
    *out = NULL;
    if (n > RUN_LOCK_OUTPUTS_MAX)
        return error_set(err, STATUS_RANGE, "%zu output files to lock, at most %d", n,
                         (int)RUN_LOCK_OUTPUTS_MAX);
    for (size_t i = 0; i < n && st == STATUS_OK; i++) {
        bool in_place, seen = false;
        if (!paths[i])
            continue;
        if ((st = files_output_target(paths[i], held[nheld], &in_place, &te)) != STATUS_OK) {
            error_set(err, st, "%s %s", flags[i], te.msg);
            continue;
        }
        if (in_place)
            continue;
        for (size_t j = 0; j < nheld && !seen; j++)
            seen = strcmp(held[j], held[nheld]) == 0;
        if (seen) // two flags naming one file: one lock
            continue;
        snprintf(lock, sizeof lock, "%s.lock", held[nheld++]);
        st = take_exclusive(lock, out, err);
    }
    if (st != STATUS_OK) {
        run_lock_release(*out);
        *out = NULL;
    }
    return st;
}

static Status dir_path(const char *dir, const char *name, char *out, size_t len, ErrorInfo *err) {
    if (snprintf(out, len, "%s/%s", dir, name) >= (int)len)
        return error_set(err, STATUS_RANGE, "%.200s...: path too long", dir);
    return STATUS_OK;
}

Status run_lock_take_dir(const char *dir, RunLock **out, ErrorInfo *err) {
    char path[4200];
    *out = NULL;
    Status st = dir_path(dir, RUN_LOCK_NAME, path, sizeof path, err);
    return st == STATUS_OK ? run_lock_take(path, out, err) : st;
}

// STATUS_IO when parts of a split into another number of parts are being written in dir: their
// games overlap this split's. Lock files of such splits that nobody holds are removed.
static Status check_other_splits(const char *dir, unsigned count, ErrorInfo *err) {
    DIR *d = opendir(dir);
    if (!d)
        return error_set(err, STATUS_IO, "%s: cannot list the folder (%s)", dir, strerror(errno));
    size_t plen = strlen(RUN_LOCK_SPLIT_PREFIX);
    Status st = STATUS_OK;
    for (struct dirent *e; st == STATUS_OK && (e = readdir(d)) != NULL;) {
        char *end;
        if (strncmp(e->d_name, RUN_LOCK_SPLIT_PREFIX, plen) != 0)
            continue;
        unsigned long other = strtoul(e->d_name + plen, &end, 10);
        char path[4200];
        if (*end || other == count || dir_path(dir, e->d_name, path, sizeof path, err))
            continue;
        int fd = open(path, O_RDWR | O_CLOEXEC);
        if (fd < 0)
            continue; // removed meanwhile by its last holder
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
            unlink(path); // nobody's: a holder that opened it meanwhile sees it gone and retries
        } else if (errno == EWOULDBLOCK) {
            st = error_set(err, STATUS_IO,
                           "%s: parts of a split into %lu are being written there (%s); this "
                           "process is a part of a split into %u: the parts' games would "
                           "overlap (give the same K to every --part I/K, or wait)",
                           dir, other, path, count);
        }
        close(fd);
    }
    closedir(d);
    return st;
}

// Takes path shared (the parts of one run hold it together).
static Status take_shared(const char *path, RunLock **lock, ErrorInfo *err) {
    int fd = open_locked(path, true, err);
    return fd < 0 ? STATUS_IO : lock_add(lock, fd, path, true, err);
}

Status run_lock_take_part(const char *dir, unsigned index, unsigned count, RunLock **out,
                          ErrorInfo *err) {
    char path[4200], name[64];
    *out = NULL;
    // The folder's lock, shared: a whole-run writer (or a merge into the folder) is refused
    // while parts write, and a part while the whole-run writer writes.
    Status st = dir_path(dir, RUN_LOCK_NAME, path, sizeof path, err);
    if (st == STATUS_OK)
        st = take_shared(path, out, err);
    // The split's lock, shared, taken before the others are checked: of two processes with
    // different splits starting together, at least one sees the other.
    snprintf(name, sizeof name, RUN_LOCK_SPLIT_PREFIX "%u", count);
    if (st == STATUS_OK && (st = dir_path(dir, name, path, sizeof path, err)) == STATUS_OK)
        st = take_shared(path, out, err);
    if (st == STATUS_OK)
        st = check_other_splits(dir, count, err);
    // This part's own lock, exclusive: the same part twice would play its games twice.
    snprintf(name, sizeof name, RUN_LOCK_NAME "-part-%u-of-%u", index, count);
    if (st == STATUS_OK && (st = dir_path(dir, name, path, sizeof path, err)) == STATUS_OK)
        st = take_exclusive(path, out, err);
    if (st != STATUS_OK) {
        run_lock_release(*out);
        *out = NULL;
    }
    return st;
}

void run_lock_release(RunLock *lock) {
    if (!lock)
        return;
    for (int i = lock->count - 1; i >= 0; i--) {
        LockFile *f = &lock->files[i];
        // Removed while still locked, so a waiter that opened it sees it gone (still_linked).
        // A shared file stays: finding out whether this is its last holder would mean taking
        // it exclusively for a moment, and a part starting then would be refused.
        if (!f->shared)
            unlink(f->path);
        close(f->fd); // closing the only descriptor drops the flock
        free(f->path);
    }
    free(lock);
}
