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

Usage: scripts/train [--config FILE] [--set SECTION.KEY=VALUE ...] [--run DIR] [--resume]
See data/train.toml for every setting; without --config data/train-demo.toml's short demo is
used over it.
"""
import argparse
import ctypes
import datetime
import fcntl
import glob
import hashlib
import json
import math
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import time
import tomllib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import external_gate  # noqa: E402
import file_write  # noqa: E402
import kept_files  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Every setting and its documented default is in data/train.toml (the one list of them); the
# default run, without --config, is that file with data/train-demo.toml's short demonstration
# (a few minutes on 2 cores) over it. A --config file is read over data/train.toml too.
BASE_CONFIG = os.path.join(REPO, "data", "train.toml")
VARIANTS = ("janggi", "xiangqi")
XIANGQI_CONFIG = os.path.join(REPO, "data", "train-xiangqi.toml")


def variant_of(config):
    """The variant a run trains (run.variant; runs from before the setting: janggi)."""
    return config["run"].get("variant", "janggi")


def weights_header(variant):
    """The compiled-in weights header of a variant, engine/VARIANT/eval_weights.h."""
    return os.path.join(REPO, "engine", variant, "eval_weights.h")


def start_header(config):
    """The weights header of the run's first engine: run.start (relative to the repository)
    when set, else the variant's shipped one."""
    start = config["run"].get("start", "")
    return os.path.join(REPO, start) if start else weights_header(variant_of(config))


def openings_path(config, section):
    """The file SECTION.openings names, absolute: "suite" is the run's variant's suite
    (data/openings-<variant>.fen, docs/openings.md), another name a file relative to the
    repository; "" when it is "" or absent (runs from before it: the start positions)."""
    return openings_file(config[section].get("openings", ""), variant_of(config))


def openings_file(name, variant):
    """An openings setting's file, absolute (openings_path): "suite" the variant's suite."""
    if name == "suite":
        name = os.path.join("data", f"openings-{variant}.fen")
    return os.path.join(REPO, name) if name else ""


def openings_flags(config, section):
    """--openings FILE for hansu-selfplay or hansu-match when SECTION.openings names a file
    (openings_path); nothing when it is "" or absent."""
    path = openings_path(config, section)
    return ["--openings", path] if path else []


def eval_of(config):
    """What a run trains (run.eval): "texel" (the default, and runs from before the setting)
    or "nnue"."""
    return config["run"].get("eval", "texel")


def net_file(variant):
    """The net compiled into a build of a variant when it exists, engine/VARIANT/net.nnue."""
    return os.path.join(REPO, "engine", variant, "net.nnue")


# run.start_net = "shipped": the run's variant's compiled-in net (net_file), so that one config
# starts every variant's loop of nets from what its engine plays with.
SHIPPED_NET = "shipped"
# Where an installed net is kept with its provenance (nnue.install), beside the shipped ones.
NETS_DIR = os.path.join(REPO, "data", "nets")


def start_net_path(config):
    """The first engine's net of a run of nets, absolute: run.start_net = "shipped" is the
    variant's compiled-in net (engine/VARIANT/net.nnue), another name a file relative to the
    repository; "" when it is "" (the first engine plays the classical evaluation)."""
    name = config["run"].get("start_net", "")
    if name == SHIPPED_NET:
        return net_file(variant_of(config))
    return os.path.join(REPO, name) if name else ""


# Settings sized by the cores a run uses (run.threads, 0 = every core found): SECTION.KEY is
# PER_KEY times the cores when PER_KEY > 0, decided when the run starts (size_for_cores). A
# --config file or --set that names SECTION.KEY and not PER_KEY turns the sizing off for it.
PER_CORE = ((("selfplay", "games"), "games_per_core"),
            (("nnue", "window_positions"), "window_per_core"))


def run_cores(config):
    """The cores a run uses: run.threads, or every core of this machine (0)."""
    return config["run"]["threads"] or os.cpu_count() or 1


def size_for_cores(config, cores):
    """Sets each per-core setting's total for cores (PER_CORE): selfplay.games =
    selfplay.games_per_core * cores, nnue.window_positions = nnue.window_per_core * cores, and
    the per-core setting to 0, so that the run's recorded settings say what it plays (a resumed
    run keeps them on another machine). Returns a line for the log, "" when nothing was sized."""
    done = []
    for (section, key), per in PER_CORE:
        if section == "nnue" and eval_of(config) != "nnue":
            continue  # the texel mode trains no net
        n = config.get(section, {}).get(per, 0)
        if n:
            config[section][key] = n * cores
            config[section][per] = 0
            done.append(f"{section}.{key} = {n * cores:,} ({n:,} a core)")
    return f"sized for {cores} cores: {', '.join(done)}" if done else ""


def variant_flags(config):
    """--variant V for the C tools, for a variant other than janggi (janggi's command lines
    are unchanged)."""
    v = variant_of(config)
    return [] if v == "janggi" else ["--variant", v]
DEMO_CONFIG = os.path.join(REPO, "data", "train-demo.toml")


# Opening seeds of the measurement matches, apart from every seed that a decision uses (the
# self-play, tuning and SPRT use run.seed * 1000 + k, the confirming SPRT 10^9 + that, k >= 1):
# one seed for every fixed-length Elo match and one for the gauntlet, so that every engine of
# the run meets the same openings there.
ELO_SEED_BASE = 2_000_000_000
GAUNTLET_SEED_BASE = 3_000_000_000
# Steps whose CPU time measures the engines rather than trains them (the report lists them).
MEASURE_KINDS = ("elo", "gauntlet", "report", "audit")
EVALS = ("texel", "nnue")
TRAIN_NOT_WRITTEN = 3  # hansu-nnue's exit status when its quantised net failed --quant-bound
# What an iteration's self-play is played with, kept in its record (selfplay_settings) so that a
# resumed or replayed self-play plays the same games: each key and the setting it comes from.
SELFPLAY_SETTINGS = {"seed": "run.seed", "games": "selfplay.games", "nodes": "selfplay.nodes",
                     "random_plies": "selfplay.random_plies", "openings": "selfplay.openings",
                     "extra": "selfplay.extra", "variant": "run.variant"}
