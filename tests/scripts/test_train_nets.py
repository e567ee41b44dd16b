#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/train's runs of nets on stub programs (STUB below, one script under the four
names of a build of nets), through scripts/train and main() (issues 12 and 39):
- a run of nets (stub programs) rejects a candidate that hansu-nnue did not write (exit 3, its
  quantised net failed --quant-bound) or whose rounding equals its --init net, without an SPRT,
  logged with its reason, and goes on; another trainer failure stops the run, and --resume
  goes on;
- the overnight default, data/train.toml, is a loop of nets for janggi and xiangqi from the
  shipped net, whose self-play games and training window follow the cores it runs on (stub
  programs, end to end through main(); its external gate on, at 250 k and 76 k nodes with
  --move-info, the stub engine standing in for Fairy-Stockfish), and installs its final net
  with its provenance; the
  Texel loop is data/train-texel.toml;
- the final net and the accepted headers are kept in data/nets/ and data/weights/ under a name
  of the run's own: a shipped file (tracked by git), another run's or a symbolic link is never
  replaced, a resumed run replaces its own.

Usage: test_train_nets.py WORK_DIR"""
import importlib.util
import json
import os
import shutil
import subprocess
import sys

from train_loop_common import REPO, STUB_HEAD, STUB_SELFPLAY, check, make_run, stub_build, train


STUB = STUB_HEAD + """plan = os.environ["STUB_PLAN"]
with open(plan + ".calls", "a") as f:
    f.write(tool + " " + " ".join(args) + "\\n")
if tool == "hansu-selfplay":
""" + STUB_SELFPLAY + """elif tool == "hansu-match":
    verdict = os.environ.get("STUB_SPRT", "H0")
    sprt = {"result": verdict, "llr": -3.0 if verdict == "H0" else 3.0} if "--sprt" in args else None
    with open(flag("--json"), "w") as f:
        json.dump({"games": 2, "wins": [0, 2], "elo": None, "elo_error": None, "nelo": None,
                   "nelo_error": None, "los": 0.0, "pentanomial": [1, 0, 0, 0, 0],
                   "reasons": {}, "sprt": sprt}, f)
elif tool == "hansu-nnue":
    what = json.load(open(plan))[os.path.basename(os.path.dirname(flag("--out")))]
    if what == "crash":
        sys.exit("hansu-nnue: out of memory")
    t = {"schema": 1, "epochs": [{"epoch": 1, "train_loss": 0.05, "valid_loss": 0.06}],
         "train_positions": 300, "valid_positions": 20, "init": flag("--init"),
         "lr": float(flag("--lr")), "seconds": 1.0, "quant_max_abs_cp": 76.8,
         "quant_bound_cp": 64.0}
    if what == "quant":  # the contract of hansu-nnue's exit 3 (issue 39, item 6)
        t.update(written=False, reason="the quantised net differs from the float net by "
                 "76.80 cp (bound 64.0, --quant-bound)", out=None, out_sha256=None)
        json.dump(t, open(flag("--json"), "w"))
        sys.exit(3)
    shutil.copyfile(flag("--init"), flag("--out"))
    t.update(written=True, quant_equals_init=what == "same", out=flag("--out"),
             out_sha256="0" * 64)
    json.dump(t, open(flag("--json"), "w"))
