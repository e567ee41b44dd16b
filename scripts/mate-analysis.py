#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Why Hansu gets mated: walks back from every checkmate Hansu lost in a match PGN.

For each game Hansu lost by checkmate, from the mate backwards over the positions with Hansu to
move, Fairy-Stockfish (a reference analyser only, never a dependency of the engine) searches at
a fixed node count until it no longer sees a decisive score against Hansu (a mate, or
<= -DECISIVE cp). That gives:
  D  the first position (Hansu to move) of the unbroken decisive run before the mate,
  P  the position one Hansu move before D, where Hansu still stood non-decisively: the move
     Hansu played there is the losing move.
At every walked position Hansu searches `go nodes 20000` (the match's budget; a fresh
`ucinewgame`, so its TT is empty where the match's was warm) and at P and D also
`go nodes 200000`. Where the 200k search picks another move than the game's at P, the position
after it is searched by Fairy-Stockfish to see whether it avoids the loss. The losing move and
the attacker's moves from D to the mate are classified (capture, check, quiet check, quiet
non-check), and the material and the pieces around Hansu's general are counted at P.

Output: a JSON file (one record per game plus totals) and a markdown summary. Usage:
  scripts/mate-analysis.py --pgn /tmp/m25/suite-20k.pgn --out-json mates.json --out-md mates.md
Runs one engine process of each at a time (one core). Exit status 1 with a one-line message on
bad input (missing file, unparsable PGN, an engine that does not answer).
"""
import argparse
import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pgn_file import PgnFileError  # noqa: E402
from uci_engine import Engine, read_pgn  # noqa: E402

POINTS = {"r": 13, "c": 7, "n": 5, "b": 3, "a": 3, "p": 2, "k": 0}
NAMES = {"r": "chariot", "c": "cannon", "n": "horse", "b": "elephant", "a": "guard",
         "p": "soldier", "k": "general"}


def value(res):
    """A search result as one number from the side to move's view: cp, or +-100000 - plies."""
    if res["mate"] is not None:
        m = res["mate"]
        return 100000 - 2 * m if m > 0 else -100000 - 2 * m
    return res["cp"]


def fsf_board(fsf, fen, moves):
    """Fairy-Stockfish's `d`: the FEN and whether the side to move is in check."""
    fsf.position(fen, moves)
    fsf.send("d")
    out_fen, checkers = None, ""
    for line in fsf.wait_for("Checkers:"):
        if line.startswith("Fen: "):
            out_fen = line[5:].strip()
        if line.startswith("Checkers:"):
            checkers = line[len("Checkers:"):].strip()
    return out_fen, bool(checkers)


def parse_fen(fen):
    """{(file 0-8, rank 1-10): letter} from a janggi FEN (rank 10 first)."""
    board = {}
    for r, row in enumerate(fen.split()[0].split("/")):
        rank, f = 10 - r, 0
        for tok in re.findall(r"\d+|[A-Za-z]", row):
            if tok.isdigit():
                f += int(tok)
            else:
                board[(f, rank)] = tok
                f += 1
    return board


def square(s):
    return ord(s[0]) - ord("a"), int(s[1:])


def split_move(m):
    mm = re.fullmatch(r"([a-i]\d+)([a-i]\d+)", m)
    return square(mm.group(1)), square(mm.group(2))


