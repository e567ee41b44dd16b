# SPDX-License-Identifier: MIT
"""A move as people write it in a PGN, read as the UCI move it names (scripts/play's PGN
loading, docs/play.md "Load and save").

Nothing here applies a rule. A word in UCI form (`h3e3`, `h3-e3`, `H3xE3`) is handed to the
engine as it is, and the engine accepts or refuses it with its own reason. Any other form is
matched against the legal moves the engine lists at that position (`go perft 1`), on the board
the engine writes (its FEN): the one legal move the word describes is the move; a word that
describes none, or several, is refused with the reason. The forms read:

- UCI, as Hansu and Fairy-Stockfish write it: `h3e3`, `a10a9`; a janggi pass as the general's
  point twice (`e2e2`), `0000`, `@@@@`, `pass` or `--`;
- ICCS, xiangqi's coordinates with ranks 0-9 (`h2e2`, `H2-E2`): in a game with the tag
  `[Format "ICCS"]`, or whose coordinates name rank 0 and never rank 10;
- SAN as Fairy-Stockfish and GUIs over it write janggi and xiangqi (`Che3`, `Nc3`, `Rxa10`,
  `Nbc3`, `e5` or `Pe5` for a soldier); letters K/G, A, R, C, N/H, B/E, P;
- xiangqi's WXF (`C2=5`, `C2.5`, `H8+7`, `R9-1`; two on a file `+R+1`, `-C=5` or `R++1`)
  and Chinese notation (`炮二平五`, `马８进７`, `前车进一`), files counted from the mover's
  right.
A trailing check mark or comment sign (`+`, `#`, `!`, `?`) is ignored.

    uci = move_text.to_uci("C2=5", "xiangqi", fen, legal)   # "h3e3"; MoveTextError otherwise
"""
import re

FILES = "abcdefghi"
PASS_WORDS = ("0000", "@@@@", "pass", "--")
# Piece letters as people write them, to the letters of Hansu's FENs.
LETTERS = {"K": "K", "G": "K", "A": "A", "R": "R", "C": "C", "N": "N", "H": "N", "B": "B",
           "E": "B", "P": "P"}
STRAIGHT = "KRCP"  # WXF counts these pieces' forward and backward moves in ranks

UCI = re.compile(r"([a-i])(10|[1-9])[-x]?([a-i])(10|[1-9])", re.I)
ICCS = re.compile(r"([a-i])([0-9])[-x]?([a-i])([0-9])", re.I)
SAN = re.compile(r"([KGARCNHBEP])?([a-i])?(10|[1-9])?[-x]?([a-i])(10|[1-9])")
WXF = re.compile(r"([+-])?([KGARCNHBEP])([1-9+-])?([+=.-])([1-9])", re.I)

# Chinese notation, to WXF: pieces (simplified and traditional, both sides' characters), file
# numerals (Red's Chinese, Black's full-width or ASCII), the moves' verbs, front and rear.
CHINESE_PIECES = {**dict.fromkeys("车車俥伡", "R"), **dict.fromkeys("马馬傌", "H"),
                  **dict.fromkeys("炮砲包", "C"), **dict.fromkeys("相象", "E"),
                  **dict.fromkeys("仕士", "A"), **dict.fromkeys("帅帥将將", "K"),
                  **dict.fromkeys("兵卒", "P")}
CHINESE_NUMBERS = {**{c: str(i + 1) for i, c in enumerate("一二三四五六七八九")},
                   **{c: str(i + 1) for i, c in enumerate("１２３４５６７８９")},
                   **{str(i): str(i) for i in range(1, 10)}}
CHINESE_VERBS = {"进": "+", "進": "+", "退": "-", "平": "="}
CHINESE_PLACES = {"前": "+", "后": "-", "後": "-"}


class MoveTextError(Exception):
    """A word that names no legal move, or several; the message says which and why."""


def board_of(fen):
    """{square: FEN letter} of a FEN's placement (the engine's FEN: 10 ranks of 9 points)."""
    out = {}
    for i, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
            else:
                out[f"{FILES[f]}{10 - i}"] = c
                f += 1
    return out


def split_uci(mv):
    m = UCI.fullmatch(mv)
    return (m.group(1) + m.group(2), m.group(3) + m.group(4)) if m else (None, None)


def is_iccs(tags, words):
    """True when a game's coordinate moves are ICCS's (ranks 0-9): a Format tag saying so, or
    a coordinate word with rank 0 and none with rank 10."""
    if tags.get("Format", "").strip().upper() == "ICCS":
        return True
    coords = [w for w in (clean(x) for x in words) if ICCS.fullmatch(w) or UCI.fullmatch(w)]
    return (any(not UCI.fullmatch(w) for w in coords) and
            not any(UCI.fullmatch(w) and "10" in w for w in coords))


def clean(word):
    """The word without a comment sign (!, ?) or mate mark (#) after it."""
    return word.rstrip("!?#")


