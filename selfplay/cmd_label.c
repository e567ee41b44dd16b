// SPDX-License-Identifier: MIT
// hansu-selfplay label: games of PGN files (Hansu's against other engines) stored as a run folder
// of the HDF5 store, their positions scored by Hansu's search at fixed nodes (label.h,
// docs/data-format.md "Labelled games"): the inputs checked first, shards written as their games
// finish, --resume continuing a killed run.
#include "commands.h"

#include <errno.h>
#include <omp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "cli.h"
#include "flags.h"
#include "label_folder.h"
#include "sha256.h"
#include "timeman.h"
#include "tt.h"
#include "variant.h"

static atomic_bool stop_requested =
    false; // set by SIGINT / SIGTERM: the shard under way is dropped

static void on_signal(int sig) {
    (void)sig;
    atomic_store(&stop_requested, true);
}

typedef struct LabelArgs {
    LabelSettings set;
    const char *out, *evalfile, *json;
    const Variant *variant;
    int threads;
    bool classical, resume, no_bench, check_only;
    bool pv_nodes_given; // --pv-nodes was given (else it is --nodes)
} LabelArgs;

static Status set_variant(const Flag *flag, const char *value, void *dest, ErrorInfo *err) {
    LabelArgs *a = dest;
    if (!(a->variant = variant_find(value)))
        return error_set(err, STATUS_SYNTAX, "%s: '%s' is not janggi or xiangqi", flag->name,
                         value);
    return STATUS_OK;
}

static Status set_pv_nodes(const Flag *flag, const char *value, void *dest, ErrorInfo *err) {
    LabelArgs *a = dest;
    a->pv_nodes_given = true;
    return cli_parse_u64(flag->name, value, INT64_MAX, &a->set.pv_nodes, err);
}

#define SET(field) FLAG_DEST(LabelArgs, set.field)
static const Flag LABEL_FLAGS[] = {
    {"--out", FLAG_PATH, FLAG_DEST(LabelArgs, out), .meta = "DIR",
     .help = "the run folder of shards (required; one writer at a time)"},
    {"--nodes", FLAG_UINT, SET(nodes), .max = INT64_MAX, .meta = "N",
     .help = "nodes of each position's search, one thread [50000]"},
    {"--pv-ends", FLAG_BOOL, SET(pv_ends),
     .help = "store each search's PV end too: the position its PV reaches,\n"
             "searched on its own (docs/data-format.md, \"PV ends\")"},
    {"--pv-nodes", FLAG_CALL, .set = set_pv_nodes, .value = true, .meta = "N",
     .help = "nodes of each PV end's search, one thread [--nodes]"},
    {"--threads", FLAG_INT, FLAG_DEST(LabelArgs, threads), .lo = 0, .hi = 4096, .meta = "T",
     .help = "games labelled at once, one search thread each [all cores];\n"
             "the labels do not depend on it"},
    {"--skip-plies", FLAG_INT, SET(skip_plies), .lo = 0, .hi = 600, .meta = "N",
     .help = "leave the first N plies of each game unsearched [0]"},
    {"--every", FLAG_INT, SET(every), .lo = 1, .hi = 600, .meta = "K",
     .help = "search every K-th position that may be searched [1]"},
    {"--to-move", FLAG_STRING, SET(to_move), .meta = "NAME",
     .help = "search only the positions where the player NAME (White or\n"
             "Black tag) is to move; games NAME does not play are left out"},
    {"--variant", FLAG_CALL, .set = set_variant, .value = true, .meta = "V",
     .help = "janggi or xiangqi [the first game's Variant tag]"},
    {"--evalfile", FLAG_PATH, FLAG_DEST(LabelArgs, evalfile), .meta = "FILE",
     .help = "label with this .nnue net [the variant's compiled-in net]"},
    {"--classical", FLAG_BOOL, FLAG_DEST(LabelArgs, classical),
     .help = "label with the classical evaluation"},
    {"--blend", FLAG_INT, SET(blend), .lo = 0, .hi = 100, .meta = "P",
     .help = "search with the net blended with P % of the classical\n"
             "evaluation (hansu's eval_blend) [the variant's own]"},
    {"--hash", FLAG_UINT, SET(hash_mb), .max = TT_MB_MAX, .meta = "MB",
     .help = "TT of each thread, MB [16, as hansu's UCI Hash]"},
    {"--shard-games", FLAG_UINT, SET(shard_games), .max = 1 << 20, .meta = "G",
     .help = "games per shard: each shard is written once its games are\n"
             "labelled, and a kill loses at most the shard under way [32]"},
    {"--resume", FLAG_BOOL, FLAG_DEST(LabelArgs, resume),
     .help = "continue the run in --out: same inputs and settings, its\n"
             "finished shards kept"},
    {"--no-bench", FLAG_BOOL, FLAG_DEST(LabelArgs, no_bench),
     .help = "skip the bench signature (recorded as 'skipped')"},
    {"--check-args", FLAG_BOOL, FLAG_DEST(LabelArgs, check_only),
     .help = "check the flags and exit: 0 good, 2 and the first problem;\n"
             "needs no --out or PGN (scripts/train checks its label flags so)"},
    {"--json", FLAG_PATH, FLAG_DEST(LabelArgs, json), .meta = "FILE",
     .help = "the run's result for programs (docs/json-outputs.md)"},
};
#undef SET

