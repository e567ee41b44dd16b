// SPDX-License-Identifier: MIT
// One writer at a time: an exclusive flock(2) on a lock file that holds the holder's pid.
// Taken by hansu-selfplay (run folders, merge outputs), and beside each output file by
// hansu-match, hansu-tune and hansu-nnue (run_lock_take_outputs).
#pragma once

#include <stddef.h>

#include "status.h"

typedef struct RunLock RunLock;

/// Takes an exclusive lock on the file at path (created, mode 0666 less the umask, if
/// missing) without waiting, and writes this process's pid into it as text. The kernel drops
/// the lock when the process ends in any way (SIGKILL included), so a file left by a killed
/// holder never blocks. run_lock_release removes the file while still holding the lock; a
/// process that locked the removed file meanwhile notices (inode check) and retries.
/// Errors: STATUS_IO "PATH: locked by another writer, pid N (...)" when another process
/// holds it, or naming the path and the cause when the file cannot be opened.
Status run_lock_take(const char *path, RunLock **out, ErrorInfo *err);

/// Takes the writer locks of a run's output files (n paths, NULL ones skipped), so that two
/// runs sharing any one output are refused: run_lock_take on "TARGET.lock" for each distinct
/// target (files_output_side: a link's target, so every spelling of a file takes the same lock,
/// in the target's folder). A device or FIFO takes none: it is written into, nothing replaced,
/// and no file is created beside it. At most RUN_LOCK_OUTPUTS_MAX paths. Errors as
/// run_lock_take, or files_output_target's prefixed with the path's flag (flags[i], the
/// command-line flag that named paths[i]: "--json PATH: a folder, not a file"); no lock is
/// held after an error.
Status run_lock_take_outputs(const char *const paths[], const char *const flags[], size_t n,
                             RunLock **out, ErrorInfo *err);

/// Takes the lock of a folder: the file DIR/RUN_LOCK_NAME (as run_lock_take).
Status run_lock_take_dir(const char *dir, RunLock **out, ErrorInfo *err);

/// Takes the locks of part index (1-based) of count parts of one run in folder dir, which the
/// other parts share: DIR/RUN_LOCK_NAME shared (so a whole-run writer, run_lock_take_dir, is
/// refused while parts write, and a part while a whole-run writer writes), the split's lock
/// DIR/RUN_LOCK_SPLIT_PREFIX<count> shared, and DIR/RUN_LOCK_NAME-part-<index>-of-<count>
/// exclusively with this process's pid; the shared files are left when released (the
/// kernel's lock, not the file, is what counts). STATUS_IO as run_lock_take when the whole-run
/// writer or this same part is already at work, or when parts of a split into another count are
/// (their games would overlap), naming that split.
Status run_lock_take_part(const char *dir, unsigned index, unsigned count, RunLock **out,
                          ErrorInfo *err);

/// Removes the exclusive lock files (a shared one is left, empty: a later writer takes it),
/// releases the locks and frees them (NULL accepted).
void run_lock_release(RunLock *lock);

enum { RUN_LOCK_OUTPUTS_MAX = 6 };

#define RUN_LOCK_NAME ".hansu-lock"
#define RUN_LOCK_SPLIT_PREFIX ".hansu-lock-split-"
