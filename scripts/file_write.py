# SPDX-License-Identifier: MIT
"""Whole-or-nothing writes for the scripts (scripts/train, the viewers, the analysis scripts), as
the C tools' cli_write_atomic writes: a file is replaced through TARGET.tmp, flushed to disk,
and a rename, so that a reader (a build compiling a net in, a second run, a browser) sees the
old file or the new one, never half of one, and a full disk or a killed script leaves the old
file as it was. TARGET is the path with its symbolic links followed (a link is never replaced);
a device or FIFO is written into, never replaced; a folder or socket is refused."""
import errno
import os
import shutil
import stat


def _target(path):
    """path's target and whether it is a stream (a device or FIFO); OSError for a folder or
    socket."""
    target = os.path.realpath(path)
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return target, False
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "a folder, not a file", path)
    if stat.S_ISSOCK(mode):
        raise OSError(errno.EINVAL, "a socket, not a file", path)
    return target, stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or stat.S_ISBLK(mode)


def _replace(path, fill):
    target, stream = _target(path)
    if stream:
        fill(target)
        return
    tmp = target + ".tmp"
    try:
        fill(tmp)
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise


def replace_file(path, data):
    """Writes data (str, written as UTF-8, or bytes) to path whole. Raises OSError
    (IsADirectoryError for a folder, EINVAL for a socket, a write's own error) with the
    temporary file removed and path unchanged."""
    raw = data.encode("utf-8") if isinstance(data, str) else data

    def fill(name):
        with open(name, "wb") as f:
            f.write(raw)

    _replace(path, fill)


def copy_file(src, dst):
    """Copies the file src to dst whole, as replace_file writes. Raises OSError as it does."""
    _replace(dst, lambda name: shutil.copyfile(src, name))
