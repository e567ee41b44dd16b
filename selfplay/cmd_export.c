// SPDX-License-Identifier: MIT
// hansu-selfplay export: stored games as PGN (export.h).
#include "commands.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export.h"
#include "flags.h"
#include "h5store.h"

typedef struct ExportArgs {
    const char *out, *event;
    GameSelection sel;
} ExportArgs;

static Status set_games(const Flag *flag, const char *value, void *dest, ErrorInfo *err) {
    (void)flag;
    return export_parse_selection(value, &((ExportArgs *)dest)->sel, err);
}

static const Flag EXPORT_FLAGS[] = {
    {"--pgn", FLAG_PATH, FLAG_DEST(ExportArgs, out), .meta = "OUT.pgn",
     .help = "the PGN file (required; - is standard output)"},
    {"--games", FLAG_CALL, .set = set_games, .value = true, .meta = "SEL",
     .help = "the games, e.g. 0-9,15,100- (default: all)"},
    {"--event", FLAG_STRING, FLAG_DEST(ExportArgs, event), .meta = "TEXT",
     .help = "the Event tag (default: hansu-selfplay and the first input)"},
};

static void usage(FILE *f) {
    fputs("usage: hansu-selfplay export --pgn OUT.pgn DIR|FILE... [--games SEL] [--event TEXT]\n",
          f);
    flags_help(f, EXPORT_FLAGS, FLAGS_COUNT(EXPORT_FLAGS), 18);
}

// Writes to "<out>.tmp" and renames it over out at the end, so that a failed export leaves
// no half file; "-" writes to standard output.
int cmd_export(int argc, char **argv) {
    ExportArgs args = {0};
    ErrorInfo err;
    char **inputs = calloc((size_t)argc, sizeof *inputs);
    FlagResult res = {.pos = inputs};
    Status st = inputs ? flags_parse(EXPORT_FLAGS, FLAGS_COUNT(EXPORT_FLAGS), argc, argv, 1, &args,
                                     &res, &err)
                       : error_set(&err, STATUS_NOMEM, "out of memory");
    if (st == STATUS_OK && res.help) {
        usage(stdout);
        free(inputs);
        return 0;
    }
    if (st == STATUS_OK && !args.out)
        st = error_set(&err, STATUS_SYNTAX, "--pgn OUT is required");
    if (st != STATUS_OK || res.npos == 0) {
        if (st != STATUS_OK)
            fprintf(stderr, "hansu-selfplay export: %s\n", err.msg);
        usage(stderr);
        free(inputs);
        return 2;
    }
    const char *out = args.out, *event = args.event;
    int ninputs = res.npos;
    char **files = NULL, tmp[4096] = "", default_event[600];
    size_t n = 0;
    snprintf(default_event, sizeof default_event, "hansu-selfplay %.500s", inputs[0]);
    bool to_stdout = strcmp(out, "-") == 0;
    FILE *f = NULL;
    ExportSummary sum;
    st = h5store_expand_inputs(inputs, (size_t)ninputs, &files, &n, &err);
    if (st == STATUS_OK && !to_stdout) {
        snprintf(tmp, sizeof tmp, "%s.tmp", out);
        if (!(f = fopen(tmp, "w")))
            st = error_set(&err, STATUS_IO, "%s: %s", tmp, strerror(errno));
    }
    if (st == STATUS_OK)
        st = export_pgn(files, n, &args.sel, event ? event : default_event, to_stdout ? stdout : f,
                        &sum, &err);
    if (f && fclose(f) != 0 && st == STATUS_OK)
        st = error_set(&err, STATUS_IO, "%s: %s", tmp, strerror(errno));
    if (st == STATUS_OK && f && rename(tmp, out) != 0)
        st = error_set(&err, STATUS_IO, "%s: %s", out, strerror(errno));
    if (st != STATUS_OK && tmp[0])
        unlink(tmp);
    h5store_free_list(files, n);
    free(inputs);
    if (st != STATUS_OK) {
        fprintf(stderr, "hansu-selfplay export: %s\n", err.msg);
        return 1;
    }
    fprintf(stderr, "exported %zu games (%zu plies) from %zu files to %s\n", sum.games, sum.plies,
            sum.files, to_stdout ? "standard output" : out);
    return 0;
}
