// SPDX-License-Identifier: MIT
// hansu-selfplay export: stored games as PGN and as `.plain` training records (export.h).
#include "commands.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "export.h"
#include "files.h"
#include "flags.h"
#include "h5store.h"

enum { NFORMATS = 2 }; // index ExportFormat

typedef struct ExportArgs {
    const char *pgn, *plain, *event;
    GameSelection sel;
} ExportArgs;

static const char *const FORMAT_FLAGS[NFORMATS] = {"--pgn", "--plain"};

static Status set_games(const Flag *flag, const char *value, void *dest, ErrorInfo *err) {
    (void)flag;
    return export_parse_selection(value, &((ExportArgs *)dest)->sel, err);
}

static const Flag EXPORT_FLAGS[] = {
    {"--pgn", FLAG_PATH, FLAG_DEST(ExportArgs, pgn), .meta = "OUT.pgn",
     .help = "the games as PGN (- is standard output)"},
    {"--plain", FLAG_PATH, FLAG_DEST(ExportArgs, plain), .meta = "OUT.plain",
     .help = "one training record per stored position, Fairy-Stockfish's .plain\n"
             "(fen, move, score, ply, result, e; score and result from the side to\n"
             "move's view; docs/data-format.md; - is standard output)"},
    {"--games", FLAG_CALL, .set = set_games, .value = true, .meta = "SEL",
     .help = "the games, e.g. 0-9,15,100- (default: all)"},
    {"--event", FLAG_STRING, FLAG_DEST(ExportArgs, event), .meta = "TEXT",
     .help = "the PGN Event tag (default: hansu-selfplay and the first input)"},
};

static void usage(FILE *f) {
    fputs("usage: hansu-selfplay export [--pgn OUT.pgn] [--plain OUT.plain] DIR|FILE...\n"
          "                             [--games SEL] [--event TEXT]\n"
          "  at least one of --pgn and --plain; given both, one pass over the inputs writes\n"
          "  both files, and a failure leaves neither\n",
          f);
    flags_help(f, EXPORT_FLAGS, FLAGS_COUNT(EXPORT_FLAGS), 20);
}

// The outputs named, checked before any input is read: at least one, at most one of them
// standard output, not both the same file, each a file that can be created.
static Status check_outputs(const char *const out[NFORMATS], bool *usage_error, ErrorInfo *err) {
    *usage_error = true;
    if (!out[EXPORT_PGN] && !out[EXPORT_PLAIN])
        return error_set(err, STATUS_SYNTAX, "--pgn OUT or --plain OUT is required");
    if (out[EXPORT_PGN] && out[EXPORT_PLAIN] && strcmp(out[EXPORT_PGN], out[EXPORT_PLAIN]) == 0)
        return error_set(err, STATUS_SYNTAX, "--pgn and --plain name the same file '%s'",
                         out[EXPORT_PGN]);
    *usage_error = false;
    for (int f = 0; f < NFORMATS; f++) {
        Status st = out[f] && strcmp(out[f], "-") != 0
                        ? cli_check_writable(FORMAT_FLAGS[f], out[f], err)
                        : STATUS_OK;
        if (st != STATUS_OK)
            return st;
    }
    return STATUS_OK;
}

// Opens each output (files_output_open): "TARGET.tmp", renamed over its target at the end (so
// that a failed export leaves no half file, and keeps an existing out as it was), a device or
// FIFO written in place; "-" is standard output.
static Status open_outputs(const char *const out[NFORMATS], ExportOutput *outs,
                           OutputFile files[NFORMATS], size_t *nouts, ErrorInfo *err) {
    *nouts = 0;
    for (int f = 0; f < NFORMATS; f++) {
        if (!out[f])
            continue;
        ExportOutput *o = &outs[(*nouts)++];
        *o = (ExportOutput){.format = (ExportFormat)f, .out = stdout, .name = "standard output"};
        if (strcmp(out[f], "-") == 0)
            continue;
        Status st = files_output_open(out[f], &files[f], err);
        if (st != STATUS_OK)
            return st;
        o->name = out[f];
        o->out = files[f].f;
    }
    return STATUS_OK;
}

// Closes the outputs: on success each file is committed (renamed over its target), else every
// temporary is removed. Every output is flushed before the first is committed, so that a write
// failure of either (a full disk, a file size limit) leaves neither.
static Status close_outputs(OutputFile files[NFORMATS], Status st, ErrorInfo *err) {
    if (st == STATUS_OK && fflush(stdout) != 0)
        st = error_set(err, STATUS_IO, "standard output: %s", strerror(errno));
    for (int f = 0; f < NFORMATS && st == STATUS_OK; f++)
        if (files[f].f && (fflush(files[f].f) != 0 || ferror(files[f].f)))
            st = files_output_commit(&files[f], err); // reports the failure, removes the .tmp
    for (int f = 0; f < NFORMATS; f++) {
        if (!files[f].f)
            continue;
        if (st == STATUS_OK)
            st = files_output_commit(&files[f], err);
        else
            files_output_abort(&files[f]);
    }
    return st;
}

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
    const char *const out[NFORMATS] = {args.pgn, args.plain};
    bool usage_error = true;
    if (st == STATUS_OK)
        st = check_outputs(out, &usage_error, &err);
    if (st != STATUS_OK || res.npos == 0) {
        if (st != STATUS_OK)
            fprintf(stderr, "hansu-selfplay export: %s\n", err.msg);
        if (st == STATUS_OK || usage_error)
            usage(stderr);
        free(inputs);
        return 2;
    }
    char **files = NULL, default_event[600];
    size_t n = 0, nouts = 0;
    snprintf(default_event, sizeof default_event, "hansu-selfplay %.500s", inputs[0]);
    ExportOutput outs[NFORMATS] = {{0}};
    OutputFile outfiles[NFORMATS] = {{0}};
    ExportSummary sum;
    st = h5store_expand_inputs(inputs, (size_t)res.npos, &files, &n, &err);
    if (st == STATUS_OK)
        st = open_outputs(out, outs, outfiles, &nouts, &err);
    if (st == STATUS_OK)
        st = export_games(files, n, &args.sel, args.event ? args.event : default_event, outs, nouts,
                          &sum, &err);
    st = close_outputs(outfiles, st, &err);
    h5store_free_list(files, n);
    free(inputs);
    if (st != STATUS_OK) {
        fprintf(stderr, "hansu-selfplay export: %s\n", err.msg);
        return 1;
    }
    char pv[48] = "";
    if (sum.pv_ends)
        snprintf(pv, sizeof pv, " and %zu PV ends", sum.pv_ends);
    fprintf(stderr, "exported %zu games%s (%zu plies) from %zu files to %s%s%s\n", sum.games, pv,
            sum.plies, sum.files, outs[0].name, nouts > 1 ? " and " : "",
            nouts > 1 ? outs[1].name : "");
    return 0;
}
