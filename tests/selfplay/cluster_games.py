#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Compares the games of two self-play runs exactly: ids, seeds, pairings, every stored position
(board, move, score, flags, outcome) and results, each game whole, in game-id order, whatever
the files and rows they were written in. Each side is a run folder or shard files (a merged
file). Exit 0 and "N games identical" when equal; else exit 1 naming the first difference.

    cluster_games.py REF_DIR_OR_FILES... -- OTHER_DIR_OR_FILES... [--count N]
"""
import glob
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import hansu_shard  # noqa: E402

GAME_SKIP = ("pos_start", "pos_end")  # rows of this file: differ between layouts


def expand(paths):
    files = []
    for p in paths:
        files += sorted(glob.glob(os.path.join(p, "shard-*.h5"))) if os.path.isdir(p) else [p]
    return files


def games(paths):
    """game_id -> (run_config, game columns, positions rows), refusing an id stored twice."""
    out = {}
    for path in expand(paths):
        with hansu_shard.open_shard(path) as f:
            config = hansu_shard.attrs(f)["run_config"]
            g = {k: f["games/" + k][:] for k in f["games"] if k not in GAME_SKIP}
            pos = {k: f["positions/" + k][:] for k in f["positions"]}
            start, end = f["games/pos_start"][:], f["games/pos_end"][:]
            for i, gid in enumerate(g["game_id"]):
                gid = int(gid)
                if gid in out:
                    sys.exit("%s: game %d stored twice" % (path, gid))
                cols = tuple((k, int(v[i])) for k, v in sorted(g.items()))
                rows = tuple((k, v[start[i]:end[i]].tobytes()) for k, v in sorted(pos.items()))
                out[gid] = (config, cols, rows)
    return out


def main(argv):
    count = None
    if "--count" in argv:
        k = argv.index("--count")
        count = int(argv[k + 1])
        del argv[k:k + 2]
    if "--" not in argv:
        sys.exit(__doc__)
    k = argv.index("--")
    ref, other = games(argv[:k]), games(argv[k + 1:])
    if count is not None and sorted(ref) != list(range(count)):
        sys.exit("reference: ids are not 0..%d (%d games)" % (count - 1, len(ref)))
    for gid in sorted(set(ref) | set(other)):
        if gid not in other or gid not in ref:
            sys.exit("game %d only in the %s" % (gid, "reference" if gid in ref else "other run"))
        a, b = ref[gid], other[gid]
        if a != b:
            what = "settings (run_config)" if a[0] != b[0] else "columns" if a[1] != b[1] else "positions"
            sys.exit("game %d differs in its %s" % (gid, what))
    print("%d games identical" % len(ref))


if __name__ == "__main__":
    main(sys.argv[1:])
