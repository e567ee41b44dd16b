# SPDX-License-Identifier: MIT
"""What the scripts know of a variant, read from its one description, the `Variant` in
engine/<variant>/variant.c (no copy of its numbers here): the side names, the FEN letters, the
piece values and the win/draw/loss model (engine/wdl.h); and the model's formula itself, as
engine/wdl.c computes it. Used by scripts/fit-wdl.py and scripts/eval-audit.

    import variant_model
    v = variant_model.describe("xiangqi")    # {"wdl_scale": 420.0, "wdl_margin": 400.3, ...}
    w, d, l = variant_model.probs(150, v["wdl_scale"], v["wdl_margin"])
    e = variant_model.expected_score(150, v["wdl_scale"], v["wdl_margin"])   # w + d / 2
"""
import math
import os
import re

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class VariantError(Exception):
    """A variant Hansu does not play, or a description that cannot be read; one line."""


def sigmoid(x):
    return 1.0 / (1.0 + math.exp(-x)) if x > -700 else 0.0


def probs(cp, scale, margin):
    """(W, D, L) of a score cp (centipawns, the side's view) under engine/wdl.h's model:
    W = sigma((cp - margin) / scale), L = sigma((-cp - margin) / scale), D = 1 - W - L."""
    w = sigmoid((cp - margin) / scale)
    lo = sigmoid((-cp - margin) / scale)
    return w, max(1.0 - w - lo, 0.0), lo


def expected_score(cp, scale, margin):
    """The side's expected score W + D / 2 of a score cp under the model (probs)."""
    w, d, _ = probs(cp, scale, margin)
    return w + d / 2


def known():
    """The variants Hansu plays: the folders of engine/ that hold a variant.c, sorted."""
    base = os.path.join(REPO, "engine")
    try:
        names = os.listdir(base)
    except OSError:
        return []
    return sorted(n for n in names if os.path.isfile(os.path.join(base, n, "variant.c")))


def _field(text, name, path):
    m = re.search(r"^\s*\." + name + r"\s*=\s*(\{[^}]*\}|[^,\n]+)", text, re.M)
    if not m:
        raise VariantError(f"{path}: no .{name} in the Variant")
    return m.group(1).strip()


def _numbers(value):
    return [int(x) for x in re.findall(r"-?\d+", value.strip("{}"))]


def describe(variant):
    """{side_names, letters, points_half, exchange_half, wdl_scale, wdl_margin} of a variant's
    Variant (engine/<variant>/variant.c): letters[kind] the FEN letter of each piece kind (kind 0
    none), *_half[kind] a kind's value in half points (points_half all 0 where the variant counts
    no points, as xiangqi), wdl_* in centipawns. Raises VariantError for a variant Hansu does not
    play or a description it cannot read."""
    if variant not in known():
        raise VariantError(f"unknown variant '{variant}' (Hansu plays {', '.join(known())})")
    path = os.path.join(REPO, "engine", variant, "variant.c")
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as e:
        raise VariantError(f"{path}: {e.strerror}")
    text = text[text.find("const Variant VARIANT_"):]
    letters = re.fullmatch(r'"([^"]*)"', _field(text, "letters", path))
    sides = re.findall(r'"([^"]*)"', _field(text, "side_names", path))
    points = _numbers(_field(text, "points_half", path))
    exchange = _numbers(_field(text, "exchange_half", path))
    if not letters or len(sides) != 2 or not exchange:
        raise VariantError(f"{path}: letters, side_names or exchange_half not as expected")
    n = len(letters.group(1))
    try:
        scale = float(_field(text, "wdl_scale", path))
        margin = float(_field(text, "wdl_margin", path))
    except ValueError:
        raise VariantError(f"{path}: wdl_scale or wdl_margin is not a number")
    return {"side_names": sides, "letters": letters.group(1),
            "points_half": (points + [0] * n)[:n], "exchange_half": (exchange + [0] * n)[:n],
            "wdl_scale": scale, "wdl_margin": margin}
