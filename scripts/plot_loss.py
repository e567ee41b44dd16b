#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Plots the loss curve that hansu-tune writes with --loss-csv as a PNG.

Usage: scripts/plot_loss.py LOSS.csv [OUT.png]   (default OUT: LOSS.png beside the CSV)
The CSV has the columns epoch,train_mse,valid_mse,seconds; epoch 0 is the starting weights.
"""
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")  # files only, no display needed
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    epochs, train, valid = [], [], []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            epochs.append(int(row["epoch"]))
            train.append(float(row["train_mse"]))
            valid.append(float(row["valid_mse"]))
    return epochs, train, valid


def main(argv):
    if len(argv) not in (2, 3) or argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    src = argv[1]
    out = argv[2] if len(argv) == 3 else src.rsplit(".", 1)[0] + ".png"
    try:
        epochs, train, valid = read(src)
    except OSError as e:
        print(f"plot_loss: {src}: cannot read: {e.strerror or e}", file=sys.stderr)
        return 1
    except KeyError as e:
        print(f"plot_loss: {src}: no column {e} (is it a --loss-csv file?)", file=sys.stderr)
        return 1
    except (ValueError, TypeError, csv.Error) as e:  # text that is not numbers, short rows
        print(f"plot_loss: {src}: malformed: {e}", file=sys.stderr)
        return 1
    if not epochs:
        print(f"plot_loss: {src}: no rows", file=sys.stderr)
        return 1
    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=120)
    ax.plot(epochs, train, label="training MSE", color="tab:blue")
    if any(not math.isnan(v) for v in valid):
        ax.plot(epochs, valid, label="validation MSE", color="tab:orange")
        best = min(range(len(valid)),
                   key=lambda i: valid[i] if not math.isnan(valid[i]) else math.inf)
        ax.axvline(epochs[best], color="gray", linestyle=":",
                   label=f"best validation (epoch {epochs[best]})")
    ax.set_xlabel("epoch")
    ax.set_ylabel("MSE (Texel loss)")
    ax.set_title("hansu-tune loss curve")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    try:
        fig.savefig(out)
    except (OSError, ValueError) as e:
        print(f"plot_loss: {out}: cannot write: {e}", file=sys.stderr)
        return 1
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
