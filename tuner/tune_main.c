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

#include "dataset.h"
#include "engine.h"
#include "eval.h"
#include "eval_header.h"
#include "optimizer.h"
#include "sha256.h"
#include "trace_store.h"
#include "weights_io.h"

#ifndef HANSU_VERSION
#define HANSU_VERSION "dev"
#endif

typedef struct Options {
    char **inputs;
    int ninputs;
    DatasetFilter filter;
    TuneConfig tune;
    double lambda;
    bool k_given;
    const char *out, *loss_csv, *freeze, *init;
    bool dry_run;
} Options;

static void usage(FILE *f) {
    fputs(
        "usage: hansu-tune [options] FILE.h5|RUN_DIR...\n"
        "Texel tuning of the evaluation weights on self-play HDF5 data; writes a weights header.\n"
        "\nPositions:\n"
        "  --skip-plies N     drop the first N plies of every game (default 8)\n"
        "  --min-ply N        drop positions before ply N (default 0)\n"
        "  --max-ply N        drop positions after ply N (default -1: no bound)\n"
        "  --max-score CP     drop |stored score| > CP, mates included (default -1: no bound)\n"
        "  --keep-check       keep positions whose side to move is in check (default: drop)\n"
        "  --keep-capture     keep positions whose best move captures (default: drop)\n"
        "  --quiesce          resolve check/capture positions by quiescence instead of dropping\n"
        "  --per-game K       at most K positions per game, seeded choice (default 0: all)\n"
        "  --valid F          share of games in the validation set (default 0.1)\n"
        "\nOptimiser:\n"
        "  --optimizer adam|gd  Adam (Kingma & Ba 2015, default) or plain gradient descent\n"
        "  --lr X             Adam step in cp (default 1) / GD gradient multiplier (default 20000)\n"
        "  --beta1 X          Adam first-moment decay (default 0.9)\n"
        "  --beta2 X          Adam second-moment decay (default 0.999)\n"
        "  --epsilon X        Adam denominator guard (default 1e-8)\n"
        "  --epochs N         passes over the training set (default 100)\n"
        "  --batch N          positions per step, 0 = full batch (default 16384)\n"
        "  --patience N       stop after N epochs without a better validation MSE (default 10,\n"
        "                     0 = never); the best validation epoch's weights are kept\n"
        "  --freeze T[,T...]  keep these terms fixed (names as in engine/eval_terms.def)\n"
        "  --init PATH        starting weights from this header (default: the compiled-in ones)\n"
        "  --k K              sigmoid scale K (default: fitted on the starting weights)\n"
        "  --lambda L         target = (1-L)*result + L*sigmoid(K*score) (default 0)\n"
        "  --seed S           split, per-game choice, shuffle and batch order (default 1)\n"
        "  --threads N        OpenMP threads (default: all cores)\n"
        "\nOutput:\n"
        "  --out PATH         weights header to write (default engine/eval_weights.h)\n"
        "  --dry-run          train and report, write no header\n"
        "  --loss-csv PATH    write the loss curve (epoch,train_mse,valid_mse,seconds)\n"
        "  --help             this text\n",
        f);
}

static bool parse_num(const char *s, double lo, double hi, double *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= lo && v <= hi))
        return false;
    *out = v;
    return true;
}

