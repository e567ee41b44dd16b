# SPDX-License-Identifier: MIT
"""The overnight training loop: self-play -> tune -> build -> match -> accept, repeated.

Each iteration plays self-play games with the current engine, tunes the evaluation on a window
of the recent self-play folders (measured in positions), builds a candidate engine from the
emitted weights header, plays it against the current engine with an SPRT, and accepts it (its
header becomes current, kept under data/weights/ with its provenance) when the SPRT accepts H1
and, with match.confirm, a second SPRT with its own seed accepts H1 too (docs/tuning.md,
"Verdicts over a night"), and, with the [external] gate, it does not lose beyond chance against
Fairy-Stockfish at a real clock's node counts beside the current engine (docs/tuning.md, "The
external gate"; scripts/external_gate.py). Every accepted candidate then plays the first engine
in a fixed-length match (match.elo_games games at match.elo_nodes, openings from a seed of their
own) for the run's Elo curve, and the end of the run plays a gauntlet of the final engine (and
the first) against Fairy-Stockfish at a time control (the [gauntlet] settings). All the work is
done by the C programs (hansu-selfplay, hansu-tune, hansu-match); this script orders them, logs every
step into the run folder, and can resume a run at the step where it stopped.

With run.eval = "nnue" the loop trains nets instead (docs/nnue.md, "The loop of nets"): self-play
with the current net, a candidate net trained by hansu-nnue on a window of the newest self-play,
loaded at run time (EvalFile) into the run's one build, the same SPRTs, Elo match and gauntlet,
accepted nets kept in RUN/nets/ with their provenance. It is data/train.toml's overnight default
for every variant: from the shipped net, sized for the cores found (size_for_cores), its final
net installed as engine/VARIANT/net.nnue and kept in data/nets/ with its provenance; the Texel
loop's overnight run is data/train-texel.toml.

The command is scripts/train (a wrapper of main() here); tests import this module.
Its parts, which never import it: train_config.py (the settings, their checks and
state.json's shape), train_process.py (the children and the run folder's lock), train_steps.py
(self-play, the window, tuning and training), train_matches.py (the SPRTs, the external gate,
the Elo matches and the gauntlet) and train_labelled.py (labelled stores of games against other
engines: nnue.labelled and the external matches labelled by the loop); this module holds the
run folder's driver (Run: its state, builds, iterations, acceptance and installs) and main(), and
re-exports train_config's names.

Usage: scripts/train [--config FILE] [--set SECTION.KEY=VALUE ...] [--run DIR] [--resume]
See data/train.toml for every setting; without --config data/train-demo.toml's short demo is
used over it.
"""
import argparse
import datetime
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import file_write  # noqa: E402
import kept_files  # noqa: E402
from train_config import (  # noqa: E402,F401 (also the names tests reach as train_loop's)
    BASE_CONFIG, DEMO_CONFIG, ELO_SEED_BASE, EVALS, FRACTIONAL, GAUNTLET_SEED_BASE, MEASURE_KINDS,
    NETS_DIR, NNUE_INITS, NNUE_TOOLS, PER_CORE, RECORD_OPTIONAL, RENAMED, REPO, REQUIRED_SETTINGS,
    SELFPLAY_SETTINGS, SETTINGS_KINDS, SHIPPED_NET, SPRT_KEYS, STATE_FIELDS, STATE_OPTIONAL,
    TRAIN_NOT_WRITTEN, TrainError, VARIANTS, XIANGQI_CONFIG, apply_sets, check_config,
    check_external_engine, check_gauntlet, check_net, check_nnue, check_present, check_report,
    check_sprt, check_state, check_types, config_problem, elo_nodes, eval_of, is_int, is_number,
    kind_problem, load_config, net_file, now_iso, openings_file, openings_flags, openings_path,
    parse_value, read_state, read_toml, renamed_hint, run_cores, settings_problem, sha256_file,
    size_for_cores, start_header, start_net_path, variant_flags, variant_of, weights_header,
    write_json_atomic)
