#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/thin-logs: of each block of hansu-match's progress lines it keeps the first, the last
and every N-th pair, and every other line as it was (a resumed match's two blocks each keep
their ends); plain and gzip logs; a second run changes nothing; --check writes nothing and exits
1; a damaged gzip file or a folder is named, exit 2, left as it was, and the other files are
still thinned; a symbolic link is written through; --every below 2 is refused.
Usage: test_thin_logs.py"""
import gzip
import os
import subprocess
import sys
import tempfile

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts",
                      "thin-logs")


def progress(n, total):
    return (f"pairs {n}/{total}  A {n} - {n} B (50.0 %) | Elo 0.0 +/- 9.0, nElo 0.0 +/- 9.0, "
            f"LOS 50.0 % | LLR 0.01 (-2.94, 2.94)")


def log_text():
    lines = ["", "=== 2026-12-06T00:00:00Z hansu-match --games 400 ..."]
    lines += [progress(n, 200) for n in range(1, 121)]
    lines += ["Interrupted after 120 of 200 pairs; --resume continues it.",
              "", "=== 2026-12-07T00:00:00Z hansu-match ... --resume"]
    lines += [progress(n, 200) for n in range(121, 161)]
    lines += ["=== A vs B: 320 games, 160 pairs ===", "Score 160 - 160 (50.0 %)", ""]
    return "\n".join(lines)


def expected_pairs():
    return [1, 50, 100, 120, 121, 150, 160]


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


def pairs_of(text):
    return [int(line.split()[1].split("/")[0]) for line in text.split("\n")
            if line.startswith("pairs ")]


def others_of(text):
    return [line for line in text.split("\n") if not line.startswith("pairs ")]


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def main():
    text = log_text()
    with tempfile.TemporaryDirectory() as d:
        plain, packed = os.path.join(d, "match.txt"), os.path.join(d, "sprt.txt.gz")
        with open(plain, "w") as f:
            f.write(text)
        with open(packed, "wb") as f:
            f.write(gzip.compress(text.encode()))
        # --check: exit 1, nothing written.
        r = run("--check", plain, packed)
        check(r.returncode == 1, f"--check exit {r.returncode}: {r.stderr}")
        check(open(plain).read() == text, "--check wrote the plain log")
        r = run(plain, packed)
        check(r.returncode == 0, f"exit {r.returncode}: {r.stderr}")
        for got in (open(plain).read(), gzip.decompress(open(packed, "rb").read()).decode()):
            check(pairs_of(got) == expected_pairs(), f"pairs kept {pairs_of(got)}")
            check(others_of(got) == others_of(text), "a line that is not progress changed")
        # Thinned logs are a fixed point; --check agrees.
        before = open(packed, "rb").read()
        r = run("--check", plain, packed)
        check(r.returncode == 0 and "nothing to thin" in r.stdout, f"second --check: {r.stdout}")
        check(run(plain, packed).returncode == 0, "second run")
        check(open(packed, "rb").read() == before, "a second run changed the gzip log")
        # A damaged gzip log and a folder are named and left; the good file is still done.
        bad, good = os.path.join(d, "bad.txt.gz"), os.path.join(d, "good.txt")
        with open(bad, "wb") as f:
            f.write(gzip.compress(text.encode())[:200])
        with open(good, "w") as f:
            f.write(text)
        r = run(bad, d, good)
        check(r.returncode == 2, f"damaged file: exit {r.returncode}")
        check("bad.txt.gz" in r.stderr and "gzip" in r.stderr, f"damaged message: {r.stderr}")
        check("not a regular file" in r.stderr, f"folder message: {r.stderr}")
        check(pairs_of(open(good).read()) == expected_pairs(), "the good file was not thinned")
        check(not os.path.exists(bad + ".tmp"), "a temporary was left")
        # A symbolic link is written through and stays a link.
        target, link = os.path.join(d, "target.txt"), os.path.join(d, "link.txt")
        with open(target, "w") as f:
            f.write(text)
        os.symlink(target, link)
        check(run(link).returncode == 0, "through a link")
        check(os.path.islink(link) and pairs_of(open(target).read()) == expected_pairs(),
              "the link's target was not thinned, or the link was replaced")
        # --every 10 keeps more; --every 1 is refused before any file is touched.
        with open(plain, "w") as f:
            f.write(text)
        check(run("--every", "1", plain).returncode == 2, "--every 1 accepted")
        check(open(plain).read() == text, "--every 1 touched the file")
        check(run("--every", "10", plain).returncode == 0, "--every 10")
        check(pairs_of(open(plain).read()) ==
              [1] + list(range(10, 121, 10)) + [121] + list(range(130, 161, 10)),
              f"--every 10 kept {pairs_of(open(plain).read())}")
    print("test_thin_logs: ok")


if __name__ == "__main__":
    main()
