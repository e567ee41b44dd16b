#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/train's external gate end to end (issue 55, item 4): a tiny loop of nets with this
build's programs and Fairy-Stockfish at tiny fixed nodes (Hansu 2000, Fairy-Stockfish 600, 2
game pairs), one iteration whose SPRTs are reported as H1 (a wrapped hansu-match, as in
test_train_nnue.py) so that the candidate reaches the gate:
- stopped in the gate's first match (the wrapper adds --stop-after-pairs 1 to the first match
  played with --move-info: the step fails, exit 1) and resumed with --resume: the match
  continues from its state file, nothing before it is played again;
- state.json keeps the first engine's figure (external.figures[digest].initial) and the
  iteration's record its match (external: games, pentanomial, terminations, the audit's
  summary) and the verdict (external_gate), which is external_gate.decide() of the two tallies;
  an accepted net's provenance (nets/iter-001.json) keeps both;
- each match's PGN has --move-info comments, its evaluation audit (scripts/eval-audit) is kept
  as JSON beside it with the net's expected and actual score and Fairy-Stockfish's column;
- report.md has the External gate table with both figures and the audit, and the Iterations
  table says whether the gate rejected the candidate;
- external.label_nodes: both matches' games (their real PGNs, --move-info comments and all)
  labelled once by hansu-selfplay label with the first engine's net into RUN/labelled/.
Without Fairy-Stockfish at /usr/games/fairy-stockfish the test says so and exits 77 (ctest:
skipped).

Usage: test_train_external.py WORK_DIR BUILD_DIR"""
import json
import os
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "scripts"))
import external_gate  # noqa: E402

TRAIN = os.path.join(REPO, "scripts", "train")
FSF = "/usr/games/fairy-stockfish"
SKIP = 77

TINY = """
[run]
eval = "nnue"
iterations = 1
hours = 0
threads = 2
install = false
[selfplay]
games = 32
nodes = 150
random_plies = 2
[nnue]
window_positions = 5000
epochs = 2
batch = 1024
lr = 0.0005
init = "current"
install = false
extra = ["--quant-bound", "100000"]  # tiny fine-tunes drift off the grid (test_train_nnue.py)
[match]
games = 8
nodes = 100
sprt = "elo0=0 elo1=10 alpha=0.05 beta=0.05"
elo_games = 2
elo_nodes = 200
[gauntlet]
enabled = false
[external]
enabled = true
hansu_nodes = 2000
engine_nodes = 600
games = 4
audit_flags = ["--every", "4"]
label_nodes = 200     # both matches' games labelled by hansu-selfplay label (the real PGNs)
label_flags = ["--no-bench"]
"""

# The real hansu-match; a finished SPRT's result turned into H1; the first match played with
# --move-info (the gate's) stopped after a pair while the marker file exists.
WRAPPER = """#!/usr/bin/python3
import json, os, subprocess, sys
args = sys.argv[1:]
marker = os.environ.get("HANSU_TEST_STOP_MARKER", "")
if marker and os.path.exists(marker) and "--move-info" in args:
    os.remove(marker)
    args += ["--stop-after-pairs", "1", "--concurrency", "1"]  # one pair, then stop
rc = subprocess.run([%r] + args).returncode
if rc == 0 and "--sprt" in args:
    path = args[args.index("--json") + 1]
    with open(path) as f:
        r = json.load(f)
    r["sprt"]["result"] = "H1"
    with open(path, "w") as f:
        json.dump(r, f)
