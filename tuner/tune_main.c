// SPDX-License-Identifier: MIT
// hansu-tune: fits the evaluation weights to self-play outcomes (Texel tuning) and writes
// the weights header. The only file of the tuner that prints or exits.
#include <errno.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"
#include "cluster.h"
#include "dataset.h"
#include "eval.h"
#include "eval_header.h"
#include "flags.h"
#include "optimizer.h"
#include "run_lock.h"
#include "sha256.h"
#include "timeman.h"
#include "trace_store.h"
#include "variant.h"
#include "weights_io.h"

#ifndef HANSU_VERSION
#define HANSU_VERSION "dev"
#endif

// Default of --l2, chosen by measurement on the embedded demo's data (docs/tuning.md); on 2000
// games it holds the weights back, and the settings files for real runs pass 100.
#define L2_DEFAULT 1000
#define L2_DEFAULT_S "1000"

// The data-size warning (docs/tuning.md): fewer training positions than this per free weight,
// or a free parameter with a non-zero count in fewer positions than this.
enum { POSITIONS_PER_WEIGHT = 100, MIN_POSITIONS_PER_PARAM = 100 };

typedef struct Options {
    char **inputs;
    int ninputs;
    DatasetFilter filter;
    TuneConfig tune;
    double lambda;
    bool k_given, lr_given;
    int optimizer; // --optimizer: the index in OPTIMIZERS (a TuneMethod)
    const char *out, *loss_csv, *freeze, *init, *json;
    bool dry_run;
    const EvalSpec *spec; // the variant whose term list is fitted (--variant, default janggi)
} Options;

static const char *const OPTIMIZERS[] = {"adam", "gd", NULL}; // in TuneMethod order

// --seed: the split, choice and shuffle (the filter) and the batch order (the optimiser).
static Status set_seed(const Flag *flag, const char *value, void *dest, ErrorInfo *err) {
    Options *o = dest;
    uint64_t seed = 0;
    Status st = cli_parse_u64(flag->name, value, UINT64_MAX, &seed, err);
    if (st == STATUS_OK)
        o->tune.seed = seed, o->filter.seed = seed;
    return st;
}

static Status set_variant(const Flag *flag, const char *value, void *dest, ErrorInfo *err) {
    Options *o = dest;
    if (!(o->spec = eval_spec_find(value)))
        return error_set(err, STATUS_SYNTAX, "%s: '%s' is not janggi or xiangqi", flag->name,
                         value);
    return STATUS_OK;
}

#define DEST(field) FLAG_DEST(Options, field)
#define INT(name, field, lo_, hi_, var, text)                                                      \
    { name, FLAG_INT, DEST(field), .lo = lo_, .hi = hi_, .meta = var, .help = text }
#define NUM(name, field, lo_, hi_, var, text)                                                      \
    { name, FLAG_DOUBLE, DEST(field), .dlo = lo_, .dhi = hi_, .meta = var, .help = text }

