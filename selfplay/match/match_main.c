// SPDX-License-Identifier: MIT
// hansu-match: plays a match between two UCI engines over the janggi formation pairings (or
// xiangqi's start position, --variant xiangqi) and prints the running score, Elo, SPRT and a
// final summary. The only part that prints.
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cluster.h"
#include "engine.h"
#include "match.h"
#include "variant.h"

static atomic_bool stop_requested; // set by SIGINT / SIGTERM

static void on_signal(int sig) {
    (void)sig;
    atomic_store(&stop_requested, true);
}

static void usage(void) {
    fputs("usage: hansu-match --engine cmd=PATH [name=N] [arg=A]... [option.X=V]... [LIMIT]\n"
          "                   --engine ... [options]\n"
          "LIMIT (per engine, or for both as --LIMIT VALUE): nodes=N depth=D movetime=MS\n"
          "      tc=BASE+INC (seconds) byoyomi=BASE+PERIODSxSECS (e.g. 300+3x30)\n"
          "options: --games N (even, default 32) --concurrency N (default 1)\n"
          "  --variant janggi|xiangqi (default janggi; xiangqi sets each engine's UCI_Variant,\n"
          "  draws count half a point; a game still going at ply 600 is adjudicated drawn)\n"
          "  --nodes N --depth D --movetime MS --tc B+I --byoyomi B+PxS\n"
          "  --margin MS (clock overrun allowed, default 100) --watchdog MS (hang at\n"
          "  nodes/depth, default 10000) --openings FILE (FENs) --random-plies N --seed S\n"
          "  --pgn FILE --state FILE (default PGN.state) --resume\n"
          "  --json FILE (the result for programs, docs/json-outputs.md; rewritten after\n"
          "  each pair)\n"
          "  --sprt elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05] (normalised Elo, pentanomial)\n"
          "  --event NAME --stop-after-pairs K (testing: stop as if interrupted)\n",
          stderr);
}

