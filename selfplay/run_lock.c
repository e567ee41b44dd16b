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
#include <unistd.h>

struct RunLock {
    int fd;
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

Status run_lock_take(const char *path, RunLock **out, ErrorInfo *err) {
    *out = NULL;
    // O_CLOEXEC: children (engines) must not inherit the descriptor and keep the lock alive.
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0)
        return error_set(err, STATUS_IO, "%s: cannot open the lock file (%s)", path,
                         strerror(errno));
    int r;
    while ((r = flock(fd, LOCK_EX | LOCK_NB)) != 0 && errno == EINTR)
        ;
    if (r != 0) {
        int code = errno;
        char pid[32];
        read_holder(fd, pid, sizeof pid);
        close(fd);
        if (code == EWOULDBLOCK)
            return error_set(err, STATUS_IO, "%s: locked by another writer, pid %s (wait for "
                             "it to end, or stop it, before writing here)", path, pid);
        return error_set(err, STATUS_IO, "%s: cannot lock (%s)", path, strerror(code));
    }
    char text[32];
    int len = snprintf(text, sizeof text, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, text, (size_t)len, 0) != len) {
        int code = errno;
        close(fd);
        return error_set(err, STATUS_IO, "%s: cannot write the lock file (%s)", path,
                         strerror(code));
    }
    RunLock *l = malloc(sizeof *l);
    if (!l) {
        close(fd);
        return error_set(err, STATUS_NOMEM, "%s: out of memory", path);
    }
    l->fd = fd;
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
    close(lock->fd); // closing the only descriptor drops the flock
    free(lock);
}