static const Flag TUNE_FLAGS[] = {
    {"--variant", FLAG_CALL, .set = set_variant, .value = true, .meta = "V",
     .help = "the variant fitted: janggi (default) or xiangqi; its own term list\n"
             "(engine/V/eval_terms.def); every input must hold V's games"},
    {.kind = FLAG_SECTION, .help = "\nPositions:"},
    INT("--skip-plies", filter.skip_plies, 0, 10000, "N",
        "drop the first N plies of every game (default 8)"),
    INT("--min-ply", filter.min_ply, 0, 10000, "N", "drop positions before ply N (default 0)"),
    INT("--max-ply", filter.max_ply, -1, 10000, "N",
        "drop positions after ply N (default -1: no bound)"),
    INT("--max-score", filter.max_score, -1, 32767, "CP",
        "drop |stored score| > CP, mates included (default -1: no bound)"),
    {"--keep-check", FLAG_BOOL, DEST(filter.skip_check), .off = true,
     .help = "keep positions whose side to move is in check (default: drop)"},
    {"--keep-capture", FLAG_BOOL, DEST(filter.skip_capture), .off = true,
     .help = "keep positions whose best move captures (default: drop)"},
    {"--quiesce", FLAG_BOOL, DEST(filter.quiesce),
     .help = "resolve check/capture positions by quiescence instead of dropping"},
    INT("--per-game", filter.per_game, 0, 1000000, "K",
        "at most K positions per game, seeded choice (default 0: all)"),
    NUM("--valid", filter.valid_fraction, 0, 1, "F",
        "share of games in the validation set (default 0.1)"),
    {.kind = FLAG_SECTION, .help = "\nOptimiser:"},
    {"--optimizer", FLAG_ENUM, DEST(optimizer), .choices = OPTIMIZERS, .meta = "adam|gd",
     .help = "Adam (Kingma & Ba 2015, default) or plain gradient descent"},
    {"--lr", FLAG_DOUBLE, DEST(tune.lr), .dlo = 1e-12, .dhi = 1e12, FLAG_GIVEN(Options, lr_given),
     .meta = "X", .help = "Adam: step in cp (default 1); GD: gradient multiplier (20000)"},
    NUM("--beta1", tune.beta1, 0, 0.999999, "X", "Adam first-moment decay (default 0.9)"),
    NUM("--beta2", tune.beta2, 0, 0.99999999, "X", "Adam second-moment decay (default 0.999)"),
    NUM("--epsilon", tune.epsilon, 1e-30, 1, "X", "Adam denominator guard (default 1e-8)"),
    INT("--epochs", tune.epochs, 0, 10000000, "N", "passes over the training set (default 100)"),
    INT("--batch", tune.batch, 0, 1000000000000, "N",
        "positions per step, 0 = full batch (default 16384)"),
    INT("--patience", tune.patience, 0, 10000000, "N",
        "stop after N epochs without a better validation MSE (default 10,\n"
        "0 = never); the best validation epoch's weights are kept"),
    {"--freeze", FLAG_STRING, DEST(freeze), .meta = "T[,T...]",
     .help = "keep these terms fixed (names as in engine/V/eval_terms.def)"},
    {"--init", FLAG_PATH, DEST(init), .meta = "PATH",
     .help = "starting weights from this header (default: the compiled-in ones)"},
    {"--k", FLAG_DOUBLE, DEST(tune.k), .dlo = 1e-6, .dhi = 1e3, FLAG_GIVEN(Options, k_given),
     .meta = "K", .help = "sigmoid scale K (default: fitted on the starting weights)"},
    NUM("--lambda", lambda, 0, 1, "L", "target = (1-L)*result + L*sigmoid(K*score) (default 0)"),
    NUM("--l2", tune.l2, 0, 1e12, "X",
        "pull toward the starting weights: minimise MSE + (X/N) *\n"
        "sum((w - w0)/100)^2, N training positions\n"
        "(default " L2_DEFAULT_S ", safe on ~100 games; 100 keeps the gain\n"
        "on 2000 games: docs/tuning.md)"),
    {"--seed", FLAG_CALL, .set = set_seed, .value = true, .meta = "S",
     .help = "split, per-game choice, shuffle and batch order (default 1)"},
    INT("--threads", tune.threads, 1, 256, "N", "OpenMP threads (default: all cores)"),
    {.kind = FLAG_SECTION, .help = "\nOutput:"},
    {"--out", FLAG_PATH, DEST(out), .meta = "PATH",
     .help = "weights header to write (default engine/V/eval_weights.h);\n"
             "one tuner per output file: a second one is refused (PATH.lock)"},
    {"--dry-run", FLAG_BOOL, DEST(dry_run), .help = "train and report, write no header"},
    {"--loss-csv", FLAG_PATH, DEST(loss_csv), .meta = "PATH",
     .help = "write the loss curve (epoch,train_mse,valid_mse,seconds)"},
    {"--json", FLAG_PATH, DEST(json), .meta = "FILE",
     .help = "the run's result for programs (docs/json-outputs.md)"},
};

#undef DEST
#undef INT
#undef NUM

static void usage(FILE *f) {
    fputs("usage: hansu-tune [options] FILE.h5|RUN_DIR...\n"
          "Texel tuning of the evaluation weights on self-play HDF5 data; writes a weights "
          "header.\n",
          f);
    flags_help(f, TUNE_FLAGS, FLAGS_COUNT(TUNE_FLAGS), 21);
}

// Returns 0 to go on, 1 to exit successfully (--help), -1 on a bad command line.
static int parse_args(int argc, char **argv, Options *o) {
    FlagResult res = {.pos = o->inputs};
    ErrorInfo err;
    if (flags_parse(TUNE_FLAGS, FLAGS_COUNT(TUNE_FLAGS), argc, argv, 1, o, &res, &err) !=
        STATUS_OK) {
        fprintf(stderr, "hansu-tune: %s (see --help)\n", err.msg);
        return -1;
    }
    if (res.help)
        return usage(stdout), 1;
    o->ninputs = res.npos;
    o->tune.method = o->optimizer == 1 ? TUNE_GD : TUNE_ADAM;
    if (!o->lr_given)
        o->tune.lr = o->tune.method == TUNE_GD ? 20000 : 1;
    if (!o->out)
        o->out = o->spec->weights_file;
    o->filter.variant = o->spec->variant;
    // Every game in the validation set leaves none to train on: told before any data is read.
    if (o->filter.valid_fraction >= 1) {
        fprintf(stderr,
                "hansu-tune: --valid %g: must be in 0..1, below 1 (the share of games held out; "
                "1 leaves none to train on) (see --help)\n",
                o->filter.valid_fraction);
        return -1;
    }
    if (o->ninputs == 0) {
        fputs("hansu-tune: no input files (see --help)\n", stderr);
        return -1;
    }
    return 0;
}

