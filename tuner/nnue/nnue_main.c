// SPDX-License-Identifier: MIT
// hansu-nnue: trains the engine's NNUE from self-play shards (docs/nnue.md): read and filter,
// fit s, train the float net epoch by epoch with checkpoints, quantise, check the quantised net
// against the float one, write the .nnue, the loss CSV and the JSON summary.
#include <errno.h>
#include <omp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "files.h"
#include "flags.h"
#include "nnue.h"
#include "nnue_data.h"
#include "nnue_stream.h"
#include "nnue_train.h"
#include "run_lock.h"
#include "sha256.h"
#include "variant.h"

// EXIT_REJECTED: trained, but the quantised net failed --quant-bound and was not written (the
// loop records a rejected candidate; docs/nnue.md).
enum { THREADS_MAX = 64, QUANT_CHECK_POSITIONS = 20000, EXIT_REJECTED = 3 };

typedef struct Options {
    NnueFilter filter;
    NnueTrainConfig train;
    const char *out, *json, *csv, *checkpoint;
    const char *init; // --init NET.nnue, or NULL
    const char *arch; // --arch plain|palace
    bool resume;
    double quant_bound; // cp: the largest |float - quantised| allowed on validation positions
    char **inputs;
    size_t ninputs;
    char csv_buf[FILES_PATH_MAX], ckpt_buf[FILES_PATH_MAX];
} Options;

#define OPT(field) FLAG_DEST(Options, field)
// The flags, read by engine/flags.c like every tool's (defaults in brackets).
static const Flag FLAGS[] = {
    {"--out", FLAG_PATH, OPT(out), .meta = "FILE.nnue",
     .help = "the net to write (required); one run per output\nfile: a second is refused "
             "(FILE.lock)"},
    {"--variant", FLAG_STRING, OPT(filter.variant), .meta = "V",
     .help = "janggi or xiangqi [janggi]"},
    {"--arch", FLAG_STRING, OPT(arch), .meta = "A",
     .help = "inputs: plain, or palace (9 buckets by the own\ngeneral's palace point, factorised) "
             "[plain]"},
    {"--l1", FLAG_INT, OPT(train.hidden), .lo = NNUE_L1_STEP, .hi = NNUE_L1_MAX, .meta = "N",
     .help = "hidden neurons per perspective, a multiple of 32 [256]"},
    {"--out-buckets", FLAG_INT, OPT(train.out_buckets), .lo = 1, .hi = NNUE_OUT_BUCKETS_MAX,
     .meta = "N", .help = "output layers chosen by pieces on the board [1]"},
    {"--epochs", FLAG_INT, OPT(train.epochs), .lo = 1, .hi = 100000, .meta = "N",
     .help = "passes over the training set [10]"},
    {"--batch", FLAG_INT, OPT(train.batch), .lo = 1, .hi = 1 << 24, .meta = "N",
     .help = "positions per step [16384]"},
    {"--threads", FLAG_INT, OPT(train.threads), .lo = 1, .hi = THREADS_MAX, .meta = "T",
     .help = "OpenMP threads [1]"},
    {"--lr", FLAG_DOUBLE, OPT(train.lr), .dlo = 0, .dhi = 10, .meta = "X",
     .help = "first learning rate [0.001]"},
    {"--lr-min", FLAG_DOUBLE, OPT(train.lr_min), .dlo = 0, .dhi = 10, .meta = "X",
     .help = "last (cosine schedule) [0.00001]"},
    {"--weight-decay", FLAG_DOUBLE, OPT(train.weight_decay), .dlo = 0, .dhi = 1, .meta = "X",
     .help = "AdamW decay [0.01]"},
    {"--lambda", FLAG_DOUBLE, OPT(train.lambda), .dlo = 0, .dhi = 1, .meta = "X",
     .help = "weight of the game result [0.5]"},
    {"--sigmoid-s", FLAG_DOUBLE, OPT(train.s), .dlo = 1, .dhi = 100000, .meta = "CP",
     .help = "sigmoid scale of scores [fitted]"},
    {"--scale", FLAG_INT, OPT(train.scale), .lo = 1, .hi = 100000, .meta = "CP",
     .help = "centipawns per net output unit [400]"},
    {"--seed", FLAG_UINT, OPT(train.seed), .max = UINT64_MAX, .meta = "S",
     .help = "weights, shuffles and split [1]"},
    {"--skip-plies", FLAG_INT, OPT(filter.skip_plies), .lo = 0, .hi = 10000, .meta = "N",
     .help = "drop each game's first plies [8]"},
    {"--max-score", FLAG_INT, OPT(filter.max_score), .lo = -1, .hi = 40000, .meta = "CP",
     .help = "drop |score| above (-1 none) [3000]"},
    {"--skip-check", FLAG_BOOL, OPT(filter.skip_check), .help = "drop positions in check [on]"},
    {"--keep-check", FLAG_BOOL, OPT(filter.skip_check), .off = true, .help = "keep them"},
    {"--skip-capture", FLAG_BOOL, OPT(filter.skip_capture), .help = "drop best-move captures [on]"},
    {"--keep-capture", FLAG_BOOL, OPT(filter.skip_capture), .off = true, .help = "keep them"},
    {"--mirror", FLAG_BOOL, OPT(filter.mirror), .help = "add each training position's mirror [on]"},
    {"--no-mirror", FLAG_BOOL, OPT(filter.mirror), .off = true,
     .help = "train on the positions as played"},
    {"--valid", FLAG_DOUBLE, OPT(filter.valid_fraction), .dlo = 0.001, .dhi = 0.9, .meta = "F",
     .help = "games held out [0.1]"},
    {"--max-positions", FLAG_UINT, OPT(filter.max_positions), .max = INT64_MAX, .meta = "N",
     .help = "positions kept at most [all]"},
    {"--buffer", FLAG_UINT, OPT(filter.buffer), .max = NNUE_STREAM_MAX_ORDER / 2, .meta = "N",
     .help = "training positions held at once (44 bytes each);\nfewer than the data has: each "
             "epoch streams the\nfiles through it; at least --batch [0: all]"},
    {"--quant-bound", FLAG_DOUBLE, OPT(quant_bound), .dlo = 0, .dhi = 100000, .meta = "CP",
     .help = "max |float - quantised| (above: exit 3) [64]"},
    {"--csv", FLAG_PATH, OPT(csv), .meta = "FILE", .help = "loss per epoch [OUT.csv]"},
    {"--checkpoint", FLAG_PATH, OPT(checkpoint), .meta = "FILE",
     .help = "state after each epoch [OUT.ckpt]"},
    {"--resume", FLAG_BOOL, OPT(resume),
     .help = "continue from the checkpoint (of the same settings,\nfilters and inputs)"},
    {"--init", FLAG_PATH, OPT(init), .meta = "NET",
     .help = "first weights from this .nnue of the variant [random]"},
    {"--json", FLAG_PATH, OPT(json), .meta = "FILE",
     .help = "summary for programs (docs/json-outputs.md)"},
};
#undef OPT