from train_matches import MatchSteps, parse_match_json  # noqa: E402,F401
from train_process import (  # noqa: E402,F401 (lock_folder: tests reach it as train_loop's)
    add_cpu, children_cpu, die_with_parent, end_group, lock_folder)
from train_steps import DataSteps  # noqa: E402
from train_labelled import LabelSteps, check_labelled  # noqa: E402

class Run(DataSteps, MatchSteps, LabelSteps):
    """A run folder: state.json, log.txt, builds/, weights/, iter-NNN/ (and nets/ in the nnue
    mode)."""

    def __init__(self, folder, config):
        self.folder = folder
        self.config = config
        self.state_path = os.path.join(folder, "state.json")
        self.log_path = os.path.join(folder, "log.txt")
        self.threads = config["run"]["threads"] or os.cpu_count() or 1
        # [cluster] launcher: put before self-play, tuning and matches, built with MPI (a run from
        # before the section has none)
        self.launcher = list(config.get("cluster", {}).get("launcher", []))
        self.stop_requested = False
        self.wall_base = None  # the run's wall seconds before this process (state.json)
        self.wall_start = time.monotonic()

    # --- logging and state -------------------------------------------------------------
    def log(self, text):
        line = f"{now_iso()} {text}"
        print(line, flush=True)
        with open(self.log_path, "a") as f:
            f.write(line + "\n")

    def load_state(self):
        """Reads state.json. A run folder moved or copied elsewhere (its state names the
        folder it was made in) has every path under the old folder rewritten to the new one."""
        self.state = read_state(self.state_path)
        old = self.state.get("folder")
        if old is None:  # runs from before the field: the folder of weights/initial.h
            old = os.path.dirname(os.path.dirname(self.state["first"]["header"]))
        if old != self.folder:
            def moved(v):
                if isinstance(v, str) and (v == old or v.startswith(old + os.sep)):
                    return self.folder + v[len(old):]
                if isinstance(v, dict):
                    return {key: moved(x) for key, x in v.items()}
                if isinstance(v, list):
                    return [moved(x) for x in v]
                return v
            config = self.state["config"]
            self.state = moved(self.state)
            self.state["config"] = config  # settings name files of the repository, not the run
            self.log(f"the run was made in {old}: its paths now name {self.folder}")
        self.state["folder"] = self.folder
        for key in ("first", "current"):  # a net that is gone: named now, not by a step's log
            net = self.state[key].get("net", "")
            if net and not os.path.isfile(net):
                raise TrainError(f"--resume: {self.state_path}: {key}.net {net}: no such file")

    def wall_s(self):
        """Wall-clock seconds the run has been running, over all its processes (resumes)."""
        if self.wall_base is None:
            self.wall_base = self.state.get("wall_s", 0.0)
            self.wall_start = time.monotonic()
        return self.wall_base + time.monotonic() - self.wall_start

    def save_wall(self):
        """On an interrupt: the wall-clock seconds so far into state.json as it is on disk (the
        steps' records stay as last saved), so that the time of the step interrupted counts in
        run.hours (its work resumes: a match from its state file, self-play from its shards)."""
        if self.wall_base is None:
            return
        path = os.path.join(self.folder, "state.json")
        state = read_state(path)
        state["wall_s"] = round(self.wall_s(), 3)
        write_json_atomic(path, state)

    def save_state(self):
        self.state["wall_s"] = round(self.wall_s(), 3)
        self.state["threads"] = self.threads
        write_json_atomic(self.state_path, self.state)

    # --- running programs --------------------------------------------------------------
    def run_step(self, name, argv, log_file, cwd=None, kind=None, ok_exits=(0,)):
        """Runs one program, its output appended to log_file, and returns its exit status.
        Raises TrainError on failure: an exit status not in ok_exits.
        Its CPU time (user + system, its waited-for descendants included) is added to the
        state's cpu_s[kind] (kind: default the name's first word).
        The program runs in a process group of its own that dies with this script: SIGTERM
        from the kernel when the script ends in any way, SIGKILL included (die_with_parent),
        and the whole group ended when the script leaves this step early (an exception)."""
        self.log(f"{name}: {' '.join(argv)}")
        with open(log_file, "a") as log:
            log.write(f"\n=== {now_iso()} {' '.join(argv)}\n")
            log.flush()
            parent = os.getpid()
            try:
                proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                                        cwd=cwd or REPO, start_new_session=True,
                                        preexec_fn=lambda: die_with_parent(parent))
            except (OSError, subprocess.SubprocessError) as e:
                raise TrainError(f"{name}: cannot run {argv[0]}: {getattr(e, 'strerror', e)}")
            cpu = children_cpu()
            try:
                rc = proc.wait()
            except KeyboardInterrupt:
                proc.send_signal(signal.SIGINT)
                end_group(proc)
                raise
            except BaseException:
                proc.send_signal(signal.SIGTERM)
                end_group(proc)
                raise
            finally:
                add_cpu(self, kind or name.split()[0], children_cpu() - cpu)
        if rc not in ok_exits:
            raise TrainError(f"{name} failed (exit {rc}); see {log_file}")
        return rc

    def snapshot_source(self):
        """Copies the sources into RUN/src once, so that every engine of the run is built from
        the same code whatever happens to the checkout during the night. In a git checkout the
        committed tree (HEAD) is taken; uncommitted changes are left out, with a warning."""
        src = os.path.join(self.folder, "src")
        if os.path.exists(os.path.join(src, ".hansu-snapshot")):
            return src
        shutil.rmtree(src, ignore_errors=True)
        os.makedirs(src)
        # The data files the build compiles in: the bench positions and each variant's opening
        # suite (engine/CMakeLists.txt; without the suite the run's matches would play the
        # start positions, not the suite, while saying so only in their summaries).
        parts = ["CMakeLists.txt", "engine", "selfplay", "tuner", "data/bench.fen",
                 "data/bench-xiangqi.fen", "data/openings-janggi.fen", "data/openings-xiangqi.fen"]
        git = ["git", "-C", REPO]
        # The run's commit, once chosen, is kept in state.json: a run folder carried to another
        # checkout without its src/ (or with src/ deleted) is built again from that commit, not
        # from whatever HEAD is there now.
        kept = self.state.get("source_commit", "")
        head = subprocess.run(git + ["rev-parse", "--short", "--verify",
                                     (kept or "HEAD") + "^{commit}"], capture_output=True,
                              text=True)
        if kept and kept != "no-git" and head.returncode != 0:
            raise TrainError(f"the run's sources are commit {kept} (state.json source_commit), "
                             f"which {REPO} does not hold: fetch it, or start a new run")
        if head.returncode == 0 and kept != "no-git":
            commit = head.stdout.strip()
            if not kept:
                dirty = subprocess.run(git + ["status", "--porcelain", "--"] + parts,
                                       capture_output=True, text=True).stdout.strip()
                if dirty:
                    self.log("warning: uncommitted changes in the sources are not used:\n"
                             + dirty)
            # An older commit may lack one of the data files (a variant without a suite yet).
            held = subprocess.run(git + ["ls-tree", "--name-only", commit, "--"] + parts,
                                  capture_output=True, text=True).stdout.split()
            archive = subprocess.run(git + ["archive", "--format=tar", commit] +
                                     [p for p in parts if p in held],
                                     capture_output=True)
            if archive.returncode != 0:
                raise TrainError("git archive failed: " + archive.stderr.decode().strip())
            subprocess.run(["tar", "-x", "-C", src], input=archive.stdout, check=True)
        else:
            commit = "no-git"
            def ignore(folder, names):
                return [n for n in names if n == "__pycache__" or
                        (n.startswith("build") and os.path.isdir(os.path.join(folder, n)))]
            for part in parts:
                a, b = os.path.join(REPO, part), os.path.join(src, part)
                if not os.path.exists(a):
                    continue
                os.makedirs(os.path.dirname(b), exist_ok=True)
                if os.path.isdir(a):
                    shutil.copytree(a, b, ignore=ignore)
                else:
                    shutil.copyfile(a, b)
        with open(os.path.join(src, ".hansu-snapshot"), "w") as f:
            f.write(commit + "\n")
        if not kept:
            self.state["source_commit"] = commit
            self.save_state()
        self.log(f"sources of commit {commit} copied to {src}")
        return src

    def build(self, header, engine_only=False, nnue=False):
        """Builds hansu, hansu-selfplay, hansu-tune and hansu-match with this weights header, once per
        header content; with engine_only just hansu (a candidate plays its matches with the
        current build's hansu-match: the rest is built, incrementally, if it is accepted); with
        nnue hansu-nnue too. Returns the build folder."""
        sha = sha256_file(header)[:12] + ("-mpi" if self.launcher else "")
        folder = os.path.join(self.folder, "builds", sha)
        done = os.path.join(folder, ".hansu-built")
        engine_done = os.path.join(folder, ".hansu-built-engine")
        nnue_done = os.path.join(folder, ".hansu-built-nnue")
        if (os.path.exists(nnue_done) or (not nnue and os.path.exists(done)) or
                (engine_only and os.path.exists(engine_done))):
            return folder
        log = os.path.join(self.folder, "builds", sha + ".log")
        os.makedirs(os.path.dirname(log), exist_ok=True)
        if not os.path.exists(os.path.join(folder, "build.ninja")):
            flag = ("HANSU_XIANGQI_EVAL_WEIGHTS" if variant_of(self.config) == "xiangqi"
                    else "HANSU_EVAL_WEIGHTS")
            self.run_step(f"build {sha}", ["cmake", "-S", self.snapshot_source(), "-B", folder,
                                           "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                                           "-DHANSU_TESTS=OFF",
                                           f"-D{flag}={os.path.abspath(header)}"]
                          + (["-DHANSU_MPI=ON"] if self.launcher else []), log)
        targets = ["hansu"] if engine_only else ["hansu", "hansu-selfplay", "hansu-tune",
                                                 "hansu-match"] + (["hansu-nnue"] if nnue else [])
        self.run_step(f"build {sha}", ["ninja", "-C", folder] + targets, log)
        open(engine_done if engine_only else done, "w").close()
        if nnue:
            open(nnue_done, "w").close()
        return folder

    def engine_build(self):
        """The nnue mode's one build: nnue.build when set, else the run's sources built once
        with the first engine's header (every candidate is a net loaded at run time)."""
        folder = self.config["nnue"]["build"]
        if folder:
            return os.path.join(REPO, folder)
        return self.build(self.state["first"]["header"], nnue=True)

    # --- the steps ---------------------------------------------------------------------
    def iter_dir(self, k):
        return os.path.join(self.folder, f"iter-{k:03d}")

    def marker(self, k, step):
        return os.path.join(self.iter_dir(k), f".{step}-done")

    def run(self):
        cfg = self.config["run"]
        while self.state["iteration"] < cfg["iterations"] or self.state.get("in_progress"):
            if self.stop_requested:
                break
            if not self.state.get("in_progress"):
                # The run's hours, over all its processes: a resumed run has what is left.
                if cfg["hours"] and self.wall_s() > cfg["hours"] * 3600:
                    self.log(f"time limit reached ({self.wall_s() / 3600:.2f} h of run.hours "
                             f"{cfg['hours']})")
                    break
                self.state["iteration"] += 1
                self.state["in_progress"] = True
                self.save_state()
            self.iteration(self.state["iteration"])
            self.state["in_progress"] = False
            self.save_state()
            self.report()
        self.finish()

    def record_of(self, k):
        """Iteration k's record in state.json, made at its first start."""
        record = next((r for r in self.state["iterations"] if r["k"] == k), None)
        if record is None:
            record = {"k": k, "current": self.state["current"]["name"], "started": now_iso()}
            self.state["iterations"].append(record)
            self.save_state()
        return record

    def iteration(self, k):
        if eval_of(self.config) == "nnue":
            return self.iteration_nnue(k)
        d = self.iter_dir(k)
        os.makedirs(d, exist_ok=True)
        current = self.state["current"]
        cur_build = self.build(current["header"])
        self.match_tool = os.path.join(cur_build, "selfplay", "match", "hansu-match")
        record = self.record_of(k)
        if not os.path.exists(self.marker(k, "selfplay")):
            record["selfplay_engine"] = {"header": current["header"], "net": ""}
            self.save_state()
            self.step_selfplay(k, cur_build, settings=self.played_settings(k, record))
            open(self.marker(k, "selfplay"), "w").close()
        if not os.path.exists(self.marker(k, "tune")):
            self.step_tune(k, cur_build, record)
            open(self.marker(k, "tune"), "w").close()
        candidate = os.path.join(d, "candidate.h")
        name = f"iter-{k:03d}"
        if same_weights(candidate, current["header"]):
            # The tuner kept its starting weights (validation loss never improved): the
            # candidate would be the current engine again, so no match is played.
            record["match"] = {"sprt": "skipped: the tuner kept the current weights"}
            record["accepted"] = False
            record["finished"] = now_iso()
            self.log(f"iteration {k}: the tuner kept the current weights; no candidate")
            self.save_state()
            return
        cand_build = self.build(candidate, engine_only=True)
        if self.decide(k, record, (cand_build, name), (cur_build, current["name"])):
            self.accept(k, name, candidate, cand_build, record)
        record["finished"] = now_iso()
        self.save_state()

    def iteration_nnue(self, k):
        """An iteration of the nnue mode: self-play with the current net (or the classical
        evaluation) -> a candidate net trained on the window -> the same SPRTs against the
        current engine, every engine the one build with its net loaded at run time -> an
        accepted net kept in RUN/nets/ with its provenance. A candidate that hansu-nnue did not
        write, or whose rounding erased the update, is rejected without a match
        (candidate_rejection). Each step leaves a marker (or its result in state.json), so
        --resume continues at the step where the run stopped."""
        d = self.iter_dir(k)
        os.makedirs(d, exist_ok=True)
        current = self.state["current"]
        build = self.engine_build()
        self.check_label_flags(build)
        self.match_tool = os.path.join(build, "selfplay", "match", "hansu-match")
        record = self.record_of(k)
        if not os.path.exists(self.marker(k, "selfplay")):
            record["selfplay_engine"] = {"header": current["header"],
                                         "net": current.get("net", "")}
            self.save_state()
            self.step_selfplay(k, build, current.get("net", ""),
                               settings=self.played_settings(k, record))
            open(self.marker(k, "selfplay"), "w").close()
        if not os.path.exists(self.marker(k, "train")):
            self.step_train(k, build, record)
            open(self.marker(k, "train"), "w").close()
            try:
                os.remove(os.path.join(d, "train.ckpt"))  # 2 MB a net: only for a resume
            except FileNotFoundError:
                pass
        if "train" not in record:
            record["train"] = self.train_summary(k)
            self.save_state()
        name = f"iter-{k:03d}"
        why = self.candidate_rejection(k, record["train"])
        if why:
            # Rejected before its match: kept in the record, the log, train.log and the report,
            # and the run goes on with the next iteration.
            if "rejected" not in record:
                record.update(rejected=why, accepted=False)
                with open(os.path.join(d, "train.log"), "a") as f:
                    # not "=== ": those lines are the commands (train_report.trainer_flag)
                    f.write(f"\n*** {now_iso()} candidate {name} rejected: {why}\n")
                self.log(f"iteration {k}: candidate {name} rejected before its match: {why}")
            record["finished"] = now_iso()
            self.save_state()
            return
        candidate = (build, name, os.path.join(d, "candidate.nnue"))
        if self.decide(k, record, candidate, (build, current["name"], current.get("net", ""))):
            self.accept_net(k, candidate, record)
        record["finished"] = now_iso()
        self.save_state()


    def accept(self, k, name, candidate, cand_build, record):
        first = self.state["first"]
        if "elo_vs_first" not in record and self.config["match"]["elo_games"]:
            first_build = self.build(first["header"], engine_only=True)
            self.measure_vs_first(k, (cand_build, name), (first_build, first["name"]), record)
        # Keep the accepted header with its provenance under data/weights/, under a name of
        # the run's own (keep_beside).
        keep_dir = os.path.join(REPO, self.config["run"]["weights_dir"])
        with open(candidate, "rb") as f:
            header = f.read()
        provenance = {
            "header_sha256": hashlib.sha256(header).hexdigest(),
            "run": os.path.abspath(self.folder), "iteration": k, "accepted": now_iso(),
            "previous": self.state["current"], "match": record["match"],
            "elo_vs_first": record.get("elo_vs_first"), "external": record.get("external"),
            "external_gate": record.get("external_gate"), "config": self.config}
        base = f"{os.path.basename(self.folder)}-{name}"
        kept = self.keep_beside(keep_dir, base, ".h", header, provenance) + ".h"
        self.state["current"] = {"name": name, "header": kept}
        self.state["accepted"].append(name)

    def accept_net(self, k, candidate, record):
        """Keeps an accepted net as RUN/nets/iter-NNN.nnue with its provenance beside it
        (iter-NNN.json: the trainer's summary, the window, the matches), after its Elo match
        against the first engine; it becomes the current engine."""
        build, name, net = candidate
        first = self.state["first"]
        self.measure_vs_first(k, candidate, (build, first["name"], first.get("net", "")), record)
        nets = os.path.join(self.folder, "nets")
        os.makedirs(nets, exist_ok=True)
        kept = os.path.join(nets, f"{name}.nnue")
        shutil.copyfile(net, kept)
        with open(os.path.join(self.iter_dir(k), "train.json")) as f:
            trainer = json.load(f)
        write_json_atomic(os.path.join(nets, f"{name}.json"), {
            "net_sha256": sha256_file(kept), "run": self.folder, "iteration": k,
            "accepted": now_iso(), "previous": self.state["current"],
            "train_window": record.get("train_window"), "trainer": trainer,
            "match": record["match"], "confirm": record.get("confirm"),
            "elo_vs_first": record.get("elo_vs_first"), "external": record.get("external"),
            "external_gate": record.get("external_gate"), "config": self.config})
        self.state["current"] = {"name": name, "header": first["header"], "net": kept}
        self.state["accepted"].append(name)

    def report(self):
        script = os.path.join(REPO, "scripts", "train_report.py")
        log = os.path.join(self.folder, "report.log")
        try:
            self.run_step("report", [sys.executable, script, self.folder], log)
        except TrainError as e:
            self.log(f"warning: {e}")

    def finish(self):
        accepted = self.state["accepted"]
        if accepted and eval_of(self.config) == "nnue":
            net = self.state["current"]["net"]
            target = os.path.relpath(net_file(variant_of(self.config)), REPO)
            self.log(f"accepted nets: {', '.join(accepted)}; current net: {net}")
            if self.config["nnue"]["install"]:
                kept = self.install_net(net)
                self.log(f"installed as {target} (compiled in by the next build); kept with "
                         f"its provenance as {kept}.nnue and {kept}.json")
            else:
                self.log(f"not installed (nnue.install = false); to use it: UCI option EvalFile "
                         f"{net}, or cp {net} {target} and rebuild")
        elif accepted:
            self.log(f"accepted candidates: {', '.join(accepted)}; current weights: "
                     f"{self.state['current']['header']}")
            target = os.path.relpath(weights_header(variant_of(self.config)), REPO)
            if self.config["run"]["install"]:
                file_write.copy_file(self.state["current"]["header"], os.path.join(REPO, target))
                self.log(f"installed as {target}")
            else:
                self.log(f"to use them: cp {self.state['current']['header']} {target}")
        else:
            self.log("no candidate was accepted; see each iteration's "
                     f"{'train.log' if eval_of(self.config) == 'nnue' else 'tune.log'} and "
                     "match.txt")
        self.gauntlet()
        self.save_state()
        self.report()
        self.log(f"report: {os.path.join(self.folder, 'report.md')} and report.html (a page with "
                 "a board viewer of the run's games)")

    def owner(self):
        """Who keeps files beside the shipped ones (kept_files): the run's absolute folder and
        its start time (set now, and saved with the state, for a run from before the field)."""
        return {"run": os.path.abspath(self.folder),
                "started": self.state.setdefault("started", now_iso())}

    def keep_beside(self, folder, base, ext, payload, record):
        """Keeps payload (bytes) as folder/NAME.EXT with record as folder/NAME.json (kept_files:
        NAME is base, unless that name holds another's file: base-<start time of the run>) and
        logs each name passed over. Returns NAME's path without the extension."""
        stamp = self.owner()["started"].replace("-", "").replace(":", "").replace("T", "-")
        kept, notes = kept_files.keep(folder, base, stamp.rstrip("Z"), self.owner(), ext,
                                      payload, record)
        for note in notes:
            self.log(note)
        if notes:
            self.log(f"kept under a name of the run's own: {os.path.basename(kept)}")
        return kept

    def install_net(self, net):
        """nnue.install: the final net becomes engine/VARIANT/net.nnue (compiled in by the next
        build) and is kept under data/nets/ as VARIANT-RUN.nnue with its provenance,
        VARIANT-RUN.json: the loop's record of the net (RUN/nets/NAME.json: its training, its
        SPRTs, its Elo against the first engine, the run's settings), where it was installed
        and when. A name that holds another's net (a shipped one, another run's) is never
        replaced: the net is kept as VARIANT-RUN-<start time> (keep_beside). Returns the kept
        files' path without the extension."""
        variant = variant_of(self.config)
        target = net_file(variant)
        record_path = os.path.splitext(net)[0] + ".json"
        record = None
        if os.path.isfile(record_path):
            with open(record_path) as f:
                record = json.load(f)
        with open(net, "rb") as f:
            data = f.read()
        provenance = {
            "net_sha256": hashlib.sha256(data).hexdigest(), "installed": now_iso(),
            "installed_as": target, "variant": variant, "run": self.folder,
            "net": self.state["current"]["name"], "first": self.state["first"],
            "accepted": self.state["accepted"],
            "sized_for_cores": self.state.get("sized_for_cores"), "record": record}
        base = f"{variant}-{os.path.basename(self.folder)}"
        kept = self.keep_beside(NETS_DIR, base, ".nnue", data, provenance)
        file_write.replace_file(target, data)
        return kept