// Marks the parameters of every named term of spec's list in frozen (param_count flags).
static bool parse_freeze(const EvalSpec *spec, const char *list, uint8_t *frozen) {
    // strtok_r skips empty items: '' or 'a,,b' would freeze less than was asked, silently.
    size_t n = strlen(list);
    if (n == 0 || list[0] == ',' || list[n - 1] == ',' || strstr(list, ",,")) {
        fprintf(stderr, "hansu-tune: --freeze '%s': %s (give T[,T...])\n", list,
                n == 0 ? "an empty list of terms" : "an empty term in the list");
        return false;
    }
    if (n >= 1024) {
        fprintf(stderr, "hansu-tune: --freeze: the list is too long (%zu bytes)\n", n);
        return false;
    }
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", list);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int t = 0;
        while (t < spec->term_count && strcasecmp(tok, spec->terms[t].name) &&
               strcasecmp(tok, spec->terms[t].id))
            t++;
        if (t == spec->term_count) {
            fprintf(stderr, "hansu-tune: --freeze: unknown term '%s' of %s; terms:", tok,
                    spec->variant);
            for (int k = 0; k < spec->term_count; k++)
                fprintf(stderr, " %s", spec->terms[k].name);
            fputc('\n', stderr);
            return false;
        }
        memset(frozen + spec->terms[t].offset, 1, (size_t)spec->terms[t].size);
    }
    return true;
}

// Everything one run holds; freed by run_free().
typedef struct Run {
    Options o;
    uint8_t frozen[EVAL_PARAM_MAX]; // o.spec->param_count of each array in use
    TraceStore train, valid;
    // MPI: train and valid hold only this rank's shares of the whole sets (share.h).
    bool shared;
    TuneShare train_share, valid_share;
    TraceStore whole; // the whole training set's counts (npos, nentries) for the figures
    size_t nvalid;    // positions of the whole validation set
    DatasetStats ds;
    EvalWeight start[EVAL_PARAM_MAX]; // starting weights: --init or the compiled-in ones
    double w[2 * EVAL_PARAM_MAX];     // weights being tuned, cp (w[2i] mg, w[2i+1] eg)
    EvalWeight out[EVAL_PARAM_MAX];   // the rounded result
    double start_train, start_valid, end_train, end_valid;
    TuneResult res;
    FILE *csv;
    size_t distinct;         // distinct training positions (report_coverage)
    int free_weights;        // weights the data can move (mg and eg of touched, unfrozen terms)
    EvalBannerInput *inputs; // every input file with its "sha256:<hex>" (hash_inputs)
    int ninputs;
    char out_sha256[65]; // of the header written, "" for --dry-run
    RunLock *out_lock;   // "FILE.lock" of each output, held from the checks to the end
    int64_t start_ms;    // wall clock at start (timeman_now_ms)
} Run;

static void on_epoch(const TuneEpoch *e, void *arg) {
    Run *r = arg;
    printf("epoch %4d  train MSE %.8f  valid MSE %.8f  %.3f s (+%.3f s validation)\n", e->epoch,
           e->train_mse, e->valid_mse, e->train_seconds, e->valid_seconds);
    fflush(stdout);
    if (r->csv)
        fprintf(r->csv, "%d,%.10f,%.10f,%.6f\n", e->epoch, e->train_mse, e->valid_mse,
                e->train_seconds);
}

// Hashes every input file (run folders: each shard) for the banner: "sha256:<hex>".
static Status hash_inputs(const Options *o, EvalBannerInput **out, int *n, ErrorInfo *err) {
    char **files = NULL;
    size_t nf = 0;
    Status st = dataset_expand_inputs(o->inputs, (size_t)o->ninputs, &files, &nf, err);
    if (st != STATUS_OK)
        return st;
    *out = calloc(nf ? nf : 1, sizeof **out);
    *n = 0;
    if (!*out)
        st = error_set(err, STATUS_NOMEM, "out of memory");
    for (size_t i = 0; i < nf && st == STATUS_OK; i++) {
        char hex[65], *h = malloc(72);
        if (!h) {
            st = error_set(err, STATUS_NOMEM, "out of memory");
            break;
        }
        (*out)[(*n)++] = (EvalBannerInput){.path = files[i], .hash = h};
        files[i] = NULL; // owned by the banner list now
        h[0] = 0;
        if ((st = sha256_file((*out)[*n - 1].path, hex, err)) == STATUS_OK)
            snprintf(h, 72, "sha256:%s", hex);
    }
    dataset_free_files(files, nf);
    return st;
}

