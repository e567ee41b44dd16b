# SPDX-License-Identifier: MIT
"""The external gate of scripts/train (issue 55, item 4; docs/tuning.md, "The external gate"):
its [external] settings, the games they determine, and the rule that accepts or rejects a
candidate on its match against an outside engine beside the current engine's match.

Self-play at 1000-4000 nodes shares the net's blind spots on both sides of the board, so an
SPRT there can prefer a net that an outside engine refutes at a real clock's depth. The gate
plays each candidate that passed its SPRTs against external.engine (Fairy-Stockfish) at fixed
nodes (Hansu external.hansu_nodes, the engine external.engine_nodes: results that do not depend
on the machine's load), and the current engine on the same openings and seed, and rejects the
candidate when it scores below the current engine by more than chance allows (decide()).

The loop (scripts/train_matches.py) plays the matches; this module holds what is pure: the checks,
the statistics and the audit's summary, so that a test can drive the rule on made-up tallies.
"""
import hashlib
import json
import math
import os
import statistics

# The openings of every external match of a run: one seed for every engine (the current's
# figure and the candidate's are then comparable game for game), apart from the seeds of the
# decisions (run.seed * 1000 + k, 10^9 + that), the Elo matches' (2 * 10^9 + ...) and the
# gauntlet's (3 * 10^9 + ...).
SEED_BASE = 4_000_000_000
# A game pair's points for engine 0, per pentanomial class [LL, LD, WL+DD, WD, WW], as a score
# (points / 2): hansu-match's --json "pentanomial" (docs/json-outputs.md).
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
# Limits the gate sets itself (per engine, nodes=N): a clock in external.extra would make the
# result depend on the machine's load, a second limit would be ambiguous.
LIMIT_FLAGS = ("--nodes", "--depth", "--movetime", "--tc", "--byoyomi", "--sprt")
OPENINGS_WORDS = ("suite", "starts", "")
# The settings that decide an external match's games: two figures are compared only when these
# are equal (the engine path resolved, the variant and the seed besides them).
GAME_KEYS = ("name", "options", "hansu_nodes", "engine_nodes", "games", "openings",
             "random_plies", "extra")


def settings_problem(x, repo, variant):
    """The first problem of an [external] section x (types are check_types' in
    scripts/train_config.py), or None: ranges, the openings file, the flags the gate sets itself.
    Absent (a run from before the section): None, the gate is off."""
    if x is None:
        return None
    for key in ("enabled", "audit"):
        if not isinstance(x[key], bool):
            return f"setting external.{key} = {x[key]!r}: expected true or false"
    for key in ("engine", "name"):
        if not isinstance(x[key], str) or not x[key]:
            return f"setting external.{key} = {x[key]!r}: expected a non-empty string"
    for key in ("hansu_nodes", "engine_nodes"):
        v = x[key]
        if not isinstance(v, int) or isinstance(v, bool) or v < 1:
            return f"setting external.{key} = {v!r}: expected a positive whole number of nodes"
    games = x["games"]
    if not isinstance(games, int) or isinstance(games, bool) or games <= 0 or games % 2:
        return (f"setting external.games = {games!r}: expected a positive even number (game "
                "pairs, colours swapped)")
    plies = x["random_plies"]
    if not isinstance(plies, int) or isinstance(plies, bool) or plies < 0:
        return f"setting external.random_plies = {plies!r}: expected a whole number, 0 or more"
    conf = x["confidence"]
    if not _number(conf) or not 0.5 <= conf < 1:
        return (f"setting external.confidence = {conf!r}: expected a one-sided confidence "
                "0.5 <= c < 1 (0.95: reject only beyond the one-sided 95 % bound)")
    margin = x["margin"]
    if not _number(margin) or not 0 <= margin < 0.5:
        return (f"setting external.margin = {margin!r}: expected points a game, 0 <= m < 0.5 "
                "(what the candidate may lose besides chance)")
    for key in ("options", "extra", "audit_flags"):
        if not isinstance(x[key], list) or not all(isinstance(a, str) for a in x[key]):
            return f"setting external.{key} = {x[key]!r}: expected a list of strings"
    bad = next((a for a in x["extra"] if a.split("=")[0] in LIMIT_FLAGS), None)
    if bad:
        return (f"setting external.extra = {x['extra']!r}: {bad} is the gate's own (fixed nodes "
                "per engine: external.hansu_nodes, external.engine_nodes; no SPRT)")
    name = x["openings"]
    if not isinstance(name, str):
        return f"setting external.openings = {name!r}: expected \"suite\", \"starts\" or a file"
    path = openings_file(name, variant, repo)
    if name not in OPENINGS_WORDS and not os.path.isfile(path):
        return f"setting external.openings = {name!r}: no such file {path}"
    return None


