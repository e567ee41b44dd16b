// SPDX-License-Identifier: MIT
// hansu-match: plays a match between two UCI engines from the variant's opening suite (or a file
// of FENs, or its start positions) and prints the running score, Elo, SPRT and a
// final summary (match_print.c); or a tournament of more (tournament.h, printed by
// tournament_print.c). The only part that prints, with those two.
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cluster.h"
#include "files.h"
#include "flags.h"
#include "match.h"
#include "match_affinity.h"
#include "match_print.h"
#include "tournament.h"
#include "tournament_print.h"
#include "variant.h"

static atomic_bool stop_requested; // set by SIGINT / SIGTERM

static void on_signal(int sig) {
    (void)sig;
    atomic_store(&stop_requested, true);
}

// One key=value of an --engine group: cmd=, name=, arg=, option.X= or a limit.
static Status engine_item(const char *a, EngineSpec *e, Limits *l, bool *has_limit,
                          ErrorInfo *err) {
    const char *eq = strchr(a, '=');
    // ponder (or ponder=on|off): `go ponder` on the move it predicts, as a GUI lets it.
    if (strcmp(a, "ponder") == 0 || strncmp(a, "ponder=", 7) == 0) {
        if (eq && strcmp(eq + 1, "on") != 0 && strcmp(eq + 1, "off") != 0)
            return error_set(err, STATUS_SYNTAX, "--engine: \"%s\": ponder is on or off", a);
        e->ponder = !eq || strcmp(eq + 1, "on") == 0;
        return STATUS_OK;
    }
    if (!eq)
        return error_set(err, STATUS_SYNTAX, "--engine: \"%s\" is not key=value", a);
    int key = (int)(eq - a);
    if (strncmp(a, "cmd=", 4) == 0) {
        snprintf(e->cmd, sizeof e->cmd, "%s", eq + 1);
    } else if (strncmp(a, "proto=", 6) == 0) {
        if (strcmp(eq + 1, "uci") != 0 && strcmp(eq + 1, "xboard") != 0)
            return error_set(err, STATUS_SYNTAX, "--engine: \"%s\": proto is uci or xboard", a);
        e->xboard = !strcmp(eq + 1, "xboard");
    } else if (strncmp(a, "name=", 5) == 0) {
        snprintf(e->name, sizeof e->name, "%s", eq + 1);
    } else if (strncmp(a, "arg=", 4) == 0) {
        if (e->nargs == ENGINE_MAX_ARGS)
            return error_set(err, STATUS_RANGE, "--engine: \"%s\": more than %d arg= items", a,
                             ENGINE_MAX_ARGS);
        snprintf(e->args[e->nargs++], sizeof e->args[0], "%s", eq + 1);
    } else if (strncmp(a, "option.", 7) == 0) {
        if (e->noptions == ENGINE_MAX_OPTIONS)
            return error_set(err, STATUS_RANGE, "--engine: \"%s\": more than %d option. items", a,
                             ENGINE_MAX_OPTIONS);
        snprintf(e->opt_name[e->noptions], sizeof e->opt_name[0], "%.*s", key - 7, a + 7);
        snprintf(e->opt_value[e->noptions++], sizeof e->opt_value[0], "%s", eq + 1);
    } else if (!match_limit_key(a)) {
        return error_set(err, STATUS_SYNTAX,
                         "--engine: unknown key '%.*s' in \"%s\" (keys: cmd, name, arg, "
                         "option.X, proto, ponder, and the limits nodes, depth, movetime, tc, "
                         "byoyomi)",
                         key, a, a);
    } else {
        Status st = match_parse_limit(a, l, err);
        if (st != STATUS_OK)
            return st;
        *has_limit = true;
    }
    return STATUS_OK;
}