static void usage(FILE *f) {
    fputs("usage: hansu-nnue --out NET.nnue [options] FILE.h5|RUN_DIR...\n"
          "trains the NNUE evaluation from self-play shards (docs/nnue.md)\n\noptions:\n",
          f);
    flags_help(f, FLAGS, FLAGS_COUNT(FLAGS), 22);
    fputs("\nexit status: 0 the net written; 1 an error; 2 a bad command line; 3 trained, but\n"
          "the quantised net failed --quant-bound and was not written (--json is written,\n"
          "with \"written\": false and the \"reason\")\n",
          f);
}

// 0: go on; 1: --help; -1: bad command line (message printed).
static int parse_args(int argc, char **argv, Options *o) {
    FlagResult res = {.pos = o->inputs};
    ErrorInfo err;
    if (flags_parse(FLAGS, FLAGS_COUNT(FLAGS), argc, argv, 1, o, &res, &err) != STATUS_OK) {
        fprintf(stderr, "hansu-nnue: %s (see --help)\n", err.msg);
        return -1;
    }
    if (res.help)
        return usage(stdout), 1;
    o->ninputs = (size_t)res.npos;
    const char *why = !o->out       ? "--out FILE.nnue is required"
                      : !o->ninputs ? "no input files or run folders"
                      : o->filter.variant && !variant_find(o->filter.variant)
                          ? "--variant: not janggi or xiangqi"
                      : o->arch && strcmp(o->arch, "plain") && strcmp(o->arch, "palace")
                          ? "--arch: not plain or palace"
                      : o->train.hidden % NNUE_L1_STEP ? "--l1: not a multiple of 32"
                                                       : NULL;
    if (why) {
        fprintf(stderr, "hansu-nnue: %s (see --help)\n", why);
        return -1;
    }
    if (o->filter.buffer && o->filter.buffer < (size_t)o->train.batch) {
        fprintf(stderr,
                "hansu-nnue: --buffer %zu: holds fewer positions than a batch (--batch %d); "
                "0 holds all (see --help)\n",
                o->filter.buffer, o->train.batch);
        return -1;
    }
    if (o->arch && strcmp(o->arch, "palace") == 0)
        o->train.input_set = NNUE_INPUT_PALACE;
    if (o->filter.variant) // as the files and the net write it, whatever case was given
        o->filter.variant = variant_find(o->filter.variant)->name;
    o->train.variant = o->filter.variant ? o->filter.variant : "janggi";
    return 0;
}

