#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The Python decoder of the packed board (scripts/board_decode.py) against the C decoder:
plays a tiny run with hansu-selfplay, then compares `hansu-selfplay show` with the Python
output row by row, and decode_many with decode.
Usage: test_board_decode.py HANSU_SELFPLAY WORK_DIR"""
import os
import shutil
import subprocess
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import board_decode  # noqa: E402


def main(binary, work):
    shutil.rmtree(work, ignore_errors=True)
    subprocess.run([binary, "--games", "16", "--threads", "2", "--nodes", "64", "--hash", "1",
                    "--no-bench", "--out", work], check=True, stdout=subprocess.DEVNULL)
    shard = os.path.join(work, "shard-000000.h5")
    c_lines = subprocess.run([binary, "show", shard], check=True, capture_output=True,
                             text=True).stdout.splitlines()
    with h5py.File(shard, "r") as f:
        pos = f["positions"]
        boards, stm, ply = pos["board"][:], pos["stm"][:], pos["ply"][:]
        moves, scores = pos["move"][:], pos["score"][:]
    assert len(c_lines) == len(boards) > 0, (len(c_lines), len(boards))
    for r in range(len(boards)):
        py = "%d  %s  %s  score %d" % (r, board_decode.to_fen(boards[r], stm[r], ply[r]),
                                       board_decode.move_to_uci(moves[r]), scores[r])
        assert py == c_lines[r], "row %d:\n  C:      %s\n  Python: %s" % (r, c_lines[r], py)
    many = board_decode.decode_many(boards)
    for r in range(len(boards)):
        assert np.array_equal(many[r], board_decode.decode(boards[r])), r
    print("Python and C decoders agree on %d positions" % len(boards))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