static void usage(FILE *f) {
    fputs("usage: hansu-selfplay label --out DIR [options] PGN...\n"
          "  Games of PGN files (plain or .pgn.gz; hansu-match's, gib's, Fairy-Stockfish's with\n"
          "  UCI moves) stored as a run folder of the HDF5 store (docs/data-format.md), each\n"
          "  selected position scored by Hansu's search at fixed --nodes; the moves and results\n"
          "  as played. Every input is read and checked before the first search.\n",
          f);
    flags_help(f, LABEL_FLAGS, FLAGS_COUNT(LABEL_FLAGS), 22);
}

// The net and its SHA-256 (--evalfile's, else the variant's compiled-in net unless --classical),
// then the bench signature with it.
static Status load_evaluation(const LabelArgs *a, const Variant *v, NnueNet **net,
                              LabelSettings *set, ErrorInfo *err) {
    Status st = nnue_load_selected(v, a->evalfile, a->classical, net, err);
    set->net = *net;
    snprintf(set->bench, sizeof set->bench, "skipped");
    if (st == STATUS_OK && *net) {
        size_t len;
        uint8_t *bytes = nnue_serialise(*net, &len);
        if (!bytes)
            return error_set(err, STATUS_NOMEM, "out of memory for the net");
        Sha256 h;
        sha256_init(&h);
        sha256_update(&h, bytes, len);
        sha256_final(&h, set->net_sha256);
        free(bytes);
    }
    if (st == STATUS_OK && !a->no_bench) {
        BenchResult br;
        ErrorInfo be;
        SearchParams params = label_search_params(set);
        bool ok = bench_run_smp(v, bench_text(v), BENCH_DEPTH, BENCH_HASH_MB, *net,
                                nnue_path_best(), 1, &params, NULL, &br, &be) == STATUS_OK;
        snprintf(set->bench, sizeof set->bench, ok ? "%llu" : "unknown",
                 (unsigned long long)br.nodes);
    }
    return st;
}

