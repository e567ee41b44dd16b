// SPDX-License-Identifier: MIT
// Helpers of the command-line front ends (hansu, hansu-selfplay, hansu-match, hansu-tune):
// strict number parsing of flag values, and machine-readable result files (--json FILE)
// written whole or not at all.
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "status.h"

/// Parses the whole of text as a decimal integer in lo..hi. The message names flag and text:
/// STATUS_SYNTAX "FLAG: 'TEXT' is not a number" (empty, trailing characters, overflow),
/// STATUS_RANGE "FLAG: TEXT is out of range LO..HI".
Status cli_parse_i64(const char *flag, const char *text, int64_t lo, int64_t hi, int64_t *out,
                     ErrorInfo *err);

/// The same for unsigned values 0..max; a leading '-' is STATUS_SYNTAX.
Status cli_parse_u64(const char *flag, const char *text, uint64_t max, uint64_t *out,
                     ErrorInfo *err);

/// The same as cli_parse_i64 for an int in lo..hi.
Status cli_parse_int(const char *flag, const char *text, int lo, int hi, int *out, ErrorInfo *err);

/// Parses the whole of text as a finite decimal number in lo..hi: STATUS_SYNTAX "FLAG: 'TEXT'
/// is not a finite number", STATUS_RANGE "FLAG: TEXT is out of range LO..HI".
Status cli_parse_double(const char *flag, const char *text, double lo, double hi, double *out,
                        ErrorInfo *err);

/// The start-up of every front end, the first call of each main(): ignores SIGXFSZ, so that
/// past a file size limit (ulimit -f) a write fails with EFBIG and is reported with the file's
/// name ("File too large") instead of the signal killing the process without a word, a
/// temporary file left behind; registers the exit check of standard output (at exit it is
/// flushed, and a write that failed, earlier or then, is reported as "PROG: standard output:
/// CAUSE", e.g. "No space left on device", and the exit status becomes 1: no front end leaves
/// a truncated answer with status 0); then builds the engine's tables (engine_init).
void cli_init(void);

/// Writes s as a JSON string (quoted; '"', '\\' and control characters escaped).
void cli_json_string(FILE *f, const char *s);

/// Writes v as a JSON number (shortest of %.10g), or null when v is not finite (JSON has no
/// infinity): readers take null as "not finite".
void cli_json_number(FILE *f, double v);

/// Replaces path with len bytes of data at once (files_output_open and _commit): written to
/// "TARGET.tmp", fsynced, renamed over TARGET, so a reader sees the old file or the new one,
/// never a part. TARGET is path with its links followed (a link is never replaced); a device
/// or FIFO is written into, never replaced; a folder or socket is refused. STATUS_IO naming
/// the file and the cause, no temporary left.
Status cli_write_atomic(const char *path, const char *data, size_t len, ErrorInfo *err);

/// Checks before slow work that a file can be created at path (an output flag's value): it is
/// not a folder or socket, and a probe file can be made (and is removed again) in its target's
/// folder (files_output_target: a link's target), where a temporary file of cli_write_atomic
/// goes too; a device or FIFO must be writable. STATUS_IO "FLAG: an empty file name",
/// "FLAG PATH: a folder, not a file", "FLAG PATH: a socket, not a file",
/// "FLAG PATH: cannot write into its folder DIR (cause)" or "FLAG PATH: cause".
Status cli_check_writable(const char *flag, const char *path, ErrorInfo *err);
