// SPDX-License-Identifier: MIT
// Openings files (openings.h): the one reader of the FEN lists that matches and self-play use.
#include "openings.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "variant.h"

static const char VARIANT_TAG[] = "# variant:";

// A "# variant: NAME" line: STATUS_OK when NAME is v's name (or the line is another comment).
static Status check_variant_line(const char *path, int lineno, const char *line, const Variant *v,
                                 ErrorInfo *err) {
    if (strncmp(line, VARIANT_TAG, sizeof VARIANT_TAG - 1) != 0)
        return STATUS_OK;
    const char *name = line + sizeof VARIANT_TAG - 1;
    name += strspn(name, " \t");
    size_t len = strcspn(name, " \t");
    if (len != strlen(v->name) || strncmp(name, v->name, len) != 0)
        return error_set(err, STATUS_FORMAT, "openings %s:%d: a file of variant '%.*s', not %s",
                         path, lineno, (int)(len > 32 ? 32 : len), name, v->name);
    return STATUS_OK;
}

Status openings_load(const char *path, const Variant *v, Openings *out, ErrorInfo *err) {
    memset(out, 0, sizeof *out);
    Status st = STATUS_OK;
    Board *b = malloc(sizeof *b);
    FILE *f = NULL;
    out->fen = malloc(OPENINGS_MAX * sizeof *out->fen);
    out->line = malloc(OPENINGS_MAX * sizeof *out->line);
    if (!b || !out->fen || !out->line) {
        st = error_set(err, STATUS_NOMEM, "openings %s: out of memory", path);
        goto cleanup;
    }
    if (!(f = fopen(path, "r"))) {
        st = error_set(err, STATUS_IO, "openings %s: %s", path, strerror(errno));
        goto cleanup;
    }
    char line[FEN_MAX_INPUT + 8];
    for (int lineno = 1; fgets(line, sizeof line, f); lineno++) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' && (st = check_variant_line(path, lineno, line, v, err)) != STATUS_OK)
            goto cleanup;
        if (line[0] == '\0' || line[0] == '#')
            continue;
        ErrorInfo fe;
        if ((st = fen_parse_variant(b, v, line, &fe)) != STATUS_OK) {
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
    if (f)
        fclose(f);
    free(b);
    if (st != STATUS_OK)
        openings_free(out);
    return st;
}

void openings_free(Openings *o) {
    if (!o)
        return;
    free(o->fen);
    free(o->line);
    memset(o, 0, sizeof *o);
}
