// SPDX-License-Identifier: MIT
// Crash-safe file replacement: write a complete file under a temporary name, fsync it, rename
// it over the final name and fsync the folder, so the final name always holds a whole file.
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "status.h"

/// Creates (or truncates) path, writes len bytes of data, fsyncs and closes it.
/// STATUS_IO naming path and the cause (e.g. "No space left on device").
Status durable_write(const char *path, const void *data, size_t len, ErrorInfo *err);

/// The output folder dir ready for a run's shards: made (mode 0777 less the umask) where missing,
/// else found; a folder, writable and searchable. With resume it must exist already. STATUS_IO
/// naming dir and the cause ("nothing to resume in DIR (...)", "DIR: not a folder", "DIR: folder
/// not writable (...)").
Status durable_folder_ready(const char *dir, bool resume, ErrorInfo *err);

/// fsyncs an existing file. STATUS_IO on failure.
Status durable_fsync(const char *path, ErrorInfo *err);

/// Renames tmp over final_path, then fsyncs the folder of final_path so the rename survives a
/// crash. STATUS_IO on failure.
Status durable_rename(const char *tmp, const char *final_path, ErrorInfo *err);