def surroundings(fen, hansu_upper):
    """Material and the pieces around Hansu's general in a FEN (hansu_upper: Hansu is Cho)."""
    board = parse_fen(fen)
    own = str.isupper if hansu_upper else str.islower
    palace = range(1, 4) if hansu_upper else range(8, 11)
    zone = range(1, 6) if hansu_upper else range(6, 11)  # the palace and two ranks before it
    mat = {"hansu": 0, "fsf": 0}
    own_count = {k: 0 for k in NAMES}
    opp_count = {k: 0 for k in NAMES}
    in_palace_own, in_palace_opp, in_zone_opp = [], [], []
    general = None
    for (f, r), p in board.items():
        kind = p.lower()
        side = "hansu" if own(p) else "fsf"
        mat[side] += POINTS[kind]
        (own_count if side == "hansu" else opp_count)[kind] += 1
        if kind == "k" and side == "hansu":
            general = "abcdefghi"[f] + str(r)
        if 3 <= f <= 5 and r in palace and kind != "k":
            (in_palace_own if side == "hansu" else in_palace_opp).append(NAMES[kind])
        if side == "fsf" and 2 <= f <= 6 and r in zone and kind not in "k":
            in_zone_opp.append(NAMES[kind])
    return {
        "material_hansu": mat["hansu"], "material_fsf": mat["fsf"],
        "hansu_guards": own_count["a"], "hansu_elephants": own_count["b"],
        "hansu_pieces": {NAMES[k]: v for k, v in own_count.items() if k != "k"},
        "fsf_pieces": {NAMES[k]: v for k, v in opp_count.items() if k != "k"},
        "general": general, "palace_defenders": sorted(in_palace_own),
        "palace_attackers": sorted(in_palace_opp), "zone_attackers": sorted(in_zone_opp),
    }


def hansu_lost_by_mate(g, name):
    t = g["tags"]
    if t.get("Termination") != "checkmate":
        return None
    if t.get("White") == name and t.get("Result") == "0-1":
        return "w"
    if t.get("Black") == name and t.get("Result") == "1-0":
        return "b"
    return None


def brief(res):
    return {"cp": res["cp"], "mate": res["mate"], "depth": res["depth"], "best": res["best"],
            "pv": res["pv"][:12]}


