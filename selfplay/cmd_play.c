// SPDX-License-Identifier: MIT
// hansu-selfplay play (the default command): its flags, the openings, the run folder, the games
// through the runner, the progress lines, the summary and the --json result.
#include "commands.h"

#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cluster.h"
#include "flags.h"
#include "h5store.h"
#include "openings.h"
#include "rules.h"
#include "runner.h"
#include "sha256.h"
#include "variant.h"

// Lock-free, hence safe to set from a signal handler and to read from every thread.
static atomic_int stop_requested = 0;

static void on_signal(int sig) {
    (void)sig;
    atomic_store(&stop_requested, 1);
}

// The play command's settings: the runner's, and the front end's own.
typedef struct PlayArgs {
    SelfplayConfig cfg;
    bool hours_given, games_given, part_given;
    const char *json_path; // --json FILE, or NULL
    const char *evalfile;  // --evalfile FILE, or NULL
    bool classical;        // --classical
} PlayArgs;

// The run's net into *net (freed by the caller; NULL for the classical evaluation) and its
// SHA-256 into sha: --evalfile's, else the variant's compiled-in net unless --classical.
static Status load_net(const PlayArgs *a, const Variant *v, NnueNet **net, char sha[65],
                       ErrorInfo *err) {
    size_t len;
    Status st = nnue_load_selected(v, a->evalfile, a->classical, net, err);
    if (st != STATUS_OK || !*net)
        return st;
    uint8_t *bytes = nnue_serialise(*net, &len);
    if (!bytes) {
        free(*net);
        *net = NULL;
        return error_set(err, STATUS_NOMEM, "out of memory for the net");
    }
    Sha256 h;
    sha256_init(&h);
    sha256_update(&h, bytes, len);
    sha256_final(&h, sha);
    free(bytes);
    return STATUS_OK;
}