sys.exit(rc)
"""


def check(cond, msg):
    if not cond:
        print("FAIL: " + msg, file=sys.stderr)
        sys.exit(1)


def wrapped_build(work, build):
    folder = os.path.join(work, "build")
    for tool in ("engine/hansu", "selfplay/hansu-selfplay", "tuner/nnue/hansu-nnue"):
        os.makedirs(os.path.dirname(os.path.join(folder, tool)), exist_ok=True)
        os.symlink(os.path.join(build, tool), os.path.join(folder, tool))
    match = os.path.join(folder, "selfplay", "match", "hansu-match")
    os.makedirs(os.path.dirname(match))
    with open(match, "w") as f:
        f.write(WRAPPER % os.path.join(build, "selfplay", "match", "hansu-match"))
    os.chmod(match, 0o755)
    return folder


def log_lines(run, prefix):
    with open(os.path.join(run, "log.txt")) as f:
        return [l.split(" ", 1)[1] for l in f if l.split(" ", 1)[1].startswith(prefix)]


def main(argv):
    work, build = argv[1], os.path.abspath(argv[2])
    if not os.access(FSF, os.X_OK):
        print(f"SKIPPED: the external gate end to end needs Fairy-Stockfish at {FSF} (Debian "
              "package fairy-stockfish); its rule and plumbing are tested by "
              "test_train_external_gate.py")
        return SKIP
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    config = os.path.join(work, "tiny.toml")
    with open(config, "w") as f:
        f.write(TINY)
    start = os.path.join(work, "start.nnue")
    subprocess.run([sys.executable, os.path.join(REPO, "scripts", "nnue_random.py"), start],
                   check=True)
    run = os.path.join(work, "run")
    marker = os.path.join(work, "stop-once")
    open(marker, "w").close()
    env = dict(os.environ, HANSU_TEST_STOP_MARKER=marker)
    sets = ["--set", f"nnue.build={json.dumps(wrapped_build(work, build))}",
            "--set", f"run.start_net={json.dumps(start)}"]
    r = subprocess.run([TRAIN, "--config", config, "--run", run] + sets, capture_output=True,
                       text=True, env=env, timeout=400)
    check(r.returncode == 1 and "match initial vs Fairy-Stockfish-11.1 failed" in r.stderr,
          f"the run stopped in the gate: exit {r.returncode}, {r.stderr}")
    with open(os.path.join(run, "state.json")) as f:
        state = json.load(f)
    rec = state["iterations"][0]
    check("confirm" in rec and "external" not in rec and "accepted" not in rec,
          f"stopped before the gate's verdict: {sorted(rec)}")
    states = [n for n in os.listdir(os.path.join(run, "external")) if n.endswith(".state")]
    check(len(states) == 1, f"no half-played external match: {states}")

    r = subprocess.run([TRAIN, "--resume", "--run", run], capture_output=True, text=True,
                       env=env, timeout=400)
    check(r.returncode == 0, f"--resume: exit {r.returncode}\n{r.stderr}")
    ext = log_lines(run, "match initial vs Fairy-Stockfish-11.1:")
    check(len(ext) == 2 and "--resume" in ext[1].split() and "--resume" not in ext[0].split(),
          f"the gate's first match did not resume: {ext}")
    for prefix, n in (("self-play:", 1), ("train:", 1), ("match iter-001 vs initial:", 1),
                      ("match iter-001 vs Fairy-Stockfish-11.1:", 1)):
        pgn = "/confirm.pgn" if prefix.startswith("match iter-001 vs i") else ""
        for part in ("/match.pgn", pgn) if pgn else ("",):
            got = [l for l in log_lines(run, prefix) if part in l]
            check(len(got) == n, f"{prefix} {part} played {len(got)} times, not {n}: {got}")
    words = ext[0].split()
    check("--move-info" in words and "nodes=2000" in words and "nodes=600" in words and
          f"cmd={FSF}" in words, f"the external match: {ext[0]}")

    with open(os.path.join(run, "state.json")) as f:
        state = json.load(f)
    rec = state["iterations"][0]
    tag = rec["external"]["digest"]
    first = state["external"]["figures"][tag]["initial"]
    cand, gate = rec["external"], rec["external_gate"]
    for fig in (first, cand):
        check(fig["games"] == 4 and sum(fig["pentanomial"]) == 2 and "wins_by_reason" in fig and
              fig["settings"]["hansu_nodes"] == 2000, f"a figure: {fig}")
        with open(fig["pgn"]) as f:
            check("sd=" in f.read(), f"{fig['pgn']}: no --move-info comments")
        a = fig.get("audit") or {}
        check("error" not in a and a.get("hansu", {}).get("expected_score") is not None and
              "opponent" in a and os.path.exists(a.get("json", "")),
              f"the audit of {fig['pgn']}: {a}")
    check(cand["audit"]["evaluator"] == "candidate" and first["audit"]["evaluator"] == "initial",
          f"the audits' columns: {cand['audit']['evaluator']} {first['audit']['evaluator']}")
    want = external_gate.decide(cand["pentanomial"], first["pentanomial"])
    check(gate["passed"] == want["passed"] and gate["difference"] == want["difference"] and
          rec["accepted"] == gate["passed"] and gate["current"] == "initial",
          f"the verdict {gate} against {want}")
    # external.label_nodes: both matches labelled once, with the first engine's net (the
    # current one while the gate ran), into RUN/labelled/NAME-DIGEST/.
    labs = state.get("labelled", [])
    check([e["name"] for e in labs] == [f"initial-{tag}", f"iter-001-{tag}"] and
          all(e["done"] and e["games"] == 4 and e["positions"] > 0 and e["nodes"] == 200 and
              e["net"] == state["first"]["net"] and os.path.isdir(e["folder"]) for e in labs),
          f"the gate's matches labelled: {labs}")
    check(len(log_lines(run, "label ")) == 2, "a match labelled twice")
    with open(os.path.join(run, "report.md")) as f:
        md = f.read()
    check("## External gate" in md and "the first engine's figure" in md and
          f"| 1 | iter-001 | 4 |" in md and "gap **" in md, "report.md: no External gate table")
    if gate["passed"]:
        with open(os.path.join(run, "nets", "iter-001.json")) as f:
            prov = json.load(f)
        check(prov["external_gate"] == gate and prov["external"]["digest"] == tag,
              f"the provenance: {sorted(prov)}")
        check(state["external"]["figures"][tag].get("iter-001") is not None,
              "the accepted net's figure is not kept as the current's")
    else:
        check("no (external gate)" in md, "report.md: the gate's rejection not in Iterations")
    print(f"ok: the external gate end to end ({'passed' if gate['passed'] else 'rejected'}: "
          f"{cand['score']} against {first['score']} of the first engine), stopped in the "
          "gate and resumed, audits kept, report")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
