#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Loads a self-play run folder (or HDF5 files) with h5py and pandas and prints result
statistics: games, positions, results by reason, each side's win share and the draws (the
variant's side names: Cho/Han in janggi, Red/Black in xiangqi), overall and, in janggi, per
pairing of formations. Files of PV ends (hansu-selfplay label --pv-ends: standalone positions,
told apart by their formation_schedule, hansu_shard.standalone) are counted apart ("PV ends N")
and left out of every statistic: they are no games.
Exits 1 when a game id appears twice within one folder (or among the files named one by
one): those games would be counted, and trained on, twice; and, with a one-line error naming
the file, on a damaged, foreign or unreadable file (digest checked first, hansu_shard.py).

    scripts/selfplay_stats.py runs/night1            # every shard-*.h5 in the folder
    scripts/selfplay_stats.py merged.h5 other.h5
"""
import glob
import os
import sys

import numpy as np
import pandas as pd

import hansu_shard

# |score| at or above this is a decided game, not centipawns. Since the search ranks game ends
# by distance (engine/search.h), every decided game is stored as a win or loss in n plies,
# 32000 - n (from 30000); before, only mates were, a rule win as 25000 - ply and a win on
# points as 20000 + 5 * margin - ply.
SCORE_DECIDED = 19000
STORED_MATE_MIN = 30000


def load(paths):
    """Games and positions tables of all files of games, the attributes of the first one, and the
    count of PV ends (files of standalone positions, left out of the tables). The games
    table has two extra columns: file, and group (the folder named, or "" for files named one
    by one); game ids are unique within a group, not across groups."""
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += [(n, p) for n in sorted(glob.glob(os.path.join(p, "shard-*.h5")))]
        else:
            files.append((p, ""))
    if not files:
        sys.exit("no shard-*.h5 files in %s" % " ".join(paths))
    games, positions, attrs, pv_ends = [], [], None, 0
    for name, group in files:
        with hansu_shard.open_shard(name) as f:
            try:
                if hansu_shard.standalone(hansu_shard.attrs(f)):
                    pv_ends += len(f["games/game_id"])
                    continue
                attrs = attrs or hansu_shard.attrs(f)
                g = pd.DataFrame({k: v[:] for k, v in f["games"].items()})
                g["file"] = name
                g["group"] = group
                games.append(g)
                positions.append(pd.DataFrame({k: v[:] for k, v in f["positions"].items()
                                               if k != "board"}))
            except (OSError, KeyError, ValueError) as e:
                raise hansu_shard.ShardError("%s: unreadable columns (%s)" % (name, e)) from None
    if not games:
        sys.exit("no games in %s, only %d PV ends" % (" ".join(paths), pv_ends))
    return (pd.concat(games, ignore_index=True), pd.concat(positions, ignore_index=True), attrs,
            pv_ends)


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    try:
        return report(*load(argv[1:]))
    except hansu_shard.ShardError as e:
        print("selfplay_stats: %s" % e, file=sys.stderr)
    except (KeyError, IndexError, ValueError, TypeError) as e:  # a value outside its range
        print("selfplay_stats: malformed data: %s: %s" % (type(e).__name__, e), file=sys.stderr)
    return 1


def report(games, pos, attrs, pv_ends):
    """Prints the statistics; 1 when game ids repeat within a folder."""
    reasons = attrs["reason_names"].split(",")
    formations = attrs["formation_names"].split(",")
    print("engine %s, bench %s, weights %s..." % (attrs["engine_version"], attrs["bench"],
                                                  attrs["weights_sha256"][:12]))
    print("limits: %s, seed %d, random plies %d" % (attrs["search_limits"], attrs["seed"],
                                                    attrs["random_plies"]))
    print("games %d, positions %d, plies per game %.1f (min %d, max %d)" % (
        len(games), len(pos), games.plies.mean(), games.plies.min(), games.plies.max()))
    if pv_ends:
        print("PV ends %d (standalone positions of label --pv-ends: no games, left out below)"
              % pv_ends)
    dups = games[games.duplicated(["group", "game_id"], keep=False)]
    if len(dups):
        first = dups[dups.game_id == dups.game_id.iloc[0]]
        print("WARNING: %d games share their id with another in the same folder (e.g. id %d in "
              "%s): a merged file inside a run folder? Every statistic below counts them twice."
              % (len(dups) - dups.drop_duplicates(["group", "game_id"]).shape[0],
                 first.game_id.iloc[0], " and ".join(first.file)), file=sys.stderr)
    first, second = hansu_shard.sides(attrs)
    print("\nresults by reason (shares of each reason's games):")
    by = games.groupby(games.reason.map(lambda r: reasons[r])).winner.agg(
        [("games", "size"), (first.lower() + "_wins", lambda w: (w == 0).mean()),
         (second.lower() + "_wins", lambda w: (w == 1).mean()),
         ("draws", lambda w: (w == 2).mean())])
    by["share"] = by.games / len(games)
    print(by.to_string(float_format=lambda x: "%.3f" % x))
    print("\nresults: %s wins %.1f%%, %s wins %.1f%%, draws %.1f%%"
          % (first, 100 * (games.winner == 0).mean(), second, 100 * (games.winner == 1).mean(),
             100 * (games.winner == 2).mean()))
    if attrs.get("formation_names"):  # janggi's set-ups; xiangqi has one start
        games["pairing"] = [formations[c] + " v " + formations[h]
                            for c, h in zip(games.cho_formation, games.han_formation)]
        table = games.groupby("pairing").agg(games=("game_id", "size"),
                                             cho_wins=("winner", lambda w: (w == 0).mean()),
                                             draws=("winner", lambda w: (w == 2).mean()))
        print("\nper pairing (Cho formation v Han formation):")
        print(table.to_string(float_format=lambda x: "%.3f" % x))
    # The outcome from the side to move's view is one column: the target of the tuner.
    searched = pos[(pos["flags"] & 4) == 0]
    score = searched["score"].astype(np.int64)
    decided = score.abs() >= SCORE_DECIDED
    ends = score.abs() >= STORED_MATE_MIN
    print("\npositions: in check %.1f%%, best move captures %.1f%%, random %.1f%%"
          % (100 * (pos["flags"] & 1).astype(bool).mean(), 100 * (pos["flags"] & 2).astype(bool).mean(),
             100 * (pos["flags"] & 4).astype(bool).mean()))
    print("decided scores (|score| >= %d: mate, rule or points win): %d (%.2f%% of searched), "
          "of them stored as an end in n plies %d"
          % (SCORE_DECIDED, decided.sum(), 100 * decided.mean(), ends.sum()))
    s = score[~decided]
    agree = (np.sign(s) == searched["result_stm"][~decided])[s != 0]
    print("score (cp, decided excluded): mean %.1f, sd %.1f; sign agrees with the result in %.1f%%"
          % (s.mean(), s.std(), 100 * agree.mean() if len(agree) else float("nan")))
    if len(dups):
        print("selfplay_stats: duplicate game ids (see the WARNING above)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
