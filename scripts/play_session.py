# SPDX-License-Identifier: MIT
"""One play page's game and its engine, for scripts/play (docs/play.md).

The engine is the referee: the position after each move, the legal moves, the game's end with
its reason and points all come from `hansu` over UCI (`position fen F moves M`, `d`, `go perft
1`, and the `info string game over: ...` that any `go` answers at an ended game). Nothing here
applies a rule. The game (start FEN, moves, cursor) lives in the Session, so an engine that
stops or hangs is killed, restarted and told the position again: the game is kept. The
engine process itself, with its timeouts, is scripts/play_engine.py's Engine.

    s = Session("build/engine/hansu")
    s.new_game("janggi", "ma-sang-sang-ma", "sang-ma-ma-sang", human="w",
               strength={"mode": "nodes", "nodes": 20000})
    s.move("b1c3")            # the person's move, then Hansu's answer
    s.state()                 # what the page draws
    s.close()
"""
import importlib.machinery
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import game_viewer  # noqa: E402
import move_text  # noqa: E402
from play_engine import Engine, EngineDown, PlayError, parse_info  # noqa: E402,F401

SCRIPTS = os.path.dirname(os.path.abspath(__file__))
# The formations and their start positions as scripts/make-openings.py lays them out.
_openings = importlib.machinery.SourceFileLoader(
    "make_openings", os.path.join(SCRIPTS, "make-openings.py")).load_module()
FORMATIONS = _openings.FORMATIONS

# A .gib record's tags (docs/gib.md): the formations, the event, the players.
GIB_TAG = re.compile(r"^\s*\[(?:초차림|한차림|대회명|초대국자|한대국자)\s", re.M)
SEARCH_SLACK = 20.0      # s beyond a search's own limit before the engine counts as hung
GAME_OVER = re.compile(r"info string game over: ([\w-]+), (\w+)(?: wins)?"
                       r"(?:, points cho ([\d.]+) han ([\d.]+))?")


class Clock:
    """A game on the clock: each side's time left (ms) and the increment; the side to move's
    time runs from `since`. The clock is scripts/play's, not a rule: a fall is the match
    tool's kind of end (reason `time`), declared here."""

    def __init__(self, base_ms, inc_ms):
        self.left, self.inc = {"w": base_ms, "b": base_ms}, inc_ms
        self.running, self.since = None, 0.0

    def start(self, side):
        self.running, self.since = side, time.monotonic()

    def left_now(self, side):
        spent = (time.monotonic() - self.since) * 1000 if side == self.running else 0
        return self.left[side] - spent

    def press(self):
        """Ends the running side's turn; False when its time had run out."""
        side, self.running = self.running, None
        self.left[side] -= (time.monotonic() - self.since) * 1000
        if self.left[side] < 0:
            self.left[side] = 0
            return False
        self.left[side] += self.inc
        return True

    def view(self):
        return {"w": round(self.left_now("w")), "b": round(self.left_now("b")),
                "running": self.running, "inc": self.inc}


def escape_tag(value):
    """A PGN tag value as the standard (8.1.1) writes it: \\ and \" escaped."""
    return str(value).replace("\\", "\\\\").replace('"', '\\"')


def start_fens(engine_path):
    """The start positions the set-up editor offers, as the engine writes them: janggi's for
    each pairing of formations ({"CHO|HAN": FEN}) and xiangqi's."""
    try:
        with game_viewer.FenEngine(engine_path) as eng:
            janggi = {f"{FORMATIONS[p // 4]}|{FORMATIONS[p % 4]}":
                      eng.position(_openings.pairing_fen(p)) for p in range(16)}
            eng.set_variant("xiangqi")
            return {"janggi": janggi, "xiangqi": eng.position(None)}
    except game_viewer.ViewerError as e:
        raise PlayError(str(e))


def pgn_summary(number, game):
    """What the page lists of one game of a PGN text: its number (from 1), the tags that tell
    games apart, and its plies."""
    keep = ("Event", "Site", "Date", "Round", "White", "Black", "Result", "Variant", "Opening")
    return {"number": number, "tags": {k: game["tags"][k] for k in keep if k in game["tags"]},
            "plies": len(game["moves"])}