// Takes the writer lock of every output: "FILE.lock" beside each one's target (run_lock.h).
static Status lock_outputs(Run *r, ErrorInfo *err) {
    const char *files[] = {r->o.out, r->o.loss_csv, r->o.json};
    const char *flags[] = {"--out", "--loss-csv", "--json"};
    return run_lock_take_outputs(files, flags, 3, &r->out_lock, err);
}

// Step 0: what can fail without the data is checked before it is read (which takes minutes):
// --init is parsed, and files can be written where --out and --loss-csv say.
static Status check_files(Run *r, ErrorInfo *err) {
    const EvalSpec *spec = r->o.spec;
    memcpy(r->start, spec->weights, sizeof r->start[0] * (size_t)spec->param_count);
    Status st = STATUS_OK;
    if (r->o.init &&
        (st = weights_read_header(r->o.init, spec->param_count, r->start, err)) != STATUS_OK)
        return st;
    if (!r->o.dry_run && (st = cli_check_writable("--out", r->o.out, err)) != STATUS_OK)
        return st;
    if (r->o.loss_csv && (st = cli_check_writable("--loss-csv", r->o.loss_csv, err)) != STATUS_OK)
        return st;
    if (r->o.json && (st = cli_check_writable("--json", r->o.json, err)) != STATUS_OK)
        return st;
    // Two tuners writing one header (or CSV, or JSON) would both report success and one file
    // would be lost: the second is refused, naming the first one's pid (rank 0 alone writes).
    if (!r->o.dry_run && r->o.tune.rank == 0)
        st = lock_outputs(r, err);
    return st;
}