def same_weights(a, b):
    """True when two weights headers hold the same numbers (banner comments aside)."""
    def numbers(path):
        with open(path) as f:
            return [line for line in f if not line.lstrip().startswith("//")]
    return numbers(a) == numbers(b)




def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="Settings: see data/train.toml. Example: scripts/train "
                                        "--config data/train.toml --set run.hours=8")
    ap.add_argument("--config", help="TOML settings file read over data/train.toml "
                    "(default: data/train-demo.toml, a short demo)")
    ap.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE",
                    help="override one setting (repeatable)")
    ap.add_argument("--run", help="run folder (default: runs/train-<UTC time>)")
    ap.add_argument("--variant", choices=VARIANTS,
                    help="the variant trained (run.variant); xiangqi without --config reads "
                    "data/train-xiangqi.toml")
    ap.add_argument("--resume", action="store_true",
                    help="continue the run in --run (or the newest under runs/) where it stopped")
    args = ap.parse_args()
    folder, run = None, None
    try:
        folder = args.run
        if args.resume and not folder:
            runs = sorted(d for d in os.listdir(os.path.join(REPO, "runs"))
                          if d.startswith("train-")) if os.path.isdir(os.path.join(REPO, "runs")) else []
            if not runs:
                raise TrainError("--resume: no run folder under runs/")
            folder = os.path.join(REPO, "runs", runs[-1])
        if not folder:
            stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%d-%H%M%S")
            folder = os.path.join(REPO, "runs", f"train-{stamp}")
        folder = os.path.abspath(folder)
        state_path = os.path.join(folder, "state.json")
        if args.resume:
            if not os.path.exists(state_path):
                raise TrainError(f"--resume: {folder} has no state.json")
            lock = lock_folder(folder)
            config = read_state(state_path)["config"]
            mode = eval_of(config)
            if args.config:
                config = load_config(args.config, [])
            apply_sets(config, args.set)
            if eval_of(config) != mode:
                raise TrainError(f"--resume: the run trains run.eval = {mode!r}; it cannot "
                                 f"change to {eval_of(config)!r} (start a new run)")
            check_config(config)
            check_external_engine(config)
            labelled = check_labelled(config)
            sized = size_for_cores(config, run_cores(config))  # a --config's per-core sizes
            run = Run(folder, config)
            run.labelled_counts = labelled
            run.load_state()
            run.state["config"] = config
            if sized:
                run.state["sized_for_cores"] = run_cores(config)
            run.log(f"resuming {folder} at iteration {run.state['iteration']}"
                    f"{' (in progress)' if run.state.get('in_progress') else ''}")
            if sized:
                run.log(sized)
        else:
            if args.variant == "xiangqi" and not args.config:
                args.config = XIANGQI_CONFIG
            config = load_config(args.config, args.set + ([f"run.variant=\"{args.variant}\""]
                                                          if args.variant else []))
            check_external_engine(config)
            labelled = check_labelled(config)
            sized = size_for_cores(config, run_cores(config))
            if os.path.exists(state_path):
                raise TrainError(f"{folder} already holds a run; use --resume")
            os.makedirs(folder, exist_ok=True)
            lock = lock_folder(folder)
            if os.path.exists(state_path):  # made while this process waited for the folder
                raise TrainError(f"{folder} already holds a run; use --resume")
            os.makedirs(os.path.join(folder, "weights"), exist_ok=True)
            initial = os.path.join(folder, "weights", "initial.h")
            shutil.copyfile(start_header(config), initial)
            first = {"name": "initial", "header": initial}
            if eval_of(config) == "nnue":  # the first engine's net, "" = classical
                first["net"] = ""
                if config["run"]["start_net"]:
                    os.makedirs(os.path.join(folder, "nets"), exist_ok=True)
                    first["net"] = os.path.join(folder, "nets", "initial.nnue")
                    shutil.copyfile(start_net_path(config), first["net"])
            run = Run(folder, config)
            run.labelled_counts = labelled
            run.state = {"config": config, "iteration": 0, "in_progress": False,
                         "folder": folder, "first": first, "current": dict(first),
                         "iterations": [], "accepted": [], "started": now_iso()}
            if sized:
                run.state["sized_for_cores"] = run_cores(config)
            run.save_state()
            run.log(f"new run in {folder}")
            if sized:
                run.log(sized)

        def on_term(signum, frame):
            raise KeyboardInterrupt
        signal.signal(signal.SIGTERM, on_term)
        run.run()
        lock.close()
        return 0
    except TrainError as e:
        print(f"train: {e}", file=sys.stderr)
        return 1
    except OSError as e:  # the run folder or a file in it cannot be made or written
        print(f"train: {e.filename or folder or 'runs'}: {e.strerror or e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        try:
            if run is not None:
                run.save_wall()
        except (OSError, TrainError) as e:
            print(f"train: the run's wall time was not saved: {e}", file=sys.stderr)
        where = folder or "<run folder>"
        print(f"train: interrupted; continue with: scripts/train --resume --run {where}",
              file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
