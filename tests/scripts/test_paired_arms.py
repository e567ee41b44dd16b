#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/paired-arms.py: the difference of two arms paired by round, against figures worked
by hand; gzip and plain PGNs alike; and the refusals, each one line with exit status 1: a
missing file, arms whose openings, rounds or opponents differ, a round without both colours,
an unfinished game, an engine named on both sides; --common (arms part-way) and --any-opponent.
Usage: test_paired_arms.py"""
import gzip
import math
import os
import subprocess
import sys
import tempfile

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts",
                      "paired-arms.py")
FENS = ["rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
        "rbna1anbr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RBNA1ANBR w - - 0 1",
        "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RBNA1ABNR w - - 0 1"]


def game(rnd, hansu_white, result, fen, opponent="FSF"):
    white, black = ("Hansu", opponent) if hansu_white else (opponent, "Hansu")
    return (f'[Event "t"]\n[Round "{rnd}"]\n[White "{white}"]\n[Black "{black}"]\n'
            f'[Result "{result}"]\n[FEN "{fen}"]\n\n1. b1c3 a7b7 {result}\n\n')


def match(scores, fens=FENS, opponent="FSF"):
    """scores: per round, Hansu's (white game, black game) scores."""
    res = {1.0: ("1-0", "0-1"), 0.0: ("0-1", "1-0"), 0.5: ("1/2-1/2", "1/2-1/2")}
    text = ""
    for r, (w, b) in enumerate(scores, 1):
        text += game(r, True, res[w][0], fens[(r - 1) % len(fens)], opponent)
        text += game(r, False, res[b][1], fens[(r - 1) % len(fens)], opponent)
    return text


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


