#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# CECP (the XBoard protocol, docs/xboard.md) over a pipe: `hansu` started as XBoard starts it,
# every command of the protocol it offers sent and its answer read, the bad ones included
# (unknown command, bad arguments, illegal and malformed moves, bad FEN, NUL byte, long line),
# in both variants. Positions are checked against Hansu's own UCI front end (ranks 1-10 there,
# 0-9 here), never against hard-coded answers of a search. `ping` while the engine thinks on
# its move is answered after the move; the end of input ends analysis and pondering. No time is
# asserted: a search is bounded by `sd`, and reading waits for the answer (a guard only ends a
# hung engine).
# Usage: test_cecp.py HANSU
import re
import select
import subprocess
import sys
import time

HANSU = sys.argv[1]
GUARD_S = 60  # a hung engine fails the test after this long; nothing is timed
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


class Engine:
    def __init__(self, first="xboard"):
        self.p = subprocess.Popen([HANSU], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT)
        self.buf = b""
        self.pings = 0
        if first is not None:
            self.send(first)

    def send(self, line):
        data = line if isinstance(line, bytes) else line.encode()
        self.p.stdin.write(data + b"\n")
        self.p.stdin.flush()

    def readline(self):
        while b"\n" not in self.buf:
            ready, _, _ = select.select([self.p.stdout], [], [], GUARD_S)
            if not ready:
                raise RuntimeError("engine hung")
            chunk = self.p.stdout.read1(65536)
            if not chunk:
                raise RuntimeError("engine ended; output so far: %r" % self.buf)
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode(errors="replace")

    def until(self, pattern):
        """Lines read up to and including the first that matches pattern (a regex)."""
        lines = []
        while True:
            line = self.readline()
            lines.append(line)
            if re.search(pattern, line):
                return lines

    def say(self, *commands):
        """Sends commands, then a ping; returns the answers before its pong."""
        for c in commands:
            self.send(c)
        self.pings += 1
        self.send("ping %d" % self.pings)
        return self.until(r"^pong %d$" % self.pings)[:-1]

    def fen(self):
        lines = [l for l in self.say("d") if l.startswith("# variant")]
        return lines[-1].split(" fen ", 1)[1] if lines else None

    def end_input(self):
        """Closes the engine's input (the GUI has gone); returns its exit status and the lines
        it wrote after that (a hung engine raises after GUARD_S)."""
        self.p.stdin.close()
        lines = []
        try:
            while True:
                lines.append(self.readline())
        except RuntimeError as e:
            if "hung" in str(e):
                self.p.kill()
                raise
        rc = self.p.wait(timeout=GUARD_S)
        self.p.stdout.close()
        return rc, lines

    def quit(self):
        self.send("quit")
        rc = self.p.wait(timeout=GUARD_S)
        self.p.stdout.close()
        self.p.stdin.close()
        return rc


_uci = None


def uci(*commands, until):
    """Hansu's UCI front end (one process for the whole test): the lines up to `until`."""
    global _uci
    if _uci is None:
        _uci = Engine(first=None)
    for c in commands:
        _uci.send(c)
    return _uci.until(until)


def uci_fen(variant, moves):
    """The FEN after UCI moves (ranks 1-10), by Hansu's UCI front end."""
    lines = uci("setoption name UCI_Variant value %s" % variant,
                "position startpos" + (" moves " + " ".join(moves) if moves else ""), "d",
                until=r"^Fen: ")
    return lines[-1][5:]


def to_uci(cecp):
    """h0g2 -> h1g3; a pass -> 0000."""
    if cecp == "@@@@":
        return "0000"
    return "%s%d%s%d" % (cecp[0], int(cecp[1]) + 1, cecp[2], int(cecp[3]) + 1)


def test_uci_unchanged():
    # A first line other than `xboard` is UCI, as before.
    e = Engine(first="uci")
    lines = e.until(r"^uciok$")
    check(any(l.startswith("id name Hansu") for l in lines), "uci: id name")
    e.send("isready")
    check(e.until(r"readyok") == ["readyok"], "uci: readyok")
    check(e.quit() == 0, "uci: quit exits 0")
    # `xboard` with spaces around it is CECP; a longer word is not.
    e = Engine(first="  xboard \t")
    check(e.say("protover 2")[-1] == "feature done=1", "' xboard ' starts CECP")
    e.quit()
    e = Engine(first="xboard2")
    e.send("isready")
    lines = e.until(r"readyok")
    check(any("unknown command 'xboard2'" in l for l in lines), "xboard2 is a UCI command")
    e.quit()


