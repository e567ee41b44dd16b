// SPDX-License-Identifier: MIT
// hansu-selfplay gib: .gib janggi records (engine/gib.h, docs/gib.md) imported as PGN and,
// optionally, as a file of the HDF5 store (gib_store.h).
#include "commands.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "board.h"
#include "fen.h"
#include "files.h"
#include "flags.h"
#include "gib.h"
#include "gib_openings.h"
#include "gib_store.h"
#include "pgn.h"
#include "rules.h"

typedef struct GibArgs {
    const char *pgn, *store, *openings, *event;
    int opening_plies;
} GibArgs;

static const Flag GIB_FLAGS[] = {
    {"--pgn", FLAG_PATH, FLAG_DEST(GibArgs, pgn), .meta = "OUT.pgn",
     .help = "the games as PGN, as hansu-match and export write it (- is standard output)"},
    {"--store", FLAG_PATH, FLAG_DEST(GibArgs, store), .meta = "OUT.h5",
     .help = "the games with a winner as one file of the HDF5 store (docs/data-format.md),\n"
             "training data as self-play's; unscored (score 0, flag random)"},
    {"--openings", FLAG_PATH, FLAG_DEST(GibArgs, openings), .meta = "OUT.fen",
     .help = "an openings file (hansu-match and hansu-selfplay --openings): the position\n"
             "after --opening-plies plies of each game longer than that, each once\n"
             "(- is standard output)"},
    {"--opening-plies", FLAG_INT, FLAG_DEST(GibArgs, opening_plies), .lo = 1, .hi = GIB_MOVES_MAX,
     .meta = "N", .help = "plies of each game before its opening position [8]"},
    {"--event", FLAG_STRING, FLAG_DEST(GibArgs, event), .meta = "TEXT",
     .help = "the PGN Event tag where a record has no [대회명] (default: gib and its file)"},
};

static void usage(FILE *f) {
    fputs("usage: hansu-selfplay gib [--pgn OUT.pgn] [--store OUT.h5] [--openings OUT.fen]\n"
          "                          [--opening-plies N] [--event TEXT] DIR|FILE...\n"
          "  .gib janggi records (docs/gib.md; UTF-8 or CP949/EUC-KR), each move checked by the\n"
          "  rules; a game ends where the rules end it (the record's later moves dropped, with\n"
          "  a warning). A folder gives its *.gib files, sorted by name. A malformed record or\n"
          "  an illegal move refuses its record, named with its number and line, and the other\n"
          "  records still import; a file that is no .gib text, or a folder without one, is\n"
          "  refused whole. The exit status is then 1 (0 when everything imported). At least\n"
          "  one of --pgn, --store and --openings.\n",
          f);
    flags_help(f, GIB_FLAGS, FLAGS_COUNT(GIB_FLAGS), 22);
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

// Appends path to the list (a malloc'ed copy).
static Status list_add(char ***list, size_t *n, size_t *cap, const char *path, ErrorInfo *err) {
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 16;
        char **l = realloc(*list, c * sizeof *l);
        if (!l)
            return error_set(err, STATUS_NOMEM, "out of memory");
        *list = l, *cap = c;
    }
    if (!((*list)[*n] = strdup(path)))
        return error_set(err, STATUS_NOMEM, "out of memory");
    (*n)++;
    return STATUS_OK;
}

// The .gib files of a folder (name ending in .gib, any case), sorted, appended to the list. A
// folder without one is refused as a missing file is (*refused counts it).
static Status list_folder(const char *dir, char ***list, size_t *n, size_t *cap, size_t *refused,
                          ErrorInfo *err) {
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "hansu-selfplay gib: refused %s: %s\n", dir, strerror(errno));
        (*refused)++;
        return STATUS_OK;
    }
    size_t first = *n;
    Status st = STATUS_OK;
    for (struct dirent *e; st == STATUS_OK && (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcasecmp(e->d_name + l - 4, ".gib") != 0)
            continue;
        char path[FILES_PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        st = list_add(list, n, cap, path, err);
    }
    closedir(d);
    if (st == STATUS_OK && *n == first) {
        fprintf(stderr, "hansu-selfplay gib: refused %s: a folder without a .gib file\n", dir);
        (*refused)++;
    }
    if (st == STATUS_OK)
        qsort(*list + first, *n - first, sizeof **list, compare_names);
    return st;
}

