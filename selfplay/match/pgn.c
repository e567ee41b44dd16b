// SPDX-License-Identifier: MIT
// PGN writer for games of a variant (the Variant tag names it) with moves in UCI form.
#include "pgn.h"

#include <stdbool.h>
#include <string.h>

#include "notation.h"
#include "variant.h"

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

// Writes the move text with each move's comment, followed by the closing comment and the result.
static void write_moves(FILE *f, const PgnGame *g, const char *result) {
    int col = 0;
    char tok[MOVE_STR_LEN + 64];
    bool commented = false; // Han's move after a comment is numbered "N..." (PGN standard, 8.2.2)
    for (int i = 0; i < g->nmoves; i++) {
        char mv[MOVE_STR_LEN];
        move_to_uci(g->moves[i], mv);
        if (i % 2 == 0)
            snprintf(tok, sizeof tok, "%d. %s", i / 2 + 1, mv);
        else if (commented)
            snprintf(tok, sizeof tok, "%d... %s", i / 2 + 1, mv);
        else
            snprintf(tok, sizeof tok, "%s", mv);
        put_token(f, tok, &col);
        commented = g->comments && g->comments[i] && g->comments[i][0];
        if (commented) {
            snprintf(tok, sizeof tok, "{%.60s}", g->comments[i]);
            put_token(f, tok, &col);
        }
    }
    if (col > 0)
        fputc('\n', f);
    if (g->detail && g->detail[0])
        fprintf(f, "{%s} ", g->detail);
    fprintf(f, "%s\n\n", result);
}

Status pgn_write(FILE *f, const PgnGame *g, ErrorInfo *err) {
    const char *result = g->draw ? "1/2-1/2" : g->winner == CHO ? "1-0" : "0-1";
    fprintf(f, "[Event \"%s\"]\n[Site \"%s\"]\n[Date \"%s\"]\n[Round \"%d\"]\n", g->event, g->site,
            g->date, g->round);
    fprintf(f, "[White \"%s\"]\n[Black \"%s\"]\n[Result \"%s\"]\n", g->white, g->black, result);
    fprintf(f, "[Variant \"%s\"]\n[SetUp \"1\"]\n[FEN \"%s\"]\n",
            g->variant ? g->variant : variant_default()->name, g->fen);
    if (g->opening)
        fprintf(f, "[Opening \"%s\"]\n", g->opening);
    if (g->time_control)
        fprintf(f, "[TimeControl \"%s\"]\n", g->time_control);
    fprintf(f, "[Termination \"%s\"]\n[PlyCount \"%d\"]\n", rules_reason_name(g->reason),
            g->nmoves);
    for (int i = 0; i < g->ntags; i++)
        fprintf(f, "[%s \"%s\"]\n", g->tags[i].name, g->tags[i].value);
    fputc('\n', f);
    write_moves(f, g, result);
    if (fflush(f) != 0 || ferror(f))
        return error_set(err, STATUS_IO, "PGN: write failed");
    return STATUS_OK;
}