// Step 1: read, filter, split and trace the data; print what happened to the positions.
static Status load_data(Run *r, ErrorInfo *err) {
    TuneConfig *c = &r->o.tune;
    Status st;
    if (r->shared) {
        DatasetRanks rk = {
            .rank = c->rank, .ranks = c->ranks, .batch = c->batch, .order_seed = c->seed};
        st =
            dataset_load_share(r->o.inputs, (size_t)r->o.ninputs, &r->o.filter, c->threads, &rk,
                               &r->train, &r->valid, &r->train_share, &r->valid_share, &r->ds, err);
    } else
        st = dataset_load(r->o.inputs, (size_t)r->o.ninputs, &r->o.filter, c->threads, &r->train,
                          &r->valid, &r->ds, err);
    if (st != STATUS_OK)
        return st;
    const DatasetStats *ds = &r->ds;
    r->whole = (TraceStore){
        .nparams = r->train.nparams, .npos = r->train.npos, .nentries = r->train.nentries};
    r->nvalid = r->valid.npos;
    if (r->shared) { // the whole sets' figures, and what this rank holds
        uint64_t entries = r->train.nentries;
        cluster_sum_u64(&entries, 1);
        r->whole.npos = r->train_share.npos, r->whole.nentries = entries;
        r->nvalid = r->valid_share.npos;
        c->train_share = &r->train_share, c->valid_share = &r->valid_share;
        fprintf(stderr,
                "hansu-tune: rank %d of %d holds %zu of %zu training and %zu of %zu validation "
                "positions (%.1f MB of traces); traced %zu positions\n",
                c->rank, c->ranks, r->train.npos, r->whole.npos, r->valid.npos, r->nvalid,
                (double)((r->train.npos + r->valid.npos) * sizeof(TracePos) +
                         (r->train.nentries + r->valid.nentries) * sizeof(TraceEntry)) /
                    1e6,
                ds->traced);
    }
    double secs = ds->read_seconds + ds->build_seconds;
    char pv[48] = "";
    if (ds->pv_ends)
        snprintf(pv, sizeof pv, " and %zu PV ends", ds->pv_ends);
    printf("loaded %zu files, %zu games%s, %zu positions in %.2f s (read %.2f s, build %.2f s): "
           "%.0f positions/s\n",
           ds->files, ds->games, pv, ds->positions, secs, ds->read_seconds, ds->build_seconds,
           ds->positions / fmax(1e-9, secs));
    printf("dropped: ply %zu, score %zu, check %zu, capture %zu, per game %zu; quiesced %zu\n",
           ds->cut_ply, ds->cut_score, ds->cut_check, ds->cut_capture, ds->cut_per_game,
           ds->quiesced);
    printf("trace parity: %zu refused (> 1 cp), %zu off by 1 cp, %zu kept\n", ds->refused,
           ds->off_by_one, r->whole.npos + r->nvalid);
    printf("train %zu positions (%zu games), validation %zu positions (%zu games)\n", r->whole.npos,
           ds->train_games, r->nvalid, ds->valid_games);
    printf("memory %.1f bytes/position (%.1f non-zero terms/position; 16 + 4 per term)\n",
           trace_store_bytes_per_position(&r->whole), trace_store_entries_per_position(&r->whole));
    // Too little data is not an error, but the user must know what the numbers are worth.
    if (r->nvalid == 0)
        printf("warning: no validation positions (--valid %.2f, %zu games): early stopping is "
               "off and the last epoch's weights are kept\n",
               r->o.filter.valid_fraction, ds->train_games + ds->valid_games);
    if (r->whole.npos < 10000)
        printf("warning: only %zu training positions: K and the tuned weights will be noisy\n",
               r->whole.npos);
    // Each file came in shuffled; several files are mixed once more across files (MPI: done
    // by dataset_load_share, in the order of the shares).
    if (ds->files > 1 && !r->shared)
        st = trace_store_shuffle(&r->train, r->o.tune.seed, err);
    return st;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

// Distinct training positions as the fit sees them: distinct (phase, trace) pairs (MPI: of
// the whole set, every rank's hashes gathered).
static size_t distinct_traces(const TraceStore *s, const TuneShare *sh) {
    size_t n = sh ? sh->npos : s->npos;
    uint64_t *h = malloc((s->npos ? s->npos : 1) * sizeof *h);
    uint64_t *all = sh ? malloc((n ? n : 1) * sizeof *all) : h;
    // Out of memory (on any rank): 0, as before the ranks held shares.
    if (sh && tune_agree(h && all ? STATUS_OK : STATUS_NOMEM, NULL) != STATUS_OK)
        return free(h), free(all), 0;
    if (!h)
        return 0;
    for (size_t j = 0; j < s->npos; j++) {
        const TracePos *p = &s->pos[j];
        uint64_t x = 0xcbf29ce484222325ULL ^ p->phase; // FNV-1a over the entries
        for (int k = 0; k < p->count; k++) {
            const TraceEntry *e = &s->entries[p->start + k];
            x = (x ^ ((uint64_t)e->index << 16 | (uint16_t)e->coef)) * 0x100000001b3ULL;
        }
        h[j] = x;
    }
    if (sh)
        tune_share_gather(sh, h, all), free(h), h = all;
    qsort(h, n, sizeof *h, cmp_u64);
    size_t distinct = 0;
    for (size_t j = 0; j < n; j++)
        distinct += j == 0 || h[j] != h[j - 1];
    free(h);
    return distinct;
}

// What the data can pin down: distinct games and positions, positions per free weight, and
// free parameters that few positions touch; a warning when the rule of docs/tuning.md fails.
static void report_coverage(Run *r) {
    static uint64_t touched[EVAL_PARAM_MAX];
    const EvalSpec *spec = r->o.spec;
    memset(touched, 0, sizeof touched);
    const TraceStore *s = &r->train;
    for (size_t e = 0; e < s->nentries; e++)
        touched[trace_entry_param(s, s->entries[e].index)]++;
    cluster_sum_u64(touched, (size_t)spec->param_count); // MPI: over every rank's share
    // A parameter no position touches has no gradient and keeps its value: not counted.
    int free_params = 0, thin = 0, first_thin = -1;
    for (int i = 0; i < spec->param_count; i++) {
        if (r->frozen[i] || touched[i] == 0)
            continue;
        free_params++;
        if (touched[i] < MIN_POSITIONS_PER_PARAM && thin++ == 0)
            first_thin = i;
    }
    double per_weight = free_params ? (double)r->whole.npos / (2.0 * free_params) : 0;
    r->distinct = distinct_traces(s, r->shared ? &r->train_share : NULL);
    r->free_weights = 2 * free_params;
    if (spec->rule_terms)
        printf("kept as the rules fix them (never fitted): %s\n", spec->rule_terms);
    printf("fitting %zu training positions (%zu distinct) from %zu games; %d free weights "
           "(%d touched parameters, mg and eg): %.1f positions per free weight; %d free "
           "parameters in fewer than %d positions\n",
           r->whole.npos, r->distinct, r->ds.train_games, 2 * free_params, free_params, per_weight,
           thin, MIN_POSITIONS_PER_PARAM);
    if (free_params && (per_weight < POSITIONS_PER_WEIGHT || thin > 0)) {
        const char *term = "";
        for (int t = 0; t < spec->term_count && first_thin >= 0; t++)
            if (first_thin >= spec->terms[t].offset &&
                first_thin < spec->terms[t].offset + spec->terms[t].size)
                term = spec->terms[t].name;
        printf("warning: the data cannot pin down %d free weights (rule: >= %d positions per "
               "free weight and every free parameter in >= %d positions%s%s); only --l2 %g "
               "holds them near the start: use more games, --freeze, or a larger --l2\n",
               2 * free_params, POSITIONS_PER_WEIGHT, MIN_POSITIONS_PER_PARAM,
               thin ? "; first thin one in " : "", term, r->o.tune.l2);
    }
}

// The MSE of r->w on the whole training and validation sets (NAN without validation set),
// as one process with all the ranks' threads computes them.
static Status losses(Run *r, double *train, double *valid, ErrorInfo *err) {
    const TuneConfig *c = &r->o.tune;
    Status st = STATUS_OK;
    if (r->shared)
        st = tune_loss_share(&r->train, &r->train_share, r->w, c->k, train, err);
    else
        *train =
            tune_loss_split(&r->train, r->train.npos, 0, r->w, c->k, c->threads, c->rank, c->ranks);
    *valid = r->nvalid ? tune_loss_split(&r->valid, r->nvalid, 0, r->w, c->k, c->threads, c->rank,
                                         c->ranks)
                       : NAN;
    return st;
}

// Step 2: starting weights, K, targets, the starting losses and the loss CSV's first row.
static Status prepare(Run *r, ErrorInfo *err) {
    for (int i = 0; i < r->o.spec->param_count; i++)
        r->w[2 * i] = r->start[i].mg, r->w[2 * i + 1] = r->start[i].eg;
    TuneConfig *c = &r->o.tune;
    Status st = STATUS_OK;
    if (!r->o.k_given && r->shared)
        st = tune_fit_k_share(&r->train, &r->train_share, r->w, &c->k, err);
    else if (!r->o.k_given)
        c->k = tune_fit_k(&r->train, r->w, c->threads);
    if (st != STATUS_OK)
        return st;
    tune_set_targets(&r->train, c->k, r->o.lambda);
    tune_set_targets(&r->valid, c->k, r->o.lambda);
    if ((st = losses(r, &r->start_train, &r->start_valid, err)) != STATUS_OK)
        return st;
    printf("K %.6f (%s), lambda %.3f; starting weights: train MSE %.8f, valid MSE %.8f\n", c->k,
           r->o.k_given ? "given" : "fitted", r->o.lambda, r->start_train, r->start_valid);
    if (!r->o.loss_csv || c->rank > 0) // rank 0 writes the files of an MPI run
        return STATUS_OK;
    if (!(r->csv = fopen(r->o.loss_csv, "w")))
        return error_set(err, STATUS_IO, "%s: cannot write: %s", r->o.loss_csv, strerror(errno));
    fprintf(r->csv, "epoch,train_mse,valid_mse,seconds\n0,%.10f,%.10f,0\n", r->start_train,
            r->start_valid);
    return STATUS_OK;
}

// Step 3: train, round to the engine's integers, and measure the rounded weights.
static Status train(Run *r, ErrorInfo *err) {
    TuneConfig *c = &r->o.tune;
    Status st = tune_train(&r->train, &r->valid, c, r->w, on_epoch, r, &r->res, err);
    if (st != STATUS_OK)
        return st;
    for (int i = 0; i < r->o.spec->param_count; i++) {
        r->out[i] = (EvalWeight){(int)lround(r->w[2 * i]), (int)lround(r->w[2 * i + 1])};
        r->w[2 * i] = r->out[i].mg, r->w[2 * i + 1] = r->out[i].eg;
    }
    if ((st = losses(r, &r->end_train, &r->end_valid, err)) != STATUS_OK)
        return st;
    printf("%d epochs%s, kept epoch %d; rounded weights: train MSE %.8f (was %.8f), valid MSE "
           "%.8f (was %.8f)\n",
           r->res.epochs_run, r->res.stopped_early ? " (stopped early)" : "", r->res.best_epoch,
           r->end_train, r->start_train, r->end_valid, r->start_valid);
    return STATUS_OK;
}

// Step 4: the header, through the engine's printer, with the provenance banner.
static Status emit(Run *r, ErrorInfo *err) {
    Status st = STATUS_OK;
    const Options *o = &r->o;
    char settings[1536], note[256];
    dataset_filter_describe(&o->filter, settings, sizeof settings);
    size_t len = strlen(settings);
    snprintf(settings + len, sizeof settings - len,
             " --lambda %.4g --l2 %.6g --optimizer %s --lr %.6g --batch %zu --epochs %d"
             " --patience %d%s%s%s%s",
             o->lambda, o->tune.l2, o->tune.method == TUNE_GD ? "gd" : "adam", o->tune.lr,
             o->tune.batch, o->tune.epochs, o->tune.patience, o->freeze ? " --freeze " : "",
             o->freeze ? o->freeze : "", o->init ? " --init " : "", o->init ? o->init : "");
    snprintf(note, sizeof note,
             "Texel tuning of %zu train / %zu validation positions, kept "
             "epoch %d",
             r->whole.npos, r->nvalid, r->res.best_epoch);
    EvalBanner banner = {.generator = "hansu-tune " HANSU_VERSION,
                         .note = note,
                         .inputs = r->inputs,
                         .n_inputs = r->ninputs,
                         .filters = settings,
                         .k = o->tune.k,
                         .epochs = r->res.epochs_run,
                         .train_loss = r->end_train,
                         .valid_loss = r->end_valid};
    // Printed whole in memory, then written at once: a failed write (a full disk, a file size
    // limit) is told with its cause and leaves no "OUT.tmp" behind.
    char *text = NULL;
    size_t text_len = 0;
    FILE *f = open_memstream(&text, &text_len);
    if (!f)
        return error_set(err, STATUS_NOMEM, "%s: out of memory", o->out);
    st = eval_header_write(f, o->spec, &banner, r->out, err);
    if (fclose(f) != 0 && st == STATUS_OK)
        st = error_set(err, STATUS_NOMEM, "%s: out of memory", o->out);
    // The digest is the bytes written, hashed here: reading the output back would block on a
    // FIFO (written in place) and read nothing from a device.
    if (st == STATUS_OK && (st = cli_write_atomic(o->out, text, text_len, err)) == STATUS_OK) {
        Sha256 h;
        sha256_init(&h);
        sha256_update(&h, text, text_len);
        sha256_final(&h, r->out_sha256);
        printf("wrote %s (sha256 %.16s...)\n", o->out, r->out_sha256);
    }
    free(text);
    return st;
}

static void json_num(FILE *f, const char *name, double v) {
    fprintf(f, ",\n  \"%s\": ", name);
    cli_json_number(f, v);
}

// Step 5: the run's result for programs (--json FILE, docs/json-outputs.md), written at once.
static Status write_json(const Run *r, ErrorInfo *err) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return error_set(err, STATUS_NOMEM, "--json %s: out of memory", r->o.json);
    const DatasetStats *ds = &r->ds;
    const TuneConfig *c = &r->o.tune;
    fputs("{\n  \"schema\": 1,\n  \"inputs\": [", f);
    for (int i = 0; i < r->ninputs; i++) {
        fputs(i ? ",\n    {\"path\": " : "\n    {\"path\": ", f);
        cli_json_string(f, r->inputs[i].path);
        fputs(", \"sha256\": ", f);
        cli_json_string(f, r->inputs[i].hash + strlen("sha256:"));
        fputc('}', f);
    }
    fputs(r->ninputs ? "\n  ]" : "]", f);
    json_num(f, "files", (double)ds->files);
    json_num(f, "games", (double)ds->games);
    json_num(f, "pv_ends", (double)ds->pv_ends);
    json_num(f, "positions_read", (double)ds->positions);
    json_num(f, "train_positions", (double)r->whole.npos);
    json_num(f, "train_games", (double)ds->train_games);
    json_num(f, "distinct_train_positions", (double)r->distinct);
    json_num(f, "valid_positions", (double)r->nvalid);
    json_num(f, "valid_games", (double)ds->valid_games);
    json_num(f, "quiesced", (double)ds->quiesced);
    json_num(f, "bytes_per_position", trace_store_bytes_per_position(&r->whole));
    json_num(f, "free_weights", r->free_weights);
    json_num(f, "positions_per_free_weight",
             r->free_weights ? (double)r->whole.npos / r->free_weights : 0.0);
    json_num(f, "k", c->k);
    fprintf(f, ",\n  \"k_fitted\": %s", r->o.k_given ? "false" : "true");
    json_num(f, "lambda", r->o.lambda);
    json_num(f, "l2", c->l2);
    json_num(f, "epochs_run", r->res.epochs_run);
    json_num(f, "best_epoch", r->res.best_epoch);
    fprintf(f, ",\n  \"stopped_early\": %s", r->res.stopped_early ? "true" : "false");
    json_num(f, "train_mse_start", r->start_train);
    json_num(f, "train_mse_end", r->end_train);
    json_num(f, "valid_mse_start", r->start_valid);
    json_num(f, "valid_mse_end", r->end_valid);
    json_num(f, "seconds", (double)(timeman_now_ms() - r->start_ms) / 1000.0);
    fputs(",\n  \"out\": ", f);
    if (r->o.dry_run)
        fputs("null,\n  \"out_sha256\": null", f);
    else {
        cli_json_string(f, r->o.out);
        fputs(",\n  \"out_sha256\": ", f);
        cli_json_string(f, r->out_sha256);
    }
    fputs("\n}\n", f);
    if (fclose(f) != 0) {
        free(text);
        return error_set(err, STATUS_NOMEM, "--json %s: out of memory", r->o.json);
    }
    Status st = cli_write_atomic(r->o.json, text, len, err);
    free(text);
    return st;
}

