#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Where each engine's time went in a match: reads a PGN that hansu-match wrote with
--move-info (a comment {score/depth time sd= n= hf= clk=} after each move) and reports, per
engine: moves, mean depth and selective depth, nodes/s, hash fill, the effective branching
factor (nodes ^ (1 / depth)) (depths and branching factor over the moves whose score is not a
mate: an engine that has found a game end may deepen at once to its limit, as Fairy-Stockfish
reports depth 245, which would swamp the mean; those moves are counted as decided_moves), by
stage of the game (plies 1-40, 41-80, 81-120, 121-) the time and nodes per move and the clock
left after its last move in the stage that carries one (the mean over the games, seconds; a game
that ends inside a stage counts its last clock there, a game without clk= comments in none), the
moves played with under a tenth of the base time left, and how its games ended (wins and losses
by termination: checkmates given and suffered, bikjang, points, time, ...). Issue 40, item 1:
docs/scaling.md.

How the games turned, from each engine's own scores (centipawns, its side's view; a mate score
counts as 100,000; so a threshold means what the engine's own scale makes it):
- surprises: its moves scored within +-1000 cp (the game not yet decided in its view) whose
  score falls by at least --surprise-cp (150) by its next move (not a mate score either): the
  reply, or its own next search, showed what it had not seen; per 100 such moves.