// One flag with a value: table of numeric flags and where their values go.
static int parse_value_flag(Options *o, const char *flag, const char *val) {
    struct {
        const char *name;
        double lo, hi;
        double d;
    } t[] = {{"--skip-plies", 0, 1e4, 0}, {"--min-ply", 0, 1e4, 0}, {"--max-ply", -1, 1e4, 0},
             {"--max-score", -1, 32767, 0}, {"--per-game", 0, 1e6, 0}, {"--valid", 0, 1, 0},
             {"--lr", 1e-12, 1e12, 0}, {"--beta1", 0, 0.999999, 0}, {"--beta2", 0, 0.99999999, 0},
             {"--epsilon", 1e-30, 1, 0}, {"--epochs", 0, 1e7, 0}, {"--batch", 0, 1e12, 0},
             {"--patience", 0, 1e7, 0}, {"--k", 1e-6, 1e3, 0}, {"--lambda", 0, 1, 0},
             {"--seed", 0, 1.8e19, 0}, {"--threads", 1, 256, 0}};
    int n = (int)(sizeof t / sizeof t[0]), i = 0;
    while (i < n && strcmp(t[i].name, flag))
        i++;
    if (i == n)
        return 0;
    double v;
    if (!parse_num(val, t[i].lo, t[i].hi, &v)) {
        fprintf(stderr, "hansu-tune: %s: '%s' is not a number in [%g, %g]\n", flag, val,
                t[i].lo, t[i].hi);
        return -1;
    }
    DatasetFilter *f = &o->filter;
    TuneConfig *c = &o->tune;
    int iv = (int)v;
    switch (i) {
    case 0: f->skip_plies = iv; break;
    case 1: f->min_ply = iv; break;
    case 2: f->max_ply = iv; break;
    case 3: f->max_score = iv; break;
    case 4: f->per_game = iv; break;
    case 5: f->valid_fraction = v; break;
    case 6: c->lr = v; break;
    case 7: c->beta1 = v; break;
    case 8: c->beta2 = v; break;
    case 9: c->epsilon = v; break;
    case 10: c->epochs = iv; break;
    case 11: c->batch = (size_t)v; break;
    case 12: c->patience = iv; break;
    case 13: c->k = v, o->k_given = true; break;
    case 14: o->lambda = v; break;
    case 15: c->seed = strtoull(val, NULL, 10), f->seed = c->seed; break;
    case 16: c->threads = iv; break;
    }
    return 1;
}

// Returns 0 to go on, 1 to exit successfully (--help), -1 on a bad command line.
static int parse_args(int argc, char **argv, Options *o) {
    bool lr_given = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return usage(stdout), 1;
        if (!strcmp(a, "--keep-check")) o->filter.skip_check = false;
        else if (!strcmp(a, "--keep-capture")) o->filter.skip_capture = false;
        else if (!strcmp(a, "--quiesce")) o->filter.quiesce = true;
        else if (!strcmp(a, "--dry-run")) o->dry_run = true;
        else if (a[0] == '-' && a[1] == '-') {
            if (i + 1 >= argc) {
                fprintf(stderr, "hansu-tune: %s needs a value (see --help)\n", a);
                return -1;
            }
            const char *v = argv[++i];
            if (!strcmp(a, "--out")) o->out = v;
            else if (!strcmp(a, "--loss-csv")) o->loss_csv = v;
            else if (!strcmp(a, "--freeze")) o->freeze = v;
            else if (!strcmp(a, "--init")) o->init = v;
            else if (!strcmp(a, "--optimizer")) {
                if (strcmp(v, "adam") && strcmp(v, "gd")) {
                    fprintf(stderr, "hansu-tune: --optimizer: '%s' is not adam or gd\n", v);
                    return -1;
                }
                o->tune.method = strcmp(v, "gd") ? TUNE_ADAM : TUNE_GD;
            } else {
                int r = parse_value_flag(o, a, v);
                if (r == 0)
                    fprintf(stderr, "hansu-tune: unknown option %s (see --help)\n", a);
                if (r <= 0)
                    return -1;
                lr_given |= !strcmp(a, "--lr");
            }
        } else
            o->inputs[o->ninputs++] = argv[i];
    }
    if (!lr_given)
        o->tune.lr = o->tune.method == TUNE_GD ? 20000 : 1;
    if (o->ninputs == 0) {
        fputs("hansu-tune: no input files (see --help)\n", stderr);
        return -1;
    }
    return 0;
}

// Marks the parameters of every named term in frozen (EVAL_PARAM_NB flags).
static bool parse_freeze(const char *list, uint8_t *frozen) {
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int t = 0;
        while (t < EVAL_TERM_NB && strcasecmp(tok, EVAL_TERMS[t].name) && strcasecmp(tok, EVAL_TERMS[t].id))
            t++;
        if (t == EVAL_TERM_NB) {
            fprintf(stderr, "hansu-tune: --freeze: unknown term '%s'; terms:", tok);
            for (int k = 0; k < EVAL_TERM_NB; k++)
                fprintf(stderr, " %s", EVAL_TERMS[k].name);
            fputc('\n', stderr);
            return false;
        }
        memset(frozen + EVAL_TERMS[t].offset, 1, (size_t)EVAL_TERMS[t].size);
    }
    return true;
}

