// SPDX-License-Identifier: MIT
// hansu-selfplay digest: schema-1 files (no digest) replayed and rewritten with one.
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "h5store.h"
#include "verify.h"

// One file for `digest`: a file with a sound digest is left as it is; a schema-1 file (no
// digest header) is read, replayed and rewritten in the current schema; a damaged one is refused.
static int digest_file(const char *path, ShardData *d) {
    ErrorInfo err;
    StoreMeta meta;
    if (h5store_check_digest(path, &err) == STATUS_OK) {
        printf("%s: digest sound, left as it is\n", path);
        return 0;
    }
    Status st = h5store_read_legacy(path, &meta, d, &err);
    if (st == STATUS_OK && (st = verify_games(d, &err)) != STATUS_OK) {
        fprintf(stderr, "hansu-selfplay digest: %s: %s\n", path, err.msg);
        return 1;
    }
    if (st == STATUS_OK && (st = h5store_write(path, &meta, d, &err)) == STATUS_OK)
        printf("%s: %zu games replayed, rewritten as schema %d with a digest\n", path,
               d->games.count, H5STORE_SCHEMA_VERSION);
    else
        fprintf(stderr, "hansu-selfplay digest: %s\n", err.msg);
    return st == STATUS_OK ? 0 : 1;
}

int cmd_digest(int argc, char **argv) {
    char **inputs = NULL;
    int ninputs = 0;
    int done = cmd_read_words("usage: hansu-selfplay digest DIR|FILE...\n", argc, argv, 1, &inputs,
                              &ninputs);
    if (done >= 0)
        return free(inputs), done;
    ShardData d;
    shard_data_init(&d);
    int rc = 0;
    for (int i = 0; i < ninputs && rc == 0; i++) {
        struct stat sb;
        char **files = NULL;
        size_t n = 0;
        ErrorInfo err;
        if (stat(inputs[i], &sb) != 0 || !S_ISDIR(sb.st_mode))
            rc = digest_file(inputs[i], &d);
        else if (h5store_list_files(inputs[i], &files, &n, &err) != STATUS_OK)
            fprintf(stderr, "hansu-selfplay digest: %s\n", err.msg), rc = 1;
        for (size_t k = 0; rc == 0 && k < n; k++)
            rc = digest_file(files[k], &d);
        h5store_free_list(files, n);
    }
    shard_data_free(&d);
    free(inputs);
    return rc;
}
