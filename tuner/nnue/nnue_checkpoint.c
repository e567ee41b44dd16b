// SPDX-License-Identifier: MIT
// Trainer checkpoints: the float weights, AdamW moments and per-epoch figures after each epoch,
// so --resume continues where the run stopped with the same bytes an unbroken run gives, and
// what they were trained on (settings, data filters, inputs), so that a resume on other data is
// refused. A checkpoint is machine-local (native float and integer layout), closed by a CRC-32.
#include "nnue_train.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define CKPT_MAGIC "HNSUNNCK"
// 2: the settings name the variant; 3: they name the data filters, and the inputs follow the
// moments (issue 39: a resume with other filters or shards continued the old run).
enum { CKPT_VERSION = 3, CKPT_SETTINGS = 512 };

// The settings a resumed run must share (inputs aside): everything that shapes the weights,
// the data filters among them.
static void settings(const NnueTrainConfig *c, char out[CKPT_SETTINGS]) {
    const NnueFilter def = nnue_filter_default(), *f = c->filter ? c->filter : &def;
    memset(out, 0, CKPT_SETTINGS);
    snprintf(out, CKPT_SETTINGS,
             "hidden=%d epochs=%d batch=%d threads=%d lr=%.9g lr_min=%.9g wd=%.9g betas=%.9g,%.9g "
             "eps=%.9g lambda=%.9g s=%.9g scale=%d clip=%.9g out_clip=%.9g init=%08x seed=%llu "
             "variant=%s mirror=%d skip_plies=%d max_score=%d skip_check=%d skip_capture=%d "
             "valid=%.9g max_positions=%zu",
             c->hidden, c->epochs, c->batch, c->threads, c->lr, c->lr_min, c->weight_decay,
             c->beta1, c->beta2, c->eps, c->lambda, c->s, c->scale, c->clip, c->out_clip,
             (unsigned)c->init_crc, (unsigned long long)c->seed, c->variant ? c->variant : "janggi",
             f->mirror, f->skip_plies, f->max_score, f->skip_check, f->skip_capture,
             f->valid_fraction, f->max_positions);
    // A palace net's settings say so (a plain net's read as they did before the option).
    if (c->input_set == NNUE_INPUT_PALACE)
        snprintf(out + strlen(out), CKPT_SETTINGS - strlen(out), " arch=palace");
    // Likewise output buckets (one output layer's settings read as before the option).
    if (c->out_buckets > 1)
        snprintf(out + strlen(out), CKPT_SETTINGS - strlen(out), " out_buckets=%d", c->out_buckets);
    // And a bounded buffer (--buffer; every position held reads as before the option): it
    // decides which positions share a shuffle when the data is streamed.
    if (f->buffer)
        snprintf(out + strlen(out), CKPT_SETTINGS - strlen(out), " buffer=%zu", f->buffer);
}

// The inputs a resumed run must share, as text of one item a line: the number of files, each
// file's SHA-256 and path, the positions read, dropped, trained on and held out. d NULL: none.
// *out malloc'd (NULL when out of memory).
static void inputs_text(const NnueData *d, char **out, size_t *len) {
    *out = NULL, *len = 0;
    FILE *f = open_memstream(out, len);
    if (!f)
        return;
    const NnueData none = {0};
    if (!d)
        d = &none;
    fprintf(f, "inputs=%zu\n", d->nfiles);
    for (size_t i = 0; i < d->nfiles; i++)
        fprintf(f, "input=%zu sha256=%s file=%s\n", i + 1, d->sha256[i], d->files[i]);
    fprintf(f, "read=%zu\ndropped=%zu\ntrain=%zu\nvalid=%zu\n", d->read, d->dropped, d->ntrain,
            d->nvalid);
    if (fclose(f) != 0)
        free(*out), *out = NULL;
}

// The last two components of a path of len bytes, as "…/folder/file", when it is longer than
// SHORT_PATH bytes (else the whole path): *start and *n, so that a message naming two files fits
// its 256 bytes.
enum { SHORT_PATH = 60 };
static void short_path(const char *p, int len, const char **start, int *n, bool *cut) {
    *start = p, *n = len, *cut = false;
    if (len <= SHORT_PATH)
        return;
    int slashes = 0;
    for (int i = len - 1; i > 0; i--)
        if (p[i] == '/' && ++slashes == 2) {
            *start = p + i + 1, *n = len - i - 1, *cut = true;
            return;
        }
}