// --- outputs ------------------------------------------------------------------------------

// The CSV and checkpoint not given: beside --out's target (a link's target), never beside a
// device or FIFO (--out /dev/null would put OUT.ckpt into /dev).
static Status default_outputs(Options *o, ErrorInfo *err) {
    const char *flag[2] = {"--csv", "--checkpoint"}, *suffix[2] = {".csv", ".ckpt"};
    const char **dest[2] = {&o->csv, &o->checkpoint};
    char *buf[2] = {o->csv_buf, o->ckpt_buf};
    for (int i = 0; i < 2; i++) {
        ErrorInfo e;
        if (*dest[i])
            continue;
        if (files_output_side(o->out, suffix[i], buf[i], &e) != STATUS_OK)
            return error_set(err, STATUS_IO, "--out %s (give %s FILE)", e.msg, flag[i]);
        *dest[i] = buf[i];
    }
    return STATUS_OK;
}

// The folder of each file the run will write exists and is writable: checked before any data is
// read, so a typo costs no training.
static Status check_outputs(Options *o, ErrorInfo *err) {
    Status st = cli_check_writable("--out", o->out, err);
    if (st == STATUS_OK)
        st = default_outputs(o, err);
    if (st != STATUS_OK)
        return st;
    const char *flags[] = {"--csv", "--checkpoint", "--json"};
    const char *files[] = {o->csv, o->checkpoint, o->json};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        st = files[i] ? cli_check_writable(flags[i], files[i], err) : STATUS_OK;
        if (st != STATUS_OK)
            return st;
    }
    return STATUS_OK;
}

// Takes the writer lock of every output ("FILE.lock" beside each, run_lock.h): two runs sharing
// any one (--out, --checkpoint, --csv or --json) would write over each other's.
static Status lock_outputs(const Options *o, RunLock **lock, ErrorInfo *err) {
    const char *files[] = {o->out, o->checkpoint, o->csv, o->json};
    const char *flags[] = {"--out", "--checkpoint", "--csv", "--json"};
    return run_lock_take_outputs(files, flags, 4, lock, err);
}

// Provenance of the net: what it was trained on and how (the .nnue header's JSON).
static void provenance(const Options *o, const NnueData *d, const NnueTrainer *t, char *out,
                       size_t len) {
    FILE *f = fmemopen(out, len, "w");
    if (!f)
        return (void)snprintf(out, len, "{}");
    const NnueTrainConfig *c = &t->cfg;
    fprintf(f, "{\"trainer\": \"hansu-nnue\", \"data\": [");
    size_t shown = d->nfiles < 32 ? d->nfiles : 32;
    for (size_t i = 0; i < shown; i++)
        fprintf(f, "%s{\"file\": ", i ? ", " : ""), cli_json_string(f, d->files[i]),
            fprintf(f, ", \"sha256\": \"%s\"}", d->sha256[i]);
    fprintf(f, "], \"files\": %zu, \"train_positions\": %zu, \"valid_positions\": %zu, ", d->nfiles,
            d->ntrain, d->nvalid);
    fprintf(f, "\"arch\": \"%s\", \"l1\": %d, \"out_buckets\": %d, ",
            c->input_set == NNUE_INPUT_PALACE ? "palace" : "plain", c->hidden, c->out_buckets);
    fprintf(f, "\"epochs\": %d, \"train_loss\": ", t->epoch);
    cli_json_number(f, t->epoch ? t->epochs[t->epoch - 1].train_loss : 0);
    fprintf(f, ", \"valid_loss\": ");
    cli_json_number(f, t->epoch ? t->epochs[t->epoch - 1].valid_loss : 0);
    fprintf(f, ", \"seed\": %llu, \"lambda\": %.6g, \"sigmoid_s\": %.6g, \"lr\": %.6g, ",
            (unsigned long long)c->seed, c->lambda, c->s, c->lr);
    fprintf(f, "\"batch\": %d, \"threads\": %d, \"skip_plies\": %d, \"max_score\": %d, ", c->batch,
            c->threads, o->filter.skip_plies, o->filter.max_score);
    fprintf(f, "\"skip_check\": %s, \"skip_capture\": %s, \"mirror\": %s, \"init_crc32\": ",
            o->filter.skip_check ? "true" : "false", o->filter.skip_capture ? "true" : "false",
            o->filter.mirror ? "true" : "false");
    if (o->init)
        fprintf(f, "\"%08x\"}", (unsigned)c->init_crc);
    else
        fputs("null}", f);
    fclose(f);
    out[len - 1] = '\0';
}

