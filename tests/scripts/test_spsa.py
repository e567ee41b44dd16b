#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/spsa (issue 13): OpenBench's update against a step computed by hand, a resumed run
reaching the same theta as an uninterrupted one, --apply writing theta back into a copy of
engine/search_params.def (and again, keeping one provenance line), and bad flags answered with
one line naming the problem, and --report's signal, z and Elo against figures worked by
hand. The games are played by a fake match command: the side whose rfp_margin is nearer 150
wins a pair more often, seeded by --seed, so no engine runs.
Usage: test_spsa.py WORK_DIR"""
import fcntl
import importlib.machinery
import importlib.util
import json
import math
import os
import shutil
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SPSA = os.path.join(ROOT, "scripts", "spsa")
DEF = os.path.join(ROOT, "engine", "search_params.def")

FAKE_MATCH = r'''#!/usr/bin/python3
import json, random, sys
args = sys.argv[1:]
engines, opts, games, seed, out = [], [], 0, 0, None
i = 0
while i < len(args):
    a = args[i]
    if a == "--engine":
        engines.append({})
    elif a.startswith("option."):
        k, v = a[7:].split("=")
        engines[-1][k] = int(v)
    elif a == "--games":
        games = int(args[i + 1]); i += 1
    elif a == "--seed":
        seed = int(args[i + 1]); i += 1
    elif a == "--json":
        out = args[i + 1]; i += 1
    i += 1
rng = random.Random(seed)
d0 = abs(engines[0].get("rfp_margin", 90) - 150)
d1 = abs(engines[1].get("rfp_margin", 90) - 150)
p0 = 0.5 + (0.2 if d0 < d1 else -0.2 if d0 > d1 else 0.0)
w0 = sum(rng.random() < p0 for _ in range(games))
# theta- loses one game on time in every match (a fault hansu-match reports by engine name).
json.dump({"games": games, "wins": [w0, games - w0],
           "faults": {"plus": {"time": 0}, "minus": {"time": 1}}}, open(out, "w"))
'''


def load_spsa():
    loader = importlib.machinery.SourceFileLoader("spsa", SPSA)
    spec = importlib.util.spec_from_loader("spsa", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def spsa(args, check=True):
    r = subprocess.run([sys.executable, SPSA] + args, capture_output=True, text=True)
    if check:
        assert r.returncode == 0, "spsa %s: exit %d\n%s%s" % (" ".join(args), r.returncode,
                                                             r.stdout, r.stderr)
    return r


def test_update_by_hand(mod):
    # N = 100 iterations, so A = 10; rfp_margin: c_end 8, r_end 0.002, theta 90; iteration 1.
    #   c   = 8 * 100^0.101 = 8 * 1.592209 = 12.737670        c_1 = c / 1^0.101 = c
    #   a   = 0.002 * 8^2 * (10 + 100)^0.602 = 0.128 * 16.940195 = 2.168345
    #   r_1 = a / (10 + 1)^0.602 / c_1^2 = 2.168345 / 4.235634 / 162.2482 = 0.0031552
    #   W - L = +3 for theta + c_1 (flip +1): theta = 90 + r_1 * c_1 * 3 = 90.120571
    state = {"iterations": 100, "alpha": 0.602, "gamma": 0.101, "a_ratio": 0.1,
             "params": [{"name": "rfp_margin", "min": 20, "max": 300, "c_end": 8.0,
                         "r_end": 0.002, "default": 90}],
             "theta": {"rfp_margin": 90.0}}
    c_k, r_k = mod.schedule(state, 1)["rfp_margin"]
    assert abs(c_k - 12.737670) < 1e-5, c_k
    assert abs(r_k - 0.0031552) < 1e-7, r_k
    theta = mod.update(state, 1, {"rfp_margin": 1}, 3)
    assert abs(theta["rfp_margin"] - 90.120571) < 1e-5, theta
    theta = mod.update(state, 1, {"rfp_margin": -1}, 3)
    assert abs(theta["rfp_margin"] - (90 - 0.120571)) < 1e-5, theta
    # An integer parameter's perturbation never falls below 0.5 (OpenBench), and theta stays
    # within the range.
    state["params"][0].update(c_end=0.1)
    assert mod.schedule(state, 100)["rfp_margin"][0] == 0.5
    state["theta"]["rfp_margin"] = 299.99
    assert mod.update(state, 1, {"rfp_margin": 1}, 1000)["rfp_margin"] == 300
    # The two sides of an iteration differ by about 2 c_k, rounded with one u, inside the range.
    state["params"][0].update(c_end=8.0)
    state["theta"]["rfp_margin"] = 90.0
    state["seed"] = 5
    flips, plus, minus, seed = mod.draw(state, 1)
    f = flips["rfp_margin"]
    assert plus["rfp_margin"] - minus["rfp_margin"] in (f * 25, f * 26), (plus, minus)


def run_args(work, state, fake, extra):
    return ["--state", os.path.join(work, state), "--params", "rfp_margin,fp_base",
            "--iterations", "12", "--pairs", "4", "--nodes", "100", "--seed", "7",
            "--engine", fake, "--match", fake] + extra


def test_resume(work, fake):
    spsa(run_args(work, "full.json", fake, []))
    spsa(run_args(work, "part.json", fake, ["--stop-after", "5"]))
    part = json.load(open(os.path.join(work, "part.json")))
    assert part["done"] == 5, part["done"]
    spsa(["--state", os.path.join(work, "part.json"), "--resume", "--stop-after", "4"])
    spsa(["--state", os.path.join(work, "part.json"), "--resume"])
    full = json.load(open(os.path.join(work, "full.json")))
    part = json.load(open(os.path.join(work, "part.json")))
    assert full["done"] == part["done"] == 12
    assert full["theta"] == part["theta"], (full["theta"], part["theta"])
    assert full["history"] == part["history"]
    # The fake match rewards rfp_margin near 150: theta moves up from 90.
    assert full["theta"]["rfp_margin"] > 90.5, full["theta"]
    csv_rows = open(os.path.join(work, "full.csv")).read().splitlines()
    assert csv_rows[0] == "iteration,games,result,rfp_margin,fp_base", csv_rows[0]
    assert len(csv_rows) == 13 and csv_rows[-1].startswith("12,8,")
    assert float(csv_rows[-1].split(",")[3]) == round(full["theta"]["rfp_margin"], 4)


SLOW_MATCH = r'''#!/usr/bin/python3
import os, sys, time
open(os.environ["SPSA_TEST_PID"], "w").write(str(os.getpid()))
time.sleep(120)
'''


def test_sigterm(work, fake):
    """SIGTERM while a match plays: spsa stops that match, says so, exits 130, and the state
    it had written stays (here the new run's, no iteration done), ready for --resume."""
    import signal
    import time
    slow = os.path.join(work, "slow_match")
    open(slow, "w").write(SLOW_MATCH)
    os.chmod(slow, 0o755)
    pid_file = os.path.join(work, "slow.pid")
    env = dict(os.environ, SPSA_TEST_PID=pid_file)
    proc = subprocess.Popen([sys.executable, SPSA] + run_args(work, "term.json", slow, []),
                            env=env, stderr=subprocess.PIPE, text=True)
    for _ in range(500):
        if os.path.exists(pid_file) and open(pid_file).read():
            break
        time.sleep(0.02)
    match_pid = int(open(pid_file).read())
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (proc.returncode, err)
    assert "stopped by SIGTERM" in err and "--resume" in err, err
    try:
        os.kill(match_pid, 0)
        alive = True
    except ProcessLookupError:
        alive = False
    assert not alive, "the match outlived spsa"
    state = json.load(open(os.path.join(work, "term.json")))
    assert state["done"] == 0 and state["history"] == [], state


def test_apply(mod, work):
    copy = os.path.join(work, "search_params.def")
    shutil.copy(DEF, copy)
    before = open(copy).read().splitlines()
    state = json.load(open(os.path.join(work, "full.json")))
    state["theta"] = {"rfp_margin": 123.6, "fp_base": 7.2}
    path = os.path.join(work, "applied.json")
    json.dump(state, open(path, "w"))
    for _ in range(2):  # a second apply replaces the provenance line, adds none
        spsa(["--apply", path, "--def", copy])
        table = mod.read_def(copy)
        assert table["rfp_margin"]["default"] == 124 and table["fp_base"]["default"] == 7
        after = open(copy).read().splitlines()
        assert len(after) == len(before) + 2, "\n".join(after)
        prov = [a for a in after if a.startswith("// spsa:")]
        assert len(prov) == 2 and "run full" in prov[0] and "12 iterations, 96 games" in prov[0]
        assert "rfp_margin 90 -> 124" in prov[0], prov[0]
    # Every other line, and every other field of the two lines, is as it was.
    changed = [a for a in after if a not in before]
    assert len(changed) == 4, changed
    orig = mod.read_def(DEF)
    for name in orig:
        for key in ("min", "max", "c_end", "r_end"):
            assert table[name][key] == orig[name][key]
        if name not in ("rfp_margin", "fp_base"):
            assert table[name]["default"] == orig[name]["default"]
    # A theta outside the .def's range is refused.
    state["theta"] = {"rfp_margin": 500.0}
    json.dump(state, open(path, "w"))
    expect_error(["--apply", path, "--def", copy], "rfp_margin = 500 is outside 20..300")


def test_report(work):
    """--report against figures worked by hand on a made-up history of 3 iterations of 4 games:
    results +2, +4, 0 (for plus); a: plus - minus = +5, -3, +5, so S = 2 - 4 + 0 = -2,
    SE = sqrt(4 + 16 + 0), z = -0.4472, 12 games, p = 1/2 - 2/24, Elo = 400 log10(p / (1 - p))
    = -58.45; b: +2, 0 (clipped: left out), -2, so S = 2, SE = 2, z = 1, 8 games, p = 0.625,
    Elo = +88.74, interval p = 0.625 +- 1.96 * 2 / 16. Then the fake match's run, where the higher
    rfp_margin wins: its signal is positive."""
    state = json.load(open(os.path.join(work, "full.json")))
    state["params"] = [{"name": "a", "default": 10, "min": 0, "max": 20, "c_end": 2.0,
                        "r_end": 0.002},
                       {"name": "b", "default": 5, "min": 0, "max": 9, "c_end": 1.0,
                        "r_end": 0.002}]
    state["theta"] = {"a": 10.5, "b": 5.0}
    state["history"] = [
        {"iteration": 1, "games": 4, "result": 2, "plus": {"a": 13, "b": 6},
         "minus": {"a": 8, "b": 4}},
        {"iteration": 2, "games": 4, "result": 4, "plus": {"a": 8, "b": 9},
         "minus": {"a": 11, "b": 9}},
        {"iteration": 3, "games": 4, "result": 0, "plus": {"a": 14, "b": 4},
         "minus": {"a": 9, "b": 6}}]
    state["done"], state["games"] = 3, 12
    path = os.path.join(work, "report.json")
    json.dump(state, open(path, "w"))
    out = os.path.join(work, "report-out.json")
    r = spsa(["--report", path, "--json", out])
    rep = json.load(open(out))
    a, b = rep["params"]
    assert a["signal"] == -2 and abs(a["se"] - math.sqrt(20)) < 1e-9 and a["games"] == 12, a
    assert abs(a["z"] + 0.4472136) < 1e-6 and abs(a["elo"] + 58.4512) < 1e-3, a
    assert abs(a["step"] - 13 / 3) < 1e-9 and not a["beyond_chance"], a
    assert b["signal"] == 2 and b["se"] == 2 and b["games"] == 8 and b["z"] == 1.0, b
    assert abs(b["elo"] - 88.7395) < 1e-3, b
    assert abs(b["elo_low"] - 400 * math.log10(0.38 / 0.62)) < 1e-6, b
    assert abs(b["elo_high"] - 400 * math.log10(0.87 / 0.13)) < 1e-6, b
    # Two parameters: the two-sided 95 % level for both together is z = 2.2414.
    assert abs(rep["z_crit"] - 2.241403) < 1e-5, rep["z_crit"]
    assert "beyond chance for 2 parameters together" in r.stdout and "none" in r.stdout, r.stdout
    full = json.load(open(os.path.join(work, "full.json")))
    r = spsa(["--report", os.path.join(work, "full.json"), "--json", out])
    rows = {row["name"]: row for row in json.load(open(out))["params"]}
    assert rows["rfp_margin"]["signal"] > 0 and rows["rfp_margin"]["games"] == full["games"], rows
    # Every iteration records the games each side lost on time; the report sums them.
    assert all(it["time_losses"] == [0, 1] for it in full["history"]), full["history"][0]
    losses = json.load(open(out))["time_losses"]
    assert losses == {"plus": 0, "minus": 12, "iterations": 12, "games": 96}, losses
    assert "lost on time: 0 by theta+, 12 by theta-" in r.stdout, r.stdout
    # A state with no finished iteration, and --json without --report, are refused.
    state["history"], state["done"], state["games"] = [], 0, 0
    json.dump(state, open(path, "w"))
    expect_error(["--report", path], "no finished iterations to report on")
    expect_error(["--state", path, "--resume", "--json", out], "--json goes with --report")


def expect_error(args, text):
    r = spsa(args, check=False)
    lines = r.stderr.strip().splitlines()
    ok = r.returncode == 1 and len(lines) == 1 and "Traceback" not in r.stderr and text in lines[0]
    assert ok, "spsa %s: exit %d, want '%s', stderr:\n%s" % (" ".join(args), r.returncode, text,
                                                            r.stderr)


def test_bad_flags(work, fake):
    s = os.path.join(work, "bad.json")
    base = ["--state", s, "--iterations", "3", "--nodes", "100", "--engine", fake, "--match", fake]
    expect_error(base + ["--params", "rfp_margin,bogus"], "unknown parameter 'bogus'")
    expect_error(base + ["--params", "rfp_margin,rfp_margin"], "'rfp_margin' given twice")
    expect_error(base, "--params: name the parameters")
    expect_error(base + ["--params", "rfp_margin", "--tc", "5+0.05"], "one of --nodes N and --tc")
    expect_error(["--state", s, "--params", "rfp_margin", "--iterations", "3", "--tc", "fast",
                  "--engine", fake, "--match", fake], "--tc: 'fast' is not BASE+INC")
    expect_error(base + ["--params", "rfp_margin", "--pairs", "0"], "--pairs: need >= 1")
    expect_error(["--state", s, "--params", "rfp_margin", "--iterations", "0", "--nodes", "1",
                  "--engine", fake, "--match", fake], "--iterations: give a count >= 1")
    expect_error(base[:-2] + ["--params", "rfp_margin", "--match", os.path.join(work, "nope")],
                 "--match: '%s' is not an executable file" % os.path.join(work, "nope"))
    expect_error(["--params", "rfp_margin"], "give --state FILE")
    # A state in a folder that does not exist, or under a regular file (issue 23): one line.
    expect_error(["--state", "/nonexistent/x.json", "--resume"], "/nonexistent/x.json")
    expect_error(base[:1] + [os.path.join(fake, "x.json")] + base[2:] + ["--params", "rfp_margin"],
                 "cannot create its lock file")
    expect_error(["--state", s, "--resume"], "%s: No such file or directory" % s)
    full = os.path.join(work, "full.json")
    expect_error(["--state", full, "--resume", "--nodes", "5"], "drop --nodes")
    expect_error(run_args(work, "full.json", fake, []), "exists: continue it with --resume")
    # A second run on a state in use is refused (two runs would overwrite each other's theta).
    with open(full + ".lock", "a") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        expect_error(["--state", full, "--resume"], "is in use by another spsa run")
    junk = os.path.join(work, "junk.json")
    open(junk, "w").write("{not json")
    expect_error(["--state", junk, "--resume"], "not JSON")
    expect_error(["--apply", junk], "not JSON")
    # A match that fails names its command and exit status; the state keeps what was done.
    expect_error(["--state", os.path.join(work, "fail.json"), "--params", "rfp_margin",
                  "--iterations", "3", "--nodes", "100", "--engine", fake, "--match", "/bin/false"],
                 "match failed (exit 1)")


def main():
    work = sys.argv[1]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    fake = os.path.join(work, "fake_match")
    open(fake, "w").write(FAKE_MATCH)
    os.chmod(fake, 0o755)
    mod = load_spsa()
    test_update_by_hand(mod)
    test_resume(work, fake)
    test_sigterm(work, fake)
    test_apply(mod, work)
    test_report(work)
    test_bad_flags(work, fake)
    print("test_spsa: all passed")


if __name__ == "__main__":
    main()
