// SPDX-License-Identifier: MIT
// Openings files (openings.h): the one reader of the FEN lists that matches and self-play use,
// from a file or from a variant's compiled-in suite.
#define _POSIX_C_SOURCE 200809L // fmemopen
#include "openings.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "board.h"
#include "files.h"
#include "openings_data.h"
#include "variant.h"

// A comment line (its text after the '#'): STATUS_OK unless it is a "variant: NAME" line (key
// and name in any case) whose NAME is unknown or another variant than v.
static Status check_comment(const char *path, int lineno, const char *text, const Variant *v,
                            ErrorInfo *err) {
    static const char KEY[] = "variant";
    text += strspn(text, " \t");
    if (strncasecmp(text, KEY, sizeof KEY - 1) != 0)
        return STATUS_OK;
    text += sizeof KEY - 1;
    text += strspn(text, " \t");
    if (*text != ':')
        return STATUS_OK;
    text++;
    text += strspn(text, " \t");
    size_t len = strcspn(text, " \t");
    char name[33];
    snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), text);
    const Variant *named = len < sizeof name ? variant_find(name) : NULL;
    if (!named)
        return error_set(err, STATUS_FORMAT, "openings %s:%d: unknown variant '%s'", path, lineno,
                         name);
    if (named != v)
        return error_set(err, STATUS_FORMAT, "openings %s:%d: a file of variant '%s', not %s", path,
                         lineno, named->name, v->name);
    return STATUS_OK;
}

// Reads the openings of stream f, named path in messages (openings_load's format and errors);
// closes f.
static Status read_openings(FILE *f, const char *path, const Variant *v, Openings *out,
                            ErrorInfo *err) {
    memset(out, 0, sizeof *out);
    Status st = STATUS_OK;
    Board *b = malloc(sizeof *b);
    out->fen = malloc(OPENINGS_MAX * sizeof *out->fen);
    out->line = malloc(OPENINGS_MAX * sizeof *out->line);
    if (!b || !out->fen || !out->line) {
        st = error_set(err, STATUS_NOMEM, "openings %s: out of memory", path);
        goto cleanup;
    }
    char line[FEN_MAX_INPUT + 8];
    static const char BOM[] = "\xEF\xBB\xBF"; // UTF-8's byte order mark, as editors may write
    long len;
    for (int lineno = 1; (len = files_read_line(f, line, sizeof line)) >= 0; lineno++) {
        char *text = line;
        if (files_line_has_nul(line, len, sizeof line)) {
            st = error_set(err, STATUS_FORMAT, "openings %s:%d: a NUL byte in the line", path,
                           lineno);
            goto cleanup;
        }
        if (lineno == 1 && strncmp(text, BOM, sizeof BOM - 1) == 0)
            text += sizeof BOM - 1;
        text += strspn(text, " \t");
        if (text[0] == '#' && (st = check_comment(path, lineno, text + 1, v, err)) != STATUS_OK)
            goto cleanup;
        if (text[0] == '\0' || text[0] == '#')
            continue; // a comment, whatever its length: read whole, skipped whole
        if ((size_t)len >= sizeof line) {
            st = error_set(err, STATUS_RANGE,
                           "openings %s:%d: a line of %ld bytes, longer than a FEN can be (%d): "
                           "\"%.40s...\"",
                           path, lineno, len, FEN_MAX_INPUT, text);
            goto cleanup;
        }
        ErrorInfo fe;
        if ((st = fen_parse_variant(b, v, text, &fe)) != STATUS_OK) {
            error_set(err, st, "openings %s:%d: %s", path, lineno, fe.msg);
            goto cleanup;
        }
        if (out->count == OPENINGS_MAX) {
            st = error_set(err, STATUS_RANGE, "openings %s: more than %d", path, OPENINGS_MAX);
            goto cleanup;
        }
        fen_write(b, out->fen[out->count], FEN_BUFFER);
        out->line[out->count++] = lineno;
    }
    if (ferror(f))
        st = error_set(err, STATUS_IO, "openings %s: read error", path);
    else if (out->count == 0)
        st = error_set(err, STATUS_FORMAT, "openings %s: no FEN in the file", path);
cleanup:
    fclose(f);
    free(b);
    if (st != STATUS_OK)
        openings_free(out);
    return st;
}

Status openings_load(const char *path, const Variant *v, Openings *out, ErrorInfo *err) {
    memset(out, 0, sizeof *out);
    FILE *f;
    ErrorInfo fe;
    if (files_open_input(path, "r", &f, &fe) != STATUS_OK)
        return error_set(err, STATUS_IO, "openings %s", fe.msg);
    return read_openings(f, path, v, out, err);
}

// The index of variant v's compiled-in suite in OPENINGS_DATA, or -1.
static int builtin_index(const Variant *v) {
    for (int i = 0; OPENINGS_DATA[i].variant; i++)
        if (strcmp(OPENINGS_DATA[i].variant, v->name) == 0)
            return i;
    return -1;
}

const char *openings_builtin_name(const Variant *v) {
    int i = builtin_index(v);
    return i < 0 ? NULL : OPENINGS_DATA[i].file;
}

Status openings_load_builtin(const Variant *v, Openings *out, ErrorInfo *err) {
    memset(out, 0, sizeof *out);
    int i = builtin_index(v);
    if (i < 0)
        return error_set(err, STATUS_IO, "openings: %s has no built-in suite", v->name);
    const char *text = OPENINGS_DATA[i].text;
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    if (!f)
        return error_set(err, STATUS_NOMEM, "openings %s: %s", OPENINGS_DATA[i].file,
                         strerror(errno));
    return read_openings(f, OPENINGS_DATA[i].file, v, out, err);
}

void openings_free(Openings *o) {
    if (!o)
        return;
    free(o->fen);
    free(o->line);
    memset(o, 0, sizeof *o);
}