static Status write_csv(const Options *o, const NnueTrainer *t, ErrorInfo *err) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return error_set(err, STATUS_NOMEM, "out of memory");
    fprintf(f, "epoch,train_loss,valid_loss,positions_per_s,positions_per_cpu_s\n");
    for (int e = 0; e < t->epoch; e++)
        fprintf(f, "%d,%.9g,%.9g,%.0f,%.0f\n", e + 1, t->epochs[e].train_loss,
                t->epochs[e].valid_loss, t->epochs[e].pos_per_s, t->epochs[e].pos_per_cpu_s);
    fclose(f);
    Status s = cli_write_atomic(o->csv, text, len, err);
    free(text);
    return s;
}

// What became of the quantised net: written, or why not; whether rounding gave --init's back.
typedef struct Outcome {
    QuantCheck q;
    bool written;
    char reason[256];      // why it was not written ("" when written)
    char sha[65];          // its SHA-256 when written
    bool equals_init;      // --init given and every weight but the output bias unchanged
    size_t changed;        // weights changed from --init's (with --init)
    bool out_bias_changed; // the output bias too
} Outcome;

static Status write_json(const Options *o, const NnueData *d, const NnueTrainer *t, bool fitted,
                         const Outcome *r, double secs, ErrorInfo *err) {
    const QuantCheck *q = &r->q;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return error_set(err, STATUS_NOMEM, "out of memory");
    fprintf(f, "{\n  \"schema\": 1,\n  \"variant\": ");
    cli_json_string(f, o->filter.variant ? o->filter.variant : "janggi");
    fprintf(f, ",\n  \"inputs\": [");
    for (size_t i = 0; i < d->nfiles; i++)
        fprintf(f, "%s{\"path\": ", i ? ", " : ""), cli_json_string(f, d->files[i]),
            fprintf(f, ", \"sha256\": \"%s\"}", d->sha256[i]);
    fprintf(f, "],\n  \"positions_read\": %zu,\n  \"positions_dropped\": %zu,\n", d->read,
            d->dropped);
    fprintf(f, "  \"train_positions\": %zu,\n  \"valid_positions\": %zu,\n", d->ntrain, d->nvalid);
    fprintf(f, "  \"mirror\": %s,\n", o->filter.mirror ? "true" : "false");
    fprintf(f, "  \"buffer\": %zu,\n  \"streamed\": %s,\n", o->filter.buffer,
            d->streamed ? "true" : "false");
    fprintf(f, "  \"bytes_per_position\": %zu,\n", sizeof(NnuePosition));
    fprintf(f, "  \"out_buckets\": %d,\n", t->cfg.out_buckets);
    fprintf(f, "  \"hidden\": %d,\n  \"threads\": %d,\n  \"batch\": %d,\n  \"seed\": %llu,\n",
            t->cfg.hidden, t->cfg.threads, t->cfg.batch, (unsigned long long)t->cfg.seed);
    fprintf(f, "  \"lambda\": ");
    cli_json_number(f, t->cfg.lambda);
    fprintf(f, ",\n  \"lr\": ");
    cli_json_number(f, t->cfg.lr);
    fprintf(f, ",\n  \"lr_min\": ");
    cli_json_number(f, t->cfg.lr_min);
    fprintf(f, ",\n  \"weight_decay\": ");
    cli_json_number(f, t->cfg.weight_decay);
    fprintf(f, ",\n  \"sigmoid_s\": ");
    cli_json_number(f, t->cfg.s);
    fprintf(f, ",\n  \"sigmoid_s_fitted\": %s,\n  \"init\": ", fitted ? "true" : "false");
    if (o->init)
        cli_json_string(f, o->init);
    else
        fputs("null", f);
    fprintf(f, ",\n  \"epochs\": [");
    for (int e = 0; e < t->epoch; e++) {
        fprintf(f, "%s\n    {\"epoch\": %d, \"train_loss\": ", e ? "," : "", e + 1);
        cli_json_number(f, t->epochs[e].train_loss);
        fprintf(f, ", \"valid_loss\": ");
        cli_json_number(f, t->epochs[e].valid_loss);
        fprintf(f, ", \"positions_per_s\": ");
        cli_json_number(f, t->epochs[e].pos_per_s);
        fprintf(f, ", \"positions_per_cpu_s\": ");
        cli_json_number(f, t->epochs[e].pos_per_cpu_s);
        fprintf(f, "}");
    }
    fprintf(f, "\n  ],\n  \"quant_positions\": %zu,\n  \"quant_max_abs_cp\": ", q->positions);
    cli_json_number(f, q->max_cp);
    fprintf(f, ",\n  \"quant_mean_abs_cp\": ");
    cli_json_number(f, q->mean_cp);
    fprintf(f, ",\n  \"quant_bound_cp\": ");
    cli_json_number(f, o->quant_bound);
    fprintf(f, ",\n  \"quant_equals_init\": %s", r->equals_init ? "true" : "false");
    fprintf(f, ",\n  \"written\": %s,\n  \"reason\": ", r->written ? "true" : "false");
    if (r->written)
        fputs("null", f);
    else
        cli_json_string(f, r->reason);
    fprintf(f, ",\n  \"out\": ");
    cli_json_string(f, o->out);
    fprintf(f, ",\n  \"out_sha256\": ");
    if (r->written)
        fprintf(f, "\"%s\"", r->sha);
    else
        fputs("null", f);
    fprintf(f, ",\n  \"seconds\": ");
    cli_json_number(f, secs);
    fprintf(f, "\n}\n");
    fclose(f);
    Status s = cli_write_atomic(o->json, text, len, err);
    free(text);
    return s;
}

