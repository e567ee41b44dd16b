# SPDX-License-Identifier: MIT
"""A rating list fitted to the games of several tournaments at once, for scripts that join
hansu-match's tournament JSONs (docs/json-outputs.md): the logistic Elo model's maximum-likelihood
ratings with some players held at given Elos (anchors), errors from simulations over game pairs,
and an explicit prior where a pairing was won whole.

The model and its simulations are those of hansu-match's rating list (selfplay/match/tally/rating.h):
a game's expected score E = 1 / (1 + 10^(-(Ra - Rb) / 400)); each pairing's game pairs are drawn
again from its own pentanomial counts, so the two games of a pair are not taken as independent.
Two things differ, because a calibration needs them: several anchors may be fixed at once, and
the prior is a parameter, `prior` drawn games added to each pairing one side won whole (0: none;
the fit then exists only where every group of players scored against every other group, which
`finite_without_prior` tells), so that a report can vary it and show how far a rating leans on
it.
"""
import math
import random

UNIT = 400.0 / math.log(10)  # Elo per natural-log unit of the odds
PENTA = 5  # a pair scores 0, 1/2, 1, 3/2 or 2 points


class RatingError(Exception):
    """Bad input to the rating list (a player without games, an anchor that played none...)."""


def pairings_of(datas):
    """The game pairs of hansu-match tournament JSONs: a list of (a, b, penta) with penta the
    pentanomial counts from a's side (penta[h]: pairs in which a scored h/2 points). Pairings of
    the same two engines in several tournaments are joined; engines of one name are one player."""
    joined = {}
    for data in datas:
        for p in data.get("pairings", []):
            if not isinstance(p, dict) or not isinstance(p.get("engines"), list) or \
                    len(p["engines"]) != 2 or not all(isinstance(e, str) and e
                                                      for e in p["engines"]):
                raise RatingError(f"a pairing without two engines' names: {str(p)[:80]}")
            a, b = p["engines"]
            if a == b:
                raise RatingError(f"a pairing of {a} against itself")
            penta = p.get("pentanomial")
            if not isinstance(penta, list) or len(penta) != PENTA or \
                    any(not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < 10**9
                        for c in penta):
                raise RatingError(f"pairing {a} vs {b}: pentanomial {str(penta)[:80]} is not 5 "
                                  "counts below 10^9")
            if (b, a) in joined:
                a, b, penta = b, a, penta[::-1]
            acc = joined.setdefault((a, b), [0] * PENTA)
            for h in range(PENTA):
                acc[h] += penta[h]
    return [(a, b, penta) for (a, b), penta in joined.items() if sum(penta)]


def score(penta):
    """(points of the first player, games) of a pairing's pentanomial counts."""
    return sum(h * c for h, c in enumerate(penta)) / 2.0, 2.0 * sum(penta)


def won_whole(penta):
    points, games = score(penta)
    return games > 0 and points in (0.0, games)


def finite_without_prior(names, pairings):
    """Whether the maximum-likelihood ratings exist with no prior: every player can reach every
    other by a chain of 'scored a point or half against' (the graph is strongly connected)."""
    beat = {n: set() for n in names}  # a -> b: a scored against b
    for a, b, penta in pairings:
        points, games = score(penta)
        if points > 0:
            beat[a].add(b)
        if points < games:
            beat[b].add(a)

    def reach(start, edges):
        seen, todo = {start}, [start]
        while todo:
            for m in edges[todo.pop()]:
                if m not in seen:
                    seen.add(m)
                    todo.append(m)
        return seen

    back = {n: {m for m in names if n in beat[m]} for n in names}
    first = next(iter(names))
    return len(reach(first, beat)) == len(names) and len(reach(first, back)) == len(names)


