// SPDX-License-Identifier: MIT
// .gib text as a stream of UTF-8 lines (gib_text.h): one pass to judge the bytes and decide the
// encoding, a second to hand out the lines converted.
#define _POSIX_C_SOURCE 200809L // getline
#include "gib_text.h"

#include <errno.h>
#include <iconv.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct GibText {
    FILE *f;
    const char *name;
    bool cp949; // the file is CP949 (decided by gib_text_open)
    iconv_t cd; // CP949 to UTF-8, (iconv_t)-1 until first needed
    char *raw;  // getline's buffer
    size_t raw_cap;
    char *utf8; // a CP949 line converted
    size_t utf8_cap;
    int line; // lines handed out (or judged, in the first pass)
};

// Where a reading of the text stopped: its line (0 when it did not), the byte's offset in the
// line, the byte.
typedef struct Stop {
    int line;
    size_t col;
    unsigned char byte;
} Stop;

// The offset of the first byte of s[0..len) that is not well-formed UTF-8; len when none.
static size_t utf8_valid_prefix(const unsigned char *s, size_t len) {
    for (size_t i = 0; i < len;) {
        unsigned c = s[i];
        size_t n = c < 0x80             ? 0
                   : (c & 0xE0) == 0xC0 ? 1
                   : (c & 0xF0) == 0xE0 ? 2
                   : (c & 0xF8) == 0xF0 ? 3
                                        : 9;
        if (n == 9 || (n == 1 && c < 0xC2) || (n > 0 && i + n >= len))
            return i;
        for (size_t k = 1; k <= n; k++)
            if ((s[i + k] & 0xC0) != 0x80)
                return i;
        i += n + 1;
    }
    return len;
}

// Reads the next line into t->raw without its "\n", 0xFF and Ctrl-Z bytes dropped; *len its
// length, -1 at the end. STATUS_FORMAT for a control byte (binary data), STATUS_IO.
static Status read_raw(GibText *t, long *len, ErrorInfo *err) {
    errno = 0;
    ssize_t got = getline(&t->raw, &t->raw_cap, t->f);
    if (got < 0) {
        *len = -1;
        if (ferror(t->f))
            return error_set(err, errno == ENOMEM ? STATUS_NOMEM : STATUS_IO,
                             "%s: read failed (%s)", t->name, strerror(errno ? errno : EIO));
        return STATUS_OK;
    }
    t->line++;
    size_t n = 0;
    for (ssize_t i = 0; i < got; i++) {
        unsigned char c = (unsigned char)t->raw[i];
        if (c == '\n' && i == got - 1)
            break;
        if (c == 0 || (c < 0x20 && c != '\r' && c != '\t' && c != 0x1A))
            return error_set(err, STATUS_FORMAT,
                             "%s:%d: binary data (byte 0x%02x), not a .gib record", t->name,
                             t->line, c);
        if (c != 0xFF && c != 0x1A)
            t->raw[n++] = (char)c;
    }
    // A line ended by CR LF (the Windows programs that write .gib records) is the line without
    // its CR.
    if (n > 0 && t->raw[n - 1] == '\r')
        n--;
    t->raw[n] = '\0';
    *len = (long)n;
    return STATUS_OK;
}

// Converts t->raw[0..len) from CP949 into t->utf8. On a byte CP949 does not read, returns
// false with its offset in *bad.
static bool from_cp949(GibText *t, size_t len, size_t *bad, Status *st, ErrorInfo *err) {
    *st = STATUS_OK;
    if (t->cd == (iconv_t)-1 && (t->cd = iconv_open("UTF-8", "CP949")) == (iconv_t)-1) {
        *st = error_set(err, STATUS_FORMAT, "%s: not UTF-8, and CP949 cannot be converted here",
                        t->name);
        return false;
    }
    if (t->utf8_cap < len * 2 + 1) { // two CP949 bytes are three of UTF-8
        char *p = realloc(t->utf8, len * 2 + 1);
        if (!p) {
            *st = error_set(err, STATUS_NOMEM, "%s: out of memory", t->name);
            return false;
        }
        t->utf8 = p, t->utf8_cap = len * 2 + 1;
    }
    char *in = t->raw, *out = t->utf8;
    size_t left_in = len, left_out = t->utf8_cap - 1;
    iconv(t->cd, NULL, NULL, NULL, NULL);
    bool ok = iconv(t->cd, &in, &left_in, &out, &left_out) != (size_t)-1;
    *out = '\0';
    *bad = (size_t)(in - t->raw);
    return ok;
}

