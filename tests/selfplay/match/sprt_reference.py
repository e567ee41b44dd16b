#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The normalised-Elo GSPRT's LLR by brute force, the source of the reference values in
test_stats.c (test_sprt_wide_bounds); not run by ctest (minutes, and numpy and scipy).

For each t it finds max sum_i w_i log p_i over the p with (mu - 1/2) / sigma = t without the
Lagrange multipliers stats.c solves for: a grid over the middle classes' probabilities (logit
spaced, so that nearly degenerate p are in it), every root in the top class's probability of the
constraint for each grid point, then SLSQP in softmax coordinates from the 25 best grid points.
w are the counts with empty classes as 0.001 (as fastchess and stats.c count them), scores
0, 1/2, 1 (W/D/L) or 0, 1/4, ..., 1 (pentanomial, t = sqrt(2) nElo / (800 / ln 10)).

Usage: sprt_reference.py ELO0 ELO1 C0 C1 C2 [C3 C4]   (counts from the lowest score: losses
       first, or LL first)"""
import sys

import numpy as np
from scipy.optimize import brentq, minimize

SCALE = 800.0 / np.log(10.0)


def sig(z):
    return 1.0 / (1.0 + np.exp(-z))


def best_on_grid(a, w, t, mid, m=400):
    """For each row of middle-class probabilities, the best sum w log p over the roots in the
    top class's probability x (p_0 = 1 - sum(mid) - x), found by a scan and bisection."""
    r = 1.0 - mid.sum(axis=1)
    z = np.unique(np.concatenate([sig(np.linspace(-30, 30, m)), np.linspace(0, 1, m + 2)[1:-1]]))
    xs = np.clip(r, 1e-300, None)[:, None] * z[None, :]
    am = np.array(a[1:-1])
    mu0, m20 = mid @ am, mid @ (am * am)

    def g(mu0_, m20_, x):
        mu = mu0_ + a[-1] * x
        return mu - 0.5 - t * np.sqrt(np.maximum(m20_ + a[-1] ** 2 * x - mu * mu, 0.0))

    gx = g(mu0[:, None], m20[:, None], xs)
    out = np.full(len(mid), -np.inf)
    gi, xi = np.nonzero((np.sign(gx[:, :-1]) != np.sign(gx[:, 1:])) & (r > 0)[:, None])
    lo, hi, glo = xs[gi, xi].copy(), xs[gi, xi + 1].copy(), gx[gi, xi].copy()
    for _ in range(100):
        mid_x = 0.5 * (lo + hi)
        gm = g(mu0[gi], m20[gi], mid_x)
        same = np.sign(gm) == np.sign(glo)
        lo, glo, hi = np.where(same, mid_x, lo), np.where(same, gm, glo), np.where(same, hi, mid_x)
    x = 0.5 * (lo + hi)
    p0 = r[gi] - x
    with np.errstate(divide="ignore", invalid="ignore"):
        ll = w[0] * np.log(p0) + w[-1] * np.log(x) + (np.log(mid[gi]) * w[1:-1]).sum(axis=1)
    ll = np.where((p0 > 0) & (x > 0) & np.all(mid[gi] > 0, axis=1), ll, -np.inf)
    np.maximum.at(out, gi, ll)
    return out


def full_p(a, w, t, mid):
    """The whole p of the best root for one row of middle probabilities (None: no root)."""
    r = 1.0 - mid.sum()
    am = np.array(a[1:-1])

    def g(x):
        mu = mid @ am + a[-1] * x
        return mu - 0.5 - t * np.sqrt(max(mid @ (am * am) + a[-1] ** 2 * x - mu * mu, 0.0))

    xs = r * np.unique(np.concatenate([sig(np.linspace(-30, 30, 2000)),
                                       np.linspace(0, 1, 2002)[1:-1]]))
    gx = np.array([g(x) for x in xs])
    best, best_p = -np.inf, None
    for k in np.nonzero(np.sign(gx[:-1]) != np.sign(gx[1:]))[0]:
        x = brentq(g, xs[k], xs[k + 1], xtol=1e-300, rtol=1e-15, maxiter=500)
        p = np.concatenate([[r - x], mid, [x]])
        if np.all(p > 0) and np.sum(w * np.log(p)) > best:
            best, best_p = np.sum(w * np.log(p)), p
    return best_p


def polish(a, w, t, p):
    """SLSQP from p in softmax coordinates; -inf where it ends off the constraint."""
    sc = np.array(a)

    def unpack(z):
        e = np.exp(z - z.max())
        return e / e.sum()

    def constraint(z):
        q = unpack(z)
        mu = q @ sc
        return mu - 0.5 - t * np.sqrt(max(q @ (sc - mu) ** 2, 0.0))

    res = minimize(lambda z: -float(np.sum(w * np.log(unpack(z)))), np.log(p), method="SLSQP",
                   constraints=[{"type": "eq", "fun": constraint}],
                   options={"ftol": 1e-15, "maxiter": 2000})
    if abs(constraint(res.x)) > 1e-12:
        return -np.inf
    return float(np.sum(w * np.log(unpack(res.x))))


def max_loglik(a, w, t):
    k = len(a) - 2
    vals = sig(np.linspace(-14, 8, 40 if k == 3 else 4000))
    mid = np.stack([g.ravel() for g in np.meshgrid(*([vals] * k), indexing="ij")], axis=1)
    mid = mid[mid.sum(axis=1) < 1.0]
    ll = best_on_grid(a, w, t, mid)
    best = -np.inf
    for j in np.argsort(-ll)[:25]:
        if np.isfinite(ll[j]):
            best = max(best, ll[j])
            p = full_p(a, w, t, mid[j])
            if p is not None:
                best = max(best, polish(a, w, t, p))
    return best


def llr(counts, elo0, elo1):
    n = len(counts)
    if sum(counts) == 0:
        return 0.0
    a = [i / (n - 1) for i in range(n)]
    c = np.array([x if x > 0 else 1e-3 for x in counts], float)
    w = c / c.sum()
    k = np.sqrt(2.0) if n == 5 else 1.0
    return c.sum() * (max_loglik(a, w, k * elo1 / SCALE) - max_loglik(a, w, k * elo0 / SCALE))


if __name__ == "__main__":
    print(f"{llr([int(x) for x in sys.argv[3:]], float(sys.argv[1]), float(sys.argv[2])):.9g}")
