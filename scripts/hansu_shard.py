#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Opens Hansu self-play files (docs/data-format.md) the way the C readers do: the whole file
is read, its digest header (the first 512 bytes: SHA-256 and length of the rest) is checked,
and only then does h5py (libhdf5) parse those same bytes, from memory. A damaged, truncated
or foreign file raises ShardError with a one-line message naming the file.

    import hansu_shard
    with hansu_shard.open_shard("runs/x/shard-000000.h5") as f:
        attrs = hansu_shard.attrs(f)          # str values, not bytes
        moves = f["positions/move"][:]

Command line: hansu_shard.py FILE... checks each file's digest (exit 1 at the first bad one).
"""
import hashlib
import io
import sys

USERBLOCK = 512
POSITIONS_SCHEDULE = "labelled positions:"  # H5STORE_POSITIONS_SCHEDULE (selfplay/store/h5store.h)
MAGIC = b"hansu-selfplay shard\n"
HDF5_SIGNATURE = b"\x89HDF\r\n\x1a\n"
FORMAT = "hansu-selfplay"
SCHEMA_VERSION = 3  # schema 3 adds draws (winner 2, result_stm 0) and xiangqi; 2 reads as is
SCHEMA_VERSIONS = (2, 3)
# The side that moves first and the other, per variant (the `variant` attribute; a file without
# it is janggi); games/winner is 0 for the first, 1 for the second, 2 for a draw.
SIDES = {"janggi": ("Cho", "Han"), "xiangqi": ("Red", "Black")}


class ShardError(Exception):
    """A file that is not a sound Hansu self-play file; str() names the file and the fault."""


def header(body):
    """The digest header that a file whose bytes after the header are `body` must start with."""
    text = "hansu-selfplay shard\nsha256 %s\nbytes %d\n" % (hashlib.sha256(body).hexdigest(),
                                                          len(body))
    return text.encode() + bytes(USERBLOCK - len(text))


def check(path):
    """Reads the file at path and checks its digest header; returns its bytes."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ShardError("%s: cannot read: %s" % (path, e.strerror or e)) from None
    if not data.startswith(MAGIC):
        if data.startswith(HDF5_SIGNATURE):
            raise ShardError("%s: no digest header: not a hansu self-play file of schema %d (a "
                             "schema-1 shard, written before digests, is converted by "
                             "'hansu-selfplay digest FILE')" % (path, SCHEMA_VERSION))
        raise ShardError("%s: not a hansu self-play file (no digest header; %d bytes)"
                         % (path, len(data)))
    if len(data) < USERBLOCK:
        raise ShardError("%s: corrupt: truncated to %d bytes" % (path, len(data)))
    if data[:USERBLOCK] != header(data[USERBLOCK:]):
        raise ShardError("%s: corrupt: its SHA-256 digest header does not match its %d bytes "
                         "(damaged, truncated or changed since it was written)"
                         % (path, len(data)))
    return data


def text(value):
    """An attribute value as str (schema 2 stores fixed-length strings, which h5py gives as
    bytes)."""
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else value


def attrs(f):
    """The file attributes of an open file as a dict, strings decoded."""
    return {k: text(v) for k, v in f.attrs.items()}


def standalone(a):
    """Whether a file whose attributes are a (attrs()) holds standalone positions (the PV ends
    of hansu-selfplay label --pv-ends, docs/data-format.md "PV ends"), not games: its
    formation_schedule starts with POSITIONS_SCHEDULE, as the C readers tell them apart."""
    return a.get("formation_schedule", "").startswith(POSITIONS_SCHEDULE)


def sides(a):
    """The side names (first, second) of a file whose attributes are a (attrs()); ShardError
    for a variant the readers do not know."""
    variant = a.get("variant", "janggi")
    if variant not in SIDES:
        raise ShardError("variant '%s' is not one of %s" % (variant, ", ".join(SIDES)))
    return SIDES[variant]


def open_shard(path):
    """h5py.File (read-only, in memory) of a checked file whose format and schema version are
    Hansu's. Raises ShardError."""
    import h5py  # only the readers need it; check() works without
    data = check(path)
    try:
        f = h5py.File(io.BytesIO(data), "r")
    except OSError as e:
        raise ShardError("%s: cannot be opened as HDF5 (%s)" % (path, e)) from None
    a = attrs(f)
    if a.get("format") != FORMAT:
        f.close()
        raise ShardError("%s: not a hansu self-play file (no format='%s')" % (path, FORMAT))
    if a.get("schema_version") not in SCHEMA_VERSIONS:
        f.close()
        raise ShardError("%s: schema version %s is not the known %d"
                         % (path, a.get("schema_version"), SCHEMA_VERSION))
    return f


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for path in argv[1:]:
        try:
            check(path)
        except ShardError as e:
            print("hansu_shard: %s" % e, file=sys.stderr)
            return 1
        print("%s: digest ok" % path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
