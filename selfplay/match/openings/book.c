// SPDX-License-Identifier: MIT
// EPD and PGN opening books (book.h).
#define _GNU_SOURCE
#include "book.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "board.h"
#include "fen.h"
#include "notation.h"
#include "rules.h"
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

// A PGN game being read: its tags, then its moves applied to the board.
typedef struct PgnReader {
    const char *path;
    const Variant *v;
    int plies; // plies to keep (< 0: all)
    Board *b;
    bool in_game; // a tag or a move of the current game seen
    bool started; // its start position set up (at its first move or its end)
    bool done;    // enough plies: the rest of its moves are skipped
    int first_line, played;
    char fen[FEN_BUFFER]; // its [FEN] tag, "" for the variant's start
    int comment_line;     // the line of a {comment} still open (over lines), 0: none
    int rav, rav_line;    // (variations) open and the line of the outermost
} PgnReader;

static Status pgn_start(PgnReader *r, ErrorInfo *err) {
    ErrorInfo fe;
    const char *fen = r->fen[0] ? r->fen : r->v->start_fen;
    r->started = true;
    if (fen_parse_variant(r->b, r->v, fen, &fe) != STATUS_OK)
        return error_set(err, STATUS_FORMAT, "openings %s:%d: [FEN]: %s", r->path, r->first_line,
                         fe.msg);
    return STATUS_OK;
}

// The end of a game: its position added (a game with neither tag nor move adds nothing).
static Status pgn_end(PgnReader *r, Openings *out, ErrorInfo *err) {
    Status st = STATUS_OK;
    if (r->in_game && !r->started)
        st = pgn_start(r, err);
    if (r->in_game && st == STATUS_OK)
        st = add(out, r->b, r->first_line, r->path, err);
    r->in_game = r->started = r->done = false;
    r->played = 0;
    r->fen[0] = '\0';
    return st;
}

// A tag line: FEN and Variant are read, the others skipped. A tag after moves begins a game.
static Status pgn_tag(PgnReader *r, const char *line, int lineno, Openings *out, ErrorInfo *err) {
    Status st = STATUS_OK;
    if (r->started && (st = pgn_end(r, out, err)) != STATUS_OK)
        return st;
    if (!r->in_game)
        r->first_line = lineno;
    r->in_game = true;
    char name[32], value[FEN_BUFFER];
    if (sscanf(line, "[%31s \"%[^\"]\"]", name, value) != 2)
        return STATUS_OK; // an empty value or an odd tag: nothing Hansu needs
    if (!strcmp(name, "FEN"))
        snprintf(r->fen, sizeof r->fen, "%s", value);
    if (!strcmp(name, "Variant") && strcasecmp(value, r->v->name) != 0)
        return error_set(err, STATUS_FORMAT, "openings %s:%d: a game of %s, not %s", r->path,
                         lineno, value, r->v->name);
    return STATUS_OK;
}

static bool is_result(const char *w) {
    return !strcmp(w, "1-0") || !strcmp(w, "0-1") || !strcmp(w, "1/2-1/2") || !strcmp(w, "*");
}

// One word of movetext: a move number, result or NAG is skipped, a move applied.
static Status pgn_word(PgnReader *r, const char *w, int lineno, Openings *out, ErrorInfo *err) {
    if (is_result(w))
        return pgn_end(r, out, err);
    size_t number = strspn(w, "0123456789");
    if (number && w[number] == '.') { // "12." or "12...", alone or glued to its move ("12.b1c3")
        w += number + strspn(w + number, ".");
        if (!*w)
            return STATUS_OK;
    }
    if (w[0] == '$')
        return STATUS_OK;
    if (!r->in_game)
        r->first_line = lineno;
    r->in_game = true;
    Status st = STATUS_OK;
    if (!r->started && (st = pgn_start(r, err)) != STATUS_OK)
        return st;
    if (r->done || (r->plies >= 0 && r->played >= r->plies)) {
        r->done = true;
        return STATUS_OK;
    }
    Move m;
    ErrorInfo me;
    char word[32];
    size_t len = strcspn(w, "!?+#"); // annotations and check marks
    if (len >= sizeof word)
        return error_set(err, STATUS_FORMAT, "openings %s:%d: move \"%.40s...\": too long", r->path,
                         lineno, w);
    memcpy(word, w, len);
    word[len] = '\0';
    if (move_parse_uci(r->b, word, &m, &me) != STATUS_OK)
        return error_set(err, STATUS_FORMAT, "openings %s:%d: move \"%s\": %s", r->path, lineno, w,
                         me.msg);
    board_make(r->b, m);
    GameResult res;
    if (rules_game_over(r->b, &res)) { // the book keeps a position still to be played
        board_unmake(r->b);
        r->done = true;
        return STATUS_OK;
    }
    r->played++;
    return STATUS_OK;
}

