// SPDX-License-Identifier: MIT
// PGN games read from plain or gzip-compressed files (pgn_read.h).
#include "pgn_read.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

#include "board.h"
#include "notation.h"
#include "variant.h"

// The lines of a file through zlib (which reads a file that is not gzip data as it is).
typedef struct LineReader {
    gzFile f;
    char buf[1 << 16];
    size_t pos, len;
    bool eof;
} LineReader;

// The next line (its '\n' dropped) into *line; false at the end of the file. *nul: the line
// holds a NUL byte (binary data). *st: STATUS_IO when zlib fails (a corrupt .gz), STATUS_NOMEM.
static bool next_line(LineReader *lr, char **line, size_t *cap, bool *nul, Status *st) {
    size_t n = 0;
    bool any = false;
    *nul = false;
    for (;;) {
        if (lr->pos == lr->len && lr->eof)
            break;
        if (lr->pos == lr->len) {
            int got = gzread(lr->f, lr->buf, sizeof lr->buf), zerr = Z_OK;
            // At the end, Z_BUF_ERROR: the file ended inside a gzip stream (a truncated .gz,
            // whose last game would otherwise read as a shorter game).
            if (got == 0)
                gzerror(lr->f, &zerr);
            if (got < 0 || zerr == Z_BUF_ERROR) {
                *st = STATUS_IO;
                return false;
            }
            lr->pos = 0, lr->len = (size_t)got, lr->eof = got == 0;
            continue;
        }
        char c = lr->buf[lr->pos++];
        any = true;
        if (n + 2 > *cap) { // room for c and the terminator
            size_t nc = *cap ? *cap * 2 : 256;
            char *grown = realloc(*line, nc);
            if (!grown) {
                *st = STATUS_NOMEM;
                return false;
            }
            *line = grown, *cap = nc;
        }
        if (c == '\n')
            break;
        *nul |= c == '\0';
        (*line)[n++] = c;
    }
    if (any)
        (*line)[n] = '\0';
    return any;
}

// A game being read: its tags, then its moves applied to the board.
typedef struct PgnReader {
    const char *path, *prefix;
    const PgnReadOptions *opt;
    PgnGameFn fn;
    void *arg;
    Board *b;
    PgnReadGame *g;
    bool in_game;         // a tag or a move of the current game seen
    bool started;         // its start position set up (at its first move or its end)
    char fen[FEN_BUFFER]; // its [FEN] tag, "" for the variant's start
    char result_tag[PGN_READ_TAG_MAX];
    int comment_line;  // the line of a {comment} still open (over lines), 0: none
    int rav, rav_line; // (variations) open and the line of the outermost
    int games;
} PgnReader;

// The game's variant: the reader's, else its [Variant] tag's (janggi without one).
static const Variant *game_variant(const PgnReader *r) {
    return r->opt->variant ? r->opt->variant : variant_or_default(r->g->variant);
}

static Status pgn_start(PgnReader *r, ErrorInfo *err) {
    ErrorInfo fe;
    const Variant *v = game_variant(r);
    r->started = true;
    r->g->variant = v;
    if (fen_parse_variant(r->b, v, r->fen[0] ? r->fen : v->start_fen, &fe) != STATUS_OK)
        return error_set(err, STATUS_FORMAT, "%s%s:%d: [FEN]: %s", r->prefix, r->path,
                         r->g->first_line, fe.msg);
    fen_write(r->b, r->g->start_fen, sizeof r->g->start_fen);
    return STATUS_OK;
}

// A new game's record, numbered, its first line `line`.
static void begin_game(PgnReader *r, int line) {
    PgnReadGame *g = r->g;
    memset(g, 0, offsetof(PgnReadGame, moves));
    g->nmoves = g->dropped = 0;
    g->over = false;
    memset(&g->end, 0, sizeof g->end);
    g->number = ++r->games;
    g->first_line = line;
    r->in_game = true;
    r->fen[0] = r->result_tag[0] = '\0';
}

// The end of a game: handed to the callback (a game with neither tag nor move is none).
static Status pgn_end(PgnReader *r, const char *token, ErrorInfo *err) {
    Status st = STATUS_OK;
    if (!r->in_game)
        return STATUS_OK;
    if (!r->started)
        st = pgn_start(r, err);
    PgnReadGame *g = r->g;
    snprintf(g->result, sizeof g->result, "%s", r->result_tag[0] ? r->result_tag : token);
    if (st == STATUS_OK)
        st = r->fn(g, r->arg, err);
    r->in_game = r->started = false;
    return st;
}

