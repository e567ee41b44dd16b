# SPDX-License-Identifier: MIT
"""hansu as a child process for scripts/play (docs/play.md): every wait for an answer has a
timeout, after which the engine counts as hung and is killed; a reader thread queues its lines
and hands them to a listener while an analysis runs; parse_info reads its `info` lines.
scripts/play_session.py restarts an engine that is down and tells it the game again."""
import queue
import subprocess
import threading
import time

COMMAND_TIMEOUT = 10.0   # s for `d`, `go perft 1`, `isready`, `stop`: more is a hung engine


class PlayError(Exception):
    """A request the page must be told was refused: the message is the reason (the engine's
    own `info string` for a bad FEN, a PGN move or an illegal move)."""


class EngineDown(Exception):
    """The engine exited or did not answer in time; the message says which."""


class Engine:
    """hansu as a child process: a reader thread queues its lines; every wait has a timeout,
    after which the engine is killed and EngineDown raised."""

    def __init__(self, path, variant):
        self.path = path
        try:
            self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.STDOUT, text=True, bufsize=1)
        except OSError as e:
            raise PlayError(f"engine {path}: {e.strerror} (build it: ninja -C build "
                            "engine/hansu, or name one with --engine)")
        self.lines = queue.Queue()
        self.listener = None          # called with each line while an analysis runs
        threading.Thread(target=self._read, daemon=True).start()
        self.send("uci")
        self.wait(lambda l: l == "uciok")
        for name, value in (("UCI_Variant", variant), ("UCI_ShowWDL", "true")):
            self.send(f"setoption name {name} value {value}")

    def _read(self):
        for line in self.proc.stdout:
            line = line.rstrip("\n")
            listener = self.listener
            if listener:
                listener(line)
            self.lines.put(line)
        self.lines.put(None)

    @property
    def pid(self):
        return self.proc.pid

    def alive(self):
        return self.proc.poll() is None

    def send(self, line):
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except OSError:
            raise EngineDown(self._gone())

    def _gone(self):
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        return f"the engine stopped (exit {code})"

    def wait(self, done, timeout=None):
        """The lines up to and including the first for which done(line) holds; timeout in s
        (default COMMAND_TIMEOUT)."""
        timeout = COMMAND_TIMEOUT if timeout is None else timeout
        out, end = [], time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                self.kill()
                raise EngineDown(f"the engine did not answer in {timeout:.0f} s (hung)")
            if line is None:
                raise EngineDown(self._gone())
            out.append(line)
            if done(line):
                return out

    def drain(self):
        while True:
            try:
                self.lines.get_nowait()
            except queue.Empty:
                return

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()

    def close(self):
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.wait(timeout=3)
            except (EngineDown, subprocess.TimeoutExpired):
                pass
        self.kill()


def parse_info(line):
    """An `info ... score ... pv ...` line as {multipv, depth, cp | mate, wdl, pv}; None for
    other lines (bounds and currmove lines included)."""
    t = line.split()
    if not t or t[0] != "info" or "score" not in t or "pv" not in t:
        return None
    if "lowerbound" in t or "upperbound" in t:
        return None
    i = t.index("score")
    out = {"multipv": int(t[t.index("multipv") + 1]) if "multipv" in t else 1,
           "depth": int(t[t.index("depth") + 1]) if "depth" in t else 0,
           "cp": int(t[i + 2]) if t[i + 1] == "cp" else None,
           "mate": int(t[i + 2]) if t[i + 1] == "mate" else None,
           "nodes": int(t[t.index("nodes") + 1]) if "nodes" in t else 0,
           "pv": t[t.index("pv") + 1:]}
    if "wdl" in t:
        k = t.index("wdl")
        out["wdl"] = [int(x) for x in t[k + 1:k + 4]]
    return out
