// SPDX-License-Identifier: MIT
// Files named by the user (files.h).
#define _POSIX_C_SOURCE 200809L
#include "files.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const atomic_bool *stop_flag; // files_set_stop: set once at start, before any thread

Status files_open_input(const char *path, const char *mode, FILE **out, ErrorInfo *err) {
    struct stat st;
    *out = NULL;
    // stat does not open: a FIFO is told apart before fopen could block on it.
    if (stat(path, &st) != 0)
        return error_set(err, STATUS_IO, "%s: %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode))
        return error_set(err, STATUS_IO, "%s: is a folder, not a file", path);
    if (!S_ISREG(st.st_mode))
        return error_set(err, STATUS_IO, "%s: not a regular file", path);
    if (!(*out = fopen(path, mode)))
        return error_set(err, STATUS_IO, "%s: %s", path, strerror(errno));
    return STATUS_OK;
}

long files_read_line(FILE *f, char *buf, size_t cap) {
    long len = 0;
    int c, last = 0;
    while ((c = getc(f)) != EOF && c != '\n') {
        if ((size_t)len < cap - 1)
            buf[len] = (char)c;
        len++;
        last = c;
    }
    if (c == EOF && len == 0)
        return -1;
    if (last == '\r') // a "\r\n" line end: the '\r' goes with the '\n'
        len--;
    buf[(size_t)len < cap - 1 ? (size_t)len : cap - 1] = '\0';
    return len;
}

bool files_line_has_nul(const char *buf, long len, size_t cap) {
    size_t kept = (size_t)len < cap - 1 ? (size_t)len : cap - 1;
    return strlen(buf) < kept;
}

// path's symbolic links followed to the name they end at (which need not exist yet), into out.
static Status follow_links(const char *path, char *out, ErrorInfo *err) {
    char cur[FILES_PATH_MAX], link[FILES_PATH_MAX];
    if (snprintf(cur, sizeof cur, "%s", path) >= (int)sizeof cur)
        return error_set(err, STATUS_RANGE, "%.200s...: path too long", path);
    for (int hops = 0; hops < 40; hops++) {
        struct stat sb;
        if (lstat(cur, &sb) != 0 || !S_ISLNK(sb.st_mode)) {
            memcpy(out, cur, sizeof cur);
            return STATUS_OK;
        }
        ssize_t n = readlink(cur, link, sizeof link - 1);
        if (n < 0)
            return error_set(err, STATUS_IO, "%s: %s", path, strerror(errno));
        link[n] = '\0';
        // A relative link is read from the folder the link lies in.
        char *slash = strrchr(cur, '/');
        int w = link[0] == '/' || !slash
                    ? snprintf(cur, sizeof cur, "%s", link)
                    : snprintf(slash + 1, sizeof cur - (size_t)(slash + 1 - cur), "%s", link);
        if (w < 0 || strlen(cur) >= sizeof cur - 1)
            return error_set(err, STATUS_RANGE, "%.200s: its link's target is too long", path);
    }
    return error_set(err, STATUS_IO, "%s: %s", path, strerror(ELOOP));
}

Status files_output_target(const char *path, char *target, bool *in_place, ErrorInfo *err) {
    struct stat sb;
    *in_place = false;
    if (stat(path, &sb) != 0) {
        if (errno != ENOENT)
            return error_set(err, STATUS_IO, "%s: %s", path, strerror(errno));
        return follow_links(path, target, err); // a new file, or a link to one
    }
    if (S_ISDIR(sb.st_mode))
        return error_set(err, STATUS_IO, "%s: a folder, not a file", path);
    if (S_ISSOCK(sb.st_mode))
        return error_set(err, STATUS_IO, "%s: a socket, not a file", path);
    if (S_ISREG(sb.st_mode))
        return follow_links(path, target, err);
    // A device or FIFO is opened by its own name: a link to one (/dev/stdout, /dev/fd/N for a
    // pipe) may not point to a name that can be opened again.
    if (snprintf(target, FILES_PATH_MAX, "%s", path) >= FILES_PATH_MAX)
        return error_set(err, STATUS_RANGE, "%.200s...: path too long", path);
    *in_place = true;
    return STATUS_OK;
}

Status files_output_side(const char *path, const char *suffix, char *out, ErrorInfo *err) {
    bool in_place;
    Status st = files_output_target(path, out, &in_place, err);
    if (st != STATUS_OK)
        return st;
    if (in_place)
        return error_set(err, STATUS_IO, "%s is a device or FIFO, not a file: no %s%s beside it",
                         path, path, suffix);
    size_t len = strlen(out);
    if (len + strlen(suffix) >= FILES_PATH_MAX)
        return error_set(err, STATUS_RANGE, "%.200s...: path too long", path);
    memcpy(out + len, suffix, strlen(suffix) + 1);
    return STATUS_OK;
}

void files_set_stop(const atomic_bool *stop) { stop_flag = stop; }

int files_open_write(const char *path, int flags, mode_t mode) {
    struct stat sb;
    flags |= O_WRONLY | O_CLOEXEC;
    if (stat(path, &sb) != 0 || !S_ISFIFO(sb.st_mode))
        return open(path, flags, mode);
    for (;;) {
        // O_NONBLOCK: ENXIO while the FIFO has no reader, where a plain open(2) would block.
        int fd = open(path, flags | O_NONBLOCK, mode);
        if (fd >= 0) {
            int fl = fcntl(fd, F_GETFL);
            if (fl >= 0 && fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == 0)
                return fd;
            int code = errno;
            close(fd);
            errno = code;
            return -1;
        }
        if (errno != ENXIO)
            return -1;
        struct timespec step = {0, 50 * 1000 * 1000};
        bool interrupted = nanosleep(&step, NULL) != 0; // a handled signal ends the sleep
        if ((stop_flag && atomic_load(stop_flag)) || (interrupted && !stop_flag)) {
            errno = EINTR;
            return -1;
        }
    }
}

Status files_output_open(const char *path, OutputFile *o, ErrorInfo *err) {
    memset(o, 0, sizeof *o);
    o->name = path;
    bool in_place;
    Status st = files_output_target(path, o->target, &in_place, err);
    if (st != STATUS_OK)
        return st;
    if (!in_place)
        snprintf(o->tmp, sizeof o->tmp, "%s.tmp", o->target);
    // Written in place: no O_CREAT, no O_TRUNC, nothing but the device or FIFO is touched.
    int fd = in_place ? files_open_write(o->target, O_NOCTTY, 0)
                      : open(o->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
        st = errno == EINTR ? error_set(err, STATUS_IO,
                                        "%s: stopped while waiting for a reader of the FIFO", path)
                            : error_set(err, STATUS_IO, "%s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        if (fd >= 0 && o->tmp[0])
            unlink(o->tmp);
        o->tmp[0] = '\0';
    }
    return st;
}

Status files_output_commit(OutputFile *o, ErrorInfo *err) {
    // A stream whose write failed before keeps its error flag, not always its unwritten bytes
    // (a second fflush may then succeed): the cause is errno as that write left it.
    int saved = ferror(o->f) ? (errno ? errno : EIO) : 0;
    errno = 0;
    if (!saved && fflush(o->f) != 0)
        saved = errno ? errno : EIO;
    if (!saved && o->tmp[0] && fsync(fileno(o->f)) != 0)
        saved = errno;
    if (fclose(o->f) != 0 && !saved)
        saved = errno;
    o->f = NULL;
    if (!saved && o->tmp[0] && rename(o->tmp, o->target) != 0)
        saved = errno;
    if (saved) {
        files_output_abort(o);
        return error_set(err, STATUS_IO, "%s: %s", o->name, strerror(saved));
    }
    o->tmp[0] = '\0';
    return STATUS_OK;
}

void files_output_abort(OutputFile *o) {
    if (o->f)
        fclose(o->f);
    o->f = NULL;
    if (o->tmp[0])
        unlink(o->tmp);
    o->tmp[0] = '\0';
}
