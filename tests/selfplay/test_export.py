#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""hansu-selfplay export (issue 16): a small run folder exported as PGN holds every stored game
with Variant, the formation pairing's FEN and Opening, Termination, PlyCount and GameId, the
stored moves in order and each move's stored score as its comment (the mover's view, pawns;
"random" on random opening plies); --games picks exactly the ids named; a bad selection, an id
that is not in the folder and a missing folder are refused with a message naming them, and
leave no output file.

Usage: test_export.py HANSU_SELFPLAY WORK_DIR"""
import os
import re
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "scripts"))
import board_decode  # noqa: E402
import hansu_shard  # noqa: E402


def check(cond, msg):
    if not cond:
        print("FAIL: " + msg, file=sys.stderr)
        sys.exit(1)


def parse(text):
    """(tags, [(move, comment)], closing comment) of each game of a PGN text."""
    games = []
    for block in re.split(r"\n\n(?=\[)", text.strip()):
        head, _, body = block.partition("\n\n")
        tags = {k: re.sub(r"\\(.)", r"\1", v)  # PGN string escapes: \" and \\
                for k, v in re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$', head, re.M)}
        pairs = re.findall(r"(?:\d+\.(?:\.\.)?\s+)?([a-i]\d+[a-i]\d+)\s+\{([^}]*)\}", body)
        closing = re.findall(r"\{([^}]*)\}\s+(?:1-0|0-1)\s*$", body)
        games.append((tags, pairs, closing[0] if closing else None))
    return games


def comment(score, flags):
    if flags & 4:
        return "random"
    if score >= 30000:
        return f"+M{32000 - score}"
    if score <= -30000:
        return f"-M{32000 + score}"
    return f"{score / 100:+.2f}"


def run(argv):
    return subprocess.run(argv, capture_output=True, text=True)


def main(argv):
    selfplay, work = argv[1], argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    folder = os.path.join(work, "sp")
    r = run([selfplay, "--games", "6", "--nodes", "60", "--threads", "1", "--hash", "1",
             "--no-bench", "--progress", "1000", "--random-plies", "4", "--out", folder])
    check(r.returncode == 0, f"self-play failed: {r.stderr}")
    out = os.path.join(work, "all.pgn")
    r = run([selfplay, "export", "--pgn", out, folder])
    check(r.returncode == 0, f"export failed: {r.stderr}")
    games = parse(open(out).read())
    check(len(games) == 6, f"{len(games)} games exported, want 6")

    shard = os.path.join(folder, "shard-000000.h5")
    with hansu_shard.open_shard(shard) as f:
        g = {k: v[:] for k, v in f["games"].items()}
        p = {k: v[:] for k, v in f["positions"].items()}
        a = hansu_shard.attrs(f)
    reasons = a["reason_names"].split(",")
    forms = a["formation_names"].split(",")
    row_of = {int(i): n for n, i in enumerate(g["game_id"])}
    for want_id, (tags, pairs, closing) in enumerate(games):
        check(tags.get("GameId") == str(want_id), f"game {want_id}: GameId {tags.get('GameId')}")
        n = row_of[want_id]
        s, e = int(g["pos_start"][n]), int(g["pos_end"][n])
        check(tags["Variant"] == "janggi", f"game {want_id}: Variant {tags['Variant']}")
        start = board_decode.to_fen(p["board"][s], int(p["stm"][s]), 0)
        check(tags["FEN"] == start, f"game {want_id}: FEN {tags['FEN']}, stored start {start}")
        opening = f"{forms[g['cho_formation'][n]]} vs {forms[g['han_formation'][n]]}"
        check(tags["Opening"] == opening, f"game {want_id}: Opening {tags['Opening']}")
        check(tags["Termination"] == reasons[g["reason"][n]],
              f"game {want_id}: Termination {tags['Termination']}")
        check(tags["PlyCount"] == str(e - s), f"game {want_id}: PlyCount {tags['PlyCount']}")
        check(tags["Result"] == ("1-0" if g["winner"][n] == 0 else "0-1"),
              f"game {want_id}: Result {tags['Result']}")
        want = [(board_decode.move_to_uci(int(p["move"][i])),
                 comment(int(p["score"][i]), int(p["flags"][i]))) for i in range(s, e)]
        check(pairs == want, f"game {want_id}: moves/comments differ from the stored ones:\n"
              f"{pairs[:6]}\n{want[:6]}")
        check(sum(c == "random" for _, c in pairs) == 4, f"game {want_id}: 4 random plies")
        check(closing and "points Cho" in closing or closing.endswith("mates"),
              f"game {want_id}: closing comment {closing!r}")

    sel = os.path.join(work, "sel.pgn")
    r = run([selfplay, "export", "--pgn", sel, folder, "--games", "4,1-2"])
    check(r.returncode == 0, f"export --games failed: {r.stderr}")
    ids = [t["GameId"] for t, _, _ in parse(open(sel).read())]
    check(ids == ["1", "2", "4"], f"--games 4,1-2 exported {ids}")

    bad = os.path.join(work, "bad.pgn")
    for args, rc, msg in [(["--games", "3-x"], 2, "'3-x' is not a game id or range"),
                          (["--games", "5-2"], 2, "range '5-2' runs backwards"),
                          (["--games", "2-7"], 1, "game 6 is not in the input"),
                          (["--games", "9-"], 1, "no game of the input is selected")]:
        r = run([selfplay, "export", "--pgn", bad, folder] + args)
        check(r.returncode == rc and msg in r.stderr,
              f"{args}: rc {r.returncode}, stderr {r.stderr!r}, want {rc} and {msg!r}")
        check(not os.path.exists(bad) and not os.path.exists(bad + ".tmp"),
              f"{args}: a failed export left a file")
    r = run([selfplay, "export", "--pgn", bad, os.path.join(work, "missing")])
    check(r.returncode == 1 and "missing" in r.stderr and not os.path.exists(bad),
          f"missing folder: rc {r.returncode}, {r.stderr!r}")
    r = run([selfplay, "export", folder])
    check(r.returncode == 2 and "--pgn OUT or --plain OUT is required" in r.stderr,
          f"no --pgn: {r.stderr!r}")
    shutil.rmtree(work)
    print("export: 6 games with tags, moves and scores as stored; selection and errors checked")


if __name__ == "__main__":
    main(sys.argv)