// A finished --engine group: cmd= given; the name defaults to the program's file name.
static Status engine_done(EngineSpec *e, ErrorInfo *err) {
    if (!e->cmd[0])
        return error_set(err, STATUS_SYNTAX, "--engine: cmd= missing");
    if (!e->name[0]) {
        const char *slash = strrchr(e->cmd, '/');
        snprintf(e->name, sizeof e->name, "%.*s", (int)sizeof e->name - 1,
                 slash ? slash + 1 : e->cmd);
    }
    return STATUS_OK;
}

enum { SPRT_ELO_MAX = 1000 }; // normalised Elo bounds beyond this are a typo, not a test

static const char *const SPRT_KEYS[4] = {"elo0=", "elo1=", "alpha=", "beta="};

// One key=value of the --sprt group into v (elo0, elo1, alpha, beta).
static Status sprt_item(const char *a, double v[4], ErrorInfo *err) {
    int k = 0;
    while (k < 4 && strncmp(a, SPRT_KEYS[k], strlen(SPRT_KEYS[k])) != 0)
        k++;
    if (k == 4)
        return error_set(err, STATUS_SYNTAX, "--sprt: unknown \"%s\"", a);
    char flag[16];
    snprintf(flag, sizeof flag, "--sprt %.*s", (int)strlen(SPRT_KEYS[k]) - 1, SPRT_KEYS[k]);
    return cli_parse_double(flag, a + strlen(SPRT_KEYS[k]), -HUGE_VAL, HUGE_VAL, &v[k], err);
}

// The finished --sprt group: both bounds given, sensible, and the test set up.
static Status sprt_done(const double v[4], Sprt *s, ErrorInfo *err) {
    if (isnan(v[0]) || isnan(v[1]))
        return error_set(err, STATUS_SYNTAX, "--sprt: give elo0= and elo1=");
    if (fabs(v[0]) > SPRT_ELO_MAX || fabs(v[1]) > SPRT_ELO_MAX || !(v[0] < v[1]))
        return error_set(err, STATUS_RANGE,
                         "--sprt: need elo0 < elo1, both in -%d..%d (got %g, %g)", SPRT_ELO_MAX,
                         SPRT_ELO_MAX, v[0], v[1]);
    if (!(v[2] > 0 && v[2] < 0.5) || !(v[3] > 0 && v[3] < 0.5))
        return error_set(err, STATUS_RANGE, "--sprt: need 0 < alpha, beta < 0.5 (got %g, %g)", v[2],
                         v[3]);
    if (!stats_sprt_init(s, v[0], v[1], v[2], v[3]))
        return error_set(err, STATUS_RANGE, "--sprt: bad bounds");
    return STATUS_OK;
}

typedef struct Cli {
    MatchConfig cfg;       // the match of two engines (no --tournament)
    TournamentConfig tour; // the engines as given (tour.engine, tour.limits), and a tournament
    bool has_limit[TOURNAMENT_MAX_ENGINES];
    Limits global;
    bool has_global;
    EngineSpec each; // --each: what every engine gets unless it sets it itself
    Limits each_limit;
    bool each_has_limit;
    int nengines;   // --engine groups so far
    double sprt[4]; // elo0, elo1, alpha, beta of --sprt
    char state_buf[FILES_PATH_MAX];
    const char *tournament; // --tournament's word; NULL: a match of two engines
    const char *anchor;     // --anchor NAME[=ELO]
    int rounds;             // --rounds: game pairs per pairing (0: --games decides)
    bool games_given;
    int start;             // --openings-start, 1-based (0: not given)
    TournamentPrint print; // --rating-interval
} Cli;

// --engine: a new engine at the flag, then its key=value words.
static Status set_engine(const Flag *flag, const char *value, void *dest, ErrorInfo *err) {
    Cli *cli = dest;
    if (!value && cli->nengines == TOURNAMENT_MAX_ENGINES)
        return error_set(err, STATUS_SYNTAX, "more than %d %s", TOURNAMENT_MAX_ENGINES, flag->name);
    if (!value) {
        cli->nengines++;
        return STATUS_OK;
    }
    int e = cli->nengines - 1;
    return engine_item(value, &cli->tour.engine[e], &cli->tour.limits[e], &cli->has_limit[e], err);
}