def test_features():
    e = Engine()
    e.send("protover 2")
    lines = e.until(r"^feature done=1$")
    text = " ".join(lines)
    check(lines[0].startswith("feature done=0"), "protover: done=0 first (more to come)")
    for f in ["ping=1", "setboard=1", "usermove=1", "analyze=1", "memory=1", "smp=1",
              "playother=1", 'variants="janggi,xiangqi"', 'myname="Hansu', "time=1"]:
        check(f in text, "protover: feature %s" % f)
    for o in ["Use NNUE -check", "EvalFile -file", "Move Overhead -spin", "Clear Hash -button",
              "Skill Level -spin 20 0 20", "UCI_LimitStrength -check 0", "UCI_Elo -spin "]:
        check('option="%s' % o in text, "protover: option %s" % o)
    check(e.say("accepted setboard", "rejected draw", "xboard", "computer", "random", "name x y",
                "rating 2000 1500", "ics -", ".") == [], "accepted and ignored commands say nothing")
    check(e.say("ping 77") == ["pong 77"], "ping answers pong with its number")
    check(e.quit() == 0, "quit exits 0")


def test_bad_commands():
    e = Engine()
    check(e.say("foo") == ["Error (unknown command): foo"], "unknown command")
    check(e.say("foo bar baz") == ["Error (unknown command): foo"], "unknown command, args")
    check(e.say("variant chess") == ["Error (unsupported variant): chess"], "unsupported variant")
    for cmd, reason in [("level 40", "level"), ("level x 5 0", "level"), ("level 40 5:99 0", "level"),
                        ("level 40 5 -1", "level"), ("st 0", "st"), ("st x", "st"), ("sd 0", "sd"),
                        ("sd", "sd"), ("time x", "centiseconds"), ("otim", "centiseconds"),
                        ("memory 0", "memory"), ("memory x", "memory"), ("cores 0", "cores"),
                        ("cores two", "cores"), ("option Bogus=1", "unknown option"),
                        ("option Move Overhead=-5", "unknown option"),
                        ("option Use NNUE=2", "unknown option"),
                        ("option Skill Level=21", "unknown option"),
                        ("option Skill Level=-1", "unknown option"),
                        ("option Skill Level=x", "unknown option"),
                        ("option UCI_LimitStrength=2", "unknown option"),
                        ("option UCI_LimitStrength=true", "unknown option"),
                        ("option UCI_Elo=1399", "unknown option"),
                        ("option UCI_Elo=2701", "unknown option"),
                        ("option UCI_Elo=", "unknown option"),
                        ("option UCI_Elo=20x0", "unknown option")]:
        out = e.say(cmd)
        check(len(out) == 1 and out[0].startswith("Error (") and reason in out[0],
              "%s: one Error naming %s, got %r" % (cmd, reason, out))
    check(e.say("undo") == ["Error (no move to take back): undo"], "undo at the start")
    check(e.say("remove") == ["Error (no move to take back): remove"], "remove at the start")
    e.send(b"usermove h0g2\x00x")
    check(e.say() == ["Error (a NUL byte in the line): line"], "a NUL byte refused")
    out = e.say("x" * 70000)
    check(len(out) == 1 and out[0].startswith("Error (command longer"), "long line refused")
    out = e.say("option EvalFile=/nonexistent/net.nnue")
    check(len(out) == 1 and out[0].startswith("telluser EvalFile refused"), "EvalFile refused")
    check(e.fen() == uci_fen("janggi", []), "bad commands changed nothing")
    check(e.say("memory 32", "cores 2", "option Use NNUE=0", "option Use NNUE=1",
                "option Move Overhead=50", "option Clear Hash", "option EvalFile=<embedded>",
                "option Skill Level=0", "option Skill Level=20", "option UCI_Elo=1700",
                "option UCI_Elo=2550", "option UCI_LimitStrength=1",
                "option UCI_LimitStrength=0") == [],
          "good settings say nothing")
    check(e.say("cores 2000", "cores 9223372036854775807", "cores 1") ==
          ["# cores 2000: searching with 1024, the most one search takes",
           "# cores 9223372036854775807: searching with 1024, the most one search takes"],
          "cores past the most one search takes: those, said as a comment")
    out = e.say("cores 9223372036854775808")
    check(len(out) == 1 and out[0].startswith("Error (cores needs"), "cores past 64 bits: %r" % out)
    check(e.quit() == 0, "quit after bad commands")


