// SPDX-License-Identifier: MIT
// The writer lock: flock(2) on a small file; the holder's pid is written into it for messages.
#define _GNU_SOURCE
#include "run_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

struct RunLock {
    int fd;
    char *path; // removed on release, while still locked
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

// Opens and locks path: a descriptor, or -1 with err set.
static int open_locked(const char *path, ErrorInfo *err) {
    for (;;) {
        // O_CLOEXEC: children (engines) must not inherit the descriptor.
        int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
        if (fd < 0) {
            error_set(err, STATUS_IO, "%s: cannot open the lock file (%s)", path, strerror(errno));
            return -1;
        }
        int r;
        while ((r = flock(fd, LOCK_EX | LOCK_NB)) != 0 && errno == EINTR)
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
                      "end, or stop it, before writing here)",
                      path, pid);
        else
            error_set(err, STATUS_IO, "%s: cannot lock (%s)", path, strerror(code));
        return -1;
    }
}

Status run_lock_take(const char *path, RunLock **out, ErrorInfo *err) {
    *out = NULL;
    int fd = open_locked(path, err);
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
    RunLock *l = malloc(sizeof *l);
    char *copy = strdup(path);
    if (!l || !copy) {
        free(l);
        free(copy);
        unlink(path);
        close(fd);
        return error_set(err, STATUS_NOMEM, "%s: out of memory", path);
    }
    l->fd = fd;
    l->path = copy;
    *out = l;
    return STATUS_OK;
}

Status run_lock_take_dir(const char *dir, RunLock **out, ErrorInfo *err) {
    char path[4200];
    if (snprintf(path, sizeof path, "%s/" RUN_LOCK_NAME, dir) >= (int)sizeof path) {
        *out = NULL;
        return error_set(err, STATUS_RANGE, "%.200s...: path too long", dir);
    }
    return run_lock_take(path, out, err);
}

void run_lock_release(RunLock *lock) {
    if (!lock)
        return;
    // Removed while still locked, so a waiter that opened it sees it gone (still_linked).
    unlink(lock->path);
    close(lock->fd); // closing the only descriptor drops the flock
    free(lock->path);
    free(lock);
}
