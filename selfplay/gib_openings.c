// SPDX-License-Identifier: MIT
// Openings files from imported .gib games (gib_openings.h).
#include "gib_openings.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "fen.h"

typedef struct Entry {
    char fen[FEN_BUFFER];
    char *source; // "PATH:LINE" of the first record that reached it
    size_t order; // the order of arrival, which keeps the first of equal FENs first
} Entry;

struct GibOpenings {
    int plies;
    Entry *e;
    size_t n, cap;
    Board board;
};

Status gib_openings_open(int plies, GibOpenings **out, ErrorInfo *err) {
    *out = calloc(1, sizeof **out);
    if (!*out)
        return error_set(err, STATUS_NOMEM, "out of memory");
    (*out)->plies = plies;
    return STATUS_OK;
}

Status gib_openings_add(GibOpenings *o, const char *path, const GibGame *games, size_t n,
                        ErrorInfo *err) {
    for (size_t i = 0; i < n; i++) {
        const GibGame *g = &games[i];
        if (g->nmoves <= o->plies)
            continue;
        if (o->n == o->cap) {
            size_t cap = o->cap ? o->cap * 2 : 64;
            Entry *e = realloc(o->e, cap * sizeof *e);
            if (!e)
                return error_set(err, STATUS_NOMEM, "out of memory");
            o->e = e, o->cap = cap;
        }
        Entry *e = &o->e[o->n];
        size_t len = strlen(path) + 16;
        if (!(e->source = malloc(len)))
            return error_set(err, STATUS_NOMEM, "out of memory");
        snprintf(e->source, len, "%s:%d", path, g->line);
        for (char *c = e->source; *c; c++) // a comment is one line
            *c = (unsigned char)*c < ' ' ? '?' : *c;
        formation_setup(&o->board, g->cho, g->han);
        for (int k = 0; k < o->plies; k++)
            board_make(&o->board, g->moves[k]);
        fen_write(&o->board, e->fen, sizeof e->fen);
        e->order = o->n++;
    }
    return STATUS_OK;
}

static int compare_entries(const void *a, const void *b) {
    const Entry *x = a, *y = b;
    int c = strcmp(x->fen, y->fen);
    return c ? c : x->order < y->order ? -1 : x->order > y->order;
}

Status gib_openings_write(GibOpenings *o, FILE *f, const char *name, size_t *count,
                          ErrorInfo *err) {
    if (o->n)
        qsort(o->e, o->n, sizeof *o->e, compare_entries);
    fprintf(f,
            "# variant: janggi\n"
            "# The positions after %d plies of imported .gib games (hansu-selfplay gib "
            "--openings,\n# docs/gib.md), each once, sorted; the comment before each names the "
            "first record\n# that reached it.\n",
            o->plies);
    *count = 0;
    for (size_t i = 0; i < o->n; i++) {
        if (i > 0 && strcmp(o->e[i].fen, o->e[i - 1].fen) == 0)
            continue;
        fprintf(f, "# %s\n%s\n", o->e[i].source, o->e[i].fen);
        (*count)++;
    }
    errno = 0;
    if (fflush(f) != 0 || ferror(f))
        return error_set(err, STATUS_IO, "%s: write failed (%s)", name,
                         strerror(errno ? errno : EIO));
    return STATUS_OK;
}

void gib_openings_free(GibOpenings *o) {
    if (!o)
        return;
    for (size_t i = 0; i < o->n; i++)
        free(o->e[i].source);
    free(o->e);
    free(o);
}