// A tag line: the tags a tool needs are kept, the others skipped. A tag after moves begins a
// game.
static Status pgn_tag(PgnReader *r, const char *line, int lineno, ErrorInfo *err) {
    Status st = STATUS_OK;
    if (r->started && (st = pgn_end(r, "", err)) != STATUS_OK)
        return st;
    if (!r->in_game)
        begin_game(r, lineno);
    char name[32], value[FEN_BUFFER];
    if (sscanf(line, "[%31s \"%[^\"]\"]", name, value) != 2)
        return STATUS_OK; // an empty value or an odd tag: nothing Hansu needs
    PgnReadGame *g = r->g;
    if (!strcmp(name, "FEN"))
        snprintf(r->fen, sizeof r->fen, "%s", value);
    else if (!strcmp(name, "White"))
        snprintf(g->white, sizeof g->white, "%s", value);
    else if (!strcmp(name, "Black"))
        snprintf(g->black, sizeof g->black, "%s", value);
    else if (!strcmp(name, "Result"))
        snprintf(r->result_tag, sizeof r->result_tag, "%s", value);
    else if (!strcmp(name, "Termination"))
        snprintf(g->termination, sizeof g->termination, "%s", value);
    if (strcmp(name, "Variant") != 0)
        return STATUS_OK;
    const Variant *tagged = variant_find(value);
    if (r->opt->variant ? strcasecmp(value, r->opt->variant->name) != 0 : !tagged)
        return error_set(err, STATUS_FORMAT, "%s%s:%d: a game of %s, not %s", r->prefix, r->path,
                         lineno, value,
                         r->opt->variant ? r->opt->variant->name : "a variant Hansu plays");
    g->variant = tagged;
    return STATUS_OK;
}

static bool is_result(const char *w) {
    return !strcmp(w, "1-0") || !strcmp(w, "0-1") || !strcmp(w, "1/2-1/2") || !strcmp(w, "*");
}

// One move word, applied to the board (until the rules end the game or max_plies is reached).
static Status pgn_move(PgnReader *r, const char *w, int lineno, ErrorInfo *err) {
    PgnReadGame *g = r->g;
    int limit = r->opt->max_plies < 0 || r->opt->max_plies > PGN_READ_PLIES_MAX ? PGN_READ_PLIES_MAX
                                                                                : r->opt->max_plies;
    if (g->over || g->nmoves >= limit) {
        g->dropped++;
        return STATUS_OK;
    }
    Move m;
    ErrorInfo me;
    char word[32];
    size_t len = strcspn(w, "!?+#"); // annotations and check marks
    if (len >= sizeof word)
        return error_set(err, STATUS_FORMAT, "%s%s:%d: move \"%.40s...\": too long", r->prefix,
                         r->path, lineno, w);
    memcpy(word, w, len);
    word[len] = '\0';
    if (move_parse_uci(r->b, word, &m, &me) != STATUS_OK)
        return error_set(err, STATUS_FORMAT, "%s%s:%d: move \"%s\": %s", r->prefix, r->path, lineno,
                         w, me.msg);
    board_make(r->b, m);
    g->moves[g->nmoves++] = m;
    g->over = rules_game_over(r->b, &g->end);
    return STATUS_OK;
}

static Status pgn_error(const PgnReader *r, int lineno, const char *what, int at, ErrorInfo *err);

// One word of movetext: a move number, result or NAG is skipped, a move applied. The result that
// ends the movetext must be the Result tag's (PGN standard, 8.2.6): one game, two results is
// refused rather than one of them believed.
static Status pgn_word(PgnReader *r, const char *w, int lineno, ErrorInfo *err) {
    if (is_result(w) && r->in_game && r->result_tag[0] && strcmp(w, r->result_tag) != 0) {
        char what[PGN_READ_TAG_MAX + 64];
        snprintf(what, sizeof what, "the result %s disagrees with the Result tag \"%s\"", w,
                 r->result_tag);
        return pgn_error(r, lineno, what, 0, err);
    }
    if (is_result(w))
        return pgn_end(r, w, err);
    size_t number = strspn(w, "0123456789");
    if (number && w[number] == '.') { // "12." or "12...", alone or glued to its move ("12.b1c3")
        w += number + strspn(w + number, ".");
        if (!*w)
            return STATUS_OK;
    }
    if (w[0] == '$')
        return STATUS_OK;
    if (!r->in_game)
        begin_game(r, lineno);
    Status st = STATUS_OK;
    if (!r->started && (st = pgn_start(r, err)) != STATUS_OK)
        return st;
    return pgn_move(r, w, lineno, err);
}

