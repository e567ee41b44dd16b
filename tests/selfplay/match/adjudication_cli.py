#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""hansu-match's adjudication (issue 43): the same openings played out and with --resign, Hansu
against Hansu at fixed nodes (reproducible): every adjudicated game is the played game cut short
where both engines' scores agreed, the others are the same games; adjudicated games are counted
apart in the summary and the JSON and carry the settings in a PGN tag; how often an adjudicated
result differs from the played one is printed (the measurement the issue asks for). --draw
(xiangqi) draws games, is refused for janggi, and a resume under other settings is refused.

Usage: adjudication_cli.py HANSU_MATCH HANSU WORK_DIR"""
import json
import os
import re
import shutil
import subprocess
import sys

MATCH, HANSU, WORK = sys.argv[1:4]
FAILURES = []
ENGINES = ["--engine", f"cmd={HANSU}", "name=A", "nodes=400",
           "--engine", f"cmd={HANSU}", "name=B", "nodes=200", "--seed", "5"]


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print(f"FAIL: {what}")


def run(argv, timeout=120):
    return subprocess.run([MATCH] + argv, capture_output=True, text=True, timeout=timeout)


def games(path):
    """Each game of a PGN: (tags, moves)."""
    with open(path) as f:
        text = f.read()
    out = []
    for chunk in re.split(r"\n(?=\[Event )", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', chunk, re.M))
        body = re.sub(r"\{[^}]*\}", "", chunk.split("\n\n", 1)[1])
        moves = [w for w in body.split()  # "N." and Han's "N..." (a FEN with Han to move)
                 if not re.match(r"^(\d+\.(\.\.)?|1-0|0-1|1/2-1/2)$", w)]
        out.append((tags, moves))
    return out


def test_resign():
    d = os.path.join(WORK, "resign")
    os.makedirs(d)
    played, adj = os.path.join(d, "played.pgn"), os.path.join(d, "adj.pgn")
    r1 = run(ENGINES + ["--games", "12", "--pgn", played])
    r2 = run(ENGINES + ["--games", "12", "--pgn", adj, "--json", adj + ".json",
                        "--resign", "movecount=3", "score=500"])
    check(r1.returncode == 0 and r2.returncode == 0, f"resign: exit {r1.stderr} {r2.stderr}")
    if r1.returncode or r2.returncode:
        return
    p, a = games(played), games(adj)
    check(len(p) == len(a) == 12, "resign: 12 games each")
    n_adj = differ = 0
    for (pt, pm), (at, am) in zip(p, a):
        check("Adjudication" not in pt, "resign: a tag without adjudication")
        check(at.get("Adjudication") == "resign movecount=3 score=500",
              f"resign: tag {at.get('Adjudication')}")
        if at["Termination"] == "resign":
            n_adj += 1
            check(len(am) < len(pm) and pm[:len(am)] == am,
                  f"resign: game {at['Round']} is not the played game cut short")
            differ += at["Result"] != pt["Result"]
        else:
            check(am == pm and at["Result"] == pt["Result"],
                  f"resign: game {at['Round']} not adjudicated but other than played")
    check(n_adj > 0, "resign: no game adjudicated")
    plies_p = sum(len(m) for _, m in p)
    plies_a = sum(len(m) for _, m in a)
    check(plies_a < plies_p, f"resign: {plies_a} plies adjudicated, {plies_p} played")
    m = re.search(r"Adjudicated \(resign movecount=3 score=500\): (\d+) of 12 games, (\d+) by "
                  r"resignation, 0 drawn; games averaged ([\d.]+) plies", r2.stdout)
    check(m and int(m.group(1)) == n_adj and abs(float(m.group(3)) - plies_a / 12) < 0.06,
          f"resign: summary line {m and m.group(0)}")
    js = json.load(open(adj + ".json"))
    check(js.get("adjudication") == {"settings": "resign movecount=3 score=500", "resign": n_adj,
                                     "draw": 0, "plies": plies_a},
          f"resign: JSON {js.get('adjudication')}")
    print(f"adjudicated {n_adj} of 12 games, {differ} with another result than played; "
          f"{plies_a} plies against {plies_p} ({100.0 * plies_a / plies_p:.0f} %)")
    # The settings are part of the match: a resume under others is refused.
    st = os.path.join(d, "cut.pgn")
    run(ENGINES + ["--games", "12", "--pgn", st, "--resign", "movecount=3", "score=500",
                   "--stop-after-pairs", "1"])
    r = run(ENGINES + ["--games", "12", "--pgn", st, "--resign", "movecount=2", "score=500",
                       "--resume"])
    check(r.returncode == 1 and "is not the state of this match" in r.stderr,
          f"resign: resume under other settings: {r.stderr}")


def test_tournament():
    """A tournament adjudicates each pairing's games and counts them apart."""
    d = os.path.join(WORK, "tournament")
    os.makedirs(d)
    js = os.path.join(d, "t.json")
    r = run(["--tournament", "round-robin", "--each", f"cmd={HANSU}", "--engine", "name=a",
             "nodes=100", "--engine", "name=b", "nodes=150", "--engine", "name=c", "nodes=200",
             "--rounds", "1", "--concurrency", "2", "--resign", "--json", js])
    check(r.returncode == 0 and "Adjudicated (resign movecount=3 score=600): " in r.stdout,
          f"tournament: {r.stdout[-400:]} {r.stderr}")
    if r.returncode == 0:
        data = json.load(open(js))
        resigned = sum(p["adjudicated"]["resign"] for p in data["pairings"])
        wins = sum(sum(x.get("resign", 0) for x in p["reasons"]) for p in data["pairings"])
        check(resigned == wins and all(p["plies"] > 0 for p in data["pairings"]),
              f"tournament: adjudicated {resigned}, resign wins {wins}")


def test_draw():
    d = os.path.join(WORK, "draw")
    os.makedirs(d)
    xq = ["--variant", "xiangqi", "--games", "4", "--pgn", os.path.join(d, "x.pgn")]
    r = run(ENGINES + xq + ["--draw", "movenumber=2", "movecount=2", "score=2000"])
    check(r.returncode == 0 and "Draws by reason: adjudication 4" in r.stdout,
          f"draw: {r.stdout[-500:]} {r.stderr}")
    if r.returncode == 0:
        for tags, moves in games(os.path.join(d, "x.pgn")):
            check(tags["Result"] == "1/2-1/2" and len(moves) == 4 and
                  tags["Adjudication"] == "draw movenumber=2 movecount=2 score=2000",
                  f"draw: game {tags}")
    r = run(ENGINES + ["--games", "2", "--draw"])
    check(r.returncode == 1 and "janggi games are decided by points" in r.stderr,
          f"draw: janggi refused: {r.stderr}")
    r = run(ENGINES + ["--games", "2", "--resign", "moves=3"])
    check(r.returncode == 1 and "--resign: unknown \"moves=3\"" in r.stderr,
          f"resign: bad key: {r.stderr}")


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    test_resign()
    test_tournament()
    test_draw()
    print(f"{len(FAILURES)} failures")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