def analyse_game(g, hansu_side, fsf, hansu, a, log):
    fen, moves = g["tags"]["FEN"], g["moves"]
    n = len(moves)
    first_white = fen.split()[1] == "w"
    # Plies i (position after moves[:i]) with Hansu to move.
    def hansu_to_move(i):
        white_to_move = (i % 2 == 0) == first_white
        return white_to_move == (hansu_side == "w")
    assert hansu_to_move(n), "the mated side is to move after the last ply"
    walked = []  # from the mate backwards
    i = n - 2
    decisive_start, p_index = None, None
    while i >= 0 and len(walked) < a.max_back:
        f = fsf.go(fen, moves[:i], a.fsf_nodes)
        h = hansu.go(fen, moves[:i], a.nodes)
        rec = {"ply": i, "plies_to_mate": n - i, "fsf": brief(f), "hansu20k": brief(h),
               "played": moves[i]}
        walked.append(rec)
        decisive = value(f) <= -a.decisive
        rec["fsf_decisive"] = decisive
        if not decisive:
            p_index = i
            break
        decisive_start = i
        i -= 2
    rec_game = {"game": g["index"], "round": g["tags"].get("Round"),
                "opening": g["tags"].get("Opening"),
                "hansu_side": hansu_side, "plies": n, "walked": walked}
    if decisive_start is None:
        decisive_start = n - 2 if n >= 2 else 0  # the losing move is the one right before the mate
    rec_game["decisive_ply"] = decisive_start
    rec_game["decisive_plies_to_mate"] = n - decisive_start
    rec_game["losing_ply"] = p_index
    # Where Hansu's 20k search first reported its own mate (walking forward), and FSF's.
    hansu_seen = [r for r in walked if (r["hansu20k"]["mate"] or 0) < 0]
    fsf_seen = [r for r in walked if (r["fsf"]["mate"] or 0) < 0]
    rec_game["hansu20k_mate_first_plies_to_mate"] = (
        max(r["plies_to_mate"] for r in hansu_seen) if hansu_seen else None)
    rec_game["fsf_mate_first_plies_to_mate"] = (
        max(r["plies_to_mate"] for r in fsf_seen) if fsf_seen else None)
    d_rec = next(r for r in walked if r["ply"] == decisive_start) if any(
        r["ply"] == decisive_start for r in walked) else None
    rec_game["fsf_mate_at_decisive"] = bool(d_rec and d_rec["fsf"]["mate"] is not None)
    # Hansu at 200k at D.
    if d_rec:
        h2 = hansu.go(fen, moves[:decisive_start], a.nodes_high)
        rec_game["hansu200k_at_decisive"] = brief(h2)
    # The losing move at P.
    if p_index is not None:
        m = moves[p_index]
        fen_p, _ = fsf_board(fsf, fen, moves[:p_index])
        board_p = parse_fen(fen_p)
        (ff, fr), (tf, tr) = split_move(m)
        _, gives_check = fsf_board(fsf, fen, moves[:p_index + 1])
        after = fsf.go(fen, moves[:p_index + 1], a.fsf_nodes)
        h2 = hansu.go(fen, moves[:p_index], a.nodes_high)
        lm = {"move": m, "pass": (ff, fr) == (tf, tr),
              "capture": (ff, fr) != (tf, tr) and (tf, tr) in board_p,
              "piece": NAMES[board_p[(ff, fr)].lower()], "gives_check": gives_check,
              "in_check_before": fsf_board(fsf, fen, moves[:p_index])[1],
              "fsf_after_hansu_view": dict(negated(after), depth=after["depth"]),
              "hansu200k": brief(h2), "hansu20k_best_equals_played":
                  walked[-1]["hansu20k"]["best"] == m}
        if h2["best"] and h2["best"] != m:
            alt = fsf.go(fen, moves[:p_index] + [h2["best"]], a.fsf_nodes)
            lm["fsf_after_200k_move_hansu_view"] = negated(alt)
            lm["200k_avoids"] = -value(alt) > -a.decisive
        else:
            lm["200k_avoids"] = False
        rec_game["losing_move"] = lm
        rec_game["at_losing_move"] = surroundings(fen_p, hansu_side == "w")
    # The attack from D to the mate: the attacker's moves classified.
    seq = {"fsf_moves": 0, "checks": 0, "quiet_checks": 0, "capture_checks": 0,
           "quiet_non_checks": 0, "captures_non_check": 0, "hansu_in_check_moves": 0,
           "hansu_moves": 0}
    start = decisive_start
    for j in range(start, n):
        fen_j, in_check = fsf_board(fsf, fen, moves[:j])
        b = parse_fen(fen_j)
        (ff, fr), (tf, tr) = split_move(moves[j])
        cap = (ff, fr) != (tf, tr) and (tf, tr) in b
        if hansu_to_move(j):
            seq["hansu_moves"] += 1
            seq["hansu_in_check_moves"] += in_check
            continue
        _, check = fsf_board(fsf, fen, moves[:j + 1])
        seq["fsf_moves"] += 1
        seq["checks"] += check
        seq["quiet_checks"] += check and not cap
        seq["capture_checks"] += check and cap
        seq["quiet_non_checks"] += (not check) and not cap
        seq["captures_non_check"] += (not check) and cap
    rec_game["attack"] = seq
    if start < n:
        rec_game["at_decisive"] = surroundings(fsf_board(fsf, fen, moves[:start])[0],
                                               hansu_side == "w")
        rec_game["decisive_fen"] = fsf_board(fsf, fen, moves[:start])[0]
    if p_index is not None:
        rec_game["losing_fen"] = fsf_board(fsf, fen, moves[:p_index])[0]
    log(f"game {rec_game['game']} {hansu_side} {g['tags'].get('Opening')}: {n} plies, decisive at -"
        f"{rec_game['decisive_plies_to_mate']}, hansu20k mate at -"
        f"{rec_game['hansu20k_mate_first_plies_to_mate']}, losing move "
        f"{rec_game.get('losing_move', {}).get('move')}")
    return rec_game


