#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Two arms of an experiment compared game for game: two matches of one engine against the same
opponent from the same openings, colours and seed (e.g. data/games/eval-experiment/play.sh's net-1m
and blend25-1m), differing only in the engine's setting. Each pair of games (a round: one
opening, the engine once with each colour) is scored in both arms, and the arms' difference is
taken pair by pair: openings that favour one side favour it in both arms, so the paired
interval is narrower than the two matches' own errors combined when the arms' pair scores
correlate.

Printed: the engine's score in each arm, the difference B - A per game with its 95 % interval
paired by round (mean of the 50 differences of pair scores, 1.96 standard errors) and, beside
it, the unpaired interval (the two arms' errors combined) and the correlation of the arms'
pair scores; the Elo of each arm's score (logistic) for reading only.

Usage: scripts/paired-arms.py A.pgn[.gz] B.pgn[.gz] [--engine NAME] [--common] [--any-opponent]
  NAME: the engine both arms measure, matched against White/Black (default "Hansu").
  --common: compare the rounds both arms have whole and leave the others out, counted (arms
  part-way, or a match still playing its last round); without it they are refused.
  --any-opponent: the opponent's name may differ between the arms (one engine named two ways,
  e.g. "Fairy-Stockfish" and "FSF-11.1"); both names are printed.
Exit status 1 with a one-line message when a file cannot be read, a game is unfinished or
lacks a Round tag or the engine, a round is not one game with each colour, or the two arms'
rounds, openings (FEN or Opening tag) or opponents differ.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from game_viewer import ViewerError, read_pgn  # noqa: E402

PROG = "paired-arms"
SCORE = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def fail(msg):
    sys.exit(f"{PROG}: {msg}")


def rounds_of(path, engine, partial=False):
    """({round: (opening, score of the pair)}, {rounds of one game}, the opponent) of a match
    PGN, scored by each game's Result tag (its movetext's end where it has none); fails on what
    does not pair, or on a second opponent (a round of one game is left out when partial)."""
    try:
        games = read_pgn(path)
    except ViewerError as e:
        fail(str(e))
    if not games:
        fail(f"{path}: no games")
    seen, arm_opponent = {}, None
    for i, g in enumerate(games, 1):
        t = g["tags"]
        white, black = t.get("White", ""), t.get("Black", "")
        if (engine in white) == (engine in black):
            fail(f"{path}: game {i}: '{engine}' is not exactly one of White '{white[:40]}' and "
                 f"Black '{black[:40]}'")
        result = t.get("Result", g["result"])  # the tag, as eval-audit reads it
        if result not in SCORE:
            fail(f"{path}: game {i}: result '{result}' is not a finished game's")
        try:
            rnd = int(t["Round"])
        except (KeyError, ValueError):
            fail(f"{path}: game {i}: no numeric Round tag")
        colour = "white" if engine in white else "black"
        score = SCORE[result] if colour == "white" else 1.0 - SCORE[result]
        opening = t.get("FEN") or t.get("Opening") or "(start)"
        opponent = black if colour == "white" else white
        if (rnd, colour) in seen:
            fail(f"{path}: round {rnd}: two games with '{engine}' as {colour}")
        if arm_opponent not in (None, opponent):
            fail(f"{path}: game {i}: opponent '{opponent[:40]}', where earlier games had "
                 f"'{arm_opponent[:40]}': one arm, one opponent")
        arm_opponent = opponent
        seen[(rnd, colour)] = (opening, score)
    rounds, single = {}, set()
    for (rnd, colour), (opening, score) in seen.items():
        other = seen.get((rnd, "black" if colour == "white" else "white"))
        if other is None:
            if not partial:
                fail(f"{path}: round {rnd}: one game, not a pair (one with each colour)")
            single.add(rnd)
        elif colour == "white":
            rounds[rnd] = ((opening, other[0]), score + other[1])
    return rounds, single, arm_opponent


def mean_sd(xs):
    m = sum(xs) / len(xs)
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1)) if len(xs) > 1 else 0.0


def elo(score):
    if score <= 0.0 or score >= 1.0:
        return float("inf") if score >= 1.0 else float("-inf")
    return -400.0 * math.log10(1.0 / score - 1.0)


def main():
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--engine", default="Hansu")
    ap.add_argument("--common", action="store_true")
    ap.add_argument("--any-opponent", action="store_true")
    o = ap.parse_args()
    if not o.engine:
        fail("--engine: an empty name")
    (A, single_a, oa), (B, single_b, ob) = (rounds_of(o.a, o.engine, o.common),
                                            rounds_of(o.b, o.engine, o.common))
    if oa != ob and not o.any_opponent:
        fail(f"opponent '{oa[:40]}' in A, '{ob[:40]}' in B (--any-opponent: one engine named "
             "two ways)")
    left = ""
    if set(A) != set(B):
        only = sorted(set(A) ^ set(B))
        if not o.common:
            fail(f"the arms' rounds differ (round {only[0]} is in one only): not the same "
                 "schedule (--common compares the rounds both have)")
        # A round one arm has whole and the other has one game of is counted as the latter.
        only_a = len(set(A) - set(B) - single_b)
        only_b = len(set(B) - set(A) - single_a)
        A = {r: v for r, v in A.items() if r in B}
        B = {r: v for r, v in B.items() if r in A}
        if only_a or only_b:
            left = f"; left out: rounds in A only {only_a}, in B only {only_b}"
    if single_a or single_b:
        left += f"; rounds of one game left out: A {len(single_a)}, B {len(single_b)}"
    for r in sorted(A):
        if A[r][0] != B[r][0]:
            fail(f"round {r}: the openings differ between the arms: not the same schedule")
    n = len(A)
    if n < 2:
        fail("fewer than 2 rounds: no interval")
    xa = [A[r][1] / 2 for r in sorted(A)]
    xb = [B[r][1] / 2 for r in sorted(A)]
    d = [y - x for x, y in zip(xa, xb)]
    ma, sa = mean_sd(xa)
    mb, sb = mean_sd(xb)
    md, sd = mean_sd(d)
    paired = 1.96 * sd / math.sqrt(n)
    unpaired = 1.96 * math.sqrt((sa * sa + sb * sb) / n)
    corr = (sum((x - ma) * (y - mb) for x, y in zip(xa, xb)) / ((n - 1) * sa * sb)
            if sa > 0 and sb > 0 else float("nan"))
    against = f"'{oa}'" if oa == ob else f"'{oa}' in A, '{ob}' in B"
    print(f"{n} rounds (pairs of games), '{o.engine}' against {against}{left}")
    print(f"A {o.a}: score {ma:.3f} (Elo {elo(ma) + 0.0:+.1f})")  # + 0.0: no "-0.0"
    print(f"B {o.b}: score {mb:.3f} (Elo {elo(mb) + 0.0:+.1f})")
    print(f"B - A: {md:+.3f} a game, 95 % paired by round +-{paired:.3f} "
          f"[{md - paired:+.3f}, {md + paired:+.3f}]; unpaired +-{unpaired:.3f}; "
          f"pair scores' correlation "
          f"{'n/a (an arm scored every pair alike)' if math.isnan(corr) else f'{corr:+.2f}'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