// --each: key=value words that every engine gets unless its --engine group sets them.
static Status set_each(const Flag *flag, const char *value, void *dest, ErrorInfo *err) {
    Cli *cli = dest;
    if (value && strncmp(value, "name=", 5) == 0)
        return error_set(err, STATUS_SYNTAX, "%s: \"%s\": a name belongs to one engine", flag->name,
                         value);
    return value ? engine_item(value, &cli->each, &cli->each_limit, &cli->each_has_limit, err)
                 : STATUS_OK;
}

// Engine e takes what --each gives and it does not set: cmd, args, options, the limit.
static void merge_each(Cli *cli, int e) {
    EngineSpec *s = &cli->tour.engine[e];
    const EngineSpec *each = &cli->each;
    if (!s->cmd[0])
        memcpy(s->cmd, each->cmd, sizeof s->cmd);
    s->xboard |= each->xboard;
    if (s->nargs == 0) {
        s->nargs = each->nargs;
        memcpy(s->args, each->args, sizeof s->args);
    }
    for (int o = 0; o < each->noptions; o++) {
        bool own = false;
        for (int k = 0; k < s->noptions && !own; k++)
            own = !strcmp(s->opt_name[k], each->opt_name[o]);
        if (!own && s->noptions < ENGINE_MAX_OPTIONS) {
            memcpy(s->opt_name[s->noptions], each->opt_name[o], sizeof s->opt_name[0]);
            memcpy(s->opt_value[s->noptions++], each->opt_value[o], sizeof s->opt_value[0]);
        }
    }
    if (!cli->has_limit[e] && cli->each_has_limit) {
        cli->tour.limits[e] = cli->each_limit;
        cli->has_limit[e] = true;
    }
}

// --sprt: the test turned on at the flag, then its key=value words.
static Status set_sprt(const Flag *flag, const char *value, void *dest, ErrorInfo *err) {
    (void)flag;
    Cli *cli = dest;
    if (!value) {
        cli->cfg.sprt_enabled = true;
        return STATUS_OK;
    }
    return sprt_item(value, cli->sprt, err);
}

// One key=value of --resign (movecount=, score=) or --draw (movenumber=, movecount=, score=)
// into the match's adjudication; the flag alone turns the rule on with cutechess's defaults.
static Status set_adjudication(const Flag *flag, const char *value, void *dest, ErrorInfo *err) {
    Cli *cli = dest;
    Adjudication *a = &cli->cfg.adjudicate;
    bool resign = !strcmp(flag->name, "--resign");
    if (!value) {
        if (resign)
            *a = (Adjudication){.resign_moves = 3,
                                .resign_score = 600,
                                .draw_after = a->draw_after,
                                .draw_moves = a->draw_moves,
                                .draw_score = a->draw_score};
        else
            *a = (Adjudication){.resign_moves = a->resign_moves,
                                .resign_score = a->resign_score,
                                .draw_after = 80,
                                .draw_moves = 8,
                                .draw_score = 10};
        return STATUS_OK;
    }
    const char *eq = strchr(value, '=');
    size_t key = eq ? (size_t)(eq - value) : 0;
    int *dst = NULL, lo = 1, v;
    if (key == 9 && !strncmp(value, "movecount", 9))
        dst = resign ? &a->resign_moves : &a->draw_moves;
    else if (key == 5 && !strncmp(value, "score", 5))
        dst = resign ? &a->resign_score : &a->draw_score, lo = resign ? 1 : 0;
    else if (!resign && key == 10 && !strncmp(value, "movenumber", 10))
        dst = &a->draw_after, lo = 0;
    if (!dst)
        return error_set(err, STATUS_SYNTAX, "%s: unknown \"%s\" (keys: %s)", flag->name, value,
                         resign ? "movecount, score" : "movenumber, movecount, score");
    char what[32];
    snprintf(what, sizeof what, "%s %.*s", flag->name, (int)key, value);
    Status st = cli_parse_int(what, eq + 1, lo, 100000, &v, err);
    if (st == STATUS_OK)
        *dst = dst == &a->draw_after ? 2 * v : v; // movenumber: full moves, kept as plies
    return st;
}

