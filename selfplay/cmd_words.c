// SPDX-License-Identifier: MIT
// The command line of the hansu-selfplay commands that take words only (see commands.h).
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>

#include "flags.h"

int cmd_read_words(const char *usage_line, int argc, char **argv, int min, char ***words, int *n) {
    *words = calloc((size_t)argc, sizeof **words);
    *n = 0;
    FlagResult res = {.pos = *words};
    ErrorInfo err;
    Status st = *words ? flags_parse(NULL, 0, argc, argv, 1, NULL, &res, &err)
                       : error_set(&err, STATUS_NOMEM, "out of memory");
    if (st == STATUS_OK && res.help) {
        fputs(usage_line, stdout);
        flags_help(stdout, NULL, 0, 10);
        return 0;
    }
    if (st != STATUS_OK)
        fprintf(stderr, "hansu-selfplay %s: %s\n", argv[0], err.msg);
    if (st != STATUS_OK || res.npos < min) {
        fputs(usage_line, stderr);
        return 2;
    }
    *n = res.npos;
    return -1;
}
