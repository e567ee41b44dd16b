// SPDX-License-Identifier: MIT
// PGN writer for games of a variant (the Variant tag names it) with moves in UCI form.
#include "pgn.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "notation.h"
#include "variant.h"

// Writes one tag pair, its value escaped as a PGN string (PGN standard, 7: a quote as \" and
// a backslash as \\); a control character (a tag is one line) as a space.
static void put_tag(FILE *f, const char *name, const char *value) {
    fprintf(f, "[%s \"", name);
    for (const char *c = value ? value : ""; *c; c++) {
        if (*c == '"' || *c == '\\')
            fputc('\\', f);
        fputc((unsigned char)*c < ' ' ? ' ' : *c, f);
    }
    fputs("\"]\n", f);
}

// Writes a comment's text: it ends at the first '}' (PGN has no escape there), so a '}' in
// it is written as ')'.
static void put_comment_text(FILE *f, const char *text) {
    for (int i = 0; text[i]; i++)
        fputc(text[i] == '}' ? ')' : text[i], f);
}

// Writes one token of the move text, wrapped before column 80.
static void put_token(FILE *f, const char *tok, int *col) {
    int len = (int)strlen(tok);
    if (*col > 0 && *col + 1 + len > 79) {
        fputc('\n', f);
        *col = 0;
    } else if (*col > 0) {
        fputc(' ', f);
        (*col)++;
    }
    fputs(tok, f);
    *col += len;
}

// Whether a FEN's side to move (its second field) is Han's ("b").
static bool fen_han_to_move(const char *fen) {
    const char *c = fen ? fen : "";
    c += strcspn(c, " ");
    c += strspn(c, " ");
    return *c == 'b';
}

// Writes the move text with each move's comment, followed by the closing comment and the result.
static void write_moves(FILE *f, const PgnGame *g, const char *result) {
    int col = 0;
    char tok[MOVE_STR_LEN + 64];
    // Han's move first or after a comment is numbered "N..." (PGN standard, 8.2.2).
    bool commented = true;
    int han = fen_han_to_move(g->fen); // 1: Han moves first, as "1... " (Cho's move 1 not shown)
    for (int i = 0; i < g->nmoves; i++) {
        char mv[MOVE_STR_LEN];
        move_to_uci(g->moves[i], mv);
        int j = i + han; // plies from Cho's first move
        if (j % 2 == 0)
            snprintf(tok, sizeof tok, "%d. %s", j / 2 + 1, mv);
        else if (commented)
            snprintf(tok, sizeof tok, "%d... %s", j / 2 + 1, mv);
        else
            snprintf(tok, sizeof tok, "%s", mv);
        put_token(f, tok, &col);
        commented = g->comments && g->comments[i] && g->comments[i][0];
        if (commented) {
            snprintf(tok, sizeof tok, "{%.60s}", g->comments[i]);
            for (char *c = tok + 1; c[1]; c++) // the closing brace is the last character
                *c = *c == '}' ? ')' : *c;
            put_token(f, tok, &col);
        }
    }
    if (col > 0)
        fputc('\n', f);
    if (g->detail && g->detail[0]) {
        fputc('{', f);
        put_comment_text(f, g->detail);
        fputs("} ", f);
    }
    fprintf(f, "%s\n\n", result);
}

Status pgn_write(FILE *f, const PgnGame *g, ErrorInfo *err) {
    const char *result = g->unknown ? "*" : g->draw ? "1/2-1/2" : g->winner == CHO ? "1-0" : "0-1";
    char round[24], plies[16];
    snprintf(round, sizeof round, "%lld", g->round);
    snprintf(plies, sizeof plies, "%d", g->nmoves);
    put_tag(f, "Event", g->event);
    put_tag(f, "Site", g->site);
    put_tag(f, "Date", g->date);
    put_tag(f, "Round", round);
    put_tag(f, "White", g->white);
    put_tag(f, "Black", g->black);
    put_tag(f, "Result", result);
    put_tag(f, "Variant", g->variant ? g->variant : variant_default()->name);
    put_tag(f, "SetUp", "1");
    put_tag(f, "FEN", g->fen);
    if (g->opening)
        put_tag(f, "Opening", g->opening);
    if (g->time_control)
        put_tag(f, "TimeControl", g->time_control);
    if (!g->unfinished)
        put_tag(f, "Termination", rules_reason_name(g->reason));
    put_tag(f, "PlyCount", plies);
    for (int i = 0; i < g->ntags; i++)
        put_tag(f, g->tags[i].name, g->tags[i].value);
    fputc('\n', f);
    write_moves(f, g, result);
    errno = 0;
    if (fflush(f) != 0 || ferror(f)) {
        int cause = errno ? errno : EIO;
        error_set(err, STATUS_IO, "PGN: write failed (%s)", strerror(cause));
        errno = cause; // for a caller that names the file
        return STATUS_IO;
    }
    return STATUS_OK;
}
