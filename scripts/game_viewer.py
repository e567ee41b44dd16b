#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The board viewer of Hansu's games: one self-contained HTML page (CSS, script and games
inlined; nothing fetched from the network) that draws the 9x10 board as SVG and steps through
games (docs/report-viewer.md). Used by scripts/view-pgn (any PGN Hansu writes) and by
scripts/train_report.py (report.html of a training run). The page's style, scripts and markup
are scripts/viewer/viewer.css, board.js (the drawing, shared with scripts/play), viewer.js and
viewer.html, inlined into each page.

The page never applies a rule: the position after every ply is computed here by Hansu's own
rules core (the `hansu` UCI engine: `position fen F moves M` then `d`, one ply at a time) and
embedded as a list of FENs beside the moves. A move the rules core refuses is an error naming
the file, the game and the ply.

    import game_viewer
    games = game_viewer.read_pgn("games.pgn", group="match")
    with game_viewer.FenEngine("build/engine/hansu") as eng:
        records = [game_viewer.record(g, eng) for g in games]
    html = game_viewer.page("Games", "<p>intro</p>", records)
"""
import base64
import gzip
import html
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import file_write  # noqa: E402
import pgn_file  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_ENGINE = os.path.join(REPO, "build", "engine", "hansu")


class ViewerError(Exception):
    """A PGN that cannot be read or a move the rules core refuses; the message names it."""


# --- PGN ------------------------------------------------------------------------------------
TOKEN = re.compile(r"""\s*(?:
    (?P<tag>\[\s*(?P<name>\w+)\s+"(?P<value>(?:[^"\\]|\\.)*)"\s*\])
  | \{(?P<comment>[^}]*)\}
  | ;(?P<line>[^\n]*)
  | (?P<result>1-0|0-1|1/2-1/2|\*)
  | (?P<number>\d+\.+)
  | (?P<nag>\$\d+)
  | (?P<paren>[()])
  | (?P<move>(?:[a-i](?:10|[1-9])[a-i](?:10|[1-9])|0000|@@@@)(?=[\s(){};]|$))
  | (?P<other>[^\s(){};]+|\S))""", re.X)


def unescape_tag(value):
    """A tag value as the PGN standard (8.1.1) escapes it, read back: \\" is a quote and \\\\ a
    backslash; any other backslash stays as written."""
    return re.sub(r'\\([\\"])', r"\1", value)


def parse_pgn(text, source="PGN", written=False):
    """The games of a PGN text: dicts with tags, moves (UCI strings), comments (one per move,
    "" when none), closing (the comment that ends the game) and result. Moves must be in UCI
    form, as Hansu writes them; anything else is a ViewerError naming source and game. With
    written, any other word of the movetext is kept as a move as written ("C2=5", "Nc3"), for
    scripts/move_text.py to read against the engine's legal moves (scripts/play).
    Comments after the last move: with two or more, the first is the move's and the rest the
    closing one (hansu-selfplay export); a single one is the closing comment unless the other
    moves carry comments too."""
    games, game, depth = [], None, 0

    def start():
        return {"tags": {}, "moves": [], "comments": [], "closing": "", "result": "*",
                "after": []}

    def finish(g):
        after = g.pop("after")
        if g["moves"] and after and (len(after) > 1 or any(g["comments"][:-1])):
            g["comments"][-1] = after.pop(0)
        g["closing"] = " ".join(after)
        games.append(g)
    pos = 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            break
        pos = m.end()
        kind = "tag" if m.group("tag") else m.lastgroup
        if kind == "tag":
            if game is not None and (game["moves"] or game["result"] != "*"):
                finish(game)
                game = None
            game = game or start()
            game["tags"][m.group("name")] = unescape_tag(m.group("value"))
            continue
        if game is None:
            game = start()
        if kind == "paren":
            depth += 1 if m.group("paren") == "(" else -1
        elif depth > 0 or kind in ("number", "nag", "line"):
            pass
        elif kind == "comment":
            text_c = " ".join(m.group("comment").split())
            if game["moves"]:
                game["after"].append(text_c)
        elif kind == "result":
            game["result"] = m.group("result")
            finish(game)
            game = None
        elif kind == "move" or (kind == "other" and written):
            if game["moves"] and game["after"]:
                game["comments"][-1] = " ".join(game["after"])
            game["after"] = []
            game["moves"].append(m.group(kind))
            game["comments"].append("")
        else:
            raise ViewerError(f"{source}: game {len(games) + 1}: '{m.group('other')[:40]}' is not "
                              "a move in UCI form (Hansu writes moves as e.g. h3e3)")
    if game is not None and (game["moves"] or game["tags"]):
        finish(game)
    return games


def read_pgn(path):
    """The games of a PGN file, plain or gzip-compressed (GAMES.pgn.gz, scripts/pgn_file.py)."""
    try:
        return parse_pgn(pgn_file.read_text(path), path)
    except pgn_file.PgnFileError as e:
        raise ViewerError(str(e))


# --- positions from the rules core --------------------------------------------------------

class FenEngine:
    """Hansu's UCI engine as the viewer's rules core: the FEN after each ply of a game."""

    def __init__(self, path=None):
        self.path = path or DEFAULT_ENGINE
        try:
            self.proc = subprocess.Popen([self.path], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                         text=True, bufsize=1)
        except OSError as e:
            raise ViewerError(f"engine {self.path}: {e.strerror} (build it: ninja -C build "
                              "hansu, or name one with --engine)")
        self.variant = "janggi"
        self.send("uci")
        self.read_until("uciok")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()

    def send(self, line):
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except OSError:
            raise ViewerError(f"engine {self.path}: stopped (exit {self.proc.poll()})")

    def read_until(self, prefix):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise ViewerError(f"engine {self.path}: stopped (exit {self.proc.poll()})")
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines

    def set_variant(self, variant):
        if variant != self.variant:
            self.send(f"setoption name UCI_Variant value {variant}")
            self.variant = variant

    def position(self, fen, moves=()):
        """The FEN the rules core gives after moves from fen (None: the variant's start);
        ViewerError with its message when it refuses the position or a move."""
        self.send(f"position {'fen ' + fen if fen else 'startpos'}" +
                  (" moves " + " ".join(moves) if moves else ""))
        self.send("d")
        out = self.read_until("Key:")
        errors = [line[len("info string "):] for line in out if line.startswith("info string")]
        if errors:
            raise ViewerError(errors[0])
        return next(line[5:] for line in out if line.startswith("Fen: "))

    def fens(self, fen, moves):
        """The FEN before the first move and after each move (len(moves) + 1 of them); fen
        None is the variant's standard start."""
        out = [self.position(fen)]
        for i, mv in enumerate(moves):
            try:
                out.append(self.position(out[-1], [mv]))
            except ViewerError as e:
                raise ViewerError(f"ply {i + 1} ({mv}): {e}")
        return out


def record(game, engine, group="", iteration=None, source="PGN", index=0):
    """The page's record of one parsed game: its tags, moves, comments and the FEN list from
    the rules core. group names the set it belongs to (e.g. "self-play", "match")."""
    t = game["tags"]
    variant = t.get("Variant", "janggi").lower()
    if variant not in VARIANTS:
        raise ViewerError(f"{source}: game {index + 1}: variant '{variant}' is not one the viewer "
                          "draws (janggi, xiangqi)")
    engine.set_variant(variant)
    fen = t.get("FEN")  # None: the variant's standard start
    try:
        fens = engine.fens(fen, game["moves"])
    except ViewerError as e:
        raise ViewerError(f"{source}: game {index + 1} ({t.get('White', '?')} vs "
                          f"{t.get('Black', '?')}, round {t.get('Round', '?')}): {e}")
    keep = ("Event", "Round", "White", "Black", "Opening", "TimeControl", "GameId", "Date")
    return {"group": group, "iteration": iteration, "variant": variant,
            "tags": {k: t[k] for k in keep if k in t}, "result": game["result"],
            "reason": t.get("Termination", ""), "closing": game["closing"],
            "moves": game["moves"], "comments": game["comments"], "fens": fens}


# --- the page -----------------------------------------------------------------------------
# Per variant: side names, colours, the river, the pieces' shape (janggi: octagons sized by
# rank; xiangqi: discs of one size), hanja and the point values of the rules page (janggi:
# chariot 13, cannon 7, horse 5, elephant 3, guard 3, soldier 2, Han +1.5; xiangqi: none).
VARIANTS = {
    "janggi": {"sides": ["Cho", "Han"], "colours": ["#1b5fb0", "#c0182a"], "river": False,
               "round": False,
               "hanja": [{"K": "楚", "A": "士", "R": "車", "C": "包", "N": "馬", "B": "象",
                          "P": "卒"},
                         {"K": "漢", "A": "士", "R": "車", "C": "包", "N": "馬", "B": "象",
                          "P": "兵"}],
               "points": {"R": 13, "C": 7, "N": 5, "B": 3, "A": 3, "P": 2, "K": 0},
               "bonus": 1.5},
    "xiangqi": {"sides": ["Red", "Black"], "colours": ["#c0182a", "#222222"], "river": True,
                "round": True,
                "hanja": [{"K": "帥", "A": "仕", "R": "俥", "C": "炮", "N": "傌", "B": "相",
                           "P": "兵"},
                          {"K": "將", "A": "士", "R": "車", "C": "砲", "N": "馬", "B": "象",
                           "P": "卒"}],
                "points": None, "bonus": 0},
}

# The page's style, script and markup are files of their own in scripts/viewer/ (viewer.css,
# viewer.js, viewer.html), read and inlined when a page is written.
VIEWER_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "viewer")


