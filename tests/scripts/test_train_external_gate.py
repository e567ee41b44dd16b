#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/train's external gate (issue 55, item 4; scripts/external_gate.py), without a net:
- the rule on made-up pentanomial tallies: equal matches pass, a candidate a little worse
  within the one-sided bound passes, one worse beyond it is rejected; the bound is
  z * sqrt(v_cand + v_cur) from the pairs' variances (checked against a hand computation),
  margin and confidence move it;
- [external] settings: data/train.toml has the gate on at 250 k / 76 k nodes, the 2-core and
  demo configs say what they do; every bad value is refused before any work naming the key; a
  run from before the section (no [external]) passes the checks and has no gate; a missing
  engine is refused by scripts/train before a run folder is made, naming the path;
- the gate in the loop (Run.external_gate with its matches stubbed): the current engine's
  figure is played once and kept in state.json, a passing candidate's figure is the next gate's
  figure of the current engine (not played again), a candidate that loses beyond chance is
  rejected (Run.decide: "rejected by the external gate", accepted false), other settings (a
  digest of them) play the current's figure again, the gate off plays nothing;
- with FAKE_ENGINE and HANSU_MATCH: the external matches through the real hansu-match between
  fake engines (per-engine fixed nodes, --move-info, one seed for current and candidate, the
  files named by the settings' digest), interrupted after a pair (a wrapper adds
  --stop-after-pairs 1 once) and resumed with --resume, not played again once finished.

