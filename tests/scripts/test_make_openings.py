#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The janggi opening suite (issue 25) and the script that makes it: data/openings-janggi.fen has
the variant line on top and the command that made it; every line replays, move by move, from
its pairing's start through Hansu's rules core to the FEN written; the starts are the 16 that
hansu-match plays; no position twice, none in check, no pass, 2-8 plies, the 16 pairings in
turn and evenly; hansu-match reads the file. scripts/make-openings.py on a tiny budget writes a
file that passes the same checks, the same bytes again (cold, from its cache, and from a cache
cut short as by a killed run); its xiangqi file is unchanged; bad flags get one clear error.
Usage: test_make_openings.py BUILD_DIR WORK_DIR"""
import importlib.machinery
import importlib.util
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SCRIPT = os.path.join(ROOT, "scripts", "make-openings.py")
SUITE = os.path.join(ROOT, "data", "openings-janggi.fen")
BUILD, WORK = (os.path.abspath(p) for p in sys.argv[1:3])
HANSU = os.path.join(BUILD, "engine", "hansu")
MATCH = os.path.join(BUILD, "selfplay", "match", "hansu-match")
FSF = "/usr/games/fairy-stockfish"


def load_script():
    loader = importlib.machinery.SourceFileLoader("make_openings", SCRIPT)
    spec = importlib.util.spec_from_loader("make_openings", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def hansu_session(commands):
    """Hansu's answers to each group of UCI commands, groups split at isready/readyok."""
    text = "".join("\n".join(c) + "\nisready\n" for c in commands) + "quit\n"
    out = subprocess.run([HANSU], input=text, capture_output=True, text=True, check=True).stdout
    parts = out.split("readyok\n")
    assert len(parts) == len(commands) + 1, "hansu answered fewer groups than it was sent"
    return parts[:-1]


def product_starts():
    """{pairing name: start FEN} as hansu-match plays them (its PGN's Opening and FEN tags)."""
    pgn = os.path.join(WORK, "starts.pgn")
    for p in (pgn, pgn + ".state"):
        if os.path.exists(p):
            os.remove(p)
    subprocess.run([MATCH, "--engine", f"cmd={HANSU}", "--engine", f"cmd={HANSU}", "--depth", "1",
                    "--games", "32", "--openings", "starts", "--pgn", pgn], capture_output=True, check=True)
    text = open(pgn).read()
    starts = dict(zip(re.findall(r'\[Opening "([^"]+)"\]', text),
                      re.findall(r'\[FEN "([^"]+)"\]', text)))
    assert len(starts) == 16, f"hansu-match played {len(starts)} pairings, not 16"
    return starts


def check_book(path, mod, starts, plies=(2, 8)):
    """Every promise of a janggi book file, with Hansu as the judge."""
    lines = open(path).read().splitlines()
    assert lines[0] == "# variant: janggi", f"{path}: first line is '{lines[0]}'"
    assert any(l.startswith("# Made by: scripts/make-openings.py --variant janggi ") for l in lines)
    entries = []
    for i, line in enumerate(lines):
        if line.startswith("#") or not line:
            continue
        m = re.fullmatch(r"# ([a-z-]+ vs [a-z-]+): ((?:[a-i]\d+[a-i]\d+ ?)+) \((hansu d\d+ [+-]\d+.*)\)",
                         lines[i - 1])
        assert m, f"{path}:{i + 1}: the comment before the FEN is '{lines[i - 1]}'"
        entries.append((m.group(1), m.group(2).split(), line))
    assert entries and len(entries) % 16 == 0, f"{path}: {len(entries)} FENs, not 16 per pairing"
    names = [mod.pairing_name(p) for p in range(16)]
    keys = set()
    commands = []
    for k, (name, moves, fen) in enumerate(entries):
        assert name == names[k % 16], f"{path}: FEN {k} is of {name}, not pairing {k % 16}"
        assert plies[0] <= len(moves) <= plies[1], f"{path}: {len(moves)} plies in {moves}"
        assert not any(mod.is_pass(m) for m in moves), f"{path}: a pass in {moves}"
        key = mod.fen_key(fen)
        assert key not in keys, f"{path}: '{key}' twice"
        keys.add(key)
        commands.append([f"position fen {starts[name]} moves {' '.join(moves)}", "d"])
        commands.append([f"position fen {fen} moves {mod.general_square(fen) * 2}"])
    answers = hansu_session(commands)
    for k, (name, moves, fen) in enumerate(entries):
        replay, passing = answers[2 * k], answers[2 * k + 1]
        assert "info string" not in replay, f"{path}: hansu refuses {moves}: {replay}"
        assert f"Fen: {fen}\n" in replay, f"{path}: {name} {moves} does not reach '{fen}'"
        assert "in check" not in passing, f"{path}: '{fen}' is in check"
        assert "info string" not in passing, f"{path}: '{fen}': {passing.strip()}"
    return entries