def test_moves(variant, moves, illegal):
    e = Engine()
    out = e.say("protover 2", "new", "variant %s" % variant, "force")
    setup = [l for l in out if l.startswith("setup ") or l.startswith("piece ")]
    if variant == "janggi":
        check(len(setup) == 8 and re.match(r"setup \(\S{44}\) 9x10\+0_xiangqi ", setup[0]) is not None,
              "janggi: setup and 7 piece commands, got %r" % setup)
    else:
        check(setup == [], "xiangqi is XBoard's own: no setup")
    check(e.fen() == uci_fen(variant, []), "%s: start position" % variant)
    # usermove and a bare move, each checked against the UCI front end's position.
    for i, m in enumerate(moves):
        check(e.say("usermove %s" % m if i % 2 == 0 else m) == [], "%s: move %s accepted" % (variant, m))
        check(e.fen() == uci_fen(variant, [to_uci(x) for x in moves[: i + 1]]),
              "%s: position after %s" % (variant, " ".join(moves[: i + 1])))
    after = e.fen()
    for m in illegal:
        out = e.say("usermove %s" % m)
        check(len(out) == 1 and out[0].startswith("Illegal move (") and out[0].endswith("): " + m),
              "%s: illegal move %s, got %r" % (variant, m, out))
    for m in illegal:  # the reason holds no colon or parenthesis: XBoard reads the move after ': '
        out = e.say("usermove %s" % m)[0]
        reason = out[len("Illegal move ("):-len("): " + m)]
        check(not any(c in reason for c in ":()"), "%s: plain reason %r" % (variant, reason))
    check(e.say("usermove") == ["Illegal move (usermove takes one move): "], "usermove alone")
    check(e.say("usermove a0a1 a1a2") == ["Illegal move (usermove takes one move): a0a1 a1a2"],
          "usermove with two moves")
    check(e.fen() == after, "%s: illegal moves changed nothing" % variant)
    # undo takes back one move, remove two.
    check(e.say("undo") == [], "undo")
    check(e.fen() == uci_fen(variant, [to_uci(x) for x in moves[:-1]]), "%s: after undo" % variant)
    check(e.say("remove") == [], "remove")
    check(e.fen() == uci_fen(variant, [to_uci(x) for x in moves[:-3]]), "%s: after remove" % variant)
    check(e.quit() == 0, "quit")


def test_setboard():
    e = Engine()
    e.say("new", "variant xiangqi", "force")
    # XBoard's xiangqi letters and form: H horse, E elephant, no "- -".
    check(e.say("setboard rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w 0 1") == [],
          "setboard in XBoard's letters")
    check(e.fen() == uci_fen("xiangqi", []), "setboard read as the start")
    out = e.say("setboard rheakaehr/9/1c5c1 w 0 1")
    check(len(out) == 1 and out[0].startswith("tellusererror Illegal position: FEN"), "bad FEN")
    check(e.fen() == uci_fen("xiangqi", []), "a bad FEN changes nothing")
    check(e.say("usermove @@@@")[0].startswith("Illegal move ("), "xiangqi: no pass")
    # Janggi: a pass as usermove @@@@, and as XBoard sends it, a setboard of the position after
    # the pass: played as a pass, so undo takes it back (a new position could not be undone).
    e.say("new", "variant janggi", "force")
    check(e.say("usermove @@@@") == [], "janggi: usermove @@@@ passes")
    start = uci_fen("janggi", [])
    check(e.fen() == uci_fen("janggi", ["0000"]), "janggi: after the pass")
    placement = start.split()[0]
    check(e.say("setboard %s w 0 2" % placement) == [], "janggi: setboard after a pass")
    check(e.fen() == uci_fen("janggi", ["0000", "0000"]), "janggi: two passes")
    check(e.say("undo", "undo") == [] and e.fen() == start, "janggi: both passes taken back")
    # A setboard that is no pass replaces the game: nothing to take back.
    check(e.say("setboard 4k4/9/9/9/9/9/9/9/4K4/9 w 0 1", "undo") ==
          ["Error (no move to take back): undo"], "setboard starts a new history")
    check(e.quit() == 0, "quit")


def legal_reply(variant, moves):
    """Whether the UCI front end accepts the moves (CECP text) from the start."""
    lines = uci("setoption name UCI_Variant value %s" % variant,
                "position startpos moves " + " ".join(to_uci(m) for m in moves), "isready",
                until=r"^readyok$")
    return not any("error" in l for l in lines)


