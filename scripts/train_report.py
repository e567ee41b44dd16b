#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Writes report.md and its PNG plots for a training run folder made by scripts/train.

    scripts/train_report.py runs/train-20261130-050000

Plots (matplotlib, Agg): loss.png (training and validation MSE per epoch, one line pair per
iteration), elo.png (Elo of each accepted candidate against the first engine, 95% error bars),
reasons.png (self-play and match results by end reason, per iteration), pairings.png (Cho win
share per formation pairing, 4x4 heat map over all self-play games of the run).

The self-play HDF5 files may be gone (docs/train-example keeps none): an iteration's game
count then comes from the settings (a finished iteration played selfplay.games), and the two
plots drawn from those files are kept as they are rather than redrawn empty. A file that
cannot be read is reported in one line naming it (exit 1), without a traceback.
"""
import csv
import glob
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hansu_shard import ShardError  # noqa: E402
from selfplay_stats import load  # noqa: E402


class ReportError(Exception):
    """A run folder file that cannot be read; the message names it."""


def read_loss(path):
    rows = []
    with open(path) as f:
        for n, row in enumerate(csv.DictReader(f), start=2):
            try:
                rows.append((int(row["epoch"]), float(row["train_mse"]),
                             float(row["valid_mse"])))
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
    # Colour by iteration; with many iterations only some are named in the legend.
    step = max(1, math.ceil(len(records) / 6))
    colours = plt.cm.viridis(np.linspace(0, 0.9, max(1, len(records))))
    for i, rec in enumerate(records):
        path = os.path.join(run, f"iter-{rec['k']:03d}", "loss.csv")
        if not os.path.exists(path):
            continue
        rows = read_loss(path)
        if not rows:
            continue
        e, t, v = zip(*rows)
        named = i % step == 0 or i == len(records) - 1
        ax.plot(e, t, color=colours[i], label=f"iter {rec['k']} train" if named else None)
        ax.plot(e, v, "--", color=colours[i],
                label=f"iter {rec['k']} validation" if named else None)
    ax.set_xlabel("epoch")
    ax.set_ylabel("MSE")
    ax.set_title("Texel tuning loss")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def plot_elo(state, out):
    xs, ys, lo, hi, names = [], [], [], [], []
    for rec in state["iterations"]:
        e = rec.get("elo_vs_first")
        if not rec.get("accepted") or not e:
            continue
        elo, err = number(e.get("elo")), number(e.get("elo_error"))
        if math.isnan(elo):
            continue
        err = 400.0 if math.isnan(err) or math.isinf(err) else err
        xs.append(rec["k"])
        ys.append(elo)
        lo.append(err)
        hi.append(err)
        names.append(f"iter-{rec['k']:03d}")
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.axhline(0, color="grey", lw=0.8)
    if xs:
        ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o-", capsize=4)
        for x, y, n in zip(xs, ys, names):
            ax.annotate(n, (x, y), textcoords="offset points", xytext=(4, 6), fontsize=7)
    else:
        ax.text(0.5, 0.5, "no accepted candidate yet", ha="center", transform=ax.transAxes)
    ax.set_xlabel("iteration")
    ax.set_ylabel("Elo vs the first engine (95% error)")
    ax.set_title("Accepted candidates")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def selfplay_games(run, k):
    folder = os.path.join(run, f"iter-{k:03d}", "selfplay")
    if not glob.glob(os.path.join(folder, "shard-*.h5")):
        return None, None
    try:
        games, _, attrs = load([folder])
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
    frames, formations = [], None
    for rec in state["iterations"]:
        games, attrs = selfplay_games(run, rec["k"])
        if games is not None:
            frames.append(games)
            formations = attrs["formation_names"].split(",")
    fig, ax = plt.subplots(figsize=(6, 5))
    if frames:
        share = np.full((4, 4), np.nan)
        count = np.zeros((4, 4), dtype=int)
        for g in frames:
            for c in range(4):
                for h in range(4):
                    sel = (g.cho_formation == c) & (g.han_formation == h)
                    count[c, h] += int(sel.sum())
        for c in range(4):
            for h in range(4):
                wins = sum(int(((g.cho_formation == c) & (g.han_formation == h) &
                                (g.winner == 0)).sum()) for g in frames)
                if count[c, h]:
                    share[c, h] = wins / count[c, h]
        im = ax.imshow(share, vmin=0, vmax=1, cmap="coolwarm")
        for c in range(4):
            for h in range(4):
                if count[c, h]:
                    ax.text(h, c, f"{share[c, h]:.2f}\n({count[c, h]})", ha="center",
                            va="center", fontsize=7)
        ax.set_xticks(range(4), formations, rotation=30, fontsize=7)
        ax.set_yticks(range(4), formations, fontsize=7)
        ax.set_xlabel("Han formation")
        ax.set_ylabel("Cho formation")
        fig.colorbar(im, ax=ax, label="Cho win share")
    ax.set_title("Cho win share per formation pairing (self-play)")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def write_markdown(run, state, out):
    cfg = state["config"]
    lines = [f"# Training run `{os.path.basename(run)}`", "",
             f"Started {state.get('started', '?')}; iterations done: {state['iteration']}"
             f"{' (one in progress)' if state.get('in_progress') else ''}; accepted: "
             f"{', '.join(state['accepted']) or 'none'}.", "",
             "| iteration | played as current | self-play games | candidate vs current | "
             "nElo ± 95% | LLR | SPRT | accepted | Elo vs first ± 95% |",
             "|---|---|---|---|---|---|---|---|---|"]
    for rec in state["iterations"]:
        m = rec.get("match", {})
        e = rec.get("elo_vs_first") or {}
        lines.append(
            f"| {rec['k']} | {rec.get('current', '')} | {selfplay_count(run, state, rec)} | "
            f"{m.get('score', '')} | {m.get('nelo', '')} ± {m.get('nelo_error', '')} | "
            f"{m.get('llr', '')} | {m.get('sprt', '')} | "
            f"{'yes' if rec.get('accepted') else 'no' if 'accepted' in rec else ''} | "
            f"{(e.get('elo', '') + ' ± ' + e.get('elo_error', '')) if e else ''} |")
    lines += ["", "## Settings", "", "```toml"]
    for section, values in cfg.items():
        lines.append(f"[{section}]")
        for k, v in values.items():
            lines.append(f"{k} = {json.dumps(v)}")
    lines += ["```", "", "## Plots", "",
              "Training and validation loss per epoch, per iteration:", "", "![loss](loss.png)",
              "", "Elo of each accepted candidate against the first engine:", "",
              "![elo](elo.png)", "", "Results by end reason:", "", "![reasons](reasons.png)",
              "", "Cho win share per formation pairing:", "", "![pairings](pairings.png)", ""]
    with open(out + ".tmp", "w") as f:
        f.write("\n".join(lines))
    os.replace(out + ".tmp", out)


def main(argv):
    if len(argv) != 2:
        print(__doc__)
        return 2
    run = argv[1]
    path = os.path.join(run, "state.json")
    try:
        with open(path) as f:
            state = json.load(f)
        if not isinstance(state, dict) or not isinstance(state.get("iterations"), list):
            raise ReportError(f"{path}: not a training state (no list of iterations)")
        plots = ["loss.png", "elo.png"]
        plot_loss(run, state, os.path.join(run, "loss.png"))
        plot_elo(state, os.path.join(run, "elo.png"))
        # Without the self-play files these would be redrawn without their data.
        keep = not have_selfplay(run, state)
        for name, plot in (("reasons.png", plot_reasons), ("pairings.png", plot_pairings)):
            if keep and os.path.exists(os.path.join(run, name)):
                print(f"kept {name}: the self-play files are not in {run}")
                continue
            plot(run, state, os.path.join(run, name))
            plots.append(name)
        write_markdown(run, state, os.path.join(run, "report.md"))
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
    print(f"wrote {os.path.join(run, 'report.md')} and {len(plots)} plots")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
