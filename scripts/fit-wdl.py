#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Fits the draw margin of the win/draw/loss model (engine/wdl.c) to played games.

The model: W = sigma((cp - margin) / scale), L = sigma((-cp - margin) / scale), D = 1 - W - L,
cp the engine's search score from the side to move's view. Positions are taken from the games
of PGN files (hansu-match's: a FEN tag and UCI moves), one every --every plies from ply --from
to --to plies before the end; each is searched by the engine (`go nodes N`, a new game each) and
paired with the game's result from the side to move's view. The margin (and, as a check, the
scale) is the maximum-likelihood fit over those positions; positions with a decided score
(a mate) or |cp| > --max-cp are left out.

Usage:
  scripts/fit-wdl.py --engine build/engine/hansu --variant xiangqi --scale 543.98 \\
      --json wdl.json docs/match-report/xiangqi-*.pgn
Prints the fit as JSON (and writes it to --json): the positions, the margin at the given scale
and its log-likelihood, the two-parameter fit, and per score bucket the observed and modelled
W/D/L. Exit status 1 with a one-line message on bad input.
"""
import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci_engine import Engine, EngineError, read_pgn, write_whole  # noqa: E402
# engine/wdl.h's model, the one Python copy of its formula.
from variant_model import probs  # noqa: E402

PROG = "fit-wdl"


def fail(msg):
    sys.exit(f"{PROG}: {msg}")


def loglik(data, scale, margin):
    total = 0.0
    for cp, res in data:
        p = probs(cp, scale, margin)[1 - res]  # res +1 win -> 0, 0 draw -> 1, -1 loss -> 2
        total += math.log(max(p, 1e-12))
    return total


def best_margin(data, scale):
    """The margin (cp, 0..2000) of the greatest likelihood at scale: a grid, then golden
    section around its best point (the likelihood is unimodal in the margin here)."""
    grid = [(loglik(data, scale, m), m) for m in range(0, 2001, 10)]
    _, m0 = max(grid)
    a, b = max(m0 - 10, 0), m0 + 10
    g = (math.sqrt(5) - 1) / 2
    for _ in range(40):
        c, d = b - g * (b - a), a + g * (b - a)
        if loglik(data, scale, c) > loglik(data, scale, d):
            b = d
        else:
            a = c
    m = (a + b) / 2
    return m, loglik(data, scale, m)


def result_of(tags, stm_white):
    """The game's result from the side to move's view (+1, 0, -1; None if unknown): PGN's
    White is the side written in upper case (Red, Cho), whichever moved first."""
    r = tags.get("Result")
    if r not in ("1-0", "0-1", "1/2-1/2"):
        return None
    if r == "1/2-1/2":
        return 0
    return 1 if (r == "1-0") == stm_white else -1


def collect(args, eng):
    data = []
    for path in args.pgn:
        try:
            games = read_pgn(path)
        except OSError as e:
            fail(f"{path}: {e.strerror}")
        for g in games:
            tags = g["tags"]
            if tags.get("Variant", args.variant) != args.variant:
                continue
            fen = tags.get("FEN")
            if not fen:
                continue
            first_white = fen.split()[1] == "w"
            n = len(g["moves"])
            for ply in range(args.from_ply, n - args.to, args.every):
                res = result_of(tags, first_white == (ply % 2 == 0))
                if res is None:
                    continue
                r = eng.go(fen, g["moves"][:ply], args.nodes)
                if r["cp"] is None or abs(r["cp"]) > args.max_cp:
                    continue
                data.append((r["cp"], res))
    return data


def buckets(data, scale, margin):
    out = []
    edges = [-2000, -600, -300, -150, -50, 50, 150, 300, 600, 2000]
    for lo, hi in zip(edges, edges[1:]):
        sel = [(cp, r) for cp, r in data if lo <= cp < hi]
        if not sel:
            continue
        n = len(sel)
        obs = [sum(1 for _, r in sel if r == k) / n for k in (1, 0, -1)]
        mod = [sum(probs(cp, scale, margin)[i] for cp, _ in sel) / n for i in range(3)]
        out.append({"cp": [lo, hi], "positions": n, "observed_wdl": [round(x, 3) for x in obs],
                    "model_wdl": [round(x, 3) for x in mod]})
    return out


def main(argv):
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n")[0])
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--engine", required=True)
    ap.add_argument("--variant", default="xiangqi")
    ap.add_argument("--scale", type=float, required=True, help="the net's sigmoid_s (cp)")
    ap.add_argument("--nodes", type=int, default=2000)
    ap.add_argument("--every", type=int, default=12)
    ap.add_argument("--from", dest="from_ply", type=int, default=12)
    ap.add_argument("--to", type=int, default=6, help="plies before the end left out")
    ap.add_argument("--max-cp", type=int, default=2000)
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    if args.scale <= 0 or args.nodes < 1 or args.every < 1:
        fail("--scale, --nodes and --every must be positive")
    try:
        eng = Engine([args.engine], {"UCI_Variant": args.variant})
        data = collect(args, eng)
        eng.close()
    except EngineError as e:
        fail(str(e))
    if len(data) < 100:
        fail(f"only {len(data)} positions: too few to fit")
    margin, ll = best_margin(data, args.scale)
    # The two-parameter fit, as a check of the net's scale: scale on a grid, margin fitted.
    two = max((best_margin(data, s)[1], s) for s in range(300, 1201, 20))
    m2, ll2 = best_margin(data, two[1])
    out = {"variant": args.variant, "positions": len(data),
           "results": {k: sum(1 for _, r in data if r == v)
                       for k, v in (("win", 1), ("draw", 0), ("loss", -1))},
           "nodes": args.nodes, "scale": args.scale, "margin": round(margin, 1),
           "loglik": round(ll, 2), "loglik_no_draw_margin": round(loglik(data, args.scale, 0), 2),
           "two_parameter": {"scale": two[1], "margin": round(m2, 1), "loglik": round(ll2, 2)},
           "buckets": buckets(data, args.scale, margin), "pgn": args.pgn}
    text = json.dumps(out, indent=1) + "\n"
    if args.json:
        err = write_whole(args.json, text)
        if err:
            fail(err)
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
