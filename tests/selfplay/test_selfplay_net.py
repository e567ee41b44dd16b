#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""hansu-selfplay --evalfile NET / --classical: self-play evaluated by a net. A random janggi net
(scripts/nnue_random.py) plays a tiny run; the run records the net (run_config ` net=<16 hex>`,
the --json fields `evaluation` and `net_sha256`, the summary line), its stored scores differ
from the classical run of the same seed, a resume with the same net continues it and one with
the classical evaluation or another net is refused. Refused before any game: a net of another
variant, a damaged net, a missing one, and --classical with --evalfile.

Usage: test_selfplay_net.py HANSU_SELFPLAY WORK_DIR"""
import hashlib
import json
import os
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "scripts"))
import hansu_shard  # noqa: E402


def check(cond, msg):
    if not cond:
        sys.exit("FAIL: " + msg)


def run(binary, *args):
    p = subprocess.run([binary, *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout + p.stderr


def scores(folder):
    out = []
    for name in sorted(os.listdir(folder)):
        if name.startswith("shard-") and name.endswith(".h5"):
            with hansu_shard.open_shard(os.path.join(folder, name)) as f:
                out.extend(int(x) for x in f["positions/score"][:])
                config = hansu_shard.attrs(f)["run_config"]
    return out, config


def main(binary, work):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    nets = {}
    for variant, seed in (("janggi", 3), ("janggi", 4), ("xiangqi", 3)):
        path = os.path.join(work, "%s-%d.nnue" % (variant, seed))
        subprocess.run(["/usr/bin/python3", os.path.join(REPO, "scripts", "nnue_random.py"), path,
                        "--variant", variant, "--seed", str(seed)], check=True)
        nets[(variant, seed)] = path
    net = nets[("janggi", 3)]
    sha = hashlib.sha256(open(net, "rb").read()).hexdigest()
    common = ["--games", "4", "--nodes", "300", "--threads", "1", "--no-bench", "--seed", "5",
              "--progress", "1000"]

    a = os.path.join(work, "net")
    rc, text = run(binary, *common, "--evalfile", net, "--out", a, "--json", a + ".json")
    check(rc == 0, "run with a net failed: " + text)
    check("evaluation        nnue, net SHA-256 " + sha in text, "summary names the net: " + text)
    js = json.load(open(a + ".json"))
    check(js["evaluation"] == "nnue" and js["net_sha256"] == sha, "json: %r" % js)
    net_scores, config = scores(a)
    check(" net=" + sha[:16] in config, "run_config names the net: " + config)

    b = os.path.join(work, "classical")
    rc, text = run(binary, *common, "--classical", "--out", b, "--json", b + ".json")
    check(rc == 0, "classical run failed: " + text)
    check("evaluation        classical" in text, "summary says classical: " + text)
    check(json.load(open(b + ".json"))["evaluation"] == "classical", "json says classical")
    classical_scores, config = scores(b)
    check(" net=" not in config, "a classical run_config names no net: " + config)
    check(net_scores != classical_scores, "the net's games are not the classical ones")

    # Without --evalfile or --classical: janggi's compiled-in net where it ships one
    # (engine/janggi/net.nnue), else the classical evaluation.
    shipped = os.path.join(REPO, "engine", "janggi", "net.nnue")
    d = os.path.join(work, "default")
    rc, text = run(binary, "--games", "2", "--nodes", "100", "--threads", "1", "--no-bench",
                   "--seed", "5", "--progress", "1000", "--out", d)
    check(rc == 0, "default run failed: " + text)
    want = ("evaluation        nnue, net SHA-256 " +
            hashlib.sha256(open(shipped, "rb").read()).hexdigest()
            if os.path.exists(shipped) else "evaluation        classical")
    check(want in text, "default run's evaluation: want %r in %s" % (want, text))

    # A resume needs the same evaluation.
    more = [x if x != "4" else "6" for x in common]
    for other in (["--classical"], ["--evalfile", nets[("janggi", 4)]]):
        rc, text = run(binary, *more, *other, "--out", a, "--resume")
        check(rc != 0 and "other settings" in text and "net=" in text,
              "resume with %s refused naming the net: %s" % (other, text))
    rc, text = run(binary, *more, "--evalfile", net, "--out", a, "--resume")
    check(rc == 0, "resume with the same net: " + text)
    check(len(scores(a)[0]) > len(net_scores), "the resumed run has more positions")

    # Refused before any game, naming the file and the reason.
    bad = os.path.join(work, "damaged.nnue")
    data = bytearray(open(net, "rb").read())
    data[len(data) // 2] ^= 0x10
    open(bad, "wb").write(bytes(data))
    cases = [
        (["--evalfile", nets[("xiangqi", 3)]], "a net for xiangqi, not for janggi"),
        (["--evalfile", bad], "damaged.nnue"),
        (["--evalfile", os.path.join(work, "missing.nnue")], "missing.nnue"),
        (["--classical", "--evalfile", net], "--classical and --evalfile exclude each other"),
    ]
    for k, (args, want) in enumerate(cases):
        out = os.path.join(work, "refused-%d" % k)
        rc, text = run(binary, *common, *args, "--out", out)
        check(rc == 2 and want in text, "%s: rc %d, %s" % (args, rc, text))
        check(not os.path.exists(out), "%s: refused run left a folder" % args)
    # A xiangqi run takes a xiangqi net.
    x = os.path.join(work, "xiangqi")
    rc, text = run(binary, *common, "--variant", "xiangqi", "--evalfile", nets[("xiangqi", 3)],
                   "--out", x)
    check(rc == 0 and "evaluation        nnue" in text, "xiangqi with its net: " + text)
    print("ok: self-play with a net, its record, resume and refusals")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
