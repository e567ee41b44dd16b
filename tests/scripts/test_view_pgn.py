#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/view-pgn and scripts/game_viewer.py without a browser (issue 16):
- a match PGN and a hansu-selfplay export become one page holding every game, each with one FEN
  per ply plus the start; the last FEN of every game is the one the rules core gives for the
  whole game replayed at once (position fen START moves ..., not ply by ply as the viewer does);
- the export's comments are read as each move's score and its closing comment as the end;
- the page refers to nothing outside itself (no src/href to a URL, a policy forbidding loads);
- an illegal move, a move not in UCI form and a missing file are refused in one line naming the
  file, the game and the ply, without a traceback.

Usage: test_view_pgn.py BUILD_DIR WORK_DIR"""
import json
import os
import re
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VIEW = os.path.join(REPO, "scripts", "view-pgn")


def check(cond, msg):
    if not cond:
        print("FAIL: " + msg, file=sys.stderr)
        sys.exit(1)


def engine_fen(engine, fen, moves):
    r = subprocess.run([engine], input=f"position fen {fen} moves {' '.join(moves)}\nd\nquit\n",
                       capture_output=True, text=True, timeout=20)
    return re.search(r"^Fen: (.*)$", r.stdout, re.M).group(1)


def view(args):
    return subprocess.run(["/usr/bin/python3", VIEW] + args, capture_output=True, text=True)


def main(argv):
    build, work = argv[1], argv[2]
    engine = os.path.join(build, "engine", "hansu")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    sp = os.path.join(work, "sp")
    r = subprocess.run([os.path.join(build, "selfplay", "hansu-selfplay"), "--games", "4",
                        "--nodes", "60", "--threads", "1", "--hash", "1", "--no-bench",
                        "--progress", "1000", "--out", sp], capture_output=True, text=True)
    check(r.returncode == 0, f"self-play: {r.stderr}")
    exported = os.path.join(work, "sp.pgn")
    r = subprocess.run([os.path.join(build, "selfplay", "hansu-selfplay"), "export", "--pgn",
                        exported, sp], capture_output=True, text=True)
    check(r.returncode == 0, f"export: {r.stderr}")
    match = os.path.join(REPO, "docs", "match-report", "nodes-20000.pgn")
    out = os.path.join(work, "games.html")
    r = view([match, exported, "-o", out, "--engine", engine])
    check(r.returncode == 0, f"view-pgn: {r.stdout}{r.stderr}")
    page = open(out, encoding="utf-8").read()
    data = json.loads(re.search(r'<script type="application/json" id="hansu-games">(.*?)'
                                r"</script>", page, re.S).group(1).replace("<\\/", "</"))
    games = data["games"]
    check(len(games) == 36, f"{len(games)} games in the page, want 32 + 4")
    for i, g in enumerate(games):
        check(len(g["fens"]) == len(g["moves"]) + 1, f"game {i}: {len(g['fens'])} FENs")
        last = engine_fen(engine, g["fens"][0], g["moves"])
        check(g["fens"][-1] == last, f"game {i}: last FEN {g['fens'][-1]}, rules core {last}")
    for g in games[32:]:
        check(g["group"] == "sp.pgn" and all(g["comments"]) and
              ("points" in g["closing"] or g["closing"].endswith("mates")),
              f"export comments not read as scores and closing: {g['closing']!r}")
        check(re.fullmatch(r"random|[+-](\d+\.\d\d|M\d+)", g["comments"][-1]),
              f"last move's comment {g['comments'][-1]!r} is not a score")
    check(games[0]["closing"] == "Han mates" and not any(games[0]["comments"]),
          f"match game closing {games[0]['closing']!r}")
    check(not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page, re.I),
          "the page refers to a URL")
    check("default-src 'none'" in page, "no policy forbidding loads")

    text = open(match).read()
    bad = os.path.join(work, "bad.pgn")
    first_game = text.split("\n\n[Event")[0]
    with open(bad, "w") as f:  # ply 3 of the first game made illegal
        f.write(first_game.replace("2. i4h4", "2. i4i9", 1))
    r = view([bad, "-o", os.path.join(work, "bad.html"), "--engine", engine])
    check(r.returncode == 1 and "bad.pgn: game 1" in r.stderr and "ply 3 (i4i9)" in r.stderr and
          "Traceback" not in r.stderr, f"illegal move: rc {r.returncode}, {r.stderr!r}")
    with open(bad, "w") as f:
        f.write(first_game.replace("2. i4h4", "2. Rh4", 1))
    r = view([bad, "-o", os.path.join(work, "bad.html"), "--engine", engine])
    check(r.returncode == 1 and "'Rh4' is not a move in UCI form" in r.stderr,
          f"SAN move: rc {r.returncode}, {r.stderr!r}")
    r = view([os.path.join(work, "none.pgn"), "-o", os.path.join(work, "bad.html"),
              "--engine", engine])
    check(r.returncode == 1 and "none.pgn" in r.stderr and "Traceback" not in r.stderr,
          f"missing file: {r.stderr!r}")
    check(not os.path.exists(os.path.join(work, "bad.html")), "a failed run wrote a page")
    shutil.rmtree(work)
    print("view-pgn: 36 games, every final FEN as the rules core gives; comments; errors")


if __name__ == "__main__":
    main(sys.argv)
