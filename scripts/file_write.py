# SPDX-License-Identifier: MIT
"""Whole-or-nothing writes for the scripts (scripts/train, the viewers, the analysis scripts), as
the C tools' cli_write_atomic writes: a file is replaced through TARGET.tmp, flushed to disk,
and a rename, so that a reader (a build compiling a net in, a second run, a browser) sees the
old file or the new one, never half of one, and a full disk or a killed script leaves the old
file as it was. TARGET is the path with its symbolic links followed (a link is never replaced);
a device or FIFO is written into, never replaced; a folder or socket is refused. create_file
writes a file that must not exist yet, and never replaces one that does."""
import errno
import os
import shutil
import secrets
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


def create_file(path, data):
    """Writes data (str, as UTF-8, or bytes) to path whole, where nothing may exist yet: through a
    temporary file of its own in path's folder, flushed to disk and then linked to path, which
    fails when a file (or a link, anything) is there, even one made a moment before by another
    process. Raises FileExistsError then, with nothing written, or OSError as replace_file does;
    the temporary file is removed in every case."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    folder, name = os.path.split(os.path.abspath(path))
    # Made as open() makes a file (mode 0666 less the umask), under a name no other writer has.
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        os.link(tmp, path)
    finally:
        os.remove(tmp)
