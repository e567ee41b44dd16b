#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Writes report.md and its PNG plots for a training run folder made by scripts/train, and
report.html beside it: one self-contained page with everything report.md has (the plots
inlined as data: URIs) and a board viewer of the run's games (scripts/game_viewer.py,
docs/report-viewer.md): a few self-play games per iteration chosen by the iteration's seed
(one of each end reason that occurred, then report.selfplay_games more), the games of each
candidate match (at most report.match_games per match) and the gauntlet's (at most
report.gauntlet_games per match).

    scripts/train_report.py runs/train-20261130-050000 [--build DIR] [--set report.KEY=N ...]

--build DIR: the build folder whose engine/hansu and selfplay/hansu-selfplay the viewer uses
(default: the run's newest build under RUN/builds, else the checkout's build/).
--set report.KEY=N: a [report] setting for this report only (the run's own, in state.json's
config, else data/train.toml's defaults, otherwise); e.g. --set report.match_games=8.

Plots (matplotlib, Agg): loss.png (training and validation loss per epoch, one line pair per
iteration: the Texel tuner's MSE from iter-NNN/loss.csv, or in a run with run.eval = "nnue"
the net trainer's loss from iter-NNN/train.csv), elo.png (Elo of each accepted candidate
against the first engine from its fixed-length match, 95% error bars), gauntlet.png (the
end-of-run gauntlet against Fairy-Stockfish, 95% error bars; only once it has results),
reasons.png (self-play and match results by end reason, per iteration), pairings.png (Cho win
share per formation pairing, 4x4 heat map over all self-play games of the run).

The self-play HDF5 files may be gone (docs/train-example keeps none): an iteration's game
count then comes from the settings (a finished iteration played selfplay.games), and the two
plots drawn from those files are kept as they are rather than redrawn empty. A file that
cannot be read is reported in one line naming it (exit 1), without a traceback.
"""
import argparse
import base64
import csv
import datetime
import glob
import json
import math
import os
import random
import re
import subprocess
import sys
import tomllib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import file_write  # noqa: E402
import game_viewer  # noqa: E402
import pgn_file  # noqa: E402
import report_markdown  # noqa: E402
from hansu_shard import ShardError  # noqa: E402
from selfplay_stats import load  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASE_CONFIG = os.path.join(REPO, "data", "train.toml")  # the [report] defaults


class ReportError(Exception):
    """A run folder file that cannot be read; the message names it."""


def report_defaults():
    """data/train.toml's [report]: the viewer's game caps when the run's config has none."""
    try:
        with open(BASE_CONFIG, "rb") as f:
            return dict(tomllib.load(f)["report"])
    except (OSError, tomllib.TOMLDecodeError, KeyError) as e:
        raise ReportError(f"{BASE_CONFIG}: no [report] defaults ({type(e).__name__}: {e})")


def cap_value(key, value, where, defaults):
    """A [report] setting checked: a known key, a whole number of games >= 0."""
    if key not in defaults:
        raise ReportError(f"{where}: unknown setting report.{key} (known: "
                          f"{', '.join(sorted(defaults))})")
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ReportError(f"{where}: setting report.{key} = {value!r}: expected a whole number "
                          "of games, 0 or more")
    return value


def report_caps(run, state, overrides=()):
    """The viewer's game caps: data/train.toml's [report], then the run's (state.json's
    config), then overrides ("report.KEY=N" strings). A bad one is a ReportError naming it."""
    defaults = report_defaults()
    caps = dict(defaults)
    own = state.get("config", {}).get("report", {})
    where = os.path.join(run, "state.json")
    if not isinstance(own, dict):
        raise ReportError(f"{where}: config.report = {own!r}: expected a table of settings")
    for key, value in own.items():
        caps[key] = cap_value(key, value, where, defaults)
    for item in overrides:
        m = re.fullmatch(r"report\.(\w+)=(.*)", item)
        if not m:
            raise ReportError(f"--set {item!r}: expected report.KEY=N (only [report] settings)")
        try:
            value = tomllib.loads("v = " + m.group(2))["v"]
        except tomllib.TOMLDecodeError:
            value = m.group(2)
        caps[m.group(1)] = cap_value(m.group(1), value, f"--set {item!r}", defaults)
    return caps


# Per run.eval: each iteration's loss file, its training and validation columns, the plot's
# title and the loss's name (hansu-tune --loss-csv; hansu-nnue --csv, docs/nnue.md).
LOSS_FILES = {"texel": ("loss.csv", "train_mse", "valid_mse", "Texel tuning loss", "MSE"),
              "nnue": ("train.csv", "train_loss", "valid_loss", "Net training loss (hansu-nnue)",
                       "loss")}


def loss_file(state):
    return LOSS_FILES[state["config"].get("run", {}).get("eval", "texel")]


def read_loss(path, columns=("train_mse", "valid_mse")):
    rows = []
    with open(path) as f:
        for n, row in enumerate(csv.DictReader(f), start=2):
            try:
                rows.append((int(row["epoch"]), float(row[columns[0]]),
                             float(row[columns[1]])))
            except (KeyError, TypeError, ValueError) as e:
                raise ReportError(f"{path}:{n}: bad row ({type(e).__name__}: {e})")
    return rows


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return math.nan


def plot_loss(run, state, out):
    fig, ax = plt.subplots(figsize=(7, 4))
    records = state["iterations"]
    name, train, valid, title, unit = loss_file(state)
    # Colour by iteration; with many iterations only some are named in the legend.
    step = max(1, math.ceil(len(records) / 6))
    colours = plt.cm.viridis(np.linspace(0, 0.9, max(1, len(records))))
    for i, rec in enumerate(records):
        path = os.path.join(run, f"iter-{rec['k']:03d}", name)
        if not os.path.exists(path):
            continue
        rows = read_loss(path, (train, valid))
        if not rows:
            continue
        e, t, v = zip(*rows)
        named = i % step == 0 or i == len(records) - 1
        ax.plot(e, t, color=colours[i], label=f"iter {rec['k']} train" if named else None)
        ax.plot(e, v, "--", color=colours[i],
                label=f"iter {rec['k']} validation" if named else None)
    ax.set_xlabel("epoch")
    ax.set_ylabel(unit)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def finite_error(err):
    """An error bar to draw: an infinite or unknown one (a one-sided score) as 400 Elo."""
    return 400.0 if math.isnan(err) or math.isinf(err) else err


def plot_elo(state, out):
    xs, ys, lo, hi, names = [0], [0.0], [0.0], [0.0], [state["first"]["name"]]
    measured = []
    for rec in state["iterations"]:
        e = rec.get("elo_vs_first")
        if not rec.get("accepted") or not e:
            continue
        elo, err = number(e.get("elo")), number(e.get("elo_error"))
        if math.isnan(elo):
            continue
        err = finite_error(err)
        xs.append(rec["k"])
        ys.append(elo)
        lo.append(err)
        hi.append(err)
        names.append(f"iter-{rec['k']:03d}")
        measured.append(e)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.axhline(0, color="grey", lw=0.8)
    ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o-", capsize=4)
    for x, y, n in zip(xs, ys, names):
        ax.annotate(n, (x, y), textcoords="offset points", xytext=(4, 6), fontsize=7)
    if len(xs) == 1:
        ax.text(0.5, 0.5, "no measured accepted candidate yet", ha="center",
                transform=ax.transAxes)
    ax.set_xlabel("iteration")
    ax.set_ylabel("Elo vs the first engine (95% error)")
    kinds = {(vs_first_games(e), e.get("nodes")) if e.get("fixed_length") else None
             for e in measured}
    if len(kinds) == 1 and None not in kinds:
        games, nodes = kinds.pop()
        ax.set_title(f"Accepted candidates: fixed-length matches, {games} games at {nodes} nodes")
    else:
        ax.set_title("Accepted candidates (not all from fixed-length matches: see report.md)"
                     if kinds else "Accepted candidates")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def plot_gauntlet(state, out):
    """Elo against the gauntlet's opponent of each engine that played it (95% error)."""
    g = state.get("gauntlet") or {}
    results = g.get("results") or {}
    names = sorted(results, key=lambda n: results[n].get("role") != "final")
    ys = [number(results[n].get("elo")) for n in names]
    errs = [finite_error(number(results[n].get("elo_error"))) for n in names]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.axhline(0, color="grey", lw=0.8)
    ax.errorbar(range(len(names)), ys, yerr=errs, fmt="o", capsize=6)
    ax.set_xticks(range(len(names)), [f"{n} ({results[n].get('role', '')})" for n in names])
    ax.set_xlim(-0.5, len(names) - 0.5)
    ax.set_ylabel(f"Elo vs {g.get('opponent', '?')} (95% error)")
    ax.set_title(f"Gauntlet at {g.get('tc', '?')}, {g.get('games', '?')} games each")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def selfplay_games(run, k):
    folder = os.path.join(run, f"iter-{k:03d}", "selfplay")
    if not glob.glob(os.path.join(folder, "shard-*.h5")):
        return None, None
    try:
        games, _, attrs, _ = load([folder])
    except ShardError as e:
        raise ReportError(str(e))
    except (OSError, KeyError, ValueError) as e:
        raise ReportError(f"{folder}: cannot read the self-play files ({e})")
    return games, attrs


def have_selfplay(run, state):
    return any(glob.glob(os.path.join(run, f"iter-{rec['k']:03d}", "selfplay", "shard-*.h5"))
               for rec in state["iterations"])


def selfplay_count(run, state, rec):
    """Games of an iteration's self-play: counted in its files, or when they are gone, the
    selfplay.games setting for a finished iteration run without a time limit; else "?"."""
    games, _ = selfplay_games(run, rec["k"])
    if games is not None:
        return str(len(games))
    sp = state["config"].get("selfplay", {})
    if rec.get("finished") and "--hours" not in sp.get("extra", []) and "games" in sp:
        return str(sp["games"])
    return "?"


def plot_reasons(run, state, out):
    reason_counts, labels = [], []
    names = None
    for rec in state["iterations"]:
        games, attrs = selfplay_games(run, rec["k"])
        if games is None:
            continue
        names = attrs["reason_names"].split(",")
        reason_counts.append(np.bincount(games.reason, minlength=len(names)))
        labels.append(f"self-play {rec['k']}")
        match = rec.get("match", {}).get("wins_by_reason", {})
        counts = np.zeros(len(names))
        for per_engine in match.values():
            for reason, n in per_engine.items():
                if reason in names:
                    counts[names.index(reason)] += n
        reason_counts.append(counts)
        labels.append(f"match {rec['k']}")
    fig, ax = plt.subplots(figsize=(8, 4))
    if reason_counts:
        data = np.array(reason_counts, dtype=float)
        shares = data / np.maximum(data.sum(axis=1, keepdims=True), 1)
        bottom = np.zeros(len(labels))
        for i, name in enumerate(names):
            if data[:, i].sum() == 0:
                continue
            ax.bar(labels, shares[:, i], bottom=bottom, label=name)
            bottom += shares[:, i]
        ax.legend(fontsize=7, bbox_to_anchor=(1.01, 1), loc="upper left")
        ax.tick_params(axis="x", labelrotation=45, labelsize=7)
    ax.set_ylabel("share of games")
    ax.set_title("Results by end reason")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def plot_pairings(run, state, out):
    """The first side's share per formation pairing of the self-play games (wins, and draws as
    half a point where the variant has draws); one cell for a variant with one start position."""
    frames, formations, first = [], None, "Cho"
    for rec in state["iterations"]:
        games, attrs = selfplay_games(run, rec["k"])
        if games is not None:
            frames.append(games)
            formations = [f for f in attrs["formation_names"].split(",") if f] or ["start"]
            if attrs.get("variant", "janggi") == "xiangqi":
                first = "Red"
    draws = any(int((g.winner == 2).sum()) for g in frames)
    what = "score (draws 1/2)" if draws else "win share"
    fig, ax = plt.subplots(figsize=(6, 5))
    if frames:
        n = len(formations)
        share = np.full((n, n), np.nan)
        count = np.zeros((n, n), dtype=int)
        for c in range(n):
            for h in range(n):
                points = 0.0
                for g in frames:
                    sel = (g.cho_formation == c) & (g.han_formation == h)
                    count[c, h] += int(sel.sum())
                    points += int((sel & (g.winner == 0)).sum()) + 0.5 * int((sel & (g.winner == 2)).sum())
                if count[c, h]:
                    share[c, h] = points / count[c, h]
        im = ax.imshow(share, vmin=0, vmax=1, cmap="coolwarm")
        for c in range(n):
            for h in range(n):
                if count[c, h]:
                    ax.text(h, c, f"{share[c, h]:.2f}\n({count[c, h]})", ha="center",
                            va="center", fontsize=7)
        ax.set_xticks(range(n), formations, rotation=30, fontsize=7)
        ax.set_yticks(range(n), formations, fontsize=7)
        second = "Black" if first == "Red" else "Han"
        ax.set_xlabel(f"{second} formation")
        ax.set_ylabel(f"{first} formation")
        fig.colorbar(im, ax=ax, label=f"{first} {what}")
    ax.set_title(f"{first} {what} per formation pairing (self-play)")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


MEASURE_KINDS = ("elo", "gauntlet", "report", "audit")  # as scripts/train's: measurement


def vs_first_games(e):
    return e.get("games") or 2 * sum(e.get("pentanomial", []))


def vs_first_cells(e):
    """The table's Elo, nElo and games cells of an elo_vs_first record. Runs from before the
    fixed-length matches copied the SPRT result there (stopped early): marked so."""
    if not e:
        return "", "", ""
    how = (f"{vs_first_games(e)} @ {e['nodes']} nodes" if e.get("fixed_length") else
           f"{vs_first_games(e)}, SPRT-stopped" if "sprt" in e else
           f"{vs_first_games(e)} @ match nodes")
    return (f"{e.get('elo', '')} ± {e.get('elo_error', '')}",
            f"{e.get('nelo', '')} ± {e.get('nelo_error', '')}", how)


def iso_time(text):
    try:
        return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ")
    except (TypeError, ValueError):
        return None


def run_hours(state):
    """(CPU hours measured or None, CPU hours of the training steps, wall hours or None, cores
    or None, per-kind CPU hours)."""
    cpu = state.get("cpu_s")
    per_kind = {k: v / 3600 for k, v in cpu.items()} if isinstance(cpu, dict) else None
    total = sum(per_kind.values()) if per_kind else None
    train = (sum(v for k, v in per_kind.items() if k not in MEASURE_KINDS)
             if per_kind else None)
    wall = state.get("wall_s")
    if wall is not None:
        wall /= 3600
    else:  # a run from before the wall time was kept: its first start to its last step
        a = iso_time(state.get("started"))
        ends = [iso_time(r.get("finished")) for r in state["iterations"]]
        ends = [t for t in ends if t]
        wall = (max(ends) - a).total_seconds() / 3600 if a and ends else None
    cores = state.get("threads") or state["config"].get("run", {}).get("threads") or None
    return total, train, wall, cores, per_kind


def hours_text(h):
    return f"{h:.2f} h" if h >= 0.1 else f"{h * 3600:.0f} s"


def per_hour(elo, err, hours):
    if not hours or math.isnan(elo):
        return "not available"
    e = "∞" if math.isinf(err) or math.isnan(err) else f"{err / hours:.1f}"
    return f"{elo / hours:+.1f} ± {e}"


def cpu_lines(state):
    """The report's headline: the final engine's fixed-length Elo against the first engine per
    CPU-hour of the run, with its 95% error, and how the hours were counted."""
    first, final = state["first"]["name"], state["current"]["name"]
    total, train, wall, cores, per_kind = run_hours(state)
    lines = ["## Elo gained per CPU-hour", ""]
    if final == first:
        elo, err, src = 0.0, 0.0, (f"no candidate was accepted: the final engine is the first "
                                   f"(`{first}`), 0 Elo gained")
    else:
        rec = next((r for r in state["iterations"] if r.get("accepted") and
                    f"iter-{r['k']:03d}" == final), {})
        e = rec.get("elo_vs_first")
        if not e:
            lines += [f"Not measured: the final engine `{final}` has no match against the first "
                      "engine (`match.elo_games = 0`).", ""]
            return lines
        elo, err = number(e.get("elo")), number(e.get("elo_error"))
        kind = ("fixed-length" if e.get("fixed_length") else
                "**stopped by its SPRT, not fixed-length** (a run from before the fixed-length "
                "matches)" if "sprt" in e else "at the training's match nodes")
        src = (f"final engine `{final}`: {e.get('elo')} ± {e.get('elo_error')} Elo against "
               f"`{first}` over {vs_first_games(e)} games"
               f"{' at ' + str(e['nodes']) + ' nodes' if e.get('nodes') else ''}, {kind}")
    if total is not None:
        lines += [f"**{per_hour(elo, err, total)} Elo per CPU-hour** ({src}; divided by "
                  f"{total:.2f} CPU-hours).", "",
                  "CPU-hours are measured: the user + system time of every program the loop "
                  "ran (self-play, tuning, builds, SPRT and Elo matches, the gauntlet, the "
                  "report), their waited-for children included, taken with "
                  "getrusage(RUSAGE_CHILDREN) around each step and summed over resumes "
                  "(`cpu_s` in state.json): " + ", ".join(
                      f"{k} {hours_text(v)}" for k, v in sorted(per_kind.items())) + ".",
                  f"Training steps only (without the fixed-length Elo matches, the gauntlet "
                  f"and the report, which measure): {train:.2f} CPU-hours, "
                  f"{per_hour(elo, err, train)} Elo per CPU-hour."]
    else:
        lines += [f"CPU time not recorded (a run from before the loop measured it); {src}."]
    if wall is not None and cores:
        lines.append(f"By the wall clock: {wall:.2f} h × {cores} cores = {wall * cores:.2f} "
                     f"core-hours, {per_hour(elo, err, wall * cores)} Elo per core-hour.")
    elif wall is not None:
        lines.append(f"By the wall clock: {wall:.2f} h (cores used not recorded), "
                     f"{per_hour(elo, err, wall)} Elo per wall-hour.")
    lines += ["The ± is the Elo's 95 % half-width divided by the hours (the hours are "
              "measured, not estimated).", ""]
    return lines


def gauntlet_lines(state):
    g = state.get("gauntlet")
    cfg = state["config"].get("gauntlet", {})
    lines = [f"## Gauntlet against {cfg.get('name', 'Fairy-Stockfish')}", ""]
    if not g:
        return lines + ["Not played yet: it runs at the end of the run." if cfg.get("enabled")
                        else "Off (`gauntlet.enabled = false`)." if cfg else
                        "None (a run from before the gauntlet).", ""]
    if "skipped" in g:
        return lines + [f"Skipped: {g['skipped']}.", ""]
    lines += [f"{g['games']} games per engine at {g['tc']} (base seconds + increment), "
              f"openings of their own seed, the same for each engine; Elo and nElo of our "
              f"engine, ± the 95 % half-width.", "",
              "| engine | role | games | score | Elo ± 95% | nElo ± 95% | LOS |",
              "|---|---|---|---|---|---|---|"]
    results = g.get("results", {})
    for name, r in sorted(results.items(), key=lambda item: item[1].get("role") != "final"):
        lines.append(f"| {name} | {r.get('role', '')} | {r.get('games', '')} | "
                     f"{r.get('score', '')} | {r.get('elo', '')} ± {r.get('elo_error', '')} | "
                     f"{r.get('nelo', '')} ± {r.get('nelo_error', '')} | {r.get('los', '')} % |")
    if g.get("error"):
        lines += ["", f"Stopped by an error: {g['error']}"]
    if g.get("results"):
        lines += ["", "![gauntlet](gauntlet.png)"]
    return lines + [""]


def terminations(r):
    """A match's wins by end reason, "ours: checkmate 3, bikjang 2; theirs: ..." (the first
    engine of its JSON is ours)."""
    by = r.get("wins_by_reason") or {}
    ours = r.get("engine")
    parts = []
    for name in sorted(by, key=lambda n: n != ours):
        wins = ", ".join(f"{reason} {n}" for reason, n in sorted(by[name].items(),
                                                                key=lambda x: -x[1]))
        parts.append(f"{name}: {wins or 'none'}")
    return "; ".join(parts)


def audit_cells(r):
    """The evaluation audit's cells of an external figure: the engine's evaluation (expected,
    actual, gap) and Fairy-Stockfish's expected score and gap, or why there is none."""
    a = r.get("audit")
    if not a:
        return "not audited", ""
    if "error" in a:
        return f"failed: {a['error']}", ""
    h, o = a.get("hansu") or {}, a.get("opponent") or {}

    def fmt(v, sign=False):
        return "-" if not isinstance(v, (int, float)) else f"{v:+.3f}" if sign else f"{v:.3f}"
    mine = (f"{a.get('evaluator', '')}: {fmt(h.get('expected_score'))} vs "
            f"{fmt(h.get('actual_score'))}, gap **{fmt(h.get('gap'), True)}** "
            f"({h.get('positions', '?')} positions, median {h.get('median_cp', '?')} cp)")
    theirs = (f"{fmt(o.get('expected_score'))}, gap {fmt(o.get('gap'), True)}" if o else "-")
    return mine, theirs


def external_lines(run, state):
    """The external gate (docs/tuning.md, "The external gate"): each candidate's match against
    the external engine beside the current engine's on the same openings, the verdict, and the
    evaluation audit of each match (scripts/eval-audit; its JSON in the match's folder)."""
    x = state["config"].get("external")
    lines = ["## External gate", ""]
    if not x or not x.get("enabled"):
        return lines + ["Off (`external.enabled = false`)." if x else
                        "None (a run from before the external gate).", ""]
    lines += [f"Each candidate that passed its SPRTs plays {x['name']} at fixed nodes (Hansu "
              f"{x['hansu_nodes']:,}, {x['name']} {x['engine_nodes']:,}), {x['games']} games "
              f"from `{x['openings'] or 'the compiled-in suite'}` + {x['random_plies']} random "
              "plies, one seed for every engine; the current engine plays the same games once. "
              "Rejected when its score a game is below the current's by more than margin + z × "
              f"se (one-sided {x['confidence']:.0%}, margin {x['margin']}; se from both "
              "matches' pentanomial pairs, scripts/external_gate.py). Score: a game, from "
              "Hansu's side. Audit: the engine's evaluation of its positions in those games, "
              "expected score against the games' (gap > 0: it rated its positions higher than "
              "they scored; docs/eval-audit.md).", "",
              "| iteration | engine | games | score | a game | nElo ± 95% | vs current (a game) "
              "| difference, bound | verdict | audit: expected vs actual | Fairy-Stockfish's "
              "eval: expected, gap |",
              "|---|---|---|---|---|---|---|---|---|---|---|"]
    figures = (state.get("external") or {}).get("figures") or {}
    first = state["first"]["name"]
    for tag, by_name in figures.items():
        r = by_name.get(first)
        if r:
            mine, theirs = audit_cells(r)
            lines.append(f"| first | {first} | {r.get('games', '')} | {r.get('score', '')} | "
                         f"{score_of(r)} | {r.get('nelo', '')} ± {r.get('nelo_error', '')} | "
                         f"| | the first engine's figure (settings {tag}) | {mine} | {theirs} |")
    shown = 0
    for rec in state["iterations"]:
        r, g = rec.get("external"), rec.get("external_gate")
        if not r:
            continue
        shown += 1
        verdict = ("" if not g else "passed" + (": accepted" if rec.get("accepted") else "")
                   if g.get("passed") else "**rejected**")
        diff = (f"{g['difference']:+.3f}, −{g['margin'] + g['bound']:.3f}" if g else "")
        mine, theirs = audit_cells(r)
        lines.append(f"| {rec['k']} | {r.get('engine', '')} | {r.get('games', '')} | "
                     f"{r.get('score', '')} | {score_of(r)} | {r.get('nelo', '')} ± "
                     f"{r.get('nelo_error', '')} | "
                     f"{current_cell(g)} | "
                     f"{diff} | {verdict} | {mine} | {theirs} |")
    if not shown:
        lines.append("| | | | | | | | | no candidate has reached the gate yet | | |")
    lines += ["", "Terminations (wins by end reason):", ""]
    for rec in state["iterations"]:
        if rec.get("external"):
            lines.append(f"- iteration {rec['k']}: {terminations(rec['external'])}")
    for tag, by_name in figures.items():
        if by_name.get(first):
            lines.append(f"- first engine ({tag}): {terminations(by_name[first])}")
    return lines + [""]


def current_cell(g):
    """The current engine of a gate's verdict and its score a game on the same games."""
    if not g:
        return ""
    return f"{g.get('current', '')} ({g.get('current_score', 0):.3f})"


def score_of(r):
    """A match result's score a game from the first engine's side (its pentanomial pairs)."""
    p = r.get("pentanomial") or []
    n = sum(p)
    return f"{sum(c * x for c, x in zip(p, (0, 0.25, 0.5, 0.75, 1))) / n:.3f}" if n else ""


def start_lines(cfg):
    """A run started from other weights than the shipped ones (run.start) says so first, with
    the note of that header's banner: its Elo against the first engine is measured from there."""
    start = cfg["run"].get("start", "")
    if not start:
        return []
    note = []
    try:
        with open(os.path.join(REPO, start)) as f:
            for line in f:
                if line.startswith("// note:") or (note and line.startswith("//   ")):
                    note.append(line[len("// note:") if not note else 2:].strip())
                elif note:
                    break
    except OSError:
        pass
    return [f"**Started from `{start}`, not the shipped weights**"
            f"{' (' + ' '.join(note) + ')' if note else ''}: the Elo against the first engine "
            "measures what the loop learned from there.", ""]


def loss_text(v):
    return f"{v:.5f}" if isinstance(v, (int, float)) else ""


def trainer_start(run, rec, t):
    """Where iteration rec's candidate started and its first learning rate: (from, lr), from
    the state's summary or, for a run from before those fields, the iteration's train.json
    (from: the --init net's name, or "random")."""
    if "init" not in t or "lr" not in t:
        try:
            with open(os.path.join(run, f"iter-{rec['k']:03d}", "train.json")) as f:
                t = json.load(f)
        except (OSError, ValueError):
            return "", ""
    init, lr = t.get("init"), t.get("lr")
    if not isinstance(lr, (int, float)):  # a hansu-nnue from before the field: its command
        lr = trainer_flag(os.path.join(run, f"iter-{rec['k']:03d}", "train.log"), "--lr")
    start = os.path.basename(init).removesuffix(".nnue") if init else "random"
    return start, (f"{float(lr):g}" if math.isfinite(number(lr)) else "")


def trainer_flag(log, flag):
    """The value of flag in the last command of a step's log (run_step writes each command
    on a line "=== TIME ARGV"), or None."""
    try:
        with open(log) as f:
            cmds = [line.split()[2:] for line in f if line.startswith("=== ")]
    except OSError:
        return None
    argv = cmds[-1] if cmds else []
    return argv[argv.index(flag) + 1] if flag in argv[:-1] else None


def net_lines(run, state):
    """A run with run.eval = "nnue": each iteration's net (its window, where its weights
    started, the trainer's figures from state.json, where the accepted ones are kept) and where
    the final net is."""
    if state["config"].get("run", {}).get("eval", "texel") != "nnue":
        return []
    lines = ["## Nets", "",
             "Each iteration trains a candidate net with hansu-nnue on the newest self-play, "
             "from random weights or (nnue.init = \"current\") from the current net's: the "
             "column *from*; the last epoch's losses (training: the epoch's mean; validation: "
             "after it). The curves per epoch are the loss plot below. A candidate is rejected "
             "before its match when hansu-nnue wrote no net (its rounding failed "
             "`--quant-bound`) or its rounded net equals the one it started from.", "",
             "| iteration | window (iterations, positions) | train / valid positions | from | "
             "lr | epochs | train loss | valid loss | net |",
             "|---|---|---|---|---|---|---|---|---|"]
    for rec in state["iterations"]:
        w, t = rec.get("train_window") or {}, rec.get("train") or {}
        its = w.get("iterations") or []
        kept = f"nets/iter-{rec['k']:03d}.nnue" if rec.get("accepted") else (
            f"rejected before its match: {rec['rejected']}" if rec.get("rejected") else
            "rejected" if "accepted" in rec else "")
        start, lr = trainer_start(run, rec, t) if t else ("", "")
        lines.append(f"| {rec['k']} | {its[0] if its else ''}-{its[-1] if its else ''}, "
                     f"{w.get('positions', '')} | {t.get('train_positions', '')} / "
                     f"{t.get('valid_positions', '')} | {start} | {lr} | {t.get('epochs', '')} | "
                     f"{loss_text(t.get('train_loss'))} | {loss_text(t.get('valid_loss'))} | "
                     f"{kept} |")
    lines += labelled_lines(state)
    net = state["current"].get("net")
    lines += ["", f"Final net: `{net}` ({state['current']['name']})." if net else
              "Final engine: the first one, with the classical evaluation (no net accepted).",
              ""]
    return lines


def labelled_lines(state):
    """The labelled stores each candidate trained on besides its window (train_window's
    labelled: nnue.labelled's and the external matches the loop labelled, external.label_nodes)
    and the matches labelled; nothing in a run without them."""
    recs = [r for r in state["iterations"] if (r.get("train_window") or {}).get("labelled")]
    done = [e for e in state.get("labelled", []) if isinstance(e, dict)]
    if not recs and not done:
        return []
    lines = ["", "Labelled data (games against other engines scored by deeper Hansu searches, "
             "`hansu-selfplay label`), trained on beside the window:", "",
             "| iteration | labelled stores | positions searched | each read | share read |",
             "|---|---|---|---|---|"]
    for r in recs:
        lab = r["train_window"]["labelled"]
        names = ", ".join(os.path.basename(str(p).rstrip("/")) for p in lab.get("folders", []))
        share = lab.get("share")
        lines.append(f"| {r['k']} | {names} | {lab.get('positions', '')} | "
                     f"{lab.get('repeat', 1)} | "
                     f"{'' if share is None else f'{100 * share:.1f} %'} |")
    if done:
        lines += ["", "External matches labelled by the loop (external.label_nodes, "
                  "`RUN/labelled/`): " + "; ".join(
                      f"{e.get('name')} ({e.get('games', '?')} games, {e.get('positions', '?')} "
                      f"positions at {e.get('nodes')} nodes"
                      f"{'' if e.get('done') else ', unfinished'})" for e in done) + "."]
    return lines


def accepted_cell(rec):
    if rec.get("accepted"):
        return "yes"
    if rec.get("external_gate", {}).get("passed") is False:
        return "no (external gate)"
    return "no" if "accepted" in rec else ""


def write_markdown(run, state, out):
    cfg = state["config"]
    lines = [f"# Training run `{os.path.basename(run)}`", "",
             f"Started {state.get('started', '?')}; iterations done: {state['iteration']}"
             f"{' (one in progress)' if state.get('in_progress') else ''}; accepted: "
             f"{', '.join(state['accepted']) or 'none'}.", ""]
    lines += start_lines(cfg)
    lines += cpu_lines(state)
    lines += ["## Iterations", "",
              "| iteration | played as current | self-play games | candidate vs current | "
              "nElo ± 95% | LLR | SPRT | accepted | Elo vs first ± 95% | nElo vs first ± 95% | "
              "vs-first games |",
              "|---|---|---|---|---|---|---|---|---|---|---|"]
    for rec in state["iterations"]:
        m = rec.get("match", {})
        if rec.get("rejected") and "sprt" not in m:  # a net not written or not changed
            m = {"sprt": "not played: the candidate was rejected before its match (Nets below)"}
        elo, nelo, how = vs_first_cells(rec.get("elo_vs_first"))
        lines.append(
            f"| {rec['k']} | {rec.get('current', '')} | {selfplay_count(run, state, rec)} | "
            f"{m.get('score', '')} | {m.get('nelo', '')} ± {m.get('nelo_error', '')} | "
            f"{m.get('llr', '')} | {m.get('sprt', '')} | "
            f"{accepted_cell(rec)} | "
            f"{elo} | {nelo} | {how} |")
    lines += ["", "Elo vs first: each accepted candidate against the first engine in a "
              "fixed-length match (all its games, openings of a seed no decision uses, at "
              "nodes other than the training's); ± is the 95 % half-width.", ""]
    lines += external_lines(run, state)
    lines += net_lines(run, state)
    lines += gauntlet_lines(state)
    lines += ["## Settings", "", "```toml"]
    for section, values in cfg.items():
        lines.append(f"[{section}]")
        for k, v in values.items():
            lines.append(f"{k} = {json.dumps(v)}")
    lines += ["```", "", "## Plots", "",
              "Training and validation loss per epoch, per iteration:", "", "![loss](loss.png)",
              "", "Elo of each accepted candidate against the first engine (fixed-length "
              "matches, 95 % error bars):", "",
              "![elo](elo.png)", "", "Results by end reason:", "", "![reasons](reasons.png)",
              "", ("Red's score per start (one start position, draws 1/2):"
                   if cfg.get("run", {}).get("variant") == "xiangqi"
                   else "Cho win share per formation pairing:"), "", "![pairings](pairings.png)", ""]
    with open(out + ".tmp", "w") as f:
        f.write("\n".join(lines))
    os.replace(out + ".tmp", out)
    return lines


def find_tools(run, build=None):
    """hansu and hansu-selfplay of build, else of the run's newest build (any build: the rules
    do not depend on the weights), else of the checkout's build/; None where there is none."""
    builds = sorted(glob.glob(os.path.join(run, "builds", "*", ".hansu-built")),
                    key=os.path.getmtime, reverse=True)
    folders = [build] if build else [os.path.dirname(b) for b in builds] + [
        os.path.join(REPO, "build")]
    for folder in folders:
        engine = os.path.join(folder, "engine", "hansu")
        selfplay = os.path.join(folder, "selfplay", "hansu-selfplay")
        if os.access(engine, os.X_OK):
            return engine, selfplay if os.access(selfplay, os.X_OK) else None
    return None, None


def sample_ids(games, seed, more):
    """Game ids of the self-play sample: one game of each end reason that occurred, then
    `more` others, all drawn by a generator seeded with the iteration's seed."""
    rng = random.Random(seed)
    chosen = []
    for reason in sorted(set(int(r) for r in games.reason)):
        ids = sorted(int(i) for i in games.game_id[games.reason == reason])
        chosen.append(rng.choice(ids))
    rest = sorted(set(int(i) for i in games.game_id) - set(chosen))
    chosen += rng.sample(rest, min(more, len(rest)))
    return sorted(chosen)


def selfplay_samples(run, state, rec, selfplay, more):
    """iter-NNN/samples.pgn: the iteration's sample of self-play games (one of each end reason,
    then `more`), exported anew by hansu-selfplay export while the self-play files are there
    (the sample follows report.selfplay_games); without them the file written before, if
    any; None when there is neither."""
    k = rec["k"]
    path = os.path.join(run, f"iter-{k:03d}", "samples.pgn")
    games, _ = selfplay_games(run, k)
    if games is None or selfplay is None or len(games) == 0:
        return pgn_file.find(path)  # samples.pgn, or samples.pgn.gz as docs/ keeps it
    ids = sample_ids(games, state["config"]["run"]["seed"] * 1000 + k, more)
    folder = os.path.join(run, f"iter-{k:03d}", "selfplay")
    r = subprocess.run([selfplay, "export", "--pgn", path, folder, "--games",
                        ",".join(map(str, ids)), "--event", f"train iteration {k}: self-play"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise ReportError(f"{folder}: export of the sample failed: {r.stderr.strip()}")
    return path


def gauntlet_pgns(run):
    """The gauntlet's PGNs, RUN/gauntlet/NAME.pgn or NAME.pgn.gz (one per engine), by name."""
    paths = glob.glob(os.path.join(run, "gauntlet", "*.pgn"))
    paths += [p for p in glob.glob(os.path.join(run, "gauntlet", "*.pgn.gz"))
              if p[:-3] not in paths]
    return sorted(paths)


def viewer_games(run, state, caps, build=None):
    """The viewer's records and one line per set of games that the page holds; caps: the
    [report] settings (report_caps)."""
    engine_path, selfplay = find_tools(run, build)
    if engine_path is None:
        return [], ["No games: no hansu engine was found to compute the positions "
                    "(build one with ninja -C build hansu)."]
    sets = []  # (pgn path, group, iteration, cap; 0 = every game)
    for rec in state["iterations"]:
        k = rec["k"]
        sample = selfplay_samples(run, state, rec, selfplay, caps["selfplay_games"])
        if sample:
            sets.append((sample, "self-play", k, 0))
        for name in ("match", "confirm", "vs-first"):
            path = pgn_file.find(os.path.join(run, f"iter-{k:03d}", name + ".pgn"))
            if path:
                sets.append((path, name, k, caps["match_games"]))
        external = (rec.get("external") or {}).get("pgn")
        path = pgn_file.find(os.path.join(run, f"iter-{k:03d}", os.path.basename(external))
                             ) if external else None
        if path:
            sets.append((path, "external", k, caps["match_games"]))
    for path in gauntlet_pgns(run):
        sets.append((path, "gauntlet " + pgn_file.stem(path), None, caps["gauntlet_games"]))
    records, notes = [], []
    with game_viewer.FenEngine(engine_path) as engine:
        for path, group, k, cap in sets:
            games = game_viewer.read_pgn(path)
            shown = games[:cap] if cap else games
            for i, g in enumerate(shown):
                records.append(game_viewer.record(g, engine, group=group, iteration=k,
                                                  source=path, index=i))
            rel = os.path.relpath(path, run)
            notes.append(f"{group}{'' if k is None else f' of iteration {k}'}: {len(shown)}"
                         f"{'' if len(shown) == len(games) else f' of {len(games)}'} games "
                         f"(`{rel}`)")
    if not gauntlet_pgns(run):
        g = state.get("gauntlet") or {}
        notes.append("gauntlet: no games" + (f" (skipped: {g['skipped']})" if "skipped" in g
                                             else ""))
    notes.append("caps: " + ", ".join(f"`report.{k} = {v}`" for k, v in sorted(caps.items())) +
                 " (docs/report-viewer.md)")
    return records, notes


def write_html(run, lines, out, caps, build=None):
    """report.html: report.md's content with the plots inlined, and the board viewer."""
    def image(name):
        path = os.path.join(run, name)
        if not os.path.exists(path):
            return None
        with open(path, "rb") as f:
            return "data:image/png;base64," + base64.b64encode(f.read()).decode()
    try:
        records, notes = viewer_games(run, state_of(run), caps, build)
    except (game_viewer.ViewerError, ReportError) as e:
        print(f"train_report: report.html without games: {e}", file=sys.stderr)
        records, notes = [], [f"No games: {e}"]
    body = report_markdown.markdown_html(lines, image)
    intro = report_markdown.markdown_html(
        ["## Games", "", "Step through the games with the buttons or the keys (← → step, "
         "Home/End first/last, space auto-play, f flip). Positions are computed by Hansu's "
         "rules core; the page fetches nothing.", ""] + [f"- {n}" for n in notes], image)
    title = lines[0].lstrip("# ").replace("`", "") if lines else "Training run"
    file_write.replace_file(out, game_viewer.page(title, body, records, intro))
    return len(records)


def state_of(run):
    with open(os.path.join(run, "state.json")) as f:
        return json.load(f)


def main(argv):
    ap = argparse.ArgumentParser(prog="train_report.py", description=__doc__.split("\n")[0])
    ap.add_argument("run", help="the run folder (scripts/train --run)")
    ap.add_argument("--build", help="build folder of the viewer's hansu and hansu-selfplay")
    ap.add_argument("--set", action="append", default=[], metavar="report.KEY=N",
                    help="a [report] setting for this report only (repeatable)")
    args = ap.parse_args(argv[1:])
    run, build = args.run, args.build
    path = os.path.join(run, "state.json")
    try:
        with open(path) as f:
            state = json.load(f)
        if not isinstance(state, dict) or not isinstance(state.get("iterations"), list):
            raise ReportError(f"{path}: not a training state (no list of iterations)")
        caps = report_caps(run, state, args.set)
        plots = ["loss.png", "elo.png"]
        plot_loss(run, state, os.path.join(run, "loss.png"))
        plot_elo(state, os.path.join(run, "elo.png"))
        if (state.get("gauntlet") or {}).get("results"):
            plot_gauntlet(state, os.path.join(run, "gauntlet.png"))
            plots.append("gauntlet.png")
        # Without the self-play files these would be redrawn without their data.
        keep = not have_selfplay(run, state)
        for name, plot in (("reasons.png", plot_reasons), ("pairings.png", plot_pairings)):
            if keep and os.path.exists(os.path.join(run, name)):
                print(f"kept {name}: the self-play files are not in {run}")
                continue
            plot(run, state, os.path.join(run, name))
            plots.append(name)
        lines = write_markdown(run, state, os.path.join(run, "report.md"))
        shown = write_html(run, lines, os.path.join(run, "report.html"), caps, build)
    except ReportError as e:
        print(f"train_report: {e}", file=sys.stderr)
        return 1
    except json.JSONDecodeError as e:
        print(f"train_report: {path}: not JSON ({e})", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"train_report: {e.filename or path}: {e.strerror or e}", file=sys.stderr)
        return 1
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        print(f"train_report: {path}: unexpected content ({type(e).__name__}: {e})",
              file=sys.stderr)
        return 1
    print(f"wrote {os.path.join(run, 'report.md')}, {len(plots)} plots and report.html "
          f"({shown} games in its viewer)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
