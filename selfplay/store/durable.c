// SPDX-License-Identifier: MIT
// Crash-safe file replacement with write, fsync and rename (POSIX).
#include "durable.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static Status io_fail(ErrorInfo *err, const char *path, const char *what) {
    return error_set(err, STATUS_IO, "%s: %s failed (%s)", path, what, strerror(errno));
}

static Status fsync_open(const char *path, int flags, ErrorInfo *err) {
    int fd = open(path, flags);
    if (fd < 0)
        return io_fail(err, path, "opening for fsync");
    Status st = fsync(fd) < 0 ? io_fail(err, path, "fsync") : STATUS_OK;
    if (close(fd) < 0 && st == STATUS_OK)
        st = io_fail(err, path, "close");
    return st;
}

Status durable_write(const char *path, const void *data, size_t len, ErrorInfo *err) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return io_fail(err, path, "creating the file");
    Status st = STATUS_OK;
    for (size_t done = 0; st == STATUS_OK && done < len;) {
        ssize_t n = write(fd, (const char *)data + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = ENOSPC;
            st = io_fail(err, path, "writing the file");
        }
        done += n > 0 ? (size_t)n : 0;
    }
    if (st == STATUS_OK && fsync(fd) < 0)
        st = io_fail(err, path, "fsync");
    if (close(fd) < 0 && st == STATUS_OK)
        st = io_fail(err, path, "closing the file");
    return st;
}

Status durable_fsync(const char *path, ErrorInfo *err) { return fsync_open(path, O_RDONLY, err); }

Status durable_rename(const char *tmp, const char *final_path, ErrorInfo *err) {
    if (rename(tmp, final_path) < 0)
        return io_fail(err, final_path, "renaming the finished file");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", final_path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        *(slash == dir ? slash + 1 : slash) = 0;
    return fsync_open(dir, O_RDONLY | O_DIRECTORY, err);
}

Status durable_folder_ready(const char *dir, bool resume, ErrorInfo *err) {
    struct stat sb;
    if (resume && (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)))
        return error_set(err, STATUS_IO, "nothing to resume in %s (%s)", dir,
                         stat(dir, &sb) != 0 ? strerror(errno) : "not a folder");
    if (mkdir(dir, 0777) < 0 && errno != EEXIST)
        return error_set(err, STATUS_IO, "%s: cannot create the folder (%s)", dir, strerror(errno));
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return error_set(err, STATUS_IO, "%s: not a folder", dir);
    if (access(dir, W_OK | X_OK) < 0)
        return error_set(err, STATUS_IO, "%s: folder not writable (%s)", dir, strerror(errno));
    return STATUS_OK;
}
