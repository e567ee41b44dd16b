#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""docs/ stays light: the files under docs/ that git tracks (the index, as a commit would hold
them) weigh at most 10 MB together (10,000,000 bytes). Match PGNs, JSON and logs of experiments
are kept gzipped or summarised, with the command that plays them again (docs/style.md, "docs").
The archives of games against other engines that outgrow docs/ live in data/games/, under a
budget of their own: 20 MB (20,000,000 bytes; data/games/README.md).

Usage: docs_size.py REPO [LIMIT_BYTES] (LIMIT_BYTES replaces docs/'s limit). Exit 0 with each
folder within its limit, 1 over one (the largest files named), 77 (skipped) where REPO is not a
git work tree. The check first tries itself on a made-up list over the limit, which it must
refuse.
"""
import os
import subprocess
import sys

LIMIT = 10_000_000
# Each budgeted folder and its limit in bytes.
BUDGETS = {"docs": LIMIT, "data/games": 20_000_000}


def tracked_sizes(repo, folder="docs"):
    """[(bytes, path)] of the files under FOLDER in git's index; None without git or a work
    tree."""
    try:
        out = subprocess.run(["git", "-C", repo, "ls-files", "-z", "--", folder],
                             capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    sizes = []
    for path in filter(None, out.decode("utf-8", "replace").split("\0")):
        full = os.path.join(repo, path)
        if os.path.isfile(full) and not os.path.islink(full):
            sizes.append((os.path.getsize(full), path))
    return sizes


def verdict(sizes, limit, folder="docs"):
    """None within limit, else a message naming the total and the ten largest files."""
    total = sum(s for s, _ in sizes)
    if total <= limit:
        return None
    top = "\n".join(f"  {s:>10,} {p}" for s, p in sorted(sizes, reverse=True)[:10])
    return (f"{folder}/ holds {total:,} bytes in git, over the {limit:,} allowed; gzip or "
            f"summarise the largest (keep the command that makes them again):\n{top}")


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit("usage: docs_size.py REPO [LIMIT_BYTES]")
    limit = int(argv[2]) if len(argv) == 3 else LIMIT
    # The check must be able to fail: a made-up docs/ one byte over the limit is refused.
    if verdict([(limit // 2, "docs/a.pgn"), (limit // 2 + 1, "docs/b.json")], limit) is None:
        sys.exit("docs_size: the check passed a docs/ over its limit")
    status = 0
    for folder, budget in dict(BUDGETS, docs=limit).items():
        sizes = tracked_sizes(argv[1], folder)
        if sizes is None:
            print("docs_size: not a git work tree, skipped")
            return 77
        msg = verdict(sizes, budget, folder)
        if msg:
            print(msg)
            status = 1
            continue
        print(f"docs_size: {folder}/: {sum(s for s, _ in sizes):,} bytes in {len(sizes)} files, "
              f"limit {budget:,}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
