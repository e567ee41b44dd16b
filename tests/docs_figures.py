#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# The README's headline figures agree with docs/results.md: for every row of the README's
# "Headline figures" table, one line of docs/results.md holds the row's date and every number of
# its "what" and "figure" cells (the clock, the games, the result, the error) in the same order,
# so neither page can change a figure, its clock or its date without the other. Before checking
# the pages as they are, the check is run on a README with one figure changed and must fail
# there: the test proves it can fail.
# Usage: tests/docs_figures.py [REPO_ROOT]
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
HEADING = "## Headline figures"
DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
# A number as the pages write it: a sign (+, − or -), digits with thousands commas, a decimal
# part, and a × or % right after it belongs to it ("+291.8", "7.4×", "2,602,176", "−39.9").
NUMBER = re.compile(r"[+−-]?\d[\d,]*(?:\.\d+)?(?:\s?[×%])?")


def numbers(text):
    """The numbers of text in order, dates and backticked names (commands, files) left out."""
    text = DATE.sub(" ", re.sub(r"`[^`]*`", " ", text))
    return [n.replace(" ", "").replace("−", "-") for n in NUMBER.findall(text)]


def headline_rows(readme):
    """[(what, figure, date)] of the README's headline table; ValueError when there is none."""
    lines = readme.splitlines()
    try:
        start = lines.index(HEADING)
    except ValueError:
        raise ValueError(f"README.md has no '{HEADING}' section")
    rows = []
    for line in lines[start + 1:]:
        if line.startswith("## "):
            break
        if not line.startswith("|") or re.match(r"\|\s*-", line):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[:3] == ["what", "figure", "date"]:
            continue
        if len(cells) < 3 or not DATE.fullmatch(cells[2]):
            raise ValueError(f"README.md headline row without a YYYY-MM-DD date: {line}")
        rows.append((cells[0], cells[1], cells[2]))
    if not rows:
        raise ValueError("README.md's headline table has no rows")
    return rows


def is_subsequence(want, have):
    it = iter(have)
    return all(any(w == h for h in it) for w in want)


def problems(readme, results):
    """One line per README headline row that docs/results.md does not state the same."""
    try:
        rows = headline_rows(readme)
    except ValueError as e:
        return [str(e)]
    if len(rows) > 8:
        return [f"README.md's headline table has {len(rows)} rows, at most 8"]
    lines = [(ln, numbers(ln)) for ln in results.splitlines()]
    bad = []
    for what, figure, date in rows:
        want = numbers(what) + numbers(figure)
        if not want:
            bad.append(f"README.md headline '{what}': no figure in '{figure}'")
        elif not any(date in ln and is_subsequence(want, nums) for ln, nums in lines):
            bad.append(f"README.md headline '{what}' = '{figure}' ({date}): docs/results.md has "
                       f"no line with {' '.join(want)} dated {date}")
    return bad


def main():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    with open(os.path.join(ROOT, "docs", "results.md"), encoding="utf-8") as f:
        results = f.read()
    # The check must catch a figure changed on one side only: the first figure of the first
    # headline row, one in its last digit.
    what, figure, date = headline_rows(readme)[0]
    first = numbers(figure)[0]
    changed = first[:-1] + ("1" if first[-1] != "1" else "2")
    mutated = readme.replace(f"| {figure} |", f"| {figure.replace(first, changed, 1)} |", 1)
    if mutated == readme or not problems(mutated, results):
        print(f"FAIL: the check did not catch '{first}' changed to '{changed}' in the README",
              file=sys.stderr)
        return 1
    found = problems(readme, results)
    for p in found:
        print("FAIL: " + p, file=sys.stderr)
    print(f"docs_figures: {len(headline_rows(readme))} headline rows of README.md checked "
          f"against docs/results.md, {len(found)} problems")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
