#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""hansu-match's opening books (issue 43): a PGN book (any PGN hansu-match writes: each game's
[FEN] and its first --openings-plies plies), an EPD book (with operations), --openings-order
random (the same openings, shuffled by --seed) and --openings-start (a match split in two plays
the openings of the whole); positions checked against Hansu's own `d` after `position fen F moves
...`; a bad move and a book of another variant named with their file and line.

Usage: books_cli.py HANSU_MATCH FAKE_ENGINE HANSU WORK_DIR"""
import os
import re
import shutil
import subprocess
import sys

MATCH, FAKE, HANSU, WORK = sys.argv[1:5]
FAILURES = []
PAIR = ["--engine", f"cmd={FAKE}", "name=A", "--engine", f"cmd={FAKE}", "name=B", "--nodes", "1"]


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print(f"FAIL: {what}")


def run(argv):
    return subprocess.run([MATCH] + argv, capture_output=True, text=True, timeout=60)


def games(path):
    with open(path) as f:
        chunks = re.split(r"\n(?=\[Event )", f.read().strip())
    out = []
    for c in chunks:
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', c, re.M))
        body = re.sub(r"\{[^}]*\}", "", c.split("\n\n", 1)[1])
        out.append((tags, [w for w in body.split() if re.match(r"^[a-i]\d+[a-i]\d+$", w)]))
    return out


def hansu_fen(fen, moves):
    """The FEN Hansu writes after fen and moves (its `d` command)."""
    cmd = f"position fen {fen}" + (" moves " + " ".join(moves) if moves else "")
    r = subprocess.run([HANSU], input=f"{cmd}\nd\nquit\n", capture_output=True, text=True,
                       timeout=30)
    return re.search(r"^Fen: (.*)$", r.stdout, re.M).group(1)


def starts(path):
    """The start FEN of each pair of a match's PGN."""
    return [t["FEN"] for t, _ in games(path)][::2]


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    src = os.path.join(WORK, "src.pgn")
    r = run(PAIR + ["--games", "8", "--random-plies", "3", "--seed", "3", "--pgn", src])
    check(r.returncode == 0, f"source match: {r.stderr}")
    book = games(src)
    # PGN book, 5 plies of each game: pair k plays book game k.
    out = os.path.join(WORK, "pgn.pgn")
    r = run(PAIR + ["--games", "8", "--openings", src, "--openings-plies", "5", "--pgn", out])
    check(r.returncode == 0 and "(the first 5 plies of each game)" in r.stdout,
          f"pgn book: {r.stdout[-300:]} {r.stderr}")
    want = [hansu_fen(t["FEN"], m[:5]) for t, m in book]
    check(starts(out) == want[:4], f"pgn book: starts {starts(out)} want {want[:4]}")
    # EPD book: four fields and operations; the counters are 0 1.
    epd = os.path.join(WORK, "b.epd")
    with open(epd, "w") as f:
        f.write("# an EPD book\n")
        for i, w in enumerate(want):
            f.write(" ".join(w.split()[:4]) + f' id "pos {i}"; hmvc 0;\n')
    out = os.path.join(WORK, "epd.pgn")
    r = run(PAIR + ["--games", "8", "--openings", epd, "--pgn", out])
    check(r.returncode == 0, f"epd book: {r.stderr}")
    want_epd = [hansu_fen(" ".join(w.split()[:4]) + " 0 1", []) for w in want]
    check(starts(out) == want_epd[:4], f"epd book: {starts(out)} want {want_epd[:4]}")
    # Random order: the same openings, another order, the same for the same seed.
    rnd = []
    for tag, seed in (("r1", "9"), ("r2", "9"), ("r3", "10")):
        out = os.path.join(WORK, tag + ".pgn")
        r = run(PAIR + ["--games", "16", "--openings", epd, "--openings-order", "random",
                        "--seed", seed, "--pgn", out])
        check(r.returncode == 0 and "in random order" in r.stdout, f"random: {r.stderr}")
        rnd.append(starts(out))
    check(sorted(rnd[0]) == sorted(want_epd), "random: not the book's openings")
    check(rnd[0] == rnd[1] and rnd[0] != want_epd and rnd[0] != rnd[2],
          f"random: orders {rnd}")
    # A match split in two with --openings-start plays the openings of the whole.
    halves = []
    for start in ("1", "3"):
        out = os.path.join(WORK, f"half{start}.pgn")
        r = run(PAIR + ["--games", "4", "--openings", epd, "--openings-start", start,
                        "--pgn", out])
        check(r.returncode == 0 and (start == "1" or "from opening 3" in r.stdout),
              f"start {start}: {r.stdout[-200:]} {r.stderr}")
        halves += starts(out)
    check(halves == want_epd[:4], f"split: {halves} want {want_epd[:4]}")
    # Errors name the file, the line and the move.
    bad = os.path.join(WORK, "bad.pgn")
    with open(src) as f:
        text = f.read()
    first_move = games(src)[0][1][0]
    with open(bad, "w") as f:
        f.write(text.replace(f" {first_move} ", " a1a9 ", 1))
    lineno = next(i for i, l in enumerate(text.splitlines(), 1) if f" {first_move} " in
                  f" {l} " and not l.startswith("["))
    r = run(PAIR + ["--games", "2", "--openings", bad, "--openings-plies", "3"])
    check(r.returncode == 1 and f"bad.pgn:{lineno}: move \"a1a9\"" in r.stderr,
          f"bad move: {r.stderr}")
    xq = os.path.join(WORK, "xq.pgn")
    with open(xq, "w") as f:
        f.write('[Event "x"]\n[Variant "xiangqi"]\n\n1. h3e3 *\n')
    r = run(PAIR + ["--games", "2", "--openings", xq])
    check(r.returncode == 1 and "xq.pgn:2: a game of xiangqi, not janggi" in r.stderr,
          f"variant: {r.stderr}")
    r = run(PAIR + ["--games", "2", "--openings-order", "shuffled"])
    check(r.returncode == 1 and "'shuffled' is not sequential or random" in r.stderr,
          f"order: {r.stderr}")
    print(f"{len(FAILURES)} failures")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
