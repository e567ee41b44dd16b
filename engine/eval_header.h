// SPDX-License-Identifier: MIT
// The weights-header printer: writes a complete eval_weights.h from a flat parameter vector
// and a banner that records where the numbers came from. The tuner and `hansu print-weights`
// both use it, so the header is always laid out the same way (byte-stable).
#pragma once

#include <stdio.h>

#include "eval.h"
#include "status.h"

/// One input file named in the banner.
typedef struct EvalBannerInput {
    const char *path;
    const char *hash; // e.g. "sha256:0123..." (any text without newlines)
} EvalBannerInput;

/// The banner fields. NULL strings print as "(none)".
typedef struct EvalBanner {
    const char *generator;         // program and version, e.g. "hansu-tune 0.1.0"
    const char *note;              // free text, e.g. "hand-set initial values"
    const EvalBannerInput *inputs; // n_inputs entries (may be NULL when n_inputs == 0)
    int n_inputs;
    const char *filters; // the position filters, as given on the command line
    double k;            // sigmoid scale K (0 when not fitted)
    int epochs;
    double train_loss, valid_loss; // final MSE (0 when not measured)
} EvalBanner;

/// Checks that every text of the banner fits on its `//` comment line: no control character
/// (a newline would end the comment and put the rest into the C code) and no backslash at
/// the end (it would continue the comment onto the next line). Returns STATUS_SYNTAX naming
/// the field and the offending byte.
Status eval_banner_check(const EvalBanner *banner, ErrorInfo *err);

/// Writes the header text of spec's variant to out: banner (naming the variant and its term
/// list), then EVAL_WEIGHTS_DATA with every term of spec's eval_terms.def (PSTs as the board is
/// seen, 9 values per rank, rank 10 first), then the untuned phase numbers of spec.
/// params holds spec->param_count weights (cp). Refuses a banner that eval_banner_check()
/// refuses, before writing anything. Returns STATUS_IO when writing fails.
Status eval_header_write(FILE *out, const EvalSpec *spec, const EvalBanner *banner,
                         const EvalWeight *params, ErrorInfo *err);

/// Writes the header to path as files_output_open and _commit do: through a temporary file
/// ("TARGET.tmp") renamed at the end, so a reader never sees half a header; a link is
/// followed, a device written into. Returns STATUS_IO with the path and cause on failure.
Status eval_header_save(const char *path, const EvalSpec *spec, const EvalBanner *banner,
                        const EvalWeight *params, ErrorInfo *err);