"""


def test_rejected_nets(work):
    """A run of nets whose trainer rejects candidates (issue 39, item 6): hansu-nnue's exit 3
    (its quantised net failed --quant-bound, no net written; train.json says why) and a net
    equal to its --init net (rounding erased the update) are rejected candidates, each without
    an SPRT, its reason in the record, log.txt, train.log and report.md's tables, and the run goes
    on; any other failure of the trainer stops the run, and its --resume goes on past a
    rejection there too."""
    build = stub_build(work, STUB)
    plan = os.path.join(work, "plan.json")
    with open(plan, "w") as f:
        json.dump({"iter-001": "quant", "iter-002": "same", "iter-003": "ok",
                   "iter-004": "crash"}, f)
    config = os.path.join(work, "nets.toml")
    with open(config, "w") as f:
        f.write('[run]\neval = "nnue"\niterations = 4\nhours = 0\nthreads = 1\n'
                'start_net = "data/nets/janggi-r4.nnue"\n[selfplay]\ngames = 2\nnodes = 10\n'
                'openings = ""\n[nnue]\ninit = "current"\nepochs = 1\ninstall = false\n'
                f'build = {json.dumps(build)}\n[match]\ngames = 2\nnodes = 10\n'
                'elo_games = 2\nelo_nodes = 20\n[gauntlet]\nenabled = false\n'
                '[external]\nenabled = false\n')  # the gate: test_train_external*.py
    folder = os.path.join(work, "run")
    env = dict(os.environ, STUB_PLAN=plan)
    script = os.path.join(REPO, "scripts", "train")
    r = subprocess.run([script, "--config", config, "--run", folder], capture_output=True,
                       text=True, env=env, timeout=120)
    check(r.returncode == 1 and "train failed (exit 1)" in r.stderr,
          f"the trainer's crash must stop the run: exit {r.returncode}\n{r.stderr}")
    with open(os.path.join(folder, "state.json")) as f:
        state = json.load(f)
    recs = {rec["k"]: rec for rec in state["iterations"]}
    with open(os.path.join(folder, "log.txt")) as f:
        log = f.read()
    want = {1: "hansu-nnue wrote no net (the quantised net differs from the float net by 76.80 "
               "cp (bound 64.0, --quant-bound)); see iter-001/train.log",
            2: "rounding erased the update: the quantised net equals its --init net "
               "initial.nnue"}
    for k, why in want.items():
        rec = recs.get(k, {})
        check(why in rec.get("rejected", "") and rec.get("accepted") is False and
              "match" not in rec and rec.get("finished"), f"iteration {k}'s record: {rec}")
        check(f"iteration {k}: candidate iter-00{k} rejected before its match: {why}" in log,
              f"log.txt does not say why iteration {k}'s candidate was rejected")
        with open(os.path.join(folder, f"iter-00{k}", "train.log")) as f:
            check(f"candidate iter-00{k} rejected: {why}" in f.read(), f"train.log of {k}")
        check(os.path.exists(os.path.join(folder, f"iter-00{k}", ".train-done")),
              f"iteration {k}: the training step is not done")
    check(recs[3].get("match", {}).get("sprt") == "H0 accepted" and "rejected" not in recs[3],
          f"iteration 3's candidate is not played: {recs[3]}")
    with open(plan + ".calls") as f:
        calls = [line.split()[0] for line in f]
    check(calls.count("hansu-match") == 1 and calls.count("hansu-nnue") == 4,
          f"one SPRT (iteration 3's) and four trainings: {calls}")
    check(state["iteration"] == 4 and state["in_progress"], f"stopped in 4: {state['iteration']}")
    # The run resumed where it stopped: iteration 4's training again, rejected, and on to 5.
    with open(plan, "w") as f:
        json.dump({"iter-004": "quant", "iter-005": "ok"}, f)
    r = subprocess.run([script, "--resume", "--run", folder, "--set", "run.iterations=5"],
                       capture_output=True, text=True, env=env, timeout=120)
    check(r.returncode == 0, f"--resume after a rejection: exit {r.returncode}\n{r.stderr}")
    with open(os.path.join(folder, "state.json")) as f:
        state = json.load(f)
    recs = {rec["k"]: rec for rec in state["iterations"]}
    check("hansu-nnue wrote no net" in recs[4].get("rejected", "") and
          recs[5].get("match", {}).get("sprt") == "H0 accepted" and state["iteration"] == 5,
          f"resumed: iteration 4 {recs[4]}, iteration 5 {recs.get(5)}")
    # report.md: the Iterations table says the SPRT was not played, the Nets table why.
    if not all(importlib.util.find_spec(m) for m in ("h5py", "matplotlib")):
        print("report.md not checked: no h5py or matplotlib (scripts/train_report.py's)")
        return
    with open(os.path.join(folder, "report.md")) as f:
        rows = [line for line in f if line.startswith("| ")]
    for k in (1, 2, 4):
        why = want[2] if k == 2 else want[1].replace("iter-001", f"iter-00{k}")
        check(any(row.startswith(f"| {k} | initial | ") and "| not played: the candidate was "
                  "rejected before its match (Nets below) | no |" in row for row in rows),
              f"report.md's Iterations table: no row for iteration {k}'s rejection")
        check(any(row.startswith(f"| {k} | ") and f"| rejected before its match: {why}" in row
                  for row in rows), f"report.md's Nets table: iteration {k}'s reason")


def run_main(argv, env):
    """scripts/train's main() in this process (train_loop's paths patched by the caller), with
    env added to the environment its programs see; returns its exit status."""
    saved_argv, saved_env = sys.argv, dict(os.environ)
    sys.argv = ["train"] + argv
    os.environ.update(env)
    try:
        return train.main()
    finally:
        sys.argv = saved_argv
        os.environ.clear()
        os.environ.update(saved_env)


def test_default_nets(work):
    """Issue 42: the overnight default (data/train.toml) trains what the engine plays with: a
    loop of nets for every variant, from the variant's shipped net, sized for the cores found
    (selfplay.games and nnue.window_positions per core, set when the run starts and recorded),
    installing its final net as engine/VARIANT/net.nnue and keeping it with its provenance in
    data/nets/; the Texel loop is data/train-texel.toml. A config that names selfplay.games keeps
    it. Run end to end through main() with STUB programs, engine/ and data/nets/ moved into WORK."""
    os.makedirs(work)
    for variant in train.VARIANTS:
        c = train.load_config(train.BASE_CONFIG, [f'run.variant="{variant}"'])
        train.check_config(c)
        check(train.eval_of(c) == "nnue" and c["run"]["threads"] == 0 and
              c["nnue"]["install"] and c["nnue"]["init"] == "current" and
              c["gauntlet"]["options"] == [] and
              train.start_net_path(c) == train.net_file(variant),
              f"data/train.toml for {variant}: {c['run']} {c['nnue']}")
        per_games, per_window = c["selfplay"]["games_per_core"], c["nnue"]["window_per_core"]
        check(per_games > 0 and per_games % 16 == 0 and per_window > 0, f"per core: {c}")
        for cores in (1, 2, 3, 16, 64):
            sized = json.loads(json.dumps(c))
            line = train.size_for_cores(sized, cores)
            check(sized["selfplay"]["games"] == per_games * cores and
                  sized["nnue"]["window_positions"] == per_window * cores and
                  sized["selfplay"]["games_per_core"] == 0 and
                  sized["nnue"]["window_per_core"] == 0 and f"sized for {cores} cores" in line,
                  f"{cores} cores: {sized['selfplay']} {sized['nnue']} {line!r}")
    check(train.run_cores(train.load_config(train.BASE_CONFIG, ["run.threads=3"])) == 3 and
          train.run_cores(train.load_config(train.BASE_CONFIG, [])) == (os.cpu_count() or 1),
          "the cores of a run: run.threads, else every core")
    named = train.load_config(train.BASE_CONFIG, ["selfplay.games=96"])
    check(train.size_for_cores(named, 8) == "sized for 8 cores: nnue.window_positions = "
          "16,000,000 (2,000,000 a core)" and named["selfplay"]["games"] == 96,
          f"a named selfplay.games was sized: {named['selfplay']}")
    texel = train.load_config(os.path.join(train.REPO, "data", "train-texel.toml"), [])
    check(train.eval_of(texel) == "texel" and texel["run"]["install"] and
          texel["selfplay"]["games"] == 8000 and train.size_for_cores(texel, 4) == "",
          f"data/train-texel.toml: {texel['run']} {texel['selfplay']}")
    for name in ("train-demo.toml", "train-2core.toml", "train-hour.toml", "train-xiangqi.toml"):
        c = train.load_config(os.path.join(train.REPO, "data", name), [])
        check(train.eval_of(c) == "texel" and c["selfplay"]["extra"] == [],
              f"{name} is not the Texel loop it was: {c['run']} {c['selfplay']}")

    # End to end: main() on data/train.toml with 3 threads, the trainer's candidate accepted by
    # both SPRTs and installed; engine/ and data/nets/ are WORK's.
    saved = train.net_file, train.NETS_DIR
    train.net_file = lambda v: os.path.join(work, "engine", v, "net.nnue")
    train.NETS_DIR = os.path.join(work, "nets-kept")
    try:
        for v in train.VARIANTS:
            os.makedirs(os.path.join(work, "engine", v))
            shutil.copyfile(saved[0](v), train.net_file(v))
        build = stub_build(work, STUB)
        plan = os.path.join(work, "plan.json")
        with open(plan, "w") as f:
            json.dump({"iter-001": "ok"}, f)
        folder = os.path.join(work, "run")
        # The external gate (on in data/train.toml) plays the stub engine at its nodes: the
        # default's gate runs through main() wherever Fairy-Stockfish is installed or not.
        stub_engine = os.path.join(build, "engine", "hansu")
        sets = ["--set", "run.iterations=1", "--set", f"nnue.build={json.dumps(build)}",
                "--set", "gauntlet.enabled=false", "--set", "match.elo_games=2",
                "--set", f"external.engine={json.dumps(stub_engine)}"]
        rc = run_main(["--config", train.BASE_CONFIG, "--run", folder, "--set", "run.threads=3"]
                      + sets, {"STUB_PLAN": plan, "STUB_SPRT": "H1"})
        check(rc == 0, f"main() on data/train.toml: exit {rc}")
        with open(os.path.join(folder, "state.json")) as f:
            state = json.load(f)
        with open(os.path.join(folder, "log.txt")) as f:
            log = f.read()
        conf = state["config"]
        check(conf["selfplay"]["games"] == 18000 and conf["nnue"]["window_positions"] ==
              6000000 and conf["selfplay"]["games_per_core"] == 0 and
              state["sized_for_cores"] == 3 and "sized for 3 cores: selfplay.games = 18,000 "
              "(6,000 a core), nnue.window_positions = 6,000,000 (2,000,000 a core)" in log,
              f"sized: {conf['selfplay']} {conf['nnue']}")
        with open(plan + ".calls") as f:
            selfplay = [line.split() for line in f if line.startswith("hansu-selfplay")]
        check(len(selfplay) == 1 and selfplay[0][selfplay[0].index("--games") + 1] == "18000"
              and selfplay[0][selfplay[0].index("--threads") + 1] == "3",
              f"the self-play's games and threads: {selfplay}")
        with open(os.path.join(folder, "nets", "initial.nnue"), "rb") as a, \
                open(saved[0]("janggi"), "rb") as b:
            check(a.read() == b.read(), "the first engine is not the shipped net")
        check(state["accepted"] == ["iter-001"], f"accepted: {state['accepted']}")
        gate = state["iterations"][0].get("external_gate") or {}
        ext = [l for l in log.splitlines() if "match initial vs Fairy-Stockfish-11.1:" in l]
        check(gate.get("passed") is True and len(ext) == 1 and "nodes=250000" in ext[0] and
              "nodes=76000" in ext[0] and "--move-info" in ext[0],
              f"data/train.toml's external gate: {gate} {ext}")
        final = os.path.join(folder, "nets", "iter-001.nnue")
        kept = os.path.join(train.NETS_DIR, "janggi-run")
        with open(final, "rb") as a, open(train.net_file("janggi"), "rb") as b, \
                open(kept + ".nnue", "rb") as c:
            net = a.read()
            check(b.read() == net and c.read() == net, "the final net is not installed and kept")
        with open(kept + ".json") as f:
            prov = json.load(f)
        check(prov["installed_as"] == train.net_file("janggi") and prov["net"] == "iter-001" and
              prov["variant"] == "janggi" and prov["sized_for_cores"] == 3 and
              prov["net_sha256"] == train.sha256_file(final) and
              prov["record"]["iteration"] == 1 and prov["record"]["trainer"]["schema"] == 1,
              f"the kept provenance: {sorted(prov)}")
        target = os.path.relpath(train.net_file("janggi"), train.REPO)
        check(f"installed as {target} " in log and kept + ".json" in log,
              "the log does not say where the net went")
        # xiangqi, on 2 threads: its own shipped net first, 12,000 games; nothing accepted
        # (H0), nothing installed.
        folder = os.path.join(work, "run-xiangqi")
        with open(plan, "w") as f:
            json.dump({"iter-001": "ok"}, f)
        rc = run_main(["--config", train.BASE_CONFIG, "--variant", "xiangqi", "--run", folder,
                       "--set", "run.threads=2"] + sets, {"STUB_PLAN": plan, "STUB_SPRT": "H0"})
        check(rc == 0, f"main() on data/train.toml for xiangqi: exit {rc}")
        with open(os.path.join(folder, "state.json")) as f:
            state = json.load(f)
        check(state["config"]["selfplay"]["games"] == 12000 and state["accepted"] == [],
              f"xiangqi: {state['config']['selfplay']} {state['accepted']}")
        with open(os.path.join(folder, "nets", "initial.nnue"), "rb") as a, \
                open(saved[0]("xiangqi"), "rb") as b, open(train.net_file("xiangqi"), "rb") as c:
            first = a.read()
            check(first == b.read() == c.read(), "xiangqi: not its shipped net, or installed")
        check(not os.path.exists(os.path.join(train.NETS_DIR, "xiangqi-run-xiangqi.nnue")),
              "xiangqi: a net kept with nothing accepted")
    finally:
        train.net_file, train.NETS_DIR = saved


def git(folder, *args):
    return subprocess.run(["git", "-C", folder, "-c", "user.name=test", "-c",
                           "user.email=test@example.invalid"] + list(args), check=True,
                          capture_output=True, text=True).stdout


def test_kept_names(work):
    """The final net (nnue.install) and the accepted headers are kept beside the shipped ones
    under a name that is the run's own: a run folder named r1 leaves the shipped janggi-r1.nnue
    and .json (tracked by git) as they were, and keeps its net as janggi-r1-<start time>; two
    runs named d in different folders, or one folder's two runs, keep two nets; a resumed run
    replaces its own earlier keeping; a symbolic link is never written through; no temporary
    file stays. engine/ and data/nets/ are WORK's; data/nets/ is a git work tree there."""
    nets = os.path.join(work, "nets")
    os.makedirs(nets)
    shipped = {}
    for name in ("janggi-r1.nnue", "janggi-r1.json", "../weights/train-2core-iter-002.h",
                 "../weights/train-2core-iter-002.json"):
        with open(os.path.join(train.REPO, "data", "nets", name), "rb") as f:
            shipped[os.path.basename(name)] = f.read()
        with open(os.path.join(nets, os.path.basename(name)), "wb") as f:
            f.write(shipped[os.path.basename(name)])
    git(nets, "init", "-q")
    git(nets, "add", ".")
    git(nets, "commit", "-q", "-m", "shipped")
    outside = os.path.join(work, "outside.bin")
    with open(outside, "wb") as f:
        f.write(b"not a net")
    os.symlink(outside, os.path.join(nets, "janggi-s.nnue"))
    saved = train.net_file, train.NETS_DIR
    train.net_file = lambda v: os.path.join(work, "engine", v, "net.nnue")
    train.NETS_DIR = nets
    os.makedirs(os.path.join(work, "engine", "janggi"))

    def unchanged():
        for name, data in shipped.items():
            with open(os.path.join(nets, name), "rb") as f:
                check(f.read() == data, f"the shipped {name} was replaced")
        check(git(nets, "status", "--porcelain", "--untracked-files=no") == "",
              "a tracked file changed: " + git(nets, "status", "--porcelain"))

    def install(folder, started, data):
        """A finished run of nets in folder, started at started, installing data."""
        run = make_run(folder, [])
        os.makedirs(os.path.join(folder, "nets"), exist_ok=True)
        net = os.path.join(folder, "nets", "iter-001.nnue")
        with open(net, "wb") as f:
            f.write(data)
        run.state = {"started": started, "first": {"name": "initial", "net": ""},
                     "current": {"name": "iter-001", "net": net}, "accepted": ["iter-001"]}
        kept = run.install_net(net)
        unchanged()
        with open(kept + ".nnue", "rb") as a, open(train.net_file("janggi"), "rb") as b:
            check(a.read() == data == b.read(), f"{folder}: {kept}.nnue is not its net")
        with open(kept + ".json") as f:
            prov = json.load(f)
        check(prov.get("kept_by") == {"run": folder, "started": started} and
              prov["net_sha256"] == train.sha256_file(net), f"{kept}.json: {prov}")
        return os.path.basename(kept), run.logged

    try:
        t1, t2, t3 = "2026-01-02T03:04:05Z", "2026-02-03T04:05:06Z", "2026-03-04T05:06:07Z"
        r1 = os.path.join(work, "runs", "r1")
        kept, log = install(r1, t1, b"net of r1")
        check(kept == "janggi-r1-20260102-030405", f"run r1 kept its net as {kept}")
        check(any(f"{nets}/janggi-r1.json is tracked by git: not replaced" in x for x in log) and
              any("kept under a name of the run's own: janggi-r1-20260102-030405" in x
                  for x in log), f"the log does not say which name and why: {log}")
        # Resumed, it replaces its own keeping (here with another net).
        kept, _ = install(r1, t1, b"net of r1, resumed")
        check(kept == "janggi-r1-20260102-030405", f"r1 resumed kept {kept}")
        # Two runs named d in different folders; a third with the second's start time; the
        # first folder's next run.
        a, b, c = (os.path.join(work, x, "d") for x in ("a", "b", "c"))
        got = [install(a, t1, b"a")[0], install(b, t2, b"b")[0], install(c, t2, b"c")[0],
               install(a, t3, b"a again")[0], install(a, t1, b"a resumed")[0]]
        check(got == ["janggi-d", "janggi-d-20260203-040506", "janggi-d-20260203-040506-2",
                      "janggi-d-20260304-050607", "janggi-d"], f"the runs named d kept {got}")
        for name, data in (("janggi-d", b"a resumed"), ("janggi-d-20260203-040506", b"b")):
            with open(os.path.join(nets, name + ".nnue"), "rb") as f:
                check(f.read() == data, f"{name}.nnue was replaced by another run's net")
        # A symbolic link there is not written through.
        kept, log = install(os.path.join(work, "s"), t1, b"s")
        with open(outside, "rb") as f:
            check(kept == "janggi-s-20260102-030405" and f.read() == b"not a net" and
                  any(f"{nets}/janggi-s.nnue is a symbolic link: not replaced" in x for x in log),
                  f"a link at janggi-s.nnue: kept {kept}, {log}")
        # The Texel loop's accepted headers: the same rule in its weights_dir.
        run = make_run(os.path.join(work, "runs", "train-2core"),
                       [f"run.weights_dir={json.dumps(nets)}", "match.elo_games=0"])
        run.state = {"started": t1, "first": {"name": "initial", "header": "h"},
                     "current": {"name": "initial", "header": "h"}, "accepted": []}
        header = os.path.join(work, "iter-002.h")
        with open(header, "w") as f:
            f.write("// a candidate\n")
        run.accept(2, "iter-002", header, None, {"match": {"sprt": "H1 accepted"}})
        check(run.state["current"]["header"] ==
              os.path.join(nets, "train-2core-iter-002-20260102-030405.h"),
              f"the accepted header was kept as {run.state['current']['header']}")
        unchanged()
        left = [n for n in os.listdir(nets) if n.endswith(".tmp") or n.startswith(".")]
        check(left == [".git"], f"temporary files left: {left}")
    finally:
        train.net_file, train.NETS_DIR = saved


def main():
    work = sys.argv[1]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    test_rejected_nets(os.path.join(work, "rejected-nets"))
    test_default_nets(os.path.join(work, "default-nets"))
    test_kept_names(os.path.join(work, "kept-names"))
    print("ok: nets rejected before their match, the default overnight run a loop of nets sized "
          "by the cores, kept nets and headers never replacing another's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