NNUE_INITS = ("scratch", "current")  # nnue.init: where a candidate's first weights come from
# The programs of the nnue mode's one build (relative to the build folder).
NNUE_TOOLS = ("engine/hansu", "selfplay/hansu-selfplay", "selfplay/match/hansu-match",
              "tuner/nnue/hansu-nnue")


PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
try:  # looked up once here: the child between fork and exec should import nothing
    PRCTL = ctypes.CDLL(None, use_errno=True).prctl
except (OSError, AttributeError):
    PRCTL = None  # not Linux: children are still ended by end_group, not on SIGKILL


def die_with_parent(parent):
    """In a child, before exec: SIGTERM (a clean stop: hansu-selfplay saves its finished
    games) when the script dies, even by SIGKILL. A parent already gone is caught by the
    getppid check."""
    if PRCTL is None or PRCTL(PR_SET_PDEATHSIG, signal.SIGTERM) != 0:
        return
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGTERM)


def end_group(proc, grace_s=10):
    """Ends a child's process group: waits grace_s for the child to stop by itself (after the
    SIGINT sent to it), then SIGTERM, then SIGKILL for whatever is left of the group."""
    for sig in (None, signal.SIGTERM, signal.SIGKILL):
        if sig is not None:
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                return
        try:
            proc.wait(timeout=grace_s)
            if sig is None:
                os.killpg(proc.pid, signal.SIGKILL)  # helpers the child left behind
            return
        except subprocess.TimeoutExpired:
            pass
        except ProcessLookupError:
            return


class TrainError(Exception):
    """A step failed; the message names it and its log."""


