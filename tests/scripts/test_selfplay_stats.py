#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/selfplay_stats.py names the variant's sides and counts draws as draws (issue 23):
on a xiangqi run with drawn games (winner 2) it prints Red/Black, never Cho/Han, each share a
fraction of its reason's games (a draw is no Black win: before, "han_share" averaged the code
2 and showed 2.000), and the overall results line equals the counts read from the shards
here with h5py; a janggi run still says Cho/Han.

Usage: test_selfplay_stats.py HANSU_SELFPLAY WORK_DIR"""
import glob
import os
import re
import shutil
import subprocess
import sys


REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "scripts"))
import hansu_shard  # noqa: E402


def check(cond, msg):
    if not cond:
        print("FAIL: " + msg, file=sys.stderr)
        sys.exit(1)


def run_stats(selfplay, out, variant):
    r = subprocess.run([selfplay, "--variant", variant, "--games", "12", "--nodes", "60",
                        "--threads", "1", "--hash", "1", "--no-bench", "--progress", "1000",
                        "--seed", "1", "--out", out], capture_output=True, text=True)
    check(r.returncode == 0, f"{variant} self-play: {r.stderr}")
    r = subprocess.run(["/usr/bin/python3", os.path.join(REPO, "scripts", "selfplay_stats.py"),
                        out], capture_output=True, text=True)
    check(r.returncode == 0 and "Traceback" not in r.stderr, f"selfplay_stats: {r.stderr}")
    winners = []
    for path in sorted(glob.glob(os.path.join(out, "shard-*.h5"))):
        with hansu_shard.open_shard(path) as f:
            winners += list(f["games/winner"][:])
    return r.stdout, winners


def main(argv):
    selfplay, work = argv[1], argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    text, winners = run_stats(selfplay, os.path.join(work, "xq"), "xiangqi")
    n = len(winners)
    check(winners.count(2) > 0, "no drawn game in the xiangqi run: the test needs one (seed?)")
    want = (f"results: Red wins {100 * winners.count(0) / n:.1f}%, Black wins "
            f"{100 * winners.count(1) / n:.1f}%, draws {100 * winners.count(2) / n:.1f}%")
    check(want in text, f"want '{want}' in:\n{text}")
    check(not re.search(r"\b(Cho|Han)\b|\b(cho|han)_", text),
          f"janggi side names on xiangqi:\n{text}")
    table = text.split("results by reason")[1].split("\n\n")[0].splitlines()
    check("red_wins" in table[1] and "black_wins" in table[1] and "draws" in table[1],
          f"reason table header: {table[1]!r}")
    shares = [float(x) for row in table[3:] for x in re.findall(r"\d+\.\d+", row)]
    check(shares and all(0 <= x <= 1 for x in shares), f"a share outside 0..1: {table}")
    draws = sum(int(row.split()[1]) * float(row.split()[4]) for row in table[3:])
    check(round(draws) == winners.count(2), f"the reason table shows {draws} draws, the "
          f"shards hold {winners.count(2)}")

    text, winners = run_stats(selfplay, os.path.join(work, "jg"), "janggi")
    n = len(winners)
    want = (f"results: Cho wins {100 * winners.count(0) / n:.1f}%, Han wins "
            f"{100 * winners.count(1) / n:.1f}%, draws 0.0%")
    check(want in text and "per pairing" in text, f"janggi: want '{want}' in:\n{text}")
    shutil.rmtree(work)
    print("selfplay_stats: xiangqi Red/Black with draws as draws, janggi Cho/Han")


if __name__ == "__main__":
    main(sys.argv)