def test_starts(mod, starts):
    """The script's 16 starts are hansu-match's, named as it names them."""
    fens = [mod.pairing_fen(p) for p in range(16)]
    answers = hansu_session([[f"position fen {f}", "d"] for f in fens])
    for p in range(16):
        assert f"Fen: {starts[mod.pairing_name(p)]}\n" in answers[p], \
            f"pairing {p} ({mod.pairing_name(p)}): the script's start is not hansu-match's"


def test_suite(mod, starts):
    entries = check_book(SUITE, mod, starts)
    assert 400 <= len(entries) <= 600, f"the suite has {len(entries)} openings"
    # hansu-match takes the file: pair k starts from FEN k.
    pgn = os.path.join(WORK, "suite.pgn")
    for p in (pgn, pgn + ".state"):
        if os.path.exists(p):
            os.remove(p)
    subprocess.run([MATCH, "--engine", f"cmd={HANSU}", "--engine", f"cmd={HANSU}", "--depth", "1",
                    "--games", "8", "--openings", SUITE, "--pgn", pgn], capture_output=True,
                   check=True)
    played = re.findall(r'\[FEN "([^"]+)"\]', open(pgn).read())
    assert played == [e[2] for e in entries[:4] for _ in range(2)], "hansu-match reads it otherwise"


def make(args, check=True):
    r = subprocess.run([SCRIPT, "--hansu", HANSU] + args, capture_output=True, text=True, cwd=WORK)
    assert not check or r.returncode == 0, f"make-openings {args}: {r.stderr}"
    return r


def test_tiny(mod, starts):
    tiny = ["--variant", "janggi", "--candidates", "hansu", "--per-pairing", "2", "--depth", "2",
            "--check-depth", "3", "--seed", "7"]
    cache = os.path.join(WORK, "tiny.cache")
    if os.path.exists(cache):
        os.remove(cache)
    make(tiny + ["--cache", cache, "-o", "a.fen"])
    check_book(os.path.join(WORK, "a.fen"), mod, starts)
    a = open(os.path.join(WORK, "a.fen")).read()
    assert "--seed 7 --per-pairing 2 --plies 2-8 --depth 2 --check-depth 3" in a
    make(tiny + ["--cache", cache, "-o", "b.fen"])
    make(tiny + ["--cache", "none", "-o", "c.fen"])
    # A killed run: half the cache and a line cut short.
    kept = open(cache).read().splitlines(keepends=True)
    with open(cache, "w") as f:
        f.write("".join(kept[:len(kept) // 2]) + kept[len(kept) // 2][:20])
    make(tiny + ["--cache", cache, "-o", "d.fen"])
    for other in ("b.fen", "c.fen", "d.fen"):
        assert open(os.path.join(WORK, other)).read() == a, f"{other} differs from a.fen"
    make(tiny[:-1] + ["8", "--cache", "none", "-o", "e.fen"])
    assert open(os.path.join(WORK, "e.fen")).read() != a, "the seed changes nothing"
    if os.access(FSF, os.X_OK):
        make(["--variant", "janggi", "--per-pairing", "1", "--depth", "2", "--check-depth", "3",
              "--fsf-depth", "2", "--multipv", "3", "--margin", "150", "--fsf-margin", "150",
              "--balance", "300", "--fsf-balance", "1000", "--cache", "none", "-o", "f.fen"])
        entries = check_book(os.path.join(WORK, "f.fen"), mod, starts)
        assert all("fsf d2" in l for l in open(os.path.join(WORK, "f.fen"))
                   if re.match(r"# [a-z-]+ vs [a-z-]+: ", l))
        assert len(entries) == 16


def test_xiangqi():
    make(["--variant", "xiangqi", "-o", "x.fen"])
    with open(os.path.join(WORK, "x.fen")) as f, \
            open(os.path.join(ROOT, "data", "openings-xiangqi.fen")) as g:
        assert f.read() == g.read(), "the xiangqi file changed"


def test_errors():
    for args, want in ((["--variant", "janggi", "--per-pairing", "0"], "--per-pairing"),
                       (["--variant", "janggi", "--plies", "8-2"], "--plies"),
                       (["--variant", "janggi", "--hansu", "/nonexistent/hansu"], "no hansu"),
                       (["--variant", "janggi", "--fsf", "/nonexistent/fsf"], "Fairy-Stockfish")):
        r = make(args, check=False)
        assert r.returncode != 0, f"{args} succeeded"
        assert want in r.stderr and "Traceback" not in r.stderr, f"{args}: {r.stderr}"
        assert r.stderr.strip().splitlines()[-1].count(want) >= 1


def main():
    os.makedirs(WORK, exist_ok=True)
    mod = load_script()
    starts = product_starts()
    test_starts(mod, starts)
    test_suite(mod, starts)
    test_tiny(mod, starts)
    test_xiangqi()
    test_errors()
    shutil.rmtree(WORK, ignore_errors=True)
    print("make-openings: all checks passed")


if __name__ == "__main__":
    main()