Usage: test_train_external_gate.py WORK_DIR [FAKE_ENGINE HANSU_MATCH]"""
import json
import math
import os
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "scripts"))
import external_gate  # noqa: E402
import train_loop as train  # noqa: E402


def check(cond, msg):
    if not cond:
        print("FAIL: " + msg, file=sys.stderr)
        sys.exit(1)


def test_rule():
    even = [10, 0, 20, 0, 10]  # 40 pairs, mean 0.5, pair variance 0.125
    v = external_gate.decide(even, even)
    check(v["passed"] and v["difference"] == 0, f"equal matches: {v}")
    n, s, var = external_gate.pair_stats(even)
    check(n == 40 and s == 0.5 and math.isclose(var, 0.125 / 40), f"pair_stats: {n} {s} {var}")
    # A hand computation: se = sqrt(2 * 0.125 / 40) = 0.0791, z(0.95) = 1.6449, bound 0.1300.
    check(math.isclose(v["se"], math.sqrt(0.25 / 40), abs_tol=1e-6) and
          math.isclose(v["bound"], 1.6449 * math.sqrt(0.25 / 40), abs_tol=1e-4),
          f"the bound: {v}")
    slightly = [12, 0, 20, 0, 8]  # mean 0.45: 0.05 below, within 0.13
    check(external_gate.decide(slightly, even)["passed"], "a candidate within chance rejected")
    worse = [20, 0, 16, 0, 4]  # mean 0.30: 0.20 below, beyond the bound
    v = external_gate.decide(worse, even)
    check(not v["passed"] and v["difference"] == -0.2, f"a candidate beyond chance: {v}")
    check(external_gate.decide(worse, even, margin=0.1)["passed"], "margin 0.1 accepts -0.2")
    check(not external_gate.decide(slightly, even, confidence=0.6)["passed"],
          "confidence 0.6 (z 0.25) rejects -0.05")
    better = [2, 0, 18, 0, 20]
    check(external_gate.decide(better, even)["passed"], "a better candidate rejected")
    # Every pair alike on both sides (no variance): any loss is beyond chance, a tie is not.
    check(external_gate.decide([0, 0, 0, 0, 3], [0, 0, 0, 0, 4])["passed"], "two sweeps: equal")
    check(not external_gate.decide([3, 0, 0, 0, 0], [0, 0, 3, 0, 0])["passed"],
          "swept against split pairs")
    # Draws (xiangqi) count by quarters of a pair.
    n, s, _ = external_gate.pair_stats([0, 4, 0, 4, 0])
    check(s == 0.5 and n == 8, f"LD and WD pairs: {s}")
    for bad in ([], [1, 2, 3], [0, 0, 0, 0, 0], [-1, 0, 0, 0, 2]):
        try:
            external_gate.pair_stats(bad)
            check(False, f"pentanomial {bad} accepted")
        except ValueError:
            pass


def refused(sets, key):
    try:
        train.load_config(None, sets)
    except train.TrainError as e:
        check(f"external.{key}" in str(e), f"{sets}: the message does not name external.{key}: "
              f"{e}")
        return str(e)
    check(False, f"{sets} accepted")


def test_settings(work):
    c = train.load_config(train.BASE_CONFIG, [])
    x = c["external"]
    check(x["enabled"] and x["hansu_nodes"] == 250000 and x["engine_nodes"] == 76000 and
          x["engine"] == "/usr/games/fairy-stockfish" and x["games"] % 2 == 0 and
          x["confidence"] == 0.95 and x["audit"], f"data/train.toml's [external]: {x}")
    for name, on in (("train-demo.toml", False), ("train-hour.toml", False),
                     ("train-2core.toml", False), ("train-xiangqi.toml", False),
                     ("train-texel.toml", True), ("train-2core-nnue.toml", True),
                     ("train-2core-nnue-xiangqi.toml", True)):
        got = train.load_config(os.path.join(REPO, "data", name), [])["external"]["enabled"]
        check(got is on, f"{name}: external.enabled = {got}")
    for sets, key in [
            (["external.games=3"], "games"), (["external.games=0"], "games"),
            (["external.games=1.5"], "games"), (["external.hansu_nodes=0"], "hansu_nodes"),
            (["external.engine_nodes=-5"], "engine_nodes"), (['external.engine=""'], "engine"),
            (['external.name=""'], "name"), (["external.enabled=1"], "enabled"),
            (["external.confidence=1"], "confidence"), (["external.confidence=0.3"],
                                                          "confidence"),
            (["external.margin=-0.1"], "margin"), (["external.margin=0.5"], "margin"),
            (['external.openings="no/such.fen"'], "openings"),
            (["external.random_plies=-1"], "random_plies"),
            (['external.extra=["--tc", "5+0.05"]'], "extra"),
            (['external.extra=["--nodes=5"]'], "extra"), (["external.extra=[3]"], "extra"),
            (['external.options="x"'], "options"), (["external.audit=2"], "audit"),
            (['external.audit_flags="--every"'], "audit_flags")]:
        refused(sets, key)
    text = refused(["external.games=3"], "games")
    check("3" in text and "even" in text, f"the bad value is named: {text}")
    for good in ('external.openings="starts"', 'external.openings="suite"',
                 'external.openings="data/openings-janggi.fen"', "external.margin=0"):
        train.load_config(None, [good])
    # A run from before the section: no [external], checked and resumed without a gate.
    old = train.load_config(None, [])
    del old["external"]
    train.check_config(old)
    train.check_external_engine(old)
    run = QuietRun(work, old)
    check(run.external_games() is None and run.external_gate(1, {}, ("b", "c"), ("b", "i")),
          "a run from before the section has a gate")
    # --resume --set external.enabled=true adds the section with data/train.toml's values.
    train.apply_sets(old, ["external.enabled=true"])
    train.check_config(old)
    check(old["external"]["enabled"] and old["external"]["hansu_nodes"] == 250000,
          f"the section added on resume: {old['external']}")
    # A missing engine: scripts/train refuses before any work, naming the path.
    made = os.path.join(work, "refused")
    r = subprocess.run([os.path.join(REPO, "scripts", "train"), "--config", train.BASE_CONFIG,
                        "--run", made, "--set", 'external.engine="/nonexistent/fsf"'],
                       capture_output=True, text=True, timeout=120)
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 1 and len(lines) == 1 and "/nonexistent/fsf" in lines[0] and
          "external.engine" in lines[0] and not os.path.exists(made),
          f"a missing engine: exit {r.returncode}, {r.stderr}")
    r = subprocess.run([os.path.join(REPO, "scripts", "train"), "--config", train.BASE_CONFIG,
                        "--run", made, "--set", "external.games=7"],
                       capture_output=True, text=True, timeout=120)
    check(r.returncode == 1 and "external.games = 7" in r.stderr and not os.path.exists(made),
          f"a bad setting through scripts/train: exit {r.returncode}, {r.stderr}")


class QuietRun(train.Run):
    def log(self, text):
        self.logged.append(text)

    def save_state(self):
        self.saves += 1

    def __init__(self, folder, config):
        super().__init__(folder, config)
        self.logged, self.saves = [], 0
        self.state = {"iterations": [], "accepted": [], "first": {"name": "initial"}}


def gate_run(work, sets):
    os.makedirs(work)
    fake = os.path.join(work, "engine-on-path")
    with open(fake, "w") as f:
        f.write("#!/bin/sh\n")
    os.chmod(fake, 0o755)
    config = train.load_config(None, ["external.enabled=true", f"external.engine={json.dumps(fake)}",
                                      "external.games=4"] + sets)
    run = QuietRun(work, config)
    played = []
    tallies = {}

    def fake_match(folder, name, engine, games, tag):
        played.append((name, engine[1], tag))
        return {"pentanomial": tallies[engine[1]], "score": "x", "nelo": "0", "nelo_error": "1",
                "games": 2 * sum(tallies[engine[1]]), "digest": tag, "settings": games,
                "engine": engine[1], "pgn": os.path.join(folder, name + ".pgn")}
    run.external_match = fake_match
    return run, played, tallies


def test_gate_flow(work):
    run, played, tallies = gate_run(work, ["external.audit=false"])
    tallies.update({"initial": [10, 0, 20, 0, 10], "iter-001": [8, 0, 20, 0, 12],
                    "iter-002": [25, 0, 12, 0, 3], "iter-003": [10, 0, 20, 0, 10]})
    rec1 = {"k": 1}
    check(run.external_gate(1, rec1, ("b", "iter-001", "c.nnue"), ("b", "initial", "")),
          f"a better candidate rejected: {rec1}")
    tag = external_gate.digest(run.external_games())
    check([p[1] for p in played] == ["initial", "iter-001"] and
          played[0][0] == f"initial-{tag}" and played[1][0] == f"external-{tag}",
          f"the matches played: {played}")
    figures = run.state["external"]["figures"][tag]
    check(sorted(figures) == ["initial", "iter-001"] and rec1["external_gate"]["passed"] and
          rec1["external_gate"]["current"] == "initial" and rec1["external"]["engine"] ==
          "iter-001", f"state.json's figures and the record: {figures} {rec1}")
    # iter-001 is now current: its figure is not played again; iter-002 loses beyond chance.
    rec2 = {"k": 2, "match": {"sprt": "H1 accepted"}, "confirm": {"sprt": "H1 accepted"}}
    before = len(played)
    got = run.decide(2, rec2, ("b", "iter-002", "c2.nnue"), ("b", "iter-001", "n1.nnue"))
    check(not got and rec2["accepted"] is False and not rec2["external_gate"]["passed"] and
          [p[1] for p in played[before:]] == ["iter-002"],
          f"a candidate worse beyond chance: {rec2}, played {played[before:]}")
    check(any("rejected by the external gate" in line for line in run.logged) and
          any("REJECTED" in line for line in run.logged), f"the log: {run.logged}")
    check("iter-002" not in run.state["external"]["figures"][tag],
          "a rejected candidate's figure is kept as a current engine's")
    # Resumed after the gate: nothing is played again, the verdict is the same.
    before = len(played)
    check(not run.decide(2, rec2, ("b", "iter-002", "c2.nnue"), ("b", "iter-001", "n1.nnue"))
          and len(played) == before, "a resumed gate played again")
    # Other settings (external.games): the current's figure is played again under its digest.
    run.config["external"]["games"] = 8
    rec3 = {"k": 3}
    check(run.external_gate(3, rec3, ("b", "iter-003", "c3.nnue"), ("b", "iter-001", "")),
          "an equal candidate rejected")
    tag8 = external_gate.digest(run.external_games())
    check(tag8 != tag and [p[1:] for p in played[before:]] == [("iter-001", tag8),
                                                              ("iter-003", tag8)],
          f"other settings: {played[before:]}")
    # The gate off: True, nothing played.
    run.config["external"]["enabled"] = False
    before = len(played)
    check(run.external_gate(4, {}, ("b", "x"), ("b", "y")) and len(played) == before,
          "the gate off played")
    # A state.json whose figures are not match results is refused on --resume.
    state = {"config": train.load_config(None, []), "iteration": 0, "first": {
        "name": "initial", "header": "h"}, "current": {"name": "initial", "header": "h"},
        "iterations": [], "accepted": [], "external": {"figures": {"x": {"initial": 3}}}}
    check("external.figures" in (train.check_state(state) or ""), "bad figures not refused")


STOP_ONCE = """#!/usr/bin/python3
import os, subprocess, sys
args = sys.argv[1:]
marker = os.environ.get("HANSU_TEST_STOP_MARKER", "")
if marker and os.path.exists(marker) and "--move-info" in args:
    os.remove(marker)
    args += ["--stop-after-pairs", "1", "--concurrency", "1"]  # one pair, then stop
