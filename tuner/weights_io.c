// SPDX-License-Identifier: MIT
// Parser of generated weights headers: the table entries S(mg, eg), nothing else.
#include "weights_io.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

Status weights_read_header(const char *path, int nparams, EvalWeight *out, ErrorInfo *err) {
    FILE *f = fopen(path, "r");
    if (!f)
        return error_set(err, STATUS_IO, "%s: cannot open: %s", path, strerror(errno));
    char line[4096];
    int n = 0, lineno = 0;
    bool in_table = false;
    Status st = STATUS_OK;
    while (st == STATUS_OK && fgets(line, sizeof line, f)) {
        lineno++;
        if (!in_table) {
            in_table = strstr(line, "EVAL_WEIGHTS_DATA[") != NULL;
            continue;
        }
        // Skip comments: the meanings may contain anything.
        char *c = strstr(line, "//");
        if (c)
            *c = 0;
        for (char *p = strstr(line, "S("); p && st == STATUS_OK; p = strstr(p + 2, "S(")) {
            int mg, eg;
            if (sscanf(p, "S(%d ,%d )", &mg, &eg) != 2 || n >= nparams)
                st =
                    error_set(err, STATUS_FORMAT, "%s:%d: bad or extra weight entry", path, lineno);
            else
                out[n++] = (EvalWeight){mg, eg};
        }
    }
    fclose(f);
    if (st == STATUS_OK && (!in_table || n != nparams))
        st = error_set(err, STATUS_FORMAT, "%s: %d weights found, %d expected", path, n, nparams);
    return st;
}