// One key=value of an --engine group: cmd=, name=, arg=, option.X= or a limit.
static Status engine_item(const char *a, EngineSpec *e, Limits *l, bool *has_limit,
                          ErrorInfo *err) {
    const char *eq = strchr(a, '=');
    if (!eq)
        return error_set(err, STATUS_SYNTAX, "--engine: \"%s\" is not key=value", a);
    if (strncmp(a, "cmd=", 4) == 0) {
        snprintf(e->cmd, sizeof e->cmd, "%s", eq + 1);
    } else if (strncmp(a, "name=", 5) == 0) {
        snprintf(e->name, sizeof e->name, "%s", eq + 1);
    } else if (strncmp(a, "arg=", 4) == 0 && e->nargs < ENGINE_MAX_ARGS) {
        snprintf(e->args[e->nargs++], sizeof e->args[0], "%s", eq + 1);
    } else if (strncmp(a, "option.", 7) == 0 && e->noptions < ENGINE_MAX_OPTIONS) {
        snprintf(e->opt_name[e->noptions], sizeof e->opt_name[0], "%.*s", (int)(eq - a - 7), a + 7);
        snprintf(e->opt_value[e->noptions++], sizeof e->opt_value[0], "%s", eq + 1);
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

// A flag's int value in INT_MIN..INT_MAX (the match checks the ranges that matter).
static Status parse_int(const char *flag, const char *s, int *out, ErrorInfo *err) {
    return cli_parse_int(flag, s, INT_MIN, INT_MAX, out, err);
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
    MatchConfig cfg;
    bool has_limit[2];
    Limits global;
    bool has_global;
    char state_buf[1024];
} Cli;

// Options that take one value. Returns STATUS_SYNTAX for an unknown flag.
static Status parse_flag(Cli *cli, const char *flag, const char *val, ErrorInfo *err) {
    MatchConfig *c = &cli->cfg;
    char lim[128];
    const char *limit_flags[] = {"--nodes", "--depth", "--movetime", "--tc", "--byoyomi"};
    for (int k = 0; k < 5; k++)
        if (strcmp(flag, limit_flags[k]) == 0) {
            snprintf(lim, sizeof lim, "%s=%s", flag + 2, val);
            cli->has_global = true;
            return match_parse_limit(lim, &cli->global, err);
        }
    Status st = STATUS_OK;
    if (strcmp(flag, "--games") == 0)
        st = parse_int(flag, val, &c->games, err);
    else if (strcmp(flag, "--concurrency") == 0)
        st = parse_int(flag, val, &c->concurrency, err);
    else if (strcmp(flag, "--margin") == 0)
        st = cli_parse_i64(flag, val, 0, INT64_MAX, &c->margin, err);
    else if (strcmp(flag, "--watchdog") == 0)
        st = cli_parse_i64(flag, val, 1, INT64_MAX, &c->watchdog, err);
    else if (strcmp(flag, "--openings") == 0)
        c->openings_path = val;
    else if (strcmp(flag, "--random-plies") == 0)
        st = parse_int(flag, val, &c->random_plies, err);
    else if (strcmp(flag, "--seed") == 0)
        st = cli_parse_u64(flag, val, UINT64_MAX, &c->seed, err);
    else if (strcmp(flag, "--pgn") == 0)
        c->pgn_path = val;
    else if (strcmp(flag, "--state") == 0)
        c->state_path = val;
    else if (strcmp(flag, "--json") == 0)
        c->json_path = val;
    else if (strcmp(flag, "--event") == 0)
        c->event = val;
    else if (strcmp(flag, "--variant") == 0) {
        if (!(c->variant = variant_find(val)))
            st = error_set(err, STATUS_SYNTAX, "--variant: '%s' is not janggi or xiangqi", val);
    } else if (strcmp(flag, "--stop-after-pairs") == 0)
        st = parse_int(flag, val, &c->stop_after_pairs, err);
    else
        return error_set(err, STATUS_SYNTAX, "unknown option %s", flag);
    return st;
}

enum { OPT_ENGINE = 256, OPT_SPRT, OPT_RESUME, OPT_HELP, OPT_VALUE };

// getopt_long in "-" mode hands over the key=value items of --engine and --sprt in order (as
// option 1); every other flag takes one value (OPT_VALUE, told apart by its name).
// clang-format off
static const struct option OPTIONS[] = {
    {"engine", 0, 0, OPT_ENGINE},   {"sprt", 0, 0, OPT_SPRT},
    {"resume", 0, 0, OPT_RESUME},   {"help", 0, 0, OPT_HELP},
    {"nodes", 1, 0, OPT_VALUE},     {"depth", 1, 0, OPT_VALUE},
    {"movetime", 1, 0, OPT_VALUE},  {"tc", 1, 0, OPT_VALUE},
    {"byoyomi", 1, 0, OPT_VALUE},   {"games", 1, 0, OPT_VALUE},
    {"concurrency", 1, 0, OPT_VALUE}, {"margin", 1, 0, OPT_VALUE},
    {"watchdog", 1, 0, OPT_VALUE},  {"openings", 1, 0, OPT_VALUE},
    {"random-plies", 1, 0, OPT_VALUE}, {"seed", 1, 0, OPT_VALUE},
    {"pgn", 1, 0, OPT_VALUE},       {"state", 1, 0, OPT_VALUE},
    {"json", 1, 0, OPT_VALUE},      {"event", 1, 0, OPT_VALUE},
    {"stop-after-pairs", 1, 0, OPT_VALUE}, {"variant", 1, 0, OPT_VALUE},
    {0, 0, 0, 0},
};
// clang-format on

static Status parse_args(int argc, char **argv, Cli *cli, ErrorInfo *err) {
    *cli = (Cli){0};
    MatchConfig *c = &cli->cfg;
    *c = (MatchConfig){.games = 32,
                       .concurrency = 1,
                       .margin = 100,
                       .watchdog = 10000,
                       .start_timeout = 10000,
                       .event = "hansu-match",
                       .site = "local"};
    enum { GROUP_NONE, GROUP_ENGINE, GROUP_SPRT } group = GROUP_NONE;
    double sprt[4] = {NAN, NAN, 0.05, 0.05};
    int nengines = 0, opt, index = 0;
    Status st = STATUS_OK;
    opterr = 0; // the messages below name the flag
    while (st == STATUS_OK && (opt = getopt_long(argc, argv, "-h", OPTIONS, &index)) != -1) {
        int e = nengines - 1;
        if (opt == 1 && group == GROUP_ENGINE)
            st = engine_item(optarg, &c->engine[e], &c->limits[e], &cli->has_limit[e], err);
        else if (opt == 1 && group == GROUP_SPRT)
            st = sprt_item(optarg, sprt, err);
        else if (opt == 1)
            st = error_set(err, STATUS_SYNTAX, "unexpected argument '%s'", optarg);
        else if (group == GROUP_ENGINE && (st = engine_done(&c->engine[e], err)) != STATUS_OK)
            break;
        if (opt == 1)
            continue;
        group = GROUP_NONE;
        if (opt == OPT_ENGINE && nengines == 2)
            st = error_set(err, STATUS_SYNTAX, "more than two --engine");
        else if (opt == OPT_ENGINE)
            nengines++, group = GROUP_ENGINE;
        else if (opt == OPT_SPRT)
            c->sprt_enabled = true, group = GROUP_SPRT;
        else if (opt == OPT_RESUME)
            c->resume = true;
        else if (opt == OPT_HELP || opt == 'h')
            st = error_set(err, STATUS_SYNTAX, "help");
        else if (opt == OPT_VALUE) {
            char flag[32];
            snprintf(flag, sizeof flag, "--%s", OPTIONS[index].name);
            st = parse_flag(cli, flag, optarg, err);
        } else if (optopt == OPT_VALUE) // getopt's '?' for a known flag without its value
            st = error_set(err, STATUS_SYNTAX, "option %s needs a value", argv[optind - 1]);
        else
            st = error_set(err, STATUS_SYNTAX, "unknown option %s", argv[optind - 1]);
    }
    if (st == STATUS_OK && group == GROUP_ENGINE)
        st = engine_done(&c->engine[nengines - 1], err);
    if (st == STATUS_OK && c->sprt_enabled)
        st = sprt_done(sprt, &c->sprt, err);
    if (st != STATUS_OK)
        return st;
    if (nengines != 2)
        return error_set(err, STATUS_SYNTAX, "two --engine groups are needed");
    for (int e = 0; e < 2; e++) {
        if (!cli->has_limit[e] && !cli->has_global)
            return error_set(err, STATUS_SYNTAX, "engine %s: no limit (nodes, depth, movetime, tc)",
                             c->engine[e].name);
        if (!cli->has_limit[e])
            c->limits[e] = cli->global;
    }
    if (!strcmp(c->engine[0].name, c->engine[1].name))
        snprintf(c->engine[1].name + strlen(c->engine[1].name) - (strlen(c->engine[1].name) > 60),
                 4, "-2");
    if (!c->state_path && c->pgn_path) {
        snprintf(cli->state_buf, sizeof cli->state_buf, "%s.state", c->pgn_path);
        c->state_path = cli->state_buf;
    }
    return STATUS_OK;
}

static void print_elo(const char *label, const MatchTally *t) {
    EloEstimate e = stats_elo_penta(t->penta);
    printf("%s Elo %.1f +/- %.1f, nElo %.1f +/- %.1f, LOS %.1f %%", label, e.elo, e.elo_error,
           e.nelo, e.nelo_error, 100.0 * e.los);
}

// Engine 0's score in per cent: a win counts 1, a draw 1/2.
static double score_percent(const MatchTally *t) {
    return t->games ? 100.0 * (t->wins[0] + 0.5 * t->draws) / t->games : 0.0;
}

static void on_progress(const MatchTally *t, const MatchConfig *c, void *arg) {
    (void)arg;
    // Draws are shown once there are any (janggi has none: its line is W - L).
    if (t->draws)
        printf("pairs %d/%d  %s %ld - %ld - %ld %s (%.1f %%) ", t->pairs_done, t->pairs_total,
               c->engine[0].name, t->wins[0], t->draws, t->wins[1], c->engine[1].name,
               score_percent(t));
    else
        printf("pairs %d/%d  %s %ld - %ld %s (%.1f %%) ", t->pairs_done, t->pairs_total,
               c->engine[0].name, t->wins[0], t->wins[1], c->engine[1].name, score_percent(t));
    print_elo("|", t);
    if (c->sprt_enabled)
        printf(" | LLR %.2f (%.2f, %.2f)", t->llr, c->sprt.lower, c->sprt.upper);
    printf("\n");
    fflush(stdout);
}

// Wins of each engine by end reason (a loss of one is a win of the other). The fault rows
// (time, illegal-move, crash) are always shown, so "no fault" reads as an explicit 0.
static void print_reasons(const MatchTally *t, const MatchConfig *c) {
    printf("%-16s %20.20s %20.20s\n", "won by", c->engine[0].name, c->engine[1].name);
    for (int r = 1; r < REASON_NB; r++) {
        bool fault = r == REASON_TIME || r == REASON_ILLEGAL_MOVE || r == REASON_CRASH;
        if (fault || t->wins_by[0][r] || t->wins_by[1][r])
            printf("%-16s %20ld %20ld\n", rules_reason_name(r), t->wins_by[0][r], t->wins_by[1][r]);
    }
}

static void print_summary(const MatchTally *t, const MatchConfig *c) {
    printf("\n=== %s vs %s: %ld games, %d pairs (%d read back from the state file) ===\n",
           c->engine[0].name, c->engine[1].name, t->games, t->pairs_done, t->pairs_resumed);
    if (t->draws) {
        printf("Score %ld - %ld - %ld (wins - draws - losses, %.1f %%); the side moving first "
               "won %ld\n",
               t->wins[0], t->draws, t->wins[1], score_percent(t), t->cho_wins);
        printf("Draws by reason:");
        for (int r = 1; r < REASON_NB; r++)
            if (t->draws_by[r])
                printf(" %s %ld", rules_reason_name(r), t->draws_by[r]);
        printf("\n");
    } else
        printf("Score %ld - %ld (%.1f %%); the side moving first (%s) won %ld\n", t->wins[0],
               t->wins[1], score_percent(t), variant_or_default(c->variant)->side_names[0],
               t->cho_wins);
    for (int e = 0; e < 2; e++) {
        printf("%s wins by reason:", c->engine[e].name);
        for (int r = 1; r < REASON_NB; r++)
            if (t->wins_by[e][r])
                printf(" %s %ld", rules_reason_name(r), t->wins_by[e][r]);
        printf("  (restarts after faults: %ld)\n", t->restarts[e]);
    }
    print_reasons(t, c);
    print_elo("", t);
    EloEstimate e = stats_elo_penta(t->penta);
    printf("\n95%% Elo interval [%.1f, %.1f]", e.elo_lower, e.elo_upper);
    printf("\nPentanomial [LL, LD, WL+DD, WD, WW] = [%ld, %ld, %ld, %ld, %ld]\n", t->penta[0],
           t->penta[1], t->penta[2], t->penta[3], t->penta[4]);
    if (c->sprt_enabled) {
        const char *verdict[] = {"continue (no bound crossed)", "H0 accepted", "H1 accepted"};
        printf("SPRT [%.2f, %.2f] alpha %.3f beta %.3f: LLR %.3f (%.3f, %.3f): %s\n", c->sprt.elo0,
               c->sprt.elo1, c->sprt.alpha, c->sprt.beta, t->llr, c->sprt.lower, c->sprt.upper,
               verdict[t->sprt_result]);
    }
    if (t->interrupted)
        printf("Interrupted after %d of %d pairs; --resume continues it.\n", t->pairs_done,
               t->pairs_total);
}

// Under MPI only rank 0 prints (the usage, progress and summary); another rank prints only
// an error, naming itself.
static int run(int argc, char **argv, ClusterPart self) {
    Cli cli;
    ErrorInfo err;
    Status st = parse_args(argc, argv, &cli, &err);
    if (st != STATUS_OK) {
        if (self.index == 1 && strcmp(err.msg, "help") != 0)
            fprintf(stderr, "hansu-match: %s\n", err.msg);
        if (self.index == 1)
            usage();
        return 1;
    }
    engine_init();
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    cli.cfg.stop = &stop_requested;
    MatchTally tally;
    st = match_run(&cli.cfg, &tally, on_progress, NULL, &err);
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
    print_summary(&tally, &cli.cfg);
    return tally.interrupted ? 2 : 0;
}

int main(int argc, char **argv) {
    cli_ignore_sigxfsz();
    ErrorInfo err;
    if (cluster_init(&argc, &argv, &err) != STATUS_OK) {
        fprintf(stderr, "hansu-match: %s\n", err.msg);
        return 1;
    }
    int rc = run(argc, argv, cluster_self());
    cluster_finish();
    return rc;
}
