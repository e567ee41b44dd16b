// SPDX-License-Identifier: MIT
// Opening input files by name: only a regular file is read, so that a folder, a FIFO or a device
// named by mistake is refused at once by what it is (a FIFO would block the reader forever).
#pragma once

#include <stdio.h>

#include "status.h"

/// Opens the regular file at path for reading (mode "r" or "rb") into *out. STATUS_IO naming
/// the file and why: it cannot be found or read, or it is a folder or not a regular file.
Status files_open_input(const char *path, const char *mode, FILE **out, ErrorInfo *err);
