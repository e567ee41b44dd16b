#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The Python helpers on damaged and foreign input (issue 10): scripts/hansu_shard.py refuses
every one of 300 seeded single-bit flips of a small shard by name, and selfplay_stats.py,
board_decode.py and plot_loss.py answer bad input with one line on stderr naming the file and
exit status 1, never a traceback.
Usage: test_script_errors.py HANSU_SELFPLAY WORK_DIR"""
import os
import random
import shutil
import subprocess
import sys

import h5py
import numpy as np

SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts")
sys.path.insert(0, SCRIPTS)
import hansu_shard  # noqa: E402


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def expect_one_line_error(script, args, name):
    r = subprocess.run([sys.executable, os.path.join(SCRIPTS, script)] + args,
                       capture_output=True, text=True)
    lines = r.stderr.strip().splitlines()
    ok = (r.returncode == 1 and len(lines) == 1 and "Traceback" not in r.stderr
          and name in lines[0])
    assert ok, "%s %s: exit %d, stderr:\n%s" % (script, " ".join(args), r.returncode, r.stderr)


def shard_cases(work, shard):
    """Damaged and foreign files, each named for what it is."""
    good = open(shard, "rb").read()
    cases = {}
    flipped = bytearray(good)
    flipped[len(good) // 2] ^= 8
    cases["flipped.h5"] = bytes(flipped)
    cases["text.h5"] = b"not an HDF5 file\n"
    cases["empty.h5"] = b""
    cases["truncated.h5"] = good[: len(good) // 2]
    cases["header-only.h5"] = good[:300]
    for name, data in cases.items():
        write(os.path.join(work, name), data)
    with h5py.File(os.path.join(work, "foreign.h5"), "w") as f:
        f["x"] = np.arange(4)
    old = os.path.join(work, "schema1.h5")  # as written before digests: no header
    write(old, bytes(512) + good[512:])
    return sorted(list(cases) + ["foreign.h5", "schema1.h5"])


def main(binary, work):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    subprocess.run([binary, "--games", "3", "--threads", "1", "--nodes", "20", "--hash", "1",
                    "--no-bench", "--out", os.path.join(work, "run")], check=True,
                   stdout=subprocess.DEVNULL)
    shard = os.path.join(work, "run", "shard-000000.h5")
    good = open(shard, "rb").read()
    with hansu_shard.open_shard(shard) as f:
        assert hansu_shard.attrs(f)["format"] == "hansu-selfplay"
    # Every single-bit flip is refused, by name, before h5py parses anything.
    rng = random.Random(10)
    target = os.path.join(work, "flip.h5")
    for i in range(300):
        data = bytearray(good)
        bit = rng.randrange(len(data) * 8)
        data[bit // 8] ^= 1 << (bit % 8)
        write(target, bytes(data))
        try:
            hansu_shard.open_shard(target)
        except hansu_shard.ShardError as e:
            assert target in str(e), str(e)
        else:
            raise AssertionError("flip %d (bit %d) accepted" % (i, bit))
    for name in shard_cases(work, shard):
        path = os.path.join(work, name)
        expect_one_line_error("selfplay_stats.py", [path], path)
        expect_one_line_error("board_decode.py", [path], path)
    expect_one_line_error("board_decode.py", [shard, "100000"], shard)  # no such row
    os.makedirs(os.path.join(work, "nothing"), exist_ok=True)
    expect_one_line_error("selfplay_stats.py", [os.path.join(work, "nothing")], "nothing")
    # plot_loss.py on CSVs that are not loss curves.
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("matplotlib missing: plot_loss.py not checked")
        return 0
    csvs = {"garbage.csv": bytes(range(256)) * 4,
            "nul.csv": b"epoch,train_mse,valid_mse,seconds\n0,0.1\x00,0.2,0\n",
            "columns.csv": b"a,b\n1,2\n",
            "short.csv": b"epoch,train_mse,valid_mse,seconds\n0,0.1\n",
            "text.csv": b"epoch,train_mse,valid_mse,seconds\nx,y,z,w\n"}
    for name, data in csvs.items():
        path = os.path.join(work, name)
        write(path, data)
        expect_one_line_error("plot_loss.py", [path, os.path.join(work, "out.png")], path)
    expect_one_line_error("plot_loss.py", [os.path.join(work, "missing.csv")], "missing.csv")
    good_csv = os.path.join(work, "good.csv")
    write(good_csv, b"epoch,train_mse,valid_mse,seconds\n0,0.2,0.21,0\n1,0.19,0.2,1\n")
    expect_one_line_error("plot_loss.py", [good_csv, "/nonexistent-dir/out.png"],
                          "/nonexistent-dir/out.png")
    print("Python helpers: 300 flips refused, every bad input a one-line error")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