// --openings-order: sequential or random.
static Status set_order(const Flag *flag, const char *value, void *dest, ErrorInfo *err) {
    Cli *cli = dest;
    if (strcmp(value, "sequential") != 0 && strcmp(value, "random") != 0)
        return error_set(err, STATUS_SYNTAX, "%s: '%s' is not sequential or random", flag->name,
                         value);
    cli->cfg.openings_random = !strcmp(value, "random");
    return STATUS_OK;
}

// --nodes N and the other limits for both engines: read as the item "nodes=N".
static Status set_limit(const Flag *flag, const char *value, void *dest, ErrorInfo *err) {
    Cli *cli = dest;
    char lim[128];
    snprintf(lim, sizeof lim, "%s=%s", flag->name + 2, value);
    cli->has_global = true;
    return match_parse_limit(lim, &cli->global, err);
}

static Status set_variant(const Flag *flag, const char *value, void *dest, ErrorInfo *err) {
    Cli *cli = dest;
    if (!(cli->cfg.variant = variant_find(value)))
        return error_set(err, STATUS_SYNTAX, "%s: '%s' is not janggi or xiangqi", flag->name,
                         value);
    return STATUS_OK;
}

#define CFG(field) FLAG_DEST(Cli, cfg.field)
#define LIMIT(name, var, text)                                                                     \
    { name, FLAG_CALL, .set = set_limit, .value = true, .meta = var, .help = text }
// The match checks the ranges that matter (match_run): ints here in INT_MIN..INT_MAX.
#define INT(name, field, var, text)                                                                \
    { name, FLAG_INT, CFG(field), .lo = INT_MIN, .hi = INT_MAX, .meta = var, .help = text }