// Names the first item where the checkpoint's inputs (was) and this run's (now) differ;
// STATUS_OK when none does. A file is the same input when its digest is: its path may differ (a
// run folder moved elsewhere).
static Status inputs_differ(const char *path, const char *was, const char *now, ErrorInfo *err) {
    const char *a = was, *b = now;
    while (*a && *b) {
        const char *ae = strchr(a, '\n'), *be = strchr(b, '\n');
        if (!ae || !be)
            break;
        const char *af = strstr(a, " file="), *bf = strstr(b, " file=");
        size_t al = af && af < ae ? (size_t)(af - a) : (size_t)(ae - a);
        size_t bl = bf && bf < be ? (size_t)(bf - b) : (size_t)(be - b);
        if (al != bl || memcmp(a, b, al) != 0) {
            int an = (int)(ae - a), bn = (int)(be - b);
            if (af && af < ae && bf && bf < be) { // input=I sha256=HEX file=PATH
                const char *wp, *np, *cp;
                int wn, nn, cn;
                bool wc, nc, cc;
                short_path(af + 6, (int)(ae - af - 6), &wp, &wn, &wc);
                short_path(bf + 6, (int)(be - bf - 6), &np, &nn, &nc);
                short_path(path, (int)strlen(path), &cp, &cn, &cc);
                return error_set(err, STATUS_FORMAT,
                                 "%s%.*s: input %.*s was %s%.*s (sha256 %.12s), this run has "
                                 "%s%.*s (sha256 %.12s): --resume needs the same data",
                                 cc ? ".../" : "", cn, cp, (int)strcspn(a + 6, " "), a + 6,
                                 wc ? ".../" : "", wn, wp, strstr(a, "sha256=") + 7,
                                 nc ? ".../" : "", nn, np, strstr(b, "sha256=") + 7);
            }
            return error_set(err, STATUS_FORMAT,
                             "%s: written with %.*s, this run has %.*s: --resume needs the same "
                             "data",
                             path, an, a, bn, b);
        }
        a = ae + 1, b = be + 1;
    }
    if (!*a && !*b)
        return STATUS_OK;
    return error_set(err, STATUS_FORMAT, "%s: its inputs are damaged", path);
}

// Names the first setting (name=value word) where the checkpoint's and this run's differ;
// STATUS_OK when none does. With skip_s the sigmoid scale is left out: a run that fits it
// knows it only once the data is read (nnue_checkpoint_load compares it then).
static Status settings_differ(const char *path, const char *was, const char *now, bool skip_s,
                              ErrorInfo *err) {
    char a[CKPT_SETTINGS], b[CKPT_SETTINGS];
    memcpy(a, was, CKPT_SETTINGS), memcpy(b, now, CKPT_SETTINGS);
    a[CKPT_SETTINGS - 1] = '\0';
    char *sa, *sb, *wa = strtok_r(a, " ", &sa), *wb = strtok_r(b, " ", &sb);
    while (wa && wb &&
           (strcmp(wa, wb) == 0 || (skip_s && !strncmp(wa, "s=", 2) && !strncmp(wb, "s=", 2))))
        wa = strtok_r(NULL, " ", &sa), wb = strtok_r(NULL, " ", &sb);
    if (!wa && !wb)
        return STATUS_OK;
    return error_set(err, STATUS_FORMAT,
                     "%s: written with %s, this run has %s: --resume needs the same settings", path,
                     wa ? wa : "(none)", wb ? wb : "(none)");
}

// Bytes of a checkpoint for cfg before its inputs (their length, 4 bytes, then their text;
// then the CRC).
static size_t checkpoint_body(const NnueTrainConfig *cfg) {
    size_t n = float_net_params(nnue_train_inputs(cfg->input_set), cfg->hidden, cfg->out_buckets);
    return 8 + 4 + CKPT_SETTINGS + 4 + 8 + (size_t)cfg->epochs * sizeof(NnueEpoch) +
           3 * n * sizeof(float);
}

typedef struct Cursor {
    uint8_t *p;
} Cursor;

static void put(Cursor *c, const void *src, size_t len) {
    memcpy(c->p, src, len);
    c->p += len;
}

Status nnue_checkpoint_save(const NnueTrainer *t, const NnueData *d, const char *path,
                            ErrorInfo *err) {
    char set[CKPT_SETTINGS], *in;
    settings(&t->cfg, set);
    size_t inlen;
    inputs_text(d, &in, &inlen);
    const size_t ne = (size_t)t->cfg.epochs, n = t->net.n;
    const size_t len = checkpoint_body(&t->cfg) + 4 + inlen;
    uint8_t *buf = in ? malloc(len + 4) : NULL;
    if (!buf)
        return free(in),
               error_set(err, STATUS_NOMEM, "%s: out of memory writing the checkpoint", path);
    Cursor c = {buf};
    uint32_t version = CKPT_VERSION, epoch = (uint32_t)t->epoch, in32 = (uint32_t)inlen;
    put(&c, CKPT_MAGIC, 8), put(&c, &version, 4), put(&c, set, CKPT_SETTINGS);
    put(&c, &epoch, 4), put(&c, &t->step, 8);
    put(&c, t->epochs, ne * sizeof *t->epochs);
    put(&c, t->net.p, n * sizeof(float)), put(&c, t->m, n * sizeof(float));
    put(&c, t->v, n * sizeof(float));
    put(&c, &in32, 4), put(&c, in, inlen);
    uint32_t crc = nnue_crc32(buf, len);
    put(&c, &crc, 4);
    Status s = cli_write_atomic(path, (const char *)buf, len + 4, err);
    free(buf);
    free(in);
    return s;
}