static int run_main(int argc, char **argv);

int main(int argc, char **argv) {
    cli_init();
    ErrorInfo err;
    if (cluster_init(&argc, &argv, &err) != STATUS_OK) {
        fprintf(stderr, "hansu-tune: %s\n", err.msg);
        return 1;
    }
    int rc = run_main(argc, argv);
    cluster_finish();
    return rc;
}

// The tuner; under mpirun -np R every rank runs it with its share of the threads' work
// (tune_gradient_split), and rank 0 prints and writes the files.
static int run_main(int argc, char **argv) {
    Run *r = calloc(1, sizeof *r);
    char **inputs = calloc((size_t)argc, sizeof *inputs);
    if (!r || !inputs)
        return free(r), free(inputs), fputs("hansu-tune: out of memory\n", stderr), 1;
    r->o = (Options){.inputs = inputs,
                     .filter = dataset_filter_default(),
                     .tune = {.method = TUNE_ADAM,
                              .beta1 = 0.9,
                              .beta2 = 0.999,
                              .l2 = L2_DEFAULT,
                              .epsilon = 1e-8,
                              .epochs = 100,
                              .batch = 16384,
                              .patience = 10,
                              .threads = omp_get_num_procs(),
                              .seed = 1},
                     .spec = variant_default()->eval};
    int rc = parse_args(argc, argv, &r->o);
    if (rc == 0 && r->o.freeze && !parse_freeze(r->o.spec, r->o.freeze, r->frozen))
        rc = -1;
    // The terms the rules fix (EvalSpec.rule_terms) are never fitted, --freeze or not.
    if (rc == 0 && r->o.spec->rule_terms &&
        !parse_freeze(r->o.spec, r->o.spec->rule_terms, r->frozen))
        rc = -1;
    if (rc != 0)
        return free(r), free(inputs), rc > 0 ? 0 : 2;
    r->o.tune.frozen = r->frozen;
    // Tests of the ranks' exchange of parity refusals (which real data hardly ever has).
    const char *refuse = getenv("HANSU_TUNE_TEST_REFUSE");
    int64_t every = 0;
    ErrorInfo perr;
    if (refuse &&
        cli_parse_i64("HANSU_TUNE_TEST_REFUSE", refuse, 1, INT32_MAX, &every, &perr) != STATUS_OK) {
        fprintf(stderr, "hansu-tune: %s\n", perr.msg);
        return free(r), free(inputs), 2;
    }
    r->o.filter.test_refuse = (unsigned)every;
    ClusterPart self = cluster_self();
    r->o.tune.rank = (int)self.index - 1, r->o.tune.ranks = (int)self.count;
    r->shared = self.count > 1;
    bool lead = self.index == 1;
    if (!lead && !freopen("/dev/null", "w", stdout)) // rank 0 speaks for all
        return free(r), free(inputs), fputs("hansu-tune: cannot silence stdout\n", stderr), 1;
    r->start_ms = timeman_now_ms();
    trace_store_init(&r->train, r->o.spec->param_count, r->o.spec->phase_max);
    trace_store_init(&r->valid, r->o.spec->param_count, r->o.spec->phase_max);
    ErrorInfo err = {{0}};
    Status st = tune_agree(check_files(r, &err), &err);
    if (st == STATUS_OK)
        st = tune_agree(load_data(r, &err), &err);
    if (st == STATUS_OK)
        report_coverage(r);
    if (st == STATUS_OK)
        st = prepare(r, &err);
    if (st == STATUS_OK)
        st = train(r, &err);
    if (st == STATUS_OK && lead && (!r->o.dry_run || r->o.json))
        st = hash_inputs(&r->o, &r->inputs, &r->ninputs, &err);
    if (st == STATUS_OK && lead && !r->o.dry_run)
        st = emit(r, &err);
    if (st == STATUS_OK && lead && r->o.json && (st = write_json(r, &err)) == STATUS_OK)
        printf("wrote %s\n", r->o.json);
    if (r->csv && fclose(r->csv) != 0 && st == STATUS_OK)
        st = error_set(&err, STATUS_IO, "%s: %s", r->o.loss_csv, strerror(errno));
    run_lock_release(r->out_lock);
    trace_store_free(&r->train);
    trace_store_free(&r->valid);
    for (int i = 0; i < r->ninputs; i++)
        free((char *)r->inputs[i].path), free((char *)r->inputs[i].hash);
    free(r->inputs);
    free(r);
    free(inputs);
    if (st != STATUS_OK) {
        fprintf(stderr, "hansu-tune: %s error: %s\n", status_name(st), err.msg);
        return 1;
    }
    return 0;
}