static const Flag MATCH_FLAGS[] = {
    {"--engine", FLAG_GROUP, .set = set_engine, .meta = "cmd=PATH ...",
     .help = "an engine: cmd=PATH [name=N] [arg=A]... [option.X=V]... [proto=xboard]\n"
             "[ponder] [LIMIT] (ponder: go ponder in the opponent's time)\n"
             "(twice: the first is scored; up to 16 with --tournament)"},
    {"--variant", FLAG_CALL, .set = set_variant, .value = true, .meta = "V",
     .help = "janggi (default) or xiangqi, told to every engine that offers\n"
             "UCI_Variant (xiangqi: draws count half a point; a game still\n"
             "going at ply 600 is adjudicated drawn)"},
    LIMIT("--nodes", "N", "nodes per move, for both engines"),
    LIMIT("--depth", "D", "plies per move, for both engines"),
    LIMIT("--movetime", "MS", "milliseconds per move, for both engines"),
    LIMIT("--tc", "B+I", "clock: base and increment in seconds, for both engines"),
    LIMIT("--byoyomi", "B+PxS", "base seconds, P periods of S seconds, for both engines"),
    {"--games", FLAG_INT, CFG(games), .lo = INT_MIN, .hi = INT_MAX, .meta = "N",
     FLAG_GIVEN(Cli, games_given),
     .help = "games, even (default 32); per pairing in a\ntournament"},
    {"--rounds", FLAG_INT, FLAG_DEST(Cli, rounds), .lo = 1, .hi = INT_MAX / 2, .meta = "R",
     .help = "game pairs per pairing (as --games 2R)"},
    INT("--concurrency", concurrency, "N", "games at once (default 1; over all pairings)"),
    {"--tournament", FLAG_STRING, FLAG_DEST(Cli, tournament), .meta = "KIND",
     .help = "gauntlet or round-robin: N >= 2 engines, each pairing a match\n"
             "(the match's flags, but --sprt and --state)"},
    {"--seeds", FLAG_INT, FLAG_DEST(Cli, tour.seeds), .lo = 1, .hi = TOURNAMENT_MAX_ENGINES - 1,
     .meta = "K", .help = "gauntlet: the first K engines play each of the others (default 1)"},
    {"--each", FLAG_GROUP, .set = set_each, .meta = "KEY=V ...",
     .help = "\nwhat every engine gets unless its --engine sets it: cmd=, arg=,\n"
             "option.X=, a limit"},
    {"--anchor", FLAG_STRING, FLAG_DEST(Cli, anchor), .meta = "NAME[=ELO]",
     .help = "tournament: the rating list puts engine NAME at ELO (default 0;\n"
             "without --anchor the ratings average 0)"},
    {"--rating-interval", FLAG_INT, FLAG_DEST(Cli, print.interval), .lo = 0, .hi = INT_MAX,
     .meta = "N",
     .help = "tournament: print the rating list every N pairs (default 10;\n0: at the end only)"},
    {"--move-info", FLAG_BOOL, CFG(move_info),
     .help = "a PGN comment after each move: {score/depth time sd= n= clk=}\n(the engine's last "
             "info line, the referee's time and clock)"},
    {"--affinity", FLAG_BOOL, CFG(affinity),
     .help = "pin each game's engines to cores of their own (where there are\nenough: "
             "concurrency x Threads)"},
    {"--margin", FLAG_INT, CFG(margin), .lo = 0, .hi = INT64_MAX, .meta = "MS",
     .help = "clock overrun allowed (default 100)"},
    {"--watchdog", FLAG_INT, CFG(watchdog), .lo = 1, .hi = INT64_MAX, .meta = "MS",
     .help = "a hang at nodes/depth (default 10000)"},
    {"--openings", FLAG_PATH, CFG(openings_path), .meta = "FILE",
     .help = "start positions (FENs, one a line; default: the variant's\n"
             "suite, data/openings-<variant>.fen, compiled in; 'starts': the\n"
             "variant's start positions, janggi's 16 formation pairings)"},
    {"--openings-order", FLAG_CALL, .set = set_order, .value = true, .meta = "ORDER",
     .help = "sequential (default) or random (shuffled by --seed)"},
    {"--openings-start", FLAG_INT, FLAG_DEST(Cli, start), .lo = 1, .hi = INT_MAX, .meta = "N",
     .help = "the first pair plays opening N (1-based, after the order;\ndefault 1): "
             "a match split or continued elsewhere"},
    INT("--openings-plies", book_plies, "N",
        "a PGN book (.pgn): the first N plies of each game (default all;\nan .epd file is EPD, "
        "another a FEN list)"),
    INT("--random-plies", random_plies, "N", "random opening plies (default 0)"),
    {"--seed", FLAG_UINT, CFG(seed), .max = UINT64_MAX, .meta = "S", .help = "seed"},
    {"--pgn", FLAG_PATH, CFG(pgn_path), .meta = "FILE", .help = "the games as PGN"},
    {"--state", FLAG_PATH, CFG(state_path), .meta = "FILE",
     .help = "the resume state (default PGN.state)"},
    {"--resume", FLAG_BOOL, CFG(resume), .help = "continue the match of --pgn and --state"},
    {"--json", FLAG_PATH, CFG(json_path), .meta = "FILE",
     .help = "the result for programs, docs/json-outputs.md; rewritten\nafter each pair"},
    {"--sprt", FLAG_GROUP, .set = set_sprt, .meta = "elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05]",
     .help = "\nnormalised Elo, pentanomial"},
    {"--resign", FLAG_GROUP, .set = set_adjudication, .meta = "[movecount=3] [score=600]",
     .help = "\nadjudicate a loss once both engines scored a side at least SCORE cp\n"
             "for MOVECOUNT moves each (off by default)"},
    {"--draw", FLAG_GROUP, .set = set_adjudication,
     .meta = "[movenumber=40] [movecount=8] [score=10]",
     .help = "\nadjudicate a draw (xiangqi) once both engines scored within\n"
             "SCORE cp for MOVECOUNT moves each, after move MOVENUMBER (off by default)"},
    {"--event", FLAG_STRING, CFG(event), .meta = "NAME", .help = "the PGN's Event tag"},
    INT("--stop-after-pairs", stop_after_pairs, "K", "testing: stop as if interrupted"),
};