def test_play(variant):
    e = Engine()
    e.say("protover 2", "new", "variant %s" % variant, "sd 2", "post")
    # The engine plays the second side: a move of ours, then its reply, with thinking output.
    e.send("usermove e3e4" if variant == "xiangqi" else "usermove a3b3")
    lines = e.until(r"^move ")
    reply = lines[-1].split()[1]
    first = "e3e4" if variant == "xiangqi" else "a3b3"
    check(any(re.match(r"^\d+ -?\d+ \d+ \d+ [a-i]\d[a-i]\d", l) for l in lines[:-1]),
          "%s: post output before the move, got %r" % (variant, lines))
    check(legal_reply(variant, [first, reply]), "%s: the reply %s is legal" % (variant, reply))
    # nopost: no thinking output; go makes the engine play the side to move.
    e.say("nopost", "force", "usermove %s" % ("a3a4" if variant == "xiangqi" else "c3d3"))
    e.send("go")
    lines = e.until(r"^move ")
    check(len(lines) == 1, "%s: nopost, only the move, got %r" % (variant, lines))
    # time 0: the flag is down, the engine still moves (at once).
    e.say("force", "level 40 5 0", "time 0", "otim 1000")
    e.send("go")
    check(e.until(r"^move ")[-1].startswith("move "), "%s: time 0 still moves" % variant)
    # st: seconds a move (with sd 1 the depth ends the search first).
    e.say("force", "st 1", "sd 1")
    e.send("go")
    check(e.until(r"^move ")[-1].startswith("move "), "%s: st and sd, a move" % variant)
    # result ends the game: the engine plays no side, so `go` is needed before it moves again.
    e.say("result 1-0 {adjudicated}")
    e.send("undo")
    e.send("undo")
    check(not any(l.startswith("move ") for l in e.say()), "%s: no move after result" % variant)
    check(e.quit() == 0, "quit")


def test_claims():
    # Xiangqi: the engine plays Black, Red's chariot mates it on b10 (b7b9): it claims 1-0.
    e = Engine()
    e.say("new", "variant xiangqi", "force", "setboard 3k5/R8/1R7/9/9/9/9/9/9/5K3 w - - 0 1",
          "playother")
    out = e.say("usermove b7b9")
    check(out == ["1-0 {Red wins by checkmate}"], "xiangqi: claim after a mating move, got %r" % out)
    out = e.say("usermove e9e8")
    check(out == ["Illegal move (the game is over by checkmate): e9e8"],
          "a move after the end, the end claimed once: %r" % out)
    # The same end in a new game (setboard) is claimed again.
    out = e.say("setboard 3k5/R8/1R7/9/9/9/9/9/9/5K3 w - - 0 1", "usermove b7b9")
    check(out == ["1-0 {Red wins by checkmate}"], "the same end after setboard: %r" % out)
    # Janggi: Han's chariot a5a1 (a4a0) mates Cho, which the engine plays: 0-1.
    e.say("new", "variant janggi", "force", "setboard 3k5/9/9/9/7RR/r8/9/9/2r1A4/3KA4 b - - 0 1",
          "playother")
    out = e.say("usermove a4a0")
    check(out == ["0-1 {Han wins by checkmate}"], "janggi: claim after a mating move, got %r" % out)
    # go in an ended game claims the result and plays no move.
    e.say("force", "variant xiangqi", "setboard R2k5/R8/9/9/9/9/9/9/9/5K3 b - - 0 1")
    out = e.say("go")
    check(out == ["1-0 {Red wins by checkmate}"], "go when mated claims, got %r" % out)
    check(e.quit() == 0, "quit")


def test_long_analysis_lines():
    """Past 3 s (when the search starts to report its current root move, which CECP has no
    form for) the thinking output is still only complete lines, each with its PV."""
    e = Engine()
    e.say("new", "variant janggi", "force", "post", "analyze")
    time.sleep(3.6)
    out = e.say("exit")
    check(out and all(re.match(r"^\d+ -?\d+ \d+ \d+( [a-i]\d[a-i]\d| @@@@)+$", l) for l in out),
          "long analysis: only thinking lines with a PV, got %r" % out[-3:])
    check(e.quit() == 0, "quit")


