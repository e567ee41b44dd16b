// SPDX-License-Identifier: MIT
// Parser of generated weights headers: the table entries S(mg, eg), nothing else.
#include "weights_io.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "files.h"

Status weights_read_header(const char *path, int nparams, EvalWeight *out, ErrorInfo *err) {
    FILE *f = fopen(path, "r");
    if (!f)
        return error_set(err, STATUS_IO, "%s: cannot open: %s", path, strerror(errno));
    char line[4096];
    int n = 0, lineno = 0;
    bool in_table = false;
    Status st = STATUS_OK;
    long len;
    while (st == STATUS_OK && (len = files_read_line(f, line, sizeof line)) >= 0) {
        lineno++;
        if (files_line_has_nul(line, len, sizeof line)) {
            st = error_set(err, STATUS_FORMAT, "%s:%d: a NUL byte in the line", path, lineno);
            continue;
        }
        // A line is read whole: a piece of a long one is never read as a line of its own. A
        // comment line is skipped whatever its length; any other line too long is refused.
        if ((size_t)len >= sizeof line) {
            if (strncmp(line + strspn(line, " \t"), "//", 2) != 0)
                st = error_set(err, STATUS_FORMAT, "%s:%d: a line of %ld bytes, longer than %zu",
                               path, lineno, len, sizeof line - 1);
            continue;
        }
        if (!in_table) {
            in_table = strstr(line, "EVAL_WEIGHTS_DATA[") != NULL;
            continue;
        }
        // Skip comments: the meanings may contain anything.
        char *c = strstr(line, "//");
        if (c)
            *c = 0;
        // A block comment hides its entries from the compiler, not from a count of "S(": it was
        // refused as an extra entry at the table's last line. The generator writes none.
        if (strstr(line, "/*") || strstr(line, "*/")) {
            st = error_set(err, STATUS_FORMAT,
                           "%s:%d: a /* comment */ in the weights table (only // comments)", path,
                           lineno);
            continue;
        }
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
