#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/nnue_random.py and `hansu bench --evalfile` (issue 26): the random net the speed
benchmark uses loads in the engine (bench runs, the same seed writes the same bytes, the net
changes the search; --arch palace, --l1 and --out-buckets write format-2 nets that load and
search; --palace-copy of a plain net searches the plain net's tree, and refuses a net that is not
a plain one), a net of the other variant and a truncated one are refused by name with
exit status 1, --classical with --evalfile is a usage error.
Usage: test_nnue_random.py HANSU WORK_DIR"""
import os
import shutil
import subprocess
import sys

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts",
                      "nnue_random.py")


def bench(hansu, *args):
    return subprocess.run([hansu, "bench", *args], capture_output=True, text=True)


def nodes(r):
    assert r.returncode == 0, r.stderr
    return int(r.stdout.split("Nodes searched: ")[1].split()[0])


def main():
    hansu, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    nets = {}
    for variant in ("janggi", "xiangqi"):
        nets[variant] = os.path.join(work, variant + ".nnue")
        subprocess.run([sys.executable, SCRIPT, nets[variant], "--variant", variant, "--seed", "3"],
                       check=True)
    again = os.path.join(work, "again.nnue")
    subprocess.run([sys.executable, SCRIPT, again, "--seed", "3"], check=True)
    assert open(again, "rb").read() == open(nets["janggi"], "rb").read(), "same seed, other bytes"

    classical = nodes(bench(hansu, "--classical", "3"))
    # Without a flag: the variant's compiled-in net where one ships, else the classical bench.
    for variant in ("janggi", "xiangqi"):
        flags = ["--variant", variant]
        shipped = os.path.join(os.path.dirname(SCRIPT), "..", "engine", variant, "net.nnue")
        default = nodes(bench(hansu, *flags, "3"))
        plain = nodes(bench(hansu, *flags, "--classical", "3"))
        if os.path.exists(shipped):
            assert default == nodes(bench(hansu, *flags, "--evalfile", shipped, "3")), \
                f"{variant}: not the shipped net"
            assert default != plain, f"{variant}: the compiled-in net did not change the search"
        else:
            assert default == plain, f"{variant}: no net ships, yet not the classical bench"
    with_net = nodes(bench(hansu, "--evalfile", nets["janggi"], "3"))
    assert with_net != classical, "the net did not change the search"
    assert nodes(bench(hansu, "--evalfile", nets["janggi"], "3")) == with_net
    nodes(bench(hansu, "--variant", "xiangqi", "--evalfile", nets["xiangqi"], "3"))
    # The architectures of format version 2: each loads (the header names it) and searches.
    for arch, l1, outs in (("plain", 512, 1), ("palace", 256, 1), ("plain", 256, 8)):
        path = os.path.join(work, f"{arch}-{l1}-{outs}.nnue")
        subprocess.run([sys.executable, SCRIPT, path, "--arch", arch, "--l1", str(l1), "--seed",
                        "3", "--out-buckets", str(outs)], check=True)
        assert open(path, "rb").read()[8] == 2, f"{arch} {l1} {outs}: not format version 2"
        assert nodes(bench(hansu, "--evalfile", path, "3")) != with_net, \
            f"{arch} {l1} {outs}: same search"
    # A palace copy of a plain net: 9 buckets of its rows, the same tree at any depth, both
    # variants (janggi's bench makes thousands of general's moves: refreshes, through the
    # accumulator cache).
    for variant in ("janggi", "xiangqi"):
        copy = os.path.join(work, variant + "-palace.nnue")
        subprocess.run([sys.executable, SCRIPT, copy, "--palace-copy", nets[variant]], check=True)
        assert open(copy, "rb").read()[8] == 2, "the palace copy is not format version 2"
        for depth in ("3", "6"):
            flags = ["--variant", variant, depth]
            assert nodes(bench(hansu, "--evalfile", copy, *flags)) == \
                nodes(bench(hansu, "--evalfile", nets[variant], *flags)), f"{variant} {depth}"
    for src in (os.path.join(work, "palace-256-1.nnue"), os.path.join(work, "missing.nnue")):
        r = subprocess.run([sys.executable, SCRIPT, os.path.join(work, "x.nnue"),
                            "--palace-copy", src], capture_output=True, text=True)
        assert r.returncode == 1 and src in r.stderr and "Traceback" not in r.stderr, r.stderr
        assert not os.path.exists(os.path.join(work, "x.nnue"))

    cut = os.path.join(work, "cut.nnue")
    with open(cut, "wb") as f:
        f.write(open(nets["janggi"], "rb").read()[:5000])
    for path, reason in ((nets["xiangqi"], "a net for xiangqi, not for janggi"),
                         (cut, "truncated"), (os.path.join(work, "missing.nnue"), "missing")):
        r = bench(hansu, "--evalfile", path, "3")
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 1 and len(lines) == 1 and path in lines[0], r.stderr
        assert reason == "missing" or reason in lines[0], r.stderr
    r = bench(hansu, "--classical", "--evalfile", nets["janggi"], "3")
    assert r.returncode == 2 and "exclude" in r.stderr, r.stderr
    shutil.rmtree(work)
    print("ok")


if __name__ == "__main__":
    main()