def test_analyze_ponder_movenow():
    e = Engine()
    e.say("new", "variant xiangqi", "force", "analyze")
    lines = e.until(r"^\d+ -?\d+ \d+ \d+ [a-i]\d")
    check(len(lines) >= 1, "analyze: thinking output")
    # A move in analysis is played and analysed on; exit ends it; `.` is ignored.
    out = e.say("usermove h0g2", ".", "exit")
    check(not any(l.startswith(("Error", "Illegal", "move ")) for l in out),
          "analyze: a move, '.', exit: no error, never a move, got %r" % out)
    check(e.fen() == uci_fen("xiangqi", ["h1g3"]), "analyze: the move was played")
    # hard: the engine ponders after its move; the opponent's move ends it, the engine replies.
    e.say("new", "variant xiangqi", "sd 3", "hard", "nopost")
    e.send("usermove h0g2")
    reply = e.until(r"^move ")[-1].split()[1]
    hint = e.say("hint")  # a Hint: line with the expected reply, or nothing
    check(hint == [] or (len(hint) == 1 and re.match(r"^Hint: [a-i]\d[a-i]\d$", hint[0])
                         and legal_reply("xiangqi", ["h0g2", reply, hint[0].split()[1]])),
          "hint: a legal reply or nothing, got %r" % hint)
    e.send("usermove i0i1")
    second = e.until(r"^move ")[-1].split()[1]
    check(legal_reply("xiangqi", ["h0g2", reply, "i0i1", second]), "ponder: legal replies")
    # ?: a search without a depth limit moves now when told.
    e.say("easy", "force", "post", "sd 60", "level 0 600 0", "time 60000", "otim 60000")
    e.send("go")
    e.until(r"^\d+ -?\d+ \d+ \d+ ")  # thinking has begun
    e.send("?")
    check(e.until(r"^move ")[-1].startswith("move "), "?: moves now")
    check(e.quit() == 0, "quit")


def test_ping_while_thinking():
    """ping while the engine thinks on its own move: `pong N` only after the move (protocol
    version 2, engine-intf "ping"), whether the search is made to move now (`?`) or ends by
    itself; while it ponders, analyses or is idle, `pong N` at once. Only the order of the
    lines is checked."""
    e = Engine()
    e.say("protover 2", "new", "variant janggi", "force", "post", "sd 60", "level 0 600 0",
          "time 60000", "otim 60000")
    e.send("go")
    e.until(r"^\d+ -?\d+ \d+ \d+ ")  # thinking has begun (a search of about 20 s)
    e.send("ping 901")
    e.send("?")
    lines = e.until(r"^pong 901$")
    moved = [l for l in lines if l.startswith("move ")]
    check(len(moved) == 1, "ping while thinking, then ?: the move before pong 901, got %r"
          % lines[-3:])
    if not moved:
        e.until(r"^move ")
    # A search that ends by itself (sd 3): the ping sent at once waits for the move.
    e.say("force", "sd 3", "nopost")
    e.send("go")
    e.send("ping 902")
    lines = e.until(r"^pong 902$")
    check([l.split()[0] for l in lines] == ["move", "pong"],
          "ping while thinking (sd 3): move, then pong 902, got %r" % lines)
    if not any(l.startswith("move ") for l in lines):
        e.until(r"^move ")
    # Pondering after its move (hard) and analysis: answered at once, no move.
    e.say("new", "variant janggi", "hard", "sd 60", "st 1")
    e.send("usermove a3b3")
    e.until(r"^move ")
    check(not any(l.startswith("move ") for l in e.say()), "ping while pondering: pong, no move")
    e.say("easy", "force", "analyze")
    check(not any(l.startswith("move ") for l in e.say()), "ping while analysing: pong, no move")
    e.say("exit")
    check(e.quit() == 0, "quit")


def test_end_of_input():
    """At the end of its input (the GUI has gone) the engine ends what it does and exits 0:
    analysis and pondering are stopped (no move), a search of its move plays the move first."""
    runs = [("analysis", ["new", "variant xiangqi", "force", "analyze"], None, False),
            ("pondering", ["new", "variant xiangqi", "hard", "st 1"], "usermove h0g2", False),
            ("thinking", ["new", "variant xiangqi", "force", "sd 4"], "go", True)]
    for what, setup, last, moves in runs:
        e = Engine()
        e.say(*setup)
        if last == "usermove h0g2":
            e.send(last)
            e.until(r"^move ")  # its move; it ponders now
        elif last:
            e.send(last)
        try:
            rc, lines = e.end_input()
        except RuntimeError:
            check(False, "end of input while %s: the engine did not exit" % what)
            continue
        check(rc == 0, "end of input while %s: exit 0, got %r" % (what, rc))
        check(any(l.startswith("move ") for l in lines) == moves,
              "end of input while %s: %s, got %r" % (what, "its move" if moves else "no move",
                                                    lines[-3:]))


