# SPDX-License-Identifier: MIT
"""scripts/train's data steps, a part of the loop's Run (scripts/train_loop.py): self-play (with
the settings each iteration's record keeps, replayed when its shards are missing), the window of
positions, the Texel tuning and the nnue training of a candidate, and its rejection before its
match. It imports train_config, never the loop."""
import glob
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_config import (  # noqa: E402
    SELFPLAY_SETTINGS, TRAIN_NOT_WRITTEN, TrainError, eval_of, now_iso, openings_file,
    variant_flags, variant_of)


class DataSteps:
    """Run's self-play, window, tuning and training steps (mixed into train_loop.Run)."""

    def selfplay_settings(self, k):
        """Today's settings of iteration k's self-play (SELFPLAY_SETTINGS): the seed
        run.seed * 1000 + k, [selfplay]'s games, nodes, random plies, openings (the setting,
        "suite" or a file of the repository) and extra flags, and the variant. The thread count
        is left out: hansu-selfplay plays the same games with any (game i seeds from (seed, i))."""
        c = self.config["selfplay"]
        return {"seed": self.config["run"]["seed"] * 1000 + k, "games": c["games"],
                "nodes": c["nodes"], "random_plies": c["random_plies"],
                "openings": c.get("openings", ""), "extra": list(c["extra"]),
                "variant": variant_of(self.config)}

    def played_settings(self, k, record, replay=False):
        """The settings iteration k's self-play is played with: those its record keeps
        (selfplay_settings, written when it was first started), so that a resumed or replayed
        self-play plays the same games whatever today's config says; each setting that differs
        from today's is logged by name. A record without them takes today's and keeps them (a
        replay of a record from before the field warns: its first games may have had others)."""
        today = self.selfplay_settings(k)
        kept = record.get("selfplay_settings")
        if kept is None:
            if replay:
                self.log(f"warning: iteration {k}: state.json does not keep the settings its "
                         "self-play was played with (a run from before they were kept): played "
                         "again with today's")
            record["selfplay_settings"] = today
            self.save_state()
            return today
        diff = [f"{SELFPLAY_SETTINGS[key]}{': seed ' if key == 'seed' else ' = '}{kept[key]!r} "
                f"(today's: {today[key]!r})" for key in SELFPLAY_SETTINGS
                if kept[key] != today[key]]
        if diff:
            self.log(f"iteration {k}: self-play {'played again' if replay else 'resumed'} with "
                     f"the settings it was played with, not today's: {'; '.join(diff)}")
        return kept

    def step_selfplay(self, k, build, net="", kind="self-play", settings=None):
        """Iteration k's self-play with the build's hansu-selfplay: with net (a .nnue file) the
        net evaluates, else the classical evaluation, named even where a net is compiled in.
        settings: as selfplay_settings() gives them (default: today's). Its CPU time counts as
        kind ("regenerate" when ensure_selfplay plays it again)."""
        c = settings or self.selfplay_settings(k)
        out = os.path.join(self.iter_dir(k), "selfplay")
        book = openings_file(c["openings"], c["variant"])
        argv = self.launcher + [
            os.path.join(build, "selfplay", "hansu-selfplay"), "--games", str(c["games"]),
            "--nodes", str(c["nodes"]), "--random-plies", str(c["random_plies"]),
            "--seed", str(c["seed"]), "--threads", str(self.threads), "--out", out,
            "--progress", "30", "--json", os.path.join(self.iter_dir(k), "selfplay.json")] + (
                [] if c["variant"] == "janggi" else ["--variant", c["variant"]]) + (
                    ["--openings", book] if book else []) + (
                        ["--evalfile", net] if net else ["--classical"]) + c["extra"]
        if glob.glob(os.path.join(out, "shard-*.h5")):
            argv.append("--resume")  # a folder with only a half-written .tmp starts afresh
        self.run_step("self-play" if kind == "self-play" else "self-play again", argv,
                      os.path.join(self.iter_dir(k), "selfplay.log"), kind=kind)

    def selfplay_engine(self, k):
        """The engine that played iteration k's self-play, {"header": H, "net": N} (net "" for
        the classical evaluation), as its record keeps it; for a record from before the field
        (nnue mode only) the net of the engine the record names as current."""
        record = self.record_of(k)
        if "selfplay_engine" in record:
            return record["selfplay_engine"]
        name, first = record.get("current"), self.state["first"]
        if eval_of(self.config) == "nnue":
            if name == first["name"]:
                return {"header": first["header"], "net": first.get("net", "")}
            net = os.path.join(self.folder, "nets", f"{name}.nnue")
            if os.path.exists(net):
                return {"header": first["header"], "net": net}
        raise TrainError(f"iteration {k}: its self-play data is missing and state.json does not "
                         "say which engine played it; it cannot be played again")

    def ensure_selfplay(self, k):
        """Iteration k's self-play shards, played again when any is missing (a run folder
        carried to another machine without its data, or its shards deleted to save space):
        the same build, engine, seed and settings (the record's selfplay_settings, not today's
        config: played_settings), so the same games (hansu-selfplay seeds game i from (seed, i)
        and clears the search before each game). The first result is kept as
        selfplay-first.json, the counts of the two compared and logged, and the record notes
        the replay. A replay stopped half-way resumes (the .selfplay-regenerating marker).
        Returns True when the shards were played again (new files: another SHA-256 than the
        ones a training checkpoint recorded), False when they were all there."""
        d = self.iter_dir(k)
        out, path = os.path.join(d, "selfplay"), os.path.join(d, "selfplay.json")
        regen = os.path.join(d, ".selfplay-regenerating")
        first = os.path.join(d, "selfplay-first.json")
        if not os.path.exists(regen):
            self.selfplay_positions(k)  # a missing or foreign selfplay.json is named here
            with open(path) as f:
                shards = json.load(f).get("shards") or []
            missing = [x for x in shards if not isinstance(x, dict) or not os.path.isfile(
                os.path.join(out, os.path.basename(str(x.get("path", "")))))]
            if shards and not missing:
                return False
            if not os.path.exists(first):
                shutil.copyfile(path, first)
            self.log(f"iteration {k}: {len(missing)} of {len(shards)} self-play shards are "
                     f"missing: playing its games again from the run's seed")
            shutil.rmtree(out, ignore_errors=True)
            open(regen, "w").close()
        engine = self.selfplay_engine(k)
        if engine["net"] and not os.path.isfile(engine["net"]):
            raise TrainError(f"iteration {k}: its self-play net {engine['net']} is missing; "
                             "its games cannot be played again")
        build = (self.engine_build() if eval_of(self.config) == "nnue"
                 else self.build(engine["header"]))
        settings = self.played_settings(k, self.record_of(k), replay=True)
        self.step_selfplay(k, build, engine["net"], kind="regenerate", settings=settings)
        with open(first) as f:
            before = json.load(f)
        with open(path) as f:
            after = json.load(f)
        keys = ("games_saved", "positions_saved", "wins", "reasons")
        same = all(before.get(x) == after.get(x) for x in keys)
        record = self.record_of(k)
        record.setdefault("regenerated", []).append({
            "at": now_iso(), "same_counts": same, "positions_saved": after.get("positions_saved"),
            "first_positions_saved": before.get("positions_saved")})
        self.save_state()
        os.remove(regen)
        if same:
            self.log(f"iteration {k}: self-play played again: the same {after['games_saved']} "
                     f"games and {after['positions_saved']} positions as the first time")
        else:
            diff = ", ".join(f"{x} {before.get(x)} -> {after.get(x)}" for x in keys
                             if before.get(x) != after.get(x))
            self.log(f"warning: iteration {k}: self-play played again differs from the first "
                     f"time ({diff}): another build or machine; the new games are used")
        return True

    def selfplay_positions(self, k):
        """Positions in iteration k's self-play folder: `positions_saved` of the result that
        hansu-selfplay writes with --json (docs/json-outputs.md; a resumed folder's result
        counts the whole folder)."""
        path = os.path.join(self.iter_dir(k), "selfplay.json")
        try:
            with open(path) as f:
                return int(json.load(f)["positions_saved"])
        except OSError as e:
            raise TrainError(f"iteration {k}: {path}: {e.strerror}")
        except (ValueError, KeyError, TypeError) as e:
            raise TrainError(f"iteration {k}: {path}: not a hansu-selfplay result ({e})")

    def tune_window(self, k, section="tune"):
        """The iterations whose self-play iteration k tunes (or, section "nnue", trains) on,
        oldest first, and their positions: the newest first while the total stays within
        SECTION.window_positions (0: no bound), always iteration k. The data grows with the run
        until the bound."""
        c = self.config[section]
        if "window_positions" not in c:  # a run started before the window was in positions
            chosen = list(range(max(1, k - c["window"] + 1), k + 1))
            return chosen, sum(self.selfplay_positions(i) for i in chosen)
        limit, chosen, total = c["window_positions"], [], 0
        for i in range(k, 0, -1):
            n = self.selfplay_positions(i)
            if chosen and limit and total + n > limit:
                break
            chosen.append(i)
            total += n
        return chosen[::-1], total

    def step_tune(self, k, build, record):
        c = self.config["tune"]
        window, positions = self.tune_window(k)
        for i in window:
            self.ensure_selfplay(i)
        record["tune_window"] = {"iterations": window, "positions": positions}
        self.log(f"tune window: iterations {window[0]}-{window[-1]}, {positions} positions")
        inputs = [os.path.join(self.iter_dir(i), "selfplay") for i in window]
        d = self.iter_dir(k)
        l2 = ["--l2", str(c["l2"])] if "l2" in c else []  # older runs: the tuner's default
        argv = self.launcher + [os.path.join(build, "tuner", "hansu-tune")] + inputs + l2 + [
            "--out", os.path.join(d, "candidate.h"), "--loss-csv", os.path.join(d, "loss.csv"),
            "--epochs", str(c["epochs"]), "--lr", str(c["lr"]), "--batch", str(c["batch"]),
            "--patience", str(c["patience"]), "--skip-plies", str(c["skip_plies"]),
            "--seed", str(self.config["run"]["seed"] * 1000 + k),
            "--threads", str(self.threads)] + variant_flags(self.config) + c["extra"]
        self.run_step("tune", argv, os.path.join(d, "tune.log"))

    def step_train(self, k, build, record):
        """Iteration k's candidate net, iter-NNN/candidate.nnue, trained by the build's
        hansu-nnue on the newest self-play (nnue.window_positions) from random weights, or with
        nnue.init = "current" from the current net's (hansu-nnue --init; a classical current
        engine has none), its loss per epoch in train.csv and its summary in train.json; a
        training stopped half-way resumes from its checkpoint. The labelled stores
        (nnue.labelled and the external matches labelled so far, train_labelled.py) are inputs
        beside the window. Exit 3 (TRAIN_NOT_WRITTEN: the
        quantised net failed --quant-bound, train.json says why) is a rejected candidate, not a
        failed step (candidate_rejection)."""
        c = self.config["nnue"]
        window, positions = self.tune_window(k, "nnue")
        replayed = [i for i in window if self.ensure_selfplay(i)]
        record["train_window"] = {"iterations": window, "positions": positions}
        self.log(f"train window: iterations {window[0]}-{window[-1]}, {positions} positions")
        d = self.iter_dir(k)
        ckpt = os.path.join(d, "train.ckpt")
        argv = [os.path.join(build, "tuner", "nnue", "hansu-nnue")] + [
            os.path.join(self.iter_dir(i), "selfplay") for i in window] + self.labelled_argv(
                record) + [
            "--out", os.path.join(d, "candidate.nnue"), "--json", os.path.join(d, "train.json"),
            "--csv", os.path.join(d, "train.csv"), "--checkpoint", ckpt,
            "--epochs", str(c["epochs"]), "--batch", str(c["batch"]), "--lr", str(c["lr"]),
            "--lr-min", str(c["lr_min"]), "--lambda", str(c["lambda"]),
            "--seed", str(self.config["run"]["seed"] * 1000 + k),
            "--threads", str(self.threads)] + variant_flags(self.config) + c["extra"]
        current = self.state["current"].get("net", "")
        if c.get("init", "scratch") == "current" and current:
            argv += ["--init", current]
        if os.path.exists(ckpt) and replayed:
            # The checkpoint recorded the digests of the shards it trained on; shards played
            # again are new files, which hansu-nnue --resume refuses: this training restarts.
            self.log(f"iteration {k}: self-play of iterations {replayed} played again: its "
                     "training starts again (its checkpoint names the old shards)")
            os.remove(ckpt)
        if os.path.exists(ckpt):
            argv.append("--resume")
        self.run_step("train", argv, os.path.join(d, "train.log"),
                      ok_exits=(0, TRAIN_NOT_WRITTEN))

    def train_summary(self, k):
        """The figures of iteration k's train.json that state.json keeps (the report's table),
        and whether a net was written (hansu-nnue's "written": false with its "reason" when the
        quantised net failed --quant-bound) and equals its --init net ("quant_equals_init")."""
        path = os.path.join(self.iter_dir(k), "train.json")
        try:
            with open(path) as f:
                t = json.load(f)
            written = t.get("written", True) is not False
            epochs = t["epochs"] if written else t.get("epochs") or []
            last = epochs[-1] if epochs else {}
            return {"epochs": len(epochs), "train_loss": last.get("train_loss"),
                    "valid_loss": last.get("valid_loss"),
                    "train_positions": t["train_positions"] if written else t.get(
                        "train_positions"),
                    "valid_positions": t["valid_positions"] if written else t.get(
                        "valid_positions"),
                    "net_sha256": t["out_sha256"] if written else None,
                    "seconds": t.get("seconds"), "init": t.get("init"), "lr": t.get("lr"),
                    "written": written, "reason": t.get("reason"),
                    "quant_equals_init": t.get("quant_equals_init"),
                    "quant_max_abs_cp": t.get("quant_max_abs_cp"),
                    "quant_bound_cp": t.get("quant_bound_cp")}
        except OSError as e:
            raise TrainError(f"iteration {k}: {path}: {e.strerror}")
        except (ValueError, KeyError, TypeError, IndexError, AttributeError) as e:
            raise TrainError(f"iteration {k}: {path}: not a hansu-nnue result ({e})")

    def candidate_rejection(self, k, summary):
        """Why iteration k's candidate net is rejected before its match, or None: hansu-nnue
        wrote no net (its quantised net failed --quant-bound), or the quantised net equals its
        --init net (the update was smaller than the rounding: an SPRT of a net against itself
        would only cost time)."""
        if not summary.get("written", True):
            why = summary.get("reason") or "no reason given"
            return f"hansu-nnue wrote no net ({why}); see iter-{k:03d}/train.log"
        if summary.get("quant_equals_init") is True:
            init = os.path.basename(summary.get("init") or "the --init net")
            return (f"rounding erased the update: the quantised net equals its --init net "
                    f"{init} (the training moved no weight by a quantisation step)")
        return None
