#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/tournament-report (issue 43): the page of a hansu-match tournament holds its standings
in the JSON's order, a rating plot with a dot per engine, the crosstable's cells, each pairing,
and every game of its PGN in the board viewer; it loads nothing from outside; a JSON that is not
a tournament's is refused in one line.

Usage: test_tournament_report.py HANSU_MATCH FAKE_ENGINE HANSU WORK_DIR"""
import json
import os
import re
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REPORT = os.path.join(REPO, "scripts", "tournament-report")
MATCH, FAKE, HANSU, WORK = sys.argv[1:5]
FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print(f"FAIL: {what}")


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    js, pgn, out = (os.path.join(WORK, n) for n in ("t.json", "t.pgn", "t.html"))
    r = subprocess.run([MATCH, "--tournament", "round-robin", "--each", f"cmd={FAKE}", "nodes=1",
                        "--engine", "name=A&B", "arg=good", "--engine", "name=<C>",
                        "arg=crash", "arg=50", "--engine", "name=D", "--rounds", "2",
                        "--random-plies", "4", "--json", js, "--pgn", pgn, "--anchor", "D"],
                       capture_output=True, text=True, timeout=60)
    check(r.returncode == 0, f"tournament: {r.stderr}")
    r = subprocess.run([REPORT, js, pgn, "-o", out, "--engine", HANSU], capture_output=True,
                       text=True, timeout=120)
    check(r.returncode == 0 and "3 engines, 12 games" in r.stdout, f"report: {r.stdout} {r.stderr}")
    if r.returncode != 0:
        return 1
    t = json.load(open(js))
    page = open(out, encoding="utf-8").read()
    # Standings in the JSON's order, names escaped.
    table = page[page.index('class="standings"'):page.index("</table>", page.index("standings"))]
    names = re.findall(r"<tr><td>\d+</td><td>(.*?)(?: \*)?</td>", table)
    want = [r["engine"].replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            for r in t["ratings"]]
    check(names == want, f"standings {names}, want {want}")
    check(page.count("<circle ") == 3, "rating plot: not one dot per engine")
    for a, row in t["crosstable"].items():
        for b, (pts, games) in row.items():
            check(f"<td>{pts:g}/{games}</td>" in page, f"crosstable cell {a}-{b} {pts}/{games}")
    check(page.count("</td></tr>") >= 3 + 3 + 3, "pairings or standings rows missing")
    data = re.search(r'<script type="application/json" id="hansu-games">(.*?)</script>', page, re.S)
    games = json.loads(data.group(1))["games"] if data else []
    check(len(games) == 12, f"viewer holds {len(games)} games")
    groups = {g["group"] for g in games}
    check(groups == {"A&B vs <C>", "A&B vs D", "<C> vs D"}, f"viewer groups {groups}")
    check(not re.search(r'(src|href)\s*=\s*"?(https?:|//)', page), "the page loads from outside")
    check("<C>" not in page.split('id="hansu-games"')[0], "a name unescaped in the tables")
    # While a tournament runs: its pairings' PGNs instead of the joined one, the same games.
    parts = sorted(os.path.join(WORK, f) for f in os.listdir(WORK) if re.match(r"t-\d-\d\.pgn$", f))
    out2 = os.path.join(WORK, "parts.html")
    r = subprocess.run([REPORT, js] + parts + ["-o", out2, "--engine", HANSU],
                       capture_output=True, text=True, timeout=120)
    check(r.returncode == 0 and len(parts) == 3 and "3 engines, 12 games" in r.stdout,
          f"pairing PGNs: {parts} {r.stdout} {r.stderr}")
    # A match's JSON is not a tournament's.
    mj = os.path.join(WORK, "m.json")
    subprocess.run([MATCH, "--engine", f"cmd={FAKE}", "--engine", f"cmd={FAKE}", "--nodes", "1",
                    "--games", "2", "--json", mj], capture_output=True, timeout=60)
    r = subprocess.run([REPORT, mj, "-o", os.path.join(WORK, "m.html")], capture_output=True,
                       text=True, timeout=60)
    check(r.returncode == 1 and "not a tournament's JSON" in r.stderr and
          "Traceback" not in r.stderr, f"match JSON: {r.stderr}")
    print(f"{len(FAILURES)} failures")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
