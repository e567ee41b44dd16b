#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Where the time goes: the depth engines reach on fixed positions at several thinking times.

Each engine (UCI, one thread, a fresh search per position) searches every position for each of
--times seconds (`go movetime`); the reference engine searches each for --reference-time
seconds, and its move is the position's reference move. For each engine and time the probe
reports the mean depth and selective depth, nodes/s, and how often the engine's move agrees with
the reference move (issue 40, item 1: docs/scaling.md). Positions come from --positions (one
FEN a line, '#' comments) or from the middlegames of real games (--pgn: one position every
--every plies from ply --from to --to of each game, --count of them drawn with --seed).

With --carry NODES the probe asks instead what an engine keeps from move to move: it replays
the first player's positions (plies --from, --from + 2, ... up to --to) of each game of --pgn in
order, as a game sends them, searching each to NODES nodes twice: once keeping its hash from
the previous search (`ucinewgame` only when a game starts) and once clearing it before each
search (`ucinewgame`). It reports the mean depth each way: what the entries of the previous
move's search are worth in depth at equal nodes.

Usage:
  scripts/scaling-probe.py --pgn docs/match-report/tc-5+0.05-net-r4-fsf-starts.pgn.gz \\
      --engine Hansu=build/engine/hansu --engine FSF=/usr/games/fairy-stockfish \\
      --times 1,4,16 --reference FSF --reference-time 60 --json probe.json --md probe.md
Exit status 1 with a one-line message on bad input (a missing file, a malformed flag, an
engine that does not answer); the JSON is written whole or not at all.
"""
import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pgn_file import PgnFileError  # noqa: E402
import uci_engine  # noqa: E402
from uci_engine import Engine, EngineError, read_pgn, write_whole  # noqa: E402

PROG = "scaling-probe"


def fail(msg):
    sys.exit(f"{PROG}: {msg}")


def parse_engines(specs, options):
    try:
        return uci_engine.parse_engines(specs, options)
    except ValueError as e:
        fail(str(e))


def parse_times(text):
    try:
        times = [float(t) for t in text.split(",")]
    except ValueError:
        fail(f"--times '{text}': expected seconds separated by commas, e.g. 1,4,16")
    if not times or any(t <= 0 or t > 3600 for t in times):
        fail(f"--times '{text}': each time must be in (0, 3600] seconds")
    return times


def read_positions(path):
    try:
        with open(path, encoding="utf-8") as fh:
            lines = [ln.strip() for ln in fh]
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    fens = [ln for ln in lines if ln and not ln.startswith("#")]
    if not fens:
        fail(f"{path}: no positions")
    return fens


def fen_after(engine, start, moves):
    """The FEN an engine's `d` prints after moves from start (a FEN or 'startpos')."""
    engine.send(("position startpos" if start == "startpos" else f"position fen {start}") +
                (" moves " + " ".join(moves) if moves else ""))
    engine.send("d")
    for line in engine.wait_for("Fen: "):
        if line.startswith("Fen: "):
            return line[5:].strip()
    return None


def read_games(paths):
    """[(start, moves)] of every game of paths: start its FEN tag or 'startpos'."""
    games = []
    for path in paths:
        if not os.path.isfile(path):
            fail(f"{path}: no such file")
        try:
            games += [(g["tags"].get("FEN", "startpos"), g["moves"]) for g in read_pgn(path)]
        except PgnFileError as e:
            fail(f"not a readable PGN: {e}")
    return games


def positions_from_pgns(paths, a, engine):
    """Middlegame positions of the games: every a.every plies from ply a.first to a.last of
    each game that lasts that long, then a.count of them drawn with a.seed."""
    picks = []
    for start, moves in read_games(paths):
        for ply in range(a.first, min(a.last, len(moves)) + 1, a.every):
            picks.append((start, moves[:ply]))
    if not picks:
        fail(f"no game of {', '.join(paths)} reaches ply {a.first}")
    random.Random(a.seed).shuffle(picks)
    fens = []
    for start, moves in picks[:a.count]:
        fen = fen_after(engine, start, moves)
        if not fen:
            fail(f"{engine.name}: no FEN for a position of the games")
        fens.append(fen)
    return fens


def mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def summarise(results, reference):
    rows = []
    for name, per_time in results.items():
        for t, res in per_time.items():
            agree = [r["best"] == ref for r, ref in zip(res, reference) if ref]
            rows.append({"engine": name, "seconds": float(t),
                         "depth": mean([r["depth"] for r in res]),
                         "seldepth": mean([r["seldepth"] for r in res]),
                         "nps": mean([r["nps"] for r in res]),
                         "agreement": sum(agree) / len(agree) if agree else None,
                         "positions": len(res)})
    return rows


def markdown(rows, a, n):
    out = [f"{n} positions; reference: {a.reference} at {a.reference_time:g} s\n",
           "| engine | s/move | depth | seldepth | nodes/s | agrees with the reference |",
           "|---|---|---|---|---|---|"]
    for r in rows:
        def f(x, d=1):
            return "-" if x is None else f"{x:.{d}f}"
        agree = "-" if r["agreement"] is None else f"{100 * r['agreement']:.0f} %"
        out.append(f"| {r['engine']} | {r['seconds']:g} | {f(r['depth'])} | "
                   f"{f(r['seldepth'])} | {f(r['nps'], 0)} | {agree} |")
    return "\n".join(out) + "\n"