static bool has_high_byte(const char *s, size_t len) {
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)s[i] >= 0x80)
            return true;
    return false;
}

// The first pass: every line judged as UTF-8 and, until it fails, as CP949; the whole file
// checked for binary data.
static Status judge(GibText *t, ErrorInfo *err) {
    Stop utf8 = {0}, cp949 = {0};
    Status cp949_st = STATUS_OK; // CP949 cannot be read here: an error only for a file not UTF-8
    ErrorInfo cp949_err;
    for (;;) {
        long len;
        Status st = read_raw(t, &len, err);
        if (st != STATUS_OK)
            return st;
        if (len < 0)
            break;
        size_t n = (size_t)len, off = utf8_valid_prefix((unsigned char *)t->raw, n);
        if (!utf8.line && off < n)
            utf8 = (Stop){t->line, off, (unsigned char)t->raw[off]};
        if (cp949.line || cp949_st != STATUS_OK || !has_high_byte(t->raw, n))
            continue;
        if (!from_cp949(t, n, &off, &cp949_st, &cp949_err) && cp949_st == STATUS_OK)
            cp949 = (Stop){t->line, off, (unsigned char)t->raw[off]};
    }
    t->cp949 = utf8.line != 0;
    if (!t->cp949)
        return STATUS_OK;
    if (cp949_st != STATUS_OK) {
        *err = cp949_err;
        return cp949_st;
    }
    if (!cp949.line)
        return STATUS_OK;
    // The reading that went further names the place: UTF-8 text with a bad byte in it fails as
    // CP949 early, at its first Hangul.
    bool later = cp949.line > utf8.line || (cp949.line == utf8.line && cp949.col > utf8.col);
    Stop at = later ? cp949 : utf8;
    return error_set(err, STATUS_FORMAT,
                     "%s:%d: neither UTF-8 nor CP949 (EUC-KR) text (byte 0x%02x)", t->name, at.line,
                     at.byte);
}

Status gib_text_open(FILE *f, const char *name, GibText **out, ErrorInfo *err) {
    GibText *t = calloc(1, sizeof *t);
    *out = NULL;
    if (!t)
        return error_set(err, STATUS_NOMEM, "%s: out of memory", name);
    t->f = f, t->name = name, t->cd = (iconv_t)-1;
    Status st = judge(t, err);
    if (st == STATUS_OK && fseek(f, 0, SEEK_SET) != 0)
        st = error_set(err, STATUS_IO, "%s: cannot read it twice (%s)", name, strerror(errno));
    if (st != STATUS_OK) {
        gib_text_close(t);
        return st;
    }
    clearerr(f);
    t->line = 0;
    *out = t;
    return STATUS_OK;
}

Status gib_text_line(GibText *t, char **line, ErrorInfo *err) {
    long len;
    *line = NULL;
    Status st = read_raw(t, &len, err);
    if (st != STATUS_OK || len < 0)
        return st;
    if (!t->cp949) {
        bool bom = t->line == 1 && len >= 3 && memcmp(t->raw, "\xEF\xBB\xBF", 3) == 0;
        if (utf8_valid_prefix((unsigned char *)t->raw, (size_t)len) < (size_t)len)
            return error_set(err, STATUS_FORMAT, "%s:%d: changed while read (not UTF-8 now)",
                             t->name, t->line);
        *line = t->raw + (bom ? 3 : 0);
        return STATUS_OK;
    }
    size_t bad;
    if (!from_cp949(t, (size_t)len, &bad, &st, err))
        return st != STATUS_OK
                   ? st
                   : error_set(err, STATUS_FORMAT, "%s:%d: changed while read (not CP949 now)",
                               t->name, t->line);
    *line = t->utf8;
    return STATUS_OK;
}

void gib_text_close(GibText *t) {
    if (!t)
        return;
    if (t->cd != (iconv_t)-1)
        iconv_close(t->cd);
    free(t->raw);
    free(t->utf8);
    free(t);
}
