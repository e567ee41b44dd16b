// SPDX-License-Identifier: MIT
// Reads the numbers back from a weights header written by the engine's printer
// (engine/eval_header.h): the round-trip tests and --init use it.
#pragma once

#include "eval.h"
#include "status.h"

/// Parses every S(mg, eg) of the EVAL_WEIGHTS_DATA table of the header at path, in flat order,
/// into out (nparams weights, cp: the layout of the variant the header is for). STATUS_IO when
/// the file cannot be read, STATUS_FORMAT (naming the line) when the table is missing,
/// malformed or of another length.
Status weights_read_header(const char *path, int nparams, EvalWeight *out, ErrorInfo *err);
