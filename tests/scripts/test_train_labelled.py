#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/train's labelled data (issue 55, items 3 and 4; scripts/train_labelled.py), with the
build's hansu-selfplay writing real stores and labelling real games (two games of Hansu against
Fairy-Stockfish, docs/scaling-profile/tc-40+0.4.pgn.gz, at 50 nodes, every 10th position):
- the settings are checked before any work, each refusal one line naming the setting or the
  store, no run folder made: a missing store, plain self-play (not written by hansu-selfplay
  label), a store of another variant, nnue.labelled_repeat 0, external.label_nodes -1, a flag
  of the loop's in external.label_flags, external.label_net that is not a net, nnue.labelled
  in the texel mode; data/train.toml leaves it all off;
- a run of nets on stub programs (hansu-nnue, hansu-match and self-play stubbed; labelling
  real) with nnue.labelled and external.label_nodes: every candidate's hansu-nnue reads the
  labelled store beside its window (twice with labelled_repeat = 2), its positions counted in
  the iteration's train_window and log; the gate's matches (the first engine's and the
  candidate's) are labelled into RUN/labelled/NAME-DIGEST/ and the next candidate trains on
  them; the labelling of a match is killed after its first shard (exit 137, the step fails)
  and --resume continues it (hansu-selfplay label --resume keeps the finished shard) without
  labelling the finished match again; report.md lists the labelled stores.

Usage: test_train_labelled.py WORK_DIR BUILD_DIR"""
import gzip
import json
import os
import shutil
import subprocess
import sys

from train_loop_common import REPO, STUB_HEAD, STUB_SELFPLAY, check, stub_build, train

import train_labelled  # noqa: E402  (scripts/, on the path by train_loop_common)

TRAIN = os.path.join(REPO, "scripts", "train")

# One script under the names of a build of nets: self-play, matches and training stubbed, the
# label command run by the real hansu-selfplay (REAL), killed once after its first shard where
# STUB_KILL names the match (its last shard removed, as a kill loses the shard under way).
STUB = STUB_HEAD + """work = os.environ["STUB_WORK"]
with open(os.path.join(work, "calls"), "a") as f:
    f.write(tool + " " + " ".join(args) + "\\n")
if tool == "hansu-selfplay" and args[:1] == ["label"]:
    rc = subprocess.run([os.environ["STUB_REAL"]] + args).returncode
    out, kill = flag("--out"), os.environ.get("STUB_KILL", "")
    marker = os.path.join(work, "killed")
    if rc == 0 and kill and out and os.path.basename(out).startswith(kill) and not os.path.exists(marker):
        os.remove(sorted(glob.glob(os.path.join(out, "shard-*.h5")))[-1])
        open(marker, "w").close()
        sys.exit(137)
    sys.exit(rc)
if tool == "hansu-selfplay":
""" + STUB_SELFPLAY + """elif tool == "hansu-match":
    shutil.copyfile(os.environ["STUB_PGN"], flag("--pgn"))
    sprt = {"result": "H1", "llr": 3.0} if "--sprt" in args else None
    with open(flag("--json"), "w") as f:
        json.dump({"games": 2, "wins": [1, 1], "elo": 0.0, "elo_error": 0.0, "nelo": 0.0,
                   "nelo_error": 0.0, "los": 50.0, "pentanomial": [0, 0, 1, 0, 0],
                   "reasons": {}, "sprt": sprt}, f)
elif tool == "hansu-nnue":
    t = {"schema": 1, "epochs": [{"epoch": 1, "train_loss": 0.05, "valid_loss": 0.06}],
         "train_positions": 300, "valid_positions": 20, "init": flag("--init"),
         "lr": float(flag("--lr")), "seconds": 1.0, "written": True, "out": flag("--out"),
         "quant_equals_init": False, "out_sha256": "0" * 64}
    shutil.copyfile(flag("--init"), flag("--out"))
    json.dump(t, open(flag("--json"), "w"))
"""


def run(argv, env=None, timeout=300):
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, **(env or {})))


def fixtures(work, build):
    """games.pgn (two games against Fairy-Stockfish), lab/ (them labelled), plain/ (self-play)."""
    selfplay = os.path.join(build, "selfplay", "hansu-selfplay")
    with gzip.open(os.path.join(REPO, "docs", "scaling-profile", "tc-40+0.4.pgn.gz"), "rt") as f:
        games = f.read().split("[Event ")[1:3]
    pgn = os.path.join(work, "games.pgn")
    with open(pgn, "w") as f:
        f.write("".join("[Event " + g for g in games))
    lab, plain = os.path.join(work, "lab"), os.path.join(work, "plain")
    for argv in ([selfplay, "label", "--out", lab, "--nodes", "50", "--every", "10",
                  "--threads", "2", "--no-bench", pgn],
                 [selfplay, "--games", "2", "--nodes", "20", "--threads", "2", "--no-bench",
                  "--out", plain]):
        r = run(argv)
        check(r.returncode == 0, f"{' '.join(argv)}: exit {r.returncode}\n{r.stderr}")
    return pgn, lab, plain


def refused(args, text, made):
    r = run([TRAIN] + args, timeout=60)
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 1 and len(lines) == 1 and "Traceback" not in r.stderr and
          text in lines[0], f"scripts/train {' '.join(args)}: exit {r.returncode}, want one "
          f"line with {text!r}, stderr:\n{r.stderr}")
    check(not os.path.exists(made), f"scripts/train {' '.join(args)} made {made}")


def config_file(work, build, lab, iterations):
    path = os.path.join(work, "labelled.toml")
    with open(path, "w") as f:
        f.write(f"""[run]
eval = "nnue"
iterations = {iterations}
hours = 0
threads = 2
start_net = "data/nets/janggi-r4.nnue"
[selfplay]
games = 2
nodes = 10
openings = ""
[nnue]
init = "current"
epochs = 1
install = false
build = {json.dumps(build)}
labelled = [{json.dumps(lab)}]
[match]
games = 2
nodes = 10
elo_games = 2
elo_nodes = 20
[gauntlet]
enabled = false
[external]
enabled = true
engine = {json.dumps(os.path.join(build, "engine", "hansu"))}
games = 2
audit = false
label_nodes = 50
label_flags = ["--every", "10", "--shard-games", "1", "--no-bench"]
""")
    return path


def test_refusals(work, lab, plain, build):
    c = train.load_config(train.BASE_CONFIG, [])
    check(c["nnue"]["labelled"] == [] and c["nnue"]["labelled_repeat"] == 1 and
          c["external"]["label_nodes"] == 0, "data/train.toml must leave labelled data off")
    config = config_file(work, build, lab, 1)
    made = os.path.join(work, "refused")
    base = ["--config", config, "--run", made]
    for sets, text in [
            ([f"nnue.labelled={json.dumps([plain])}"],
             f"labelled store {plain!r}: shard-000000.h5 was not written by hansu-selfplay label"),
            (['nnue.labelled=["no/such-store"]'],
             f"labelled store 'no/such-store' ({REPO}/no/such-store): no such file or folder"),
            (['run.variant="xiangqi"', 'run.start_net=""'],
             f"labelled store {lab!r}: shard-000000.h5 holds janggi games, the run trains "
             "xiangqi"),
            (["nnue.labelled_repeat=0"], "nnue.labelled_repeat = 0: expected a whole number"),
            (["external.label_nodes=-1"], "external.label_nodes = -1: expected a whole number"),
            (["external.label_nodes=1.5"], "external.label_nodes = 1.5: expected a whole number"),
            (['external.label_flags=["--nodes", "9"]'], "--nodes is the loop's own"),
            (['external.label_net="data/bench.fen"'],
             "external.label_net = 'data/bench.fen': ")]:
        refused(base + sum((["--set", s] for s in sets), []), text, made)
    refused(["--config", config, "--run", made, "--set", 'run.eval="texel"', "--set",
             'run.start_net=""'], 'nnue.labelled: only for run.eval = "nnue"', made)
    # A flag of the label tool's own that it refuses stops the run before its first self-play
    # (checked by the run's hansu-selfplay label --check-args), not at the first labelled match.
    for flags, why in ((["--every", "0"], "--every: 0 is out of range 1..600"),
                       (["--bogus"], "unknown option --bogus"), (["--to-move"], "needs a value")):
        folder = os.path.join(work, "bad-flags")
        r = run([TRAIN, "--config", config, "--run", folder, "--set",
                 f"external.label_flags={json.dumps(flags)}"], timeout=120)
        check(r.returncode == 1 and f"external.label_flags = {flags!r}: refused by "
              "hansu-selfplay label: " in r.stderr and why in r.stderr and
              not os.path.exists(os.path.join(folder, "iter-001", "selfplay")),
              f"label_flags {flags}: exit {r.returncode}\n{r.stderr}")
        shutil.rmtree(folder)


def calls(work, prefix):
    with open(os.path.join(work, "calls")) as f:
        return [line.split() for line in f if line.startswith(prefix)]


def test_run(work, build, lab, pgn, real):
    stubs = stub_build(work, STUB)
    env = {"STUB_WORK": work, "STUB_REAL": real, "STUB_PGN": pgn, "STUB_KILL": "iter-001-"}
    config = config_file(work, stubs, lab, 2)
    folder = os.path.join(work, "run")
    r = run([TRAIN, "--config", config, "--run", folder, "--set", "nnue.labelled_repeat=2"],
            env)
    check(r.returncode == 1 and "label iter-001-" in r.stderr and "failed (exit 137)" in
          r.stderr, f"the killed labelling must stop the run: exit {r.returncode}\n{r.stderr}")
    with open(os.path.join(folder, "state.json")) as f:
        state = json.load(f)
    w = state["iterations"][0]["train_window"]
    positions = train_labelled.store_positions(lab, "janggi", lab)
    share = round(2 * positions / (2 * positions + w["positions"]), 4)
    check(w["labelled"] == {"folders": [lab], "positions": positions, "repeat": 2,
                            "share": share} and positions > 10, f"iteration 1's window: {w}")
    nnue = calls(work, "hansu-nnue")
    check(len(nnue) == 1 and nnue[0].count(lab) == 2, f"iteration 1's inputs: {nnue}")
    labs = state["labelled"]
    check([e["name"].split("-")[0] for e in labs] == ["initial", "iter"] and labs[0]["done"]
          and not labs[1]["done"] and labs[0]["positions"] == positions and
          labs[0]["net"] == os.path.join(folder, "nets", "initial.nnue"),
          f"state.json's labelled: {labs}")
    # Resumed: the finished match is not labelled again, the killed one resumes its shards.
    r = run([TRAIN, "--resume", "--run", folder], env)
    check(r.returncode == 0, f"--resume: exit {r.returncode}\n{r.stderr}")
    with open(os.path.join(folder, "state.json")) as f:
        state = json.load(f)
    labelled = [c for c in calls(work, "hansu-selfplay label") if "--check-args" not in c]
    names = [os.path.basename(c[c.index("--out") + 1]) for c in labelled]
    check(len(names) == 4 and names[0].startswith("initial-") and names[1] == names[2] and
          names[3].startswith("iter-002-") and "--resume" in labelled[2] and
          "--resume" not in labelled[1], f"labelling calls: {names}")
    with open(os.path.join(folder, "labelled", names[1] + ".json")) as f:
        result = json.load(f)
    check(result["shards"] == 2 and result["shards_resumed"] == 1, f"the resume: {result}")
    check(all(e["done"] and e["positions"] == positions for e in state["labelled"]),
          f"every match labelled alike (the same games, net and nodes): {state['labelled']}")
    # Iteration 2's candidate trains on the store and on both matches labelled in iteration 1.
    w = state["iterations"][1]["train_window"]["labelled"]
    first = [os.path.join(folder, "labelled", n) for n in names[:2]]
    check(w["folders"] == [lab] + first and w["positions"] == 3 * positions,
          f"iteration 2's window: {w}")
    nnue = calls(work, "hansu-nnue")
    check(len(nnue) == 2 and all(nnue[1].count(p) == 2 for p in [lab] + first),
          f"iteration 2's inputs: {nnue[1]}")
    with open(os.path.join(folder, "log.txt")) as f:
        log = f.read()
    share = 6 * positions / (6 * positions + state["iterations"][1]["train_window"]["positions"])
    check(f"labelled data: 3 stores, {3 * positions} positions searched, each read 2 times; "
          f"{100 * share:.1f} % of the positions read" in log and
          f"labelled {names[0]}: 2 games, {positions} positions" in log,
          "log.txt does not count the labelled data")
    if os.path.exists(os.path.join(folder, "report.md")):
        with open(os.path.join(folder, "report.md")) as f:
            report = f.read()
        check(f"| 2 | lab, {names[0]}, {names[1]} | {3 * positions} | 2 | {100 * share:.1f} % |"
              in report,
              "report.md does not list iteration 2's labelled stores")


def main():
    work, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    pgn, lab, plain = fixtures(work, build)
    test_refusals(work, lab, plain, build)
    test_run(work, build, lab, pgn, os.path.join(build, "selfplay", "hansu-selfplay"))
    print("train_labelled: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
