// SPDX-License-Identifier: MIT
// Files named by the user. Inputs: only a regular file is read, so that a folder, a FIFO or a
// device named by mistake is refused at once by what it is (a FIFO would block the reader
// forever); lines are read whole, never in pieces. Outputs: written whole or not at all, and
// never over what the name stands for (a link is followed, a device is written into).
#pragma once

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "status.h"

enum { FILES_PATH_MAX = 4096 };

/// Opens the regular file at path for reading (mode "r" or "rb") into *out. STATUS_IO naming
/// the file and why: it cannot be found or read, or it is a folder or not a regular file.
Status files_open_input(const char *path, const char *mode, FILE **out, ErrorInfo *err);

/// Reads the next line of f into buf (cap bytes, cap >= 2) without its "\n" or "\r\n", and
/// returns its whole length in bytes; -1 at the end of the file or on a read error (ferror).
/// A line of cap bytes or more leaves its first cap - 1 bytes in buf and the rest read and
/// dropped: the next call returns the next line, so no piece of a line is read as a line.
long files_read_line(FILE *f, char *buf, size_t cap);

/// True when the line files_read_line has just read into buf (len its return, cap as given)
/// holds a NUL byte in the part kept: as a C string it would end there, the rest dropped unread
/// ("FEN\0junk" taken for the FEN), so the caller refuses it naming the file and line.
bool files_line_has_nul(const char *buf, long len, size_t cap);

/// Where an output named path is to be written, into target (FILES_PATH_MAX bytes): path with
/// its symbolic links followed (a link is never replaced: the file it points to is written,
/// in that file's folder), or path itself with *in_place set when it names an existing
/// device or FIFO (never replaced: written into). STATUS_IO naming path: "PATH: a folder, not
/// a file", "PATH: a socket, not a file", a loop of links, or the cause stat gives.
Status files_output_target(const char *path, char *target, bool *in_place, ErrorInfo *err);

/// The name of a file kept beside the output named path (its lock, resume state, checkpoint):
/// files_output_target's target with suffix appended, into out (FILES_PATH_MAX bytes), so that
/// every spelling of one output (a link, the name it points to) has the same side files, in the
/// target's folder. STATUS_IO as files_output_target, and "PATH is a device or FIFO, not a
/// file: no PATHSUFFIX beside it" when path names one (nothing is ever created beside a device).
Status files_output_side(const char *path, const char *suffix, char *out, ErrorInfo *err);

/// Names the stop flag of the process (set by its SIGINT/SIGTERM handler) that ends a wait for
/// a FIFO's reader (files_open_write); a front end that stops on a flag calls this once at start.
/// Without one, any signal the process handles ends the wait of the thread it reaches.
void files_set_stop(const atomic_bool *stop);

/// Opens path for writing: open(2) with flags | O_WRONLY | O_CLOEXEC and mode, a descriptor or
/// -1 with errno. A FIFO is opened without blocking: while nothing reads it the call waits in
/// steps of 50 ms, so that a stop (files_set_stop) ends the wait, with errno EINTR, instead of
/// leaving the process blocked in open(2) where SIGINT and SIGTERM cannot end it.
int files_open_write(const char *path, int flags, mode_t mode);

/// An output being written (files_output_open), into "TARGET.tmp" renamed over its target at
/// commit, or in place into a device or FIFO.
typedef struct OutputFile {
    FILE *f;                      // where to write
    const char *name;             // the name given, for messages
    char target[FILES_PATH_MAX];  // files_output_target
    char tmp[FILES_PATH_MAX + 8]; // "TARGET.tmp"; empty when written in place
} OutputFile;

/// Opens the output named path for writing into *o: files_output_target's target, a fresh
/// "TARGET.tmp" beside it for a regular or new file; a FIFO as files_open_write does. STATUS_IO
/// naming path and the cause, "PATH: stopped while waiting for a reader of the FIFO" for a stop.
Status files_output_open(const char *path, OutputFile *o, ErrorInfo *err);

/// Finishes o: flushed and closed, a temporary fsynced and renamed over its target, so a
/// reader sees the old file or the new one, never a part. On any failure (a write earlier, the
/// flush, fsync, close or rename) the temporary is removed and STATUS_IO names the output and
/// the cause ("OUT: File too large", "dev/full: No space left on device"); for a write that
/// failed earlier the cause is errno as it left it, so commit right after the last write.
Status files_output_commit(OutputFile *o, ErrorInfo *err);

/// Gives o up: closed, its temporary removed, its target left as it was. Accepts a zeroed o.
void files_output_abort(OutputFile *o);
