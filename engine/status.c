// SPDX-License-Identifier: MIT
// Status names and the error-message helper.
#include "status.h"

#include <stdarg.h>
#include <stdio.h>

Status error_set(ErrorInfo *err, Status status, const char *fmt, ...) {
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return status;
}

const char *status_name(Status status) {
    static const char *const names[] = {"ok", "syntax", "illegal", "range",
                                        "io", "format", "nomem"};
    return (unsigned)status < sizeof names / sizeof names[0] ? names[status] : "unknown";
}
