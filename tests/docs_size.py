#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""docs/ stays light: the files under docs/ that git tracks (the index, as a commit would hold
them) weigh at most 10 MB together (10,000,000 bytes). Match PGNs, JSON and logs of experiments
are kept gzipped or summarised, with the command that plays them again (docs/style.md, "docs").

Usage: docs_size.py REPO [LIMIT_BYTES]. Exit 0 within the limit, 1 over it (the largest files
named), 77 (skipped) where REPO is not a git work tree. The check first tries itself on a made-up
list over the limit, which it must refuse.
"""
import os
import subprocess
import sys

LIMIT = 10_000_000


def tracked_sizes(repo):
    """[(bytes, path)] of the files under docs/ in git's index; None without git or a work tree."""
    try:
        out = subprocess.run(["git", "-C", repo, "ls-files", "-z", "--", "docs"],
                             capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    sizes = []
    for path in filter(None, out.decode("utf-8", "replace").split("\0")):
        full = os.path.join(repo, path)
        if os.path.isfile(full) and not os.path.islink(full):
            sizes.append((os.path.getsize(full), path))
    return sizes


def verdict(sizes, limit):
    """None within limit, else a message naming the total and the ten largest files."""
    total = sum(s for s, _ in sizes)
    if total <= limit:
        return None
    top = "\n".join(f"  {s:>10,} {p}" for s, p in sorted(sizes, reverse=True)[:10])
    return (f"docs/ holds {total:,} bytes in git, over the {limit:,} allowed; gzip or summarise "
            f"the largest (keep the command that makes them again):\n{top}")


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit("usage: docs_size.py REPO [LIMIT_BYTES]")
    limit = int(argv[2]) if len(argv) == 3 else LIMIT
    # The check must be able to fail: a made-up docs/ one byte over the limit is refused.
    if verdict([(limit // 2, "docs/a.pgn"), (limit // 2 + 1, "docs/b.json")], limit) is None:
        sys.exit("docs_size: the check passed a docs/ over its limit")
    sizes = tracked_sizes(argv[1])
    if sizes is None:
        print("docs_size: not a git work tree, skipped")
        return 77
    msg = verdict(sizes, limit)
    if msg:
        print(msg)
        return 1
    print(f"docs_size: {sum(s for s, _ in sizes):,} bytes in {len(sizes)} files, "
          f"limit {limit:,}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
