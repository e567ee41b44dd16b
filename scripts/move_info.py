# SPDX-License-Identifier: MIT
"""The games of a PGN written by hansu-match --move-info, and each engine's own scores in them.

After each move hansu-match --move-info writes the engine's last info line and the referee's
clock as a comment, {SCORE/DEPTH TIME sd=SELDEPTH n=NODES [hf=HASHFULL] [clk=CLOCK]}, SCORE in
pawns from the mover's view (+0.30), a mate (+M3, -M2) or n/a. Read by scripts/match-profile.py
and scripts/surprise-suite.py (issue 40, docs/scaling.md)."""
import re

from pgn_file import read_text

INFO = re.compile(r"^(?P<score>n/a|[+-]M\d+|[+-]\d+\.\d+)/(?P<depth>\d+) (?P<time>[\d.]+)s"
                  r" sd=(?P<sd>\d+) n=(?P<n>\d+)(?: hf=(?P<hf>\d+))?(?: clk=(?P<clk>[\d.]+)s)?$")
MATE_CP = 100000  # a mate score, in centipawns
UNDECIDED_CP = 1000  # a score within this is a game not yet decided in the engine's view


def read_games(path):
    """[(tags, [[move, info or None]])] of a PGN file, plain or gzip-compressed; info the
    comment's fields (INFO's groups, strings). Raises pgn_file.PgnFileError naming the file."""
    text = read_text(path)
    games = []
    for chunk in re.split(r"\n(?=\[Event )", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', chunk, re.M))
        if not tags:
            continue
        body = "\n".join(ln for ln in chunk.splitlines() if not ln.startswith("["))
        moves = []
        for tok in re.finditer(r"\{([^}]*)\}|([a-i]\d+[a-i]\d+)", body):
            if tok.group(2):
                moves.append([tok.group(2), None])
            elif moves and moves[-1][1] is None:
                m = INFO.match(" ".join(tok.group(1).split()))  # a line may wrap inside
                if m:
                    moves[-1][1] = m.groupdict()
        games.append((tags, moves))
    return games


def names_and_first(tags):
    """(White's name, Black's name), and which of them moved first (1 when the FEN says b)."""
    return ((tags.get("White", "?"), tags.get("Black", "?")),
            1 if " b " in tags.get("FEN", " w ") else 0)


def centipawns(score):
    """An engine's score in centipawns (a mate as +-MATE_CP), or None for n/a."""
    if score == "n/a":
        return None
    if "M" in score:
        return MATE_CP if score[0] == "+" else -MATE_CP
    return round(float(score) * 100)


def scores_by_engine(names, first, moves):
    """{engine: [(ply, centipawns or None)]}: each engine's moves of a game, plies from 1."""
    seq = {n: [] for n in names}
    for i, (_, info) in enumerate(moves):
        seq[names[(first + i) % 2]].append((i + 1, centipawns(info["score"]) if info else None))
    return seq


def scored_pairs(xs):
    """[(ply, a, b)]: an engine's consecutive moves (its scores xs as scores_by_engine gives
    them) whose first score a is within +-UNDECIDED_CP and whose next b is a score, not a mate;
    a - b is how far its view fell by its next move (a surprise when large)."""
    return [(p, a, b) for (p, a), (_, b) in zip(xs, xs[1:])
            if a is not None and b is not None and abs(a) <= UNDECIDED_CP and abs(b) < MATE_CP]
