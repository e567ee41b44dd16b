// SPDX-License-Identifier: MIT
// EPD and PGN opening books (book.h).
#define _GNU_SOURCE
#include "book.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "board.h"
#include "fen.h"
#include "pgn_read.h"
#include "variant.h"

BookFormat book_format_of(const char *path) {
    size_t n = strlen(path);
    if (n >= 4 && strcasecmp(path + n - 4, ".epd") == 0)
        return BOOK_EPD;
    if (n >= 4 && strcasecmp(path + n - 4, ".pgn") == 0)
        return BOOK_PGN;
    return BOOK_FEN;
}

// Appends the position of b (found at file line `line`) to out.
static Status add(Openings *out, const Board *b, int line, const char *path, ErrorInfo *err) {
    if (out->count == OPENINGS_MAX)
        return error_set(err, STATUS_RANGE, "openings %s:%d: more than %d positions", path, line,
                         OPENINGS_MAX);
    fen_write(b, out->fen[out->count], FEN_BUFFER);
    out->line[out->count++] = line;
    return STATUS_OK;
}

// One EPD line: its first four fields as a FEN (the move counters are not EPD's).
static Status epd_line(char *text, int lineno, const char *path, const Variant *v, Board *b,
                       Openings *out, ErrorInfo *err) {
    char fields[4][128], fen[4 * 128 + 8];
    if (sscanf(text, "%127s %127s %127s %127s", fields[0], fields[1], fields[2], fields[3]) != 4)
        return error_set(err, STATUS_FORMAT,
                         "openings %s:%d: not an EPD line (board, side, "
                         "castling, en passant): \"%.60s\"",
                         path, lineno, text);
    snprintf(fen, sizeof fen, "%s %s %s %s 0 1", fields[0], fields[1], fields[2], fields[3]);
    ErrorInfo fe;
    if (fen_parse_variant(b, v, fen, &fe) != STATUS_OK)
        return error_set(err, STATUS_FORMAT, "openings %s:%d: %s", path, lineno, fe.msg);
    return add(out, b, lineno, path, err);
}

// Where a PGN book's games go: each one's position after its first plies.
typedef struct BookPgn {
    const char *path;
    Board *b;
    Openings *out;
} BookPgn;

// A game of a PGN book: its position after the plies read (pgn_read stops at max_plies), less
// the move that ends the game, if one does: the book keeps a position still to be played.
static Status book_game(const PgnReadGame *g, void *arg, ErrorInfo *err) {
    BookPgn *bp = arg;
    fen_parse_variant(bp->b, g->variant, g->start_fen, NULL); // checked by pgn_read
    int kept = g->nmoves - (g->over ? 1 : 0);
    for (int i = 0; i < kept; i++)
        board_make(bp->b, g->moves[i]);
    return add(bp->out, bp->b, g->first_line, bp->path, err);
}

// An EPD book, line by line.
static Status read_epd(FILE *f, const char *path, const Variant *v, Board *b, Openings *out,
                       ErrorInfo *err) {
    char *line = NULL;
    size_t cap = 0;
    Status st = STATUS_OK;
    for (int lineno = 1; st == STATUS_OK && getline(&line, &cap, f) >= 0; lineno++) {
        line[strcspn(line, "\r\n")] = '\0';
        char *t = line + strspn(line, " \t\xef\xbb\xbf"); // blanks, a byte order mark
        if (*t && *t != '#')
            st = epd_line(t, lineno, path, v, b, out, err);
    }
    free(line);
    return st;
}

static Status read_book(const char *path, BookFormat format, int plies, const Variant *v, Board *b,
                        Openings *out, ErrorInfo *err) {
    Status st;
    if (format == BOOK_PGN) {
        PgnReadOptions opt = {.variant = v, .max_plies = plies, .prefix = "openings "};
        BookPgn bp = {.path = path, .b = b, .out = out};
        int games;
        st = pgn_read_file(path, &opt, book_game, &bp, &games, err);
    } else {
        FILE *f = fopen(path, "r");
        if (!f)
            return error_set(err, STATUS_IO, "openings %s: %s", path, strerror(errno));
        st = read_epd(f, path, v, b, out, err);
        fclose(f);
    }
    if (st == STATUS_OK && out->count == 0)
        st = error_set(err, STATUS_FORMAT, "openings %s: no position in the file", path);
    return st;
}

Status book_load(const char *path, BookFormat format, int plies, const Variant *v, Openings *out,
                 ErrorInfo *err) {
    memset(out, 0, sizeof *out);
    Board *b = malloc(sizeof *b);
    out->fen = malloc(OPENINGS_MAX * sizeof *out->fen);
    out->line = malloc(OPENINGS_MAX * sizeof *out->line);
    Status st = b && out->fen && out->line
                    ? read_book(path, format, plies, variant_or_default(v), b, out, err)
                    : error_set(err, STATUS_NOMEM, "openings %s: out of memory", path);
    free(b);
    if (st != STATUS_OK)
        openings_free(out);
    return st;
}
