// SPDX-License-Identifier: MIT
// hansu-selfplay merge: shards of one run combined into one file, under the output folder's
// writer lock; an existing file is replaced only with --force.
#include "commands.h"

#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files.h"
#include "flags.h"
#include "h5store.h"
#include "run_lock.h"

typedef struct MergeArgs {
    const char *out;
    bool force;
} MergeArgs;

static const Flag MERGE_FLAGS[] = {
    {"-o", FLAG_PATH, FLAG_DEST(MergeArgs, out), .meta = "OUT.h5",
     .help = "the merged file (required)"},
    {"--force", FLAG_BOOL, FLAG_DEST(MergeArgs, force), .help = "replace an existing OUT.h5"},
};

static void usage(FILE *f) {
    fputs("usage: hansu-selfplay merge -o OUT.h5 [--force] DIR|FILE...\n", f);
    flags_help(f, MERGE_FLAGS, FLAGS_COUNT(MERGE_FLAGS), 16);
}

// The merge, its command line read: inputs checked, the lock taken, the file written.
static int merge(const char *name, bool force, char **inputs, size_t ninputs) {
    char **files, out[FILES_PATH_MAX];
    size_t n;
    ErrorInfo err;
    // The file written is a link's target, in the target's folder, whose lock is taken.
    // Checked against the folders as named too: a merged file inside one would be read
    // with its shards, every game twice.
    if (h5store_output_target(name, out, &err) != STATUS_OK ||
        h5store_check_output(out, inputs, ninputs, &err) != STATUS_OK ||
        h5store_expand_inputs(inputs, ninputs, &files, &n, &err) != STATUS_OK) {
        fprintf(stderr, "hansu-selfplay merge: %s\n", err.msg);
        return 1;
    }
    // The output folder's writer lock: a merge must not write where a run is being written.
    char *out_copy = strdup(out);
    RunLock *lock = NULL;
    Status st = out_copy ? run_lock_take_dir(dirname(out_copy), &lock, &err)
                         : error_set(&err, STATUS_NOMEM, "out of memory");
    free(out_copy);
    // An existing file is replaced only when asked: a merge must not lose a file without a word.
    if (st == STATUS_OK && !force && access(out, F_OK) == 0)
        st = error_set(&err, STATUS_IO,
                       "-o %s already exists: give --force to replace it, or "
                       "another -o",
                       name);
    if (st == STATUS_OK)
        st = h5store_merge(files, n, out, &err);
    run_lock_release(lock);
    h5store_free_list(files, n);
    if (st != STATUS_OK) {
        fprintf(stderr, "hansu-selfplay merge: %s\n", err.msg);
        return 1;
    }
    printf("merged %zu files into %s\n", n, name);
    return 0;
}

int cmd_merge(int argc, char **argv) {
    MergeArgs args = {0};
    char **inputs = calloc((size_t)argc, sizeof *inputs);
    FlagResult res = {.pos = inputs};
    ErrorInfo err;
    Status st = inputs ? flags_parse(MERGE_FLAGS, FLAGS_COUNT(MERGE_FLAGS), argc, argv, 1, &args,
                                     &res, &err)
                       : error_set(&err, STATUS_NOMEM, "out of memory");
    int rc = st != STATUS_OK || (!res.help && (!args.out || res.npos == 0)) ? 2 : 0;
    if (st != STATUS_OK)
        fprintf(stderr, "hansu-selfplay merge: %s\n", err.msg);
    if (rc || res.help)
        usage(rc ? stderr : stdout);
    else
        rc = merge(args.out, args.force, inputs, (size_t)res.npos);
    free(inputs);
    return rc;
}
