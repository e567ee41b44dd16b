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
#include "gib_store.h"
#include "pgn.h"
#include "rules.h"

typedef struct GibArgs {
    const char *pgn, *store, *event;
} GibArgs;

static const Flag GIB_FLAGS[] = {
    {"--pgn", FLAG_PATH, FLAG_DEST(GibArgs, pgn), .meta = "OUT.pgn",
     .help = "the games as PGN, as hansu-match and export write it (- is standard output)"},
    {"--store", FLAG_PATH, FLAG_DEST(GibArgs, store), .meta = "OUT.h5",
     .help = "the games with a winner as one file of the HDF5 store (docs/data-format.md),\n"
             "training data as self-play's; unscored (score 0, flag random)"},
    {"--event", FLAG_STRING, FLAG_DEST(GibArgs, event), .meta = "TEXT",
     .help = "the PGN Event tag where a record has no [대회명] (default: gib and its file)"},
};

static void usage(FILE *f) {
    fputs("usage: hansu-selfplay gib [--pgn OUT.pgn] [--store OUT.h5] [--event TEXT] DIR|FILE...\n"
          "  .gib janggi records (docs/gib.md; UTF-8 or CP949/EUC-KR), each move checked by the\n"
          "  rules; a folder gives its *.gib files, sorted by name. A file with a malformed\n"
          "  record or an illegal move is refused, named with its line, and the others still\n"
          "  import; the exit status is then 1. At least one of --pgn and --store.\n",
          f);
    flags_help(f, GIB_FLAGS, FLAGS_COUNT(GIB_FLAGS), 20);
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
    size_t files, games, plies, refused, unstored;
} Counts;

// Imports every file: PGN written as each is read, the store's games gathered.
static Status import_all(char **files, size_t n, const GibArgs *args, FILE *pgn, GibStore *store,
                         Counts *c, ErrorInfo *err) {
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
        if (pgn && write_pgn(pgn, files[i], games, ng, args->event, b, &why) != STATUS_OK)
            st = error_set(err, STATUS_IO, "%s: %s",
                           strcmp(args->pgn, "-") ? args->pgn : "standard output", why.msg);
        if (st == STATUS_OK && store)
            st = gib_store_add(store, files[i], games, ng, &c->unstored, err);
        gib_free(games);
    }
    free(b);
    return st;
}

int cmd_gib(int argc, char **argv) {
    GibArgs args = {0};
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
    if (st == STATUS_OK && !args.pgn && !args.store)
        st = error_set(&err, STATUS_SYNTAX, "--pgn OUT or --store OUT is required");
    if (st != STATUS_OK || res.npos == 0) {
        if (st != STATUS_OK)
            fprintf(stderr, "hansu-selfplay gib: %s\n", err.msg);
        usage(stderr);
        free(inputs);
        return 2;
    }
    char **files = NULL;
    size_t n = 0;
    OutputFile out = {0};
    GibStore *store = NULL;
    Counts c = {0};
    st = expand_inputs(inputs, res.npos, &files, &n, &err);
    if (st == STATUS_OK && args.pgn && strcmp(args.pgn, "-") != 0)
        st = files_output_open(args.pgn, &out, &err);
    if (st == STATUS_OK && args.store)
        st = gib_store_open(&store, &err);
    if (st == STATUS_OK)
        st = import_all(files, n, &args, args.pgn ? (out.f ? out.f : stdout) : NULL, store, &c,
                        &err);
    if (st == STATUS_OK && store)
        st = gib_store_write(store, args.store, &err);
    if (st == STATUS_OK && out.f)
        st = files_output_commit(&out, &err);
    else if (out.f)
        files_output_abort(&out);
    gib_store_free(store);
    free_list(files, n);
    free(inputs);
    if (st != STATUS_OK) {
        fprintf(stderr, "hansu-selfplay gib: %s\n", err.msg);
        return 1;
    }
    fprintf(stderr, "imported %zu games (%zu plies) from %zu files; %zu files refused", c.games,
            c.plies, c.files, c.refused);
    if (store)
        fprintf(stderr, "; %zu games stored, %zu not", c.games - c.unstored, c.unstored);
    fputc('\n', stderr);
    return c.refused > 0 ? 1 : 0;
}