static Status expand_inputs(char **inputs, int ninputs, char ***list, size_t *n, size_t *refused,
                            ErrorInfo *err) {
    size_t cap = 0;
    *list = NULL, *n = 0;
    Status st = STATUS_OK;
    for (int i = 0; i < ninputs && st == STATUS_OK; i++) {
        struct stat sb;
        st = stat(inputs[i], &sb) == 0 && S_ISDIR(sb.st_mode)
                 ? list_folder(inputs[i], list, n, &cap, refused, err)
                 : list_add(list, n, &cap, inputs[i], err);
    }
    return st;
}

static void free_list(char **list, size_t n) {
    for (size_t i = 0; list && i < n; i++)
        free(list[i]);
    free(list);
}

// The end of a game (gib_outcome: where the rules end it, else the record's word for it) and,
// for a record that goes on after it, a closing comment saying so.
static void game_end(const GibGame *g, PgnGame *p, char *detail, size_t detail_len) {
    GibOutcome o = gib_outcome(g);
    p->reason = o.reason;
    p->unknown = !o.known;
    p->draw = o.draw;
    p->winner = o.winner;
    if (g->dropped > 0) {
        snprintf(detail, detail_len,
                 "the game ended at ply %d (%s); the record's %d moves "
                 "after it are not played",
                 g->nmoves, rules_reason_name(g->end.reason), g->dropped);
        p->detail = detail;
    }
}

// Writes one game as PGN.
static Status write_pgn(FILE *out, const char *path, const GibGame *g, const char *event,
                        ErrorInfo *err) {
    char default_event[FILES_PATH_MAX + 8], fen[FEN_BUFFER], opening[64],
        source[FILES_PATH_MAX + 16], detail[160];
    snprintf(default_event, sizeof default_event, "gib %s", path);
    gib_start_fen(g, fen, sizeof fen);
    snprintf(opening, sizeof opening, "%s vs %s", formation_name(g->cho), formation_name(g->han));
    snprintf(source, sizeof source, "%s:%d", path, g->line);
    PgnTag tags[2] = {{"GibSource", source}, {"GibResult", g->result_text}};
    PgnGame p = {
        .event = g->event[0] ? g->event
                 : event     ? event
                             : default_event,
        .site = g->site[0] ? g->site : "?",
        .date = g->date,
        .round = atoi(g->round),
        .white = g->cho_player[0] ? g->cho_player : "?",
        .black = g->han_player[0] ? g->han_player : "?",
        .variant = "janggi",
        .fen = fen,
        .opening = opening,
        .moves = g->moves,
        .nmoves = g->nmoves,
        .tags = tags,
        .ntags = g->result_text[0] ? 2 : 1,
    };
    game_end(g, &p, detail, sizeof detail);
    return pgn_write(out, &p, err);
}

// Says on standard error where the rules ended a game its record goes on after, and where the
// record states another result than the rules give: what every output of it follows.
static void warn_end(const char *path, const GibGame *g) {
    GibOutcome o = gib_outcome(g);
    if (g->dropped > 0)
        fprintf(stderr,
                "hansu-selfplay gib: warning: %s:%d: record %d: the game ended at ply %d (%s); "
                "the %d moves after it are dropped\n",
                path, g->line, g->number, g->nmoves, rules_reason_name(g->end.reason), g->dropped);
    if (o.disagrees)
        fprintf(stderr,
                "hansu-selfplay gib: warning: %s:%d: record %d: it states '%s', but the rules give "
                "%s (%s, points %d.%d to %d.%d)\n",
                path, g->line, g->number, g->result_text,
                o.draw            ? "a draw"
                : o.winner == CHO ? "the game to Cho"
                                  : "the game to Han",
                rules_reason_name(o.reason), g->end.points_half[CHO] / 2,
                g->end.points_half[CHO] % 2 * 5, g->end.points_half[HAN] / 2,
                g->end.points_half[HAN] % 2 * 5);
}

