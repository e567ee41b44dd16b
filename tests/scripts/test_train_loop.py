#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/train's data window and verdicts, without running any program (issue 12):
- the window is counted in positions: newest iterations first while the total stays within
  tune.window_positions, always the newest one, so the data grows until the bound;
- a candidate is accepted only when its SPRT accepts H1 and, with match.confirm, a second
  SPRT with another seed accepts H1 too; the second is not played after an H0 or an
  inconclusive first;
- the old setting tune.window is refused with a message naming its replacement;
- every accepted candidate, the first one included, plays the first engine in a fixed-length
  match (all match.elo_games games, no SPRT) at match.elo_nodes (not match.nodes), openings from
  a seed no SPRT uses; state.json keeps its games, Elo and nElo with their errors;
- the end-of-run gauntlet plays the final and the first engine against gauntlet.engine at
  gauntlet.tc (tests/fake_engine standing in for Fairy-Stockfish), resumes without replaying,
  and is skipped with a log line and a report line when the engine is missing;
- the hours limit counts the run's earlier processes (a resumed run has what is left);
- report.md's Elo per CPU-hour line divides the final engine's fixed-length Elo and its error
  by the measured CPU-hours;
- the [report] caps (games in report.html's viewer) have data/train.toml's defaults, take
  --set, and a value that is not a whole number of games >= 0 is refused naming the setting;
- the run's sources are the commit of its first snapshot, kept in state.json: a run folder
  whose src/ is gone (carried to another checkout) is built again from that commit, not from a
  newer HEAD, and a commit the checkout lacks is refused naming it;
- each iteration's record keeps the settings its self-play was played with, and a replay of its
  missing shards uses them rather than today's config, naming each setting that differs.
Runs of nets on stub programs, through scripts/train and main(): test_train_nets.py.
The engines are tests/fake_engine (instant legal moves), played by the real hansu-match.

Usage: test_train_loop.py WORK_DIR [FAKE_ENGINE HANSU_MATCH]"""
import json
import os
import re
import shutil
import subprocess
import sys
import time

from train_loop_common import QuietRun, REPO, check, make_run, train


def test_window(work):
    run = make_run(work, ["tune.window_positions=2500"])
    for k, n in [(1, 1000), (2, 1200), (3, 900), (4, 3000)]:
        os.makedirs(run.iter_dir(k))
        with open(os.path.join(run.iter_dir(k), "selfplay.json"), "w") as f:
            # a resumed folder: positions_saved counts the whole folder
            json.dump({"schema": 1, "positions_played": n // 2, "positions_saved": n}, f)
    got = [run.tune_window(k) for k in (1, 2, 3, 4)]
    check(got == [([1], 1000), ([1, 2], 2200), ([2, 3], 2100), ([4], 3000)],
          f"windows of 2500 positions: {got}")
    run.config["tune"]["window_positions"] = 0
    check(run.tune_window(4) == ([1, 2, 3, 4], 6100), "window 0 takes every iteration")
    os.remove(os.path.join(run.iter_dir(2), "selfplay.json"))
    try:
        run.tune_window(4)
        check(False, "a missing self-play result is an error")
    except train.TrainError as e:
        check("iteration 2" in str(e), str(e))
    # A run started before window_positions, l2 and confirm existed resumes with its own
    # setting: the last `window` iterations, and no confirming SPRT.
    old = train.load_config(None, [])
    for section, key in [("tune", "window_positions"), ("tune", "l2"), ("match", "confirm")]:
        del old[section][key]
    old["tune"]["window"] = 2
    train.check_config(old)
    run.config = old
    check(run.tune_window(4) == ([3, 4], 3900), f"old window of 2 iterations: {run.tune_window(4)}")
    check(run.verdict(4, {"match": {"sprt": "H1 accepted"}}, None, None), "old runs: one SPRT")


def test_verdict(work):
    for first, second, confirm, want, played in [
            ("H1 accepted", "H1 accepted", True, True, 1),
            ("H1 accepted", "H0 accepted", True, False, 1),
            ("H1 accepted", "continue (no bound crossed)", True, False, 1),
            ("H0 accepted", "H1 accepted", True, False, 0),
            ("continue (no bound crossed)", "H1 accepted", True, False, 0),
            ("H1 accepted", "H0 accepted", False, True, 0)]:
        run = make_run(work, [f"match.confirm={'true' if confirm else 'false'}"])
        seeds = []

        def fake_match(k, name, engine, opponent, games, sprt, seed=None):
            seeds.append(seed)
            check(name == "confirm" and sprt == run.config["match"]["sprt"], name)
            return {"sprt": second, "score": "1-0", "nelo": "1"}
        run.match = fake_match
        record = {"match": {"sprt": first}}
        got = run.verdict(3, record, ("cand", "iter-003"), ("cur", "initial"))
        check(got == want and len(seeds) == played,
              f"{first} then {second}, confirm {confirm}: accepted {got}, {len(seeds)} played")
        if played:
            check(seeds[0] != run.config["run"]["seed"] * 1000 + 3, "the confirming SPRT's seed "
                  "must differ from the first's")
            # resumed after the confirming match: it is not played again
            check(run.verdict(3, record, ("c", "n"), ("c", "n")) == want and len(seeds) == 1,
                  "the confirming result is kept in the record")


def test_renamed_setting():
    try:
        train.load_config(None, ["tune.window=3"])
        check(False, "tune.window accepted")
    except train.TrainError as e:
        check("tune.window_positions" in str(e), str(e))


class LoggingRun(train.Run):
    """A run whose state is saved for real (the report reads it) and whose log is kept."""

    def log(self, text):
        self.logged.append(text)


def fake_builds(work, fake, match_tool, names):
    """A build folder per engine name whose hansu and hansu-match are the fake engine and the
    real match tool."""
    builds = {}
    for name in names:
        b = os.path.join(work, "builds", name)
        for sub, target in (("engine/hansu", fake), ("selfplay/match/hansu-match", match_tool)):
            os.makedirs(os.path.dirname(os.path.join(b, sub)), exist_ok=True)
            os.symlink(target, os.path.join(b, sub))
        builds[name] = b
    return builds


def new_run(work, fake, match_tool, extra):
    os.makedirs(os.path.join(work, "weights"))
    config = train.load_config(None, [
        "run.threads=2", f"run.weights_dir={json.dumps(os.path.join(work, 'kept'))}",
        "match.nodes=5", "match.elo_games=6", "match.elo_nodes=0", "gauntlet.enabled=true",
        f"gauntlet.engine={json.dumps(fake)}", "gauntlet.games=4",
        "gauntlet.tc=\"1+0.01\""] + extra)
    run = LoggingRun(work, config)
    run.logged = []
    headers = {}
    for name in ("initial", "iter-001", "iter-002"):
        headers[name] = os.path.join(work, "weights", name + ".h")
        with open(headers[name], "w") as f:
            f.write(f"// {name}\nstatic const int w = {len(headers)};\n")
    builds = fake_builds(work, fake, match_tool, headers)
    by_header = {h: builds[n] for n, h in headers.items()}
    run.build = lambda header, engine_only=False: by_header.get(header) or builds[
        os.path.basename(header).split("-", 1)[-1][:-2]]  # kept copies: <run>-iter-00k.h
    run.match_tool = os.path.join(builds["initial"], "selfplay", "match", "hansu-match")
    first = {"name": "initial", "header": headers["initial"]}
    run.state = {"config": config, "iteration": 0, "in_progress": False, "first": first,
                 "current": dict(first), "iterations": [], "accepted": [], "started": "x"}
    return run, headers, builds


def flags(line):
    """A logged command line's flags, as {flag: value}."""
    words = line.split()
    return {w: (words[i + 1] if i + 1 < len(words) else "") for i, w in enumerate(words)
            if w.startswith("--")}


def test_elo_matches(work, fake, match_tool):
    run, headers, builds = new_run(work, fake, match_tool, [])
    sprt_seeds = set()
    for k in (1, 2):
        name = f"iter-{k:03d}"
        sprt_seeds |= {run.config["run"]["seed"] * 1000 + k,
                       1_000_000_000 + run.config["run"]["seed"] * 1000 + k}
        os.makedirs(run.iter_dir(k))
        # The first acceptance: the current engine is the first one, and its SPRT stopped
        # early; the Elo must still come from a match of its own.
        record = {"k": k, "accepted": True, "match": {
            "sprt": "H1 accepted", "score": "9-1", "elo": "400.0", "elo_error": "inf",
            "nelo": "300.0", "nelo_error": "100.0", "pentanomial": [0, 0, 1, 0, 4]}}
        run.state["iterations"].append(record)
        before = len(run.logged)
        run.accept(k, name, headers[name], builds[name], record)
        e = record.get("elo_vs_first") or {}
        lines = [l for l in run.logged[before:] if "hansu-match" in l]
        check(len(lines) == 1, f"{name}: one Elo match, got {lines}")
        f = flags(lines[0])
        check(e.get("games") == 6 and sum(e.get("pentanomial", [])) == 3,
              f"{name}: a fixed-length match of match.elo_games = 6 games: {e}")
        check("--sprt" not in f and "sprt" not in e, f"{name}: no SPRT in the Elo match")
        check(f.get("--nodes") == "10" and e.get("nodes") == 10,
              f"{name}: elo_nodes 0 plays at 2 x match.nodes = 10: {f.get('--nodes')}")
        check(int(f["--seed"]) not in sprt_seeds and e.get("seed") == int(f["--seed"]),
              f"{name}: the Elo seed {f['--seed']} is an SPRT's")
        check(f"{builds['initial']}/engine/hansu" in lines[0], f"{name}: not against the first")
        for key in ("elo", "elo_error", "nelo", "nelo_error"):
            check(isinstance(e.get(key), str) and e[key] != "", f"{name}: no {key} in {e}")
        check(run.state["current"]["name"] == name and run.state["accepted"][-1] == name,
              f"{name} is not current after its acceptance")
    check(run.state["iterations"][0]["elo_vs_first"]["seed"] ==
          run.state["iterations"][1]["elo_vs_first"]["seed"],
          "every candidate meets the same Elo openings")
    check(run.state.get("cpu_s", {}).get("elo", -1) >= 0, f"no CPU time kept: {run.state}")
    for bad in (["match.elo_nodes=5"], ["gauntlet.tc=\"5s\""], ["gauntlet.games=3"]):
        try:
            train.load_config(None, ["match.nodes=5"] + bad)
            check(False, f"{bad} accepted")
        except train.TrainError as err:
            check(bad[0].split("=")[0] in str(err), str(err))
    return run


def test_gauntlet(run, fake):
    run.logged.clear()
    run.gauntlet()
    g = run.state.get("gauntlet", {})
    res = g.get("results", {})
    lines = [l for l in run.logged if "hansu-match" in l]
    check(list(res) == ["iter-002", "initial"] and len(lines) == 2,
          f"the final and the first engine play the gauntlet: {g}, {lines}")
    for line, (name, r) in zip(lines, res.items()):
        f = flags(line)
        check(f.get("--tc") == "1+0.01" and "--nodes" not in f, f"{name}: not at tc: {line}")
        # data/train.toml's gauntlet.options are [] (hansu-match tells the engine its variant)
        check(f"cmd={fake}" in line and run.config["gauntlet"]["options"] == [] and
              "option.UCI_Variant" not in line, line)
        check(r.get("games") == 4 and r.get("role") in ("final", "first"), f"{name}: {r}")
        check(int(f["--seed"]) != run.state["iterations"][0]["elo_vs_first"]["seed"],
              "the gauntlet's seed is the Elo matches'")
    # Resumed: a finished engine is not played again; one whose result was not yet saved
    # resumes its match file (no new games).
    del res["initial"]
    run.logged.clear()
    run.gauntlet()
    lines = [l for l in run.logged if "hansu-match" in l]
    check(len(lines) == 1 and "--resume" in lines[0] and "name=initial" in lines[0],
          f"resumed gauntlet: {lines}")
    check(run.state["gauntlet"]["results"]["initial"]["games"] == 4, "resumed result")
    run.save_state()
    r = subprocess.run([sys.executable, os.path.join(REPO, "scripts", "train_report.py"),
                        run.folder], capture_output=True, text=True)
    check(r.returncode == 0, r.stderr)
    text = open(os.path.join(run.folder, "report.md")).read()
    row = re.search(r"^\| iter-002 \| final \| 4 \| \d+-\d+ \| \S+ ± \S+ \| \S+ ± \S+ \|",
                    text, re.M)
    check(row is not None and os.path.exists(os.path.join(run.folder, "gauntlet.png")),
          "report.md: no gauntlet row with error bars, or no gauntlet.png")
    check(re.search(r"^\| 2 \|.*\| yes \| \S+ ± \S+ \| \S+ ± \S+ \| 6 @ 10 nodes \|", text,
                    re.M) is not None, "report.md: no fixed-length Elo in the table")


def test_gauntlet_missing(work, fake, match_tool):
    run, _, _ = new_run(work, fake, match_tool, ["gauntlet.engine=\"/nonexistent/fsf\""])
    run.save_state()
    run.finish()  # no crash; the report is written
    skipped = [l for l in run.logged if l.startswith("gauntlet skipped")]
    check(skipped and "/nonexistent/fsf" in skipped[0], f"no skip line: {run.logged}")
    check("/nonexistent/fsf" in run.state["gauntlet"].get("skipped", ""), str(run.state))
    text = open(os.path.join(run.folder, "report.md")).read()
    check(re.search(r"^Skipped: .*/nonexistent/fsf", text, re.M) is not None,
          "report.md does not say the gauntlet was skipped")
    # The hours limit holds over resumes: 2 h already run, run.hours = 1 -> no new iteration.
    run.config["run"].update(hours=1, iterations=5)
    run.config["gauntlet"]["enabled"] = False
    run.state["wall_s"] = 7200.0
    run.wall_base = None
    run.logged.clear()
    run.iteration = lambda k: check(False, f"iteration {k} started after the hours limit")
    run.run()
    check(run.state["iteration"] == 0 and any("time limit" in l for l in run.logged),
          f"hours limit over resumes: {run.logged}")
    # An interrupt saves the wall time so far (save_wall) and nothing else of the memory's state.
    run.save_state()
    run.state["iteration"] = 99
    run.wall_base, run.wall_start = 100.0, time.monotonic() - 50.0
    run.save_wall()
    with open(os.path.join(run.folder, "state.json")) as f:
        disk = json.load(f)
    check(150.0 <= disk["wall_s"] < 160.0 and disk["iteration"] == 0,
          f"save_wall: wall_s {disk['wall_s']}, iteration {disk['iteration']}")


def test_report_per_cpu_hour(work):
    os.makedirs(work)
    state = {"config": train.load_config(None, []), "iteration": 2, "started": "x",
             "first": {"name": "initial"}, "current": {"name": "iter-002"},
             "accepted": ["iter-002"], "threads": 2, "wall_s": 5400.0,
             "cpu_s": {"self-play": 3600.0, "tune": 900.0, "build": 900.0, "elo": 1800.0},
             "iterations": [{"k": 1, "accepted": False, "match": {}},
                            {"k": 2, "accepted": True, "match": {},
                             "elo_vs_first": {"games": 400, "nodes": 1200, "elo": "50.0",
                                              "elo_error": "30.0", "nelo": "55.0",
                                              "nelo_error": "33.0", "fixed_length": True}}]}
    with open(os.path.join(work, "state.json"), "w") as f:
        json.dump(state, f)
    r = subprocess.run([sys.executable, os.path.join(REPO, "scripts", "train_report.py"), work],
                       capture_output=True, text=True)
    check(r.returncode == 0, r.stderr)
    text = open(os.path.join(work, "report.md")).read()
    # 50 +- 30 Elo over 2.00 CPU-hours (all steps); 1.50 without the Elo matches; 1.5 h x 2.
    for want in ("**+25.0 ± 15.0 Elo per CPU-hour**", "1.50 CPU-hours, +33.3 ± 20.0",
                 "1.50 h × 2 cores = 3.00 core-hours, +16.7 ± 10.0"):
        check(want in text, f"report.md lacks {want!r}")


def test_match_json_not_finite(work):
    """hansu-match writes null for what is not finite (an LLR when every pair scored alike)."""
    os.makedirs(work)
    path = os.path.join(work, "m.json")
    with open(path, "w") as f:
        json.dump({"games": 8, "wins": [8, 0], "elo": None, "elo_error": None, "nelo": None,
                   "nelo_error": None, "los": 1.0, "pentanomial": [0, 0, 0, 0, 4], "reasons": {},
                   "sprt": {"result": "H1", "llr": None}}, f)
    r = train.parse_match_json(path)
    check(r["games"] == 8 and r["elo"] == "inf" and r["llr"] == "inf" and
          r["sprt"] == "H1 accepted", f"not-finite match result: {r}")


def test_variant_xiangqi(work):
    """run.variant = xiangqi (data/train-xiangqi.toml): every tool gets --variant xiangqi (janggi's
    command lines have none), the build takes xiangqi's weights flag, the weights header is
    xiangqi's, an unknown variant is refused, a match result with draws reads W-D-L, and its
    openings file goes to self-play and the matches (a missing one is refused)."""
    os.makedirs(work)
    config = train.load_config(train.XIANGQI_CONFIG, [])
    train.check_config(config)
    check(train.variant_of(config) == "xiangqi", "train-xiangqi.toml is not xiangqi")
    check(train.weights_header("xiangqi").endswith(os.path.join("engine", "xiangqi", "eval_weights.h")),
          "xiangqi's header")
    run = QuietRun(work, config)
    run.logged, run.state = [], {}
    steps = []
    run.run_step = lambda label, argv, log, **kw: steps.append(argv)
    run.tune_window = lambda k: ([1], 1000)
    run.match_tool = "hansu-match"
    run.step_selfplay(1, "b")
    run.step_tune(1, "b", {})
    try:
        run.play(work, "m", [["cmd=a", "name=a"], ["cmd=b", "name=b"]], ["--nodes", "1"], 2, 1,
                 "e", "sprt")
    except train.TrainError:
        pass  # no result file: only the command line matters here
    for argv in steps:
        i = argv.index("--variant") if "--variant" in argv else -1
        check(i >= 0 and argv[i + 1] == "xiangqi", f"no --variant xiangqi in {argv}")
    # selfplay.openings and match.openings: --openings with the file in the repository, for
    # self-play and the match, not the tuner.
    book = os.path.join(train.REPO, "data", "openings-xiangqi.fen")
    for argv in (steps[0], steps[2]):
        check("--openings" in argv and argv[argv.index("--openings") + 1] == book,
              f"no --openings {book} in {argv}")
    check("--openings" not in steps[1], f"the tuner got openings: {steps[1]}")
    # The default config (the demo read over data/train.toml) with data/train.toml's openings.
    janggi = make_run(os.path.join(work, "j"), ['selfplay.openings="suite"'])
    janggi.run_step = lambda label, argv, log, **kw: steps.append(argv)
    janggi.step_selfplay(1, "b")
    check("--variant" not in steps[-1], f"janggi's self-play got a variant: {steps[-1]}")
    # selfplay.openings = "suite" (data/train.toml's): the run's variant's suite (issue 25).
    suite = os.path.join(train.REPO, "data", "openings-janggi.fen")
    check("--openings" in steps[-1] and steps[-1][steps[-1].index("--openings") + 1] == suite,
          f"janggi's self-play did not get the janggi suite: {steps[-1]}")
    # match.openings defaults to "suite" (data/train.toml): the matches name the suite's file,
    # not the build's compiled-in default, which a run's copy of the sources once lacked.
    check(train.openings_flags(janggi.config, "match") == ["--openings", suite],
          f"the default match openings: {train.openings_flags(janggi.config, 'match')}")
    xq_suite = train.load_config(train.XIANGQI_CONFIG, ['selfplay.openings="suite"'])
    train.check_config(xq_suite)
    check(train.openings_flags(xq_suite, "selfplay") == ["--openings", book],
          f"\"suite\" for xiangqi: {train.openings_flags(xq_suite, 'selfplay')}")
    try:
        train.check_config(train.load_config(train.XIANGQI_CONFIG, ['selfplay.openings="no.fen"']))
        check(False, "a missing openings file accepted")
    except train.TrainError as e:
        check("selfplay.openings" in str(e) and "no.fen" in str(e), str(e))
    try:
        train.check_config(train.load_config(None, ['run.variant="shogi"']))
        check(False, "run.variant shogi accepted")
    except train.TrainError as e:
        check("run.variant" in str(e), str(e))
    path = os.path.join(work, "m.json")
    with open(path, "w") as f:
        json.dump({"games": 8, "wins": [3, 1], "draws": 4, "elo": 44.0, "elo_error": 50.0,
                   "nelo": 60.0, "nelo_error": 70.0, "los": 0.8, "pentanomial": [0, 0, 3, 1, 0],
                   "reasons": {}, "sprt": None}, f)
    r = train.parse_match_json(path)
    check(r["score"] == "3-4-1", f"draws not in the score: {r}")


def test_texel_classical(work):
    """The texel mode measures the classical evaluation it tunes even when a net is compiled
    into the engine (engine/janggi/net.nnue): its self-play runs with --classical, and every
    Hansu engine of its matches (SPRTs, Elo matches, gauntlet) gets option.Use NNUE=false."""
    run = make_run(work, [])
    steps = []
    run.run_step = lambda label, argv, log, **kw: steps.append(argv)
    run.match_tool = "hansu-match"
    run.step_selfplay(1, "b")
    check("--classical" in steps[0] and "--evalfile" not in steps[0],
          f"texel self-play without --classical: {steps[0]}")
    try:
        run.match(1, "match", ("cand", "iter-001"), ("cur", "initial"), 2, "elo0=0 elo1=10")
    except train.TrainError:
        pass  # no result file: only the command line matters here
    argv = steps[1]
    engines = [argv[i + 1:i + 4] for i, a in enumerate(argv) if a == "--engine"]
    check(engines == [["cmd=cand/engine/hansu", "name=iter-001", "option.Use NNUE=false"],
                      ["cmd=cur/engine/hansu", "name=initial", "option.Use NNUE=false"]],
          f"texel match engines: {engines}")
    check(not any(a.startswith("option.EvalFile") for a in argv), f"a net in texel: {argv}")


def test_nnue_build(work):
    """run.eval = "nnue" with nnue.build = "": one build of the run's sources (the first
    engine's header), hansu-nnue among its targets, made once; nnue.build = a folder: that
    folder, nothing built."""
    os.makedirs(work)
    run = make_run(work, ['run.eval="nnue"'])
    header = os.path.join(work, "initial.h")
    shutil.copyfile(train.start_header(run.config), header)
    run.state = {"first": {"name": "initial", "header": header}}
    steps = []

    def step(label, argv, log, **kw):
        steps.append(argv)
        if argv[0] == "cmake":
            os.makedirs(argv[argv.index("-B") + 1])
    run.run_step = step
    run.snapshot_source = lambda: "src"
    folder = run.engine_build()
    check(folder.startswith(os.path.join(work, "builds")) and len(steps) == 2 and
          steps[0][0] == "cmake" and f"-DHANSU_EVAL_WEIGHTS={header}" in steps[0] and
          steps[1][:3] == ["ninja", "-C", folder] and "hansu-nnue" in steps[1] and
          "hansu-match" in steps[1], f"the nnue mode's build: {steps}")
    check(run.engine_build() == folder and len(steps) == 2, "built twice")
    run.config["nnue"]["build"] = "build"
    check(run.engine_build() == os.path.join(train.REPO, "build") and len(steps) == 2,
          "nnue.build: not that folder")


def test_source_commit(work):
    """snapshot_source takes HEAD once and keeps its commit; later snapshots take that commit."""
    repo = os.path.join(work, "repo")
    for part, text in [("CMakeLists.txt", "project(x)\n"), ("engine/a.c", "A\n"),
                       ("selfplay/b.c", "b\n"), ("tuner/c.c", "c\n"), ("data/bench.fen", "f\n"),
                       ("data/bench-xiangqi.fen", "x\n"), ("data/openings-janggi.fen", "o\n")]:
        os.makedirs(os.path.dirname(os.path.join(repo, part)), exist_ok=True)
        with open(os.path.join(repo, part), "w") as f:
            f.write(text)
    git = ["git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@t"]

    def commit(message):
        subprocess.run(git + ["add", "-A"], check=True)
        subprocess.run(git + ["commit", "-qm", message], check=True)
        return subprocess.run(git + ["rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    subprocess.run(["git", "init", "-q", repo], check=True)
    first = commit("A")
    run = make_run(os.path.join(work, "run"), [])
    saved, train.REPO = train.REPO, repo
    try:
        src = run.snapshot_source()
        check(run.state.get("source_commit") == first, f"source_commit: {run.state}")
        # The suite is compiled in (the matches' default openings); a file the commit lacks
        # (openings-xiangqi.fen here) is left out, not an error.
        check(os.path.exists(os.path.join(src, "data", "openings-janggi.fen")),
              "the snapshot lacks the opening suite")
        with open(os.path.join(repo, "engine", "a.c"), "w") as f:
            f.write("B\n")
        commit("B")
        shutil.rmtree(src)
        src = run.snapshot_source()
        with open(os.path.join(src, "engine", "a.c")) as f:
            check(f.read() == "A\n", "the snapshot made again is not the run's commit")
        check(run.state["source_commit"] == first, "source_commit changed")
        shutil.rmtree(src)
        run.state["source_commit"] = "0123abc"
        try:
            run.snapshot_source()
            check(False, "a commit the checkout lacks is accepted")
        except train.TrainError as e:
            check("0123abc" in str(e) and "does not hold" in str(e), str(e))
    finally:
        train.REPO = saved


def test_selfplay_settings(work):
    """Each iteration's record keeps the settings its self-play was played with, and a replay
    of its missing shards uses them, not today's config, naming each setting that differs
    (issue 39, item 7); a record from before the field is replayed with today's, with a
    warning, and keeps them from then on."""
    os.makedirs(work)
    run = make_run(work, ["selfplay.games=8", "selfplay.nodes=100", 'selfplay.openings="suite"'])
    run.state = {"first": {"name": "initial", "header": "h"}, "current": {"name": "initial",
                 "header": "h"}, "iterations": []}
    run.build = lambda header, engine_only=False, nnue=False: "b"
    steps = []

    def step(label, argv, log, **kw):  # hansu-selfplay: the same counts as the first time
        steps.append(argv)
        shutil.copyfile(os.path.join(os.path.dirname(log), "selfplay-first.json"),
                        os.path.join(os.path.dirname(log), "selfplay.json"))
    run.run_step = step
    for k in (1, 2):
        record = run.record_of(k)
        record["selfplay_engine"] = {"header": "h", "net": ""}
        os.makedirs(os.path.join(run.iter_dir(k), "selfplay"))
        with open(os.path.join(run.iter_dir(k), "selfplay.json"), "w") as f:
            json.dump({"schema": 1, "games_saved": 8, "positions_saved": 800, "wins": [4, 4],
                       "reasons": {}, "shards": [{"path": "shard-000000.h5"}]}, f)
    first = run.played_settings(1, run.record_of(1))
    check(run.record_of(1)["selfplay_settings"] == first and first["seed"] == 1001 and
          first["nodes"] == 100 and first["openings"] == "suite" and not run.logged,
          f"iteration 1's record keeps its settings: {run.record_of(1)}")
    run.config["run"]["seed"] = 9
    run.config["selfplay"].update(nodes=150, extra=["--hash", "4"], openings="")
    train.Run.ensure_selfplay(run, 1)
    f = flags(" ".join(steps[-1]))
    check(f.get("--seed") == "1001" and f.get("--nodes") == "100" and "--hash" not in f and
          f.get("--openings", "").endswith("openings-janggi.fen") and f.get("--games") == "8",
          f"the replay does not use the recorded settings: {steps[-1]}")
    said = [line for line in run.logged if "not today's" in line]
    check(len(said) == 1 and all(x in said[0] for x in (
        "run.seed: seed 1001 (today's: 9001)", "selfplay.nodes = 100 (today's: 150)",
        "selfplay.extra = [] (today's: ['--hash', '4'])", "selfplay.openings = 'suite'")) and
        "selfplay.games" not in said[0], f"the replay does not name the settings: {run.logged}")
    check(run.record_of(1)["regenerated"][-1]["same_counts"] is True, "replay counts")
    # A record from before the field: today's settings, a warning, and kept from then on.
    run.logged.clear()
    train.Run.ensure_selfplay(run, 2)
    f = flags(" ".join(steps[-1]))
    check(f.get("--seed") == "9002" and f.get("--nodes") == "150" and f.get("--hash") == "4",
          f"an old record's replay: {steps[-1]}")
    check(any(line.startswith("warning: iteration 2: state.json does not keep the settings")
              for line in run.logged), f"no warning for an old record: {run.logged}")
    check(run.record_of(2)["selfplay_settings"]["nodes"] == 150, "the replay's settings not kept")


# A stand-in for the four programs of a run of nets' build (nnue.build), one script under four
# names: hansu-selfplay writes a result naming one shard, hansu-nnue does what $STUB_PLAN says for
# its iteration, hansu-match loses its SPRT (H0); each call is appended to $STUB_PLAN.calls.
def test_report_settings():
    """[report]: the defaults as they were constants before, --set, bad values refused."""
    c = train.load_config(None, [])
    check(c["report"] == {"selfplay_games": 4, "match_games": 32, "gauntlet_games": 0},
          f"[report] defaults: {c['report']}")
    c = train.load_config(None, ["report.match_games=8", "report.gauntlet_games=0"])
    check(c["report"]["match_games"] == 8, f"--set report.match_games=8: {c['report']}")
    for bad in ("report.match_games=-1", "report.selfplay_games=2.5", 'report.gauntlet_games="all"',
                "report.match_games=true", "report.games=3"):
        try:
            train.load_config(None, [bad])
            check(False, f"{bad} accepted")
        except train.TrainError as e:
            check(bad.split("=")[0] in str(e), f"{bad}: {e}")


def main():
    work = sys.argv[1]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    test_window(os.path.join(work, "window"))
    test_verdict(os.path.join(work, "verdict"))
    test_renamed_setting()
    test_report_settings()
    test_match_json_not_finite(os.path.join(work, "json"))
    test_report_per_cpu_hour(os.path.join(work, "report"))
    test_variant_xiangqi(os.path.join(work, "xiangqi"))
    test_texel_classical(os.path.join(work, "classical"))
    test_nnue_build(os.path.join(work, "nnue-build"))
    test_source_commit(os.path.join(work, "source"))
    test_selfplay_settings(os.path.join(work, "selfplay-settings"))
    print("ok: window in positions, confirmed verdicts, renamed setting, [report] caps, "
          "Elo per CPU-hour, xiangqi, texel plays the classical evaluation, the nnue mode's "
          "build, the run's source commit, self-play replayed with its recorded settings")
    if len(sys.argv) < 4:
        print("the match steps need FAKE_ENGINE and HANSU_MATCH: not run")
        return 0
    fake, match_tool = os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    run = test_elo_matches(os.path.join(work, "elo"), fake, match_tool)
    test_gauntlet(run, fake)
    test_gauntlet_missing(os.path.join(work, "missing"), fake, match_tool)
    print("ok: fixed-length Elo matches, gauntlet (played, resumed, engine missing), "
          "hours over resumes")
    return 0


if __name__ == "__main__":
    sys.exit(main())