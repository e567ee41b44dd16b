#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/file_write.py: a file replaced whole (text and bytes), a copy, a symbolic link written
through to its target (the link stays a link), a FIFO and /dev/null written into, and the
failures that must leave the old file as it was and no temporary behind: a folder or socket as
the target, a missing folder, a source that cannot be read, a write that fails half-way; and
create_file, which writes a new file whole and never replaces anything already there.
Usage: test_file_write.py"""
import os
import socket
import sys
import tempfile
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "scripts"))
import file_write  # noqa: E402


def expect_error(kind, fn, *args):
    try:
        fn(*args)
    except kind:
        return
    raise AssertionError(f"{fn.__name__}{args}: no {kind.__name__}")


def main():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "out.json")
        file_write.replace_file(path, "old\n")
        file_write.replace_file(path, "새 ü\n")
        assert open(path, encoding="utf-8").read() == "새 ü\n"
        file_write.replace_file(path, b"\x00\xff")
        assert open(path, "rb").read() == b"\x00\xff"
        copy = os.path.join(d, "copy.bin")
        file_write.copy_file(path, copy)
        assert open(copy, "rb").read() == b"\x00\xff"
        # A link is written through (a dangling one creates its target) and stays a link.
        link, dangling = os.path.join(d, "link"), os.path.join(d, "dangling")
        os.symlink("copy.bin", link)
        os.symlink("made.txt", dangling)
        file_write.replace_file(link, "through\n")
        file_write.copy_file(path, dangling)
        assert os.path.islink(link) and open(copy).read() == "through\n"
        assert os.path.islink(dangling) and open(os.path.join(d, "made.txt"), "rb").read() == \
            b"\x00\xff"
        for name in (link, dangling, "made.txt"):
            os.remove(os.path.join(d, name))
        file_write.replace_file(copy, b"\x00\xff")
        # A FIFO is written into and stays a FIFO; /dev/null takes the output.
        fifo, got = os.path.join(d, "fifo"), []
        os.mkfifo(fifo)
        reader = threading.Thread(target=lambda: got.append(open(fifo).read()))
        reader.start()
        file_write.replace_file(fifo, "hello\n")
        reader.join(10)
        assert got == ["hello\n"] and not os.path.exists(fifo + ".tmp"), got
        os.remove(fifo)
        file_write.replace_file("/dev/null", "x")
        # A socket is refused.
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(os.path.join(d, "sock"))
        try:
            file_write.replace_file(os.path.join(d, "sock"), "x")
            raise AssertionError("a socket was written")
        except OSError as e:
            assert "a socket, not a file" in str(e), e
        sock.close()
        os.remove(os.path.join(d, "sock"))
        # A folder as the target, a missing folder, an unreadable source: OSError, nothing left.
        expect_error(IsADirectoryError, file_write.replace_file, d, "x")
        expect_error(FileNotFoundError, file_write.replace_file,
                     os.path.join(d, "none", "f"), "x")
        expect_error(FileNotFoundError, file_write.copy_file, os.path.join(d, "missing"), copy)
        assert open(copy, "rb").read() == b"\x00\xff"

        # A write that fails half-way (a full disk, say) keeps the old file and removes the tmp.
        class FullDisk:
            """A file whose writes fail as on a full disk."""
            def __init__(self, f):
                self.f = f

            def write(self, _):
                raise OSError(28, "No space left on device")

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.f.close()

        real_open = open

        def failing_open(name, mode="r", *a, **k):
            f = real_open(name, mode, *a, **k)
            return FullDisk(f) if "w" in mode else f

        file_write.open = failing_open
        try:
            try:
                file_write.replace_file(path, "new")
                raise AssertionError("a failing write went unnoticed")
            except OSError as e:
                assert e.errno == 28, e
        finally:
            del file_write.open
        assert open(path, "rb").read() == b"\x00\xff"
        assert sorted(os.listdir(d)) == ["copy.bin", "out.json"], os.listdir(d)
        # create_file: a new file whole; a file, a link (dangling too) or a folder already there
        # is left as it was, FileExistsError, and no temporary file stays.
        new = os.path.join(d, "new.bin")
        file_write.create_file(new, b"\x01")
        assert open(new, "rb").read() == b"\x01"
        os.symlink("elsewhere", os.path.join(d, "link"))
        for name in ("new.bin", "copy.bin", "link", "."):
            expect_error(FileExistsError, file_write.create_file, os.path.join(d, name), "x")
        assert open(new, "rb").read() == b"\x01" and os.readlink(os.path.join(d, "link")) == \
            "elsewhere" and not os.path.exists(os.path.join(d, "elsewhere"))
        expect_error(FileNotFoundError, file_write.create_file, os.path.join(d, "none", "f"), "x")
        assert sorted(os.listdir(d)) == ["copy.bin", "link", "new.bin", "out.json"], os.listdir(d)
    print("test_file_write: ok")


if __name__ == "__main__":
    main()
