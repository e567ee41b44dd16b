#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A test suite of the moves that surprised an engine in real games, and how often a search
setting avoids them at a fixed node count (issue 40: docs/scaling.md, "Who is surprised").

A surprise (scripts/match-profile.py) is an engine's move scored within +-10 pawns whose score,
by that engine's next move, fell by --surprise-cp or more: the reply, or its own next search,
showed what it had not seen. `extract` takes the positions before such moves from PGNs that
hansu-match wrote with --move-info, as the game reached them (start position and moves, so that
repetitions and passes count as in the game), into a suite file (JSON, below). `run` searches
every position of a suite with each engine to --nodes (a fresh search each, `ucinewgame`, one
thread) and counts the positions where its move is not the one that was played: a setting that
avoids more of them at the same nodes sees further where the engine was blind. A screen for
which search change to test first; only an SPRT at a time control decides a change
(docs/strength-log.md). Avoiding the played move is not proof of a better move: it was the move
the engine's own next search judged much worse.

Usage:
  scripts/surprise-suite.py extract --pgn GAMES.pgn[.gz] [--pgn ...] --name ENGINE
      [--surprise-cp 150] --out SUITE.json
  scripts/surprise-suite.py run --suite SUITE.json --engine NAME=COMMAND [--engine ...]
      [--option NAME:KEY=VALUE ...] --nodes N [--hash MB] --json OUT [--md OUT]

The suite: {"schema": 1, "variant", "engine" (whose surprises), "surprise_cp", "sources"
(the PGN files), "positions": [{"id" ("FILE#GAME:PLY"), "start" (a FEN or "startpos"), "moves"
(before the surprised move), "played", "score_cp", "next_cp", "fall_cp"}]}. The run's JSON:
{"schema": 1, "suite", "nodes", "engines": [{"name", "options", "positions", "avoided",
"avoided_share", "depth" (mean), "nodes" (mean)}], "results": {NAME: [{"id", "best", "depth",
"nodes", "cp", "mate"}]}}.
Exit status 1 with a one-line message on bad input (a missing or damaged file, a suite of
another shape, a position an engine refuses, a flag out of range); outputs are written whole or
not at all.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import move_info  # noqa: E402
from pgn_file import PgnFileError  # noqa: E402
import uci_engine  # noqa: E402
from uci_engine import Engine, EngineError, write_whole  # noqa: E402

PROG = "surprise-suite"
SCHEMA = 1


def fail(msg):
    sys.exit(f"{PROG}: {msg}")


def write_or_fail(path, text):
    why = write_whole(path, text)
    if why:
        fail(why)


def check_output(path):
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder) or os.path.isdir(path):
        fail(f"{path}: cannot be written (no such folder, or a folder)")


def extract(a):
    """The suite of a.name's surprises in a.pgn's games."""
    positions, variants = [], set()
    for path in a.pgn:
        try:
            games = move_info.read_games(path)
        except PgnFileError as e:
            fail(str(e))
        for g, (tags, moves) in enumerate(games, 1):
            names, first = move_info.names_and_first(tags)
            if a.name not in names:
                continue
            variants.add(tags.get("Variant", "janggi").lower())
            xs = move_info.scores_by_engine(names, first, moves)[a.name]
            for ply, before, after in move_info.scored_pairs(xs):
                if before - after < a.surprise_cp:
                    continue
                positions.append({"id": f"{os.path.basename(path)}#{g}:{ply}",
                                  "start": tags.get("FEN", "startpos"),
                                  "moves": [m for m, _ in moves[:ply - 1]],
                                  "played": moves[ply - 1][0], "score_cp": before,
                                  "next_cp": after, "fall_cp": before - after})
    if len(variants) > 1:
        fail(f"the games are of more than one variant ({', '.join(sorted(variants))})")
    if not positions:
        fail(f"no move of {a.name} in these games fell by {a.surprise_cp} cp or more (is the "
             "name as the PGN's White and Black tags spell it, and were the games played "
             "with --move-info?)")
    suite = {"schema": SCHEMA, "variant": variants.pop(), "engine": a.name,
             "surprise_cp": a.surprise_cp, "sources": [os.path.basename(p) for p in a.pgn],
             "positions": positions}
    write_or_fail(a.out, json.dumps(suite, indent=1) + "\n")
    print(f"{len(positions)} positions of {a.name} into {a.out}")


def read_suite(path):
    """The suite at path, its shape checked."""
    try:
        with open(path, encoding="utf-8") as fh:
            suite = json.load(fh)
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    except (ValueError, UnicodeDecodeError) as e:
        fail(f"{path}: not a suite (not JSON: {e})")
    fields = {"id": str, "start": str, "moves": list, "played": str}
    if (not isinstance(suite, dict) or suite.get("schema") != SCHEMA or
            suite.get("variant") not in ("janggi", "xiangqi") or
            not isinstance(suite.get("positions"), list) or not suite["positions"]):
        fail(f"{path}: not a suite of schema {SCHEMA} with a variant and positions")
    for i, p in enumerate(suite["positions"], 1):
        if not isinstance(p, dict) or any(not isinstance(p.get(k), t) for k, t in fields.items()):
            fail(f"{path}: position {i} lacks one of {', '.join(fields)}")
        if not all(isinstance(m, str) and m.isascii() and m.isalnum() for m in p["moves"]) or \
                "\n" in p["start"]:
            fail(f"{path}: position {i} ({p['id'][:60]}): a move or start that is not one")
    return suite