// Writes the --json result at once (cli_write_atomic).
static Status write_json(const LabelArgs *a, const LabelInputs *in, const LabelTotals *t,
                         ErrorInfo *err) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return error_set(err, STATUS_NOMEM, "--json %s: out of memory", a->json);
    fprintf(f, "{\n  \"schema\": 1,\n  \"command\": \"label\",\n  \"out\": ");
    cli_json_string(f, a->out);
    fprintf(f, ",\n  \"variant\": \"%s\",\n  \"nodes\": %llu,\n  \"threads\": %d",
            in->variant->name, (unsigned long long)a->set.nodes, t->threads);
    fprintf(f, ",\n  \"pv_ends\": %s,\n  \"pv_nodes\": ", a->set.pv_ends ? "true" : "false");
    if (a->set.pv_ends)
        fprintf(f, "%llu", (unsigned long long)a->set.pv_nodes);
    else
        fputs("null", f);
    fprintf(f,
            ",\n  \"evaluation\": \"%s\",\n  \"net_sha256\": ", a->set.net ? "nnue" : "classical");
    if (a->set.net)
        fprintf(f, "\"%s\"", a->set.net_sha256);
    else
        fputs("null", f);
    fprintf(f, ",\n  \"blend\": ");
    if (a->set.blend >= 0)
        fprintf(f, "%d", a->set.blend);
    else
        fputs("null", f);
    fprintf(f, ",\n  \"bench\": \"%s\"", a->set.bench);
    fprintf(f, ",\n  \"games_read\": %zu,\n  \"games_stored\": %zu,\n  \"games_left_out\": %zu",
            in->read, in->count, in->left_out);
    fprintf(f, ",\n  \"games_without_player\": %zu", in->not_player);
    fprintf(f, ",\n  \"shards\": %zu,\n  \"shards_resumed\": %zu", t->shards, t->shards_resumed);
    fprintf(f, ",\n  \"games_labelled\": %llu,\n  \"games_unsearched\": %llu",
            (unsigned long long)t->games, (unsigned long long)t->games_unsearched);
    fprintf(f, ",\n  \"positions\": %llu", (unsigned long long)t->positions);
    fprintf(f, ",\n  \"searched\": %llu,\n  \"searched_by_side\": [%llu, %llu]",
            (unsigned long long)t->searched, (unsigned long long)t->by_side[0],
            (unsigned long long)t->by_side[1]);
    fprintf(
        f, ",\n  \"pv_ends_stored\": %llu,\n  \"pv_plies_mean\": ", (unsigned long long)t->pv_ends);
    cli_json_number(f, t->pv_ends ? (double)t->pv_plies / (double)t->pv_ends : 0);
    fprintf(f, ",\n  \"elapsed_s\": ");
    cli_json_number(f, t->elapsed_s);
    fprintf(f, ",\n  \"searches_per_s\": ");
    cli_json_number(f, t->elapsed_s > 0 ? (t->searched + t->pv_ends) / t->elapsed_s : 0);
    fprintf(f, ",\n  \"interrupted\": %s\n}\n", t->interrupted ? "true" : "false");
    fclose(f);
    Status st = text ? cli_write_atomic(a->json, text, len, err)
                     : error_set(err, STATUS_NOMEM, "--json %s: out of memory", a->json);
    free(text);
    return st;
}

static void print_summary(const LabelInputs *in, const LabelTotals *t) {
    const Variant *v = in->variant;
    printf("games             %zu read, %zu stored, %zu left out, %zu without the --to-move "
           "player\n",
           in->read, in->count, in->left_out, in->not_player);
    printf("shards            %zu (%zu resumed), %llu games labelled here\n", t->shards,
           t->shards_resumed, (unsigned long long)t->games);
    if (t->games_unsearched)
        printf("note              %llu of those games have no position searched (none past "
               "--skip-plies, or none of --to-move's player past it): stored, they train on "
               "nothing\n",
               (unsigned long long)t->games_unsearched);
    printf("positions         %llu stored, %llu searched (%s %llu, %s %llu to move)\n",
           (unsigned long long)t->positions, (unsigned long long)t->searched, v->side_names[0],
           (unsigned long long)t->by_side[0], v->side_names[1], (unsigned long long)t->by_side[1]);
    if (t->pv_ends)
        printf("pv ends           %llu stored, %.2f plies beyond their searched positions on "
               "average\n",
               (unsigned long long)t->pv_ends,
               t->pv_ends ? (double)t->pv_plies / (double)t->pv_ends : 0.0);
    printf("rate              %.1f searches/s%s on %d threads, %.1f s\n",
           t->elapsed_s > 0 ? (t->searched + t->pv_ends) / t->elapsed_s : 0.0,
           t->pv_ends ? " (positions and PV ends)" : "", t->threads, t->elapsed_s);
}