// A malformed movetext at line lineno: what, the line where the '{' or '(' concerned opened
// (at > 0), and the game's first line.
static Status pgn_error(const PgnReader *r, int lineno, const char *what, int at, ErrorInfo *err) {
    char opened[32] = "";
    if (at > 0)
        snprintf(opened, sizeof opened, " opened at line %d", at);
    return error_set(err, STATUS_FORMAT, "openings %s:%d: %s%s (game of line %d)", r->path, lineno,
                     what, opened, r->in_game ? r->first_line : lineno);
}

// A word of movetext read whole: applied outside variations; a result inside one ends the game
// with a '(' left open.
static Status pgn_token(PgnReader *r, const char *w, int lineno, Openings *out, ErrorInfo *err) {
    if (r->rav == 0)
        return pgn_word(r, w, lineno, out, err);
    if (is_result(w))
        return pgn_error(r, lineno, "the game ends inside the variation '('", r->rav_line, err);
    return STATUS_OK;
}

// The movetext of one line (PGN standard, 8.2.5 and 8.2.6). A {comment} ends at the first '}',
// over lines if need be, and a ';' comment at the end of the line: neither nests, and nothing
// inside them counts. Outside comments, (variations) nest and are skipped.
static Status pgn_moves(PgnReader *r, const char *line, int lineno, Openings *out, ErrorInfo *err) {
    char word[64];
    size_t n = 0;
    Status st = STATUS_OK;
    for (const char *p = line;; p++) {
        char c = *p;
        if (r->comment_line && c != '\0') {
            r->comment_line = c == '}' ? 0 : r->comment_line;
            continue;
        }
        bool sep = c == '\0' || isspace((unsigned char)c) || c == '{' || c == '}' || c == '(' ||
                   c == ')' || c == ';';
        if (sep && n > 0) {
            word[n] = '\0';
            if ((st = pgn_token(r, word, lineno, out, err)) != STATUS_OK)
                return st;
        }
        if (sep)
            n = 0;
        if (c == '\0' || c == ';')
            break;
        if (c == '{')
            r->comment_line = lineno;
        else if (c == '(' && r->rav++ == 0)
            r->rav_line = lineno;
        else if (c == ')' && r->rav == 0)
            return pgn_error(r, lineno, "a ')' without its '('", 0, err);
        else if (c == ')')
            r->rav--;
        else if (c == '}')
            return pgn_error(r, lineno, "a '}' outside a comment", 0, err);
        else if (!sep && n + 1 < sizeof word)
            word[n++] = c;
    }
    return STATUS_OK;
}

// The end of a PGN book: a comment or variation still open is an error, a last game without a
// result is kept.
static Status pgn_finish(PgnReader *r, int lineno, Openings *out, ErrorInfo *err) {
    if (r->comment_line)
        return pgn_error(r, lineno, "the file ends inside the {comment}", r->comment_line, err);
    if (r->rav)
        return pgn_error(r, lineno, "the file ends inside the variation '('", r->rav_line, err);
    return pgn_end(r, out, err);
}

static Status read_book(FILE *f, const char *path, BookFormat format, int plies, const Variant *v,
                        Board *b, Openings *out, ErrorInfo *err) {
    PgnReader r = {.path = path, .v = v, .plies = plies, .b = b};
    char *line = NULL;
    size_t cap = 0;
    int lineno = 1;
    Status st = STATUS_OK;
    for (; st == STATUS_OK && getline(&line, &cap, f) >= 0; lineno++) {
        line[strcspn(line, "\r\n")] = '\0';
        char *t = line + strspn(line, " \t\xef\xbb\xbf"); // blanks, a byte order mark
        bool tag = *t == '[' && !r.comment_line;          // inside a comment it is its text
        if (format == BOOK_EPD && *t && *t != '#')
            st = epd_line(t, lineno, path, v, b, out, err);
        else if (format == BOOK_PGN && tag && r.rav)
            st = pgn_error(&r, lineno, "a tag inside the variation '('", r.rav_line, err);
        else if (format == BOOK_PGN && tag)
            st = pgn_tag(&r, t, lineno, out, err);
        else if (format == BOOK_PGN && *t != '%') // '%': an escape line (PGN standard, 6)
            st = pgn_moves(&r, t, lineno, out, err);
    }
    if (st == STATUS_OK && format == BOOK_PGN)
        st = pgn_finish(&r, lineno - 1, out, err);
    free(line);
    if (st == STATUS_OK && out->count == 0)
        st = error_set(err, STATUS_FORMAT, "openings %s: no position in the file", path);
    return st;
}

Status book_load(const char *path, BookFormat format, int plies, const Variant *v, Openings *out,
                 ErrorInfo *err) {
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "r");
    if (!f)
        return error_set(err, STATUS_IO, "openings %s: %s", path, strerror(errno));
    Board *b = malloc(sizeof *b);
    out->fen = malloc(OPENINGS_MAX * sizeof *out->fen);
    out->line = malloc(OPENINGS_MAX * sizeof *out->line);
    Status st = b && out->fen && out->line
                    ? read_book(f, path, format, plies, variant_or_default(v), b, out, err)
                    : error_set(err, STATUS_NOMEM, "openings %s: out of memory", path);
    fclose(f);
    free(b);
    if (st != STATUS_OK)
        openings_free(out);
    return st;
}
