// SPDX-License-Identifier: MIT
// hansu-selfplay verify: every game of the files replayed and checked (verify.h).
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "h5store.h"
#include "verify.h"

// " and N PV ends" into out.
static const char *pv_words(size_t pv_ends, char *out, size_t len) {
    snprintf(out, len, " and %zu PV ends", pv_ends);
    return out;
}

int cmd_verify(int argc, char **argv) {
    char **inputs = NULL, **files;
    size_t n;
    int ninputs = 0;
    ErrorInfo cerr;
    char words[48];
    int done = cmd_read_words("usage: hansu-selfplay verify DIR|FILE...\n", argc, argv, 1, &inputs,
                              &ninputs);
    if (done >= 0)
        return free(inputs), done;
    Status cst = h5store_expand_inputs(inputs, (size_t)ninputs, &files, &n, &cerr);
    if (cst != STATUS_OK) {
        free(inputs);
        fprintf(stderr, "hansu-selfplay verify: %s\n", cerr.msg);
        return 1;
    }
    ShardData d;
    shard_data_init(&d);
    StoreMeta *m = malloc(sizeof *m);
    int rc = m ? 0 : 1;
    size_t games = 0, pv_ends = 0, positions = 0;
    for (int i = 0; i < ninputs && rc == 0; i++) {
        struct stat sb;
        if (stat(inputs[i], &sb) == 0 && S_ISDIR(sb.st_mode) &&
            verify_pv_run(inputs[i], &cerr) != STATUS_OK) {
            fprintf(stderr, "hansu-selfplay verify: %s\n", cerr.msg);
            rc = 1;
        }
    }
    for (size_t i = 0; i < n && rc == 0; i++) {
        ErrorInfo err;
        int64_t line;
        Status st = h5store_read(files[i], m, &d, &err);
        if (st == STATUS_OK && d.standalone && (st = verify_pv_meta(m, &line, &err)) != STATUS_OK)
            fprintf(stderr, "hansu-selfplay verify: %s: %s\n", files[i], err.msg);
        else if (st == STATUS_OK && (st = verify_games(&d, &err)) != STATUS_OK)
            fprintf(stderr, "hansu-selfplay verify: %s: %s\n", files[i], err.msg);
        else if (st != STATUS_OK)
            fprintf(stderr, "hansu-selfplay verify: %s\n", err.msg);
        if (st != STATUS_OK) {
            rc = 1;
        }
        *(d.standalone ? &pv_ends : &games) += d.games.count;
        positions += d.positions.count;
    }
    if (rc == 0)
        printf("verified %zu files: %zu games%s, %zu positions, all replayed exactly\n", n, games,
               pv_ends ? pv_words(pv_ends, words, sizeof words) : "", positions);
    if (!m)
        fprintf(stderr, "hansu-selfplay verify: out of memory\n");
    free(m);
    free(inputs);
    shard_data_free(&d);
    h5store_free_list(files, n);
    return rc;
}