// Checks the command line; the exit status 2 and the message when it is bad, else -1.
static int check_args(const LabelArgs *a, int npos, ErrorInfo *err) {
    Status st = STATUS_OK;
    if (!a->out && !a->check_only)
        st = error_set(err, STATUS_SYNTAX, "--out DIR is required");
    else if (npos == 0 && !a->check_only)
        st = error_set(err, STATUS_SYNTAX, "no PGN file given");
    else if (a->set.nodes == 0)
        st = error_set(err, STATUS_RANGE, "--nodes must be at least 1");
    else if (a->pv_nodes_given && !a->set.pv_ends)
        st = error_set(err, STATUS_SYNTAX, "--pv-nodes needs --pv-ends");
    else if (a->pv_nodes_given && a->set.pv_nodes == 0)
        st = error_set(err, STATUS_RANGE, "--pv-nodes must be at least 1");
    else if (a->set.hash_mb == 0)
        st = error_set(err, STATUS_RANGE, "--hash must be at least 1 (MB)");
    else if (a->set.shard_games == 0)
        st = error_set(err, STATUS_RANGE, "--shard-games must be at least 1");
    else if (a->evalfile && a->classical)
        st = error_set(err, STATUS_SYNTAX, "give --evalfile or --classical, not both");
    else if (a->set.blend >= 0 && a->classical)
        st = error_set(err, STATUS_SYNTAX, "--blend blends a net: not with --classical");
    else if (a->set.to_move && !a->set.to_move[0])
        st = error_set(err, STATUS_SYNTAX, "--to-move: an empty name");
    else if (a->set.to_move && strlen(a->set.to_move) > LABEL_TO_MOVE_MAX)
        st = error_set(err, STATUS_RANGE,
                       "--to-move: a name of %zu characters; a store records at most %d",
                       strlen(a->set.to_move), LABEL_TO_MOVE_MAX);
    if (st == STATUS_OK && a->json)
        st = cli_check_writable("--json", a->json, err);
    if (st == STATUS_OK)
        return -1;
    fprintf(stderr, "hansu-selfplay label: %s\n", err->msg);
    return 2;
}

int cmd_label(int argc, char **argv) {
    LabelArgs a = {
        .set = {.nodes = 50000, .every = 1, .hash_mb = 16, .shard_games = 32, .blend = -1}};
    ErrorInfo err;
    char **inputs = calloc((size_t)argc, sizeof *inputs);
    FlagResult res = {.pos = inputs};
    Status st =
        inputs ? flags_parse(LABEL_FLAGS, FLAGS_COUNT(LABEL_FLAGS), argc, argv, 1, &a, &res, &err)
               : error_set(&err, STATUS_NOMEM, "out of memory");
    if (st == STATUS_OK && res.help) {
        usage(stdout);
        free(inputs);
        return 0;
    }
    int rc = st != STATUS_OK ? 2 : check_args(&a, res.npos, &err);
    if (rc == 2) {
        if (st != STATUS_OK)
            fprintf(stderr, "hansu-selfplay label: %s\n", err.msg);
        usage(stderr);
        free(inputs);
        return 2;
    }
    if (a.check_only) {
        free(inputs);
        return 0;
    }
    if (!a.pv_nodes_given)
        a.set.pv_nodes = a.set.nodes;
    LabelInputs in;
    NnueNet *net = NULL;
    LabelTotals t = {.threads = a.threads ? a.threads : omp_get_num_procs()};
    st = label_inputs_read(inputs, (size_t)res.npos, a.variant, a.set.to_move, &in, &err);
    if (st == STATUS_OK) {
        fprintf(stderr, "hansu-selfplay label: %zu games of %zu read (%zu left out); %s\n",
                in.count, in.read, in.left_out,
                a.no_bench ? "loading the evaluation"
                           : "loading the evaluation and measuring its bench signature");
        st = load_evaluation(&a, in.variant, &net, &a.set, &err);
    }
    if (st == STATUS_OK) {
        signal(SIGINT, on_signal);
        signal(SIGTERM, on_signal);
        LabelRun run = {.in = &in,
                        .set = &a.set,
                        .dir = a.out,
                        .resume = a.resume,
                        .threads = t.threads,
                        .stop = &stop_requested};
        st = label_folder_run(&run, &t, &err);
    }
    if (st == STATUS_OK)
        print_summary(&in, &t);
    if (st == STATUS_OK && a.json)
        st = write_json(&a, &in, &t, &err);
    if (st == STATUS_OK && t.interrupted)
        fprintf(stderr, "hansu-selfplay label: interrupted; the finished shards are kept, "
                        "--resume continues\n");
    if (st != STATUS_OK)
        fprintf(stderr, "hansu-selfplay label: %s\n", err.msg);
    if (st == STATUS_OK || in.paths)
        label_inputs_free(&in);
    free(net);
    free(inputs);
    return st != STATUS_OK ? 1 : t.interrupted ? 130 : 0;
}
