# SPDX-License-Identifier: MIT
"""scripts/train's labelled data (issue 55, items 3 and 4): stores written by `hansu-selfplay
label` (games against other engines, each position scored by a Hansu search deeper than
self-play's) that every candidate net trains on beside its self-play window. Two sources:
nnue.labelled, folders (or single .h5 files) checked when the run starts, and, with
external.label_nodes > 0, the external gate's own matches labelled by the loop into
RUN/labelled/NAME-DIGEST/ after each is played (docs/nnue.md, "Labelled games in the loop").

A part of the loop's Run (mixed into train_loop.Run); it imports train_config, never the loop.
Reading a store's attributes needs h5py (scripts/hansu_shard.py), asked for only when labelled
data is used."""
import glob
import importlib.util
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hansu_shard  # noqa: E402
from train_config import (  # noqa: E402
    REPO, TrainError, labelled_settings, variant_flags, variant_of)

# What `hansu-selfplay label` writes into every file (docs/data-format.md, "Labelled games"):
# the formation_schedule's first word and the run_config's.
LABEL_SCHEDULE = "labelled"
LABEL_CONFIG = "label "
NOT_SEARCHED = 4  # flags bit 2: a position stored but not searched (score 0): trainers drop it


def store_files(path):
    """The shard files of a store: a folder's shard-*.h5 (as hansu-nnue reads a run folder), or
    the file itself."""
    if os.path.isdir(path):
        return sorted(glob.glob(os.path.join(path, "shard-*.h5")))
    return [path]


def store_positions(path, variant, name):
    """The positions of a labelled store (a folder or one file) that were searched (flags bit 2
    clear: what the trainer learns from); TrainError naming the setting's value name when it is
    missing, empty, not a Hansu store, not written by `hansu-selfplay label` (plain self-play,
    imported .gib games) or of another variant."""
    where = f"{name!r} ({path})" if name != path else repr(path)
    if not os.path.exists(path):
        raise TrainError(f"labelled store {where}: no such file or folder")
    files = store_files(path)
    if not files:
        raise TrainError(f"labelled store {where}: a folder without shard files (shard-*.h5)")
    if importlib.util.find_spec("h5py") is None:  # hansu_shard.open_shard's reader
        raise TrainError(f"labelled store {where}: reading it needs h5py (Debian package "
                         "python3-h5py)")
    total = 0
    for f in files:
        try:
            with hansu_shard.open_shard(f) as h5:
                a = hansu_shard.attrs(h5)
                flags = h5["positions/flags"][:]
        except hansu_shard.ShardError as e:
            raise TrainError(f"labelled store {where}: {e}")
        except (KeyError, OSError) as e:
            raise TrainError(f"labelled store {where}: {f}: no positions/flags column ({e})")
        if not a.get("formation_schedule", "").startswith(LABEL_SCHEDULE) or not a.get(
                "run_config", "").startswith(LABEL_CONFIG):
            raise TrainError(f"labelled store {where}: {os.path.basename(f)} was not written "
                             "by hansu-selfplay label (its formation_schedule is "
                             f"{a.get('formation_schedule', '')[:40]!r}: plain self-play or "
                             "imported games)")
        got = a.get("variant", "janggi")
        if got != variant:
            raise TrainError(f"labelled store {where}: {os.path.basename(f)} holds {got} games, "
                             f"the run trains {variant}")
        total += int((flags & NOT_SEARCHED == 0).sum())
    return total


def check_labelled(c):
    """nnue.labelled's stores, before any work (scripts/train, a new run or --resume): each
    exists, was written by hansu-selfplay label and is of the run's variant; with
    external.label_nodes, h5py is there to count what the loop labels. Returns
    {name: (absolute path, searched positions)}, in the setting's order; {} without any."""
    if c["run"].get("eval", "texel") != "nnue":
        return {}
    x = c.get("external") or {}
    if x.get("enabled") and labelled_settings(c)["nodes"]:
        if importlib.util.find_spec("h5py") is None:  # store_positions counts a match
            raise TrainError("setting external.label_nodes: counting the labelled positions "
                             "needs h5py (Debian package python3-h5py)")
    variant = variant_of(c)
    return {name: (os.path.join(REPO, name), store_positions(os.path.join(REPO, name), variant,
                                                             name))
            for name in labelled_settings(c)["labelled"]}