// --- the run ------------------------------------------------------------------------------

// Reads --init's net (of the variant trained) into *out and records its CRC-32 in the settings.
static Status load_init(Options *o, NnueNet **out, ErrorInfo *err) {
    NnueNet *net = nnue_net_alloc();
    if (!net)
        return error_set(err, STATUS_NOMEM, "out of memory for --init's net");
    const Variant *v = variant_find(o->filter.variant ? o->filter.variant : "janggi");
    Status s = nnue_load(o->init, v, net, err);
    size_t len = 0;
    uint8_t *bytes = s == STATUS_OK ? nnue_serialise(net, &len) : NULL;
    if (s == STATUS_OK && !bytes)
        s = error_set(err, STATUS_NOMEM, "out of memory for --init's net");
    if (s != STATUS_OK) {
        free(net);
        return s;
    }
    // The file's last 4 bytes are the CRC of the rest; 0 is kept for "no --init".
    uint32_t crc = nnue_crc32(bytes, len - 4);
    o->train.init_crc = crc ? crc : 1;
    free(bytes);
    // Its architecture fits this run's, checked before any data is read.
    if (net->l1 != o->train.hidden)
        s = error_set(err, STATUS_RANGE, "--init %s: a net of L1 %d, this run trains L1 %d (--l1)",
                      o->init, net->l1, o->train.hidden);
    else if (net->input_set == NNUE_INPUT_PALACE && o->train.input_set != NNUE_INPUT_PALACE)
        s = error_set(err, STATUS_RANGE,
                      "--init %s: a palace net starts only a palace net (--arch palace)", o->init);
    else if (net->out_buckets != 1 && net->out_buckets != o->train.out_buckets)
        s = error_set(err, STATUS_RANGE,
                      "--init %s: a net of %d output buckets, this run trains %d (--out-buckets; "
                      "a net of 1 starts any number)",
                      o->init, net->out_buckets, o->train.out_buckets);
    if (s != STATUS_OK) {
        free(net);
        return s;
    }
    *out = net;
    return STATUS_OK;
}