def main():
    failures = []

    def check(cond, what):
        if not cond:
            failures.append(what)

    a_scores = [(1, 0), (1, 1), (0, 0), (0.5, 1), (1, 0.5), (0, 1)]
    b_scores = [(1, 1), (1, 1), (0, 1), (1, 1), (1, 0.5), (0, 0)]
    with tempfile.TemporaryDirectory() as d:
        pa, pb = os.path.join(d, "a.pgn.gz"), os.path.join(d, "b.pgn")
        with gzip.open(pa, "wt") as f:
            f.write(match(a_scores))
        with open(pb, "w") as f:
            f.write(match(b_scores))
        p = run(pa, pb)
        check(p.returncode == 0, f"good: rc {p.returncode} {p.stderr}")
        xa = [sum(s) / 2 for s in a_scores]
        xb = [sum(s) / 2 for s in b_scores]
        diff = [y - x for x, y in zip(xa, xb)]
        m = sum(diff) / len(diff)
        sd = math.sqrt(sum((x - m) ** 2 for x in diff) / (len(diff) - 1))
        half = 1.96 * sd / math.sqrt(len(diff))
        want = f"B - A: {m:+.3f} a game, 95 % paired by round +-{half:.3f}"
        check(want in p.stdout, f"good: '{want}' not in {p.stdout!r}")
        check(f"score {sum(xa) / 6:.3f}" in p.stdout and f"score {sum(xb) / 6:.3f}" in p.stdout,
              f"good: the arms' scores: {p.stdout!r}")
        check("6 rounds" in p.stdout, "good: 6 rounds")

        def refused(text_b, what, needle, args=()):
            bad = os.path.join(d, "bad.pgn")
            with open(bad, "w") as f:
                f.write(text_b)
            p = run(pa, bad, *args)
            err = p.stderr.strip()
            check(p.returncode == 1 and needle in err and "\n" not in err and
                  "Traceback" not in p.stderr, f"{what}: rc {p.returncode}, stderr {err!r}")
        refused(match(b_scores, fens=FENS[::-1]), "openings differ", "openings differ")
        refused(match(b_scores[:5]), "a round missing", "rounds differ")
        refused(match(b_scores, opponent="Other"), "opponent differs", "opponent")
        refused(match(b_scores).replace('[Black "Hansu"]', '[Black "X"]', 1), "no pair",
                "not exactly one of")
        refused(match(b_scores) + game(7, True, "1-0", FENS[0]), "one colour only", "not a pair")
        refused(match(b_scores).replace('[Result "1-0"]', '[Result "*"]', 1).replace(
            " 1-0\n", " *\n", 1), "unfinished", "not a finished game's")
        refused(match(b_scores, opponent="Hansu 2"), "engine on both sides",
                "not exactly one of")
        refused(match(b_scores), "empty engine name", "empty name", args=("--engine", ""))
        # --common: B part-way (5 rounds, and the sixth's first game) against A's 6: the 5
        # rounds both have, the rest counted; the same difference as A's first 5 against B's.
        part = os.path.join(d, "part.pgn")
        with open(part, "w") as f:
            f.write(match(b_scores[:5]) + game(6, True, "1-0", FENS[2]))
        p = run(pa, part, "--common")
        dd = diff[:5]
        m5 = sum(dd) / 5
        half5 = 1.96 * math.sqrt(sum((x - m5) ** 2 for x in dd) / 4) / math.sqrt(5)
        want = f"B - A: {m5:+.3f} a game, 95 % paired by round +-{half5:.3f}"
        check(p.returncode == 0 and want in p.stdout, f"--common: {p.stdout!r} {p.stderr!r}")
        check("5 rounds" in p.stdout and "in A only" not in p.stdout and
              "rounds of one game left out: A 0, B 1" in p.stdout, f"--common: {p.stdout!r}")
        # B with 4 rounds whole: round 5 in A only, round 6 of one game in B.
        with open(part, "w") as f:
            f.write(match(b_scores[:4]) + game(6, True, "1-0", FENS[2]))
        p = run(pa, part, "--common")
        check(p.returncode == 0 and "4 rounds" in p.stdout and
              "rounds in A only 1, in B only 0; rounds of one game left out: A 0, B 1" in
              p.stdout, f"--common, 4 rounds: {p.stdout!r}")
        refused(match(b_scores[:5]) + game(6, True, "1-0", FENS[2]), "part-way without --common",
                "not a pair")
        # One arm, one opponent, with or without --any-opponent.
        refused(match(b_scores).replace('"FSF"', '"Other"', 2), "a second opponent",
                "one arm, one opponent", args=("--any-opponent",))
        # The Result tag scores a game, as eval-audit reads it, where the movetext ends otherwise.
        tagged = os.path.join(d, "tagged.pgn")
        with open(tagged, "w") as f:
            f.write(match(b_scores).replace(" 1-0\n", " 0-1\n"))
        p = run(pa, tagged)
        check(p.returncode == 0 and f"score {sum(xb) / 6:.3f}" in p.stdout,
              f"Result tag: {p.stdout!r} {p.stderr!r}")
        even = os.path.join(d, "even.pgn")
        with open(even, "w") as f:
            f.write(match([(1, 0)] * 6))
        p = run(pa, even)
        check(p.returncode == 0 and "score 0.500 (Elo +0.0)" in p.stdout and
              "nan" not in p.stdout and "correlation n/a" in p.stdout,
              f"an arm scoring every pair alike: {p.stdout!r}")
        # --any-opponent: one engine named two ways; both names printed. Other refusals stand.
        other = os.path.join(d, "other.pgn")
        with open(other, "w") as f:
            f.write(match(b_scores, opponent="FSF-11.1"))
        p = run(pa, other, "--any-opponent")
        check(p.returncode == 0 and f"B - A: {m:+.3f} a game" in p.stdout and "6 rounds" in
              p.stdout and
              "'FSF' in A, 'FSF-11.1' in B" in p.stdout, f"--any-opponent: {p.stdout!r}")
        refused(match(b_scores, fens=FENS[::-1], opponent="X"), "--any-opponent, openings",
                "openings differ", args=("--any-opponent",))
        p = run(pa, os.path.join(d, "missing.pgn"))
        check(p.returncode == 1 and "missing.pgn" in p.stderr and "Traceback" not in p.stderr,
              f"missing file: {p.returncode} {p.stderr!r}")
    for f in failures:
        print("FAIL:", f)
    print(f"test_paired_arms: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