#undef CFG
#undef LIMIT
#undef INT

static void usage(FILE *f) {
    fputs("usage: hansu-match --engine cmd=PATH [name=N] [arg=A]... [option.X=V]... [LIMIT]\n"
          "                   --engine ... [options]\n"
          "       hansu-match --tournament gauntlet|round-robin --engine ... --engine ...\n"
          "                   --engine ... [--each KEY=V ...] [options]\n"
          "LIMIT (per engine, or for both as --LIMIT VALUE): nodes=N depth=D movetime=MS\n"
          "      tc=BASE+INC (seconds) byoyomi=BASE+PERIODSxSECS (e.g. 300+3x30)\n"
          "options:\n",
          f);
    flags_help(f, MATCH_FLAGS, FLAGS_COUNT(MATCH_FLAGS), 24);
}

// A later engine of a tournament named as an earlier one gets "-K" (K: its place, 1-based).
static void tournament_names(TournamentConfig *t) {
    for (int e = 1; e < t->nengines; e++)
        for (int d = 0; d < e; d++)
            if (!strcmp(t->engine[d].name, t->engine[e].name)) {
                char suffix[8];
                int n = snprintf(suffix, sizeof suffix, "-%d", e + 1);
                size_t keep = strlen(t->engine[e].name);
                if (keep + (size_t)n >= sizeof t->engine[e].name)
                    keep = sizeof t->engine[e].name - 1 - (size_t)n;
                snprintf(t->engine[e].name + keep, sizeof t->engine[e].name - keep, "%s", suffix);
                break;
            }
}

// --anchor NAME[=ELO] into t->anchor and t->anchor_elo; -1 without the flag.
static Status anchor_arg(const char *text, TournamentConfig *t, ErrorInfo *err) {
    t->anchor = -1;
    if (!text)
        return STATUS_OK;
    const char *eq = strrchr(text, '=');
    size_t len = eq ? (size_t)(eq - text) : strlen(text);
    Status st = STATUS_OK;
    if (eq)
        st = cli_parse_double("--anchor", eq + 1, -1e6, 1e6, &t->anchor_elo, err);
    for (int e = 0; e < t->nengines && st == STATUS_OK && t->anchor < 0; e++)
        if (strlen(t->engine[e].name) == len && !strncmp(t->engine[e].name, text, len))
            t->anchor = e;
    if (st == STATUS_OK && t->anchor < 0)
        st = error_set(err, STATUS_SYNTAX, "--anchor %s: no engine named \"%.*s\"", text, (int)len,
                       text);
    return st;
}

