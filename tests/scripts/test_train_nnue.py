#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/train with run.eval = "nnue" (issue 27), end to end on a tiny configuration with the
build's real programs (nnue.build = BUILD_DIR, so no build is made):
- data/train-2core-nnue.toml passes the checks; the settings are checked before the first step:
  run.eval other than texel/nnue, [nnue] types and ranges, run.start_net that is missing, not a
  net, another variant's, or set in the texel mode, nnue.build without hansu-nnue, and a --resume
  that changes run.eval; each refused in one line naming the setting, no run folder made;
- a run from a net (run.start_net, a random net of scripts/nnue_random.py): iteration 1's
  self-play evaluates with the run's copy of it (--evalfile RUN/nets/initial.nnue), hansu-nnue
  trains a candidate (candidate.nnue, train.csv, train.json in the iteration's folder), every
  Hansu engine of a match is the one build with EvalFile before Use NNUE;
- stopped in the middle of iteration 1's SPRT (hansu-match --stop-after-pairs 1 through
  match.extra: the step fails, exit 1) and resumed with --resume: the self-play and training
  are not run again, the SPRT resumes its own match file, and the run ends after 2 iterations;
- an accepted net (the run's hansu-match is a wrapper that reports every finished SPRT as H1,
  so that the accept path runs whatever the tiny nets' strength) is kept as
  nets/iter-NNN.nnue with its provenance (the trainer's JSON, the window, the matches), plays
  the first engine its fixed-length match, evaluates the next iteration's self-play, and is not
  installed (nnue.install = false: the log says where it is);
- the gauntlet (tests/fake_engine standing in for Fairy-Stockfish) plays the final net and the
  first engine, each with its net loaded into the one build;
- report.md has the Nets table with the last epoch's losses of each train.csv, loss.png is
  drawn from the train.csv files and inlined in report.html;
- the run folder copied elsewhere without its self-play data (as a run is carried to another
  machine) resumes for a third iteration with another run.seed and selfplay.nodes: its paths are
  moved to the new folder, and the window's missing self-play is played again with each
  iteration's own net and recorded settings (seed and nodes named as differing from today's),
  giving the same games and positions as the first time; iteration 3 plays with today's.

Usage: test_train_nnue.py WORK_DIR BUILD_DIR FAKE_ENGINE"""
import csv
import json
import os
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TRAIN = os.path.join(REPO, "scripts", "train")

TINY = """
[run]
eval = "nnue"
iterations = 2
hours = 0
threads = 2
install = false
[selfplay]
games = 32            # ~3000 positions at 150 nodes
nodes = 150
random_plies = 2
[nnue]
window_positions = 5000
epochs = 2
batch = 1024
lr = 0.0005
install = false       # data/train.toml installs its final net: not a test's
[match]
games = 8
nodes = 100
sprt = "elo0=0 elo1=10 alpha=0.05 beta=0.05"
elo_games = 4
elo_nodes = 200
[gauntlet]
enabled = false
[external]
enabled = false       # data/train.toml's gate: tested by test_train_external.py
"""


def check(cond, msg):
    if not cond:
        print("FAIL: " + msg, file=sys.stderr)
        sys.exit(1)


def train(args, timeout=300):
    return subprocess.run([TRAIN] + args, capture_output=True, text=True, timeout=timeout)


def refused(args, text, made):
    r = train(args, 60)
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 1 and len(lines) == 1 and "Traceback" not in r.stderr and
          text in lines[0], f"scripts/train {' '.join(args)}: exit {r.returncode}, want one "
          f"line with {text!r}, stderr:\n{r.stderr}")
    check(not os.path.exists(made), f"scripts/train {' '.join(args)} made {made}")


def test_refusals(work, config, build):
    made = os.path.join(work, "refused")
    xq = os.path.join(work, "xiangqi.nnue")
    subprocess.run([sys.executable, os.path.join(REPO, "scripts", "nnue_random.py"), xq,
                    "--variant", "xiangqi"], check=True)
    base = ["--config", config, "--run", made, "--set", f"nnue.build={json.dumps(build)}"]
    for sets, text in [
            (['run.eval="deep"'], "run.eval = 'deep': expected one of texel, nnue"),
            (["nnue.epochs=1.5"], "nnue.epochs = 1.5: expected a whole number"),
            (["nnue.lambda=2"], "nnue.lambda = 2: expected 0..1"),
            (["nnue.lr=0"], "nnue.lr = 0: expected a positive number"),
            (['nnue.init="warm"'], "nnue.init = 'warm': expected one of scratch, current"),
            (["nnue.extra=[3]"], "nnue.extra = [3]: expected a list of strings"),
            (['run.start_net="no/such.nnue"'], "run.start_net = 'no/such.nnue'"),
            (['run.start_net="data/bench.fen"'], "is not a Hansu .nnue net"),
            ([f"run.start_net={json.dumps(xq)}"], "is a net for xiangqi, not for janggi"),
            ([f"run.start_net={json.dumps(xq)}", 'run.eval="texel"'],
             'only for run.eval = "nnue"'),
            ([f"nnue.build={json.dumps(work)}"], "no engine/hansu built in")]:
        refused(base + sum((["--set", s] for s in sets), []), text, made)
    # hansu-nnue alone missing is named (a build folder of links to the other programs)
    part = os.path.join(work, "partial-build")
    for tool in ("engine/hansu", "selfplay/hansu-selfplay", "selfplay/match/hansu-match"):
        os.makedirs(os.path.dirname(os.path.join(part, tool)), exist_ok=True)
        os.symlink(os.path.join(build, tool), os.path.join(part, tool))
    refused(base + ["--set", f"nnue.build={json.dumps(part)}"],
            "no tuner/nnue/hansu-nnue built in", made)
    # data/train-2core-nnue.toml passes every check (its nnue.build = "": built by the run).
    sys.path.insert(0, os.path.join(REPO, "scripts"))
    import train_loop
    c = train_loop.load_config(os.path.join(REPO, "data", "train-2core-nnue.toml"), [])
    check(train_loop.eval_of(c) == "nnue" and c["selfplay"]["openings"] ==
          "data/openings-janggi.fen", f"train-2core-nnue.toml: {c['run']}")
    # data/train-2core-nnue-xiangqi.toml: xiangqi's night of nets, from its shipped net.
    c = train_loop.load_config(os.path.join(REPO, "data", "train-2core-nnue-xiangqi.toml"), [])
    train_loop.check_config(c)
    check(train_loop.variant_of(c) == "xiangqi" and train_loop.eval_of(c) == "nnue" and
          train_loop.openings_flags(c, "match")[1].endswith("openings-xiangqi.fen"),
          f"train-2core-nnue-xiangqi.toml: {c['run']}")


# The real hansu-match, then a finished SPRT's result turned into H1 in its --json file.
ALWAYS_H1 = """#!/usr/bin/python3
import json, subprocess, sys
rc = subprocess.run([%r] + sys.argv[1:]).returncode
args = sys.argv[1:]
if rc == 0 and "--sprt" in args:
    path = args[args.index("--json") + 1]
    with open(path) as f:
        r = json.load(f)
    r["sprt"]["result"] = "H1"
    with open(path, "w") as f:
        json.dump(r, f)
sys.exit(rc)
"""


def accepting_build(work, build):
    """A build folder of links to BUILD's programs, whose hansu-match is ALWAYS_H1."""
    folder = os.path.join(work, "accepting-build")
    for tool in ("engine/hansu", "selfplay/hansu-selfplay", "tuner/nnue/hansu-nnue"):
        os.makedirs(os.path.dirname(os.path.join(folder, tool)), exist_ok=True)
        os.symlink(os.path.join(build, tool), os.path.join(folder, tool))
    match = os.path.join(folder, "selfplay", "match", "hansu-match")
    os.makedirs(os.path.dirname(match))
    with open(match, "w") as f:
        f.write(ALWAYS_H1 % os.path.join(build, "selfplay", "match", "hansu-match"))
    os.chmod(match, 0o755)
    return folder


def flags_of(line):
    words = line.split()
    return {w: (words[i + 1] if i + 1 < len(words) else "") for i, w in enumerate(words)
            if w.startswith("--")}


def log_lines(run, prefix):
    with open(os.path.join(run, "log.txt")) as f:
        return [l.split(" ", 1)[1] for l in f if l.split(" ", 1)[1].startswith(prefix)]


def test_run(work, config, build, fake):
    run = os.path.join(work, "run")
    build = accepting_build(work, build)
    start = os.path.join(work, "start.nnue")
    subprocess.run([sys.executable, os.path.join(REPO, "scripts", "nnue_random.py"), start],
                   check=True)
    sets = ["--set", f"nnue.build={json.dumps(build)}", "--set",
            f"run.start_net={json.dumps(start)}", "--set", "gauntlet.enabled=true",
            "--set", f"gauntlet.engine={json.dumps(fake)}", "--set", "gauntlet.games=2",
            "--set", 'gauntlet.tc="1+0.01"', "--set", 'nnue.init="current"',
            # A few steps from a net on the quantisation grid move every weight the same way by
            # less than a grid step: the float net drifts from its rounding by hundreds of cp
            # (a tiny test's artefact; trained nets erred a few cp). The bound is not tested here.
            "--set", 'nnue.extra=["--quant-bound", "100000"]']
    # Stopped in iteration 1's SPRT: hansu-match stops after a pair as if interrupted (exit 2).
    r = train(["--config", config, "--run", run] + sets +
              ["--set", 'match.extra=["--stop-after-pairs", "1"]'])
    check(r.returncode == 1 and "match iter-001 vs initial failed" in r.stderr,
          f"the stopped match: exit {r.returncode}, {r.stderr}")
    it1 = os.path.join(run, "iter-001")
    for name in (".selfplay-done", ".train-done", "selfplay.json", "candidate.nnue", "train.csv",
                 "train.json", "match.pgn.state"):
        check(os.path.exists(os.path.join(it1, name)), f"iteration 1 has no {name}")
    check(not os.path.exists(os.path.join(it1, "train.ckpt")), "the checkpoint is kept")
    initial = os.path.join(run, "nets", "initial.nnue")
    with open(initial, "rb") as a, open(start, "rb") as b:
        check(a.read() == b.read(), "nets/initial.nnue is not run.start_net's copy")
    sp = log_lines(run, "self-play:")
    check(len(sp) == 1 and flags_of(sp[0]).get("--evalfile") == initial and
          "--classical" not in sp[0], f"iteration 1's self-play is not with the start net: {sp}")
    match = log_lines(run, "match iter-001 vs initial:")[0]
    want = (f"name=iter-001 option.EvalFile={os.path.join(it1, 'candidate.nnue')} "
            f"option.Use NNUE=true --engine cmd={build}/engine/hansu name=initial "
            f"option.EvalFile={initial} option.Use NNUE=true")
    check(want in match and f"cmd={build}/engine/hansu" in match, f"match engines: {match}")

    # Resumed: no self-play or training again; the SPRT continues its match file.
    r = train(["--resume", "--run", run, "--set", "match.extra=[]"])
    check(r.returncode == 0, f"--resume: exit {r.returncode}\n{r.stderr}")
    sp, tr = log_lines(run, "self-play:"), log_lines(run, "train:")
    check(len(sp) == 2 and len(tr) == 2 and all("iter-002" in l for l in (sp[1], tr[1])),
          f"resumed run replayed a step: {sp} {tr}")
    m = log_lines(run, "match iter-001 vs initial:")
    check(len(m) >= 2 and "--resume" in m[1].split(), f"the SPRT did not resume: {m}")
    with open(os.path.join(run, "state.json")) as f:
        state = json.load(f)
    check(state["iteration"] == 2 and not state["in_progress"], f"state: {state['iteration']}")
    accepted = state["accepted"]
    check(accepted == ["iter-001", "iter-002"], f"every SPRT reported H1, accepted: {accepted}")
    for name in accepted:
        k = int(name[-3:])
        rec = state["iterations"][k - 1]
        net = os.path.join(run, "nets", name + ".nnue")
        with open(os.path.join(run, "nets", name + ".json")) as f:
            prov = json.load(f)
        check(os.path.exists(net) and prov["iteration"] == k and prov["trainer"]["schema"] == 1
              and prov["train_window"]["iterations"][-1] == k and "confirm" in prov and
              prov["trainer"]["out_sha256"] == prov["net_sha256"],
              f"{name}: provenance {sorted(prov)}")
        e = rec.get("elo_vs_first") or {}
        check(e.get("games") == 4 and e.get("nodes") == 200, f"{name}: Elo match {e}")
    check(flags_of(sp[1]).get("--evalfile") == os.path.join(run, "nets", "iter-001.nnue"),
          f"iteration 2's self-play is not with the accepted net: {sp[1]}")
    # nnue.init = "current": each candidate starts from the current net's weights.
    check(flags_of(tr[0]).get("--init") == initial and
          flags_of(tr[1]).get("--init") == os.path.join(run, "nets", "iter-001.nnue"),
          f"nnue.init = current: the trainings' --init: {tr}")
    m2 = log_lines(run, "match iter-002 vs iter-001:")
    check(len(m2) == 2 and f"name=iter-001 option.EvalFile={run}/nets/iter-001.nnue" in m2[0],
          f"iteration 2's SPRT and its confirmation against iter-001: {m2}")
    check(state["current"]["net"] == os.path.join(run, "nets", accepted[-1] + ".nnue"),
          f"current: {state['current']}")
    g = state.get("gauntlet", {}).get("results", {})
    check(sorted(g) == ["initial", "iter-002"] and all(r["games"] == 2 for r in g.values()),
          f"gauntlet: {state.get('gauntlet')}")
    for name, net in (("iter-002", state["current"]["net"]), ("initial", initial)):
        line = log_lines(run, f"match {name} vs Fairy-Stockfish-11.1:")
        check(len(line) == 1 and f"name={name} option.EvalFile={net} option.Use NNUE=true"
              in line[0] and f"cmd={fake}" in line[0], f"gauntlet of {name}: {line}")
    with open(os.path.join(run, "log.txt")) as f:
        log = f.read()
    check("not installed (nnue.install = false)" in log, "the log does not say where the net is")

    # The report: the Nets table from each train.csv's last epoch; loss.png inlined.
    with open(os.path.join(run, "report.md")) as f:
        md = f.read()
    check("## Nets" in md and "![loss](loss.png)" in md, "report.md: no Nets or loss plot")
    for k in (1, 2):
        with open(os.path.join(run, f"iter-{k:03d}", "train.csv")) as f:
            last = list(csv.DictReader(f))[-1]
        row = (f"| {float(last['train_loss']):.5f} | {float(last['valid_loss']):.5f} |")
        check(row in md, f"report.md: iteration {k}'s losses {row} not in the Nets table")
        with open(os.path.join(run, f"iter-{k:03d}", "train.json")) as f:
            trainer = json.load(f)
        check(trainer["lr"] == 0.0005 and trainer["lr_min"] == 1e-5, f"train.json: {trainer}")
        start = "initial" if k == 1 else "iter-001"  # nnue.init = "current"
        check(f"| {start} | 0.0005 | 2 |" in md, f"report.md: iteration {k} did not start from "
              f"{start} with lr 0.0005")
    with open(os.path.join(run, "report.html")) as f:
        page = f.read()
    check(os.path.getsize(os.path.join(run, "loss.png")) > 1000 and
          '<img alt="loss" src="data:image/png;base64,' in page, "no loss plot in report.html")

    # A resume may not change what the run trains.
    refused(["--resume", "--run", run, "--set", 'run.eval="texel"'],
            "the run trains run.eval = 'nnue'", os.path.join(work, "none"))


def test_carried(work, run):
    moved = os.path.join(work, "carried")
    shutil.copytree(run, moved, ignore=lambda d, names: ["selfplay"] if os.path.basename(
        d).startswith("iter-") else [])
    # Resumed with other self-play settings: the replays keep each iteration's own (its record's
    # selfplay_settings), the new iteration 3 plays with today's (issue 39, item 7).
    r = train(["--resume", "--run", moved, "--set", "run.iterations=3",
               "--set", "nnue.window_positions=0", "--set", "run.seed=9",
               "--set", "selfplay.nodes=120"])
    check(r.returncode == 0, f"the carried run: exit {r.returncode}\n{r.stderr}")
    with open(os.path.join(moved, "log.txt")) as f:
        log = f.read()
    check(f"the run was made in {run}: its paths now name {moved}" in log, "no move logged")
    with open(os.path.join(moved, "state.json")) as f:
        state = json.load(f)
    check(state["folder"] == moved and state["current"]["net"].startswith(moved + "/") and
          state["first"]["net"] == os.path.join(moved, "nets", "initial.nnue"),
          f"paths not moved: {state['folder']} {state['current']} {state['first']}")
    again = log_lines(moved, "self-play again:")
    check(len(again) == 2 and flags_of(again[0]).get("--evalfile") ==
          os.path.join(moved, "nets", "initial.nnue") and flags_of(again[1]).get("--evalfile")
          == os.path.join(moved, "nets", "iter-001.nnue"), f"self-play played again: {again}")
    for k, line in zip((1, 2), again):
        check(flags_of(line).get("--seed") == str(1000 + k) and
              flags_of(line).get("--nodes") == "150" and
              f"iteration {k}: self-play played again with the settings it was played with, "
              f"not today's: run.seed: seed {1000 + k} (today's: {9000 + k}); selfplay.nodes = 150 "
              "(today's: 120)" in log, f"iteration {k}'s replay: {line}")
    new = log_lines(moved, "self-play:")[-1]
    check(flags_of(new).get("--seed") == "9003" and flags_of(new).get("--nodes") == "120",
          f"iteration 3 is not played with today's settings: {new}")
    for k in (1, 2):
        rec = state["iterations"][k - 1]
        regen = rec.get("regenerated") or [{}]
        check(regen[-1].get("same_counts") is True and
              f"iteration {k}: self-play played again: the same" in log,
              f"iteration {k}: the replayed self-play differs: {rec.get('regenerated')}")
        check(os.path.exists(os.path.join(moved, f"iter-{k:03d}", "selfplay-first.json")) and
              not os.path.exists(os.path.join(moved, f"iter-{k:03d}", ".selfplay-regenerating")),
              f"iteration {k}: markers")
    check(state["iteration"] == 3 and state["iterations"][2]["train_window"]["iterations"] ==
          [1, 2, 3], f"iteration 3's window: {state['iterations'][2].get('train_window')}")


def main(argv):
    work, build, fake = argv[1], os.path.abspath(argv[2]), os.path.abspath(argv[3])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    config = os.path.join(work, "tiny.toml")
    with open(config, "w") as f:
        f.write(TINY)
    test_refusals(work, config, build)
    print("ok: settings refused before the first step")
    test_run(work, config, build, fake)
    print("ok: nnue mode end to end, stopped and resumed, nets kept, report")
    test_carried(work, os.path.join(work, "run"))
    print("ok: a run carried without its self-play data resumes and plays it again")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
