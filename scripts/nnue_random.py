#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes a .nnue file (docs/nnue.md: format version 1 for a plain L1-256 net, else version 2) with
# random weights in the ranges a trained net has, for speed measurements of the NNUE engine before
# a trained net exists (scripts/bench-nnue-speed.sh). Not a net to play with: its evaluation is
# noise. With --palace-copy PLAIN.nnue (a format-version-1 net) it writes instead the palace net
# whose 9 buckets are copies of that plain net's rows: it evaluates every position as the plain
# net does, so its bench searches the same tree and only the cost of the buckets (the refreshes
# after a general's move) differs (docs/nnue.md, "Palace buckets: refreshes and their cost").
# Usage: scripts/nnue_random.py OUT.nnue [--variant janggi] [--seed 1] [--arch plain|palace]
#        [--l1 N] [--out-buckets N]
#        scripts/nnue_random.py OUT.nnue --palace-copy PLAIN.nnue
import argparse
import json
import random
import struct
import sys
import zlib

INPUTS, QA, QB, SCALE = 1260, 255, 256, 400
ARCHS = {"plain": (1, 1), "palace": (2, 9)}  # input set number, input buckets


def header_v2(variant: bytes, input_set: int, buckets: int, l1: int, outs: int, qa: int, qb: int,
              scale: int, prov: bytes) -> bytes:
    """The header of a format-version-2 net (docs/nnue.md), variant padded to 16 bytes."""
    return (b"HNSUNNUE" + struct.pack("<I", 2) + variant.ljust(16, b"\0") +
            struct.pack("<IIIIIIIIIiI", input_set, INPUTS, buckets, l1, outs,
                        1 if outs > 1 else 0, 1, qa, qb, scale, len(prov)) + prov)


def write_net(path: str, data: bytes) -> int:
    """Writes data and its CRC-32 to path; 0, or 1 with a message."""
    try:
        with open(path, "wb") as f:
            f.write(data + struct.pack("<I", zlib.crc32(data) & 0xFFFFFFFF))
    except OSError as e:
        print(f"nnue_random.py: cannot write {path}: {e.strerror}", file=sys.stderr)
        return 1
    return 0


def palace_copy(src: str, out: str) -> int:
    """Writes to out the palace net of src's rows in every bucket; 0, or 1 with a message."""
    try:
        with open(src, "rb") as f:
            data = f.read()
    except OSError as e:
        print(f"nnue_random.py: cannot read {src}: {e.strerror}", file=sys.stderr)
        return 1
    if len(data) < 64 or data[:8] != b"HNSUNNUE" or struct.unpack_from("<I", data, 8)[0] != 1:
        print(f"nnue_random.py: {src} is not a format-version-1 (plain) Hansu net", file=sys.stderr)
        return 1
    if zlib.crc32(data[:-4]) & 0xFFFFFFFF != struct.unpack_from("<I", data, len(data) - 4)[0]:
        print(f"nnue_random.py: {src}: checksum mismatch (damaged)", file=sys.stderr)
        return 1
    input_set, inputs, l1, outs, qa, qb, scale, nprov = struct.unpack_from("<IIIIIIiI", data, 28)
    body = 60 + nprov
    size = body + 2 * l1 + 2 * inputs * l1 + 4 * l1 + 4 + 4
    if (input_set, inputs, outs) != (1, INPUTS, 1) or len(data) != size:
        print(f"nnue_random.py: {src}: not a plain net of {INPUTS} inputs", file=sys.stderr)
        return 1
    prov = b'{"palace_copy_of": %s}' % json.dumps(src).encode()
    bias = data[body:body + 2 * l1]
    rows = data[body + 2 * l1:body + 2 * l1 + 2 * inputs * l1]
    rest = data[body + 2 * l1 + 2 * inputs * l1:-4]
    head = header_v2(data[12:28], 2, 9, l1, 1, qa, qb, scale, prov)
    return write_net(out, head + bias + rows * 9 + rest)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("out")
    ap.add_argument("--variant", default="janggi")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--arch", choices=sorted(ARCHS), default="plain")
    ap.add_argument("--l1", type=int, default=256)
    ap.add_argument("--out-buckets", type=int, default=1)
    ap.add_argument("--palace-copy", metavar="PLAIN", help="copy a plain net into 9 buckets")
    a = ap.parse_args()
    if a.palace_copy:
        return palace_copy(a.palace_copy, a.out)
    if a.out_buckets < 1 or a.out_buckets > 8:
        print(f"nnue_random.py: --out-buckets {a.out_buckets} is not 1 to 8", file=sys.stderr)
        return 2
    if a.l1 <= 0 or a.l1 > 512 or a.l1 % 32:
        print(f"nnue_random.py: --l1 {a.l1} is not a multiple of 32 up to 512", file=sys.stderr)
        return 2
    if len(a.variant.encode()) > 15:
        print(f"nnue_random.py: variant name '{a.variant}' is longer than 15 bytes", file=sys.stderr)
        return 2
    rng = random.Random(a.seed)
    prov = ('{"trainer": "scripts/nnue_random.py", "seed": %d}' % a.seed).encode()
    input_set, buckets = ARCHS[a.arch]
    L1 = a.l1
    outs = a.out_buckets
    version = 1 if (a.arch, L1, outs) == ("plain", 256, 1) else 2
    if version == 1:
        head = (b"HNSUNNUE" + struct.pack("<I", 1) + a.variant.encode().ljust(16, b"\0") +
                struct.pack("<IIIIIIiI", 1, INPUTS, L1, 1, QA, QB, SCALE, len(prov)) + prov)
    else:
        head = header_v2(a.variant.encode(), input_set, buckets, L1, outs, QA, QB, SCALE, prov)
    bias = [rng.randint(-200, 300) for _ in range(L1)]
    weights = [rng.randint(-90, 90) for _ in range(buckets * INPUTS * L1)]
    out = [rng.randint(-127, 127) for _ in range(outs * 2 * L1)]
    body = struct.pack(f"<{L1}h", *bias) + struct.pack(f"<{buckets * INPUTS * L1}h", *weights)
    body += struct.pack(f"<{outs * 2 * L1}h", *out)
    body += struct.pack(f"<{outs}i", *[rng.randint(-10**6, 10**6) for _ in range(outs)])
    return write_net(a.out, head + body)


if __name__ == "__main__":
    sys.exit(main())