def _solve(a, b):
    """x with a x = b (Gaussian elimination, partial pivoting); a is a list of rows, changed."""
    n = len(b)
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[p], b[c], b[p] = a[p], a[c], b[p], b[c]
        if abs(a[c][c]) < 1e-12:
            raise RatingError("the games do not tie every player to an anchor")
        for r in range(c + 1, n):
            f = a[r][c] / a[c][c]
            for k in range(c, n):
                a[r][k] -= f * a[c][k]
            b[r] -= f * b[c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (b[r] - sum(a[r][k] * x[k] for k in range(r + 1, n))) / a[r][r]
    return x


def fit(names, pairings, anchors, prior):
    """Maximum-likelihood Elo of every player in names (a dict name -> Elo), those of anchors
    (a dict name -> Elo) held fixed; prior: drawn games added to each pairing won whole.
    Raises RatingError when the fit does not exist (a player untied to an anchor, or prior 0
    with a group that never scored against another)."""
    if prior <= 0 and not finite_without_prior(names, pairings):
        raise RatingError("with prior 0 the fit has no finite answer: a group of players "
                          "never scored against another")
    return fit_scores(names, [(a, b) + score(penta) for a, b, penta in pairings], anchors, prior)


def fit_scores(names, rows, anchors, prior):
    """fit() from (a, b, points of a, games) rows, as a crosstable gives them: Newton's method
    on the log-likelihood, each step capped at about 350 Elo a player."""
    if not anchors or any(a not in names for a in anchors):
        raise RatingError(f"anchors {sorted(anchors)}: each must be among the players")
    free = [n for n in names if n not in anchors]
    idx = {n: i for i, n in enumerate(free)}
    mean = sum(anchors.values()) / len(anchors) / UNIT
    x = {n: anchors[n] / UNIT if n in anchors else mean for n in names}
    fitted = []
    for a, b, points, games in rows:
        if games > 0 and points in (0.0, games):
            points, games = points + prior / 2.0, games + prior
        fitted.append((a, b, points, games))
    for _ in range(200):
        grad = [0.0] * len(free)
        info = [[0.0] * len(free) for _ in free]
        for a, b, points, games in fitted:
            e = 1.0 / (1.0 + math.exp(x[b] - x[a]))
            d, w = points - games * e, games * e * (1 - e)
            for p, sign in ((a, 1), (b, -1)):
                if p in idx:
                    grad[idx[p]] += sign * d
                    info[idx[p]][idx[p]] += w
            if a in idx and b in idx:
                info[idx[a]][idx[b]] -= w
                info[idx[b]][idx[a]] -= w
        step = _solve(info, grad)
        biggest = max((abs(s) for s in step), default=0.0)
        scale = min(1.0, 2.0 / biggest) if biggest > 0 else 1.0
        for n in free:
            x[n] += step[idx[n]] * scale
        if biggest < 1e-9:
            break
    return {n: x[n] * UNIT for n in names}


def names_of(pairings):
    return sorted({n for a, b, _ in pairings for n in (a, b)})


def half_width(values):
    """The 95 % half-width of what values (at least 2) sample: 1.96 standard deviations."""
    m = sum(values) / len(values)
    return 1.96 * math.sqrt(sum((e - m) ** 2 for e in values) / (len(values) - 1))


def half_widths(draws, anchors):
    """half_width of each player's simulated Elos, draws {name: [elo]} (simulate_draws); anchors
    get 0."""
    return {n: 0.0 if n in anchors else half_width(v) for n, v in draws.items()}


def simulate_draws(pairings, anchors, prior, simulations, seed):
    """Each player's Elo in each of `simulations` refits, {name: [elo]} (the k-th of every list
    from one refit): each pairing's pairs drawn again (as many) from its own pentanomial
    frequencies, seeded so the same games give the same draws. A simulation whose fit does not
    exist (possible with prior 0) is drawn again, up to as many times as asked for;
    RatingError when fewer than 2 had one."""
    names = names_of(pairings)
    rng = random.Random(seed)
    draws = {n: [] for n in names}
    tries = 0
    while len(draws[names[0]]) < simulations and tries < 2 * simulations:
        tries += 1
        sample = []
        for a, b, penta in pairings:
            pairs = sum(penta)
            counts = [0] * PENTA
            for h in rng.choices(range(PENTA), weights=penta, k=pairs):
                counts[h] += 1
            sample.append((a, b, counts))
        try:
            elo = fit(names, sample, anchors, prior)
        except RatingError:
            continue
        for n in names:
            draws[n].append(elo[n])
    if len(draws[names[0]]) < 2:
        raise RatingError("too few simulations had a finite fit")
    return draws