def parse_engines(specs, options):
    try:
        return uci_engine.parse_engines(specs, options)
    except ValueError as e:
        fail(str(e))


def refused(engine, p):
    """The engine's complaint about the position (an `info string error` line), or None."""
    engine.position(p["start"], p["moves"])
    engine.send("isready")
    for line in engine.wait_for("readyok"):
        if line.startswith("info string error"):
            return line[len("info string "):]
    return None


def run(a):
    suite = read_suite(a.suite)
    engines = parse_engines(a.engine, a.option)
    if not engines:
        fail("no --engine given")
    if a.nodes < 1 or not 1 <= a.hash <= 65536:
        fail("--nodes must be at least 1 and --hash in [1, 65536] MB")
    for path in [a.json] + ([a.md] if a.md else []):
        check_output(path)
    positions = suite["positions"]
    running, results = {}, {name: [] for name, _, _ in engines}
    try:
        for name, cmd, opts in engines:
            base = {"Threads": 1, "Hash": a.hash, "UCI_Variant": suite["variant"]}
            running[name] = Engine([cmd], {**base, **opts})
        for name, _, _ in engines:  # every check before the work starts
            for p in positions:
                why = refused(running[name], p)
                if why:
                    fail(f"{name} refuses position {p['id']}: {why}")
        for i, p in enumerate(positions, 1):
            for name, _, _ in engines:
                r = running[name].search(p["start"], p["moves"], f"nodes {a.nodes}")
                results[name].append({"id": p["id"], "best": r["best"], "depth": r["depth"],
                                      "nodes": r["nodes"], "cp": r["cp"], "mate": r["mate"]})
            print(f"[{i}/{len(positions)}]", file=sys.stderr, flush=True)
    except EngineError as e:
        fail(str(e))
    finally:
        for e in running.values():
            e.close()
    rows = []
    for name, _, opts in engines:
        res = results[name]
        avoided = sum(r["best"] != p["played"] for r, p in zip(res, positions))
        depths = [r["depth"] for r in res if r["depth"]]
        nodes = [r["nodes"] for r in res if r["nodes"]]
        rows.append({"name": name, "options": opts, "positions": len(res), "avoided": avoided,
                     "avoided_share": avoided / len(res),
                     "depth": sum(depths) / len(depths) if depths else None,
                     "nodes": sum(nodes) / len(nodes) if nodes else None})
    out = {"schema": SCHEMA, "suite": a.suite, "nodes": a.nodes, "engines": rows,
           "results": results}
    write_or_fail(a.json, json.dumps(out, indent=1) + "\n")
    md = [f"{len(positions)} positions of {suite['engine']}'s surprises "
          f"({', '.join(suite.get('sources', []))}), {a.nodes} nodes each\n",
          "| engine | options | avoided | depth |", "|---|---|---|---|"]
    for r in rows:
        opts = " ".join(f"{k}={v}" for k, v in r["options"].items()) or "-"
        depth = "-" if r["depth"] is None else f"{r['depth']:.1f}"
        md.append(f"| {r['name']} | {opts} | {r['avoided']} of {r['positions']} "
                  f"({100 * r['avoided_share']:.0f} %) | {depth} |")
    text = "\n".join(md) + "\n"
    if a.md:
        write_or_fail(a.md, text)
    sys.stdout.write(text)


def main():
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    ex = sub.add_parser("extract", help="a suite of an engine's surprises in PGNs")
    ex.add_argument("--pgn", action="append", required=True, help="games (repeat)")
    ex.add_argument("--name", required=True, help="the engine, as the PGN names it")
    ex.add_argument("--surprise-cp", type=int, default=150, metavar="CP")
    ex.add_argument("--out", required=True)
    rn = sub.add_parser("run", help="how often each engine avoids the surprised moves")
    rn.add_argument("--suite", required=True)
    rn.add_argument("--engine", action="append", default=[], help="NAME=COMMAND (repeat)")
    rn.add_argument("--option", action="append", default=[], help="NAME:KEY=VALUE (repeat)")
    rn.add_argument("--nodes", type=int, required=True)
    rn.add_argument("--hash", type=int, default=16, help="MB per engine [16]")
    rn.add_argument("--json", required=True)
    rn.add_argument("--md")
    a = ap.parse_args()
    if a.command == "extract":
        if a.surprise_cp <= 0:
            fail("--surprise-cp takes a positive number of centipawns")
        check_output(a.out)
        extract(a)
    else:
        run(a)


if __name__ == "__main__":
    main()
