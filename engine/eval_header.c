// SPDX-License-Identifier: MIT
// The weights-header printer (see eval_header.h). The layout follows the spec's eval_terms.def
// alone.
#include "eval_header.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"

static const char *or_none(const char *s) { return s && *s ? s : "(none)"; }

static void write_banner(FILE *out, const EvalSpec *spec, const EvalBanner *bn) {
    fprintf(out, "// SPDX-License-Identifier: MIT\n");
    // The whole file is the generator's: clang-format would merge the banner's long input
    // lines (path and hash) into one another, and reflow the tables.
    fprintf(out, "// clang-format off\n");
    fprintf(out, "// Hansu evaluation weights. GENERATED FILE - DO NOT EDIT; regenerate it.\n");
    fprintf(out, "// generator: %s\n", or_none(bn->generator));
    fprintf(out, "// variant: %s\n", spec->variant);
    fprintf(out, "// note: %s\n", or_none(bn->note));
    if (bn->n_inputs == 0)
        fprintf(out, "// inputs: (none)\n");
    for (int i = 0; i < bn->n_inputs; i++)
        fprintf(out, "// input: %s %s\n", or_none(bn->inputs[i].path), or_none(bn->inputs[i].hash));
    fprintf(out, "// filters: %s\n", or_none(bn->filters));
    fprintf(out, "// K: %.6f  epochs: %d\n", bn->k, bn->epochs);
    if (isnan(bn->valid_loss))
        fprintf(out, "// final loss (MSE): train %.8f  validation none\n", bn->train_loss);
    else
        fprintf(out, "// final loss (MSE): train %.8f  validation %.8f\n", bn->train_loss,
                bn->valid_loss);
    fprintf(out, "// Layout: %s and engine/eval.h; S(mg, eg) in centipawns.\n", spec->terms_file);
}

static void write_weight(FILE *out, EvalWeight w) { fprintf(out, "S(%5d, %5d),", w.mg, w.eg); }

static void write_term(FILE *out, const EvalSpec *spec, const EvalTermInfo *t,
                       const EvalWeight *p) {
    fprintf(out, "\n    // %s (%s): %s\n", t->id, t->name, t->meaning);
    if (t->shape == EVAL_SHAPE_SCALAR || t->shape == EVAL_SHAPE_DANGER) {
        fprintf(out, "    ");
        write_weight(out, p[t->offset]);
        fprintf(out, "\n");
    } else if (t->shape == EVAL_SHAPE_KIND || t->shape == EVAL_SHAPE_DANGER_KIND) {
        for (int k = 0; k < KIND_NB; k++) {
            fprintf(out, "    ");
            write_weight(out, p[t->offset + k]);
            fprintf(out, " // %s\n", spec->kind_names[k]);
        }
    } else {
        for (int k = 0; k < KIND_NB; k++) {
            fprintf(out, "    // %s %s, rank 10 (top) to rank 1, files a to i\n", t->name,
                    spec->kind_names[k]);
            for (int row = 0; row < RANK_NB; row++) {
                fprintf(out, "   ");
                for (int file = 0; file < FILE_NB; file++) {
                    fprintf(out, " ");
                    write_weight(out, p[t->offset + k * SQUARE_NB + row * FILE_NB + file]);
                }
                fprintf(out, " // %d\n", RANK_NB - row);
            }
        }
    }
}

// The numbers of the formula that are not tuned: copied from the compiled-in header (the
// plies window only where the variant has one: janggi's points_late).
static void write_phase(FILE *out, const EvalSpec *spec) {
    fputs(spec->phase_note, out);
    fprintf(out, "static const int EVAL_PHASE_WEIGHT_DATA[%d] = {", KIND_NB);
    for (int k = 0; k < KIND_NB; k++)
        fprintf(out, "%s%d", k ? ", " : "", spec->phase_weight[k]);
    if (spec->points_window > 0)
        fprintf(out, "};\nenum { EVAL_PHASE_MAX_DATA = %d, EVAL_POINTS_WINDOW_DATA = %d };\n",
                spec->phase_max, spec->points_window);
    else
        fprintf(out, "};\nenum { EVAL_PHASE_MAX_DATA = %d };\n", spec->phase_max);
}

// One banner text: see eval_banner_check().
static Status check_text(const char *field, const char *s, ErrorInfo *err) {
    if (!s)
        return STATUS_OK;
    size_t len = strlen(s);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f)
            return error_set(err, STATUS_SYNTAX,
                             "banner %s: control character 0x%02X at byte %zu; the header's "
                             "comment lines take printable text only",
                             field, c, i + 1);
    }
    if (len && s[len - 1] == '\\')
        return error_set(err, STATUS_SYNTAX,
                         "banner %s: ends in a backslash, which would continue the comment", field);
    return STATUS_OK;
}

Status eval_banner_check(const EvalBanner *banner, ErrorInfo *err) {
    Status st = STATUS_OK;
    if ((st = check_text("generator", banner->generator, err)) ||
        (st = check_text("note", banner->note, err)) ||
        (st = check_text("filters", banner->filters, err)))
        return st;
    for (int i = 0; i < banner->n_inputs; i++)
        if ((st = check_text("input path", banner->inputs[i].path, err)) ||
            (st = check_text("input hash", banner->inputs[i].hash, err)))
            return st;
    return STATUS_OK;
}

Status eval_header_write(FILE *out, const EvalSpec *spec, const EvalBanner *banner,
                         const EvalWeight *params, ErrorInfo *err) {
    Status st = eval_banner_check(banner, err);
    if (st != STATUS_OK)
        return st;
    write_banner(out, spec, banner);
    fprintf(out, "#pragma once\n\n#include \"eval.h\"\n\n");
    fprintf(out, "static const EvalWeight EVAL_WEIGHTS_DATA[%d] = {", spec->param_count);
    for (int t = 0; t < spec->term_count; t++)
        write_term(out, spec, &spec->terms[t], params);
    fprintf(out, "};\n\n");
    write_phase(out, spec);
    fprintf(out, "// clang-format on\n");
    errno = 0;
    if (fflush(out) != 0 || ferror(out))
        return error_set(err, STATUS_IO, "writing the weights header failed: %s",
                         strerror(errno ? errno : EIO));
    return STATUS_OK;
}

Status eval_header_save(const char *path, const EvalSpec *spec, const EvalBanner *banner,
                        const EvalWeight *params, ErrorInfo *err) {
    OutputFile o;
    Status st = files_output_open(path, &o, err);
    if (st != STATUS_OK)
        return st;
    st = eval_header_write(o.f, spec, banner, params, err);
    // A failed write is reported by the commit, with the file's name and the cause.
    if (st != STATUS_OK && st != STATUS_IO) {
        files_output_abort(&o);
        return st;
    }
    return files_output_commit(&o, err);
}
