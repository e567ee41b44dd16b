# SPDX-License-Identifier: MIT
"""What the analysis scripts share (mate-analysis.py, scaling-probe.py, match-profile.py,
surprise-suite.py): a UCI engine as a child process, the --engine/--option flags that name
them, a reader of the PGNs Hansu's and Fairy-Stockfish's tools write, and a whole-or-nothing
writer of their outputs."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import file_write  # noqa: E402
import pgn_file  # noqa: E402


class EngineError(RuntimeError):
    """An engine that exited or did not answer as UCI asks."""


class Engine:
    """A UCI engine as a child process, read line by line."""

    def __init__(self, cmd, options):
        self.name = cmd[0]
        try:
            self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, text=True, bufsize=1)
        except OSError as e:
            raise EngineError(f"{cmd[0]}: {e.strerror}")
        self.send("uci")
        self.wait_for("uciok")
        for k, v in options.items():
            self.send(f"setoption name {k} value {v}")
        self.ready()

    def send(self, line):
        try:
            self.p.stdin.write(line + "\n")
            self.p.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EngineError(f"{self.name}: exited (writing '{line[:40]}')")

    def wait_for(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise EngineError(f"{self.name}: exited while waiting for '{prefix}'")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def ready(self):
        self.send("isready")
        self.wait_for("readyok")

    def position(self, fen, moves):
        self.send(("position startpos" if fen == "startpos" else f"position fen {fen}") +
                  (" moves " + " ".join(moves) if moves else ""))

    def search(self, fen, moves, limit, new_game=True, collect=None):
        """Searches the position with `go LIMIT` (e.g. "nodes 20000", "movetime 4000");
        returns {depth, seldepth, nodes, nps, time_ms, cp | mate, best, pv} of the last info
        line with a score (from the side to move's view; None where the engine gave none), and
        with collect (a prefix, e.g. "info string reply ") "collected": the lines that start
        with it, in order."""
        if new_game:
            self.send("ucinewgame")
            self.ready()
        self.position(fen, moves)
        self.send(f"go {limit}")
        res = {"depth": 0, "seldepth": None, "nodes": None, "nps": None, "time_ms": None,
               "cp": None, "mate": None, "best": None, "pv": []}
        if collect:
            res["collected"] = []
        for line in self.wait_for("bestmove"):
            if collect and line.startswith(collect):
                res["collected"].append(line)
            elif (line.startswith("info") and not line.startswith("info string") and
                  " score " in line and "currmove" not in line):
                t = line.split()
                if "lowerbound" in t or "upperbound" in t:
                    continue
                if "multipv" in t and t[t.index("multipv") + 1] != "1":
                    continue
                res["depth"] = int(t[t.index("depth") + 1])
                for key, field in (("seldepth", "seldepth"), ("nodes", "nodes"), ("nps", "nps"),
                                   ("time", "time_ms")):
                    if key in t:
                        res[field] = int(t[t.index(key) + 1])
                i = t.index("score")
                if t[i + 1] == "cp":
                    res["cp"], res["mate"] = int(t[i + 2]), None
                else:
                    res["cp"], res["mate"] = None, int(t[i + 2])
                res["pv"] = t[t.index("pv") + 1:] if "pv" in t else []
            elif line.startswith("bestmove"):
                res["best"] = line.split()[1]
        return res

    def go(self, fen, moves, nodes, new_game=True):
        """search() at `go nodes N`."""
        return self.search(fen, moves, f"nodes {nodes}", new_game)

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def parse_engines(specs, options):
    """--engine NAME=CMD and --option NAME:KEY=VALUE into [(name, cmd, {option: value})].
    Raises ValueError with a one-line reason (a malformed spec, a name twice, a command that is
    not an executable file, an option for no engine)."""
    engines = []
    for spec in specs:
        name, sep, cmd = spec.partition("=")
        if not sep or not name or not cmd:
            raise ValueError(f"--engine '{spec}': expected NAME=COMMAND")
        if any(name == n for n, _, _ in engines):
            raise ValueError(f"--engine {name}: named twice")
        if not os.path.isfile(cmd) or not os.access(cmd, os.X_OK):
            raise ValueError(f"--engine {name}: {cmd}: not an executable file")
        engines.append((name, cmd, {}))
    for spec in options:
        name, sep, kv = spec.partition(":")
        key, sep2, value = kv.partition("=")
        if not sep or not sep2 or not key:
            raise ValueError(f"--option '{spec}': expected NAME:KEY=VALUE")
        match = [e for e in engines if e[0] == name]
        if not match:
            raise ValueError(f"--option '{spec}': no engine named {name}")
        match[0][2][key] = value
    return engines


def read_pgn(path):
    """The games of a PGN file, plain or gzip-compressed (GAMES.pgn.gz): [{index, tags, moves}],
    moves the UCI move words of the text (comments and move numbers left out). Raises
    pgn_file.PgnFileError (an OSError's reason, a damaged gzip file, not UTF-8) naming the file."""
    games, tags, text = [], {}, []
    for line in pgn_file.read_text(path).splitlines():
        line = line.strip()
        m = re.match(r'\[(\w+) "(.*)"\]', line)
        if m:
            if text:
                games.append((tags, " ".join(text)))
                tags, text = {}, []
            tags[m.group(1)] = m.group(2)
        elif line:
            text.append(line)
    if text:
        games.append((tags, " ".join(text)))
    out = []
    for tags, body in games:
        body = re.sub(r"\{[^}]*\}", " ", body)
        moves = [t for t in body.split() if re.fullmatch(r"[a-i]\d+[a-i]\d+", t)]
        out.append({"index": len(out) + 1, "tags": tags, "moves": moves})
    return out


def write_whole(path, text):
    """Writes text to path whole (file_write.replace_file) or not at all; returns None, or a
    one-line reason ("PATH: a folder, not a file", "PATH: No space left on device")."""
    try:
        file_write.replace_file(path, text)
    except OSError as e:
        return f"{path}: {e.strerror}"
    return None