typedef struct Counts {
    size_t files, games, plies, refused, records_refused, unstored, openings, cut, dropped;
} Counts;

// Where the games go: PGN written as each file is read, the store's games and the openings
// gathered; each NULL when not asked for.
typedef struct Sinks {
    FILE *pgn;
    GibStore *store;
    GibOpenings *openings;
} Sinks;

// Sends one game to every output asked for.
static Status import_game(const char *path, const GibGame *g, const GibArgs *args, const Sinks *to,
                          Counts *c, ErrorInfo *err) {
    ErrorInfo why;
    warn_end(path, g);
    c->games++, c->plies += (size_t)g->nmoves;
    c->cut += g->dropped > 0, c->dropped += (size_t)g->dropped;
    Status st = STATUS_OK;
    if (to->pgn && write_pgn(to->pgn, path, g, args->event, &why) != STATUS_OK)
        st = error_set(err, STATUS_IO, "%s: %s",
                       strcmp(args->pgn, "-") ? args->pgn : "standard output", why.msg);
    if (st == STATUS_OK && to->store)
        st = gib_store_add(to->store, path, g, 1, &c->unstored, err);
    if (st == STATUS_OK && to->openings)
        st = gib_openings_add(to->openings, path, g, 1, err);
    return st;
}

// Imports the records of one file, one at a time: a malformed record is refused and named with
// its number, the others imported; a file that cannot be read at all is refused whole.
static Status import_file(const char *path, const GibArgs *args, const Sinks *to, GibGame *g,
                          Counts *c, ErrorInfo *err) {
    GibReader *r;
    ErrorInfo why;
    if (gib_reader_open(path, &r, &why) != STATUS_OK) {
        fprintf(stderr, "hansu-selfplay gib: refused %s\n", why.msg);
        c->refused++;
        return STATUS_OK;
    }
    c->files++;
    Status st = STATUS_OK;
    size_t records = 0;
    for (bool end = false; st == STATUS_OK; records++) {
        Status rs = gib_reader_next(r, g, &end, &why);
        if (rs == STATUS_OK && end)
            break;
        if (rs != STATUS_OK && g->number == 0) { // the file as a whole: no record, or unreadable
            fprintf(stderr, "hansu-selfplay gib: refused %s\n", why.msg);
            c->refused++, c->files -= records == 0;
            st = rs == STATUS_NOMEM ? error_set(err, rs, "%s", why.msg) : STATUS_OK;
            break;
        }
        if (rs != STATUS_OK) {
            fprintf(stderr, "hansu-selfplay gib: refused record %d of %s: %s\n", g->number, path,
                    why.msg);
            c->records_refused++;
            continue;
        }
        st = import_game(path, g, args, to, c, err);
    }
    gib_reader_close(r);
    return st;
}

// Imports every file: PGN written as each game is read, the store's games and the openings
// gathered.
static Status import_all(char **files, size_t n, const GibArgs *args, const Sinks *to, Counts *c,
                         ErrorInfo *err) {
    GibGame *g = malloc(sizeof *g);
    if (!g)
        return error_set(err, STATUS_NOMEM, "out of memory");
    Status st = STATUS_OK;
    for (size_t i = 0; i < n && st == STATUS_OK; i++)
        st = import_file(files[i], args, to, g, c, err);
    free(g);
    return st;
}

// Opens the output files named ("-": standard output, written in place).
static Status open_outputs(const GibArgs *args, OutputFile *pgn, OutputFile *fen, ErrorInfo *err) {
    Status st = STATUS_OK;
    if (args->pgn && strcmp(args->pgn, "-") != 0)
        st = files_output_open(args->pgn, pgn, err);
    if (st == STATUS_OK && args->openings && strcmp(args->openings, "-") != 0)
        st = files_output_open(args->openings, fen, err);
    return st;
}

