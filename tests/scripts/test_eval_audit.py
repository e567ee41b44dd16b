#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/eval-audit (issue 55, item 1): the audit of a hand-made PGN (janggi and xiangqi, Hansu
as White in one game and as Black in the same game played again, a game without Hansu, a game
without a result): the JSON's structure, the positions sampled (never a game's last), the side
convention (Hansu's side in both games: every evaluation and the material negated, a chariot up
counted +13 points and rated above 0), the markdown and the SVG; the figures from evaluations
given by hand (the predicted scores of the variants' models, the calibration bins, the gap, the
Brier score, the maximum-likelihood scale, the fit on the classical evaluation, the medians by
band, the last mover); .pgn.gz input; the refusals (one line, exit status 1). Fairy-Stockfish's
column is checked where /usr/games/fairy-stockfish is installed; without it, its note.
Usage: test_eval_audit.py HANSU WORK_DIR"""
import gzip
import importlib.machinery
import importlib.util
import json
import math
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..", "..", "scripts")
SCRIPT = os.path.join(SCRIPTS, "eval-audit")
HANSU, WORK = sys.argv[1:3]
FSF = "/usr/games/fairy-stockfish"
HAVE_FSF = os.access(FSF, os.X_OK)

loader = importlib.machinery.SourceFileLoader("eval_audit", SCRIPT)
spec = importlib.util.spec_from_loader("eval_audit", loader)
ea = importlib.util.module_from_spec(spec)
loader.exec_module(ea)

# Janggi without Han's a10 chariot: Cho is 13 points up (rules page, "Points").
JANGGI_FEN = "1nba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"
JANGGI_MOVES = ("1. b1c3 b10c8 2. b3e3 i7h7 3. h1g3 h10g8 4. a4b4 e9e10 5. h3f3 d10e9 "
                "6. f3i3 i10h10 7. i4h4 g7g6 8. e4f4 h8e8")  # 16 plies
XIANGQI_FEN = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
XIANGQI_MOVES = "1. h1g3 g7g6 2. i1h1 h8h6 3. b1c3 b10c8 4. h1h5 i10i8 5. c4c5 c10e8 6. b3a3"


def game(white, black, result, moves, variant="janggi", fen=JANGGI_FEN):
    return (f'[Event "t"]\n[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n'
            f'[Variant "{variant}"]\n[FEN "{fen}"]\n\n{moves} {{end}} {result}\n\n')


PGN = (game("Hansu", "Fairy-Stockfish 11.1", "1-0", JANGGI_MOVES) +
       game("Fairy-Stockfish 11.1", "Hansu", "1-0", JANGGI_MOVES) +
       game("hansu 0.1 (net r2)", "Fairy-Stockfish", "1/2-1/2", XIANGQI_MOVES, "xiangqi",
            XIANGQI_FEN) +
       game("Alpha", "Beta", "0-1", JANGGI_MOVES) +
       game("Hansu", "Beta", "*", JANGGI_MOVES))


def run(args):
    return subprocess.run([sys.executable, SCRIPT] + args, capture_output=True, text=True)


def write(name, text):
    path = os.path.join(WORK, name)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return path


def audit(pgn, extra, tag):
    out = {k: os.path.join(WORK, f"{tag}.{k}") for k in ("json", "md", "svg")}
    r = run([pgn, "--engine-cmd", HANSU, "--every", "4", "--plies", "0-",
             "--bands", "0-5,6-", "--json", out["json"], "--md", out["md"], "--svg",
             out["svg"]] + extra)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr and "## Summary" in r.stdout, r
    with open(out["json"], encoding="utf-8") as fh:
        data = json.load(fh)
    with open(out["md"], encoding="utf-8") as fh:
        md = fh.read()
    return data, md, ET.parse(out["svg"]).getroot()


def check_structure(d, evaluators):
    for key in ("schema", "pgn", "hansu_name", "every", "plies", "bands", "bins", "units", "games",
                "evaluators", "notes", "positions_sampled", "positions", "summary",
                "calibration", "fit_on_classical", "by_band", "by_last_mover", "movers",
                "samples"):
        assert key in d, key
    assert d["schema"] == 1 and d["every"] == 4 and d["plies"] == [0, None], d
    assert d["bands"] == [[0, 5], [6, None]] and d["bins"] == 10
    assert [e["name"] for e in d["evaluators"]] == evaluators, d["evaluators"]
    assert all(e["id"].startswith("Hansu") for e in d["evaluators"][:2]), d["evaluators"]
    g = d["games"]
    assert g["in_pgn"] == 5 and g["audited"] == 3, g
    assert g["skipped"] == {"no_hansu": 1, "both_hansu": 0, "no_result": 1}, g
    assert g["variants"] == {"janggi": 2, "xiangqi": 1} and g["hansu_points"] == 1.5, g
    assert g["opponents"] == ["Fairy-Stockfish", "Fairy-Stockfish 11.1"], g
    for ev in evaluators:
        s = d["summary"][ev]
        for key in ("positions", "median_cp", "mean_cp", "predicted_positions", "expected_score",
                    "actual_score", "gap", "brier", "models", "fitted_scale", "left_out"):
            assert key in s, (ev, key)
        assert set(s["models"]) == {"janggi", "xiangqi"}, s["models"]
        assert len(d["calibration"][ev]) == 10
        assert sum(b["positions"] for b in d["calibration"][ev]) == s["predicted_positions"]
    assert [b["band"] for b in d["by_band"]] == ["0-5", "6-"]
    assert set(d["fit_on_classical"]) == set(evaluators) - {"classical"}


def check_samples(d, evaluators):
    by = {(s["game"], s["ply"]): s for s in d["samples"]}
    # 16 plies in each janggi game: 0, 4, 8, 12 (16, the last position, is never sampled);
    # 11 in the xiangqi game: 0, 4, 8.
    assert sorted(by) == [(g, p) for g in (1, 2) for p in (0, 4, 8, 12)] + [(3, 0), (3, 4),
                                                                            (3, 8)], sorted(by)
    assert d["positions_sampled"] == 11
    for ply in (0, 4, 8, 12):
        a, b = by[(1, ply)], by[(2, ply)]
        # The same position, Hansu on the other side: every figure from Hansu's side negated.
        assert a["hansu_side"] == "upper" and b["hansu_side"] == "lower"
        assert a["result"] == 1.0 and b["result"] == 0.0
        assert a["material"] == 13.0 and b["material"] == -13.0, (a, b)
        assert a["hansu_to_move"] and not b["hansu_to_move"]
        for ev in evaluators:
            if a["cp"][ev] is not None:
                assert b["cp"][ev] == -a["cp"][ev], (ev, a, b)
        # A chariot up: every evaluation rates Hansu's side above 0 (as Cho), below (as Han).
        assert a["cp"]["classical"] > 300 and a["cp"]["net"] > 300, a
        assert a["band"] == ("0-5" if ply <= 5 else "6-")
        assert a["to_move"] == "Hansu" and b["to_move"] == "Fairy-Stockfish 11.1"
        assert a["last_move_by"] == (None if ply == 0 else "Fairy-Stockfish 11.1"), a
    x = by[(3, 4)]
    assert x["variant"] == "xiangqi" and x["result"] == 0.5 and x["material"] == 0.0, x
    assert d["summary"]["classical"]["models"]["xiangqi"] == {
        "scale": 420.0, "margin": 400.3, "source": "engine/xiangqi/variant.c"}
    assert d["summary"]["net"]["models"]["janggi"]["scale"] == 508.73


def check_outputs(d, md, svg, evaluators):
    labels = [e["label"] for e in d["evaluators"]]
    for text in ["# Evaluation audit: t.pgn", "## Summary", "## Calibration by predicted score",
                 "## By ply band", "## By the engine that made the last move",
                 "## Each evaluation against the classical one", "centipawns from Hansu's side"]:
        assert text in md, text
    for label in labels:
        assert f"| {label} |" in md, label
    ns = "{http://www.w3.org/2000/svg}"
    assert svg.tag == ns + "svg"
    lines = svg.findall(ns + "line")
    assert any(ln.get("stroke-dasharray") for ln in lines), "no diagonal"
    assert len(svg.findall(ns + "polyline")) == len(evaluators)
    texts = " ".join(t.text or "" for t in svg.iter(ns + "text"))
    assert all(label in texts for label in labels), texts


def test_engine_run():
    pgn = write("t.pgn", PGN)
    extra = ["--fsf", FSF] if HAVE_FSF else ["--no-fsf"]
    evaluators = ["net", "classical"] + (["fsf"] if HAVE_FSF else [])
    d, md, svg = audit(pgn, extra, "t")
    check_structure(d, evaluators)
    check_samples(d, evaluators)
    check_outputs(d, md, svg, evaluators)
    if HAVE_FSF:
        assert d["summary"]["fsf"]["models"]["janggi"]["source"].startswith("maximum likelihood")
        assert any(s["cp"]["fsf"] is not None and s["cp"]["fsf"] > 300 for s in d["samples"]
                   if s["game"] == 1), "Fairy-Stockfish rates Cho's extra chariot"
    else:
        print("note: no Fairy-Stockfish at", FSF, "- its column is not checked")
    # Without Fairy-Stockfish: its note, no column; the same Hansu figures.
    d2, _, _ = audit(pgn, ["--no-fsf"], "nofsf")
    assert [e["name"] for e in d2["evaluators"]] == ["net", "classical"]
    assert any("--no-fsf" in n for n in d2["notes"]), d2["notes"]
    assert [s["cp"]["net"] for s in d2["samples"]] == [s["cp"]["net"] for s in d["samples"]]
    # Fairy-Stockfish missing at its default path: a note, not a refusal.
    a = ea.parse_args([pgn, "--engine-cmd", HANSU])
    saved, ea.DEFAULT_FSF = ea.DEFAULT_FSF, os.path.join(WORK, "no-fsf")
    try:
        r = ea.audit(a)
    finally:
        ea.DEFAULT_FSF = saved
    assert [e["name"] for e in r["evaluators"]] == ["net", "classical"]
    assert any("not found" in n for n in r["notes"]), r["notes"]
    # The same PGN gzip-compressed reads the same.
    with gzip.open(pgn + ".gz", "wt", encoding="utf-8") as fh:
        fh.write(PGN)
    d3, _, _ = audit(pgn + ".gz", ["--no-fsf"], "gz")
    assert d3["samples"] == d2["samples"]
    # --search-nodes: a column of searched scores, from a cleared TT each, so the same twice.
    d4, _, _ = audit(pgn, ["--no-fsf", "--search-nodes", "300", "--every", "8"], "search")
    assert [e["name"] for e in d4["evaluators"]] == ["net", "classical", "search-300"]
    assert all(isinstance(s["cp"]["search-300"], int) for s in d4["samples"]), d4["samples"]
    d5, _, _ = audit(pgn, ["--no-fsf", "--search-nodes", "300", "--every", "8"], "search2")
    assert [s["cp"] for s in d5["samples"]] == [s["cp"] for s in d4["samples"]]
    assert "search-300" in d4["summary"], d4["summary"].keys()
    # --search-blend P: the same searches evaluating with the blend, a column beside each.
    d7, _, _ = audit(pgn, ["--no-fsf", "--search-nodes", "300", "--search-blend", "50",
                           "--every", "8"], "searchblend")
    assert [e["name"] for e in d7["evaluators"]] == ["net", "classical", "search-300",
                                                     "search-300-blend-50"]
    assert [s["cp"]["search-300"] for s in d7["samples"]] == \
        [s["cp"]["search-300"] for s in d4["samples"]]
    assert any(s["cp"]["search-300-blend-50"] != s["cp"]["search-300"] for s in d7["samples"])
    # A net's file named as another column is: each column keeps a name of its own.
    shutil.copy(os.path.join(HERE, "..", "..", "data", "nets", "janggi-r4.nnue"),
                os.path.join(WORK, "blend-50.nnue"))
    d8, _, _ = audit(pgn, ["--no-fsf", "--evalfile", os.path.join(WORK, "blend-50.nnue"),
                           "--blend", "50", "--every", "8"], "collide")
    assert [e["name"] for e in d8["evaluators"]] == ["net", "classical", "blend-50", "blend-50'"]
    assert all(s["cp"]["blend-50"] == s["cp"]["net"] for s in d8["samples"]
               if s["variant"] == "janggi"), d8["samples"]  # a janggi net: none in xiangqi
    assert "blend-50'" in d8["summary"], d8["summary"].keys()
    # --blend P: the net's evaluation with P % of the classical one at 1.45 net cp per classical
    # cp (eval_blend, blend_scale_pct 145), integer division as the engine's (toward zero).
    d6, _, _ = audit(pgn, ["--no-fsf", "--blend", "100", "--blend", "50", "--every", "8"], "blend")
    assert [e["name"] for e in d6["evaluators"]] == ["net", "classical", "blend-100", "blend-50"]

    def toward_zero(a, b):
        return a // b if a >= 0 else -(-a // b)

    for smp in d6["samples"]:
        net, classical = smp["cp"]["net"], smp["cp"]["classical"]
        assert smp["cp"]["blend-100"] == toward_zero(classical * 145, 100), smp
        assert smp["cp"]["blend-50"] == toward_zero(net * 5000 + classical * 145 * 50, 10000), smp
    assert any(smp["cp"]["blend-50"] != smp["cp"]["net"] for smp in d6["samples"])
    # --material K: the net's evaluation with K cp for each point Hansu's side leads by
    # (eval_material; Han's 1.5 not counted): at 100, net + 100 x material, from Hansu's side.
    d7, md7, _ = audit(pgn, ["--no-fsf", "--material", "100", "--every", "8"], "material")
    assert [e["name"] for e in d7["evaluators"]] == ["net", "classical", "material-100"]
    for smp in d7["samples"]:  # xiangqi counts no points: the engine gives no anchor there
        want = (smp["cp"]["net"] + round(100 * smp["material"]) if smp["variant"] == "janggi"
                else None)
        assert smp["cp"]["material-100"] == want, smp
    assert any(smp["material"] != 0 for smp in d7["samples"] if smp["variant"] == "janggi")
    assert any(smp["variant"] == "xiangqi" and smp["complete"] for smp in d7["samples"])
    assert "What predicts the results beyond material (janggi)" in md7
    # --from-json: the figures made again from the JSON's samples, no engine, the same.
    j7 = os.path.join(WORK, "material.json")
    with open(j7, "rb") as fh, gzip.open(j7 + ".gz", "wb") as gz:
        gz.write(fh.read())
    for path in (j7, j7 + ".gz"):
        again = os.path.join(WORK, "again.json")
        r = run([path, "--from-json", "--json", again, "--md",  # the audit's own bands
                 os.path.join(WORK, "again.md")])
        assert r.returncode == 0, r.stderr
        with open(again, encoding="utf-8") as fh:
            d8 = json.load(fh)
        for key in ("summary", "calibration", "fit_on_classical", "by_band", "predictors",
                    "samples", "evaluators", "games"):
            assert d8[key] == d7[key], key
        with open(os.path.join(WORK, "again.md"), encoding="utf-8") as fh:
            assert fh.read() == md7.replace(  # no --svg: no picture
                "![calibration: predicted against actual score](material.svg)\n\n", "")
    # Other bands re-cut the samples by ply.
    r = run([j7, "--from-json", "--bands", "0-39,40-", "--json", again])
    assert r.returncode == 0, r.stderr
    with open(again, encoding="utf-8") as fh:
        assert [b["band"] for b in json.load(fh)["by_band"]] == ["0-39", "40-"]
    assert set(d7["predictors"]["janggi"]) >= {"positions", "games", "material", "net",
                                               "classical", "material-100"}
    # --plies and --every: the positions after plies 6 and 9 only, never the last one.
    r = run([pgn, "--engine-cmd", HANSU, "--no-fsf", "--every", "3", "--plies", "6-15",
             "--json", os.path.join(WORK, "p.json")])
    assert r.returncode == 0, r.stderr
    with open(os.path.join(WORK, "p.json"), encoding="utf-8") as fh:
        plies = sorted({(s["game"], s["ply"]) for s in json.load(fh)["samples"]})
    assert plies == [(1, 6), (1, 9), (1, 12), (1, 15), (2, 6), (2, 9), (2, 12), (2, 15),
                     (3, 6), (3, 9)], plies


def near(a, b, tol=1e-6):
    return a is not None and abs(a - b) <= tol


def sample(game, ply, net, classical, result, to_move, material=0.0, variant="janggi", **more):
    cp = {"net": net, "classical": classical}
    cp.update(more)
    return {"game": game, "variant": variant, "ply": ply,
            "band": ea.band_of(ply, [(0, 59), (60, None)]), "to_move": "x",
            "hansu_to_move": to_move, "last_move_by": "x", "result": result,
            "material": material, "cp": cp}


def test_figures_by_hand():
    # The models' predicted scores: janggi sigma(cp / 508.73) (no draws), xiangqi W + D/2 with
    # W = sigma((cp - 400.3) / 420), L = sigma((-cp - 400.3) / 420).
    s = 508.73
    c = s * math.log(3)  # sigma(ln 3) = 3/4
    vm = ea.variant_model
    assert near(vm.expected_score(c, s, 0.0), 0.75) and near(vm.expected_score(-c, s, 0.0), 0.25)
    assert near(vm.expected_score(0, 420.0, 400.3), 0.5)
    # W = 1 / (1 + e^0.476905) = 0.382983, L = 1 / (1 + e^1.429286) = 0.193210.
    assert near(vm.expected_score(200, 420.0, 400.3), 0.382983 + (1 - 0.382983 - 0.193210) / 2,
                1e-5)
    # Five janggi positions, net = 100 + 2 x classical, and one the classical evaluation missed.
    net = [c, c, c, -c, 0.0]
    samples = [sample(1, 30, net[0], (net[0] - 100) / 2, 1.0, True, 2.0),
               sample(1, 36, net[1], (net[1] - 100) / 2, 0.0, False, 4.0),
               sample(2, 64, net[2], (net[2] - 100) / 2, 1.0, True, -1.0),
               sample(2, 70, net[3], (net[3] - 100) / 2, 0.0, False, -3.0),
               sample(3, 90, net[4], (net[4] - 100) / 2, 0.0, True, 5.0),
               sample(3, 96, 50.0, None, 1.0, True)]
    r = ea.summarise(samples, ["net", "classical"], [(0, 59), (60, None)], 10)
    assert r["positions_sampled"] == 6 and r["positions"] == 5
    n = r["summary"]["net"]
    # Predicted 3/4, 3/4, 3/4, 1/4, 1/2 against 1, 0, 1, 0, 0: expected 3/5, actual 2/5,
    # gap 1/5; Brier (1/16 + 9/16 + 1/16 + 1/16 + 1/4) / 5 = 1/5.
    assert near(n["expected_score"], 0.6) and near(n["actual_score"], 0.4), n
    assert near(n["gap"], 0.2) and near(n["brier"], 0.2) and n["positions"] == 5, n
    assert near(n["median_cp"], c) and n["left_out"] == 0
    assert r["summary"]["classical"]["left_out"] == 1
    bins = {round(b["lo"], 1): b for b in r["calibration"]["net"] if b["positions"]}
    assert sorted(bins) == [0.2, 0.5, 0.7], bins
    assert bins[0.7]["positions"] == 3 and near(bins[0.7]["mean_actual"], 2 / 3)
    assert near(bins[0.7]["mean_predicted"], 0.75) and near(bins[0.7]["gap"], 0.75 - 2 / 3)
    assert near(bins[0.2]["gap"], 0.25) and near(bins[0.5]["gap"], 0.5)
    f = r["fit_on_classical"]["net"]
    assert near(f["a"], 100.0) and near(f["b"], 2.0) and near(f["r"], 1.0) and f["positions"] == 5
    lo, hi = r["by_band"]
    # Plies 30, 36 | 64, 70, 90: medians c | 0, actual 1/2 | 1/3, expected 3/4 | 1/2.
    assert lo["positions"] == 2 and near(lo["evaluators"]["net"]["median_cp"], c)
    assert near(lo["actual_score"], 0.5) and near(lo["evaluators"]["net"]["expected_score"], 0.75)
    assert hi["positions"] == 3 and near(hi["evaluators"]["net"]["median_cp"], 0.0)
    assert near(hi["actual_score"], 1 / 3) and near(hi["evaluators"]["net"]["expected_score"], 0.5)
    assert near(lo["material"]["median"], 3.0) and near(hi["material"]["mean"], 1 / 3)
    assert near(lo["hansu_to_move"], 0.5) and near(hi["hansu_to_move"], 2 / 3)
    # Hansu made the last move where its opponent is to move: plies 36 and 70, both lost.
    assert r["by_last_mover"]["hansu"]["positions"] == 2
    assert near(r["by_last_mover"]["hansu"]["actual_score"], 0.0)
    assert near(r["by_last_mover"]["opponent"]["actual_score"], 2 / 3)
    # The maximum-likelihood scale: at +-400 cp, 3 of 4 won from the side ahead:
    # sigma(400 / s) = 3/4, s = 400 / ln 3 = 364.10.
    pairs = [(400, 1.0)] * 3 + [(400, 0.0)] + [(-400, 0.0)] * 3 + [(-400, 1.0)]
    assert near(ea.fit_scale(pairs), 400 / math.log(3), 1e-3), ea.fit_scale(pairs)
    assert ea.fit_scale([(400, 0.0), (-400, 1.0)]) is None and ea.fit_scale([]) is None
    # fsf: fitted per variant (the same 364.10), or the scale of --fsf-scale.
    fs = [sample(1, 30 + k, 0.0, 0.0, y, True, fsf=x) for k, (x, y) in enumerate(pairs)]
    m = ea.summarise(fs, ["net", "classical", "fsf"], [(0, None)], 10)["summary"]["fsf"]
    assert near(m["models"]["janggi"]["scale"], 364.0957, 1e-3), m["models"]
    m = ea.summarise(fs, ["net", "classical", "fsf"], [(0, None)], 10, 300.0)["summary"]["fsf"]
    assert m["models"]["janggi"] == {"scale": 300.0, "margin": 0.0, "source": "--fsf-scale"}
    # A variant whose evaluator gave nothing (no net for it) leaves its other samples complete.
    xs = [sample(1, 10, None, 5.0, 0.5, True, variant="xiangqi")]
    assert ea.summarise(xs, ["net", "classical"], [(0, None)], 10)["positions"] == 1


def test_predictors_by_hand():
    lf = ea.logistic_fit
    # One feature, two groups: x = 0 wins 1 of 4, x = 1 wins 3 of 4: sigma(w0) = 1/4, sigma(w0
    # + w1) = 3/4, so w0 = -ln 3, w1 = 2 ln 3; a draw counts half a win (2 draws = 1 win).
    rows = [[1.0, 0.0]] * 4 + [[1.0, 1.0]] * 4
    for ys in ([1, 0, 0, 0, 1, 1, 1, 0], [0.5, 0.5, 0, 0, 1, 1, 0.5, 0.5]):
        (w0, w1), loss = lf(rows, ys)
        assert near(w0, -math.log(3), 1e-6) and near(w1, 2 * math.log(3), 1e-6), (w0, w1)
        assert near(loss, -(0.25 * math.log(0.25) + 0.75 * math.log(0.75)), 1e-9), loss
    assert lf([[1.0, 0.0]] * 3, [1, 1, 0], start=[0.0, 0.0]) is None  # x never varies
    assert lf([[1.0, 1.0]], [1]) is None  # fewer positions than weights
    assert lf([[1.0, -1.0], [1.0, 1.0]] * 3, [0, 1] * 3) is None  # separated: no maximum
    x = ea.solve([[2.0, 1.0], [1.0, 3.0]], [3.0, 5.0])
    assert near(x[0], 0.8, 1e-12) and near(x[1], 1.4, 1e-12), x
    assert ea.solve([[1.0, 2.0], [2.0, 4.0]], [1.0, 2.0]) is None
    # Twelve games, their results set by material (+-2 points) with a fifth of each won the
    # other way; net = 100 x material + noise that does not follow the results; classical =
    # 100 x material exactly, collinear with material (no fit beside it).
    samples = []
    for g in range(12):
        mat = 2.0 if g % 2 else -2.0
        for k in range(5):
            won = (mat > 0) != (k == 0)
            noise = 300.0 if (g // 2 + k) % 2 else -300.0
            samples.append(sample(g + 1, 30 + 6 * k, 100 * mat + noise, 100 * mat,
                                  1.0 if won else 0.0, True, mat))
    p = ea.predictors(samples, ["net", "classical"])["janggi"]
    assert p["positions"] == 60 and p["games"] == 12
    m = p["material"]
    # Material alone: each side of +-2 wins 4 of 5, so sigma(w0 + 0.2 w1) = 4/5 and sigma(w0 -
    # 0.2 w1) = 1/5: w0 = 0, w1 = 5 ln 4; log loss H(4/5).
    h = -(0.8 * math.log(0.8) + 0.2 * math.log(0.2))
    assert near(m["intercept"], 0.0, 1e-6) and near(m["per_10_points"], 5 * math.log(4), 1e-6)
    assert near(m["log_loss"], h, 1e-9)
    # The net alone predicts worse (its noise), beside material gains nothing (the noise is
    # balanced within each material group), and gives one point's worth in its cp: none, its
    # weight is 0 beside material.
    net = p["net"]
    assert net["alone"]["log_loss"] > m["log_loss"] and net["gain_alone"]["mean"] < 0
    assert near(net["gain_with_material"]["mean"], 0.0, 1e-9), net
    assert near(net["with_material"]["per_1000_cp"], 0.0, 1e-6), net
    assert net["gain_alone"]["error"] > 0
    # classical = 100 x material: alone as good as material, beside it no fit.
    cl = p["classical"]
    assert near(cl["gain_alone"]["mean"], 0.0, 1e-9) and cl["with_material"] is None
    assert cl["gain_with_material"]["mean"] is None
    # A net that holds the results beyond material gains, and counts material at its own rate
    # beside it: 60 positions of 12 games, at each material balance (+-2) and each sign of the
    # net's own term (+-300 cp) 15, of which 12 or 6 (at +2) and 9 or 3 (at -2) won; nothing
    # separates the results.
    informative = []
    for i in range(60):
        mat, plus, j = (2.0 if i < 30 else -2.0), (i % 30) < 15, i % 15
        wins = (12 if plus else 6) if mat > 0 else (9 if plus else 3)
        informative.append(sample(i % 12 + 1, 30 + i, 100 * mat + (300.0 if plus else -300.0),
                                  0.0, 1.0 if j < wins else 0.0, True, mat))
    p2 = ea.predictors(informative, ["net"])["janggi"]["net"]
    assert p2["gain_with_material"]["mean"] > 0.05 and p2["gain_alone"]["mean"] > 0.05, p2
    assert p2["with_material"]["per_1000_cp"] > 0 and p2["with_material"]["cp_per_point"], p2
    md = ea.markdown(dict(ea.summarise(samples, ["net", "classical"], [(0, None)], 10),
                          pgn="x.pgn", hansu_name="Hansu", every=6, plies=[0, None],
                          games={"audited": 12, "in_pgn": 12, "variants": {"janggi": 12},
                                 "opponents": ["F"], "hansu_points": 6.0, "hansu_score": 0.5},
                          evaluators=[{"name": "net", "label": "Hansu net", "setting": ""},
                                      {"name": "classical", "label": "Hansu classical",
                                       "setting": ""}], notes=[]))
    assert "What predicts the results beyond material (janggi)" in md and "| Hansu net |" in md


def test_refusals():
    pgn = write("t.pgn", PGN)
    bad_move = write("badmove.pgn", game("Hansu", "B", "1-0", "1. b1c3 b10c8 2. a1a9 i7h7"))
    # The last move refused, past every sampled ply: a1a2 legal at ply 3, refused at ply 5.
    bad_last = write("badlast.pgn", game("Hansu", "B", "1-0",
                                         "1. a4a5 b10c8 2. a1a2 i10i9 3. a1a2"))
    cases = [
        ([write("san.pgn", game("Hansu", "B", "1-0", "1. Nf3 Nc6"))], "'Nf3' is not a move"),
        ([write("chess.pgn", game("Hansu", "B", "1-0", "1. b1c3", "chess"))],
         "unknown variant 'chess'"),
        ([bad_move, "--every", "1"], "game 1, ply 3: move 'a1a9'"),
        ([bad_move], "game 1, ply 3: move 'a1a9'"),
        ([bad_last, "--every", "1", "--plies", "0-2"], "game 1, ply 5: move 'a1a2'"),
        ([pgn, "--hansu-name", "Nobody"], "no game with a result involves"),
        ([os.path.join(WORK, "none.pgn")], "none.pgn"),
        ([pgn, "--every", "0"], "--every"),
        ([pgn, "--plies", "9-3"], "--plies '9-3'"),
        ([pgn, "--bands", "0-9,5-"], "--bands"),
        ([pgn, "--bins", "x"], "--bins"),
        ([pgn, "--fsf-scale", "-5"], "--fsf-scale"),
        ([pgn, "--frobnicate"], "--frobnicate"),
        ([pgn, "--fsf", os.path.join(WORK, "nofsf"), "--json", os.path.join(WORK, "x.json")],
         "not an executable file"),
        ([pgn, "--evalfile", os.path.join(WORK, "none.nnue")], "none.nnue: no such file"),
        ([pgn, "--no-fsf", "--json", WORK], "a folder, not a file"),
        ([pgn, "--search-nodes", "0"], "--search-nodes takes a positive number"),
        ([pgn, "--search-nodes", "500", "--search-nodes", "500"], "each once"),
        ([pgn, "--search-blend", "50"], "--search-blend needs --search-nodes"),
        ([pgn, "--search-nodes", "500", "--search-blend", "0"], "--search-blend takes"),
        ([pgn, "--blend", "0"], "--blend takes a percentage"),
        ([pgn, "--blend", "101"], "--blend takes a percentage"),
        ([pgn, "--blend", "30", "--blend", "30"], "each once"),
        ([pgn, "--material", "0"], "--material takes centipawns"),
        ([pgn, "--material", "401"], "--material takes centipawns"),
        ([pgn, "--material", "90", "--material", "90"], "each once"),
        ([pgn, "--from-json"], "t.pgn: not a readable audit JSON"),
        ([write("list.json", "[1]"), "--from-json"], "not an eval-audit JSON of schema 1"),
        ([write("other.json", '{"schema": 1, "pgn": "x"}'), "--from-json"],
         "not an eval-audit JSON as --json writes it (its evaluators"),
        ([write("broken.json", '{"schema": 1,'), "--from-json"], "not a readable audit JSON"),
        ([write("empty.json", ''), "--from-json", "--every", "3"], "--from-json: --every"),
        ([write("y.json", '{}'), "--from-json", "--blend", "30"], "--from-json: --blend"),
    ]
    # Audit JSONs damaged one field at a time: each refused with what is wrong, never a
    # traceback or figures made of it.
    good = {"schema": 1, "pgn": "g.pgn", "hansu_name": "Hansu", "every": 6, "plies": [0, None],
            "bands": [[0, 59], [60, None]], "bins": 10, "notes": [],
            "games": {"audited": 2, "in_pgn": 2, "variants": {"janggi": 2}, "opponents": ["F"],
                      "hansu_points": 1.0, "hansu_score": 0.5},
            "evaluators": [{"name": "net", "label": "Hansu net"},
                           {"name": "fsf", "label": "Fairy-Stockfish"}],
            "samples": [{"game": g, "variant": "janggi", "ply": 30 + k, "band": "0-59",
                         "to_move": "Hansu", "hansu_to_move": True, "last_move_by": "F",
                         "result": float(g == 1), "material": k - 1.0,
                         "cp": {"net": 100 * k - 50, "fsf": None}}
                        for g in (1, 2) for k in range(3)]}
    ok = write("good.json", json.dumps(good))
    r = run([ok, "--from-json", "--md", os.path.join(WORK, "good.md")])
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr  # fsf none at all
    damaged = [
        (lambda d: d["samples"][0].pop("variant"), "a sample's variant"),
        (lambda d: d["samples"][1].update(game="1"), "a sample's game"),
        (lambda d: d["samples"][1]["cp"].update(net="12"), "a sample's cp"),
        (lambda d: d["samples"][1]["cp"].update(net=1e308), "a sample's cp"),
        (lambda d: d["samples"][1]["cp"].update(other=5), "a sample's cp"),
        (lambda d: d["samples"][2].update(result=0.7), "a sample's result"),
        (lambda d: d["samples"][2].update(hansu_to_move=1), "a sample's hansu_to_move"),
        (lambda d: d["evaluators"][0].pop("label"), "its evaluators"),
        (lambda d: d["evaluators"].append({"name": "net", "label": "x"}), "named twice"),
        (lambda d: d.update(games=[]), "its games"),
        (lambda d: d.update(plies=[]), "plies"),
        (lambda d: d.update(pgn=5), "pgn"),
        (lambda d: d.update(samples=[]), "its samples"),
    ]
    for k, (spoil, what) in enumerate(damaged):
        d = json.loads(json.dumps(good))
        spoil(d)
        cases.append(([write(f"damaged{k}.json", json.dumps(d)), "--from-json"], what))
    cases += [
        ([write("nan.json", json.dumps(good).replace('"net": 50', '"net": NaN')), "--from-json"],
         "NaN is not a number a JSON may hold"),
        ([write("bands.json", json.dumps(dict(good, bands=[[5]]))), "--from-json"],
         "its bands are not"),
        ([write("bins.json", json.dumps(dict(good, bins=0))), "--from-json"],
         "its bins are not"),
    ]
    with open(os.path.join(WORK, "cut.pgn.gz"), "wb") as fh:
        fh.write(gzip.compress(PGN.encode())[:40])
    cases.append(([os.path.join(WORK, "cut.pgn.gz")], "a damaged gzip file"))
    for args, what in cases:
        r = run(args + ["--engine-cmd", HANSU] if "--engine-cmd" not in args and
                "--from-json" not in args else args)
        assert r.returncode == 1 and r.stderr.count("\n") == 1, (args, r)
        assert r.stderr.startswith("eval-audit: ") and what in r.stderr, (args, r.stderr)
        assert "Traceback" not in r.stderr
    # Another engine as --engine-cmd: refused at once (its eval is not Hansu's; it hung).
    if HAVE_FSF:
        r = run([pgn, "--no-fsf", "--engine-cmd", FSF])
        assert r.returncode == 1 and "not Hansu" in r.stderr, r
    # A Hansu that ignores eval_blend (a wrapper drops the option): --blend is an error.
    wrapper = write("old-hansu.py", "#!/usr/bin/python3\nimport subprocess, sys\n"
                    f"p = subprocess.Popen([{HANSU!r}], stdin=subprocess.PIPE, text=True)\n"
                    "for line in sys.stdin:\n"
                    "    if 'eval_blend' not in line and 'eval_material' not in line:\n"
                    "        p.stdin.write(line); p.stdin.flush()\n"
                    "    if line.strip() == 'quit':\n"
                    "        break\n"
                    "p.stdin.close(); p.wait()\n")
    os.chmod(wrapper, 0o755)
    r = run([pgn, "--no-fsf", "--engine-cmd", wrapper, "--blend", "30", "--every", "8"])
    assert r.returncode == 1 and "--blend 30:" in r.stderr and "no blended" in r.stderr, r
    r = run([pgn, "--no-fsf", "--engine-cmd", wrapper, "--material", "80", "--every", "8"])
    assert r.returncode == 1 and "--material 80:" in r.stderr, r
    assert "no material-anchored" in r.stderr, r
    r = run([pgn, "--no-fsf", "--engine-cmd", wrapper, "--search-nodes", "300",
             "--search-blend", "50", "--every", "8"])
    assert r.returncode == 1 and "--search-blend 50:" in r.stderr, r
    assert "no blended search" in r.stderr and not os.path.exists(os.path.join(WORK, "x.json")), r
    r = run([pgn, "--engine-cmd", os.path.join(WORK, "no-hansu")])
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "--engine-cmd" in r.stderr, r
    assert not os.path.exists(os.path.join(WORK, "x.json"))


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    test_figures_by_hand()
    test_predictors_by_hand()
    test_engine_run()
    test_refusals()
    print("test_eval_audit: ok")


if __name__ == "__main__":
    main()
