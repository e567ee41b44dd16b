# SPDX-License-Identifier: MIT
"""scripts/train's settings and state: data/train.toml read with a --config file and --set over
it, every setting checked (types, ranges, the files and programs named) before the first step,
the defaults and the sizing for the cores found, and state.json's shape checked field by field.

Imported by the loop (scripts/train_loop.py) and its steps (train_steps.py, train_matches.py);
it imports none of them. The loop re-exports these names, which tests reach as train_loop's."""
import datetime
import hashlib
import json
import math
import os
import re
import shutil
import sys
import tomllib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import external_gate  # noqa: E402
import file_write  # noqa: E402


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
    problem = labelled_problem(c)
    if problem:
        raise TrainError(problem)
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


# Flags of hansu-selfplay label that the loop sets itself (external.label_flags may not).
LABEL_OWN_FLAGS = ("--out", "--nodes", "--threads", "--resume", "--json", "--evalfile",
                   "--classical", "--variant")


def labelled_settings(c):
    """nnue.labelled (folders or files, relative to the repository), nnue.labelled_repeat and
    the external.label_* settings, with the defaults of a run from before them."""
    n, x = c.get("nnue", {}), c.get("external") or {}
    return {"labelled": n.get("labelled", []), "repeat": n.get("labelled_repeat", 1),
            "nodes": x.get("label_nodes", 0), "net": x.get("label_net", ""),
            "flags": x.get("label_flags", [])}


def labelled_problem(c):
    """The first problem of the labelled-data settings (their types are check_types'), or
    None: ranges, a label_net that is a net of the run's variant, no flag the loop sets, and
    none of them in the texel mode (its tuner reads no labelled store)."""
    s = labelled_settings(c)
    if not is_int(s["repeat"]) or s["repeat"] < 1:
        return f"setting nnue.labelled_repeat = {s['repeat']!r}: expected a whole number, 1 or more"
    if not is_int(s["nodes"]) or s["nodes"] < 0:
        return (f"setting external.label_nodes = {s['nodes']!r}: expected a whole number of "
                "nodes, 0 (off) or more")
    empty = next((x for x in s["labelled"] if not isinstance(x, str) or not x), None)
    if empty is not None:
        return f"setting nnue.labelled = {s['labelled']!r}: expected folder or file names"
    bad = next((a for a in s["flags"] if a.split("=")[0] in LABEL_OWN_FLAGS), None)
    if bad:
        return (f"setting external.label_flags = {s['flags']!r}: {bad} is the loop's own "
                "(external.label_nodes, run.threads, the run folder, the net)")
    if c["run"].get("eval", "texel") != "nnue":
        used = ("nnue.labelled" if s["labelled"] else "external.label_nodes" if s["nodes"]
                else None)
        return (f"setting {used}: only for run.eval = \"nnue\" (the texel mode's tuner reads "
                "self-play only)") if used else None
    if s["net"]:
        try:
            check_net(s["net"], os.path.join(REPO, s["net"]), variant_of(c))
        except TrainError as e:
            return str(e).replace("run.start_net", "external.label_net")
    return None


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
                  "external": "dict", "labelled": "list"}
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
    if any(not isinstance(e, dict) or not all(isinstance(e.get(x), str) for x in (
            "name", "folder", "pgn", "net")) or not is_int(e.get("nodes")) or not isinstance(
                e.get("done"), bool) for e in state.get("labelled", [])):
        return ("labelled holds an entry that is not an object with name, folder, pgn, net, "
                "nodes and done")
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
