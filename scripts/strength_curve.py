# SPDX-License-Identifier: MIT
"""The strength limiter's path measured as one curve: Elo as a smooth function of the path
position x (engine/strength.c: the node cap grows geometrically with x and the skill linearly, so
Elo is close to linear in x), fitted to the levels' measured Elos by weighted least squares, each
level weighted by 1 / its variance (its 95 % error / 1.96, squared).

Why a curve and not the points themselves: each level's own games place it to about +-60 to
+-140; a table through the points carries that noise into every row (and a refit on the next
tournament moves every row by as much). The curve pools the levels: its error at any x is that of
all the games, and whether the levels agree with it is shown by chi-square against its degrees of
freedom (chi2 much above dof: the curve's form does not hold, or the errors are too small).

Its errors come from the same simulations as the levels' (rating_list.simulate_draws): the curve
is refitted on each simulated set of ratings, with the same weights, so that what the levels
share (the anchors, games against each other) is counted once. Used by calibrate-strength rate
--fit.
"""
import math

import rating_list  # beside this script


def solve(m, v):
    """The solution of the square linear system m x = v (Gaussian elimination with partial
    pivoting); ValueError when m is singular."""
    n = len(v)
    a = [list(row) + [v[i]] for i, row in enumerate(m)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        if abs(a[p][c]) < 1e-12:
            raise ValueError("singular system")
        a[c], a[p] = a[p], a[c]
        for r in range(c + 1, n):
            f = a[r][c] / a[c][c]
            for k in range(c, n + 1):
                a[r][k] -= f * a[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][k] * x[k] for k in range(r + 1, n))) / a[r][r]
    return x


def polyfit(xs, ys, ws, degree):
    """Coefficients [c0, c1, ...] of the polynomial of `degree` that minimises
    sum w (y - c0 - c1 x - ...)^2 (the normal equations)."""
    k = degree + 1
    m = [[sum(w * x ** (i + j) for x, w in zip(xs, ws)) for j in range(k)] for i in range(k)]
    v = [sum(w * y * x ** i for x, y, w in zip(xs, ys, ws)) for i in range(k)]
    return solve(m, v)


def value(coef, x):
    """The polynomial coef at x."""
    return sum(c * x ** i for i, c in enumerate(coef))


def increasing(coef, lo, hi):
    """Whether the polynomial rises over [lo, hi] (its slope positive at both ends and, being at
    most quadratic, between them)."""
    slope = lambda x: sum(i * c * x ** (i - 1) for i, c in enumerate(coef) if i)
    return slope(lo) > 0 and slope(hi) > 0


def fit(points, errors):
    """The curve of points [(x, elo)] (x in [0, 1]) with 95 % errors [e]: a dict {"degree",
    "coefficients", "weights" (each point's), "chi2", "dof", "x_min", "x_max", "scale"
    (scale_factor)}. Quadratic where it has 4 points or more at 3 x or more and rises over their
    range, else linear (2 x or more); ValueError otherwise. Each point is weighted by 1 / its
    variance; a zero error (an anchor-like level) is taken as 1 Elo."""
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    ws = [1.0 / max(e / 1.96, 1.0) ** 2 for e in errors]
    lo, hi = min(xs), max(xs)
    distinct = len(set(xs))
    if distinct < 2:
        raise ValueError("the levels played fewer than two path positions: no curve")
    coef = None
    if len(points) >= 4 and distinct >= 3:
        coef = polyfit(xs, ys, ws, 2)
        if not increasing(coef, lo, hi):
            coef = None
    if coef is None:
        coef = polyfit(xs, ys, ws, 1)
        if coef[1] <= 0:
            raise ValueError("the levels' Elo does not rise with x: no curve")
    chi2 = sum(w * (y - value(coef, x)) ** 2 for x, y, w in zip(xs, ys, ws))
    curve = {"degree": len(coef) - 1, "coefficients": coef, "weights": ws, "chi2": chi2,
             "dof": len(points) - len(coef), "x_min": lo, "x_max": hi}
    curve["scale"] = scale_factor(curve)
    return curve


def grid(x_min, x_max, step=0.05):
    """The x of a table's rows: x_min, the multiples of step between, x_max."""
    xs = [x_min]
    k = math.floor(x_min / step) + 1
    while k * step < x_max - 1e-9:
        if k * step > x_min + 1e-9:
            xs.append(round(k * step, 6))
        k += 1
    if x_max > x_min:
        xs.append(x_max)
    return xs


def errors_at(curve, points, draws, xs):
    """95 % errors of the curve at each of xs: the curve (its degree, its weights) refitted on
    each simulated set of the points' Elos, draws[s] = [elo of each point], the half-width of its
    value at x over the simulations, times the curve's scale (scale_factor); None where fewer than
    2 simulations had a fit."""
    pxs = [x for x, _ in points]
    ws = curve["weights"]
    vals = [[] for _ in xs]
    for d in draws:
        try:
            c = polyfit(pxs, d, ws, curve["degree"])
        except ValueError:
            continue
        for i, x in enumerate(xs):
            vals[i].append(value(c, x))
    return [rating_list.half_width(v) * curve["scale"] if len(v) >= 2 else None for v in vals]


def scale_factor(curve):
    """How much the levels scatter about the curve beyond their errors: sqrt(chi2 / dof) where
    that is above 1 (the levels disagree with one curve by more than their games explain: a
    tournament's own offset, or a form the quadratic misses), else 1; the curve's errors are
    multiplied by it (the Particle Data Group's scale factor)."""
    if curve["dof"] <= 0 or curve["chi2"] <= curve["dof"]:
        return 1.0
    return math.sqrt(curve["chi2"] / curve["dof"])


def table(points, errors, draws, step=0.05):
    """The curve and the table that follows it: (curve, rows), rows [(elo, x_milli, error)] at
    grid(x range of the points, step), Elo rounded and at least 1 apart (the engine interpolates
    between rows linearly), error its 95 % error, scaled by scale_factor (None without
    simulations)."""
    curve = fit(points, errors)
    xs = grid(curve["x_min"], curve["x_max"], step)
    errs = errors_at(curve, points, draws, xs) if draws else [None] * len(xs)
    rows, last = [], None
    for x, e in zip(xs, errs):
        elo = round(value(curve["coefficients"], x))
        if last is not None and elo <= last:
            elo = last + 1
        rows.append((elo, round(x * 1000), e))
        last = elo
    return curve, rows
