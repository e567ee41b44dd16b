// SPDX-License-Identifier: MIT
// Trainer checkpoints: the float weights, AdamW moments and per-epoch figures after each epoch,
// so --resume continues where the run stopped with the same bytes an unbroken run gives. A
// checkpoint is machine-local (native float and integer layout), closed by a CRC-32.
#include "nnue_train.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define CKPT_MAGIC "HNSUNNCK"
enum { CKPT_VERSION = 2, CKPT_SETTINGS = 512 }; // 2: the settings name the variant

// The settings a resumed run must share (data aside): everything that shapes the weights.
static void settings(const NnueTrainConfig *c, char out[CKPT_SETTINGS]) {
    memset(out, 0, CKPT_SETTINGS);
    snprintf(out, CKPT_SETTINGS,
             "hidden=%d epochs=%d batch=%d threads=%d lr=%.9g lr_min=%.9g wd=%.9g betas=%.9g,%.9g "
             "eps=%.9g lambda=%.9g s=%.9g scale=%d clip=%.9g out_clip=%.9g init=%08x seed=%llu "
             "variant=%s",
             c->hidden, c->epochs, c->batch, c->threads, c->lr, c->lr_min, c->weight_decay,
             c->beta1, c->beta2, c->eps, c->lambda, c->s, c->scale, c->clip, c->out_clip,
             (unsigned)c->init_crc, (unsigned long long)c->seed,
             c->variant ? c->variant : "janggi");
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

// Bytes before the CRC of a checkpoint for cfg.
static size_t checkpoint_body(const NnueTrainConfig *cfg) {
    size_t n = float_net_params(NNUE_INPUTS, cfg->hidden);
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

Status nnue_checkpoint_save(const NnueTrainer *t, const char *path, ErrorInfo *err) {
    char set[CKPT_SETTINGS];
    settings(&t->cfg, set);
    const size_t ne = (size_t)t->cfg.epochs, n = t->net.n, len = checkpoint_body(&t->cfg);
    uint8_t *buf = malloc(len + 4);
    if (!buf)
        return error_set(err, STATUS_NOMEM, "%s: out of memory writing the checkpoint", path);
    Cursor c = {buf};
    uint32_t version = CKPT_VERSION, epoch = (uint32_t)t->epoch;
    put(&c, CKPT_MAGIC, 8), put(&c, &version, 4), put(&c, set, CKPT_SETTINGS);
    put(&c, &epoch, 4), put(&c, &t->step, 8);
    put(&c, t->epochs, ne * sizeof *t->epochs);
    put(&c, t->net.p, n * sizeof(float)), put(&c, t->m, n * sizeof(float));
    put(&c, t->v, n * sizeof(float));
    uint32_t crc = nnue_crc32(buf, len);
    put(&c, &crc, 4);
    Status s = cli_write_atomic(path, (const char *)buf, len + 4, err);
    free(buf);
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
// checkpoint of this net, its CRC. *buf is NULL on error.
static Status read_checked(const NnueTrainConfig *cfg, const char *path, bool skip_s, uint8_t **buf,
                           ErrorInfo *err) {
    size_t len = 0;
    *buf = NULL;
    Status s = read_file(path, buf, &len, err);
    char set[CKPT_SETTINGS];
    settings(cfg, set);
    const size_t want = checkpoint_body(cfg);
    uint32_t version = 0, crc = 0;
    if (s == STATUS_OK && (len < 12 || memcmp(*buf, CKPT_MAGIC, 8) != 0))
        s = error_set(err, STATUS_FORMAT, "%s: not a hansu-nnue checkpoint", path);
    if (s == STATUS_OK && (memcpy(&version, *buf + 8, 4), version != CKPT_VERSION))
        s = error_set(err, STATUS_FORMAT, "%s: checkpoint version %u, this trainer writes %d", path,
                      version, CKPT_VERSION);
    if (s == STATUS_OK && len >= 12 + CKPT_SETTINGS)
        s = settings_differ(path, (const char *)*buf + 12, set, skip_s, err);
    if (s == STATUS_OK && len != want + 4)
        s = error_set(err, STATUS_FORMAT, "%s: %zu bytes, a checkpoint of this net has %zu", path,
                      len, want + 4);
    if (s == STATUS_OK && (memcpy(&crc, *buf + want, 4), crc != nnue_crc32(*buf, want)))
        s = error_set(err, STATUS_FORMAT, "%s: checksum mismatch: damaged", path);
    if (s != STATUS_OK)
        free(*buf), *buf = NULL;
    return s;
}

Status nnue_checkpoint_check(const NnueTrainConfig *cfg, const char *path, ErrorInfo *err) {
    uint8_t *buf;
    Status s = read_checked(cfg, path, cfg->s <= 0, &buf, err);
    free(buf);
    return s;
}

Status nnue_checkpoint_load(NnueTrainer *t, const char *path, ErrorInfo *err) {
    uint8_t *buf;
    Status s = read_checked(&t->cfg, path, false, &buf, err);
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