def summarise(games, a):
    n = len(games)
    c = {}
    c["games"] = n
    c["fsf_mate_at_decisive"] = sum(g["fsf_mate_at_decisive"] for g in games)
    c["no_nondecisive_found"] = sum(g["losing_ply"] is None for g in games)
    lm = [g["losing_move"] for g in games if "losing_move" in g]
    c["with_losing_move"] = len(lm)
    c["losing_quiet"] = sum(not x["capture"] and not x["pass"] for x in lm)
    c["losing_capture"] = sum(x["capture"] for x in lm)
    c["losing_pass"] = sum(x["pass"] for x in lm)
    c["losing_gives_check"] = sum(x["gives_check"] for x in lm)
    c["losing_in_check"] = sum(x["in_check_before"] for x in lm)
    c["losing_played_by_20k_fresh"] = sum(x["hansu20k_best_equals_played"] for x in lm)
    c["200k_other_move"] = sum(x["hansu200k"]["best"] != x["move"] for x in lm)
    c["200k_avoids"] = sum(x["200k_avoids"] for x in lm)
    c["after_losing_move_fsf_mate"] = sum(x["fsf_after_hansu_view"]["mate"] is not None for x in lm)
    # How far before the mate each side saw it.
    h = [g["hansu20k_mate_first_plies_to_mate"] for g in games]
    f = [g["fsf_mate_first_plies_to_mate"] for g in games]
    c["hansu20k_saw_mate_plies_hist"] = hist(h)
    c["fsf_saw_mate_plies_hist"] = hist(f)
    c["decisive_plies_to_mate_hist"] = hist([g["decisive_plies_to_mate"] for g in games])
    gaps = [fi - (hi or 0) for fi, hi in zip(f, h) if fi is not None]
    c["fsf_minus_hansu20k_mate_horizon_mean"] = round(sum(gaps) / len(gaps), 2) if gaps else None
    d2 = [g for g in games if "hansu200k_at_decisive" in g]
    c["at_decisive_hansu20k_decisive"] = sum(value(at_d(g)) <= -a.decisive for g in d2)
    c["at_decisive_hansu200k_decisive"] = sum(value(g["hansu200k_at_decisive"]) <= -a.decisive
                                              for g in d2)
    c["at_decisive_hansu20k_sees_mate"] = sum((at_d(g)["mate"] or 0) < 0 for g in d2)
    c["at_decisive_hansu200k_sees_mate"] = sum((g["hansu200k_at_decisive"]["mate"] or 0) < 0
                                               for g in d2)
    c["at_decisive_count"] = len(d2)
    att = [g["attack"] for g in games]
    for k in ("fsf_moves", "checks", "quiet_checks", "capture_checks", "quiet_non_checks",
              "captures_non_check"):
        c["attack_" + k] = sum(x[k] for x in att)
    c["attack_all_checks"] = sum(x["quiet_non_checks"] + x["captures_non_check"] == 0 for x in att)
    sur = [g["at_losing_move"] for g in games if "at_losing_move" in g]
    if sur:
        c["at_losing_mean_material_hansu"] = mean([s["material_hansu"] for s in sur])
        c["at_losing_mean_material_fsf"] = mean([s["material_fsf"] for s in sur])
        c["at_losing_guards_hist"] = hist([s["hansu_guards"] for s in sur])
        c["at_losing_elephants_hist"] = hist([s["hansu_elephants"] for s in sur])
        c["at_losing_palace_defenders_hist"] = hist([len(s["palace_defenders"]) for s in sur])
        c["at_losing_zone_attackers_hist"] = hist([len(s["zone_attackers"]) for s in sur])
        kinds = {}
        for s in sur:
            for k in s["zone_attackers"]:
                kinds[k] = kinds.get(k, 0) + 1
        c["at_losing_zone_attacker_kinds"] = kinds
        c["at_losing_material_behind"] = sum(s["material_hansu"] < s["material_fsf"] for s in sur)
    sur = [g["at_decisive"] for g in games if "at_decisive" in g]
    if sur:
        c["at_decisive_guards_hist"] = hist([s["hansu_guards"] for s in sur])
        c["at_decisive_elephants_hist"] = hist([s["hansu_elephants"] for s in sur])
        c["at_decisive_zone_attackers_hist"] = hist([len(s["zone_attackers"]) for s in sur])
        c["at_decisive_palace_attackers_hist"] = hist([len(s["palace_attackers"]) for s in sur])
        c["at_decisive_material_behind"] = sum(s["material_hansu"] < s["material_fsf"] for s in sur)
        c["at_decisive_mean_material_diff"] = round(
            sum(s["material_hansu"] - s["material_fsf"] for s in sur) / len(sur), 1)
    return c