def carry_probe(engine, games, a):
    """Mean depth at a.carry nodes with the hash kept between moves and cleared before each."""
    out = {}
    for mode in ("kept", "cleared"):
        depths = []
        for start, moves in games:
            engine.send("ucinewgame")
            engine.ready()
            for ply in range(a.first, min(a.last, len(moves)) + 1, 2):
                res = engine.search(start, moves[:ply], f"nodes {a.carry}", mode == "cleared")
                if res["mate"] is None:  # a found game end stops deepening: no depth figure
                    depths.append(res["depth"])
        out[mode] = {"depth": mean(depths), "positions": len(depths)}
    return out


def write_or_fail(path, text):
    why = write_whole(path, text)
    if why:
        fail(why)


def main():
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n")[0])
    ap.add_argument("--engine", action="append", default=[], help="NAME=COMMAND (repeat)")
    ap.add_argument("--option", action="append", default=[], help="NAME:KEY=VALUE (repeat)")
    ap.add_argument("--variant", default="janggi", choices=["janggi", "xiangqi"])
    ap.add_argument("--positions", help="a file of FENs, one a line")
    ap.add_argument("--pgn", action="append", default=[], help="games to take positions from")
    ap.add_argument("--from", dest="first", type=int, default=30, help="first ply [30]")
    ap.add_argument("--to", dest="last", type=int, default=80, help="last ply [80]")
    ap.add_argument("--every", type=int, default=10, help="plies between positions [10]")
    ap.add_argument("--count", type=int, default=20, help="positions drawn [20]")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--times", default="1,4,16", help="seconds per move [1,4,16]")
    ap.add_argument("--reference", help="the engine whose long search gives the reference")
    ap.add_argument("--reference-time", type=float, default=60.0, help="seconds [60]")
    ap.add_argument("--hash", type=int, default=64, help="MB per engine [64]")
    ap.add_argument("--carry", type=int, default=0,
                    help="nodes: the hash kept between moves against cleared (see above)")
    ap.add_argument("--json", required=True)
    ap.add_argument("--md")
    a = ap.parse_args()
    engines = parse_engines(a.engine, a.option)
    if not engines:
        fail("no --engine given")
    times = parse_times(a.times)
    if bool(a.positions) == bool(a.pgn):
        fail("give either --positions or --pgn")
    if a.every < 1 or a.first < 0 or a.last < a.first or a.count < 1:
        fail("--from, --to, --every and --count: need 0 <= from <= to, every >= 1, count >= 1")
    reference = a.reference or engines[0][0]
    if reference not in [n for n, _, _ in engines]:
        fail(f"--reference {reference}: no engine of that name")
    if not 0 < a.reference_time <= 36000:
        fail(f"--reference-time {a.reference_time:g}: must be in (0, 36000] seconds")
    for path in [a.json] + ([a.md] if a.md else []):
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder) or os.path.isdir(path):
            fail(f"{path}: cannot be written (no such folder, or a folder)")
    a.reference = reference
    if a.carry < 0 or (a.carry and not a.pgn):
        fail("--carry NODES: needs NODES >= 1 and --pgn")
    running = {}
    try:
        for name, cmd, opts in engines:
            base = {"Threads": 1, "Hash": a.hash, "UCI_Variant": a.variant}
            running[name] = Engine([cmd], {**base, **opts})
        if a.carry:
            games = read_games(a.pgn)
            rows = {name: carry_probe(running[name], games, a) for name, _, _ in engines}
            text = "".join(f"{name}: depth at {a.carry} nodes, hash kept {r['kept']['depth']:.2f}, "
                           f"cleared {r['cleared']['depth']:.2f} "
                           f"({r['kept']['positions']} positions)\n" for name, r in rows.items())
            write_or_fail(a.json, json.dumps({"settings": vars(a), "carry": rows}, indent=1) +
                          "\n")
            if a.md:
                write_or_fail(a.md, text)
            sys.stdout.write(text)
            return
        fens = (read_positions(a.positions) if a.positions
                else positions_from_pgns(a.pgn, a, running[engines[0][0]]))
        t0 = time.time()
        results = {name: {} for name, _, _ in engines}
        ref_moves = []
        for i, fen in enumerate(fens):
            r = running[reference].search(fen, [], f"movetime {int(a.reference_time * 1000)}")
            ref_moves.append(r["best"])
            for name, _, _ in engines:
                for t in times:
                    res = running[name].search(fen, [], f"movetime {int(t * 1000)}")
                    results[name].setdefault(f"{t:g}", []).append(
                        {k: res[k] for k in ("depth", "seldepth", "nodes", "nps", "cp", "mate",
                                             "best")})
            print(f"[{i + 1}/{len(fens)} {time.time() - t0:.0f}s]", file=sys.stderr, flush=True)
    except EngineError as e:
        fail(str(e))
    finally:
        for e in running.values():
            e.close()
    rows = summarise(results, ref_moves)
    settings = {k: v for k, v in vars(a).items()}
    write_or_fail(a.json, json.dumps({"settings": settings, "positions": fens,
                                    "reference_moves": ref_moves, "summary": rows,
                                    "results": results}, indent=1) + "\n")
    if a.md:
        write_or_fail(a.md, markdown(rows, a, len(fens)))
    sys.stdout.write(markdown(rows, a, len(fens)))


if __name__ == "__main__":
    main()