def now_iso():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def sha256_file(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def write_json_atomic(path, data):
    """Writes data as JSON to path whole (file_write.replace_file)."""
    file_write.replace_file(path, json.dumps(data, indent=2, sort_keys=True))


def parse_value(text):
    """A --set value: TOML syntax when it parses (numbers, booleans, strings, lists)."""
    try:
        return tomllib.loads("v = " + text)["v"]
    except tomllib.TOMLDecodeError:
        return text


RENAMED = {("tune", "window"): "tune.window_positions (the window is now counted in positions)"}


def renamed_hint(section, key):
    new = RENAMED.get((section, key))
    return f"; replaced by {new}" if new else ""


def read_toml(path):
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as e:
        raise TrainError(f"config {path}: {e.strerror}")
    except tomllib.TOMLDecodeError as e:
        raise TrainError(f"config {path}: {e}")


def load_config(path, overrides):
    config = read_toml(BASE_CONFIG)
    path = path or DEMO_CONFIG
    named = set()  # the settings the file and --set give
    if os.path.abspath(path) != BASE_CONFIG:
        for section, values in read_toml(path).items():
            if section not in config or not isinstance(values, dict):
                raise TrainError(f"config {path}: unknown section [{section}]")
            for key, value in values.items():
                if key not in config[section]:
                    raise TrainError(f"config {path}: unknown setting {section}.{key}"
                                     f"{renamed_hint(section, key)}")
                config[section][key] = value
                named.add((section, key))
    apply_sets(config, overrides)
    named |= {tuple(re.match(r"(\w+)\.(\w+)", o).groups()) for o in overrides}
    # A total given without its per-core setting is that total (PER_CORE).
    for (section, key), per in PER_CORE:
        if (section, key) in named and (section, per) not in named:
            config[section][per] = 0
    check_config(config)
    return config


def apply_sets(config, items):
    """Applies --set SECTION.KEY=VALUE items to config, each checked against data/train.toml's
    settings (a new run's and a resumed one's alike); a section newer than a resumed run comes
    in with its defaults."""
    base = read_toml(BASE_CONFIG)
    for item in items:
        m = re.fullmatch(r"(\w+)\.(\w+)=(.*)", item, re.S)
        if not m:
            raise TrainError(f"--set {item!r}: expected SECTION.KEY=VALUE")
        section, key, text = m.groups()
        if section not in base or key not in base[section]:
            raise TrainError(f"--set {item!r}: unknown setting {section}.{key}"
                             f"{renamed_hint(section, key)}")
        config.setdefault(section, dict(base[section]))[key] = parse_value(text)


# Settings whose default in data/train.toml is a whole number but which take fractions too.
FRACTIONAL = {("run", "hours"), ("tune", "l2"), ("tune", "lr"), ("nnue", "lambda")}
SPRT_KEYS = ("elo0", "elo1", "alpha", "beta")


def check_types(c):
    """Every setting has its default's type in data/train.toml (true/false, a whole number, a
    number, a string, a list of strings), numbers are finite; the sections are known."""
    base = read_toml(BASE_CONFIG)
    for section, values in c.items():
        if section not in base or not isinstance(values, dict):
            raise TrainError(f"unknown section [{section}]")
        for key, v in values.items():
            if key not in base[section]:
                continue  # a resumed run's setting from before a rename: its own checks
            d, name = base[section][key], f"setting {section}.{key} = {v!r}"
            number = isinstance(v, (int, float)) and not isinstance(v, bool)
            if isinstance(d, bool) and not isinstance(v, bool):
                raise TrainError(f"{name}: expected true or false")
            if isinstance(d, (int, float)) and not isinstance(d, bool):
                whole = isinstance(d, int) and (section, key) not in FRACTIONAL
                if not number or (whole and not isinstance(v, int)):
                    raise TrainError(f"{name}: expected a {'whole ' if whole else ''}number")
                if not math.isfinite(v):
                    raise TrainError(f"{name}: expected a finite number")
            if isinstance(d, str) and not isinstance(v, str):
                raise TrainError(f"{name}: expected a string")
            if isinstance(d, list) and (not isinstance(v, list) or
                                        not all(isinstance(x, str) for x in v)):
                raise TrainError(f"{name}: expected a list of strings")


def check_sprt(text):
    """match.sprt as hansu-match's --sprt takes it (selfplay/match/match_main.c): elo0=E0
    elo1=E1 [alpha=A] [beta=B], elo0 < elo1 within +-1000, 0 < alpha, beta < 0.5."""
    v = {"alpha": 0.05, "beta": 0.05}
    for item in text.split():
        key, _, num = item.partition("=")
        try:
            if key not in SPRT_KEYS:
                raise ValueError
            v[key] = float(num)
        except ValueError:
            v = None
            break
    if v is None or "elo0" not in v or "elo1" not in v or not all(map(math.isfinite, v.values())):
        raise TrainError(f"setting match.sprt = {text!r}: expected \"elo0=E0 elo1=E1 [alpha=A] "
                         "[beta=B]\"")
    if not (-1000 <= v["elo0"] < v["elo1"] <= 1000) or not all(0 < v[k] < 0.5 for k in
                                                              ("alpha", "beta")):
        raise TrainError(f"setting match.sprt = {text!r}: need elo0 < elo1 within -1000..1000 "
                         "and 0 < alpha, beta < 0.5")


# The settings the loop reads without a default of its own (every run since the fixed-length
# Elo matches has them); [nnue] only with run.eval = "nnue", [gauntlet] when the run has it.
REQUIRED_SETTINGS = {
    "run": ("iterations", "hours", "threads", "seed", "install"),
    "selfplay": ("games", "nodes", "random_plies", "extra"),
    "tune": ("epochs", "lr", "batch", "patience", "skip_plies", "extra"),
    "match": ("games", "nodes", "sprt", "random_plies", "elo_games", "extra"),
    "nnue": ("window_positions", "epochs", "batch", "lr", "lr_min", "lambda", "extra", "build",
             "install"),
    "gauntlet": ("enabled", "first", "games", "tc", "engine", "name", "options", "extra"),
    "external": ("enabled", "engine", "name", "options", "hansu_nodes", "engine_nodes", "games",
                 "openings", "random_plies", "extra", "confidence", "margin", "audit",
                 "audit_flags")}


def check_present(c):
    """The settings the loop reads are there: a resumed run's come from its state.json, where a
    hand edit may have removed one (a KeyError deep in the loop before)."""
    nets = c["run"].get("eval", "texel") == "nnue"
    for section, keys in REQUIRED_SETTINGS.items():
        if section not in c and (section in ("gauntlet", "external") or
                                 (section == "nnue" and not nets)):
            continue
        values = c.get(section)
        if not isinstance(values, dict):
            raise TrainError(f"setting section [{section}] is missing")
        for key in keys:
            if key not in values:
                raise TrainError(f"setting {section}.{key} is missing (a state.json edited by "
                                 f"hand? --set {section}.{key}=VALUE)")


def check_config(c):
    """Every setting, before the first step: present, types, ranges, names and files."""
    check_present(c)
    check_types(c)
    check_sprt(c["match"].get("sprt", ""))
    start = c["run"].get("start", "")
    if start and not os.path.isfile(os.path.join(REPO, start)):
        raise TrainError(f"setting run.start = {start!r}: no such file {os.path.join(REPO, start)}")
    if not c["run"].get("weights_dir", "data/weights"):
        raise TrainError("setting run.weights_dir = '': expected a folder name")

    def positive(section, key, allow_zero=False):
        if key not in c[section]:  # a resumed run from before the setting existed
            return
        v = c[section][key]
        if not isinstance(v, (int, float)) or isinstance(v, bool) or v < 0 or (v == 0 and not allow_zero):
            raise TrainError(f"setting {section}.{key} = {v!r}: expected a "
                             f"{'non-negative' if allow_zero else 'positive'} number")
    launcher = c.get("cluster", {}).get("launcher", [])
    if not isinstance(launcher, list) or not all(isinstance(a, str) and a for a in launcher):
        raise TrainError(f"setting cluster.launcher = {launcher!r}: expected a list of words, "
                         "e.g. [\"mpirun\", \"-np\", \"8\"] (or [] for one process)")
    for s, k in [("run", "iterations"), ("selfplay", "games"), ("selfplay", "nodes"),
                 ("tune", "epochs"), ("tune", "lr"),
                 ("match", "games"), ("match", "nodes")]:
        positive(s, k)
    for s, k in [("run", "hours"), ("run", "threads"), ("run", "seed"), ("selfplay", "random_plies"),
                 ("selfplay", "games_per_core"), ("nnue", "window_per_core"),
                 ("tune", "batch"), ("tune", "patience"), ("tune", "skip_plies"),
                 ("tune", "window_positions"), ("tune", "l2"),
                 ("match", "elo_games"), ("match", "elo_nodes"), ("match", "random_plies")]:
        positive(s, k, allow_zero=True)
    if c["match"].get("elo_nodes") and c["match"]["elo_nodes"] == c["match"]["nodes"]:
        raise TrainError(f"setting match.elo_nodes = {c['match']['elo_nodes']}: the Elo matches "
                         "must not be played at the training's match.nodes (0 = twice them)")
    if c["run"].get("variant", "janggi") not in VARIANTS:
        raise TrainError(f"setting run.variant = {c['run']['variant']!r}: expected one of "
                         f"{', '.join(VARIANTS)}")
    for s in ("selfplay", "match"):
        path = c[s].get("openings", "")
        if not isinstance(path, str):
            raise TrainError(f"setting {s}.openings = {path!r}: expected a file name, "
                             f"\"suite\" or \"\"")
        full = openings_path(c, s)
        if path and not os.path.isfile(full):
            raise TrainError(f"setting {s}.openings = {path!r}: no such file {full}")
    check_gauntlet(c.get("gauntlet"))
    problem = external_gate.settings_problem(c.get("external"), REPO,
                                             c["run"].get("variant", "janggi"))
    if problem:
        raise TrainError(problem)
    check_report(c.get("report"))
    check_nnue(c)
    if not isinstance(c["match"].get("confirm", False), bool):
        raise TrainError(f"setting match.confirm = {c['match']['confirm']!r}: "
                         "expected true or false")
    if c["match"]["games"] % 2 or c["match"]["elo_games"] % 2:
        raise TrainError("match.games and match.elo_games must be even (game pairs)")
    for s in ("selfplay", "tune", "match"):
        if not isinstance(c[s]["extra"], list):
            raise TrainError(f"setting {s}.extra must be a list of strings")


def check_nnue(c):
    """run.eval and, for eval = "nnue", the [nnue] settings, run.start_net (a readable net of
    the variant) and the build's programs (runs from before the settings: texel)."""
    mode = c["run"].get("eval", "texel")
    if mode not in EVALS:
        raise TrainError(f"setting run.eval = {mode!r}: expected one of {', '.join(EVALS)}")
    start = c["run"].get("start_net", "")
    if mode != "nnue":
        if start and start != SHIPPED_NET:  # the default, data/train.toml's: no net named
            raise TrainError(f"setting run.start_net = {start!r}: only for run.eval = \"nnue\" "
                             "(the texel mode's first engine is run.start)")
        return
    n = c["nnue"]
    for key in ("epochs", "batch", "lr"):
        if n[key] <= 0:
            raise TrainError(f"setting nnue.{key} = {n[key]!r}: expected a positive number")
    for key in ("window_positions", "lr_min"):
        if n[key] < 0:
            raise TrainError(f"setting nnue.{key} = {n[key]!r}: expected a non-negative number")
    if not 0 <= n["lambda"] <= 1:
        raise TrainError(f"setting nnue.lambda = {n['lambda']!r}: expected 0..1")
    if n.get("init", "scratch") not in NNUE_INITS:
        raise TrainError(f"setting nnue.init = {n['init']!r}: expected one of "
                         f"{', '.join(NNUE_INITS)}")
    if start:
        check_net(start, start_net_path(c), c["run"].get("variant", "janggi"))
    if n["build"]:
        folder = os.path.join(REPO, n["build"])
        for tool in NNUE_TOOLS:
            if not os.access(os.path.join(folder, tool), os.X_OK):
                raise TrainError(f"setting nnue.build = {n['build']!r}: no {tool} built in "
                                 f"{folder} (ninja -C {folder})")
    elif not os.path.isdir(os.path.join(REPO, "tuner", "nnue")):
        raise TrainError(f"run.eval = \"nnue\": no hansu-nnue sources in {REPO}/tuner/nnue")


def check_net(path, full, variant):
    """run.start_net (path, the file full): a readable .nnue file (magic HNSUNNUE, docs/nnue.md
    "File format") whose variant field names the run's variant; the engine checks the rest when it
    loads it."""
    name = f"setting run.start_net = {path!r}"
    try:
        with open(full, "rb") as f:
            head = f.read(28)
    except OSError as e:
        raise TrainError(f"{name}: {full}: {e.strerror}")
    if len(head) < 28 or head[:8] != b"HNSUNNUE":
        raise TrainError(f"{name}: {full} is not a Hansu .nnue net")
    net_variant = head[12:28].split(b"\0")[0].decode("ascii", "replace")
    if net_variant != variant:
        raise TrainError(f"{name}: {full} is a net for {net_variant}, not for {variant}")


def check_gauntlet(g):
    """The [gauntlet] settings (absent in a run started before they existed: no gauntlet)."""
    if g is None:
        return
    for key in ("enabled", "first"):
        if not isinstance(g[key], bool):
            raise TrainError(f"setting gauntlet.{key} = {g[key]!r}: expected true or false")
    games = g["games"]
    if not isinstance(games, int) or isinstance(games, bool) or games <= 0 or games % 2:
        raise TrainError(f"setting gauntlet.games = {games!r}: expected a positive even number "
                         "(game pairs)")
    if not isinstance(g["tc"], str) or not re.fullmatch(r"\d+(\.\d+)?\+\d+(\.\d+)?", g["tc"]):
        raise TrainError(f"setting gauntlet.tc = {g['tc']!r}: expected BASE+INC in seconds, "
                         "e.g. \"5+0.05\"")
    for key in ("engine", "name"):
        if not isinstance(g[key], str) or not g[key]:
            raise TrainError(f"setting gauntlet.{key} = {g[key]!r}: expected a non-empty string")
    for key in ("options", "extra"):
        if not isinstance(g[key], list) or not all(isinstance(x, str) for x in g[key]):
            raise TrainError(f"setting gauntlet.{key} must be a list of strings")


def check_external_engine(c):
    """With the external gate on, its engine must be there before any work (a night whose
    candidates could not be judged would accept none): refused naming the path. Not part of
    check_config, whose settings are the same on every machine."""
    x = c.get("external")
    if x and x["enabled"] and shutil.which(x["engine"]) is None:
        raise TrainError(f"setting external.engine = {x['engine']!r}: not found or not "
                         "executable; install Fairy-Stockfish (Debian package fairy-stockfish), "
                         "set external.engine, or turn the gate off (external.enabled = false)")


def check_report(r):
    """The [report] settings: how many games report.html's viewer holds (absent in a run
    started before they existed: scripts/train_report.py's defaults, data/train.toml's)."""
    for key, value in (r or {}).items():
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise TrainError(f"setting report.{key} = {value!r}: expected a whole number of "
                             "games, 0 or more")


def elo_nodes(config):
    """Nodes a move of the fixed-length Elo matches: match.elo_nodes, 0 (or a run from before
    the setting) twice match.nodes."""
    return config["match"].get("elo_nodes") or 2 * config["match"]["nodes"]


def add_cpu(run, kind, seconds):
    """Adds a step's CPU seconds (its programs' user + system time) to state.json's cpu_s."""
    state = getattr(run, "state", None)
    if isinstance(state, dict):
        cpu = state.setdefault("cpu_s", {})
        cpu[kind] = round(cpu.get(kind, 0.0) + seconds, 3)


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def lock_folder(folder):
    """An exclusive flock(2) on FOLDER/.hansu-lock, held for the process's life (the open file
    is returned: keep it), with this process's pid written in it: a second scripts/train on the
    same run folder (a new run or --resume) is refused, naming the holder's pid."""
    path = os.path.join(folder, ".hansu-lock")
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    lock = os.fdopen(fd, "r+")
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = lock.read().strip() or "?"
        lock.close()
        raise TrainError(f"{folder} is in use by another scripts/train (pid {holder}, "
                         f"{path} is locked); wait for it or stop it")
    lock.truncate(0)
    lock.write(f"{os.getpid()}\n")
    lock.flush()
    return lock


def read_state(path):
    """state.json of a run folder; a file that is not a run's state is a TrainError. Every
    field the loop reads is checked for the type a run writes (check_state), so that a hand
    edit is a one-line refusal naming the field, not a traceback deep in the loop."""
    try:
        with open(path) as f:
            state = json.load(f)
    except OSError as e:
        raise TrainError(f"--resume: {path}: {e.strerror}")
    except (ValueError, UnicodeDecodeError) as e:
        raise TrainError(f"--resume: {path}: not a run's state (corrupt JSON: {e})")
    keys = ("config", "iteration", "first", "current", "iterations", "accepted")
    if not isinstance(state, dict):
        raise TrainError(f"--resume: {path}: not a run's state (not an object with "
                         f"{', '.join(keys)})")
    problem = next((f"no {k}" for k in keys if k not in state), None) or config_problem(
        state["config"]) or check_state(state)
    if problem:
        raise TrainError(f"--resume: {path}: not a run's state ({problem})")
    return state


def config_problem(config):
    """The first problem of state.json's config (read_state), or None: an object whose sections
    are objects, the four every run has among them (a section edited to null or [] was reported
    later as missing, without naming state.json)."""
    if not isinstance(config, dict):
        return "config is not an object"
    missing = next((s for s in ("run", "selfplay", "tune", "match") if s not in config), None)
    if missing:
        return f"config has no [{missing}] section"
    bad = next((s for s, v in config.items() if not isinstance(v, dict)), None)
    return f"config.{bad} is not an object" if bad else None


def settings_problem(settings, where):
    """The first problem of an iteration's selfplay_settings, or None: each key present, of its
    kind (SETTINGS_KINDS) and in the range check_config asks of the setting it comes from, so
    that a replay is refused before other work, not when hansu-selfplay refuses its flags."""
    for key, kind in SETTINGS_KINDS.items():
        if key not in settings:
            return f"{where}.selfplay_settings has no {key}"
        if kind_problem(key, settings[key], kind):
            return f"{where}.selfplay_settings.{kind_problem(key, settings[key], kind)}"
    least = {"seed": 0, "games": 1, "nodes": 1, "random_plies": 0}
    low = next((k for k, v in least.items() if settings[k] < v), None)
    if low:
        return (f"{where}.selfplay_settings.{low} = {settings[low]}: expected "
                f"{'a positive' if least[low] else 'a non-negative'} number")
    if settings["variant"] not in VARIANTS:
        return (f"{where}.selfplay_settings.variant = {settings['variant']!r}: expected one of "
                f"{', '.join(VARIANTS)}")
    return None


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def kind_problem(name, v, kind):
    """What is wrong with field name's value v for kind ("int", "number", "str", "bool",
    "dict", "list", "strings": a list of strings), or None."""
    ok = {"int": is_int, "number": is_number, "str": lambda x: isinstance(x, str),
          "bool": lambda x: isinstance(x, bool), "dict": lambda x: isinstance(x, dict),
          "list": lambda x: isinstance(x, list),
          "strings": lambda x: isinstance(x, list) and all(isinstance(y, str) for y in x)}
    words = {"int": "an int", "number": "a finite number", "str": "a string", "bool": "true or "
             "false", "dict": "an object", "list": "a list", "strings": "a list of strings"}
    return None if ok[kind](v) else f"{name} is not {words[kind]}"


# The fields of state.json the loop reads and their kinds (kind_problem); those marked optional
# may be absent (runs from before them, or not reached yet).
STATE_FIELDS = {"iteration": "int", "first": "dict", "current": "dict", "iterations": "list",
                "accepted": "strings"}
STATE_OPTIONAL = {"in_progress": "bool", "folder": "str", "wall_s": "number", "cpu_s": "dict",
                  "source_commit": "str", "gauntlet": "dict", "started": "str",
                  "external": "dict"}
RECORD_OPTIONAL = {"current": "str", "selfplay_engine": "dict", "selfplay_settings": "dict",
                   "match": "dict", "confirm": "dict", "elo_vs_first": "dict", "train": "dict",
                   "train_window": "dict", "tune_window": "dict", "regenerated": "list",
                   "accepted": "bool", "rejected": "str", "external": "dict",
                   "external_gate": "dict"}
SETTINGS_KINDS = {"seed": "int", "games": "int", "nodes": "int", "random_plies": "int",
                  "openings": "str", "extra": "strings", "variant": "str"}


def check_state(state):
    """The first problem of a state read from state.json (read_state), or None: every field
    the loop reads, of the type a new run writes. In a run of nets (run.eval = "nnue") the first
    and the current engine name their net (current.net; "" = the classical evaluation): a run
    whose current.net was removed would go on with the classical engine as current."""
    fields = [(k, state[k], kind) for k, kind in STATE_FIELDS.items()]
    fields += [(k, state[k], kind) for k, kind in STATE_OPTIONAL.items() if k in state]
    problems = [kind_problem(k, v, kind) for k, v, kind in fields]
    if any(problems):
        return next(p for p in problems if p)
    nets = state["config"]["run"].get("eval", "texel") == "nnue"
    for key in ("first", "current"):
        engine = state[key]
        if not isinstance(engine.get("header"), str) or not isinstance(engine.get("name"), str):
            return f"{key} names no header"
        if nets and "net" not in engine:
            return f"{key}.net is missing (a run of nets names its net; \"\" = classical)"
        if "net" in engine and not isinstance(engine["net"], str):
            return f"{key}.net is not a string"
    if state["iteration"] < 0:
        return "iteration is negative"
    if any(not is_number(v) for v in state.get("cpu_s", {}).values()):
        return "cpu_s holds a value that is not a number"
    if "results" in state.get("gauntlet", {}) and not isinstance(
            state["gauntlet"]["results"], dict):
        return "gauntlet.results is not an object"
    figures = state.get("external", {}).get("figures", {})
    if not isinstance(figures, dict) or any(
            not isinstance(f, dict) or any(not isinstance(r, dict) or not isinstance(
                r.get("pentanomial"), list) for r in f.values()) for f in figures.values()):
        return "external.figures is not an object of match results with pentanomial counts"
    for i, rec in enumerate(state["iterations"]):
        where = f"iterations[{i}]"
        if not isinstance(rec, dict) or not is_int(rec.get("k")) or rec["k"] < 1:
            return f"{where} has no iteration number k"
        for key, kind in RECORD_OPTIONAL.items():
            if key in rec and kind_problem(key, rec[key], kind):
                return f"{where}.{kind_problem(key, rec[key], kind)}"
        engine = rec.get("selfplay_engine", {})
        if any(not isinstance(engine.get(x, ""), str) for x in ("header", "net")):
            return f"{where}.selfplay_engine: header and net are not strings"
        settings = rec.get("selfplay_settings")
        problem = settings_problem(settings, where) if settings is not None else None
        if problem:
            return problem
    # The records are of iterations 1..iteration: iteration is the last record's k, or the next
    # one while it starts (its record not made yet).
    last = max((rec["k"] for rec in state["iterations"]), default=None)
    if last is not None and not last <= state["iteration"] <= last + 1:
        return (f"iteration is {state['iteration']}, but the last iteration recorded is {last} "
                f"(expected {last} or {last + 1})")
    return None


class Run:
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
        training stopped half-way resumes from its checkpoint. Exit 3 (TRAIN_NOT_WRITTEN: the
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
            os.path.join(self.iter_dir(i), "selfplay") for i in window] + [
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

    def play(self, folder, name, engines, limit, games, seed, event, kind, sprt=None,
             book=None):
        """Plays a match with hansu-match: engines are the two engines' --engine fields (the
        first is scored), limit the flags of the limit (e.g. ["--nodes", "800"]). Writes
        folder/name.{pgn,json,txt}, resumes a match stopped half-way, and returns the parsed
        result. book: (openings flags, random plies, extra flags) of a match not played with
        [match]'s (the external gate's); default match.openings, match.random_plies and the
        kind's extra flags."""
        c = self.config["match"]
        pgn = os.path.join(folder, f"{name}.pgn")
        argv = self.launcher + [self.match_tool]  # [cluster]: the pairs spread over the ranks
        for fields in engines:
            argv += ["--engine"] + fields
        if book is None:
            book = (openings_flags(self.config, "match"), c["random_plies"],
                    c["extra"] if kind != "gauntlet" else self.config["gauntlet"]["extra"])
        argv += limit + ["--games", str(games), "--concurrency", str(self.threads),
                         "--pgn", pgn, "--seed", str(seed),
                         "--random-plies", str(book[1]), "--event", event]
        argv += variant_flags(self.config) + book[0] + book[2]
        if sprt:
            argv += ["--sprt"] + sprt.split()
        result = os.path.join(folder, f"{name}.json")
        argv += ["--json", result]
        if os.path.exists(pgn + ".state"):
            argv.append("--resume")
        label = " vs ".join(f[1].removeprefix("name=") for f in engines)
        self.run_step(f"match {label}", argv, os.path.join(folder, f"{name}.txt"), kind=kind)
        return parse_match_json(result)

    def hansu(self, engine):
        """hansu-match's --engine fields of (build folder, name[, net]): with a net (a .nnue
        file) EvalFile, then Use NNUE (the engine refuses Use NNUE while no net is loaded);
        without, the classical evaluation, named even where a net is compiled in."""
        net = engine[2] if len(engine) > 2 else ""
        fields = [f"cmd={os.path.join(engine[0], 'engine', 'hansu')}", f"name={engine[1]}"]
        return fields + ([f"option.EvalFile={net}", "option.Use NNUE=true"] if net else
                         ["option.Use NNUE=false"])

    def match(self, k, name, engine, opponent, games, sprt, seed=None):
        """Plays engine (candidate side) against opponent at match.nodes with an SPRT; returns
        the parsed summary. The openings come from seed (default: the iteration's,
        run.seed * 1000 + k)."""
        seed = self.config["run"]["seed"] * 1000 + k if seed is None else seed
        return self.play(self.iter_dir(k), name, [self.hansu(engine), self.hansu(opponent)],
                         ["--nodes", str(self.config["match"]["nodes"])], games, seed,
                         f"train iteration {k}: {name}", "sprt", sprt)

    def elo_match(self, k, engine, first):
        """The fixed-length match of an accepted candidate against the first engine: all
        match.elo_games games (no SPRT), at elo_nodes(), openings from ELO_SEED_BASE +
        run.seed * 1000 (the same for every candidate, used by no decision)."""
        c = self.config["match"]
        nodes, seed = elo_nodes(self.config), ELO_SEED_BASE + self.config["run"]["seed"] * 1000
        result = self.play(self.iter_dir(k), "vs-first", [self.hansu(engine), self.hansu(first)],
                           ["--nodes", str(nodes)], c["elo_games"], seed,
                           f"train iteration {k}: {engine[1]} vs the first engine", "elo")
        result.update(nodes=nodes, seed=seed, fixed_length=True)
        return result

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

    def decide(self, k, record, candidate, current):
        """Plays candidate against current (engines as hansu() takes them) with an SPRT, kept in
        the record (not replayed on a resume), then the verdict (the SPRTs, then the external
        gate for a candidate that passed them); logs and returns it."""
        if "match" not in record:
            record["match"] = self.match(k, "match", candidate, current,
                                         self.config["match"]["games"],
                                         self.config["match"]["sprt"])
            self.save_state()
        result = record["match"]
        accepted = self.verdict(k, record, candidate, current)
        gate = accepted and self.external_gate(k, record, candidate, current)
        record["accepted"] = gate
        word = ("ACCEPTED" if gate else "rejected by the external gate" if accepted
                else "rejected")
        self.log(f"iteration {k}: candidate {candidate[1]} vs {current[1]}: score "
                 f"{result.get('score')}, nElo {result.get('nelo')}, SPRT {result.get('sprt')}"
                 f" -> {word}")
        return gate

    # --- the external gate (scripts/external_gate.py) ------------------------------------
    def external_games(self):
        """The game settings of today's external matches (external_gate.game_settings), or None
        when the gate is off (external.enabled = false, or a run from before the section)."""
        x = self.config.get("external")
        if not x or not x["enabled"]:
            return None
        engine = shutil.which(x["engine"])
        if engine is None:  # main() refuses this before any work; a run edited since
            check_external_engine(self.config)
        return external_gate.game_settings(x, engine, variant_of(self.config),
                                           self.config["run"]["seed"])

    def external_gate(self, k, record, candidate, current):
        """After the SPRTs: True when the candidate does not lose beyond chance against the
        external engine, compared with the current engine on the same openings and seed
        (external_gate.decide); True at once when the gate is off. The candidate's match is kept
        in the record (external), the current's once per engine in state.json (external_figure),
        the verdict as external_gate; on a resume a finished match is not played again and a
        half-played one resumes from its state file."""
        games = self.external_games()
        if games is None:
            return True
        x, tag = self.config["external"], external_gate.digest(games)
        base = self.external_figure(current, games, tag)
        if record.get("external", {}).get("digest") != tag:
            record["external"] = self.external_match(self.iter_dir(k), f"external-{tag}",
                                                     candidate, games, tag)
            self.save_state()
        self.external_audit(record["external"], candidate)
        verdict = external_gate.decide(record["external"]["pentanomial"], base["pentanomial"],
                                       x["confidence"], x["margin"])
        verdict.update(current=current[1], digest=tag)
        record["external_gate"] = verdict
        if verdict["passed"]:  # the next gate's figure of the current engine, not played again
            self.state["external"]["figures"][tag][candidate[1]] = record["external"]
        self.save_state()
        e = record["external"]
        self.log(f"iteration {k}: external gate: {candidate[1]} vs {x['name']} score "
                 f"{e['score']} ({verdict['candidate_score']:.3f} a game, nElo {e['nelo']} ± "
                 f"{e['nelo_error']}), {current[1]} {base['score']} "
                 f"({verdict['current_score']:.3f}); difference {verdict['difference']:+.3f}, "
                 f"bound -{verdict['margin'] + verdict['bound']:.3f} -> "
                 f"{'passed' if verdict['passed'] else 'REJECTED'}")
        return verdict["passed"]

    def external_figure(self, engine, games, tag):
        """The current engine's external match under game settings tag: kept in state.json
        (external.figures[tag][name]), else played once in RUN/external/NAME-TAG.*."""
        ext = self.state.setdefault("external", {})
        figures = ext.setdefault("figures", {}).setdefault(tag, {})
        if engine[1] not in figures:
            figures[engine[1]] = self.external_match(os.path.join(self.folder, "external"),
                                                     f"{engine[1]}-{tag}", engine, games, tag)
            self.save_state()
        self.external_audit(figures[engine[1]], engine)
        return figures[engine[1]]

    def external_match(self, folder, name, engine, games, tag):
        """engine (as hansu() takes them) at external.hansu_nodes against external.engine at
        external.engine_nodes, each a limit of its own (fixed nodes: the games do not depend on
        the machine's load), all external.games games, --move-info (each move's score and
        depth, for the audit and match-profile), files folder/name.{pgn,json,txt}."""
        x = self.config["external"]
        os.makedirs(folder, exist_ok=True)
        book = (external_gate.openings_flags(x["openings"], games["variant"], REPO),
                x["random_plies"], ["--move-info"] + x["extra"])
        r = self.play(folder, name, [
            self.hansu(engine) + [f"nodes={x['hansu_nodes']}"],
            [f"cmd={games['engine']}", f"name={x['name']}", f"nodes={x['engine_nodes']}"]
            + x["options"]], [], x["games"], games["seed"],
            f"train external gate: {engine[1]} vs {x['name']}", "external", book=book)
        r.update(engine=engine[1], digest=tag, settings=games,
                 pgn=os.path.join(folder, f"{name}.pgn"))
        return r

    def external_audit(self, figure, engine):
        """scripts/eval-audit on an external match's PGN (external.audit): NAME-audit.json and
        .md beside it, the summary in the figure (audit: the net the engine played with, or
        its classical evaluation, and Fairy-Stockfish's column when the engine is one); a failed
        audit is a warning kept as audit.error, never a verdict."""
        x = self.config["external"]
        if not x["audit"] or "audit" in figure:
            return
        net = engine[2] if len(engine) > 2 else ""
        column = os.path.splitext(os.path.basename(net))[0] if net else "classical"
        while net and column in ("net", "classical", "fsf"):
            column += "'"  # eval-audit's name for a file named like a column
        out = figure["pgn"][:-len(".pgn")] + "-audit"
        program = figure["settings"]["engine"]
        fsf = (["--fsf", program] if "fairy-stockfish" in os.path.basename(program).lower()
               else ["--no-fsf"])
        argv = [sys.executable, os.path.join(REPO, "scripts", "eval-audit"), figure["pgn"],
                "--hansu-name", engine[1], "--engine-cmd",
                os.path.join(engine[0], "engine", "hansu"), "--json", out + ".json",
                "--md", out + ".md"] + (["--evalfile", net] if net else []) + fsf + x[
                    "audit_flags"]
        try:
            self.run_step("audit", argv, out + ".log")
            figure["audit"] = external_gate.audit_summary(out + ".json", column)
        except (TrainError, OSError, ValueError, KeyError, TypeError) as e:
            figure["audit"] = {"error": str(e)}
            self.log(f"warning: the evaluation audit of {figure['pgn']} failed: {e}")
        self.save_state()

    def verdict(self, k, record, candidate, current):
        """True when the SPRT accepted H1 and, with match.confirm, a second SPRT against the
        same engine with openings from a seed of its own accepted H1 too: a candidate no
        better than elo0 passes both with probability at most alpha^2 (docs/tuning.md)."""
        c = self.config["match"]
        if record["match"].get("sprt") != "H1 accepted":
            return False
        if not c.get("confirm", False):
            return True
        if "confirm" not in record:
            seed = 1_000_000_000 + self.config["run"]["seed"] * 1000 + k
            record["confirm"] = self.match(k, "confirm", candidate, current, c["games"],
                                           c["sprt"], seed=seed)
            self.save_state()
        self.log(f"iteration {k}: confirming SPRT: score {record['confirm'].get('score')}, "
                 f"nElo {record['confirm'].get('nelo')}, SPRT {record['confirm'].get('sprt')}")
        return record["confirm"].get("sprt") == "H1 accepted"

    def measure_vs_first(self, k, candidate, first, record):
        """An accepted candidate's fixed-length match against the first engine (engines as
        hansu() takes them), once: kept in the record as elo_vs_first."""
        if "elo_vs_first" in record or not self.config["match"]["elo_games"]:
            return
        record["elo_vs_first"] = self.elo_match(k, candidate, first)
        e = record["elo_vs_first"]
        self.log(f"iteration {k}: {candidate[1]} vs {first[1]} (first engine), "
                 f"{e['games']} games at {e['nodes']} nodes: Elo {e['elo']} ± "
                 f"{e['elo_error']}, nElo {e['nelo']} ± {e['nelo_error']}")
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

    def gauntlet(self):
        """The end of the run: the final engine (the last accepted, or the first when none
        was) and, with gauntlet.first, the first engine play gauntlet.games each against
        gauntlet.engine (Fairy-Stockfish) at gauntlet.tc, openings from GAUNTLET_SEED_BASE +
        run.seed * 1000. Kept in state.json's gauntlet; a finished match is not played again,
        a half-played one resumes. A missing engine or a failed match is logged and recorded,
        and the run still ends normally."""
        g = self.config.get("gauntlet")
        if g is None or not g["enabled"]:
            why = ("gauntlet.enabled = false" if g is not None
                   else "the run's settings are from before the gauntlet")
            self.state["gauntlet"] = {"skipped": why}
            self.log(f"gauntlet skipped: {why}")
            return
        engine = shutil.which(g["engine"])
        if engine is None:
            why = (f"{g['engine']} (gauntlet.engine) not found or not executable; install "
                   "Fairy-Stockfish (Debian package fairy-stockfish) or set gauntlet.engine")
            self.state["gauntlet"] = {"skipped": why}
            self.log(f"gauntlet skipped: {why}")
            return
        done = self.state.get("gauntlet", {}).get("results", {})
        state = self.state["gauntlet"] = {"opponent": g["name"], "engine": engine,
                                          "tc": g["tc"], "games": g["games"], "results": done}
        final, first = self.state["current"], self.state["first"]
        players = [final] + ([first] if g["first"] and first["name"] != final["name"] else [])
        seed = GAUNTLET_SEED_BASE + self.config["run"]["seed"] * 1000
        folder = os.path.join(self.folder, "gauntlet")
        os.makedirs(folder, exist_ok=True)
        for player in players:
            if player["name"] in done:
                continue
            nnue = eval_of(self.config) == "nnue"
            build = self.engine_build() if nnue else self.build(player["header"])
            self.match_tool = os.path.join(build, "selfplay", "match", "hansu-match")
            try:
                r = self.play(folder, player["name"], [
                    self.hansu((build, player["name"], player.get("net", ""))),
                    [f"cmd={engine}", f"name={g['name']}"] + g["options"]],
                    ["--tc", g["tc"]], g["games"], seed,
                    f"train gauntlet: {player['name']} vs {g['name']}, {g['tc']}", "gauntlet")
            except TrainError as e:
                state["error"] = str(e)
                self.log(f"warning: gauntlet stopped: {e}")
                return
            r.update(tc=g["tc"], seed=seed, opponent=g["name"],
                     role="final" if player is final else "first")
            done[player["name"]] = r
            self.save_state()
            self.log(f"gauntlet: {player['name']} vs {g['name']} at {g['tc']}, {r['games']} "
                     f"games: score {r['score']}, Elo {r['elo']} ± {r['elo_error']}, "
                     f"nElo {r['nelo']} ± {r['nelo_error']}")


def same_weights(a, b):
    """True when two weights headers hold the same numbers (banner comments aside)."""
    def numbers(path):
        with open(path) as f:
            return [line for line in f if not line.lstrip().startswith("//")]
    return numbers(a) == numbers(b)


def parse_match_json(path):
    """Reads hansu-match's --json result (docs/json-outputs.md) into the record kept in
    state.json: the score, Elo, nElo and LOS as the summary prints them (one decimal; "inf" or
    "-inf" where not finite), the pentanomial counts, the SPRT verdict and wins by end reason."""
    try:
        with open(path) as f:
            r = json.load(f)
        wins = r["wins"]
        r["games"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise TrainError(f"no match result in {path} ({e})")
    draws = r.get("draws", 0)  # xiangqi; janggi has none (and results from before the field)
    lead = "inf" if wins[0] > wins[1] else "-inf" if wins[0] < wins[1] else "nan"

    def text(v, scale=1.0):
        return lead if v is None else f"{v * scale:.1f}"
    score = f"{wins[0]}-{wins[1]}" if not draws else f"{wins[0]}-{draws}-{wins[1]}"
    out = {"games": r["games"], "score": score, "wins": float(wins[0]), "losses": float(wins[1]),
           "elo": text(r["elo"]), "elo_error": text(r["elo_error"]), "nelo": text(r["nelo"]),
           "nelo_error": text(r["nelo_error"]), "los": text(r["los"], 100.0),
           "pentanomial": r["pentanomial"]}
    if r.get("sprt"):
        verdict = {"continue": "continue (no bound crossed)", "H0": "H0 accepted",
                   "H1": "H1 accepted"}
        out["sprt"] = verdict[r["sprt"]["result"]]
        llr = r["sprt"]["llr"]  # null when not finite (every pair scored alike)
        out["llr"] = (round(llr, 3) if llr is not None else
                      {"H1": "inf", "H0": "-inf"}.get(r["sprt"]["result"], "nan"))
    out["wins_by_reason"] = r["reasons"]
    return out


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
            sized = size_for_cores(config, run_cores(config))  # a --config's per-core sizes
            run = Run(folder, config)
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
