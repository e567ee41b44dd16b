#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A test suite of the moves that surprised an engine in real games, and how often a search
setting avoids them at a fixed node count, and whether the engine finds the reply that surprised it
(issue 40: docs/scaling.md, "Who is surprised").

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

`replies` asks where the blindness lies. For each position it searches, to --nodes, the
position after the surprised move (the opponent to move) and the position after the game's
reply (the surprised side to move). If the engine finds the reply when it is the opponent's
move, the reply was within its sight and its search of the earlier position did not look at it
(selectivity: pruning, reductions, move order); if it does not, the reply is beyond the
engine's horizon at these nodes, or its evaluation misjudges what follows. The score after the
reply says how much of the fall a search at these nodes sees.

`trace` asks how the search of the surprised move treated the reply (issue 56, item 2): it searches
each position with only the played move at the root (`go nodes N searchmoves PLAYED`) and the
engine's UCI option Trace Replies on (docs/usage.md), and from the `info string reply` lines of
the last iteration that reached the game's reply takes its number in the move order at its node,
whether late move or futility pruning left it out, its reduction, and how many plies short of its
node's depth - 1 it was searched; the suite's control positions (`extract --control N`: moves
whose score did not fall) are summarised apart, as the baseline of a search that was right.

Usage:
  scripts/surprise-suite.py extract --pgn GAMES.pgn[.gz] [--pgn ...] --name ENGINE
      [--surprise-cp 150] [--control N --seed S] --out SUITE.json
  scripts/surprise-suite.py run --suite SUITE.json --engine NAME=COMMAND [--engine ...]
      [--option NAME:KEY=VALUE ...] --nodes N [--hash MB] --json OUT [--md OUT]
  scripts/surprise-suite.py replies --suite SUITE.json --engine NAME=COMMAND [--engine ...]
      [--option NAME:KEY=VALUE ...] --nodes N [--hash MB] --json OUT [--md OUT]
  scripts/surprise-suite.py trace --suite SUITE.json --engine NAME=COMMAND [--engine ...]
      [--option NAME:KEY=VALUE ...] --nodes N [--hash MB] --json OUT [--md OUT]