// The tournament from the parsed flags: its kind, the shared settings, the anchor.
static Status tournament_args(Cli *cli, ErrorInfo *err) {
    TournamentConfig *t = &cli->tour;
    MatchConfig *c = &cli->cfg;
    if (!strcmp(cli->tournament, "gauntlet"))
        t->kind = TOURNAMENT_GAUNTLET;
    else if (!strcmp(cli->tournament, "round-robin"))
        t->kind = TOURNAMENT_ROUND_ROBIN;
    else
        return error_set(err, STATUS_SYNTAX, "--tournament: '%s' is not gauntlet or round-robin",
                         cli->tournament);
    if (c->sprt_enabled)
        return error_set(err, STATUS_SYNTAX,
                         "--sprt: a match of two engines only, not a "
                         "tournament");
    if (c->state_path)
        return error_set(err, STATUS_SYNTAX,
                         "--state: a tournament keeps each pairing's state "
                         "beside its PGN (see --pgn)");
    if (t->kind == TOURNAMENT_ROUND_ROBIN && t->seeds > 0)
        return error_set(err, STATUS_SYNTAX, "--seeds: a gauntlet's, not a round robin's");
    if (t->seeds == 0)
        t->seeds = 1;
    t->nengines = cli->nengines;
    t->pgn_path = c->pgn_path;
    t->json_path = c->json_path;
    t->base = *c;
    tournament_names(t);
    return anchor_arg(cli->anchor, t, err);
}

// The resume state by default: "PGN.state" beside the PGN's target (a link's target, so both
// names of one PGN have one state); none for a PGN that is a device or FIFO (--pgn /dev/stdout):
// nothing is created beside a device, and such a PGN cannot be resumed anyway.
static Status default_state(Cli *cli, ErrorInfo *err) {
    MatchConfig *c = &cli->cfg;
    char target[FILES_PATH_MAX];
    bool in_place;
    ErrorInfo e;
    if (files_output_target(c->pgn_path, target, &in_place, &e) != STATUS_OK)
        return error_set(err, STATUS_IO, "--pgn %s", e.msg);
    if (in_place && c->resume)
        return error_set(err, STATUS_SYNTAX,
                         "--resume: --pgn %s is a device or FIFO, not a file: no match to resume "
                         "there (give --state FILE and a PGN file)",
                         c->pgn_path);
    if (in_place)
        return STATUS_OK;
    if (files_output_side(c->pgn_path, ".state", cli->state_buf, &e) != STATUS_OK)
        return error_set(err, STATUS_IO, "--pgn %s", e.msg);
    c->state_path = cli->state_buf;
    return STATUS_OK;
}

static Status parse_args(int argc, char **argv, Cli *cli, bool *help, ErrorInfo *err) {
    *cli = (Cli){.sprt = {NAN, NAN, 0.05, 0.05}, .print = {.interval = 10}};
    MatchConfig *c = &cli->cfg;
    *c = (MatchConfig){.games = 32,
                       .concurrency = 1,
                       .margin = 100,
                       .watchdog = 10000,
                       .start_timeout = 10000,
                       .event = "hansu-match",
                       .site = "local"};
    FlagResult res = {0};
    Status st = flags_parse(MATCH_FLAGS, FLAGS_COUNT(MATCH_FLAGS), argc, argv, 1, cli, &res, err);
    if (st != STATUS_OK || (*help = res.help))
        return st;
    for (int e = 0; e < cli->nengines && st == STATUS_OK; e++) {
        merge_each(cli, e);
        st = engine_done(&cli->tour.engine[e], err);
    }
    if (st == STATUS_OK && c->sprt_enabled)
        st = sprt_done(cli->sprt, &c->sprt, err);
    if (st != STATUS_OK)
        return st;
    if (cli->nengines > 2 && !cli->tournament)
        return error_set(err, STATUS_SYNTAX,
                         "%d --engine groups: more than two --engine need --tournament gauntlet "
                         "or round-robin",
                         cli->nengines);
    if (cli->nengines < 2)
        return error_set(err, STATUS_SYNTAX, "two --engine groups are needed");
    for (int e = 0; e < cli->nengines; e++) {
        if (!cli->has_limit[e] && !cli->has_global)
            return error_set(err, STATUS_SYNTAX, "engine %s: no limit (nodes, depth, movetime, tc)",
                             cli->tour.engine[e].name);
        if (!cli->has_limit[e])
            cli->tour.limits[e] = cli->global;
    }
    if (cli->rounds > 0 && cli->games_given)
        return error_set(err, STATUS_SYNTAX, "--rounds %d and --games %d: give one", cli->rounds,
                         c->games);
    if (cli->rounds > 0)
        c->games = 2 * cli->rounds;
    if (cli->start > 0)
        c->openings_start = cli->start - 1;
    if (cli->tournament)
        return tournament_args(cli, err);
    for (int e = 0; e < 2; e++) {
        c->engine[e] = cli->tour.engine[e];
        c->limits[e] = cli->tour.limits[e];
    }
    if (!strcmp(c->engine[0].name, c->engine[1].name))
        snprintf(c->engine[1].name + strlen(c->engine[1].name) - (strlen(c->engine[1].name) > 60),
                 4, "-2");
    return c->state_path || !c->pgn_path ? STATUS_OK : default_state(cli, err);
}

