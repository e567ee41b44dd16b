#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""hansu-match's tournaments (issue 43) between fake engines at 1 node: a round robin and a
gauntlet play the pairings they should, each pairing plays exactly the games of a two-engine
match of its engines, the results agree across the summary, the JSON, the crosstable and the
PGN, --each and --concurrency change nothing in the games, a crashing engine is restarted and
its faults counted, and a tournament stopped (or killed) and resumed ends as one played at once.

Usage: tournament_cli.py HANSU_MATCH FAKE_ENGINE WORK_DIR"""
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

MATCH, FAKE, WORK = sys.argv[1:4]
FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print(f"FAIL: {what}")


def run(argv, timeout=120):
    return subprocess.run([MATCH] + argv, capture_output=True, text=True, timeout=timeout)


def load(path):
    with open(path) as f:
        return json.load(f)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def undated(pgn):
    return re.sub(rb'\[Date "[0-9.]+"\]', b'[Date "DATE"]', pgn)


# A: good; B: crashes at its 41st `go` of each process (restarted, so again and again);
# C and D: good, with a different opening each so their games differ from A's.
ENGINES = [
    ["--engine", "name=A", "arg=good"],
    ["--engine", "name=B", "arg=crash", "arg=40"],
    ["--engine", "name=C", "arg=good"],
    ["--engine", "name=D", "arg=good", "nodes=2"],
]
COMMON = ["--each", f"cmd={FAKE}", "nodes=1", "--random-plies", "6", "--seed", "11"]


def flat(engines):
    return [w for e in engines for w in e]


def fresh(name):
    d = os.path.join(WORK, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def games_in(pgn_path):
    return len(re.findall(rb"^\[Event ", read(pgn_path), re.M))


def check_consistent(js, label, want_pairings, rounds):
    names = js["engines"]
    got = [tuple(p["engines"]) for p in js["pairings"]]
    check(got == want_pairings, f"{label}: pairings {got}, want {want_pairings}")
    for p in js["pairings"]:
        check(p["games"] == 2 * rounds and p["pairs_done"] == rounds,
              f"{label}: {p['engines']} played {p['games']} games")
        a, b = p["engines"]
        pts = js["crosstable"][a][b][0] + js["crosstable"][b][a][0]
        check(pts == p["games"], f"{label}: crosstable {a}-{b} points {pts} of {p['games']}")
        pen = p["pentanomial"]
        check(sum(pen) == p["pairs_done"], f"{label}: {a}-{b} pentanomial {pen}")
        check(sum(h * n for h, n in enumerate(pen)) == 2 * p["wins"][0] + p["draws"],
              f"{label}: {a}-{b} pentanomial {pen} against wins {p['wins']}")
    ratings = js["ratings"]
    check(sorted(r["engine"] for r in ratings) == sorted(names), f"{label}: rating list names")
    elos = [r["elo"] for r in ratings]
    check(elos == sorted(elos, reverse=True), f"{label}: rating list not in order {elos}")
    points = {r["engine"]: r["points"] for r in ratings}
    for n in names:
        want = sum(v[0] for v in js["crosstable"][n].values())
        check(abs(points[n] - want) < 1e-9, f"{label}: {n} points {points[n]} vs crosstable {want}")
    check(js["finished"] and not js["interrupted"], f"{label}: not finished")


def test_round_robin():
    d = fresh("rr")
    pgn, js = os.path.join(d, "t.pgn"), os.path.join(d, "t.json")
    r = run(["--tournament", "round-robin"] + flat(ENGINES) + COMMON +
            ["--rounds", "3", "--concurrency", "3", "--pgn", pgn, "--json", js,
             "--anchor", "C=100", "--rating-interval", "5"])
    check(r.returncode == 0, f"round robin: exit {r.returncode}: {r.stderr}")
    if r.returncode != 0:
        return None
    out = r.stdout
    check("Round robin of 4 engines: 6 pairings, 36 games, 18 pairs" in out,
          "round robin: summary head")
    check(out.count("Rating list (Elo fitted to all games, C = 100") == 4,
          "round robin: rating list at pairs 5, 10, 15 and at the end")
    check("Crosstable" in out, "round robin: no crosstable")
    data = load(js)
    want = [("A", "B"), ("A", "C"), ("A", "D"), ("B", "C"), ("B", "D"), ("C", "D")]
    check_consistent(data, "round robin", want, 3)
    check(data["anchor"] == {"engine": "C", "elo": 100}, "round robin: anchor")
    c = [x for x in data["ratings"] if x["engine"] == "C"][0]
    check(c["elo"] == 100 and c["error"] == 0, f"round robin: anchored C {c}")
    # Every game once in the joined PGN, and each pairing's file beside it.
    check(games_in(pgn) == 36, f"round robin: joined PGN holds {games_in(pgn)} games")
    parts = sorted(glob.glob(os.path.join(d, "t-*-*.pgn")))
    check([os.path.basename(p) for p in parts] ==
          ["t-1-2.pgn", "t-1-3.pgn", "t-1-4.pgn", "t-2-3.pgn", "t-2-4.pgn", "t-3-4.pgn"],
          f"round robin: pairing files {parts}")
    check(read(pgn) == b"".join(read(p) for p in parts), "round robin: joined PGN")
    # Faults: B crashes in its long games; each crash restarts it and is counted as its loss.
    for p in data["pairings"]:
        if "B" in p["engines"]:
            i = p["engines"].index("B")
            crashes = p["reasons"][1 - i].get("crash", 0)
            check(crashes > 0 and p["restarts"][i] == crashes,
                  f"round robin: B's crashes {crashes} and restarts {p['restarts'][i]}")
    check(re.search(r"B +time 0, illegal-move 0, crash [1-9]\d*; restarts [1-9]", out),
          "round robin: B's faults in the summary")
    return data


def test_pairing_is_a_match(rr):
    """Pairing A-D of the round robin played the games of a match of A and D alone."""
    d = fresh("pair")
    pgn = os.path.join(d, "m.pgn")
    r = run(flat([ENGINES[0], ENGINES[3]]) + COMMON + ["--games", "6", "--pgn", pgn])
    check(r.returncode == 0, f"match A-D: exit {r.returncode}: {r.stderr}")
    part = os.path.join(WORK, "rr", "t-1-4.pgn")
    check(undated(read(pgn)) == undated(read(part)), "pairing A-D differs from a match A-D")


def test_concurrency_and_each(rr):
    """One game at a time, and the shared settings given per engine: the same games."""
    d = fresh("one")
    js = os.path.join(d, "t.json")
    engines = [e + [f"cmd={FAKE}"] for e in ENGINES]
    engines[3] = engines[3]  # D keeps its own nodes=2 over --each's nodes=1
    r = run(["--tournament", "round-robin"] + flat(engines) +
            ["--nodes", "1", "--random-plies", "6", "--seed", "11", "--rounds", "3",
             "--json", js, "--anchor", "C=100"])
    check(r.returncode == 0, f"concurrency 1: exit {r.returncode}: {r.stderr}")
    if r.returncode == 0 and rr:
        one = load(js)
        check(one["pairings"] == rr["pairings"], "concurrency 1 / no --each: other pairings")
        check(one["ratings"] == rr["ratings"], "concurrency 1 / no --each: other ratings")


def test_gauntlet():
    d = fresh("gauntlet")
    js = os.path.join(d, "g.json")
    r = run(["--tournament", "gauntlet", "--seeds", "2"] + flat(ENGINES) + COMMON +
            ["--rounds", "2", "--concurrency", "2", "--json", js])
    check(r.returncode == 0, f"gauntlet: exit {r.returncode}: {r.stderr}")
    if r.returncode == 0:
        data = load(js)
        check_consistent(data, "gauntlet", [("A", "C"), ("A", "D"), ("B", "C"), ("B", "D")], 2)
        check(data["anchor"] is None and abs(sum(x["elo"] for x in data["ratings"])) < 1e-6,
              "gauntlet: without --anchor the ratings average 0")
        check("A vs B" not in r.stdout, "gauntlet: the seeds played each other")


def test_resume():
    """Stopped after one pair of each pairing, then resumed: the games and results of one run
    (engines that never crash: B's crashes depend on how long each of its processes has run)."""
    d = fresh("resume")
    pgn, js = os.path.join(d, "t.pgn"), os.path.join(d, "t.json")
    argv = ["--tournament", "round-robin"] + flat([ENGINES[0]] + ENGINES[2:]) + COMMON + \
        ["--rounds", "3", "--concurrency", "2", "--pgn", pgn, "--json", js]
    r = run(argv + ["--stop-after-pairs", "1"])
    check(r.returncode == 2 and "Interrupted after 3 of 9 pairs" in r.stdout,
          f"resume: first run exit {r.returncode}: {r.stdout[-300:]} {r.stderr}")
    check(load(js)["interrupted"], "resume: JSON of the stopped run says interrupted")
    r = run(argv)
    check(r.returncode == 1 and "give --resume to continue it" in r.stderr,
          f"resume: a second run without --resume: {r.stderr}")
    r = run(argv + ["--resume", "--rating-interval", "4"])
    check(r.returncode == 0 and "(3 read back from the state files)" in r.stdout,
          f"resume: exit {r.returncode}: {r.stdout[-400:]} {r.stderr}")
    # The totals count the pairs read back from the start: the first lines say 1, 2, 3 of 9,
    # and the rating list comes at pair 4 (the first new one).
    lines = [l for l in r.stdout.splitlines() if l.startswith("pairs ")]
    check([l.split()[1] for l in lines] == [f"{k}/9" for k in range(1, 10)],
          f"resume: progress {[l.split()[1] for l in lines]}")
    check(r.stdout.index("Rating list") > r.stdout.index("pairs 4/9"), "resume: rating list")
    whole = fresh("whole")
    pgn2, js2 = os.path.join(whole, "t.pgn"), os.path.join(whole, "t.json")
    argv2 = [pgn2 if a == pgn else js2 if a == js else a for a in argv]
    check(run(argv2).returncode == 0, "resume: the run at once")
    check(undated(read(pgn)) == undated(read(pgn2)), "resume: joined PGN differs")
    a, b = load(js), load(js2)
    for p in a["pairings"]:
        p["pairs_resumed"] = 0
    check(a["pairings"] == b["pairings"] and a["ratings"] == b["ratings"],
          "resume: results differ from the run at once")


def test_kill_resume():
    """Killed (SIGKILL) in the middle of games, then resumed: every pair played once."""
    d = fresh("kill")
    pgn, js = os.path.join(d, "t.pgn"), os.path.join(d, "t.json")
    engines = [["--engine", f"name={n}", "arg=slow", "arg=4"] for n in "XYZ"]
    argv = ["--tournament", "round-robin"] + flat(engines) + COMMON + \
        ["--rounds", "2", "--concurrency", "2", "--pgn", pgn, "--json", js]
    p = subprocess.Popen([MATCH] + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True)
    # Killed once a first pair is booked: games of other pairs are then under way.
    deadline = time.time() + 60
    while time.time() < deadline and not any(
            b"\npair " in read(f) for f in glob.glob(os.path.join(d, "*.state"))):
        time.sleep(0.02)
    os.killpg(p.pid, signal.SIGKILL)
    p.communicate()
    r = run(argv + ["--resume"])
    check(r.returncode == 0, f"kill: resume exit {r.returncode}: {r.stderr}")
    back = re.search(r"\((\d+) read back from the state files\)", r.stdout)
    check(back and 0 < int(back.group(1)) < 6, f"kill: not killed in the middle: {r.stdout[-300:]}")
    if r.returncode == 0:
        data = load(js)
        check(data["finished"] and all(x["pairs_done"] == 2 for x in data["pairings"]),
              "kill: not every pair played")
        check(games_in(pgn) == 12, f"kill: joined PGN holds {games_in(pgn)} games")


def engine_children(pid):
    """The fake engines hansu-match pid runs now."""
    n = 0
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{d}/cmdline", "rb") as f:
                cmd = f.read()
        except (OSError, ValueError, IndexError):
            continue
        n += ppid == pid and b"fake_engine" in cmd
    return n


def test_engines_bounded():
    """Ten pairings, one game at a time: never more than one game's two engines running (a
    worker holds its engines only while it holds a slot; the probes take one too)."""
    engines = [["--engine", f"name=E{i}", "arg=slow", "arg=1"] for i in range(5)]
    p = subprocess.Popen([MATCH, "--tournament", "round-robin"] + flat(engines) + COMMON +
                         ["--rounds", "1", "--concurrency", "1"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    most = 0
    while p.poll() is None:
        most = max(most, engine_children(p.pid))
        time.sleep(0.01)
    p.communicate()
    check(p.returncode == 0 and 0 < most <= 2, f"engines at once: {most} (exit {p.returncode})")


def test_errors():
    two = flat(ENGINES[:2]) + COMMON
    cases = [
        (flat(ENGINES[:3]) + COMMON, "more than two --engine need --tournament"),
        (["--tournament", "swiss"] + two, "'swiss' is not gauntlet or round-robin"),
        (["--tournament", "gauntlet"] + two + ["--sprt", "elo0=0", "elo1=5"],
         "--sprt: a match of two engines only"),
        (["--tournament", "round-robin", "--seeds", "1"] + two, "--seeds: a gauntlet's"),
        (["--tournament", "gauntlet", "--seeds", "2"] + two, "--seeds 2: need 1..1"),
        (["--tournament", "gauntlet", "--anchor", "Q=5"] + two, 'no engine named "Q"'),
        (["--tournament", "gauntlet", "--rounds", "2", "--games", "4"] + two,
         "--rounds 2 and --games 4: give one"),
        (["--tournament", "gauntlet", "--resume"] + two, "--resume needs --pgn"),
        (["--each", "name=X"] + two, "a name belongs to one engine"),
    ]
    for argv, want in cases:
        r = run(argv, timeout=30)
        check(r.returncode == 1 and want in r.stderr, f"error {want!r}: got {r.stderr!r}")


def main():
    os.makedirs(WORK, exist_ok=True)
    rr = test_round_robin()
    test_pairing_is_a_match(rr)
    test_concurrency_and_each(rr)
    test_gauntlet()
    test_resume()
    test_kill_resume()
    test_engines_bounded()
    test_errors()
    print(f"{len(FAILURES)} failures")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