The suite: {"schema": 1, "variant", "engine" (whose surprises), "surprise_cp", "sources"
(the PGN files), "positions": [{"id" ("FILE#GAME:PLY"), "start" (a FEN or "startpos"), "moves"
(before the surprised move), "played", "reply" (the opponent's answer in the game, null where
the game ended), "score_cp", "next_cp", "fall_cp", with --control "control": true on a control}]}; suites written
before "reply" existed lack it, and `replies` refuses them; `run` counts the controls apart
("controls", "controls_kept": how many of them each engine plays again) and `replies` leaves
them out. The run's JSON:
{"schema": 1, "suite", "nodes", "engines": [{"name", "options", "positions", "avoided",
"avoided_share", "depth" (mean), "nodes" (mean), each engine after the first also
"against_first": {"avoided_only_here", "avoided_only_first", "p_avoided", "kept_only_here",
"kept_only_first", "p_kept", "p_both"} (paired position by position with the first engine:
surprises only one of the two avoided, controls only one kept, exact two-sided sign tests)}],
"results": {NAME: [{"id", "best", "depth",
"nodes", "cp", "mate"}]}}. The replies' JSON: {"schema": 1, "suite", "nodes", "engines":
[{"name", "options", "positions", "found" (the reply was the engine's move), "found_share",
"fall_seen" (mean of score_cp minus the score after the reply, the surprised side's view, cp;
mate scores left out; score_cp is the surprised engine's, so for another engine this mixes two
scales), "misses", "miss_gap" (over the positions where the engine chose another move than the
reply, neither score a mate: the mean of the reply's worth to the opponent by the engine's own
search after it, minus the engine's score of its own choice, cp; how much better its next
search finds the reply than what it expected; null without such positions); with --alone also
"alone_above" (of the misses, how many score the reply, searched alone by `go nodes N
searchmoves REPLY` in the position after the surprised move, above the engine's choice) and
"alone_gap" (the mean of that score less the choice's, cp)}], "results": {NAME: [{"id", "reply", "best", "found", "cp", "mate"
(the opponent's search, its view), "after_cp", "after_mate" (the search after the reply, the
surprised side's view), with --alone "alone_best" (the reply, when the engine obeys
searchmoves), "alone_cp", "alone_mate" (the reply searched alone, the opponent's view)}]}}.
The trace's JSON: {"schema": 1, "suite", "nodes", "engines": [{"name", "options", "surprises"
and "controls": {"positions", "seen" (the reply was among the traced replies: a cut-off before
it leaves it out), "expected" (the line's second move was the reply), "pruned", "reduced",
"number", "reduction", "short" (means over those seen; short over those searched)}}],
"results": {NAME: [{"id", "control", "played", "reply", "expected", "depth", "traced" (reply
lines read), "seen", and where seen "number", "node_depth", "pruned", "reduction", "searched"
(the engine's own fields), "cp" (the reply's value from the replying side, a bound outside the
window), "short", "at_depth" (the iteration)}]}}.
Exit status 1 with a one-line message on bad input (a missing or damaged file, a suite of
another shape, a position an engine refuses, a flag out of range); outputs are written whole or
not at all.
"""
import argparse
import gzip
import json
import math
import os
import random
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
    """The suite of a.name's surprises in a.pgn's games (and with --control N, N of its moves
    whose score did not fall by its next move, drawn by --seed, marked "control")."""
    positions, controls, variants = [], [], set()
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
                surprise = before - after >= a.surprise_cp
                if not surprise and not (a.control and before - after <= 0):
                    continue
                p = {"id": f"{os.path.basename(path)}#{g}:{ply}",
                     "start": tags.get("FEN", "startpos"),
                     "moves": [m for m, _ in moves[:ply - 1]],
                     "played": moves[ply - 1][0],
                     "reply": moves[ply][0] if ply < len(moves) else None,
                     "score_cp": before, "next_cp": after, "fall_cp": before - after}
                if surprise:
                    positions.append(p)
                else:
                    controls.append(dict(p, control=True))
    if len(variants) > 1:
        fail(f"the games are of more than one variant ({', '.join(sorted(variants))})")
    if not positions:
        fail(f"no move of {a.name} in these games fell by {a.surprise_cp} cp or more (is the "
             "name as the PGN's White and Black tags spell it, and were the games played "
             "with --move-info?)")
    drawn = random.Random(a.seed).sample(controls, min(a.control, len(controls)))
    drawn.sort(key=lambda p: controls.index(p))  # in the games' order
    suite = {"schema": SCHEMA, "variant": variants.pop(), "engine": a.name,
             "surprise_cp": a.surprise_cp, "sources": [os.path.basename(p) for p in a.pgn],
             "positions": positions + drawn}
    write_or_fail(a.out, json.dumps(suite, indent=1) + "\n")
    print(f"{len(positions)} positions of {a.name}'s surprises and {len(drawn)} controls (of "
          f"{len(controls)} moves whose score held) into {a.out}")


def read_suite(path):
    """The suite at path (gzipped where the name ends in .gz), its shape checked."""
    opener = gzip.open if path.endswith(".gz") else open
    try:
        with opener(path, "rt", encoding="utf-8") as fh:
            suite = json.load(fh)
    except gzip.BadGzipFile:
        fail(f"{path}: not a gzip file")
    except EOFError:
        fail(f"{path}: a damaged gzip file (it ends too soon)")
    except OSError as e:
        fail(f"{path}: {e.strerror or e}")
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
        words = p["moves"] + [p["played"]] + ([p["reply"]] if p.get("reply") is not None else [])
        if not all(isinstance(m, str) and m.isascii() and m.isalnum() for m in words) or \
                "\n" in p["start"]:
            fail(f"{path}: position {i} ({p['id'][:60]}): a move or start that is not one")
    return suite


def parse_engines(specs, options):
    try:
        return uci_engine.parse_engines(specs, options)
    except ValueError as e:
        fail(str(e))


def refused(engine, start, moves):
    """The engine's complaint about the position (an `info string error` line), or None."""
    engine.position(start, moves)
    engine.send("isready")
    for line in engine.wait_for("readyok"):
        if line.startswith("info string error"):
            return line[len("info string "):]
    return None


def start_engines(a, suite, lines):
    """The engines of a, started and each checked on every position; lines(p) gives the
    searches of position p, (moves, go arguments after the node limit) each (the longest move
    list is checked). Fails before any
    search on bad flags, an engine that will not start, or a position an engine refuses."""
    engines = parse_engines(a.engine, a.option)
    if not engines:
        fail("no --engine given")
    if a.nodes < 1 or not 1 <= a.hash <= 65536:
        fail("--nodes must be at least 1 and --hash in [1, 65536] MB")
    for path in [a.json] + ([a.md] if a.md else []):
        check_output(path)
    running, ready = {}, False
    try:
        for name, cmd, opts in engines:
            base = {"Threads": 1, "Hash": a.hash, "UCI_Variant": suite["variant"]}
            running[name] = Engine([cmd], {**base, **opts})
        for name, _, _ in engines:  # every check before the work starts
            for p in suite["positions"]:
                why = refused(running[name], p["start"], max((m for m, _ in lines(p)), key=len))
                if why:
                    fail(f"{name} refuses position {p['id']}: {why}")
        ready = True
    except EngineError as e:
        fail(str(e))
    finally:
        if not ready:  # a refusal or a failed start: no engine is left running
            for x in running.values():
                x.close()
    return engines, running


def search_all(a, suite, lines, record, collect=None):
    """Searches each position's lines (lines(p): (moves, go arguments after the node limit)
    each) with every engine to a.nodes and keeps
    record(p, searches) for each; returns the engines and {name: [records]}. collect: a line
    prefix whose lines each search keeps (uci_engine.Engine.search)."""
    engines, running = start_engines(a, suite, lines)
    positions = suite["positions"]
    results = {name: [] for name, _, _ in engines}
    try:
        for i, p in enumerate(positions, 1):
            for name, _, _ in engines:
                got = [running[name].search(p["start"], m, f"nodes {a.nodes} {extra}".rstrip(),
                                            collect=collect)
                       for m, extra in lines(p)]
                results[name].append(record(p, got))
            print(f"[{i}/{len(positions)}]", file=sys.stderr, flush=True)
    except EngineError as e:
        fail(str(e))
    finally:
        for e in running.values():
            e.close()
    return engines, results


def options_text(opts):
    """An engine's options as the Markdown tables write them: KEY=VALUE ..., or -."""
    return " ".join(f"{k}={v}" for k, v in opts.items()) or "-"


def write_outputs(a, rows, results, md):
    """The JSON ({schema, suite, nodes, engines: rows, results}) to a.json, the Markdown lines md
    to a.md and standard output."""
    out = {"schema": SCHEMA, "suite": a.suite, "nodes": a.nodes, "engines": rows,
           "results": results}
    write_or_fail(a.json, json.dumps(out, indent=1) + "\n")
    text = "\n".join(md) + "\n"
    if a.md:
        write_or_fail(a.md, text)
    sys.stdout.write(text)


def sign_test(wins, losses):
    """The two-sided p-value of an exact sign test: wins against losses, ties left out, under
    even odds (the paired screen of docs/strength-log.md)."""
    n, k = wins + losses, min(wins, losses)
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2.0 ** n
    return min(1.0, 2.0 * tail)


def paired(first, other, positions, good):
    """(other's wins, other's losses) against first over positions: where good(result,
    position) holds for one engine and not the other."""
    w = sum(good(o, p) and not good(f, p) for f, o, p in zip(first, other, positions))
    l = sum(good(f, p) and not good(o, p) for f, o, p in zip(first, other, positions))
    return w, l


def run(a):
    suite = read_suite(a.suite)
    positions = suite["positions"]
    engines, results = search_all(
        a, suite, lambda p: [(p["moves"], "")],
        lambda p, got: {"id": p["id"], "best": got[0]["best"], "depth": got[0]["depth"],
                        "nodes": got[0]["nodes"], "cp": got[0]["cp"], "mate": got[0]["mate"]})
    rows = []
    for name, _, opts in engines:
        res = results[name]
        pairs = [(r, p) for r, p in zip(res, positions) if not p.get("control")]
        kept = [(r, p) for r, p in zip(res, positions) if p.get("control")]
        avoided = sum(r["best"] != p["played"] for r, p in pairs)
        depths = [r["depth"] for r in res if r["depth"]]
        nodes = [r["nodes"] for r in res if r["nodes"]]
        rows.append({"name": name, "options": opts, "positions": len(pairs), "avoided": avoided,
                     "avoided_share": avoided / len(pairs) if pairs else None,
                     "depth": sum(depths) / len(depths) if depths else None,
                     "nodes": sum(nodes) / len(nodes) if nodes else None})
        if kept:  # a move that held: keeping it is good
            same = sum(r["best"] == p["played"] for r, p in kept)
            rows[-1].update(controls=len(kept), controls_kept=same)
        if rows[0] is not rows[-1]:  # paired with the first engine, position by position
            first = results[engines[0][0]]
            surprises = [not p.get("control") for p in positions]
            w, l = paired([f for f, s in zip(first, surprises) if s],
                          [r for r, s in zip(res, surprises) if s],
                          [p for p, s in zip(positions, surprises) if s],
                          lambda r, p: r["best"] != p["played"])
            cw, cl = paired([f for f, s in zip(first, surprises) if not s],
                            [r for r, s in zip(res, surprises) if not s],
                            [p for p, s in zip(positions, surprises) if not s],
                            lambda r, p: r["best"] == p["played"])
            rows[-1]["against_first"] = {
                "avoided_only_here": w, "avoided_only_first": l, "p_avoided": sign_test(w, l),
                "kept_only_here": cw, "kept_only_first": cl, "p_kept": sign_test(cw, cl),
                "p_both": sign_test(w + cw, l + cl)}
    md = [f"{rows[0]['positions']} positions of {suite['engine']}'s surprises "
          f"({', '.join(suite.get('sources', []))}), {a.nodes} nodes each\n",
          "| engine | options | avoided | control moves kept | depth |", "|---|---|---|---|---|"]
    for r in rows:
        depth = "-" if r["depth"] is None else f"{r['depth']:.1f}"
        kept = f"{r['controls_kept']} of {r['controls']}" if "controls" in r else "-"
        share = "-" if r["avoided_share"] is None else f"{100 * r['avoided_share']:.0f} %"
        md.append(f"| {r['name']} | {options_text(r['options'])} | {r['avoided']} of "
                  f"{r['positions']} ({share}) | {kept} | {depth} |")
    if len(rows) > 1:
        md += ["", f"Paired with {rows[0]['name']}, position by position (an exact two-sided "
               "sign test, ties left out; a screen decides nothing):", "",
               "| engine | surprises avoided: only it / only " + rows[0]["name"] + " | p | "
               "controls kept: only it / only " + rows[0]["name"] + " | p | both: p |",
               "|---|---|---|---|---|---|"]
        for r in rows[1:]:
            f = r["against_first"]
            md.append(f"| {r['name']} | {f['avoided_only_here']} / {f['avoided_only_first']} | "
                      f"{f['p_avoided']:.3f} | {f['kept_only_here']} / {f['kept_only_first']} | "
                      f"{f['p_kept']:.3f} | {f['p_both']:.3f} |")
    write_outputs(a, rows, results, md)


def replies(a):
    """Whether each engine finds the game's reply to the surprised move, and the score it
    gives after that reply (module docstring)."""
    suite = read_suite(a.suite)
    if any("reply" not in p for p in suite["positions"]):
        fail(f"{a.suite}: its positions have no reply (a suite written before `extract` kept "
             "them: extract it again)")
    suite = dict(suite, positions=[p for p in suite["positions"]
                                   if p["reply"] and not p.get("control")])
    if not suite["positions"]:
        fail(f"{a.suite}: no position has a reply (every surprised move ended its game)")
    positions = suite["positions"]

    def record(p, got):
        opp, after = got[:2]
        r = {"id": p["id"], "reply": p["reply"], "best": opp["best"],
             "found": opp["best"] == p["reply"], "cp": opp["cp"], "mate": opp["mate"],
             "after_cp": after["cp"], "after_mate": after["mate"]}
        if a.alone:
            r.update(alone_best=got[2]["best"], alone_cp=got[2]["cp"], alone_mate=got[2]["mate"])
        return r

    def lines(p):
        after = p["moves"] + [p["played"]]
        return [(after, ""), (after + [p["reply"]], "")] + (
            [(after, f"searchmoves {p['reply']}")] if a.alone else [])
    engines, results = search_all(a, suite, lines, record)
    rows = []
    for name, _, opts in engines:
        res = results[name]
        found = sum(r["found"] for r in res)
        falls = [p["score_cp"] - r["after_cp"] for r, p in zip(res, positions)
                 if r["after_cp"] is not None and isinstance(p.get("score_cp"), int)]
        gaps = [-r["after_cp"] - r["cp"] for r in res if not r["found"] and
                r["cp"] is not None and r["after_cp"] is not None]
        rows.append({"name": name, "options": opts, "positions": len(res), "found": found,
                     "found_share": found / len(res),
                     "fall_seen": sum(falls) / len(falls) if falls else None,
                     "misses": len(res) - found,
                     "miss_gap": sum(gaps) / len(gaps) if gaps else None})
        if a.alone:
            alone = [r["alone_cp"] - r["cp"] for r in res if not r["found"] and
                     r["cp"] is not None and r["alone_cp"] is not None]
            rows[-1].update(alone_above=sum(g > 0 for g in alone),
                            alone_gap=sum(alone) / len(alone) if alone else None)
    falls = [p["fall_cp"] for p in positions if isinstance(p.get("fall_cp"), int)]
    fall = sum(falls) / len(falls) if falls else 0
    md = [f"{len(positions)} positions of {suite['engine']}'s surprises with a reply "
          f"({', '.join(suite.get('sources', []))}), {a.nodes} nodes a search; in the games the "
          f"score fell {fall:.0f} cp on average by the next move\n",
          "| engine | options | reply found | fall seen after the reply (cp) | "
          "a miss's reply, better than expected (cp) |",
          "|---|---|---|---|---|"]
    for r in rows:
        seen = "-" if r["fall_seen"] is None else f"{r['fall_seen']:.0f}"
        gap = "-" if r["miss_gap"] is None else f"{r['miss_gap']:+.0f}"
        md.append(f"| {r['name']} | {options_text(r['options'])} | {r['found']} of "
                  f"{r['positions']} ({100 * r['found_share']:.0f} %) | {seen} | {gap} |")
    if a.alone:
        md += ["", "The reply searched alone (`searchmoves`, the same nodes) where the engine chose "
               "another move:", "", "| engine | misses scoring the reply above the choice | "
               "mean, reply alone less the choice (cp) |", "|---|---|---|"]
        for r in rows:
            gap = "-" if r["alone_gap"] is None else f"{r['alone_gap']:+.0f}"
            md.append(f"| {r['name']} | {r['alone_above']} of {r['misses']} | {gap} |")
    write_outputs(a, rows, results, md)



REPLY_LINE = "info string reply "


def parse_reply(line):
    """An `info string reply` line (Trace Replies, docs/usage.md) as a dict, or None."""
    t = line[len(REPLY_LINE):].split()
    try:
        r = {"depth": int(t[t.index("depth") + 1]), "root": t[t.index("root") + 1],
             "move": t[t.index("move") + 1], "number": int(t[t.index("number") + 1]),
             "node_depth": int(t[t.index("nodedepth") + 1]), "pruned": "pruned" in t}
        if not r["pruned"]:
            r["reduction"] = int(t[t.index("reduction") + 1])
            r["searched"] = int(t[t.index("searched") + 1])
            i = t.index("score")
            r["cp"] = int(t[i + 2]) if t[i + 1] == "cp" else None
    except (ValueError, IndexError):
        return None
    return r


def reply_record(p, got):
    """What the search of the surprised move (searchmoves PLAYED) did with the game's reply: at
    the last iteration whose replies include it, its number, whether pruned, its reduction, how
    many plies short of its node's depth - 1 it was searched, and the reply the engine's line
    expected (its pv's second move)."""
    traced = [r for r in map(parse_reply, got[0]["collected"]) if r and r["root"] == p["played"]]
    mine = [r for r in traced if r["move"] == p["reply"]]
    pv = got[0]["pv"]
    out = {"id": p["id"], "control": bool(p.get("control")), "played": p["played"],
           "reply": p["reply"], "expected": pv[1] if len(pv) > 1 else None,
           "depth": got[0]["depth"], "traced": len(traced)}
    if not mine:
        return dict(out, seen=False)
    last = mine[-1]
    rest = {k: last.get(k) for k in ("number", "node_depth", "pruned", "reduction", "searched",
                                      "cp")}
    rest["short"] = None if last["pruned"] else last["node_depth"] - 1 - last["searched"]
    rest["at_depth"] = last["depth"]
    return dict(out, seen=True, **rest)


def mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def trace_row(name, opts, res):
    """One engine's summary over records res (surprises and controls apart)."""
    row = {"name": name, "options": opts}
    for part, recs in (("surprises", [r for r in res if not r["control"]]),
                       ("controls", [r for r in res if r["control"]])):
        seen = [r for r in recs if r["seen"]]
        searched = [r for r in seen if not r["pruned"]]
        row[part] = {
            "positions": len(recs), "seen": len(seen),
            "expected": sum(r["expected"] == r["reply"] for r in recs),
            "pruned": sum(r["pruned"] for r in seen),
            "reduced": sum(r["reduction"] > 0 for r in searched),
            "number": mean([r["number"] for r in seen]),
            "reduction": mean([r["reduction"] for r in searched]),
            "short": mean([r["short"] for r in searched])}
    return row


def trace(a):
    """How each engine's search of the surprised move treated the game's reply (issue 56, item
    2): where it came in the move order, whether it was pruned or reduced, how deep it was
    searched; the suite's controls (extract --control) apart, as the baseline."""
    suite = read_suite(a.suite)
    suite = dict(suite, positions=[p for p in suite["positions"] if p.get("reply")])
    if not suite["positions"]:
        fail(f"{a.suite}: no position has a reply")
    a.option = list(a.option) + [f"{n.split('=', 1)[0]}:Trace Replies=true" for n in a.engine]
    engines, results = search_all(
        a, suite, lambda p: [(p["moves"], f"searchmoves {p['played']}")], reply_record,
        collect=REPLY_LINE)
    rows = [trace_row(name, opts, results[name]) for name, _, opts in engines]
    md = [f"The game's reply to each move of {suite['engine']} ({', '.join(suite.get('sources', []))}"
          f"), in the search of that move alone (`go nodes {a.nodes} searchmoves MOVE`), at the "
          "last iteration that reached it\n",
          "| engine | options | set | positions | reply searched | expected by the line | pruned | "
          "reduced | mean number | mean reduction | plies short |", "|---|---|---|---|---|---|---|---|---|---|---|"]

    def f(x, fmt):
        return "-" if x is None else format(x, fmt)
    for r in rows:
        opts = options_text({k: v for k, v in r["options"].items() if k != "Trace Replies"})
        for part in ("surprises", "controls"):
            s = r[part]
            if not s["positions"]:
                continue
            md.append(f"| {r['name']} | {opts} | {part} | {s['positions']} | {s['seen']} | "
                      f"{s['expected']} | {s['pruned']} | {s['reduced']} | {f(s['number'], '.1f')} | "
                      f"{f(s['reduction'], '.2f')} | {f(s['short'], '.2f')} |")
    write_outputs(a, rows, results, md)

def main():
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    ex = sub.add_parser("extract", help="a suite of an engine's surprises in PGNs")
    ex.add_argument("--pgn", action="append", required=True, help="games (repeat)")
    ex.add_argument("--name", required=True, help="the engine, as the PGN names it")
    ex.add_argument("--surprise-cp", type=int, default=150, metavar="CP")
    ex.add_argument("--control", type=int, default=0, metavar="N",
                    help="also N moves whose score did not fall, drawn by --seed [0]")
    ex.add_argument("--seed", type=int, default=1)
    ex.add_argument("--out", required=True)
    for command, text in (("run", "how often each engine avoids the surprised moves"),
                          ("replies", "whether each engine finds the reply that surprised"),
                          ("trace", "how the search of each surprised move treated the reply")):
        sp = sub.add_parser(command, help=text)
        sp.add_argument("--suite", required=True)
        sp.add_argument("--engine", action="append", default=[], help="NAME=COMMAND (repeat)")
        sp.add_argument("--option", action="append", default=[], help="NAME:KEY=VALUE (repeat)")
        sp.add_argument("--nodes", type=int, required=True)
        sp.add_argument("--hash", type=int, default=16, help="MB per engine [16]")
        sp.add_argument("--json", required=True)
        sp.add_argument("--md")
        if command == "replies":
            sp.add_argument("--alone", action="store_true",
                            help="also search the reply alone (searchmoves) after the surprised move")
    a = ap.parse_args()
    if a.command == "extract":
        if a.surprise_cp <= 0:
            fail("--surprise-cp takes a positive number of centipawns")
        if a.control < 0:
            fail("--control takes a count of 0 or more")
        check_output(a.out)
        extract(a)
    elif a.command == "run":
        run(a)
    elif a.command == "trace":
        trace(a)
    else:
        replies(a)


if __name__ == "__main__":
    main()