- foresight, in each decisive game: the winner's ply is its first move from which every later
  score of its is at least +--lead-cp (200), the loser's its first from which every later one is
  at most -LEAD (the game's length when there is none); lead = loser's ply - winner's ply, > 0
  when the winner saw the end first. Per engine as the winner: games, mean lead in plies, and
  how many it saw first and how many its opponent did.
- scale: the median |score| of its moves scored within +-1000 cp. Engines score on their own
  scales (Hansu's net about twice Fairy-Stockfish 11.1's in these games), so compare one
  engine's surprises across clocks, or two engines at thresholds in the ratio of their scales.

Usage: scripts/match-profile.py MATCH.pgn[.gz] [--json OUT] [--md OUT] [--surprise-cp CP]
       [--lead-cp CP]
Exit status 1 with a one-line message when the file is missing, holds no games, or its moves
carry no --move-info comments.
"""
import argparse
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import move_info  # noqa: E402
from pgn_file import PgnFileError  # noqa: E402
from uci_engine import write_whole  # noqa: E402

PROG = "match-profile"
STAGES = ((1, 40), (41, 80), (81, 120), (121, 10 ** 6))


def fail(msg):
    sys.exit(f"{PROG}: {msg}")


def read_games(path):
    try:
        return move_info.read_games(path)
    except PgnFileError as e:
        fail(str(e))


def base_seconds(tc):
    m = re.match(r"^(\d+(?:\.\d+)?)\+", tc or "")
    return float(m.group(1)) if m else None


def stage_name(lo, hi):
    """A stage's key in the JSON: "1-40", ..., "121-"."""
    return f"{lo}-{hi if hi < 10 ** 6 else ''}"


def turning(games, surprise_cp, lead_cp):
    """{engine: {"scored_pairs", "surprises", "won", "lead_plies", "won_seen_first",
    "won_seen_by_loser_first", "abs_scores"}} over games (see the module text)."""
    out = {}

    def e(name):
        return out.setdefault(name, {"scored_pairs": 0, "surprises": 0, "won": 0,
                                     "lead_plies": 0, "won_seen_first": 0,
                                     "won_seen_by_loser_first": 0, "abs_scores": []})
    for tags, moves in games:
        names, first = move_info.names_and_first(tags)
        seq = move_info.scores_by_engine(names, first, moves)
        for name, xs in seq.items():
            s = e(name)
            s["abs_scores"] += [abs(v) for _, v in xs if v is not None and abs(v) <= 1000]
            pairs = move_info.scored_pairs(xs)
            s["scored_pairs"] += len(pairs)
            s["surprises"] += sum(a - b >= surprise_cp for _, a, b in pairs)
        result = tags.get("Result")
        if result not in ("1-0", "0-1"):
            continue
        winner = names[0] if result == "1-0" else names[1]
        loser = names[1] if winner == names[0] else names[0]
        length = len(moves)

        def since(xs, ok):  # the first ply from which every later score is ok
            ply = length
            for p, v in reversed(xs):
                if v is None or not ok(v):
                    break
                ply = p
            return ply
        w = since(seq[winner], lambda v: v >= lead_cp)
        lo = since(seq[loser], lambda v: v <= -lead_cp)
        s = e(winner)
        s["won"] += 1
        s["lead_plies"] += lo - w
        s["won_seen_first"] += lo > w
        s["won_seen_by_loser_first"] += lo < w
    return out


def profile(games, surprise_cp=150, lead_cp=200):
    eng = {}

    def e(name):
        return eng.setdefault(name, {"moves": 0, "decided": 0, "depth": 0, "seldepth": 0,
                                     "nodes": 0,
                                     "time": 0.0, "hf": [], "ebf": [], "low_clock": 0,
                                     "stage_time": [0.0] * len(STAGES),
                                     "stage_moves": [0] * len(STAGES),
                                     "stage_nodes": [0] * len(STAGES),
                                     "stage_clock": [[] for _ in STAGES], "games": 0,
                                     "wins": {}, "losses": {}, "draws": 0})
    with_info = 0
    for tags, moves in games:
        names, first = move_info.names_and_first(tags)
        base = base_seconds(tags.get("TimeControl"))
        last_clock = {}  # (side, stage) -> its clock after its last move with one in the stage
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
                    s["stage_nodes"][k] += n
                    s["stage_moves"][k] += 1
                    if info["clk"] is not None:
                        last_clock[((first + i) % 2, k)] = float(info["clk"])
        for (side, k), clk in last_clock.items():
            eng[names[side]]["stage_clock"][k].append(clk)
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
    turns = turning(games, surprise_cp, lead_cp)
    rows = []
    def by_stage(value):  # {stage's key: value(its index)}
        return {stage_name(lo, hi): value(k) for k, (lo, hi) in enumerate(STAGES)}
    for name, s in eng.items():
        m, searched = max(s["moves"], 1), s["moves"] - s["decided"]
        t = turns.get(name, {})

        def per_move(key, s=s):  # the stage's total of key over its moves
            return by_stage(lambda k: s[key][k] / s["stage_moves"][k] if s["stage_moves"][k]
                            else None)
        rows.append({"engine": name, "games": s["games"], "moves": s["moves"],
                     "decided_moves": s["decided"],
                     "depth": s["depth"] / searched if searched else None,
                     "seldepth": s["seldepth"] / searched if searched else None,
                     "nps": s["nodes"] / s["time"] if s["time"] > 0 else None,
                     "hashfull": sum(s["hf"]) / len(s["hf"]) if s["hf"] else None,
                     "ebf": sum(s["ebf"]) / len(s["ebf"]) if s["ebf"] else None,
                     "seconds_per_move": s["time"] / m,
                     "seconds_per_move_by_stage": per_move("stage_time"),
                     "nodes_per_move_by_stage": per_move("stage_nodes"),
                     "clock_after_stage": by_stage(
                         lambda k: (statistics.mean(s["stage_clock"][k]) if s["stage_clock"][k]
                                    else None)),
                     "low_clock_moves": s["low_clock"], "wins": s["wins"],
                     "losses": s["losses"], "draws": s["draws"],
                     "surprises": t.get("surprises", 0),
                     "surprises_per_100": (100 * t["surprises"] / t["scored_pairs"]
                                           if t.get("scored_pairs") else None),
                     "wins_seen_first": t.get("won_seen_first", 0),
                     "wins_seen_by_loser_first": t.get("won_seen_by_loser_first", 0),
                     "win_lead_plies": (t["lead_plies"] / t["won"] if t.get("won") else None),
                     "score_scale": (statistics.median(t["abs_scores"]) if t.get("abs_scores")
                                     else None)})
    return rows


def markdown(rows, path, surprise_cp=150, lead_cp=200):
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
    names = ", ".join(stage_name(lo, hi) for lo, hi in STAGES)
    out += ["", f"| engine | nodes/move by ply {names} | clock left after each, s |",
            "|---|---|---|"]
    for r in rows:
        nodes = ", ".join(f(v, 0) for v in r["nodes_per_move_by_stage"].values())
        clock = ", ".join(f(v) for v in r["clock_after_stage"].values())
        out.append(f"| {r['engine']} | {nodes} | {clock} |")
    if len(rows) == 2:
        a, b = rows
        ratio = [x / y if x is not None and y else None for x, y in
                 zip(a["nodes_per_move_by_stage"].values(), b["nodes_per_move_by_stage"].values())]
        out.append(f"| {a['engine']} / {b['engine']} | {', '.join(f(v, 2) for v in ratio)} | |")
    out += ["", "| engine | wins by | losses by | draws |", "|---|---|---|---|"]
    for r in rows:
        def by(d):
            return ", ".join(f"{k} {v}" for k, v in sorted(d.items())) or "-"
        out.append(f"| {r['engine']} | {by(r['wins'])} | {by(r['losses'])} | {r['draws']} |")
    out += ["", f"| engine | scale, cp | surprises (fall >= {surprise_cp} cp) | per 100 moves | "
            f"wins | seen first by the winner | by the loser | mean lead, plies (+-{lead_cp} cp) |",
            "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        won = sum(r["wins"].values())
        out.append(f"| {r['engine']} | {f(r['score_scale'], 0)} | {r['surprises']} | "
                   f"{f(r['surprises_per_100'])} | {won} | "
                   f"{r['wins_seen_first']} | {r['wins_seen_by_loser_first']} | "
                   f"{f(r['win_lead_plies'])} |")
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
    ap.add_argument("--surprise-cp", type=int, default=150, metavar="CP")
    ap.add_argument("--lead-cp", type=int, default=200, metavar="CP")
    a = ap.parse_args()
    if a.surprise_cp <= 0 or a.lead_cp <= 0:
        fail("--surprise-cp and --lead-cp take a positive number of centipawns")
    games = read_games(a.pgn)
    if not games:
        fail(f"{a.pgn}: no games")
    rows = profile(games, a.surprise_cp, a.lead_cp)
    md = markdown(rows, a.pgn, a.surprise_cp, a.lead_cp)
    if a.json:
        write_or_fail(a.json, json.dumps({"pgn": a.pgn, "engines": rows}, indent=1) + "\n")
    if a.md:
        write_or_fail(a.md, md)
    sys.stdout.write(md)


if __name__ == "__main__":
    main()