class LabelSteps:
    """Run's labelled data (mixed into train_loop.Run): the inputs every candidate trains on
    besides its window, and the label step of the external gate's matches."""

    def labelled_inputs(self):
        """The labelled stores a candidate trains on now: nnue.labelled's, then every external
        match labelled so far (state.json's labelled, in the order labelled); a list of
        (path, searched positions). self.labelled_counts is check_labelled's, made by main()."""
        counts = getattr(self, "labelled_counts", None)
        if counts is None:
            counts = self.labelled_counts = check_labelled(self.config)
        out = [counts[n] for n in labelled_settings(self.config)["labelled"]]
        out += [(e["folder"], e["positions"]) for e in self.state.get("labelled", [])
                if e.get("done")]
        return out

    def labelled_argv(self, record):
        """hansu-nnue's inputs of labelled data, each labelled_repeat times, the window
        record's labelled entry set (folders and searched positions, counted once) and logged."""
        inputs = self.labelled_inputs()
        if not inputs:
            return []
        repeat = labelled_settings(self.config)["repeat"]
        positions = sum(n for _, n in inputs)
        # The share of labelled positions among those read (the window's counted as
        # hansu-selfplay saved them), as a run's measure of how foreign its data is.
        read = positions * repeat
        share = round(read / (read + record["train_window"]["positions"]), 4) if read else 0.0
        record["train_window"]["labelled"] = {"folders": [p for p, _ in inputs],
                                              "positions": positions, "repeat": repeat,
                                              "share": share}
        self.log(f"labelled data: {len(inputs)} store{'s' if len(inputs) > 1 else ''}, "
                 f"{positions} positions searched"
                 f"{f', each read {repeat} times' if repeat > 1 else ''}; "
                 f"{100 * share:.1f} % of the positions read")
        return [p for p, _ in inputs] * repeat

    def check_label_flags(self, build):
        """external.label_flags checked by the run's own hansu-selfplay (label --check-args),
        once a process, before an iteration's work: a bad flag or value would otherwise stop the
        run only at its first labelled match, hours in. Refused naming the setting and the
        tool's reason."""
        s = labelled_settings(self.config)
        if not s["nodes"] or not s["flags"] or getattr(self, "label_flags_checked", False):
            return
        argv = [os.path.join(build, "selfplay", "hansu-selfplay"), "label", "--check-args",
                "--nodes", str(s["nodes"])] + variant_flags(self.config) + s["flags"]
        r = subprocess.run(argv, capture_output=True, text=True)
        if r.returncode != 0:
            why = (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[0]
            raise TrainError(f"setting external.label_flags = {s['flags']!r}: refused by "
                             f"hansu-selfplay label: {why.replace('hansu-selfplay label: ', '')}")
        self.label_flags_checked = True

    def label_match(self, figure, engine):
        """external.label_nodes > 0: the games of an external match (figure: its record, with
        its pgn; engine as hansu() takes them) labelled by the run's hansu-selfplay label into
        RUN/labelled/NAME-DIGEST/ with the net external.label_net, or else the current engine's
        (the classical evaluation when it has none), at label_nodes a search, run.threads
        threads. Kept in state.json's labelled (the folder, net, nodes, positions, done), so a
        finished match is never labelled again and one stopped half-way resumes with the net
        and nodes it started with (hansu-selfplay label --resume keeps its finished shards)."""
        s = labelled_settings(self.config)
        if not s["nodes"]:
            return
        name = f"{figure['engine']}-{figure['digest']}"
        entries = self.state.setdefault("labelled", [])
        entry = next((e for e in entries if e.get("name") == name), None)
        if entry and entry.get("done"):
            return
        if entry is None:
            net = (os.path.join(REPO, s["net"]) if s["net"] else
                   self.state["current"].get("net", ""))
            entry = {"name": name, "pgn": figure["pgn"], "net": net, "nodes": s["nodes"],
                     "flags": list(s["flags"]), "done": False,
                     "folder": os.path.join(self.folder, "labelled", name)}
            entries.append(entry)
            self.save_state()
        out, result = entry["folder"], entry["folder"] + ".json"
        os.makedirs(os.path.dirname(out), exist_ok=True)
        argv = [os.path.join(self.engine_build(), "selfplay", "hansu-selfplay"), "label",
                "--out", out, "--nodes", str(entry["nodes"]), "--threads", str(self.threads),
                "--json", result] + variant_flags(self.config) + (
                    ["--evalfile", entry["net"]] if entry["net"] else ["--classical"]) + entry[
                        "flags"]
        if glob.glob(os.path.join(out, "shard-*.h5")):
            argv.append("--resume")  # a folder with only a half-written .tmp starts afresh
        self.run_step(f"label {name}", argv + [entry["pgn"]], os.path.join(
            os.path.dirname(out), name + ".log"), kind="label")
        try:
            entry["positions"] = store_positions(out, variant_of(self.config), out)
            with open(result) as f:
                entry["games"] = json.load(f)["games_stored"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise TrainError(f"label {name}: no labelling result in {result} ({e})")
        entry["done"] = True
        self.save_state()
        self.log(f"labelled {name}: {entry['games']} games, {entry['positions']} positions "
                 f"searched at {entry['nodes']} nodes into {out}; later candidates train on it")
