#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Where each engine's time went in a match: reads a PGN that hansu-match wrote with
--move-info (a comment {score/depth time sd= n= hf= clk=} after each move) and reports, per
engine: moves, mean depth and selective depth, nodes/s, hash fill, the effective branching
factor (nodes ^ (1 / depth)) (depths and branching factor over the moves whose score is not a
mate: an engine that has found a game end may deepen at once to its limit, as Fairy-Stockfish
reports depth 245, which would swamp the mean; those moves are counted as decided_moves), the time per move by stage of the game, the moves played with
under a tenth of the base time left, and how its games ended (wins and losses by termination:
checkmates given and suffered, bikjang, points, time, ...). Issue 40, item 1: docs/scaling.md.

Usage: scripts/match-profile.py MATCH.pgn[.gz] [--json OUT] [--md OUT]
Exit status 1 with a one-line message when the file is missing, holds no games, or its moves
carry no --move-info comments.
"""
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pgn_file import PgnFileError, read_text  # noqa: E402
from uci_engine import write_whole  # noqa: E402

PROG = "match-profile"
STAGES = ((1, 40), (41, 80), (81, 120), (121, 10 ** 6))
INFO = re.compile(r"^(?P<score>n/a|[+-]M\d+|[+-]\d+\.\d+)/(?P<depth>\d+) (?P<time>[\d.]+)s"
                  r" sd=(?P<sd>\d+) n=(?P<n>\d+)(?: hf=(?P<hf>\d+))?(?: clk=(?P<clk>[\d.]+)s)?$")


def fail(msg):
    sys.exit(f"{PROG}: {msg}")


def read_games(path):
    """[(tags, [(move, info or None)])] of a PGN file."""
    try:
        text = read_text(path)  # plain or gzip-compressed (MATCH.pgn.gz)
    except PgnFileError as e:
        fail(str(e))
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


def base_seconds(tc):
    m = re.match(r"^(\d+(?:\.\d+)?)\+", tc or "")
    return float(m.group(1)) if m else None


def profile(games):
    eng = {}

    def e(name):
        return eng.setdefault(name, {"moves": 0, "decided": 0, "depth": 0, "seldepth": 0,
                                     "nodes": 0,
                                     "time": 0.0, "hf": [], "ebf": [], "low_clock": 0,
                                     "stage_time": [0.0] * len(STAGES),
                                     "stage_moves": [0] * len(STAGES), "games": 0,
                                     "wins": {}, "losses": {}, "draws": 0})
    with_info = 0
    for tags, moves in games:
        names = (tags.get("White", "?"), tags.get("Black", "?"))
        first = 1 if " b " in tags.get("FEN", " w ") else 0  # the side to move first
        base = base_seconds(tags.get("TimeControl"))
        for i, (_, info) in enumerate(moves):
            if not info:
                continue
            with_info += 1
            s = e(names[(first + i) % 2])
            t, n, d = float(info["time"]), int(info["n"]), int(info["depth"])
            s["moves"] += 1
            s["nodes"] += n
            s["time"] += t
            if info["hf"] is not None:
                s["hf"].append(int(info["hf"]))
            if "M" in info["score"]:
                s["decided"] += 1
            else:
                s["depth"] += d
                s["seldepth"] += int(info["sd"])
                if d > 0 and n > 0:
                    s["ebf"].append(n ** (1.0 / d))
            if base and info["clk"] is not None and float(info["clk"]) < base / 10:
                s["low_clock"] += 1
            for k, (lo, hi) in enumerate(STAGES):
                if lo <= i + 1 <= hi:
                    s["stage_time"][k] += t
                    s["stage_moves"][k] += 1
        result, term = tags.get("Result"), tags.get("Termination", "?")
        for side, name in enumerate(names):
            s = e(name)
            s["games"] += 1
            if result == "1/2-1/2":
                s["draws"] += 1
            elif result in ("1-0", "0-1"):
                won = (result == "1-0") == (side == 0)
                box = s["wins"] if won else s["losses"]
                box[term] = box.get(term, 0) + 1
    if not with_info:
        fail("no move carries a --move-info comment (play the match with --move-info)")
    rows = []
    for name, s in eng.items():
        m, searched = max(s["moves"], 1), s["moves"] - s["decided"]
        rows.append({"engine": name, "games": s["games"], "moves": s["moves"],
                     "decided_moves": s["decided"],
                     "depth": s["depth"] / searched if searched else None,
                     "seldepth": s["seldepth"] / searched if searched else None,
                     "nps": s["nodes"] / s["time"] if s["time"] > 0 else None,
                     "hashfull": sum(s["hf"]) / len(s["hf"]) if s["hf"] else None,
                     "ebf": sum(s["ebf"]) / len(s["ebf"]) if s["ebf"] else None,
                     "seconds_per_move": s["time"] / m,
                     "seconds_per_move_by_stage": {
                         f"{lo}-{hi if hi < 10 ** 6 else ''}": (
                             s["stage_time"][k] / s["stage_moves"][k] if s["stage_moves"][k]
                             else None) for k, (lo, hi) in enumerate(STAGES)},
                     "low_clock_moves": s["low_clock"], "wins": s["wins"],
                     "losses": s["losses"], "draws": s["draws"]})
    return rows


def markdown(rows, path):
    def f(x, d=1):
        return "-" if x is None else f"{x:.{d}f}"
    out = [f"Profile of {os.path.basename(path)}\n",
           "| engine | games | moves | mate scores | depth | seldepth | nodes/s | EBF | hashfull ‰ "
           "| s/move | s/move by ply 1-40, 41-80, 81-120, 121- | moves under 10 % clock |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        st = ", ".join(f(v, 2) for v in r["seconds_per_move_by_stage"].values())
        out.append(f"| {r['engine']} | {r['games']} | {r['moves']} | {r['decided_moves']} | "
                   f"{f(r['depth'])} | "
                   f"{f(r['seldepth'])} | {f(r['nps'], 0)} | {f(r['ebf'], 2)} | "
                   f"{f(r['hashfull'], 0)} | {f(r['seconds_per_move'], 3)} | {st} | "
                   f"{r['low_clock_moves']} |")
    out += ["", "| engine | wins by | losses by | draws |", "|---|---|---|---|"]
    for r in rows:
        def by(d):
            return ", ".join(f"{k} {v}" for k, v in sorted(d.items())) or "-"
        out.append(f"| {r['engine']} | {by(r['wins'])} | {by(r['losses'])} | {r['draws']} |")
    return "\n".join(out) + "\n"


def write_or_fail(path, text):
    why = write_whole(path, text)
    if why:
        fail(why)


def main():
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n")[0])
    ap.add_argument("pgn")
    ap.add_argument("--json")
    ap.add_argument("--md")
    a = ap.parse_args()
    games = read_games(a.pgn)
    if not games:
        fail(f"{a.pgn}: no games")
    rows = profile(games)
    md = markdown(rows, a.pgn)
    if a.json:
        write_or_fail(a.json, json.dumps({"pgn": a.pgn, "engines": rows}, indent=1) + "\n")
    if a.md:
        write_or_fail(a.md, md)
    sys.stdout.write(md)


if __name__ == "__main__":
    main()