typedef struct Report {
    FILE *csv;
} Report;

static void on_epoch(const TuneEpoch *e, void *arg) {
    Report *r = arg;
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

int main(int argc, char **argv) {
    Options o = {.filter = dataset_filter_default(),
                 .tune = {.method = TUNE_ADAM, .beta1 = 0.9, .beta2 = 0.999, .epsilon = 1e-8,
                          .epochs = 100, .batch = 16384, .patience = 10,
                          .threads = omp_get_num_procs(), .seed = 1},
                 .out = "engine/eval_weights.h"};
    o.inputs = calloc((size_t)argc, sizeof *o.inputs);
    int rc = o.inputs ? parse_args(argc, argv, &o) : -1;
    if (rc != 0)
        return free(o.inputs), rc > 0 ? 0 : 2;
    static uint8_t frozen[EVAL_PARAM_NB];
    if (o.freeze && !parse_freeze(o.freeze, frozen))
        return free(o.inputs), 2;
    o.tune.frozen = frozen;
    engine_init();

    ErrorInfo err = {{0}};
    TraceStore train, valid;
    trace_store_init(&train, EVAL_PARAM_NB, EVAL_PHASE_MAX);
    trace_store_init(&valid, EVAL_PARAM_NB, EVAL_PHASE_MAX);
    DatasetStats ds;
    EvalBannerInput *inputs = NULL;
    int ninputs = 0;
    Report rep = {0};
    double *w = malloc(2 * EVAL_PARAM_NB * sizeof *w);
    Status st = w ? dataset_load(o.inputs, (size_t)o.ninputs, &o.filter, o.tune.threads, &train,
                                 &valid, &ds, &err)
                  : error_set(&err, STATUS_NOMEM, "out of memory");
    if (st != STATUS_OK)
        goto cleanup;
    size_t kept = train.npos + valid.npos;
    printf("loaded %zu files, %zu games, %zu positions in %.2f s (read %.2f s, build %.2f s): "
           "%.0f positions/s\n",
           ds.files, ds.games, ds.positions, ds.read_seconds + ds.build_seconds,
           ds.read_seconds, ds.build_seconds,
           ds.positions / fmax(1e-9, ds.read_seconds + ds.build_seconds));
    printf("dropped: ply %zu, score %zu, check %zu, capture %zu, per game %zu; quiesced %zu\n",
           ds.cut_ply, ds.cut_score, ds.cut_check, ds.cut_capture, ds.cut_per_game, ds.quiesced);
    printf("trace parity: %zu refused (> 1 cp), %zu off by 1 cp, %zu kept\n", ds.refused,
           ds.off_by_one, kept);
    printf("train %zu positions (%zu games), validation %zu positions (%zu games)\n",
           train.npos, ds.train_games, valid.npos, ds.valid_games);
    printf("memory %.1f bytes/position (%.1f non-zero terms/position; 16 + 4 per term)\n",
           trace_store_bytes_per_position(&train), trace_store_entries_per_position(&train));
    // Each file came in shuffled; several files are mixed once more across files.
    if (ds.files > 1 && (st = trace_store_shuffle(&train, o.tune.seed, &err)) != STATUS_OK)
        goto cleanup;
    static EvalWeight start[EVAL_PARAM_NB];
    memcpy(start, EVAL_WEIGHTS_FLAT, sizeof start);
    if (o.init && (st = weights_read_header(o.init, start, &err)) != STATUS_OK)
        goto cleanup;
    for (int i = 0; i < EVAL_PARAM_NB; i++)
        w[2 * i] = start[i].mg, w[2 * i + 1] = start[i].eg;
    if (!o.k_given)
        o.tune.k = tune_fit_k(&train, w, o.tune.threads);
    tune_set_targets(&train, o.tune.k, o.lambda);
    tune_set_targets(&valid, o.tune.k, o.lambda);
    double start_train = tune_loss(&train, w, o.tune.k, o.tune.threads);
    double start_valid = tune_loss(&valid, w, o.tune.k, o.tune.threads);
    printf("K %.6f (%s), lambda %.3f; starting weights: train MSE %.8f, valid MSE %.8f\n",
           o.tune.k, o.k_given ? "given" : "fitted", o.lambda, start_train, start_valid);
    if (o.loss_csv) {
        if (!(rep.csv = fopen(o.loss_csv, "w"))) {
            st = error_set(&err, STATUS_IO, "%s: cannot write: %s", o.loss_csv, strerror(errno));
            goto cleanup;
        }
        fprintf(rep.csv, "epoch,train_mse,valid_mse,seconds\n0,%.10f,%.10f,0\n", start_train,
                start_valid);
    }
    TuneResult res;
    st = tune_train(&train, &valid, &o.tune, w, on_epoch, &rep, &res, &err);
    if (st != STATUS_OK)
        goto cleanup;
    // The engine uses integers: report and record the losses of the rounded weights.
    static EvalWeight out[EVAL_PARAM_NB];
    for (int i = 0; i < EVAL_PARAM_NB; i++) {
        out[i] = (EvalWeight){(int)lround(w[2 * i]), (int)lround(w[2 * i + 1])};
        w[2 * i] = out[i].mg, w[2 * i + 1] = out[i].eg;
    }
    double end_train = tune_loss(&train, w, o.tune.k, o.tune.threads);
    double end_valid = tune_loss(&valid, w, o.tune.k, o.tune.threads);
    printf("%d epochs%s, kept epoch %d; rounded weights: train MSE %.8f (was %.8f), valid MSE "
           "%.8f (was %.8f)\n",
           res.epochs_run, res.stopped_early ? " (stopped early)" : "", res.best_epoch,
           end_train, start_train, end_valid, start_valid);
    if (o.dry_run)
        goto cleanup;
    if ((st = hash_inputs(&o, &inputs, &ninputs, &err)) != STATUS_OK)
        goto cleanup;
    char filters[512], settings[1024];
    dataset_filter_describe(&o.filter, filters, sizeof filters);
    snprintf(settings, sizeof settings,
             "%s --lambda %.4g --optimizer %s --lr %.6g --batch %zu --epochs %d --patience %d%s%s",
             filters, o.lambda, o.tune.method == TUNE_GD ? "gd" : "adam", o.tune.lr,
             o.tune.batch, o.tune.epochs, o.tune.patience, o.freeze ? " --freeze " : "",
             o.freeze ? o.freeze : "");
    if (o.init) // the starting weights are an input too
        snprintf(settings + strlen(settings), sizeof settings - strlen(settings), " --init %s",
                 o.init);
    char note[256];
    snprintf(note, sizeof note, "Texel tuning of %zu train / %zu validation positions, kept epoch %d",
             train.npos, valid.npos, res.best_epoch);
    EvalBanner banner = {.generator = "hansu-tune " HANSU_VERSION, .note = note,
                         .inputs = inputs, .n_inputs = ninputs, .filters = settings,
                         .k = o.tune.k, .epochs = res.epochs_run, .train_loss = end_train,
                         .valid_loss = end_valid};
    if ((st = eval_header_save(o.out, &banner, out, &err)) == STATUS_OK)
        printf("wrote %s\n", o.out);
cleanup:
    if (rep.csv && fclose(rep.csv) != 0 && st == STATUS_OK)
        st = error_set(&err, STATUS_IO, "%s: write error", o.loss_csv);
    for (int i = 0; i < ninputs; i++)
        free((char *)inputs[i].path), free((char *)inputs[i].hash);
    free(inputs);
    trace_store_free(&train);
    trace_store_free(&valid);
    free(w);
    free(o.inputs);
    if (st != STATUS_OK) {
        fprintf(stderr, "hansu-tune: %s error: %s\n", status_name(st), err.msg);
        return 1;
    }
    return 0;
}