def thinking_depths(lines):
    return [int(l.split()[0]) for l in lines if re.match(r"^\d+ -?\d+ \d+ \d+ ", l)]


def test_ponder_hit(variant, first):
    """hard: after its move the engine searches its next move on the reply it expects. When the
    opponent plays that reply the search goes on, on the clock (a ponderhit): at a depth limit
    (sd) it has nothing left to search and moves with no new thinking line of depth 1; another
    reply stops it and a fresh search begins, thinking from depth 1."""
    hits = misses = 0
    for rnd in range(3):
        e = Engine()
        e.say("protover 2", "new", "variant %s" % variant, "sd 4", "hard", "post")
        e.send("usermove " + first)
        reply = e.until(r"^move ")[-1].split()[1]
        hint = e.say("hint")
        check(len(hint) == 1 and hint[0].startswith("Hint: "), "%s ponder: a hint, got %r"
              % (variant, hint))
        if len(hint) != 1:
            e.quit()
            continue
        expected = hint[0].split()[1]
        time.sleep(0.5)  # let the pondering search reach sd (a wait, nothing is timed)
        if rnd != 1:  # the expected reply: a ponderhit
            e.send("usermove " + expected)
            out = e.until(r"^move ")
            check(1 not in thinking_depths(out),
                  "%s ponderhit: the pondering search went on, got %r" % (variant, out))
            second = out[-1].split()[1]
            check(legal_reply(variant, [first, reply, expected, second]),
                  "%s ponderhit: a legal move" % variant)
            check(e.fen() == uci_fen(variant, [to_uci(m) for m in
                                               [first, reply, expected, second]]),
                  "%s ponderhit: the game has both moves" % variant)
            hits += 1
        else:  # another reply: a fresh search
            other = next(m for m in legal_moves(variant, [first, reply]) if m != expected)
            e.send("usermove " + other)
            out = e.until(r"^move ")
            check(1 in thinking_depths(out),
                  "%s ponder miss: a fresh search from depth 1, got %r" % (variant, out))
            check(legal_reply(variant, [first, reply, other, out[-1].split()[1]]),
                  "%s ponder miss: a legal move" % variant)
            misses += 1
        check(e.quit() == 0, "quit")
    check(hits == 2 and misses == 1, "%s ponder: 2 hits and a miss played" % variant)


def legal_moves(variant, moves):
    """The legal moves (CECP text) after moves from the start, by `go perft 1`."""
    lines = uci("setoption name UCI_Variant value %s" % variant,
                "position startpos moves " + " ".join(to_uci(m) for m in moves), "go perft 1",
                until=r"^Nodes searched")
    out = []
    for l in lines:
        m = re.match(r"^([a-i])(\d+)([a-i])(\d+): \d+$", l)
        if m:
            out.append("%s%d%s%d" % (m.group(1), int(m.group(2)) - 1, m.group(3),
                                     int(m.group(4)) - 1))
    return out


def test_strength_options():
    """UCI_LimitStrength and UCI_Elo weaken the engine's game search (a node cap: a search of
    a move at a depth limit it cannot reach stops early) and are undone by turning it off."""
    e = Engine()
    e.say("protover 2", "new", "variant janggi", "force", "post", "sd 30",
          "option UCI_LimitStrength=1", "option UCI_Elo=1700")
    e.send("go")
    out = e.until(r"^move ")
    depths = thinking_depths(out)
    check(depths and max(depths) < 30, "limited at 1700: the node cap ends the search, got %r" % out[-3:])
    check(legal_reply("janggi", [out[-1].split()[1]]), "limited: a legal move")
    e.quit()


def main():
    test_uci_unchanged()
    test_features()
    test_bad_commands()
    test_moves("xiangqi", ["h0g2", "h9g7", "b2e2", "b9c7"], ["h0h5", "a0a0", "zz", "e3e4x", "j0j1"])
    test_moves("janggi", ["a3b3", "a6b6", "@@@@", "h9g7"], ["h0h5", "e1e3", "a0a0", "e3e4x"])
    test_setboard()
    test_play("xiangqi")
    test_play("janggi")
    test_claims()
    test_analyze_ponder_movenow()
    test_ponder_hit("xiangqi", "h0g2")
    test_ponder_hit("janggi", "a3b3")
    test_strength_options()
    test_ping_while_thinking()
    test_end_of_input()
    test_long_analysis_lines()
    if failures:
        print("%d failures" % len(failures))
        return 1
    print("all CECP protocol checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