sys.exit(subprocess.run([%r] + args).returncode)
"""


def test_gate_matches(work, fake, match_tool):
    """The external matches through the real hansu-match (fake engines on both sides)."""
    os.makedirs(work)
    build = os.path.join(work, "build")
    os.makedirs(os.path.join(build, "engine"))
    os.symlink(fake, os.path.join(build, "engine", "hansu"))
    wrapper = os.path.join(work, "hansu-match")
    with open(wrapper, "w") as f:
        f.write(STOP_ONCE % match_tool)
    os.chmod(wrapper, 0o755)
    config = train.load_config(None, [
        "run.threads=2", "external.enabled=true", f"external.engine={json.dumps(fake)}",
        "external.games=4", "external.hansu_nodes=2000", "external.engine_nodes=600",
        "external.audit=false", 'external.name="Outside"'])
    run = QuietRun(work, config)
    run.match_tool = wrapper
    marker = os.path.join(work, "stop")
    open(marker, "w").close()
    os.environ["HANSU_TEST_STOP_MARKER"] = marker
    rec = {"k": 1}
    os.makedirs(run.iter_dir(1))
    try:
        run.external_gate(1, rec, (build, "iter-001"), (build, "initial"))
        check(False, "the interrupted external match was not reported")
    except train.TrainError as e:
        check("match initial vs Outside failed" in str(e), str(e))
    tag = external_gate.digest(run.external_games())
    state_file = os.path.join(work, "external", f"initial-{tag}.pgn.state")
    check(os.path.exists(state_file) and "external" not in rec, f"no {state_file}")
    run.external_gate(1, rec, (build, "iter-001"), (build, "initial"))
    cmds = [line for line in run.logged if line.startswith("match ")]
    check(len(cmds) == 3 and "--resume" not in cmds[0].split() and "--resume" in cmds[1].split()
          and "--resume" not in cmds[2].split(), f"the resumed match: {cmds}")
    for line in cmds:
        words = line.split()
        seed = words[words.index("--seed") + 1]
        check("--move-info" in words and "nodes=2000" in words and "nodes=600" in words and
              "--nodes" not in words and seed == str(external_gate.SEED_BASE + 1000) and
              words[words.index("--openings") + 1].endswith("openings-janggi.fen") and
              words[words.index("--random-plies") + 1] == "2", f"an external match: {line}")
    base = run.state["external"]["figures"][tag]["initial"]
    check(base["games"] == 4 and sum(base["pentanomial"]) == 2 and rec["external"]["games"] == 4
          and os.path.exists(os.path.join(run.iter_dir(1), f"external-{tag}.pgn")),
          f"the figures: {base} {rec.get('external')}")
    with open(os.path.join(run.iter_dir(1), f"external-{tag}.pgn")) as f:
        pgn = f.read()
    check("{" in pgn, "the external match's PGN has no --move-info comments")
    verdict = external_gate.decide(rec["external"]["pentanomial"], base["pentanomial"])
    check(rec["external_gate"]["passed"] == verdict["passed"], f"verdict {rec['external_gate']}")
    before = len(run.logged)
    run.external_gate(1, rec, (build, "iter-001"), (build, "initial"))
    check(not [l for l in run.logged[before:] if l.startswith("match ")],
          "a finished external match was played again")


def main(argv):
    work = argv[1]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    test_rule()
    print("ok: the rule on made-up tallies")
    test_settings(os.path.join(work, "settings"))
    print("ok: [external] settings checked, a missing engine refused, old runs without a gate")
    test_gate_flow(os.path.join(work, "flow"))
    print("ok: the gate in the loop: figures kept, a candidate beyond chance rejected")
    if len(argv) > 3:
        test_gate_matches(os.path.join(work, "matches"), os.path.abspath(argv[2]),
                          os.path.abspath(argv[3]))
        print("ok: the external matches through hansu-match, interrupted and resumed")
    else:
        print("SKIPPED: the external matches through hansu-match (no fake_engine and "
              "hansu-match given)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
