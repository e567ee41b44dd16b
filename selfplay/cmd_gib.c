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
          "  rules; a folder gives its *.gib files, sorted by name. A file with a malformed\n"
          "  record or an illegal move is refused, named with its line, and the others still\n"
          "  import; the exit status is then 1. At least one of --pgn, --store and\n"
          "  --openings.\n",
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

// The .gib files of a folder (name ending in .gib, any case), sorted, appended to the list.
static Status list_folder(const char *dir, char ***list, size_t *n, size_t *cap, ErrorInfo *err) {
    DIR *d = opendir(dir);
    if (!d)
        return error_set(err, STATUS_IO, "%s: %s", dir, strerror(errno));
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
    if (st == STATUS_OK)
        qsort(*list + first, *n - first, sizeof **list, compare_names);
    return st;
}

static Status expand_inputs(char **inputs, int ninputs, char ***list, size_t *n, ErrorInfo *err) {
    size_t cap = 0;
    *list = NULL, *n = 0;
    Status st = STATUS_OK;
    for (int i = 0; i < ninputs && st == STATUS_OK; i++) {
        struct stat sb;
        st = stat(inputs[i], &sb) == 0 && S_ISDIR(sb.st_mode)
                 ? list_folder(inputs[i], list, n, &cap, err)
                 : list_add(list, n, &cap, inputs[i], err);
    }
    return st;
}

static void free_list(char **list, size_t n) {
    for (size_t i = 0; list && i < n; i++)
        free(list[i]);
    free(list);
}

// The end of a game: a rule's when its last position ends it, else the record's word for it.
static void game_end(const GibGame *g, Board *b, PgnGame *p) {
    formation_setup(b, g->cho, g->han);
    for (int i = 0; i < g->nmoves; i++)
        board_make(b, g->moves[i]);
    GameResult res;
    p->reason = strstr(g->result_text, "기권")   ? REASON_RESIGN
                : strstr(g->result_text, "시간") ? REASON_TIME
                                                 : REASON_NONE;
    p->unknown = g->result == GIB_RESULT_UNKNOWN;
    p->draw = g->result == GIB_RESULT_DRAW;
    p->winner = g->result == GIB_RESULT_HAN ? HAN : CHO;
    if (rules_game_over(b, &res)) {
        p->reason = res.reason;
        if (p->unknown) // the rules say what the record does not
            p->unknown = false, p->draw = res.draw, p->winner = res.winner;
    }
}

// Writes the games of one file as PGN.
static Status write_pgn(FILE *out, const char *path, const GibGame *games, size_t n,
                        const char *event, Board *b, ErrorInfo *err) {
    char default_event[FILES_PATH_MAX + 8], fen[FEN_BUFFER], opening[64],
        source[FILES_PATH_MAX + 16];
    snprintf(default_event, sizeof default_event, "gib %s", path);
    for (size_t i = 0; i < n; i++) {
        const GibGame *g = &games[i];
        gib_start_fen(g, fen, sizeof fen);
        snprintf(opening, sizeof opening, "%s vs %s", formation_name(g->cho),
                 formation_name(g->han));
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
        game_end(g, b, &p);
        Status st = pgn_write(out, &p, err);
        if (st != STATUS_OK)
            return st;
    }
    return STATUS_OK;
}

typedef struct Counts {
    size_t files, games, plies, refused, unstored, openings;
} Counts;

// Where the games go: PGN written as each file is read, the store's games and the openings
// gathered; each NULL when not asked for.
typedef struct Sinks {
    FILE *pgn;
    GibStore *store;
    GibOpenings *openings;
} Sinks;

// Imports every file: PGN written as each is read, the store's games gathered.
static Status import_all(char **files, size_t n, const GibArgs *args, const Sinks *to, Counts *c,
                         ErrorInfo *err) {
    Board *b = malloc(sizeof *b);
    if (!b)
        return error_set(err, STATUS_NOMEM, "out of memory");
    Status st = STATUS_OK;
    for (size_t i = 0; i < n && st == STATUS_OK; i++) {
        GibGame *games;
        size_t ng;
        ErrorInfo why;
        if (gib_read_file(files[i], &games, &ng, &why) != STATUS_OK) {
            fprintf(stderr, "hansu-selfplay gib: refused %s\n", why.msg);
            c->refused++;
            continue;
        }
        c->files++, c->games += ng;
        for (size_t k = 0; k < ng; k++)
            c->plies += (size_t)games[k].nmoves;
        if (to->pgn && write_pgn(to->pgn, files[i], games, ng, args->event, b, &why) != STATUS_OK)
            st = error_set(err, STATUS_IO, "%s: %s",
                           strcmp(args->pgn, "-") ? args->pgn : "standard output", why.msg);
        if (st == STATUS_OK && to->store)
            st = gib_store_add(to->store, files[i], games, ng, &c->unstored, err);
        if (st == STATUS_OK && to->openings)
            st = gib_openings_add(to->openings, files[i], games, ng, err);
        gib_free(games);
    }
    free(b);
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
    st = expand_inputs(inputs, res.npos, &files, &n, &err);
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
    fprintf(stderr, "imported %zu games (%zu plies) from %zu files; %zu files refused", c.games,
            c.plies, c.files, c.refused);
    if (to.store)
        fprintf(stderr, "; %zu games stored, %zu not", c.games - c.unstored, c.unstored);
    if (to.openings)
        fprintf(stderr, "; %zu openings", c.openings);
    fputc('\n', stderr);
    return c.refused > 0 ? 1 : 0;
}