static Status read_file(const char *path, uint8_t **buf, size_t *len, ErrorInfo *err) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return error_set(err, STATUS_IO, "%s: cannot open the checkpoint", path);
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    Status s = STATUS_OK;
    if (size < 0 || fseek(f, 0, SEEK_SET) != 0)
        s = error_set(err, STATUS_IO, "%s: cannot seek", path);
    else if (!(*buf = malloc((size_t)size + 1)))
        s = error_set(err, STATUS_NOMEM, "%s: out of memory", path);
    else if ((*len = fread(*buf, 1, (size_t)size, f)) != (size_t)size)
        s = error_set(err, STATUS_IO, "%s: read error", path);
    fclose(f);
    return s;
}

// Reads the checkpoint at path into *buf (malloc'd) and checks it against cfg: a checkpoint
// of this version, the same settings (the sigmoid scale aside with skip_s), the size of a
// checkpoint of this net and its inputs (*inlen bytes at checkpoint_body + 4), its CRC. *buf
// is NULL on error.
static Status read_checked(const NnueTrainConfig *cfg, const char *path, bool skip_s, uint8_t **buf,
                           size_t *inlen, ErrorInfo *err) {
    size_t len = 0;
    *buf = NULL;
    Status s = read_file(path, buf, &len, err);
    char set[CKPT_SETTINGS];
    settings(cfg, set);
    const size_t body = checkpoint_body(cfg);
    uint32_t version = 0, crc = 0, in32 = 0;
    if (s == STATUS_OK && (len < 12 || memcmp(*buf, CKPT_MAGIC, 8) != 0))
        s = error_set(err, STATUS_FORMAT, "%s: not a hansu-nnue checkpoint", path);
    if (s == STATUS_OK && (memcpy(&version, *buf + 8, 4), version < CKPT_VERSION))
        s = error_set(err, STATUS_FORMAT,
                      "%s: written by an older hansu-nnue (checkpoint version %u, without the data "
                      "filters and inputs); delete it or train without --resume",
                      path, version);
    if (s == STATUS_OK && version != CKPT_VERSION)
        s = error_set(err, STATUS_FORMAT, "%s: checkpoint version %u, this trainer writes %d", path,
                      version, CKPT_VERSION);
    if (s == STATUS_OK && len >= 12 + CKPT_SETTINGS)
        s = settings_differ(path, (const char *)*buf + 12, set, skip_s, err);
    if (s == STATUS_OK && len >= body + 4)
        memcpy(&in32, *buf + body, 4);
    const size_t want = body + 4 + in32;
    if (s == STATUS_OK && (len < body + 4 || len != want + 4))
        s = error_set(err, STATUS_FORMAT, "%s: %zu bytes, a checkpoint of this net has %zu", path,
                      len, len < body + 4 ? body + 8 : want + 4);
    if (s == STATUS_OK && (memcpy(&crc, *buf + want, 4), crc != nnue_crc32(*buf, want)))
        s = error_set(err, STATUS_FORMAT, "%s: checksum mismatch: damaged", path);
    if (s != STATUS_OK)
        free(*buf), *buf = NULL;
    *inlen = in32;
    return s;
}

Status nnue_checkpoint_check(const NnueTrainConfig *cfg, const char *path, ErrorInfo *err) {
    uint8_t *buf;
    size_t inlen;
    Status s = read_checked(cfg, path, cfg->s <= 0, &buf, &inlen, err);
    free(buf);
    return s;
}

Status nnue_checkpoint_load(NnueTrainer *t, const NnueData *d, const char *path, ErrorInfo *err) {
    uint8_t *buf;
    size_t inlen, nlen;
    char *was = NULL, *now = NULL;
    // The inputs are compared before the fitted sigmoid scale: other data fits another one, and
    // the files are what the message should name.
    Status s = read_checked(&t->cfg, path, true, &buf, &inlen, err);
    if (s == STATUS_OK && (was = malloc(inlen + 1)) != NULL) {
        memcpy(was, buf + checkpoint_body(&t->cfg) + 4, inlen), was[inlen] = '\0';
        inputs_text(d, &now, &nlen);
    }
    if (s == STATUS_OK)
        s = was && now ? inputs_differ(path, was, now, err)
                       : error_set(err, STATUS_NOMEM, "%s: out of memory", path);
    char set[CKPT_SETTINGS];
    settings(&t->cfg, set);
    if (s == STATUS_OK)
        s = settings_differ(path, (const char *)buf + 12, set, false, err);
    free(was);
    free(now);
    if (s == STATUS_OK) {
        const size_t ne = (size_t)t->cfg.epochs, n = t->net.n;
        const uint8_t *p = buf + 12 + CKPT_SETTINGS;
        uint32_t epoch;
        memcpy(&epoch, p, 4), memcpy(&t->step, p + 4, 8), p += 12;
        t->epoch = (int)epoch;
        memcpy(t->epochs, p, ne * sizeof *t->epochs), p += ne * sizeof *t->epochs;
        memcpy(t->net.p, p, n * sizeof(float)), p += n * sizeof(float);
        memcpy(t->m, p, n * sizeof(float)), p += n * sizeof(float);
        memcpy(t->v, p, n * sizeof(float));
    }
    free(buf);
    return s;
}