static Status train(const Options *o, NnueData *d, NnueTrainer *t, ErrorInfo *err) {
    Status s = STATUS_OK;
    if (o->resume) {
        s = nnue_checkpoint_load(t, d, o->checkpoint, err);
        if (s == STATUS_OK)
            printf("resumed from %s after epoch %d\n", o->checkpoint, t->epoch);
    }
    NnueStream stream;
    if (s == STATUS_OK)
        s = nnue_stream_init(&stream, d, &o->filter, (size_t)t->cfg.batch, t->cfg.seed, err);
    else
        memset(&stream, 0, sizeof stream);
    while (s == STATUS_OK && t->epoch < t->cfg.epochs) {
        s = nnue_trainer_epoch_stream(t, &stream, d->valid, d->nvalid, err);
        if (s != STATUS_OK)
            break;
        const NnueEpoch *ep = &t->epochs[t->epoch - 1];
        printf("epoch %3d/%d  train %.6f  valid %.6f  %.0f positions/s on %d thread%s (%.0f per "
               "CPU-second)\n",
               t->epoch, t->cfg.epochs, ep->train_loss, ep->valid_loss, ep->pos_per_s,
               t->cfg.threads, t->cfg.threads > 1 ? "s" : "", ep->pos_per_cpu_s);
        fflush(stdout);
        s = nnue_checkpoint_save(t, d, o->checkpoint, err);
        if (s == STATUS_OK)
            s = write_csv(o, t, err);
    }
    nnue_stream_free(&stream);
    return s;
}

// Says whether rounding gave --init's net back (r->changed, r->equals_init): a fine-tune whose
// every update is below half a quantisation step writes the net it started from.
static void compare_init(const NnueNet *net, const NnueNet *init, Outcome *r) {
    r->changed = nnue_weights_changed(net, init, &r->out_bias_changed);
    r->equals_init = r->changed == 0;
    const size_t all = (size_t)net->buckets * NNUE_INPUTS * net->l1 + (size_t)net->l1 +
                       (size_t)net->out_buckets * 2 * (size_t)net->l1;
    printf("quantised: %zu of %zu weights differ from --init's, the output bias %s\n", r->changed,
           all, r->out_bias_changed ? "too" : "does not");
    if (r->equals_init)
        printf("note: rounding erased what this run learnt: the quantised net equals --init's in "
               "every weight%s: no weight moved by half a quantisation step. More optimiser "
               "steps (a smaller --batch, more --epochs) or a larger --lr: docs/nnue.md, "
               "\"Fine-tunes and quantisation\"\n",
               r->out_bias_changed ? " but the output bias" : "");
}

// Quantises, checks and writes the net and the JSON. Above --quant-bound the net is not
// written (STATUS_RANGE, *rejected set) but the JSON is, saying why.
static Status finish(const Options *o, NnueData *d, NnueTrainer *t, bool fitted,
                     const NnueNet *init, double t0, bool *rejected, ErrorInfo *err) {
    NnueNet *net = nnue_net_alloc();
    char *prov = malloc(NNUE_PROVENANCE_MAX + 1);
    Status s = net && prov ? STATUS_OK : error_set(err, STATUS_NOMEM, "out of memory");
    Outcome r = {.written = false};
    if (s == STATUS_OK) {
        provenance(o, d, t, prov, NNUE_PROVENANCE_MAX + 1);
        s = nnue_quantise(&t->net, t->cfg.scale, o->filter.variant ? o->filter.variant : "janggi",
                          prov, net, err);
    }
    if (s == STATUS_OK)
        s = nnue_quant_check(&t->net, net, d->valid, d->nvalid, QUANT_CHECK_POSITIONS, &r.q, err);
    if (s == STATUS_OK)
        printf("quantised: |float - quantised| on %zu validation positions: max %.2f cp, mean "
               "%.3f cp (bound %.1f cp)\n",
               r.q.positions, r.q.max_cp, r.q.mean_cp, o->quant_bound);
    if (s == STATUS_OK && init)
        compare_init(net, init, &r);
    if (s == STATUS_OK && r.q.max_cp > o->quant_bound) {
        snprintf(r.reason, sizeof r.reason,
                 "the quantised net differs from the float net by %.2f cp (bound %.1f, "
                 "--quant-bound): %s not written",
                 r.q.max_cp, o->quant_bound, o->out);
        *rejected = true;
    } else if (s == STATUS_OK && (s = nnue_save(net, o->out, err)) == STATUS_OK)
        s = sha256_file(o->out, r.sha, err);
    if (s == STATUS_OK && !*rejected)
        r.written = true, printf("wrote %s (sha256 %s)\n", o->out, r.sha);
    if (s == STATUS_OK && o->json &&
        (s = write_json(o, d, t, fitted, &r, omp_get_wtime() - t0, err)) != STATUS_OK) {
        // The net is there: a caller must not take the failure for a lost training.
        ErrorInfo why = *err;
        if (r.written)
            error_set(err, s, "the net was written to %s; the JSON could not be: %s", o->out,
                      why.msg);
        else
            error_set(err, s, "%s; the JSON could not be written either: %s", r.reason, why.msg);
    }
    if (s == STATUS_OK && *rejected)
        s = error_set(err, STATUS_RANGE, "%s", r.reason);
    free(prov);
    free(net);
    return s;
}