def _number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def openings_file(name, variant, repo):
    """external.openings as hansu-match --openings takes it: "suite" the variant's suite
    (data/openings-<variant>.fen), "starts" the variant's start positions (janggi's 16
    formation pairings), "" none (hansu-match's compiled-in suite), else a file of the
    repository."""
    if name == "suite":
        return os.path.join(repo, "data", f"openings-{variant}.fen")
    if name in ("starts", ""):
        return name
    return os.path.join(repo, name)


def openings_flags(name, variant, repo):
    path = openings_file(name, variant, repo)
    return ["--openings", path] if path else []


def game_settings(x, engine, variant, run_seed):
    """What decides the games of an external match (GAME_KEYS, the engine's resolved path,
    the variant and the seed SEED_BASE + run.seed * 1000), kept with every figure."""
    s = {key: x[key] for key in GAME_KEYS}
    s.update(engine=engine, variant=variant, seed=SEED_BASE + run_seed * 1000)
    return s


def digest(settings):
    """A short name of game settings (8 hex digits of the SHA-256 of their sorted JSON): the
    match files of other settings are other files, so a resume with another external.games
    plays its own match rather than continuing one of the old settings."""
    text = json.dumps(settings, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def pair_stats(pentanomial):
    """(pairs, mean score a game, variance of that mean) from pentanomial pair counts [LL, LD,
    WL+DD, WD, WW]: each game pair one sample of its score (PAIR_SCORES), the variance of the
    mean the pairs' variance (divided by N, as fishtest's and fastchess's pentanomial
    estimates) over N. Pairs, not games: the two games of a pair share their opening, so their
    results are not independent (Michel Van den Bergh, "Normalized Elo Practical", 2020; the
    model of hansu-match's nElo, selfplay/match/stats.h)."""
    counts = [int(n) for n in pentanomial]
    if len(counts) != 5 or any(n < 0 for n in counts) or not sum(counts):
        raise ValueError(f"pentanomial {pentanomial!r}: expected 5 counts of pairs, some > 0")
    n = sum(counts)
    mean = sum(c * x for c, x in zip(counts, PAIR_SCORES)) / n
    var = sum(c * (x - mean) ** 2 for c, x in zip(counts, PAIR_SCORES)) / n
    return n, mean, var / n


def decide(candidate, current, confidence=0.95, margin=0.0):
    """The gate's verdict from the two matches' pentanomial counts (candidate's and current's
    against the external engine, each from Hansu's side): with s the mean score a game and v
    the variance of that mean (pair_stats),
        d = s_cand - s_cur,   se = sqrt(v_cand + v_cur),   bound = z * se, z = Phi^-1(confidence)
        rejected  <=>  d < -(margin + bound)
    a one-sided test of "the candidate is no worse than the current engine" at level
    1 - confidence (normal approximation to the difference of two means; the matches are
    treated as independent: they share openings, which correlates them positively when the
    engines are alike, so the true variance of d is at most this one and the rule rejects an
    equal candidate at most 1 - confidence of the time). margin: points a game the candidate may
    lose besides chance. Returns the figures and the verdict as state.json keeps them."""
    nc, sc, vc = pair_stats(candidate)
    n0, s0, v0 = pair_stats(current)
    z = statistics.NormalDist().inv_cdf(confidence)
    se = math.sqrt(vc + v0)
    d = sc - s0
    passed = not d < -(margin + z * se)
    return {"candidate_score": round(sc, 6), "current_score": round(s0, 6),
            "difference": round(d, 6), "se": round(se, 6), "z": round(z, 4),
            "bound": round(z * se, 6), "margin": margin, "confidence": confidence,
            "candidate_pairs": nc, "current_pairs": n0, "passed": passed,
            "rule": "reject when candidate_score - current_score < -(margin + z * se), "
                    "se from both matches' pentanomial pairs"}


def audit_summary(path, evaluator):
    """The figures of an eval-audit --json file (docs/eval-audit.md) that the run keeps: the
    games audited and, for evaluator (the column of the net the engine played with) and for
    Fairy-Stockfish's column where there is one, the positions, median cp, expected and actual
    score and the gap (expected - actual). Raises OSError or ValueError for a file that is not
    an audit."""
    with open(path) as f:
        r = json.load(f)
    out = {"json": path, "evaluator": evaluator, "games": r["games"]["audited"],
           "positions": r["positions"]}
    for name, key in ((evaluator, "hansu"), ("fsf", "opponent")):
        s = r["summary"].get(name)
        if s is None:
            continue
        out[key] = {k: s.get(k) for k in ("positions", "median_cp", "expected_score",
                                          "actual_score", "gap")}
    if "hansu" not in out:
        raise ValueError(f"{path}: no column {evaluator!r} (columns: {sorted(r['summary'])})")
    return out
