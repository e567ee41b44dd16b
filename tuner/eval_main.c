// SPDX-License-Identifier: MIT
// hansu-eval: prints the static evaluation of the compiled-in weights for each FEN read on
// standard input, one "cp" per line (side to move's view). The tuner's round-trip test builds
// it against an emitted header (-DHANSU_EVAL_WEIGHTS=path) and compares with its predictions.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "cli.h"
#include "eval.h"
#include "fen.h"
#include "files.h"

static void usage(FILE *f) {
    fputs("usage: hansu-eval < FENS\n"
          "prints the static evaluation of the compiled-in weights for each FEN read on standard\n"
          "input (one a line; empty lines skipped), one centipawn value a line, from the side to\n"
          "move's view\n\noptions:\n  --help  this text\n",
          f);
}

int main(int argc, char **argv) {
    cli_init();
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0))
        return usage(stdout), 0;
    if (argc > 1) {
        fprintf(stderr, "hansu-eval: unexpected argument '%s' (see --help)\n", argv[1]);
        return 2;
    }
    Board *b = malloc(sizeof *b);
    if (!b)
        return fputs("hansu-eval: out of memory\n", stderr), 1;
    char line[FEN_MAX_INPUT + 2];
    int lineno = 0;
    long len;
    while ((len = files_read_line(stdin, line, sizeof line)) >= 0) {
        lineno++;
        if (files_line_has_nul(line, len, sizeof line)) {
            fprintf(stderr, "hansu-eval: line %d: a NUL byte in the line\n", lineno);
            free(b);
            return 1;
        }
        line[strcspn(line, "\r\n")] = 0;
        ErrorInfo err;
        // A line longer than any FEN is refused whole: its pieces are not FENs of their own.
        if ((size_t)len >= sizeof line) {
            fprintf(stderr, "hansu-eval: line %d: %ld bytes, longer than a FEN can be (%d)\n",
                    lineno, len, FEN_MAX_INPUT);
            free(b);
            return 1;
        }
        if (!*line)
            continue;
        if (fen_parse(b, line, &err) != STATUS_OK) {
            fprintf(stderr, "hansu-eval: line %d: %s\n", lineno, err.msg);
            free(b);
            return 1;
        }
        printf("%d\n", (int)eval_evaluate(b));
    }
    free(b);
    // A write that failed (a full disk, a file size limit) is an error, not a short answer.
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "hansu-eval: standard output: %s\n", strerror(errno ? errno : EIO));
        return 1;
    }
    return 0;
}