static void on_warning(const char *msg, void *arg) {
    (void)arg;
    fprintf(stderr, "hansu-match: warning: %s\n", msg);
}

// A tournament: progress, then the summary; 2 when interrupted.
static int run_tournament(Cli *cli, ClusterPart self) {
    if (self.count > 1) {
        if (self.index == 1)
            fprintf(stderr, "hansu-match: --tournament runs on one process, not over MPI ranks\n");
        return 1;
    }
    cli->tour.base.stop = &stop_requested;
    cli->tour.base.warn = on_warning;
    TournamentTally tally;
    ErrorInfo err;
    Status st = tournament_run(&cli->tour, &tally, tournament_print_progress, &cli->print, &err);
    if (st != STATUS_OK) {
        fprintf(stderr, "hansu-match: %s\n", err.msg);
        tournament_tally_free(&tally);
        return 1;
    }
    tournament_print_summary(&tally, &cli->tour);
    match_print_cores(cli->tour.base.affinity, cli->tour.base.concurrency,
                      match_affinity_threads(cli->tour.engine, cli->tour.nengines));
    int rc = tally.interrupted ? 2 : 0;
    tournament_tally_free(&tally);
    return rc;
}

// Under MPI only rank 0 prints (the usage, progress and summary); another rank prints only
// an error, naming itself.
static int run(int argc, char **argv, ClusterPart self) {
    Cli cli;
    ErrorInfo err;
    bool help = false;
    Status st = parse_args(argc, argv, &cli, &help, &err);
    if (st != STATUS_OK) {
        if (self.index == 1)
            fprintf(stderr, "hansu-match: %s (see --help)\n", err.msg);
        return 1;
    }
    if (help) {
        if (self.index == 1)
            usage(stdout);
        return 0;
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    files_set_stop(&stop_requested); // a FIFO output waited for ends on a stop too
    cli.cfg.stop = &stop_requested;
    cli.cfg.warn = on_warning;
    if (cli.tournament)
        return run_tournament(&cli, self);
    MatchTally tally;
    st = match_run(&cli.cfg, &tally, match_print_progress, NULL, &err);
    if (st != STATUS_OK && self.index > 1)
        fprintf(stderr, "hansu-match: rank %u of %u: %s\n", self.index - 1, self.count, err.msg);
    else if (st != STATUS_OK)
        fprintf(stderr, "hansu-match: %s\n", err.msg);
    if (st != STATUS_OK)
        return 1;
    if (self.index > 1)
        return 0;
    if (self.count > 1)
        printf("\n(%u MPI ranks, %d games at once on each)", self.count, cli.cfg.concurrency);
    match_print_summary(&tally, &cli.cfg);
    return tally.interrupted ? 2 : 0;
}

int main(int argc, char **argv) {
    cli_init();
    ErrorInfo err;
    if (cluster_init(&argc, &argv, &err) != STATUS_OK) {
        fprintf(stderr, "hansu-match: %s\n", err.msg);
        return 1;
    }
    int rc = run(argc, argv, cluster_self());
    cluster_finish();
    return rc;
}
