#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/train's command line before any step runs (issue 23):
- a run folder is locked while a loop runs in it: a second scripts/train, new run or --resume,
  is refused in one line naming the holder's pid (the holder here is this test, through
  train_loop.lock_folder, the loop's own lock);
- every setting is checked before the first step, from a --config file or --set, for a new run
  and for --resume alike: an unknown or misspelt setting, a malformed --set item, a wrong type
  (run.threads = 1.5), a number that is not finite (run.hours = nan), a match.sprt that
  hansu-match would refuse, a run.start that is not a file;
- run.start names the first engine's header ("" = the shipped one, data/train.toml's); the
  demo (no --config) starts from data/weights/material-only.h, and its report says so first;
- a corrupt state.json on --resume, and a run folder that cannot be made (under a regular file;
  in read-only /proc) are one-line errors;
- a hand-edited state.json of a run of nets: current.net or first.net not a string, removed (the
  run went on with the classical engine as current) or naming a file that is gone, and every
  other field the loop reads of a wrong type or missing, each refused in one line naming it.
Every refusal: exit 1, one line on stderr, no traceback, and no run folder made.

Usage: test_train_cli.py WORK_DIR"""
import json
import os
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "scripts"))
import train_loop  # noqa: E402


def check(cond, msg):
    if not cond:
        print("FAIL: " + msg, file=sys.stderr)
        sys.exit(1)


def refused(args, text, made=None):
    """scripts/train ARGS exits 1 with one line on stderr holding text; made (a folder) is
    not created."""
    r = subprocess.run([os.path.join(REPO, "scripts", "train")] + args, capture_output=True,
                       text=True, timeout=60)
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 1 and len(lines) == 1 and "Traceback" not in r.stderr and
          text in lines[0], f"scripts/train {' '.join(args)}: exit {r.returncode}, want one "
          f"line with {text!r}, stderr:\n{r.stderr}")
    if made:
        check(not os.path.exists(made), f"scripts/train {' '.join(args)} made {made}")


def fake_run(folder, sets=()):
    """A run folder as a new run leaves it before its first step (no program is run here)."""
    os.makedirs(os.path.join(folder, "weights"))
    config = train_loop.load_config(None, list(sets))
    initial = os.path.join(folder, "weights", "initial.h")
    shutil.copyfile(train_loop.start_header(config), initial)
    state = {"config": config, "iteration": 0, "in_progress": False,
             "first": {"name": "initial", "header": initial},
             "current": {"name": "initial", "header": initial},
             "iterations": [], "accepted": [], "started": "2026-01-01T00:00:00Z"}
    with open(os.path.join(folder, "state.json"), "w") as f:
        json.dump(state, f)


def hand_edited_nets(work):
    """A run of nets (run.eval = "nnue") whose state.json was edited by hand: each field the
    loop reads refused in one line naming it (issue 39, item 8). The state has finished its one
    iteration, so a resume that wrongly accepted it would end without running a step (exit 0)."""
    run = os.path.join(work, "nets")
    fake_run(run, ['run.eval="nnue"', "run.iterations=1"])
    path = os.path.join(run, "state.json")
    with open(path) as f:
        good = json.load(f)
    net = os.path.join(run, "nets", "initial.nnue")
    os.makedirs(os.path.dirname(net))
    shutil.copyfile(os.path.join(REPO, "engine", "janggi", "net.nnue"), net)
    settings = {"seed": 1001, "games": 8, "nodes": 100, "random_plies": 2, "openings": "suite",
                "extra": [], "variant": "janggi"}
    good.update(iteration=1, first=dict(good["first"], net=net),
                current=dict(good["current"], net=net),
                iterations=[{"k": 1, "current": "initial", "accepted": False, "finished": "x",
                             "selfplay_settings": settings}])

    def edited(change):
        state = json.loads(json.dumps(good))
        change(state)
        return state
    cases = [
        (lambda s: s["current"].update(net=5), "current.net is not a string"),
        (lambda s: s["current"].pop("net"), "current.net is missing"),
        (lambda s: s["first"].pop("net"), "first.net is missing"),
        (lambda s: s["current"].update(net=net + ".gone"), "current.net " + net + ".gone: no such"),
        (lambda s: s.update(in_progress="no"), "in_progress is not true or false"),
        (lambda s: s.update(wall_s="1h"), "wall_s is not a finite number"),
        (lambda s: s.update(accepted=[1]), "accepted is not a list of strings"),
        (lambda s: s.update(cpu_s={"train": None}), "cpu_s holds a value that is not a number"),
        (lambda s: s.update(folder=7), "folder is not a string"),
        (lambda s: s.update(source_commit=[]), "source_commit is not a string"),
        (lambda s: s["iterations"][0].update(k="1"), "iterations[0] has no iteration number k"),
        (lambda s: s["iterations"].append(3), "iterations[1] has no iteration number k"),
        (lambda s: s["iterations"][0].update(match="H1"), "iterations[0].match is not an object"),
        (lambda s: s["iterations"][0].update(selfplay_engine={"net": 1}),
         "iterations[0].selfplay_engine: header and net are not strings"),
        (lambda s: s["iterations"][0]["selfplay_settings"].update(nodes="100"),
         "iterations[0].selfplay_settings.nodes is not an int"),
        (lambda s: s["iterations"][0]["selfplay_settings"].pop("seed"),
         "iterations[0].selfplay_settings has no seed"),
        # The re-trial of item 8: the field named, state.json named, values checked at once.
        (lambda s: s.pop("current"), "state.json: not a run's state (no current)"),
        (lambda s: s.pop("first"), "state.json: not a run's state (no first)"),
        (lambda s: s.pop("config"), "state.json: not a run's state (no config)"),
        (lambda s: s.update(config=[]), "state.json: not a run's state (config is not an object)"),
        (lambda s: s["config"].pop("run"), "(config has no [run] section)"),
        (lambda s: s["config"].update(nnue=None),
         "state.json: not a run's state (config.nnue is not an object)"),
        (lambda s: s["iterations"][0]["selfplay_settings"].update(nodes=-5),
         "iterations[0].selfplay_settings.nodes = -5: expected a positive number"),
        (lambda s: s["iterations"][0]["selfplay_settings"].update(seed=-1),
         "iterations[0].selfplay_settings.seed = -1: expected a non-negative number"),
        (lambda s: s["iterations"][0]["selfplay_settings"].update(variant="chess"),
         "iterations[0].selfplay_settings.variant = 'chess': expected one of janggi, xiangqi"),
        (lambda s: s.update(iteration=99),
         "iteration is 99, but the last iteration recorded is 1 (expected 1 or 2)"),
        (lambda s: s["config"]["match"].pop("games"), "setting match.games is missing"),
        (lambda s: s["config"].pop("nnue"), "setting section [nnue] is missing")]
    for change, text in cases:
        with open(path, "w") as f:
            json.dump(edited(change), f)
        refused(["--resume", "--run", run], text)


def main(argv):
    work = argv[1]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    new = os.path.join(work, "new")

    # Settings, for a new run: each refused before the folder is made.
    for args, text in [
            (["--set", "run.itrations=3"], "unknown setting run.itrations"),
            (["--set", "run.iterations"], "expected SECTION.KEY=VALUE"),
            (["--set", "threads=2"], "expected SECTION.KEY=VALUE"),
            (["--set", "run.threads=1.5"], "run.threads = 1.5: expected a whole number"),
            (["--set", "run.hours=nan"], "run.hours = nan: expected a finite number"),
            (["--set", "run.hours=inf"], "run.hours = inf: expected a finite number"),
            (["--set", "run.install=3"], "run.install = 3: expected true or false"),
            (["--set", "selfplay.extra=[1]"], "selfplay.extra = [1]: expected a list of strings"),
            (["--set", 'match.sprt="garbage"'], "match.sprt = 'garbage'"),
            (["--set", 'match.sprt="elo0=10 elo1=0"'], "need elo0 < elo1"),
            (["--set", 'match.sprt="elo0=0 elo1=10 alpha=0.7"'], "0 < alpha, beta < 0.5"),
            (["--set", 'run.start="data/weights/none.h"'], "run.start = 'data/weights/none.h'")]:
        refused(["--run", new] + args, text, made=new)
    bad = os.path.join(work, "bad.toml")
    with open(bad, "w") as f:
        f.write('[match]\nsprt = "garbage"\n')
    refused(["--config", bad, "--run", new], "match.sprt = 'garbage'", made=new)
    with open(bad, "w") as f:
        f.write("[run]\nthreads = 1.5\n")
    refused(["--config", bad, "--run", new], "run.threads = 1.5", made=new)

    # Folders that cannot be made or written.
    under_file = os.path.join(work, "file")
    open(under_file, "w").close()
    refused(["--run", os.path.join(under_file, "run")], "Not a directory")
    refused(["--run", "/proc/hansu-run"], "/proc/hansu-run")

    # --resume: the same checks on its --set, and a corrupt state.
    run = os.path.join(work, "run")
    fake_run(run)
    for args, text in [
            (["--set", "run.itrations=3"], "unknown setting run.itrations"),
            (["--set", "run.iterations"], "expected SECTION.KEY=VALUE"),
            (["--set", "run.hours=nan"], "expected a finite number"),
            (["--set", 'match.sprt="garbage"'], "match.sprt = 'garbage'")]:
        refused(["--resume", "--run", run] + args, text)
    check(not os.path.exists(os.path.join(run, "log.txt")), "a refused --resume started")
    corrupt = os.path.join(work, "corrupt")
    fake_run(corrupt)
    with open(os.path.join(corrupt, "state.json"), "w") as f:
        f.write('{"config": {')
    refused(["--resume", "--run", corrupt], "state.json: not a run's state")
    with open(os.path.join(corrupt, "state.json"), "w") as f:
        f.write("[1, 2]")
    refused(["--resume", "--run", corrupt], "state.json: not a run's state")
    # Right keys, wrong types (a hand edit): one line, not a TypeError in the loop.
    with open(os.path.join(run, "state.json")) as f:
        good = json.load(f)
    for key, value, text in [("iteration", "x", "iteration is not an int"),
                             ("iteration", True, "iteration is not an int"),
                             ("accepted", {}, "accepted is not a list"),
                             ("current", {"name": "x"}, "current names no header")]:
        with open(os.path.join(corrupt, "state.json"), "w") as f:
            json.dump(dict(good, **{key: value}), f)
        refused(["--resume", "--run", corrupt], text)

    hand_edited_nets(work)

    # The lock: held here as the loop holds it, a second loop on the folder is refused.
    lock = train_loop.lock_folder(run)
    refused(["--resume", "--run", run], f"in use by another scripts/train (pid {os.getpid()}")
    held = os.path.join(work, "held")
    os.makedirs(held)
    lock2 = train_loop.lock_folder(held)
    refused(["--run", held], f"in use by another scripts/train (pid {os.getpid()}")
    check(not os.path.exists(os.path.join(held, "state.json")), "a locked folder got a run")
    lock.close()
    lock2.close()

    # run.start: the first engine's header; "" the shipped one. The demo starts from the
    # material-only header, and a report of a run with a start says so at the top.
    shipped = train_loop.load_config(os.path.join(REPO, "data", "train.toml"), [])
    check(shipped["run"]["start"] == "" and train_loop.start_header(shipped) ==
          train_loop.weights_header("janggi"), "data/train.toml does not start from the shipped "
          "weights")
    demo = train_loop.load_config(None, [])
    material = os.path.join(REPO, "data", "weights", "material-only.h")
    check(train_loop.start_header(demo) == material, f"the demo starts from {demo['run']}")
    import train_report
    top = "\n".join(train_report.start_lines(demo))
    check("Started from `data/weights/material-only.h`, not the shipped weights" in top and
          "material values only" in top, f"report top: {top!r}")
    check(train_report.start_lines(shipped) == [], "a run from the shipped weights has a start line")
    refused(["--run", run], "already holds a run; use --resume")
    shutil.rmtree(work)
    print("train: settings checked before any step (new and resumed runs), the run folder's "
          "lock, corrupt state and unwritable folders: one-line errors")


if __name__ == "__main__":
    main(sys.argv)