int main(int argc, char **argv) {
    cli_init();
    Options o = {.filter = nnue_filter_default(),
                 .train = nnue_train_config_default(),
                 .quant_bound = 64,
                 .inputs = calloc((size_t)argc, sizeof(char *))};
    if (!o.inputs)
        return fputs("hansu-nnue: out of memory\n", stderr), 1;
    int rc = parse_args(argc, argv, &o);
    if (rc != 0)
        return free(o.inputs), rc > 0 ? 0 : 2;
    double t0 = omp_get_wtime();
    o.filter.seed = o.train.seed;
    o.train.filter = &o.filter; // the checkpoint records the filters
    ErrorInfo err = {{0}};
    NnueData d;
    NnueTrainer t = {0};
    Status s = check_outputs(&o, &err);
    // One run per output file, taken before anything is read: a second run sharing one is
    // refused naming the first.
    RunLock *lock = NULL;
    if (s == STATUS_OK)
        s = lock_outputs(&o, &lock, &err);
    // --init's net is read and checked before the data (and named in the checkpoint's settings).
    NnueNet *init = NULL;
    if (s == STATUS_OK && o.init)
        s = load_init(&o, &init, &err);
    // Every check of --resume that needs no data comes before the data: reading the shards
    // takes minutes at scale.
    if (s == STATUS_OK && o.resume)
        s = nnue_checkpoint_check(&o.train, o.checkpoint, &err);
    if (s == STATUS_OK)
        s = nnue_data_load(o.inputs, o.ninputs, &o.filter, &d, &err);
    else
        memset(&d, 0, sizeof d);
    bool fitted = o.train.s <= 0;
    if (s == STATUS_OK) {
        if (fitted)
            o.train.s = nnue_data_fit_sigmoid_scale(&d);
        free(d.sample), d.sample = NULL, d.nsample = 0; // fitted: the memory goes to the buffer
        printf("%zu files: %zu positions read, %zu dropped; %zu train, %zu valid (%zu bytes "
               "each); s = %.1f cp%s\n",
               d.nfiles, d.read, d.dropped, d.ntrain, d.nvalid, sizeof(NnuePosition), o.train.s,
               fitted ? (d.streamed ? " (fitted on a sample)" : " (fitted)") : "");
        if (d.streamed)
            printf("streamed: %zu training positions (%zu as played), %zu held at once "
                   "(--buffer); each epoch reads the files again\n",
                   d.ntrain, d.nplayed, o.filter.buffer);
        s = nnue_trainer_init(&t, &o.train, &err);
        if (s == STATUS_OK && init)
            s = float_net_from_quantised(&t.net, init, o.train.scale, &err);
    }
    if (s == STATUS_OK)
        s = train(&o, &d, &t, &err);
    bool rejected = false; // the net failed --quant-bound: exit 3, the JSON says so
    if (s == STATUS_OK)
        s = finish(&o, &d, &t, fitted, init, t0, &rejected, &err);
    free(init);
    nnue_trainer_free(&t);
    nnue_data_free(&d);
    free(o.inputs);
    run_lock_release(lock); // after the last write
    if (s != STATUS_OK) {
        fprintf(stderr, "hansu-nnue: %s error: %s\n", status_name(s), err.msg);
        return rejected ? EXIT_REJECTED : 1;
    }
    return 0;
}
