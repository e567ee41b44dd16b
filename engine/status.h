// SPDX-License-Identifier: MIT
// Status codes and error messages returned across Hansu's boundaries (parsers, files, flags).
#pragma once

#include <stddef.h>

typedef enum {
    STATUS_OK = 0,
    STATUS_SYNTAX,  // malformed text (FEN, move string, command, flag)
    STATUS_ILLEGAL, // well-formed but against the rules (illegal position or move)
    STATUS_RANGE,   // a number out of its allowed range, or input too long
    STATUS_IO,      // a file or stream could not be read or written
    STATUS_FORMAT,  // a file is not of the expected kind or version
    STATUS_NOMEM    // an allocation failed
} Status;

/// A message that names what is wrong and where. Filled by the function that fails.
typedef struct ErrorInfo {
    char msg[256];
} ErrorInfo;

/// Writes a printf-style message into err (which may be NULL) and returns status.
Status error_set(ErrorInfo *err, Status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/// Short lower-case name of a status ("syntax", "illegal", ...).
const char *status_name(Status status);
