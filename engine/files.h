// SPDX-License-Identifier: MIT
// Opening input files by name: only a regular file is read, so that a folder, a FIFO or a device
// named by mistake is refused at once by what it is (a FIFO would block the reader forever); lines
// are read whole, never in pieces.
#pragma once

#include <stdio.h>

#include "status.h"

/// Opens the regular file at path for reading (mode "r" or "rb") into *out. STATUS_IO naming
/// the file and why: it cannot be found or read, or it is a folder or not a regular file.
Status files_open_input(const char *path, const char *mode, FILE **out, ErrorInfo *err);

/// Reads the next line of f into buf (cap bytes, cap >= 2) without its "\n" or "\r\n", and
/// returns its whole length in bytes; -1 at the end of the file or on a read error (ferror).
/// A line of cap bytes or more leaves its first cap - 1 bytes in buf and the rest read and
/// dropped: the next call returns the next line, so no piece of a line is read as a line.
long files_read_line(FILE *f, char *buf, size_t cap);