class Session:
    """The game of one page and the engine that referees it and plays against the person."""

    def __init__(self, engine_path, variant="janggi"):
        self.engine_path = engine_path
        self.lock = threading.RLock()
        self.seen = time.monotonic()
        self.notes = []               # engine faults the page is told of
        self.variant = variant
        self.engine = Engine(engine_path, variant)
        self.human = "w"              # "w", "b" (playing Hansu) or "both" (analysis, no reply)
        self.strength = {"mode": "nodes", "nodes": 20000}
        self.formations = None
        self.analysis = None          # {"multipv", "lines": {k: info}} while analysing
        self.clock = None             # a Clock in a game on the clock
        self.flag = None              # the end by the clock, once a side's time ran out
        self.new_game(variant)

    # --- the engine, kept alive -----------------------------------------------------------
    def _restart(self, why):
        self.notes.append(f"{why}; Hansu was restarted and the game kept")
        try:
            self.engine.kill()
        except OSError:
            pass
        self.engine = Engine(self.engine_path, self.variant)

    def _with_engine(self, fn):
        """fn() with the engine; when the engine is down or hung, restart it and try once more."""
        if not self.engine.alive():
            self._restart(self.engine._gone())
        try:
            return fn()
        except EngineDown as e:
            self._restart(str(e))
            return fn()

    def check_engine(self):
        """Restarts an engine that stopped while idle or analysing (the analysis too)."""
        with self.lock:
            if self.engine.alive():
                return
            running = self.analysis
            self._restart(self.engine._gone())
            if running:
                self.analysis = None
                self.analyse(running["multipv"])

    # --- positions from the engine --------------------------------------------------------
    def _position_cmd(self, fen, moves):
        return f"position fen {fen}" + (" moves " + " ".join(moves) if moves else "")

    def _display(self, fen, moves):
        """The FEN the engine gives after moves from fen; PlayError with the engine's reason
        when it refuses them. fen None: the variant's start."""
        eng = self.engine
        eng.drain()
        eng.send(self._position_cmd(fen, moves) if fen else "position startpos")
        eng.send("d")
        out = eng.wait(lambda l: l.startswith("Key:"))
        errors = [l[len("info string "):] for l in out if l.startswith("info string")]
        if errors:
            raise PlayError(errors[0].removeprefix("error: "))
        return next(l[5:] for l in out if l.startswith("Fen: "))

    def _normal_fen(self, fen):
        """fen as the engine writes it (None: the variant's start)."""
        return self._with_engine(lambda: self._display(fen, []))

    def _referee(self):
        """The position at the cursor: its FEN, its end (reason, winner, points) or its legal
        moves, all from the engine."""
        moves = self.moves[:self.ply]
        eng = self.engine
        self.fen = self._display(self.start_fen, moves)
        eng.send("setoption name UCI_LimitStrength value false")
        eng.send("go depth 1")  # at an ended game `go` answers the end instead of searching
        out = eng.wait(lambda l: l.startswith("bestmove"))
        self.over = None
        for line in out:
            m = GAME_OVER.match(line)
            if m:
                who = m.group(2)
                sides = [s.lower() for s in game_viewer.VARIANTS[self.variant]["sides"]]
                self.over = {"reason": m.group(1), "winner": who,
                             "result": "1/2-1/2" if who == "drawn" else
                             "1-0" if who == sides[0] else "0-1",
                             "points": [float(m.group(3)), float(m.group(4))]
                             if m.group(3) else None, "text": line[len("info string "):]}
        if self.flag and self.ply == len(self.moves):
            self.over = self.flag
        if self.over and self.clock:
            self.clock.running = None
        self.legal = []
        if not self.over:
            self.legal = self._perft()

    def _set_game(self, fen, moves, ply=None):
        self.start_fen, self.moves = fen, list(moves)
        self.ply = len(self.moves) if ply is None else ply
        self.scores = [None] * len(self.moves)
        self.analysis = self.clock = self.flag = None
        self._with_engine(self._referee)

    def side_to_move(self):
        return self.fen.split()[1]

    # --- requests ---------------------------------------------------------------------------
    def new_game(self, variant, cho=None, han=None, human="w", strength=None):
        """A game from the start (janggi: the formations cho and han chose) with the person
        as "w", "b" or "both" (analysis: Hansu does not answer), Hansu's strength as
        {"mode": "nodes", "nodes": N} or {"mode": "elo", "elo": E, "movetime": MS}; Hansu moves
        first when the person plays "b"."""
        with self.lock:
            self.stop()
            if variant not in game_viewer.VARIANTS:
                raise PlayError(f"variant '{variant}' is not janggi or xiangqi")
            if human not in ("w", "b", "both"):
                raise PlayError(f"side '{human}' is not w, b or both")
            self._set_variant(variant)
            fen = None
            self.formations = None
            if variant == "janggi":
                cho, han = cho or FORMATIONS[0], han or FORMATIONS[0]
                if cho not in FORMATIONS or han not in FORMATIONS:
                    raise PlayError(f"formation '{cho if cho not in FORMATIONS else han}' is "
                                    f"not one of {', '.join(FORMATIONS)}")
                p = FORMATIONS.index(cho) * 4 + FORMATIONS.index(han)
                fen, self.formations = _openings.pairing_fen(p), [cho, han]
            self.human = human
            if strength:
                self.set_strength(strength)
            self._set_game(self._normal_fen(fen), [])
            self._start_clock()
            self._reply()

    def _start_clock(self):
        """A new clock for a game on the clock against Hansu, running for the side to move."""
        st, self.flag = self.strength, None
        self.clock = None
        if st["mode"] == "clock" and self.human != "both":
            self.clock = Clock(st["clock"] * 1000, st["inc"] * 1000)
            self.clock.start(self.side_to_move())

    def _time_over(self, loser):
        """The end of a game whose loser's time ran out."""
        sides = [s.lower() for s in game_viewer.VARIANTS[self.variant]["sides"]]
        winner = sides[1] if loser == "w" else sides[0]
        self.flag = self.over = {"reason": "time", "winner": winner,
                                 "result": "0-1" if loser == "w" else "1-0", "points": None,
                                 "text": f"game over: time, {winner} wins (scripts/play's clock)"}
        self.legal = []

    def _set_variant(self, variant):
        if variant != self.variant:
            self.variant = variant
            self._with_engine(lambda: self.engine.send(
                f"setoption name UCI_Variant value {variant}"))

    def set_strength(self, strength):
        mode = strength.get("mode")
        try:
            if mode == "nodes":
                value = int(strength.get("nodes", 0))
                ok = 1 <= value <= 100_000_000
            elif mode == "clock":
                value, inc = float(strength.get("clock", 0)), float(strength.get("inc", 0))
                ok = 0 < value <= 3 * 3600 and 0 <= inc <= 600
            elif mode == "elo":
                value = int(strength.get("elo", 0))
                ok = 0 < value < 10000
            else:
                ok = False
        except (TypeError, ValueError):
            ok = False
        if not ok:
            raise PlayError(f"strength {strength}: expected nodes 1..100000000, an Elo, or a "
                            "clock of up to 3 hours (s) and an increment up to 600 s")
        self.strength = {"mode": mode, mode: value,
                         "movetime": int(strength.get("movetime", 1000))}
        if mode == "clock":
            self.strength["inc"] = inc

    def move(self, mv):
        """The person's move at the cursor (later moves are dropped), then Hansu's reply when
        it is Hansu's turn in a game."""
        with self.lock:
            self.stop()
            self.analysis = None
            if self.over:
                raise PlayError(f"the game is over ({self.over['text']})")
            if mv not in self.legal:
                raise PlayError(f"'{mv}' is not a legal move here (the engine lists "
                                f"{len(self.legal)})")
            if self.clock and self.clock.running == self.side_to_move():
                if not self.clock.press():
                    self._time_over(self.side_to_move())
                    return
            del self.moves[self.ply:]
            del self.scores[self.ply:]
            self.moves.append(mv)
            self.scores.append(None)
            self.ply += 1
            self._with_engine(self._referee)
            if self.clock and not self.over:
                self.clock.start(self.side_to_move())
            self._reply()

    def _reply(self):
        """Hansu's move when the side to move is Hansu's in a game and the game goes on."""
        if self.human == "both" or self.over or self.ply != len(self.moves):
            return
        if self.side_to_move() == self.human:
            return
        self._with_engine(self._search)
        self._with_engine(self._referee)

    def _search(self):
        eng, st = self.engine, self.strength
        eng.drain()
        eng.send("setoption name MultiPV value 1")
        if st["mode"] == "elo":
            eng.send("setoption name UCI_LimitStrength value true")
            eng.send(f"setoption name UCI_Elo value {st['elo']}")
            go, limit_s = f"go movetime {st['movetime']}", st["movetime"] / 1000
        elif st["mode"] == "clock" and self.clock:
            eng.send("setoption name UCI_LimitStrength value false")
            c = self.clock
            go = (f"go wtime {max(0, round(c.left_now('w')))} btime "
                  f"{max(0, round(c.left_now('b')))} winc {c.inc:.0f} binc {c.inc:.0f}")
            limit_s = max(c.left_now("w"), c.left_now("b")) / 1000
        elif st["mode"] == "clock":  # a restored or loaded game: no clock runs, a second a move
            eng.send("setoption name UCI_LimitStrength value false")
            go, limit_s = "go movetime 1000", 1.0
        else:
            eng.send("setoption name UCI_LimitStrength value false")
            go, limit_s = f"go nodes {st['nodes']}", 0
        eng.send(self._position_cmd(self.start_fen, self.moves))
        eng.send(go)
        out = eng.wait(lambda l: l.startswith("bestmove"), timeout=limit_s + SEARCH_SLACK)
        best = out[-1].split()[1]
        if best == "(none)":
            return
        if self.clock and self.clock.running and not self.clock.press():
            self._time_over(self.side_to_move())
            return
        if self.clock:
            self.clock.start("b" if self.side_to_move() == "w" else "w")
        infos = [i for i in map(parse_info, out) if i and i["multipv"] == 1]
        self.moves.append(best)
        self.scores.append(infos[-1] if infos else None)
        self.ply += 1

    def takeback(self):
        """Back to the person's last turn: one ply, or two where Hansu had answered."""
        with self.lock:
            self.stop()
            self.analysis = None
            if self.ply == 0:
                raise PlayError("no move to take back")
            if self.flag:
                raise PlayError("the game was lost on time: start a new one")
            del self.moves[self.ply - 1:]
            self.ply = len(self.moves)
            del self.scores[self.ply:]
            self.flag = None
            self._with_engine(self._referee)
            if self.human != "both" and self.side_to_move() != self.human and self.moves:
                self.moves.pop()
                self.scores.pop()
                self.ply -= 1
                self._with_engine(self._referee)
            if self.clock and not self.over:  # the times stay as they were
                self.clock.start(self.side_to_move())

    def goto(self, ply):
        with self.lock:
            self.stop()
            self.analysis = None
            self.ply = max(0, min(len(self.moves), int(ply)))
            self._with_engine(self._referee)

    def load_fen(self, fen, variant=None):
        """A position from a FEN (the synonyms the engine reads); refused with the engine's
        reason. The page then analyses it (no reply from Hansu until a new game)."""
        with self.lock:
            self.stop()
            fen = " ".join(str(fen).split())
            if not fen:
                raise PlayError("an empty FEN")
            old = self.variant
            self._set_variant(variant or self.variant)
            try:
                normal = self._with_engine(lambda: self._display(fen, []))
            except PlayError:
                self._set_variant(old)
                raise
            self.human, self.formations = "both", None
            self._set_game(normal, [])

    def restore(self, game):
        """The game a page still shows after its session ended (the page was silent too long,
        e.g. in a background tab): {variant, start_fen, moves, ply, human, strength,
        formations}, every move checked by the engine again."""
        with self.lock:
            self.stop()
            variant = game.get("variant")
            if variant not in game_viewer.VARIANTS:
                raise PlayError(f"restore: variant '{variant}' is not janggi or xiangqi")
            moves = [str(m) for m in game.get("moves") or []]
            self._set_variant(variant)
            start, moves = self._read_game({"tags": {"FEN": str(game.get("start_fen", ""))},
                                            "moves": moves}, 1)
            self.human = game.get("human") if game.get("human") in ("w", "b", "both") else "both"
            if game.get("strength"):
                self.set_strength(game["strength"])
            formations = game.get("formations")
            self.formations = formations if isinstance(formations, list) else None
            self._set_game(start, moves, max(0, min(len(moves), int(game.get("ply", len(moves))))))
            self.notes.append("the page's session had ended; its game was restored")

    def load_pgn(self, text, game=None):
        """Game number `game` (from 1) of a PGN text (Variant and FEN tags as hansu-match writes
        them; moves in any form scripts/move_text.py reads), at its last move. A text of several
        games and no number loads nothing and answers {"pgn_games": [{number, tags, plies}]}
        for the page to choose from. A move that the engine refuses, or that names no legal
        move, refuses the game: its number, the move's number and text, and the reason."""
        with self.lock:
            self.stop()
            text = str(text)
            if GIB_TAG.search(text):
                text = self._gib_to_pgn(text)
            try:
                games = game_viewer.parse_pgn(text, "PGN", written=True)
            except game_viewer.ViewerError as e:
                raise PlayError(str(e))
            if not games:
                raise PlayError("PGN: no game in the text")
            if game is None and len(games) > 1:
                return {"pgn_games": [pgn_summary(i + 1, g) for i, g in enumerate(games)]}
            n = 1 if game is None else int(game)
            if not 1 <= n <= len(games):
                raise PlayError(f"PGN: no game {n} (the text has {len(games)})")
            g = games[n - 1]
            variant = g["tags"].get("Variant", "janggi").lower()
            if variant not in game_viewer.VARIANTS:
                raise PlayError(f"PGN: game {n}: variant '{variant}' is not janggi or xiangqi")
            old = self.variant
            self._set_variant(variant)
            try:
                start, moves = self._read_game(g, n)
            except PlayError:
                self._set_variant(old)
                raise
            self.human, self.formations = "both", None
            self._set_game(start, moves)
            return None

    def _gib_to_pgn(self, text):
        """A .gib text (Korean janggi records, docs/gib.md) as PGN, by the engine's own .gib
        reader: `hansu-selfplay gib --pgn -`, beside the engine in its build. Records it
        refuses, and its warnings (moves after the rules ended a game), are in the page's notes;
        a text with no record it takes is refused."""
        tool = os.path.join(os.path.dirname(os.path.dirname(self.engine_path)), "selfplay",
                            "hansu-selfplay")
        if not os.access(tool, os.X_OK):
            raise PlayError(f"GIB: reading .gib records needs {tool} (ninja -C build "
                            "hansu-selfplay)")
        with tempfile.TemporaryDirectory(prefix="hansu-play-") as tmp:
            path = os.path.join(tmp, "pasted.gib")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            try:
                r = subprocess.run([tool, "gib", "--pgn", "-", "--event", "pasted .gib", path],
                                   capture_output=True, text=True, timeout=60)
            except (OSError, subprocess.TimeoutExpired) as e:
                raise PlayError(f"GIB: {tool}: {e}")
        said = [line.replace(path, "the .gib text").removeprefix("hansu-selfplay gib: ")
                for line in r.stderr.splitlines()
                if ("refused" in line and "records refused" not in line) or "warning:" in line]
        if r.returncode not in (0, 1) or not r.stdout.strip():
            raise PlayError("GIB: " + next((x for x in said if "refused" in x),
                                           r.stderr.strip()[-300:]))
        self.notes.extend(said[:5])  # refused records, and moves after the rules' end dropped
        return r.stdout

    def _read_game(self, g, n):
        """(start FEN, UCI moves) of parsed game g, number n of its text, each move as written
        read against the engine's legal moves (scripts/move_text.py) and taken by the engine."""
        try:
            start = self._with_engine(lambda: self._display(g["tags"].get("FEN"), []))
        except PlayError as e:
            raise PlayError(f"PGN: game {n}: FEN tag: {e}")
        iccs = move_text.is_iccs(g["tags"], g["moves"])
        first = 1 if start.split()[1] == "b" else 0
        fullmove = int(start.split()[5])
        moves, fen = [], start
        for i, word in enumerate(g["moves"]):  # one ply at a time, to name the move refused
            try:
                legal = self._with_engine(lambda: self._legal_at(fen))
                mv = move_text.to_uci(word, self.variant, fen, legal, iccs)
                fen = self._with_engine(lambda: self._display(start, moves + [mv]))
            except (PlayError, move_text.MoveTextError) as e:
                k = i + first
                raise PlayError(f"PGN: game {n}, move {fullmove + k // 2}"
                                f"{'...' if k % 2 else '.'} {word} (ply {i + 1}): {e}")
            moves.append(mv)
        return start, moves

    def _legal_at(self, fen):
        """The engine's legal moves at fen (`go perft 1`)."""
        self.engine.drain()
        self.engine.send(f"position fen {fen}")
        return self._perft()

    def _perft(self):
        """The legal moves of the engine's position: `go perft 1`, one `move: 1` line each."""
        self.engine.send("go perft 1")
        out = self.engine.wait(lambda l: l.startswith("Nodes searched"))
        return [l.split(":")[0] for l in out if re.fullmatch(r"[a-i]\d+[a-i]\d+: \d+", l)]

    def pgn(self):
        """The game as PGN, with the tags hansu-match writes (Variant, SetUp, FEN, Opening,
        Termination, PlyCount); moves in UCI form, Hansu's with its score as a comment."""
        with self.lock:
            over = self.over if self.ply == len(self.moves) else None
            result = over["result"] if over else "*"
            names = {"w": ("You", "Hansu"), "b": ("Hansu", "You")}.get(self.human, ("?", "?"))
            tags = [("Event", "Hansu play"), ("Site", "scripts/play"),
                    ("Date", time.strftime("%Y.%m.%d")), ("Round", "1"), ("White", names[0]),
                    ("Black", names[1]), ("Result", result), ("Variant", self.variant),
                    ("SetUp", "1"), ("FEN", self.start_fen)]
            if self.formations:
                tags.append(("Opening", " vs ".join(self.formations)))
            if self.strength["mode"] == "clock":
                tags.append(("TimeControl", f"{self.strength['clock']:g}+"
                                            f"{self.strength['inc']:g}"))
            tags.append(("Termination", over["reason"] if over else "unterminated"))
            tags.append(("PlyCount", str(len(self.moves))))
            out = [f'[{k} "{escape_tag(val)}"]' for k, val in tags]
            words = []
            for i, mv in enumerate(self.moves):
                if i % 2 == 0:
                    words.append(f"{i // 2 + 1}.")
                words.append(mv)
                sc = self.scores[i]
                if sc:
                    words.append("{" + (f"{sc['cp'] / 100:+.2f}" if sc["cp"] is not None
                                        else f"{'+' if sc['mate'] > 0 else '-'}M"
                                        f"{abs(sc['mate'])}") + "}")
            if over:
                words.append("{" + over["text"] + "}")
            words.append(result)
            lines, cur = [], ""
            for w in words:
                if cur and len(cur) + 1 + len(w) > 79:
                    lines.append(cur)
                    cur = w
                else:
                    cur = f"{cur} {w}" if cur else w
            lines.append(cur)
            return "\n".join(out) + "\n\n" + "\n".join(lines) + "\n\n"

    # --- analysis --------------------------------------------------------------------------
    def analyse(self, multipv=1):
        """go infinite at the cursor with MultiPV lines; the lines arrive in state()."""
        with self.lock:
            self.stop()
            if self.over:
                raise PlayError(f"the game is over ({self.over['text']})")
            k = max(1, min(8, int(multipv)))
            self.analysis = {"multipv": k, "lines": {}, "running": True, "ply": self.ply}

            def listen(line, lines=self.analysis["lines"]):
                info = parse_info(line)
                if info:
                    lines[info["multipv"]] = info

            def start():
                eng = self.engine
                eng.drain()
                eng.send("setoption name UCI_LimitStrength value false")
                eng.send(f"setoption name MultiPV value {k}")
                eng.send(self._position_cmd(self.start_fen, self.moves[:self.ply]))
                eng.listener = listen
                eng.send("go infinite")
                eng.send("isready")
                eng.wait(lambda l: l == "readyok")
            self._with_engine(start)

    def stop(self):
        """Ends a running analysis (its lines stay shown)."""
        with self.lock:
            if not self.analysis or not self.analysis.get("running"):
                return
            self.analysis["running"] = False

            def halt():
                self.engine.send("stop")
                self.engine.wait(lambda l: l.startswith("bestmove"))
            try:
                halt()
            except EngineDown as e:
                self._restart(str(e))
            self.engine.listener = None

    # --- what the page draws ---------------------------------------------------------------
    def state(self):
        self.check_engine()
        with self.lock:
            c = self.clock
            if c and c.running == self.human and c.left_now(self.human) < 0:
                c.press()
                self._time_over(self.human)
            notes, self.notes = self.notes, []
            a = self.analysis
            found = a["lines"].copy() if a else {}  # the reader thread adds to it
            return {"variant": self.variant, "start_fen": self.start_fen, "moves": self.moves,
                    "scores": self.scores, "ply": self.ply, "fen": self.fen,
                    "legal": self.legal, "over": self.over, "human": self.human,
                    "formations": self.formations, "strength": self.strength,
                    "analysis": {"running": a["running"], "multipv": a["multipv"],
                                 "ply": a["ply"],
                                 "lines": [found[k] for k in sorted(found)]}
                    if a else None,
                    "clock": c.view() if c else None,
                    "notes": notes, "engine_pid": self.engine.pid}

    def close(self):
        with self.lock:
            self.engine.close()
