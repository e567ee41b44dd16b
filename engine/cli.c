// SPDX-License-Identifier: MIT
// Helpers of the command-line front ends (see cli.h).
#define _GNU_SOURCE // program_invocation_short_name
#include "cli.h"

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "engine.h"
#include "files.h"

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

// Whether text is a decimal number as a user writes one: an optional sign, digits with at most
// one point (a digit on one side of it at least), an optional exponent (e or E, a sign, digits).
// strtod alone also takes hexadecimal ("0x10" is 16), "inf", "nan" and leading spaces.
static bool decimal_text(const char *s) {
    if (*s == '+' || *s == '-')
        s++;
    size_t digits = strspn(s, "0123456789");
    s += digits;
    if (*s == '.') {
        size_t frac = strspn(s + 1, "0123456789");
        digits += frac;
        s += 1 + frac;
    }
    if (!digits)
        return false;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        size_t exp = strspn(s, "0123456789");
        if (!exp)
            return false;
        s += exp;
    }
    return *s == '\0';
}

Status cli_parse_double(const char *flag, const char *text, double lo, double hi, double *out,
                        ErrorInfo *err) {
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (!decimal_text(text) || errno || end == text || *end || !isfinite(v))
        return error_set(err, STATUS_SYNTAX, "%s: '%s' is not a finite number", flag, text);
    if (!(v >= lo && v <= hi))
        return error_set(err, STATUS_RANGE, "%s: %s is out of range %g..%g", flag, text, lo, hi);
    *out = v;
    return STATUS_OK;
}

// Why an earlier write to standard output failed, its errno gone (the stream dropped what it
// could not write): a device says so again to an empty write (/dev/full: ENOSPC); a regular
// file at the size limit (ulimit -f) is EFBIG, on a full file system ENOSPC; 0 unknown.
static int lost_cause(void) {
    struct stat sb;
    struct statvfs vfs;
    struct rlimit rl;
    if (write(STDOUT_FILENO, "", 0) < 0)
        return errno;
    if (fstat(STDOUT_FILENO, &sb) != 0 || !S_ISREG(sb.st_mode))
        return 0;
    if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (rlim_t)sb.st_size >= rl.rlim_cur)
        return EFBIG;
    return fstatvfs(STDOUT_FILENO, &vfs) == 0 && vfs.f_bavail == 0 ? ENOSPC : 0;
}

// At exit: what the program printed is flushed, and a write of it that failed (a full disk,
// ulimit -f, /dev/full) turns the exit into a failure naming standard output; before, a
// truncated answer left with status 0. _exit: the exit under way must not be re-entered.
static void check_stdout(void) {
    bool failed = ferror(stdout) != 0;
    errno = 0;
    int code = fflush(stdout) != 0 && errno ? errno : 0;
    if (!code && !failed)
        return;
    if (!code)
        code = lost_cause();
    fprintf(stderr, "%s: standard output: %s\n", program_invocation_short_name,
            code ? strerror(code) : "a write failed");
    _exit(1);
}

void cli_init(void) {
    signal(SIGXFSZ, SIG_IGN);
    atexit(check_stdout);
    engine_init();
}

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
    OutputFile o;
    Status st = files_output_open(path, &o, err);
    if (st != STATUS_OK)
        return st;
    // A failed write leaves the stream's error flag set: the commit reports it and removes
    // the temporary.
    fwrite(data, 1, len, o.f);
    return files_output_commit(&o, err);
}

Status cli_check_writable(const char *flag, const char *path, ErrorInfo *err) {
    char target[FILES_PATH_MAX], dir[FILES_PATH_MAX], probe[FILES_PATH_MAX + 32];
    bool in_place;
    ErrorInfo te;
    if (!path[0])
        return error_set(err, STATUS_IO, "%s: an empty file name", flag);
    if (files_output_target(path, target, &in_place, &te) != STATUS_OK)
        return error_set(err, STATUS_IO, "%s %s", flag, te.msg);
    // A device or FIFO is written into: opening it now could block (a FIFO) or lose output.
    if (in_place)
        return access(target, W_OK) == 0
                   ? STATUS_OK
                   : error_set(err, STATUS_IO, "%s %s: %s", flag, path, strerror(errno));
    // The temporary goes beside the target, a link's target in its own folder.
    snprintf(dir, sizeof dir, "%s", target);
    snprintf(probe, sizeof probe, "%s/.hansu-probe-XXXXXX", dirname(dir));
    int fd = mkstemp(probe);
    if (fd < 0)
        return error_set(err, STATUS_IO, "%s %s: cannot write into its folder %s (%s)", flag, path,
                         dir, strerror(errno));
    close(fd);
    unlink(probe);
    return STATUS_OK;
}