def viewer_file(name):
    """The text of scripts/viewer/NAME; a missing or unreadable one is a ViewerError."""
    path = os.path.join(VIEWER_DIR, name)
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise ViewerError(f"{path}: {e.strerror}")


def script_json(value):
    """value as JSON that is safe inside a <script> block of a page: <, > and & written as
    \\u003c, \\u003e, \\u0026, so that no text a name holds ("</script>", "<!--", "<script")
    can end the block or switch the HTML parser into a state where later scripts become data.
    JSON.parse reads it back unchanged. Every JSON a page embeds goes through here."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


# A page whose games' JSON is larger than this embeds it gzip-compressed in base64 (about a
# fifth of the size: the FEN of every ply repeats most of the board), which the viewer unpacks
# with the browser's DecompressionStream; smaller pages keep it as plain JSON.
COMPRESS_OVER = 512 * 1024


def games_block(data, compress=None):
    """The <script> element that carries data (script_json's text) into a page: plain JSON, or
    with compress (default: when data is over COMPRESS_OVER bytes) gzip-compressed in base64,
    data-encoding="gzip-base64" (base64 holds no character that could end the block)."""
    if compress is None:
        compress = len(data.encode("utf-8")) > COMPRESS_OVER
    if not compress:
        return f'<script type="application/json" id="hansu-games">{data}</script>\n'
    packed = base64.b64encode(gzip.compress(data.encode("utf-8"), 9, mtime=0)).decode("ascii")
    return (f'<script type="application/octet-stream" id="hansu-games" '
            f'data-encoding="gzip-base64">{packed}</script>\n')


def page(title, body_html, records, viewer_intro="", compress=None):
    """The whole page: title, body_html (already HTML) and the viewer over records (their JSON
    compressed as games_block decides)."""
    data = script_json({"variants": VARIANTS, "games": records})
    # The page fetches nothing: a policy that forbids any load keeps it so in the browser.
    csp = ("default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
           "script-src 'unsafe-inline'")
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{csp}">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html.escape(title)}</title>\n<style>{viewer_file('viewer.css')}</style>\n"
            f"</head>\n<body>\n{body_html}\n{viewer_intro}\n{viewer_file('viewer.html')}"
            f"{games_block(data, compress)}"
            f"<script>{viewer_file('board.js')}</script>\n"
            f"<script>{viewer_file('viewer.js')}</script>\n</body>\n</html>\n")