// Writes what was gathered, then commits the files written (or removes them on failure).
static Status finish_outputs(const GibArgs *args, const Sinks *to, Status st, OutputFile *pgn,
                             OutputFile *fen, Counts *c, ErrorInfo *err) {
    if (st == STATUS_OK && to->store)
        st = gib_store_write(to->store, args->store, err);
    if (st == STATUS_OK && to->openings)
        st = gib_openings_write(to->openings, fen->f ? fen->f : stdout, args->openings,
                                &c->openings, err);
    OutputFile *files[2] = {pgn, fen};
    for (int i = 0; i < 2; i++) {
        if (!files[i]->f)
            continue;
        if (st == STATUS_OK)
            st = files_output_commit(files[i], err);
        else
            files_output_abort(files[i]);
    }
    return st;
}

int cmd_gib(int argc, char **argv) {
    GibArgs args = {.opening_plies = 8};
    ErrorInfo err;
    char **inputs = calloc((size_t)argc, sizeof *inputs);
    FlagResult res = {.pos = inputs};
    Status st =
        inputs ? flags_parse(GIB_FLAGS, FLAGS_COUNT(GIB_FLAGS), argc, argv, 1, &args, &res, &err)
               : error_set(&err, STATUS_NOMEM, "out of memory");
    if (st == STATUS_OK && res.help) {
        usage(stdout);
        free(inputs);
        return 0;
    }
    if (st == STATUS_OK && !args.pgn && !args.store && !args.openings)
        st = error_set(&err, STATUS_SYNTAX, "--pgn OUT, --store OUT or --openings OUT is required");
    else if (st == STATUS_OK && args.pgn && args.openings && strcmp(args.pgn, args.openings) == 0)
        st = error_set(&err, STATUS_SYNTAX, "--pgn and --openings name the same file '%s'",
                       args.pgn);
    if (st != STATUS_OK || res.npos == 0) {
        if (st != STATUS_OK)
            fprintf(stderr, "hansu-selfplay gib: %s\n", err.msg);
        usage(stderr);
        free(inputs);
        return 2;
    }
    char **files = NULL;
    size_t n = 0;
    OutputFile pgn = {0}, fen = {0};
    Sinks to = {0};
    Counts c = {0};
    st = expand_inputs(inputs, res.npos, &files, &n, &c.refused, &err);
    if (st == STATUS_OK)
        st = open_outputs(&args, &pgn, &fen, &err);
    to.pgn = args.pgn ? (pgn.f ? pgn.f : stdout) : NULL;
    if (st == STATUS_OK && args.store)
        st = gib_store_open(&to.store, &err);
    if (st == STATUS_OK && args.openings)
        st = gib_openings_open(args.opening_plies, &to.openings, &err);
    if (st == STATUS_OK)
        st = import_all(files, n, &args, &to, &c, &err);
    st = finish_outputs(&args, &to, st, &pgn, &fen, &c, &err);
    gib_store_free(to.store);
    gib_openings_free(to.openings);
    free_list(files, n);
    free(inputs);
    if (st != STATUS_OK) {
        fprintf(stderr, "hansu-selfplay gib: %s\n", err.msg);
        return 1;
    }
    fprintf(stderr,
            "imported %zu games (%zu plies) from %zu files; %zu files refused, %zu records "
            "refused",
            c.games, c.plies, c.files, c.refused, c.records_refused);
    if (c.cut)
        fprintf(stderr, "; %zu games ended by the rules before their record (%zu moves dropped)",
                c.cut, c.dropped);
    if (to.store)
        fprintf(stderr, "; %zu games stored, %zu not", c.games - c.unstored, c.unstored);
    if (to.openings)
        fprintf(stderr, "; %zu openings", c.openings);
    fputc('\n', stderr);
    return c.refused > 0 || c.records_refused > 0 ? 1 : 0;
}