// A malformed movetext at line lineno: what, the line where the '{' or '(' concerned opened
// (at > 0), and the game's first line.
static Status pgn_error(const PgnReader *r, int lineno, const char *what, int at, ErrorInfo *err) {
    char opened[32] = "";
    if (at > 0)
        snprintf(opened, sizeof opened, " opened at line %d", at);
    return error_set(err, STATUS_FORMAT, "%s%s:%d: %s%s (game of line %d)", r->prefix, r->path,
                     lineno, what, opened, r->in_game ? r->g->first_line : lineno);
}

// A word of movetext read whole: applied outside variations; a result inside one ends the game
// with a '(' left open.
static Status pgn_token(PgnReader *r, const char *w, int lineno, ErrorInfo *err) {
    if (r->rav == 0)
        return pgn_word(r, w, lineno, err);
    if (is_result(w))
        return pgn_error(r, lineno, "the game ends inside the variation '('", r->rav_line, err);
    return STATUS_OK;
}

// The movetext of one line (PGN standard, 8.2.5 and 8.2.6). A {comment} ends at the first '}',
// over lines if need be, and a ';' comment at the end of the line: neither nests, and nothing
// inside them counts. Outside comments, (variations) nest and are skipped.
static Status pgn_moves(PgnReader *r, const char *line, int lineno, ErrorInfo *err) {
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
            if ((st = pgn_token(r, word, lineno, err)) != STATUS_OK)
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

// The end of the file: a comment or variation still open is an error, a last game without a
// result is kept.
static Status pgn_finish(PgnReader *r, int lineno, ErrorInfo *err) {
    if (r->comment_line)
        return pgn_error(r, lineno, "the file ends inside the {comment}", r->comment_line, err);
    if (r->rav)
        return pgn_error(r, lineno, "the file ends inside the variation '('", r->rav_line, err);
    return pgn_end(r, "", err);
}

// Every line of the file through the reader r.
static Status read_lines(LineReader *lr, PgnReader *r, ErrorInfo *err) {
    char *line = NULL;
    size_t cap = 0;
    int lineno = 1;
    bool nul;
    Status st = STATUS_OK, io = STATUS_OK;
    for (; st == STATUS_OK && next_line(lr, &line, &cap, &nul, &io); lineno++) {
        if (nul) {
            st = error_set(err, STATUS_FORMAT, "%s%s:%d: binary data (a NUL byte): not PGN text",
                           r->prefix, r->path, lineno);
            break;
        }
        line[strcspn(line, "\r")] = '\0';
        char *t = line + strspn(line, " \t\xef\xbb\xbf"); // blanks, a byte order mark
        bool tag = *t == '[' && !r->comment_line;         // inside a comment it is its text
        if (tag && r->rav)
            st = pgn_error(r, lineno, "a tag inside the variation '('", r->rav_line, err);
        else if (tag)
            st = pgn_tag(r, t, lineno, err);
        else if (*t != '%') // '%': an escape line (PGN standard, 6)
            st = pgn_moves(r, t, lineno, err);
    }
    if (st == STATUS_OK && io != STATUS_OK) {
        int zerr;
        const char *why = io == STATUS_NOMEM ? "out of memory" : gzerror(lr->f, &zerr);
        st = error_set(err, io, "%s%s:%d: cannot be read: %s", r->prefix, r->path, lineno, why);
    }
    if (st == STATUS_OK)
        st = pgn_finish(r, lineno - 1, err);
    free(line);
    return st;
}

Status pgn_read_file(const char *path, const PgnReadOptions *opt, PgnGameFn fn, void *arg,
                     int *games, ErrorInfo *err) {
    *games = 0;
    const char *prefix = opt->prefix ? opt->prefix : "";
    errno = 0;
    gzFile f = gzopen(path, "rb");
    if (!f)
        return error_set(err, STATUS_IO, "%s%s: %s", prefix, path,
                         errno ? strerror(errno) : "out of memory");
    LineReader *lr = calloc(1, sizeof *lr);
    PgnReader r = {.path = path, .prefix = prefix, .opt = opt, .fn = fn, .arg = arg};
    r.b = malloc(sizeof *r.b);
    r.g = malloc(sizeof *r.g);
    Status st = STATUS_OK;
    if (!lr || !r.b || !r.g)
        st = error_set(err, STATUS_NOMEM, "%s%s: out of memory", prefix, path);
    if (st == STATUS_OK) {
        lr->f = f;
        st = read_lines(lr, &r, err);
    }
    *games = r.games;
    gzclose(f);
    free(lr);
    free(r.b);
    free(r.g);
    return st;
}