def hist(xs):
    out = {}
    for x in xs:
        out[str(x)] = out.get(str(x), 0) + 1
    return dict(sorted(out.items(), key=lambda kv: (kv[0] == "None",
                                                    0 if kv[0] == "None" else int(kv[0]))))


def mean(xs):
    return round(sum(xs) / len(xs), 1)


def at_d(g):
    """Hansu's 20k result at the first decisive position D."""
    return next(r for r in g["walked"] if r["ply"] == g["decisive_ply"])["hansu20k"]


def negated(res):
    """A search result of the side to move as {cp, mate} from the other side's view."""
    return {"cp": None if res["cp"] is None else -res["cp"],
            "mate": None if res["mate"] is None else -res["mate"]}


def markdown(c, games, a):
    lines = [f"# Mates Hansu lost: {c['games']} games ({os.path.basename(a.pgn)})", "",
             f"Fairy-Stockfish at {a.fsf_nodes} nodes, Hansu at {a.nodes} and {a.nodes_high} "
             f"nodes, decisive = mate or <= -{a.decisive} cp against Hansu.", ""]
    for k, v in c.items():
        lines.append(f"- {k}: {v}")
    lines += ["", "| game | opening | plies | FSF decisive at -k | FSF mate at -k | Hansu 20k mate "
              "at -k | losing move | 200k move | 200k avoids | FSF checks / moves in attack |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    for g in games:
        lm = g.get("losing_move", {})
        lines.append(
            f"| {g['game']} | {g['opening']} | {g['plies']} | {g['decisive_plies_to_mate']} | "
            f"{g['fsf_mate_first_plies_to_mate']} | {g['hansu20k_mate_first_plies_to_mate']} | "
            f"{lm.get('move')} | {lm.get('hansu200k', {}).get('best')} | {lm.get('200k_avoids')} | "
            f"{g['attack']['checks']}/{g['attack']['fsf_moves']} |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pgn", required=True)
    ap.add_argument("--hansu", default="build/engine/hansu")
    ap.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    ap.add_argument("--name", default="Hansu", help="the engine's name in the PGN tags")
    ap.add_argument("--nodes", type=int, default=20000, help="Hansu's match budget")
    ap.add_argument("--nodes-high", type=int, default=200000)
    ap.add_argument("--fsf-nodes", type=int, default=150000)
    ap.add_argument("--decisive", type=int, default=500, help="cp against Hansu")
    ap.add_argument("--max-back", type=int, default=16, help="Hansu positions walked back")
    ap.add_argument("--limit", type=int, default=0, help="games analysed (0 = all)")
    ap.add_argument("--out-json", required=True)
    ap.add_argument("--out-md", required=True)
    a = ap.parse_args()
    for p in (a.pgn, a.hansu, a.fsf):
        if not os.path.exists(p):
            sys.exit(f"mate-analysis: {p}: no such file")
    try:
        games = read_pgn(a.pgn)
    except PgnFileError as e:
        sys.exit(f"mate-analysis: {e}")
    if not games:
        sys.exit(f"mate-analysis: {a.pgn}: no games")
    lost = [(g, s) for g in games if (s := hansu_lost_by_mate(g, a.name))]
    if a.limit:
        lost = lost[:a.limit]
    fsf = Engine([a.fsf], {"UCI_Variant": "janggi", "Threads": 1, "Hash": 64})
    hansu = Engine([a.hansu], {"Hash": 64})
    t0 = time.time()
    out = []
    try:
        for k, (g, s) in enumerate(lost):
            def log(msg, k=k):
                print(f"[{k + 1}/{len(lost)} {time.time() - t0:.0f}s] {msg}", file=sys.stderr,
                      flush=True)
            out.append(analyse_game(g, s, fsf, hansu, a, log))
    finally:
        fsf.close()
        hansu.close()
    c = summarise(out, a)
    with open(a.out_json, "w", encoding="utf-8") as fh:
        json.dump({"settings": vars(a), "counts": c, "games": out}, fh, indent=1)
    with open(a.out_md, "w", encoding="utf-8") as fh:
        fh.write(markdown(c, out, a))
    print(json.dumps(c, indent=1))


if __name__ == "__main__":
    main()
