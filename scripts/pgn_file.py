# SPDX-License-Identifier: MIT
"""PGN files as text, plain or gzip-compressed (`GAMES.pgn.gz`): the one reader every script that
reads a PGN goes through (game_viewer.py, and through it view-pgn, tournament-report and
train_report.py; uci_engine.py, and through it mate-analysis.py and scaling-probe.py;
match-profile.py; eval-audit's --from-json reads an audit's JSON.gz through it too). A file
is decompressed when its first bytes are gzip's magic number, whatever its name, so
`GAMES.pgn.gz` and a compressed file named `GAMES.pgn` read alike. The example runs and match
reports in docs/ keep their PGNs compressed (docs/README.md).

    import pgn_file
    text = pgn_file.read_text("docs/match-report/nodes-20000.pgn.gz")
    path = pgn_file.find("RUN/iter-001/match.pgn")   # RUN/iter-001/match.pgn or .pgn.gz, or None
"""
import gzip
import os
import zlib

GZIP_MAGIC = b"\x1f\x8b"
SUFFIXES = (".pgn", ".pgn.gz")


class PgnFileError(Exception):
    """A PGN file that cannot be read: missing, unreadable, a damaged gzip stream, not UTF-8.
    The message is one line and names the file."""


def read_text(path):
    """The whole text of the PGN file at path, decompressed when it is gzip-compressed.
    Raises PgnFileError naming the file and the reason."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise PgnFileError(f"{path}: {e.strerror or e}")
    if data[:2] == GZIP_MAGIC:
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as e:
            raise PgnFileError(f"{path}: a damaged gzip file ({e})")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise PgnFileError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})")


def find(path):
    """The file that holds the PGN named path (`X.pgn`): X.pgn itself when it exists, else
    X.pgn.gz; None when there is neither."""
    for candidate in (path, path + ".gz"):
        if os.path.isfile(candidate):
            return candidate
    return None


def stem(path):
    """A PGN file's name without its folder and its .pgn or .pgn.gz ending ("iter-019")."""
    name = os.path.basename(path)
    for suffix in (".pgn.gz", ".pgn"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name
