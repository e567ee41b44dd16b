// SPDX-License-Identifier: MIT
// hansu-eval: prints the static evaluation of the compiled-in weights for each FEN read on
// standard input, one "cp" per line (side to move's view). The tuner's round-trip test builds
// it against an emitted header (-DHANSU_EVAL_WEIGHTS=path) and compares with its predictions.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "engine.h"
#include "eval.h"
#include "fen.h"

int main(void) {
    engine_init();
    Board *b = malloc(sizeof *b);
    if (!b)
        return fputs("hansu-eval: out of memory\n", stderr), 1;
    char line[FEN_MAX_INPUT + 2];
    int lineno = 0;
    while (fgets(line, sizeof line, stdin)) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        if (!*line)
            continue;
        ErrorInfo err;
        if (fen_parse(b, line, &err) != STATUS_OK) {
            fprintf(stderr, "hansu-eval: line %d: %s\n", lineno, err.msg);
            free(b);
            return 1;
        }
        printf("%d\n", (int)eval_evaluate(b));
    }
    free(b);
    return 0;
}