static void format_duration(double s, char *out, size_t len) {
    long t = s < 0 ? 0 : (long)(s + 0.5);
    if (t >= 3600)
        snprintf(out, len, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else
        snprintf(out, len, "%ldm%02lds", t / 60, t % 60);
}

static void format_reasons(const RunnerProgress *p, char *out, size_t len) {
    out[0] = 0;
    for (int r = 1; r < REASON_NB; r++)
        if (p->by_reason[r])
            snprintf(out + strlen(out), len - strlen(out), " %s %llu", rules_reason_name(r),
                     (unsigned long long)p->by_reason[r]);
}

// How progress lines are shown: on a terminal or not, the part's name ("" for a whole run),
// or not at all (the other ranks of an MPI run: rank 0 speaks for them).
typedef struct ProgressView {
    bool tty, quiet;
    char part[48];
    const Variant *variant; // its side names ("Cho"/"Han", "Red"/"Black") head the win shares
} ProgressView;

static void on_progress(const RunnerProgress *p, void *arg) {
    const ProgressView *view = arg;
    bool tty = view->tty;
    if (view->quiet)
        return;
    if (p->finished) {
        if (tty)
            fputc('\n', stderr);
        return;
    }
    char eta[32], reasons[256], total[32] = "";
    format_duration(p->eta_s, eta, sizeof eta);
    format_reasons(p, reasons, sizeof reasons);
    if (p->target)
        snprintf(total, sizeof total, "/%llu", (unsigned long long)p->target);
    uint64_t decided = p->wins[0] + p->wins[1];
    fprintf(stderr,
            "%s%sgames %llu%s  %.2f g/s  positions %llu  ETA %s |%s | %s %.1f%% %s %.1f%%%s",
            tty ? "\r\033[K" : "", view->part, (unsigned long long)p->done, total, p->games_per_s,
            (unsigned long long)p->positions, p->eta_s < 0 ? "?" : eta, reasons,
            view->variant->side_names[0], decided ? 100.0 * p->wins[0] / decided : 0.0,
            view->variant->side_names[1], decided ? 100.0 * p->wins[1] / decided : 0.0,
            tty ? "" : "\n");
    fflush(stderr);
}

static void print_summary(const RunnerProgress *p, const SelfplayConfig *cfg, unsigned ranks) {
    int threads = p->threads;
    char reasons[256], elapsed[32];
    format_reasons(p, reasons, sizeof reasons);
    format_duration(p->elapsed_s, elapsed, sizeof elapsed);
    uint64_t decided = p->wins[0] + p->wins[1];
    printf("games played      %llu in %s (%.3f games/s, %.1f games/hour/core, %d threads)\n",
           (unsigned long long)p->done_here, elapsed, p->games_per_s,
           threads ? p->games_per_s * 3600 / threads : 0.0, threads);
    if (cfg->net)
        printf("evaluation        nnue, net SHA-256 %s\n", cfg->net_sha256);
    else
        printf("evaluation        classical\n");
    if (ranks > 1)
        printf("ranks             %u (MPI), the whole schedule\n", ranks);
    else if (cfg->part_count > 1)
        printf("part              %u/%u of the schedule (games i with i %% %u == %u)\n",
               cfg->part_index, cfg->part_count, cfg->part_count, cfg->part_index - 1);
    printf("cpu               %.2f s, %.2f cores busy on average\n", p->cpu_s,
           p->elapsed_s > 0 ? p->cpu_s / p->elapsed_s : 0.0);
    printf("positions played  %llu (%.1f per game)\n", (unsigned long long)p->positions_here,
           p->done_here ? (double)p->positions_here / p->done_here : 0.0);
    printf("results          %s\n", reasons[0] ? reasons : " none");
    const Variant *v = variant_or_default(cfg->variant);
    printf("wins              %s %.1f%%  %s %.1f%%\n", v->side_names[0],
           decided ? 100.0 * p->wins[0] / decided : 0.0, v->side_names[1],
           decided ? 100.0 * p->wins[1] / decided : 0.0);
    if (p->draws) // xiangqi; the win shares above are of the decided games
        printf("draws             %llu (%.1f%% of the games)\n", (unsigned long long)p->draws,
               p->done_here ? 100.0 * p->draws / p->done_here : 0.0);
    printf("run folder        %llu games, %llu positions saved, %llu bytes (%.2f bytes/position)\n",
           (unsigned long long)p->saved, (unsigned long long)p->saved_positions,
           (unsigned long long)p->bytes_on_disk,
           p->saved_positions ? (double)p->bytes_on_disk / p->saved_positions : 0.0);
    printf("writer            %.3f s in %llu checkpoints (%.2f%% of the run), buffer peak %llu "
           "bytes\n",
           p->writer_s, (unsigned long long)p->shards_written,
           p->elapsed_s > 0 ? 100.0 * p->writer_s / p->elapsed_s : 0.0,
           (unsigned long long)p->buffer_peak_bytes);
}

// One shard of the run folder for --json: path, rows and the SHA-256 of the whole file.
static Status json_shard(FILE *f, const char *path, ErrorInfo *err) {
    StoreMeta meta;
    size_t games = 0, positions = 0;
    char hex[65];
    Status st = h5store_read_meta(path, &meta, &games, &positions, err);
    if (st == STATUS_OK)
        st = sha256_file(path, hex, err);
    if (st != STATUS_OK)
        return st;
    fputs("\n    {\"path\": ", f);
    cli_json_string(f, path);
    fprintf(f, ", \"games\": %zu, \"positions\": %zu, \"sha256\": \"%s\"}", games, positions, hex);
    return STATUS_OK;
}

static void json_field(FILE *f, const char *name, double v) {
    fprintf(f, ",\n  \"%s\": ", name);
    cli_json_number(f, v);
}

// The run's result for programs (--json FILE, docs/json-outputs.md), written at once.
static Status write_json(const char *path, const SelfplayConfig *cfg, const RunnerProgress *p,
                         bool interrupted, unsigned ranks, ErrorInfo *err) {
    char **files = NULL, *buf = NULL;
    size_t n = 0, len = 0;
    Status st = h5store_list_files(cfg->out_dir, &files, &n, err);
    FILE *f = st == STATUS_OK ? open_memstream(&buf, &len) : NULL;
    if (st == STATUS_OK && !f)
        st = error_set(err, STATUS_NOMEM, "--json %s: out of memory", path);
    if (st != STATUS_OK)
        goto cleanup;
    uint64_t decided = p->wins[0] + p->wins[1];
    fprintf(f, "{\n  \"schema\": 1,\n  \"out\": ");
    cli_json_string(f, cfg->out_dir);
    fprintf(f, ",\n  \"interrupted\": %s,\n  \"threads\": %d", interrupted ? "true" : "false",
            p->threads);
    fprintf(f, ",\n  \"evaluation\": \"%s\"", cfg->net ? "nnue" : "classical");
    if (cfg->net)
        fprintf(f, ",\n  \"net_sha256\": \"%s\"", cfg->net_sha256);
    if (ranks > 1) // only in split runs: a whole run's JSON stays as it was
        fprintf(f, ",\n  \"ranks\": %u", ranks);
    else if (cfg->part_count > 1)
        fprintf(f, ",\n  \"part\": [%u, %u]", cfg->part_index, cfg->part_count);
    fprintf(f, ",\n  \"games_target\": %llu,\n  \"games_played\": %llu,\n  \"games_done\": %llu",
            (unsigned long long)p->target, (unsigned long long)p->done_here,
            (unsigned long long)p->done);
    fprintf(f, ",\n  \"games_saved\": %llu,\n  \"positions_played\": %llu",
            (unsigned long long)p->saved, (unsigned long long)p->positions_here);
    fprintf(f, ",\n  \"positions_saved\": %llu,\n  \"bytes_on_disk\": %llu",
            (unsigned long long)p->saved_positions, (unsigned long long)p->bytes_on_disk);
    json_field(f, "bytes_per_position",
               p->saved_positions ? (double)p->bytes_on_disk / p->saved_positions : 0.0);
    json_field(f, "positions_per_game",
               p->done_here ? (double)p->positions_here / p->done_here : 0.0);
    json_field(f, "elapsed_s", p->elapsed_s);
    json_field(f, "games_per_s", p->games_per_s);
    json_field(f, "games_per_hour_per_core", p->threads ? p->games_per_s * 3600 / p->threads : 0.0);
    json_field(f, "cpu_s", p->cpu_s);
    json_field(f, "cores_busy", p->elapsed_s > 0 ? p->cpu_s / p->elapsed_s : 0.0);
    json_field(f, "writer_s", p->writer_s);
    fprintf(f, ",\n  \"checkpoints\": %llu,\n  \"buffer_peak_bytes\": %llu",
            (unsigned long long)p->shards_written, (unsigned long long)p->buffer_peak_bytes);
    fprintf(f, ",\n  \"wins\": {\"cho\": %llu, \"han\": %llu}", (unsigned long long)p->wins[0],
            (unsigned long long)p->wins[1]);
    fprintf(f, ",\n  \"draws\": %llu", (unsigned long long)p->draws);
    json_field(f, "cho_win_rate", decided ? (double)p->wins[0] / decided : 0.0);
    fputs(",\n  \"reasons\": {", f);
    const char *sep = "";
    for (int r = 1; r < REASON_NB; r++)
        if (p->by_reason[r]) {
            fprintf(f, "%s\"%s\": %llu", sep, rules_reason_name(r),
                    (unsigned long long)p->by_reason[r]);
            sep = ", ";
        }
    fputs("},\n  \"shards\": [", f);
    for (size_t i = 0; i < n && st == STATUS_OK; i++) {
        fputs(i ? "," : "", f);
        st = json_shard(f, files[i], err);
    }
    fputs("\n  ]\n}\n", f);
    if (fclose(f) != 0 && st == STATUS_OK)
        st = error_set(err, STATUS_NOMEM, "--json %s: out of memory", path);
    if (st == STATUS_OK)
        st = cli_write_atomic(path, buf, len, err);
cleanup:
    free(buf);
    h5store_free_list(files, n);
    return st;
}

// A search limit per move (--nodes, --depth, --movetime): the number, then the runner's
// setter, which records that it was given (runner_config_check refuses two).
static Status set_limit(const Flag *flag, const char *value, void *dest, RunnerLimit which,
                        ErrorInfo *err) {
    uint64_t u = 0;
    Status st = cli_parse_u64(flag->name, value, flag->max, &u, err);
    if (st == STATUS_OK)
        runner_config_set_limit(&((PlayArgs *)dest)->cfg, which, u);
    return st;
}

static Status set_nodes(const Flag *flag, const char *value, void *dest, ErrorInfo *err) {
    return set_limit(flag, value, dest, RUNNER_LIMIT_NODES, err);
}

static Status set_depth(const Flag *flag, const char *value, void *dest, ErrorInfo *err) {
    return set_limit(flag, value, dest, RUNNER_LIMIT_DEPTH, err);
}

static Status set_movetime(const Flag *flag, const char *value, void *dest, ErrorInfo *err) {
    return set_limit(flag, value, dest, RUNNER_LIMIT_MOVETIME, err);
}

static Status set_variant(const Flag *flag, const char *value, void *dest, ErrorInfo *err) {
    PlayArgs *a = dest;
    if (!(a->cfg.variant = variant_find(value)))
        return error_set(err, STATUS_SYNTAX, "%s: '%s' is not janggi or xiangqi", flag->name,
                         value);
    return STATUS_OK;
}

static Status set_part(const Flag *flag, const char *value, void *dest, ErrorInfo *err) {
    PlayArgs *a = dest;
    ClusterPart part;
    Status st = cluster_parse_part(flag->name, value, RUNNER_PARTS_MAX, &part, err);
    if (st == STATUS_OK)
        a->cfg.part_index = part.index, a->cfg.part_count = part.count;
    return st;
}

#define CFG(field) FLAG_DEST(PlayArgs, cfg.field)
// Counts, plies and centipawns: whole numbers in 0..INT32_MAX; seconds and hours: any finite
// number >= 0 (runner_config_check checks what combinations and sizes mean).
#define COUNT(name, field, var, text)                                                              \
    { name, FLAG_UINT, CFG(field), .max = INT32_MAX, .meta = var, .help = text }
#define SECONDS(name, field, var, text)                                                            \
    { name, FLAG_DOUBLE, CFG(field), .dlo = 0, .dhi = HUGE_VAL, .meta = var, .help = text }

// The play command's flags (defaults in brackets).
static const Flag PLAY_FLAGS[] = {
    {"--games", FLAG_UINT, CFG(games), .max = INT32_MAX, FLAG_GIVEN(PlayArgs, games_given),
     .meta = "N", .help = "games to reach in the run folder [1000]"},
    {"--hours", FLAG_DOUBLE, CFG(hours), .dlo = 0, .dhi = HUGE_VAL,
     FLAG_GIVEN(PlayArgs, hours_given), .meta = "H",
     .help = "play for H hours (with --games: whichever comes first)"},
    COUNT("--threads", threads, "T", "worker threads, at most 4 per CPU [all cores]"),
    {"--out", FLAG_PATH, CFG(out_dir), .meta = "DIR",
     .help = "run folder, one writer at a time [runs/selfplay]"},
    {"--seed", FLAG_UINT, CFG(seed), .max = UINT64_MAX, .meta = "S",
     .help = "run seed; game i uses a stream derived from (S, i) [1]"},
    COUNT("--random-plies", random_plies, "K", "random legal opening plies per game [8]"),
    {"--variant", FLAG_CALL, .set = set_variant, .value = true, .meta = "V",
     .help = "janggi (16 formation pairings) or xiangqi (its start position)\n"
             "[janggi]; a xiangqi game still going at ply 600 is drawn"},
    {"--evalfile", FLAG_PATH, FLAG_DEST(PlayArgs, evalfile), .meta = "FILE",
     .help = "evaluate with this .nnue net [the variant's compiled-in net,\nif any]"},
    {"--classical", FLAG_BOOL, FLAG_DEST(PlayArgs, classical),
     .help = "the classical evaluation, even where a net is compiled in"},
    {"--openings", FLAG_PATH, CFG(openings_path), .meta = "FILE",
     .help = "start positions of the variant, one FEN a line (# comments):\n"
             "game i from FEN i % n, then the random plies [none]"},
    {"--nodes", FLAG_CALL, .set = set_nodes, .value = true, .max = UINT64_MAX, .meta = "N",
     .help = "nodes per move, reproducible [2000]; give one of these three"},
    {"--depth", FLAG_CALL, .set = set_depth, .value = true, .max = INT32_MAX, .meta = "D",
     .help = "plies per move instead of nodes"},
    {"--movetime", FLAG_CALL, .set = set_movetime, .value = true, .max = INT32_MAX, .meta = "MS",
     .help = "milliseconds per move instead of nodes (not reproducible)"},
    SECONDS("--nodes-spread", nodes_spread, "F",
            "draw each move's nodes from N*[1-F, 1+F], F < 1 [0]"),
    COUNT("--resign-cp", resign_cp, "CP", "resign when the mover's score stays <= -CP ... [off]"),
    COUNT("--resign-plies", resign_plies, "N", "... for N of its own moves in a row [4]"),
    COUNT("--adjudicate-cp", adjudicate_cp, "CP",
          "adjudicate a win when |score| >= CP with the same leader ... [off]"),
    COUNT("--adjudicate-plies", adjudicate_plies, "N", "... for N plies in a row [8]"),
    COUNT("--hash", hash_mb, "MB", "TT per worker, MB [16]"),
    {"--no-bench", FLAG_BOOL, CFG(bench), .off = true,
     .help = "skip the bench signature at start (recorded as 'skipped')"},
    {"--resume", FLAG_BOOL, CFG(resume),
     .help = "continue the run in --out (same settings, shards there)"},
    SECONDS("--checkpoint-s", checkpoint_s, "S", "seconds between checkpoints [5]"),
    COUNT("--checkpoint-games", checkpoint_games, "N", "games between checkpoints [200]"),
    COUNT("--shard-positions", shard_positions, "N", "positions per shard file [262144]"),
    SECONDS("--progress", progress_s, "S",
            "seconds between progress lines [1 on a terminal, else 30]"),
    {"--json", FLAG_PATH, FLAG_DEST(PlayArgs, json_path), .meta = "FILE",
     .help = "the run's result for programs (docs/json-outputs.md)"},
    {"--part", FLAG_CALL, .set = set_part, .value = true, FLAG_GIVEN(PlayArgs, part_given),
     .meta = "I/K",
     .help = "play part I of K of the schedule (games i with i % K == I-1)\n"
             "into the shared --out, e.g. as a Slurm job array; under\n"
             "mpirun -np R (an MPI build) rank r plays part r+1/R itself"},
};

#undef CFG
#undef COUNT
#undef SECONDS

static void usage(FILE *f) {
    fputs("usage: hansu-selfplay [options]            play self-play games into a run folder\n"
          "       hansu-selfplay merge -o OUT.h5 [--force] DIR|FILE...   combine shards into one "
          "file\n"
          "       hansu-selfplay verify DIR|FILE...   replay every game and check it\n"
          "       hansu-selfplay show FILE [ROW...]   FEN, move and score of stored positions\n"
          "       hansu-selfplay digest DIR|FILE...   give schema-1 files (no digest) one, after "
          "replay\n"
          "       hansu-selfplay export [--pgn OUT.pgn] [--plain OUT.plain] DIR|FILE... "
          "[--games SEL]\n"
          "                                           games as PGN, positions as .plain "
          "training records\n"
          "                                           (SEL e.g. 0-9,15,100-; OUT - is stdout)\n"
          "       hansu-selfplay gib [--pgn OUT.pgn] [--store OUT.h5] [--openings OUT.fen] "
          "DIR|FILE...\n"
          "                                           import .gib janggi records (docs/gib.md)\n"
          "       hansu-selfplay label --out DIR [--nodes N] PGN...\n"
          "                                           PGN games scored by Hansu's search "
          "(data-format.md)\n"
          "\n"
          "options (defaults in brackets):\n",
          f);
    flags_help(f, PLAY_FLAGS, FLAGS_COUNT(PLAY_FLAGS), 23);
}

// An MPI run's ranks made one: rank 0 gets the sums of the games, positions, results, CPU and
// writer seconds and checkpoints, the longest elapsed time, and the folder's totals (read
// after every rank has written its last shard). Every rank calls it, whatever its status.
static void gather_ranks(const SelfplayConfig *cfg, RunnerProgress *p, int *rc, bool *interrupted) {
    enum { FIXED = 9 };
    uint64_t v[FIXED + 32 + 2];
    uint64_t head[FIXED] = {
        p->done_here, p->positions_here, p->shards_written,          (uint64_t)p->threads,
        p->target,    p->done,           (uint64_t)(p->cpu_s * 1e6), (uint64_t)(p->writer_s * 1e6),
        *rc != 0};
    memcpy(v, head, sizeof head);
    memcpy(v + FIXED, p->by_reason, sizeof p->by_reason);
    memcpy(v + FIXED + 32, p->wins, sizeof p->wins);
    cluster_sum_u64(v, sizeof v / sizeof v[0]);
    double m[4] = {p->elapsed_s, (double)p->buffer_peak_bytes, (double)*interrupted, *rc};
    cluster_max_f64(m, 4);
    cluster_barrier(); // every rank's last shard is on disk
    p->done_here = v[0], p->positions_here = v[1], p->shards_written = v[2];
    p->threads = (int)v[3], p->target = v[4], p->done = v[5];
    p->cpu_s = v[6] * 1e-6, p->writer_s = v[7] * 1e-6;
    memcpy(p->by_reason, v + FIXED, sizeof p->by_reason);
    memcpy(p->wins, v + FIXED + 32, sizeof p->wins);
    p->elapsed_s = m[0], p->buffer_peak_bytes = (uint64_t)m[1];
    p->games_per_s = p->elapsed_s > 0 ? p->done_here / p->elapsed_s : 0;
    *interrupted = m[2] != 0;
    *rc = (int)m[3];
    // The folder as a whole, as a one-process run reports it.
    char **files = NULL;
    size_t n = 0;
    ErrorInfo err;
    p->saved = p->saved_positions = p->bytes_on_disk = 0;
    if (h5store_list_files(cfg->out_dir, &files, &n, &err) == STATUS_OK)
        for (size_t i = 0; i < n; i++) {
            StoreMeta meta;
            size_t games = 0, positions = 0;
            struct stat sb;
            if (h5store_read_meta(files[i], &meta, &games, &positions, &err) != STATUS_OK)
                continue;
            p->saved += games, p->saved_positions += positions;
            p->bytes_on_disk += stat(files[i], &sb) == 0 ? (uint64_t)sb.st_size : 0;
        }
    h5store_free_list(files, n);
}

static int play_run(const SelfplayConfig *cfg, const PlayArgs *args, bool tty);

// The play command: options, the openings, the run folder, the games, the summary; under MPI
// every rank runs it and rank 0 reports for all.
int cmd_play(int argc, char **argv) {
    PlayArgs args = {0};
    SelfplayConfig *cfg = &args.cfg;
    runner_config_default(cfg);
    bool tty = isatty(STDERR_FILENO);
    cfg->progress_s = tty ? 1.0 : 30.0; // a line a second only for a person watching
    FlagResult res = {0};
    ErrorInfo err;
    if (flags_parse(PLAY_FLAGS, FLAGS_COUNT(PLAY_FLAGS), argc, argv, 1, &args, &res, &err) !=
        STATUS_OK) {
        fprintf(stderr, "hansu-selfplay: %s (see --help)\n", err.msg);
        return 2;
    }
    if (res.help) {
        usage(stdout);
        return 0;
    }
    if (args.hours_given && !args.games_given)
        cfg->games = 0;
    Openings openings = {0};
    if (cfg->openings_path) {
        const Variant *v = variant_or_default(cfg->variant);
        if (openings_load(cfg->openings_path, v, &openings, &err) != STATUS_OK) {
            fprintf(stderr, "hansu-selfplay: --openings: %s\n", err.msg);
            return 2;
        }
        cfg->openings = &openings;
    }
    NnueNet *net = NULL;
    if (load_net(&args, variant_or_default(cfg->variant), &net, cfg->net_sha256, &err) !=
        STATUS_OK) {
        fprintf(stderr, "hansu-selfplay: %s\n", err.msg);
        openings_free(&openings);
        return 2;
    }
    cfg->net = net;
    int rc = play_run(cfg, &args, tty);
    openings_free(&openings);
    free(net);
    return rc;
}

// The games of the play command, its settings read.
static int play_run(const SelfplayConfig *cfg_in, const PlayArgs *args, bool tty) {
    SelfplayConfig cfg = *cfg_in;
    PlayArgs cli = *args;
    ClusterPart self = cluster_self();
    if (self.count > 1 && cli.part_given) {
        fprintf(stderr,
                "hansu-selfplay: --part with mpirun -np %u: the ranks split the run "
                "already (give one or the other)\n",
                self.count);
        return 2;
    }
    if (self.count > 1)
        cfg.part_index = self.index, cfg.part_count = self.count;
    ProgressView view = {
        .tty = tty, .quiet = self.index > 1, .variant = variant_or_default(cfg.variant)};
    char tag[48] = ""; // names the part in its error messages
    if (cfg.part_count > 1) {
        snprintf(view.part, sizeof view.part, "part %u/%u  ", cfg.part_index, cfg.part_count);
        snprintf(tag, sizeof tag, "part %u/%u: ", cfg.part_index, cfg.part_count);
    }
    ErrorInfo err;
    if (runner_config_check(&cfg, &err) != STATUS_OK) {
        fprintf(stderr, "hansu-selfplay: %s\n", err.msg);
        return 2;
    }
    // Every output path before the first game, not after the last.
    if (cli.json_path && cli_check_writable("--json", cli.json_path, &err) != STATUS_OK) {
        fprintf(stderr, "hansu-selfplay: %s\n", err.msg);
        return 2;
    }
    // The folder before the bench: a bad --out or --resume is told at once.
    Status st = runner_prepare_out(&cfg, &err);
    if (st != STATUS_OK && self.count == 1) {
        fprintf(stderr, "hansu-selfplay: %s%s\n", tag, err.msg);
        return 1;
    }
    struct sigaction sa = {0};
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND; // a second signal ends the process at once
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    if (cfg.bench && st == STATUS_OK && !view.quiet)
        fprintf(stderr, "hansu-selfplay: measuring the bench signature for the file attributes "
                        "(--no-bench skips it)\n");
    RunnerProgress final;
    memset(&final, 0, sizeof final);
    if (st == STATUS_OK)
        st = runner_run(&cfg, &stop_requested, on_progress, &view, &final, &err);
    int rc = st == STATUS_OK ? 0 : 1;
    bool interrupted = atomic_load(&stop_requested);
    if (self.count > 1) {
        if (st != STATUS_OK) // each rank tells its own error
            fprintf(stderr, "hansu-selfplay: %s%s\n", tag, err.msg);
        gather_ranks(&cfg, &final, &rc, &interrupted);
        if (self.index > 1)
            return rc;
    }
    if (rc == 0 || final.done_here > 0) // no report of zeros when nothing was run
        print_summary(&final, &cfg, self.count);
    ErrorInfo jerr;
    if ((rc == 0 || final.done_here > 0) && cli.json_path &&
        write_json(cli.json_path, &cfg, &final, interrupted, self.count, &jerr) != STATUS_OK) {
        fprintf(stderr, "hansu-selfplay: --json: %s\n", jerr.msg);
        if (rc == 0)
            return 1;
    }
    if (rc != 0) {
        if (self.count == 1)
            fprintf(stderr, "hansu-selfplay: %s%s\n", tag, err.msg);
        return 1;
    }
    if (interrupted) {
        fprintf(stderr,
                "hansu-selfplay: interrupted; finished games are saved in %s "
                "(continue with --resume)\n",
                cfg.out_dir);
        return 130;
    }
    return 0;
}
