#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/view-pgn and scripts/game_viewer.py without a browser (issue 16):
- a match PGN and a hansu-selfplay export become one page holding every game, each with one FEN
  per ply plus the start; the last FEN of every game is the one the rules core gives for the
  whole game replayed at once (position fen START moves ..., not ply by ply as the viewer does);
- the export's comments are read as each move's score and its closing comment as the end;
- the page refers to nothing outside itself (no src/href to a URL, a policy forbidding loads);
- the page's style, script and markup are scripts/viewer/viewer.css, viewer.js, viewer.html,
  inlined (issue 24);
- a gzip-compressed PGN (docs/ keeps its PGNs as .pgn.gz) reads as the plain one; a damaged
  one is refused in one line naming it;
- an illegal move, a move not in UCI form and a missing file are refused in one line naming the
  file, the game and the ply, without a traceback;
- tag values escaped as the PGN standard says (\\" and \\\\, issue 23) are read back unescaped,
  and names holding "<!--", "<script>", "</script>" or "&" leave the page's JSON block with no
  <, > or & in it (written \\u003c, \\u003e, \\u0026), so nothing a name holds can end the
  block or turn the viewer's script into data (issue 23; the browser side in
  test_viewer_browser.py).

Usage: test_view_pgn.py BUILD_DIR WORK_DIR"""
import gzip
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
    match = os.path.join(REPO, "docs", "match-report", "nodes-20000.pgn.gz")
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
    # The page's style, script and markup are scripts/viewer's files, inlined as they are.
    for name in ("viewer.css", "viewer.js", "viewer.html"):
        with open(os.path.join(REPO, "scripts", "viewer", name), encoding="utf-8") as f:
            text = f.read()
        check(text in page, f"scripts/viewer/{name} is not inlined in the page")
        check(name == "viewer.html" or not re.search(r"</(script|style)|<!--", text, re.I),
              f"scripts/viewer/{name} holds text that would end its block in the page")

    with gzip.open(match, "rt", encoding="utf-8") as f:
        text = f.read()
    # The same games from the plain file: the same page records as from the .pgn.gz.
    plain = os.path.join(work, "nodes-20000.pgn")
    with open(plain, "w", encoding="utf-8") as f:
        f.write(text)
    r = view([plain, "-o", os.path.join(work, "plain.html"), "--engine", engine])
    check(r.returncode == 0, f"view-pgn on the plain PGN: {r.stderr}")
    plain_page = open(os.path.join(work, "plain.html"), encoding="utf-8").read()
    plain_games = json.loads(re.search(r'id="hansu-games">(.*?)</script>', plain_page,
                                       re.S).group(1).replace("<\\/", "</"))["games"]
    check([(g["moves"], g["fens"], g["tags"]) for g in plain_games] ==
          [(g["moves"], g["fens"], g["tags"]) for g in games[:32]],
          "the plain PGN and its .pgn.gz give different games")
    cut = os.path.join(work, "cut.pgn.gz")
    with open(match, "rb") as f, open(cut, "wb") as g:
        g.write(f.read()[:200])
    r = view([cut, "-o", os.path.join(work, "bad.html"), "--engine", engine])
    check(r.returncode == 1 and "cut.pgn.gz: a damaged gzip file" in r.stderr and
          r.stderr.count("\n") == 1 and "Traceback" not in r.stderr,
          f"damaged gzip: rc {r.returncode}, {r.stderr!r}")
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

    # Hostile names: PGN escapes in tag values, HTML in names.
    hostile = os.path.join(work, "hostile.pgn")
    head = first_game.split("\n\n")[0]
    names = {"Event": "<!--", "White": "<script>", "Black": 'A"B\\C </script> & co'}
    for tag, value in names.items():
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        head = re.sub(rf'^\[{tag} "[^"]*"\]$', lambda _: f'[{tag} "{escaped}"]', head, flags=re.M)
    with open(hostile, "w") as f:
        f.write(head + "\n\n" + first_game.split("\n\n", 1)[1] + "\n")
    check('[Black "A\\"B\\\\C </script> & co"]' in open(hostile).read(), "hostile PGN not written")
    out = os.path.join(work, "hostile.html")
    r = view([hostile, "-o", out, "--engine", engine])
    check(r.returncode == 0, f"view-pgn on escaped tags: {r.stdout}{r.stderr}")
    page = open(out, encoding="utf-8").read()
    block = re.search(r'<script type="application/json" id="hansu-games">(.*?)</script>', page,
                      re.S).group(1)
    check(not re.search(r"[<>&]", block), f"<, > or & left in the page's JSON: "
          f"{re.findall(r'.{0,20}[<>&].{0,20}', block)[:3]}")
    tags = json.loads(block)["games"][0]["tags"]
    check(all(tags[k] == v for k, v in names.items()),
          f"tags read back as {[tags[k] for k in names]}, want {list(names.values())}")
    check(page.count("<script") == 3 and page.index('id="hansu-games"') < page.index("<script>"),
          "the page's scripts are not the JSON block, the board drawing and the viewer")
    # A large page embeds its games gzip-compressed in base64 (the viewer unpacks them; the
    # browser test opens such a page); a small one keeps plain JSON. Both read back the same.
    sys.path.insert(0, os.path.join(REPO, "scripts"))
    import base64
    import game_viewer
    data = game_viewer.script_json({"games": [{"tags": names}] * 3})
    plain = game_viewer.games_block(data)
    check(plain == f'<script type="application/json" id="hansu-games">{data}</script>\n',
          f"a small page's games are not plain JSON: {plain[:80]}")
    packed = game_viewer.games_block(data, compress=True)
    m = re.fullmatch(r'<script type="application/octet-stream" id="hansu-games" '
                     r'data-encoding="gzip-base64">([A-Za-z0-9+/=]+)</script>\n', packed)
    check(m is not None, f"the compressed block is not base64 in its element: {packed[:120]}")
    check(gzip.decompress(base64.b64decode(m.group(1))).decode("utf-8") == data,
          "the compressed block does not unpack to the page's JSON")
    big = game_viewer.script_json({"games": ["x" * 1000] * (game_viewer.COMPRESS_OVER // 1000)})
    check('data-encoding="gzip-base64"' in game_viewer.games_block(big),
          f"games over {game_viewer.COMPRESS_OVER} bytes are not compressed")
    shutil.rmtree(work)
    print("view-pgn: 36 games, every final FEN as the rules core gives; comments; errors; "
          "escaped tags and hostile names; large pages' games compressed")


if __name__ == "__main__":
    main(sys.argv)
