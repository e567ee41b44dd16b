// SPDX-License-Identifier: MIT
// Files named by the user (files.h).
#define _POSIX_C_SOURCE 200809L
#include "files.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

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
