#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/calibrate-strength and scripts/fit-wdl.py (issue 41): the calibration's report from a
tournament JSON (requested against measured Elo, the goal allowing for the error), the fitted
table (increasing, from the x of engine/strength.c's table) and the refusals of bad flags; the
draw margin of fit-wdl.py recovered from results drawn from a known model, and its refusal of
too few positions.
Usage: test_calibrate_strength.py HANSU WORK_DIR"""
import importlib.machinery
import json
import math
import os
import random
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..", "..", "scripts")
HANSU, WORK = sys.argv[1:3]


def load(name, path):
    return importlib.machinery.SourceFileLoader(name, path).load_module()


cal = load("calibrate_strength", os.path.join(SCRIPTS, "calibrate-strength"))
sys.path.insert(0, SCRIPTS)
fit = load("fit_wdl", os.path.join(SCRIPTS, "fit-wdl.py"))


def run(script, args):
    return subprocess.run([sys.executable, os.path.join(SCRIPTS, script)] + args,
                          capture_output=True, text=True)


def test_report():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    data = {"variant": "janggi", "games_per_pairing": 16, "finished": True, "ratings": [
        {"engine": "Hansu-full", "elo": 2790.0, "error": 80.0, "games": 48, "points": 40},
        {"engine": "FSF-11.1", "elo": 2500.0, "error": 0.0, "games": 48, "points": 30},
        {"engine": "Hansu-Elo-2000", "elo": 2150.0, "error": 60.0, "games": 48, "points": 12},
        {"engine": "Hansu-Elo-1500", "elo": 1450.0, "error": 90.0, "games": 48, "points": 2,
         "prior": True}]}
    path = os.path.join(WORK, "t.json")
    json.dump(data, open(path, "w"))
    strength_c = os.path.join(WORK, "strength.c")
    open(strength_c, "w").write("static const struct { int elo, x_milli; } TABLE[] = {\n"
                                "    {1000, 0}, {3000, 1000},\n};\n")
    r = run("calibrate-strength", ["--elo", "1500,2000", "--seed", "1", "--out", WORK,
                                   "--from-json", path, "--fit", "--strength-c", strength_c])
    assert r.returncode == 0, r.stderr
    out = json.load(open(os.path.join(WORK, "calibration.json")))
    lv = {x["requested"]: x for x in out["levels"]}
    # 2000: +150 with an error of 60: 90 beyond the error, within 100. 1500: -50.
    assert lv[2000]["diff"] == 150 and lv[2000]["within_goal"], lv
    assert lv[1500]["diff"] == -50 and lv[1500]["within_goal"] and lv[1500]["prior"], lv
    assert out["full"]["measured"] == 2790
    # x of 1500 and 2000 in the table 1000..3000: 250 and 500 thousandths.
    assert out["fit"]["table"] == [{"elo": 1450, "x_milli": 250}, {"elo": 2150, "x_milli": 500}]
    md = open(os.path.join(WORK, "calibration.md")).read()
    assert "| 2000 | 2150 | ± 60 | +150 | yes |" in md, md
    assert "| 1500 | 1450 * |" in md, md
    # A goal of 50: 2000 is 90 off beyond its error.
    r = run("calibrate-strength", ["--elo", "1500,2000", "--seed", "1", "--out", WORK,
                                   "--from-json", path, "--goal", "50"])
    out = json.load(open(os.path.join(WORK, "calibration.json")))
    assert [x["within_goal"] for x in out["levels"]] == [True, False], out
    # A level the tournament did not rate, bad flags: one line, exit 1.
    for args, what in [(["--elo", "1700"], "Hansu-Elo-1700"), (["--elo", "x"], "--elo"),
                       (["--elo", "1500,1500"], "distinct"), (["--elo", "1500", "--rounds", "0"],
                                                              "--rounds")]:
        r = run("calibrate-strength", args + ["--seed", "1", "--out", WORK, "--from-json", path])
        lines = r.stderr.strip().splitlines()
        assert r.returncode != 0 and what in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_fit_table():
    # Increasing input stays; a dip is pooled into one row; equal Elos are spread by 1.
    assert cal.fit_table([(0, 1000), (500, 1800), (1000, 2600)]) == \
        [(1000, 0), (1800, 500), (2600, 1000)]
    rows = cal.fit_table([(0, 1000), (300, 1700), (600, 1600), (1000, 2600)])
    assert rows == [(1000, 0), (1650, 450), (2600, 1000)], rows
    assert cal.x_of_elo([(1000, 0), (3000, 1000)], 2500) == 750
    assert cal.x_of_elo([(1000, 0), (3000, 1000)], 500) == 0


def test_merge_same_x():
    # Two requests a table capped at one x are one engine: named after the lower, their games
    # against each other left out; a level at another x and an input's own self-pairing stay.
    one = {"pairings": [{"engines": ["Hansu-Elo-2450@x967", "Hansu-Elo-2550@x967"]},
                        {"engines": ["Hansu-Elo-2550@x967", "FSF-a"]},
                        {"engines": ["Hansu-Elo-2300@x829", "Hansu-Elo-2550@x967"]}]}
    two = {"pairings": [{"engines": ["FSF-a", "Hansu-Elo-2450@x967"]},
                        {"engines": ["FSF-b", "FSF-b"]}]}
    cal.merge_same_x([one, two])
    assert [p["engines"] for p in one["pairings"]] == [
        ["Hansu-Elo-2450@x967", "FSF-a"], ["Hansu-Elo-2300@x829", "Hansu-Elo-2450@x967"]], one
    assert [p["engines"] for p in two["pairings"]] == [["FSF-a", "Hansu-Elo-2450@x967"],
                                                       ["FSF-b", "FSF-b"]], two


def test_strength_curve():
    sc = load("strength_curve", os.path.join(SCRIPTS, "strength_curve.py"))
    # Points on a known quadratic, equal errors: its coefficients back, chi-square 0.
    pts = [(x, 1200 + 1800 * x - 300 * x * x) for x in (0.2, 0.4, 0.6, 0.8, 1.0)]
    c = sc.fit(pts, [60] * 5)
    assert c["degree"] == 2 and c["dof"] == 2 and c["chi2"] < 1e-6, c
    assert all(abs(a - b) < 1e-6 for a, b in zip(c["coefficients"], [1200, 1800, -300])), c
    # A point's weight is 1 / its variance: a wild point with a huge error barely moves a line.
    line = [(0.2, 1500), (0.5, 2000), (0.8, 2500), (0.65, 3500)]
    c = sc.fit(line, [20, 20, 20, 2000])
    assert abs(sc.value(c["coefficients"], 0.5) - 2000) < 5, c
    # Three points: a line, however they bend; a fall with x: refused; one x: refused.
    assert sc.fit([(0.1, 1000), (0.5, 1900), (0.9, 2000)], [50] * 3)["degree"] == 1
    for bad in ([(0.1, 2000), (0.5, 1900), (0.9, 1000)], [(0.5, 1900), (0.5, 2000)]):
        try:
            sc.fit(bad, [50] * len(bad))
            assert False, bad
        except ValueError:
            pass
    # A quadratic that turns down inside the range falls back to a line.
    hump = [(0.0, 1000), (0.3, 2000), (0.6, 2400), (0.9, 2300), (1.0, 2200)]
    assert sc.fit(hump, [50] * 5)["degree"] == 1
    assert sc.grid(0.262, 0.4) == [0.262, 0.3, 0.35, 0.4]
    assert sc.grid(0.25, 0.3) == [0.25, 0.3]
    # The curve's error from simulated sets: each point shifted by the same +-d (the anchors'
    # shared error) moves the whole curve by d: error 1.96 d at every x.
    draws = [[e + d for _, e in pts] for d in (-50, 50) * 10]
    curve, rows = sc.table(pts, [60] * 5, draws, 0.25)
    assert [x for _, x, _ in rows] == [200, 250, 500, 750, 1000], rows
    sd = math.sqrt(sum(50 ** 2 for _ in range(20)) / 19)
    assert all(abs(err - 1.96 * sd) < 1e-6 for _, _, err in rows), rows
    assert all(b[0] > a[0] for a, b in zip(rows, rows[1:])), rows
    assert curve["scale"] == 1.0, curve  # the points lie on the curve: chi2 0
    # Points that scatter about a line by more than their errors: chi2 / dof 4, errors doubled.
    zig = [(0.2, 1500 - 40), (0.4, 1800 + 40), (0.6, 2100 - 40), (0.8, 2400 + 40)]
    line_fit = sc.fit(zig[:3], [1.96 * 40 / math.sqrt(2)] * 3)
    assert line_fit["degree"] == 1 and sc.scale_factor(line_fit) > 1, line_fit
    curve, rows = sc.table(zig, [1.96 * 40 / math.sqrt(2)] * 4, [[e + d for _, e in zig]
                                                                  for d in (-50, 50) * 10], 0.2)
    s = sc.scale_factor(curve)
    assert s > 2, curve  # chi2 6.4 on 1 degree of freedom
    assert s == max(1.0, math.sqrt(curve["chi2"] / curve["dof"])), curve
    assert all(abs(err - 1.96 * math.sqrt(50 ** 2 * 20 / 19) * s) < 1e-6 for _, _, err in rows)


def test_joint_ratings():
    # A scores 75 % against the anchor B: +190.8 Elo (400 log10(3)). C scores 50 % against A in
    # another tournament: C at A's rating. D won all its games against B: one draw more
    # (2.5 of 3, 83 %: +279.6).
    one = {"crosstable": {"A": {"B": [6, 8]}, "B": {"A": [2, 8], "D": [0, 2]}, "D": {"B": [2, 2]},
                          "B2": {}}}
    two = {"crosstable": {"A": {"C": [2, 4]}, "C": {"A": [2, 4]}}}
    elo = cal.joint_ratings([one, two], "B", 2500)
    assert elo["B"] == 2500, elo
    assert abs(elo["A"] - (2500 + 400 * math.log10(3))) < 0.5, elo
    assert abs(elo["C"] - elo["A"]) < 0.5, elo
    assert abs(elo["D"] - (2500 + 400 * math.log10(5))) < 0.5, elo


def pairing(a, b, penta):
    return {"engines": [a, b], "pentanomial": penta}


def test_rate():
    # Two anchors, FSF-a at 2000 and FSF-b at 2400. Hansu-Elo-2200 scores 75 % against FSF-a and
    # 25 % against FSF-b in pairs of a win and a draw ([0, 0, 0, 4, 0]: 6 of 8): at 2200 its
    # expected points, 8 (0.7597 + 0.2403), are its points, so the fit is 2200. Hansu-Elo-1700 lost
    # every game to FSF-a (whole, 0 of 4): with prior 1, 0.5 of 5 (10 %), -381.7; with prior 0
    # no finite fit, reported as None.
    data = {"pairings": [pairing("Hansu-Elo-2200", "FSF-a", [0, 0, 0, 4, 0]),
                         pairing("FSF-b", "Hansu-Elo-2200", [0, 0, 0, 4, 0]),
                         pairing("FSF-a", "Hansu-Elo-1700", [0, 0, 0, 0, 2])]}
    path = os.path.join(WORK, "rate.json")
    json.dump(data, open(path, "w"))
    out_dir = os.path.join(WORK, "rate")
    table = os.path.join(WORK, "table.c")  # x = 0 at 2000 to 1000 at 2400: 2200 at 500
    open(table, "w").write("static const StrengthPoint TABLE[] = {{2000, 0}, {2400, 1000}};\n")
    r = run("calibrate-strength", ["rate", path, "--anchor", "FSF-a=2000", "--anchor",
                                   "FSF-b=2400", "--simulations", "50", "--out", out_dir,
                                   "--strength-c", table])
    assert r.returncode == 0, r.stderr
    out = json.load(open(os.path.join(out_dir, "calibration.json")))
    pl = {p["engine"]: p for p in out["players"]}
    assert pl["FSF-a"]["elo"] == 2000 and pl["FSF-b"]["elo"] == 2400 and pl["FSF-a"]["anchor"]
    assert abs(pl["Hansu-Elo-2200"]["elo"] - 2200) < 0.5 and pl["Hansu-Elo-2200"]["resolved"], pl
    assert abs(pl["Hansu-Elo-1700"]["elo"] - (2000 - 400 * math.log10(9))) < 0.5, pl
    assert pl["Hansu-Elo-1700"]["elo_by_prior"]["0"] is None, pl
    assert not out["finite_without_prior"]
    # 1700 lost every game: not resolved, whatever its error. Prior 0.5: 0.25 of 4.5; prior 2:
    # 1 of 6.
    lo = pl["Hansu-Elo-1700"]
    assert not lo["resolved"] and lo["pairings_not_won_whole"] == 0, lo
    assert abs(lo["elo_by_prior"]["0.5"] - (2000 - 400 * math.log10(17))) < 0.5, lo
    assert abs(lo["elo_by_prior"]["2"] - (2000 - 400 * math.log10(5))) < 0.5, lo
    assert abs(lo["prior_shift"] - 400 * (math.log10(17) - math.log10(9))) < 0.5, lo
    # Its error comes from the simulations: every pairing here is alike in each draw (all pairs
    # of one kind), so each rating is the same in every simulation: error 0.
    assert pl["Hansu-Elo-2200"]["error"] == 0, pl
    md = open(os.path.join(out_dir, "calibration.md")).read()
    assert "| Hansu-Elo-2200 | 2200 | 0.500 | 2200 | ± 0 | +0 | yes | yes | 16 | 2 of 2 |" in md, md
    assert pl["Hansu-Elo-2200"]["x_milli"] == 500, pl
    # A second tournament played with another table (--played-with): its Hansu-Elo-2200 played at
    # x = 250 (2000 to 2800 over 0 to 1000), a player of its own (Hansu-Elo-2200@x250), even with
    # FSF-a (50 %: 2000); --fit pairs each level with the x it played at.
    other, other_table = os.path.join(WORK, "rate-b.json"), os.path.join(WORK, "table-b.c")
    open(other_table, "w").write("static const StrengthPoint TABLE[] = {{2000, 0}, {2800, 1000}};")
    json.dump({"pairings": [pairing("Hansu-Elo-2200", "FSF-a", [0, 0, 4, 0, 0])]}, open(other, "w"))
    r = run("calibrate-strength", ["rate", path, other, "--anchor", "FSF-a=2000", "--anchor",
                                   "FSF-b=2400", "--simulations", "50", "--out", out_dir,
                                   "--strength-c", table, "--played-with", f"{other}={other_table}",
                                   "--fit"])
    assert r.returncode == 0, r.stderr
    out = json.load(open(os.path.join(out_dir, "calibration.json")))
    pl = {p["engine"]: p for p in out["players"]}
    b = pl["Hansu-Elo-2200@x250"]
    assert b["x_milli"] == 250 and b["requested"] == 2200 and abs(b["elo"] - 2000) < 0.5, pl
    assert abs(pl["Hansu-Elo-2200"]["elo"] - 2200) < 0.5, pl
    assert {"x_milli": 250, "measured": b["elo"]} in out["fit"]["points"], out["fit"]
    # The default table follows one curve through the levels (here a line through three), each
    # row with its error, each level with its value on the curve.
    f = out["fit"]
    assert f["model"] == "curve" and f["curve"]["degree"] == 1 and f["curve"]["dof"] == 1, f
    assert [t["x_milli"] for t in f["table"]][0] == 0 and f["table"][-1]["x_milli"] == 500, f
    assert all(t["error"] is not None and t["error"] >= 0 for t in f["table"]), f
    assert {lv["engine"] for lv in f["levels"]} == {"Hansu-Elo-1700", "Hansu-Elo-2200",
                                                    "Hansu-Elo-2200@x250"}, f
    assert "Fitted STRENGTH_TABLE" in open(os.path.join(out_dir, "calibration.md")).read()
    assert out["level_pairings"], out
    # --no-level-pairings: a level's games against a level left out (the two files' Hansu-Elo-2200
    # are one player here: 16 + 8 games against the anchors, 8 more against Hansu-Elo-1700).
    json.dump({"pairings": [pairing("Hansu-Elo-2200", "FSF-a", [0, 0, 4, 0, 0]),
                            pairing("Hansu-Elo-2200", "Hansu-Elo-1700", [4, 0, 0, 0, 0])]},
              open(other, "w"))
    for flag, games in [([], 32), (["--no-level-pairings"], 24)]:
        r = run("calibrate-strength", ["rate", path, other, "--anchor", "FSF-a=2000", "--anchor",
                                       "FSF-b=2400", "--simulations", "20", "--out", out_dir,
                                       "--strength-c", table] + flag)
        assert r.returncode == 0, r.stderr
        out = json.load(open(os.path.join(out_dir, "calibration.json")))
        pl = {p["engine"]: p for p in out["players"]}
        assert pl["Hansu-Elo-2200"]["games"] == games and \
            out["level_pairings"] == (not flag), (flag, pl)
    for spec, what in [(f"nowhere.json={other_table}", "JSON one of"), (other, "JSON=CFILE"),
                       (f"{other}={os.path.join(WORK, 'missing.c')}", "missing.c")]:
        r = run("calibrate-strength", ["rate", path, other, "--anchor", "FSF-a=2000",
                                       "--out", out_dir, "--played-with", spec])
        assert r.returncode != 0 and what in r.stderr and "Traceback" not in r.stderr, r.stderr
    # The simulations: a pairing of mixed pairs gives a positive error; the same seed the same.
    mixed = {"pairings": [pairing("Hansu-Elo-2200", "FSF-a", [1, 2, 4, 2, 1])]}
    json.dump(mixed, open(path, "w"))
    errs = []
    for _ in range(2):
        r = run("calibrate-strength", ["rate", path, "--anchor", "FSF-a=2000", "--simulations",
                                       "200", "--seed", "5", "--out", out_dir])
        assert r.returncode == 0, r.stderr
        out = json.load(open(os.path.join(out_dir, "calibration.json")))
        lv = next(p for p in out["players"] if p["engine"] == "Hansu-Elo-2200")
        errs.append(lv["error"])
        assert lv["elo"] == 2000 and out["finite_without_prior"], out  # 50 %: the anchor's Elo
    assert errs[0] == errs[1] and 50 < errs[0] < 400, errs
    # Refusals: one line, exit 1, no traceback.
    for args, what in [(["--anchor", "FSF-z=2000"], "FSF-z"), ([], "--anchor"),
                       (["--anchor", "FSF-a"], "NAME=ELO"),
                       (["--anchor", "FSF-a=2000", "--prior", "-1"], "prior"),
                       (["--anchor", "FSF-a=2000", "--vary-prior", "x"], "--vary-prior"),
                       (["--anchor", "FSF-a=nan"], "NAME=ELO"), (["--anchor", "FSF-a=inf"], "NAME=ELO"),
                       (["--anchor", "FSF-a=1", "--anchor", "FSF-a=2"], "twice"),
                       (["--anchor", "FSF-a=2000", "--prior", "nan"], "prior"),
                       (["--anchor", "FSF-a=2000", "--max-error", "-1"], "--max-error")]:
        r = run("calibrate-strength", ["rate", path, "--out", out_dir] + args)
        assert r.returncode != 0 and what in r.stderr and "Traceback" not in r.stderr, r.stderr
    for bad, what in [([1, 2], "not a hansu-match tournament JSON"),
                      ({"pairings": [pairing("A", "A", [0, 1, 0, 0, 0])]}, "against itself"),
                      ({"pairings": [pairing("A", "B", [0, 1, 0, -1, 0])]}, "5 counts"),
                      ({"pairings": [{"engines": ["A"], "pentanomial": [1, 0, 0, 0, 0]}]},
                       "two engines")]:
        json.dump(bad, open(path, "w"))
        r = run("calibrate-strength", ["rate", path, "--anchor", "A=2000", "--out", out_dir])
        assert r.returncode != 0 and what in r.stderr and "Traceback" not in r.stderr, r.stderr
    open(path, "w").write("[" * 100000)
    r = run("calibrate-strength", ["rate", path, "--anchor", "A=2000", "--out", out_dir])
    assert r.returncode != 0 and "Traceback" not in r.stderr, r.stderr
    open(path, "w").write("{not json")
    r = run("calibrate-strength", ["rate", path, "--anchor", "FSF-a=2000", "--out", out_dir])
    assert r.returncode != 0 and path in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_wdl_fit():
    rng = random.Random(7)
    scale, margin = 420.0, 300.0
    data = []
    for _ in range(6000):
        cp = rng.uniform(-1200, 1200)
        w, d, _ = fit.probs(cp, scale, margin)
        u = rng.random()
        data.append((cp, 1 if u < w else 0 if u < w + d else -1))
    m, ll = fit.best_margin(data, scale)
    assert abs(m - margin) < 30, m
    assert ll > fit.loglik(data, scale, 0) and ll >= fit.loglik(data, scale, m + 40)
    w, d, l = fit.probs(0, scale, margin)
    assert abs(w + d + l - 1) < 1e-12 and abs(w - l) < 1e-12
    # Too few positions: one line, exit 1.
    pgn = os.path.join(WORK, "one.pgn")
    open(pgn, "w").write('[Variant "xiangqi"]\n[Result "1/2-1/2"]\n[FEN "rnbakabnr/9/1c5c1/'
                         'p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"]\n\n'
                         + " ".join(["h1g3 h10g8 g3h1 g8h10"] * 10) + " 1/2-1/2\n")
    r = run("fit-wdl.py", ["--engine", HANSU, "--scale", "500", "--nodes", "50", pgn])
    assert r.returncode == 1 and "too few" in r.stderr and "Traceback" not in r.stderr, r.stderr
    r = run("fit-wdl.py", ["--engine", HANSU, "--scale", "0", pgn])
    assert r.returncode == 1 and "--scale" in r.stderr, r.stderr


test_report()
test_fit_table()
test_strength_curve()
test_merge_same_x()
test_joint_ratings()
test_rate()
test_wdl_fit()
print("calibrate-strength and fit-wdl.py checks passed")