def to_uci(word, variant, fen, legal, iccs=False):
    """The UCI move that word names at the position fen (the engine's), legal the engine's
    legal moves there (UCI strings); iccs: coordinates count ranks 0-9. A word in UCI form is
    returned as it stands, for the engine to judge. MoveTextError when the word is in no form
    read here, or names no legal move, or several."""
    w = clean(word)
    for text in (w, w[:-1] if w.endswith("+") else None):
        if text:
            got = _read(text, variant, fen, legal, iccs)
            if got:
                return got
    raise MoveTextError(f"'{word}' is not a move in a notation Hansu reads (UCI h3e3, SAN Che3"
                        + (", WXF C2=5, Chinese 炮二平五, ICCS h2-e2" if variant == "xiangqi"
                           else "") + ")")


def _read(w, variant, fen, legal, iccs):
    """The move of w in the first form it fits; None when it fits no form."""
    if w.lower() in PASS_WORDS:
        passes = [m for m in legal if len(set(split_uci(m))) == 1]
        return passes[0] if passes else "0000"  # the engine says why no pass is legal here
    m = ICCS.fullmatch(w) if iccs else UCI.fullmatch(w)
    if m:
        up = 1 if iccs else 0
        return "".join((m.group(1).lower(), str(int(m.group(2)) + up), m.group(3).lower(),
                        str(int(m.group(4)) + up)))
    m = SAN.fullmatch(w)
    if m:
        return _san(w, m, fen, legal)
    if variant == "xiangqi":
        wxf = _from_chinese(w) if re.search(r"[^\x00-\x7f]", w) else w
        m = WXF.fullmatch(wxf) if wxf else None
        if m:
            return _wxf(w, m, fen, legal)
    return None


def _one(word, found, none):
    if len(found) == 1:
        return found[0]
    if not found:
        raise MoveTextError(f"'{word}': {none}")
    raise MoveTextError(f"'{word}' names {len(found)} legal moves here ({', '.join(found)})")


def _san(word, m, fen, legal):
    mover = board_of(fen)  # the side to move's letters: upper case for w, lower for b
    side_upper = fen.split()[1] == "w"
    kind = LETTERS[m.group(1)] if m.group(1) else "P"
    to = m.group(4) + m.group(5)
    found = []
    for mv in legal:
        frm, dest = split_uci(mv)
        piece = mover.get(frm, "")
        if (dest != to or frm == dest or piece.upper() != kind or piece.isupper() != side_upper
                or (m.group(2) and frm[0] != m.group(2))
                or (m.group(3) and frm[1:] != m.group(3))):
            continue
        found.append(mv)
    name = {"K": "general", "A": "guard", "R": "chariot", "C": "cannon", "N": "horse",
            "B": "elephant", "P": "soldier"}[kind]
    return _one(word, found, f"no {name} of the side to move can go to {to}")


def _from_chinese(w):
    """Chinese notation (炮二平五, 前车进一) as WXF (C2=5, +R+1); None when it is not."""
    w = w.strip()
    if len(w) != 4:
        return None
    if w[0] in CHINESE_PLACES:
        piece, where = CHINESE_PIECES.get(w[1]), CHINESE_PLACES[w[0]]
    else:
        piece, where = CHINESE_PIECES.get(w[0]), CHINESE_NUMBERS.get(w[1])
    verb, n = CHINESE_VERBS.get(w[2]), CHINESE_NUMBERS.get(w[3])
    if not (piece and where and verb and n):
        return None
    return piece + where + verb + n


def _wxf(word, m, fen, legal):
    """WXF: files numbered 1-9 from the mover's right; + forward, - back, = (or .) along the
    rank; the number after + or - is ranks for the general, chariot, cannon and soldier, the
    file arrived at for the others; + or - before or after the letter: the front or rear of
    two (or more) of that piece on one file."""
    board = board_of(fen)
    red = fen.split()[1] == "w"
    kind = LETTERS[m.group(2).upper()]
    place = m.group(1) or (m.group(3) if m.group(3) in ("+", "-") else None)
    file_no = m.group(3) if m.group(3) and m.group(3).isdigit() else None
    op = "=" if m.group(4) == "." else m.group(4)
    n = int(m.group(5))

    def wxf_file(sq):
        f = FILES.index(sq[0])
        return 9 - f if red else f + 1

    def ahead(sq):  # how far up the board for the mover
        return int(sq[1:]) if red else 11 - int(sq[1:])

    mine = [sq for sq, c in board.items() if c.upper() == kind and c.isupper() == red]
    found = []
    for mv in legal:
        frm, to = split_uci(mv)
        if frm not in mine or frm == to:
            continue
        if file_no and wxf_file(frm) != int(file_no):
            continue
        if place:
            same = sorted((sq for sq in mine if sq[0] == frm[0]), key=ahead)
            if len(same) < 2 or frm != (same[-1] if place == "+" else same[0]):
                continue
        if not place and not file_no:
            continue
        step = ahead(to) - ahead(frm)
        if op == "=":
            ok = step == 0 and wxf_file(to) == n
        else:
            ok = (step > 0) == (op == "+") and step != 0 and (
                abs(step) == n and frm[0] == to[0] if kind in STRAIGHT else wxf_file(to) == n)
        if ok:
            found.append(mv)
    return _one(word, found, "no legal move of the side to move fits it")
