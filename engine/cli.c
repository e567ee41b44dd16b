// SPDX-License-Identifier: MIT
// Helpers of the command-line front ends (see cli.h).
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

Status cli_parse_i64(const char *flag, const char *text, int64_t lo, int64_t hi, int64_t *out,
                     ErrorInfo *err) {
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || end == text || *end)
        return error_set(err, STATUS_SYNTAX, "%s: '%s' is not a number", flag, text);
    if (v < lo || v > hi)
        return error_set(err, STATUS_RANGE, "%s: %s is out of range %lld..%lld", flag, text,
                         (long long)lo, (long long)hi);
    *out = v;
    return STATUS_OK;
}

Status cli_parse_u64(const char *flag, const char *text, uint64_t max, uint64_t *out,
                     ErrorInfo *err) {
    char *end;
    errno = 0;
    // strtoull would wrap "-1" round to the largest value.
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text || *end || strchr(text, '-'))
        return error_set(err, STATUS_SYNTAX, "%s: '%s' is not a number", flag, text);
    if (v > max)
        return error_set(err, STATUS_RANGE, "%s: %s is out of range 0..%llu", flag, text,
                         (unsigned long long)max);
    *out = v;
    return STATUS_OK;
}

Status cli_parse_int(const char *flag, const char *text, int lo, int hi, int *out, ErrorInfo *err) {
    int64_t v = 0;
    Status st = cli_parse_i64(flag, text, lo, hi, &v, err);
    if (st == STATUS_OK)
        *out = (int)v;
    return st;
}

Status cli_parse_double(const char *flag, const char *text, double lo, double hi, double *out,
                        ErrorInfo *err) {
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end || !isfinite(v))
        return error_set(err, STATUS_SYNTAX, "%s: '%s' is not a finite number", flag, text);
    if (!(v >= lo && v <= hi))
        return error_set(err, STATUS_RANGE, "%s: %s is out of range %g..%g", flag, text, lo, hi);
    *out = v;
    return STATUS_OK;
}

void cli_ignore_sigxfsz(void) { signal(SIGXFSZ, SIG_IGN); }

void cli_json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

void cli_json_number(FILE *f, double v) {
    if (isfinite(v))
        fprintf(f, "%.10g", v);
    else
        fputs("null", f);
}

Status cli_write_atomic(const char *path, const char *data, size_t len, ErrorInfo *err) {
    char tmp[4200];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return error_set(err, STATUS_RANGE, "%.200s...: path too long", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return error_set(err, STATUS_IO, "%s: %s", tmp, strerror(errno));
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(fd, data + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    int saved = done < len ? (errno ? errno : EIO) : 0;
    if (!saved && fsync(fd) != 0)
        saved = errno;
    if (close(fd) != 0 && !saved)
        saved = errno;
    if (!saved && rename(tmp, path) != 0)
        saved = errno;
    if (saved) {
        unlink(tmp);
        return error_set(err, STATUS_IO, "%s: %s", path, strerror(saved));
    }
    return STATUS_OK;
}

Status cli_check_writable(const char *flag, const char *path, ErrorInfo *err) {
    struct stat sb;
    if (!path[0])
        return error_set(err, STATUS_IO, "%s: an empty file name", flag);
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
        return error_set(err, STATUS_IO, "%s %s: a folder, not a file", flag, path);
    char dir[4096], probe[4200];
    snprintf(dir, sizeof dir, "%s", path);
    snprintf(probe, sizeof probe, "%s/.hansu-probe-XXXXXX", dirname(dir));
    int fd = mkstemp(probe);
    if (fd < 0)
        return error_set(err, STATUS_IO, "%s %s: cannot write into its folder %s (%s)", flag, path,
                         dir, strerror(errno));
    close(fd);
    unlink(probe);
    return STATUS_OK;
}
