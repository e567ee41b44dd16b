#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Writes the openings files of Hansu's matches and self-play, every FEN through Hansu's own rules
core (`hansu`, UCI `position ... moves ...` then `d`), never typed. A move Hansu refuses stops
the script with its name.

    scripts/make-openings.py [--variant xiangqi] [--hansu build/engine/hansu] [-o FILE]
    scripts/make-openings.py --variant janggi [--seed 2025] [--per-pairing 32] [--depth 10]
        [--check-depth 12] [--margin 35] [--balance 60] [--candidates fsf|hansu] ... [-o FILE]

xiangqi (the default): data/openings-xiangqi.fen, well-known openings after 2-4 plies, named
lines. Moves are UCI squares (files a-i from Red's left, ranks 1-10 from Red's side); the comment
of each line gives the name and the moves in Chinese notation.

janggi: data/openings-janggi.fen, a book of short engine-checked lines from each of the 16
formation pairings, as chess testing books are made (docs/openings.md): random walks of 2-8
plies from the pairing's start, each move within --margin of Hansu's best at --depth, each end
position kept when it is new, not in check, and balanced (|score| <= --balance at
--check-depth). Candidate moves come from Fairy-Stockfish's MultiPV (a second opinion while
building the file, never a dependency of the product) or, with --candidates hansu, from Hansu
searching every child. Fixed depths, one thread, a seed: the same command writes the same file.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import time

# (name, Chinese notation, UCI moves)
OPENINGS = [
    ("Central Cannon v Screen Horse", "C2=5 H8+7", "h3e3 h10g8"),
    ("Central Cannon v Screen Horses", "C2=5 H8+7 H2+3 H2+3", "h3e3 h10g8 h1g3 b10c8"),
    ("Central Cannon v Screen Horse, right chariot", "C2=5 H8+7 H2+3 R9+1", "h3e3 h10g8 h1g3 i10i9"),
    ("Central Cannon v Screen Horse, 7th soldier", "C2=5 H8+7 H2+3 P7+1", "h3e3 h10g8 h1g3 g7g6"),
    ("Central Cannon v Screen Horse, 3rd soldier", "C2=5 H8+7 H2+3 P3+1", "h3e3 h10g8 h1g3 c7c6"),
    ("Central Cannon, horse, v Screen Horse, chariot", "C2=5 H8+7 H2+3 R9=8", "h3e3 h10g8 h1g3 i10h10"),
    ("Same Direction Cannons", "C2=5 C8=5", "h3e3 h8e8"),
    ("Same Direction Cannons, horses", "C2=5 C8=5 H2+3 H8+7", "h3e3 h8e8 h1g3 h10g8"),
    ("Opposite Direction Cannons", "C2=5 C2=5", "h3e3 b8e8"),
    ("Opposite Direction Cannons, horses", "C2=5 C2=5 H2+3 H2+3", "h3e3 b8e8 h1g3 b10c8"),
    ("Central Cannon v Left Horse", "C2=5 H2+3", "h3e3 b10c8"),
    ("Central Cannon v Left Horse, chariot", "C2=5 H2+3 H2+3 R1=2", "h3e3 b10c8 h1g3 a10b10"),
    ("Central Cannon v Three-step Tiger", "C2=5 H8+7 H2+3 C8=9", "h3e3 h10g8 h1g3 h8i8"),
    ("Central Cannon v Elephant", "C2=5 E3+5", "h3e3 c10e8"),
    ("Central Cannon v Soldier", "C2=5 P3+1", "h3e3 c7c6"),
    ("Central Cannon v Palace Corner Cannon", "C2=5 C8=6", "h3e3 h8f8"),
    ("Left Central Cannon v Screen Horse", "C8=5 H2+3", "b3e3 b10c8"),
    ("Left Central Cannon v Screen Horses", "C8=5 H2+3 H8+7 H8+7", "b3e3 b10c8 b1c3 h10g8"),
    ("Left Elephant v Central Cannon", "E7+5 C2=5", "c1e3 b8e8"),
    ("Elephant v Soldier", "E7+5 P3+1", "c1e3 c7c6"),
    ("Elephant v Horse", "E7+5 H8+7", "c1e3 h10g8"),
    ("Elephant v Horse, horses", "E7+5 H8+7 H2+3 H2+3", "c1e3 h10g8 h1g3 b10c8"),
    ("Elephant v Central Cannon", "E3+5 C8=5", "g1e3 h8e8"),
    ("Pawn Opening v Pawn", "P7+1 P7+1", "c4c5 g7g6"),
    ("Pawn Opening v Cannon under Pawn", "P7+1 C2=3", "c4c5 b8c8"),
    ("Pawn Opening v Elephant", "P7+1 E3+5", "c4c5 c10e8"),
    ("Pawn Opening v Central Cannon", "P7+1 C8=5", "c4c5 h8e8"),
    ("Right Pawn Opening v Pawn", "P3+1 P3+1", "g4g5 c7c6"),
    ("Horse Opening v Pawn", "H2+3 P7+1", "h1g3 g7g6"),
    ("Horse Opening v Horse", "H2+3 H8+7", "h1g3 h10g8"),
    ("Left Horse Opening v Central Cannon", "H8+7 C2=5", "b1c3 b8e8"),
    ("Cross Palace Cannon v Horse", "C2=6 H8+7", "h3d3 h10g8"),
    ("Palace Corner Cannon v Horse", "C2=4 H2+3", "h3f3 b10c8"),
    ("Advisor Opening v Central Cannon", "A4+5 C8=5", "f1e2 h8e8"),
]


def fen_after(hansu, moves):
    cmds = f"setoption name UCI_Variant value xiangqi\nposition startpos moves {moves}\nd\nquit\n"
    out = subprocess.run([hansu], input=cmds, capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        if line.startswith("info string"):
            sys.exit(f"make-openings: hansu refuses '{moves}': {line}")
    fens = [line[len("Fen: "):] for line in out.splitlines() if line.startswith("Fen: ")]
    if len(fens) != 1:
        sys.exit(f"make-openings: no FEN from hansu for '{moves}'")
    return fens[0]



def make_xiangqi(a):
    lines = ["# variant: xiangqi",
             "# Well-known xiangqi openings after 2-4 plies, written by scripts/make-openings.py",
             "# (each played from the start position by Hansu's rules core; do not edit by hand).",
             "# One FEN a line, as hansu-selfplay and hansu-match --openings read it."]
    for name, chinese, moves in OPENINGS:
        lines.append(f"# {name}: {chinese} ({moves})")
        lines.append(fen_after(a.hansu, moves))
    with open(a.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{a.out}: {len(OPENINGS)} openings")


# ---- janggi ----------------------------------------------------------------------------------

# The formations in the order of engine/janggi/formation.c, and the pieces each puts on points
# b, c, g, h counted from the player's own left (N horse, B elephant; docs/rules-janggi.md).
FORMATIONS = ["ma-sang-sang-ma", "sang-ma-sang-ma", "ma-sang-ma-sang", "sang-ma-ma-sang"]
LAYOUT = {"ma-sang-sang-ma": "NBBN", "sang-ma-sang-ma": "BNBN", "ma-sang-ma-sang": "NBNB",
          "sang-ma-ma-sang": "BNNB"}
PAIRINGS = len(FORMATIONS) ** 2
MATE = 20000  # |cp| at or above it: a decided game, never a candidate


def pairing_name(p):
    """Pairing p as hansu-match numbers and names it: Cho's formation p / 4, Han's p % 4."""
    return f"{FORMATIONS[p // 4]} vs {FORMATIONS[p % 4]}"


def pairing_fen(p):
    """The start of pairing p as the rules page lays it out (Han's own left is file i); the
    script hands it to Hansu, which writes the FEN that the file uses."""
    cho, han = LAYOUT[FORMATIONS[p // 4]], LAYOUT[FORMATIONS[p % 4]]
    cho_rank = f"R{cho[0]}{cho[1]}A1A{cho[2]}{cho[3]}R"
    han_rank = f"r{han[3]}{han[2]}a1a{han[1]}{han[0]}r".lower()
    return f"{han_rank}/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/{cho_rank} w - - 0 1"


def fen_key(fen):
    """A position without its move counters: what deduplication compares."""
    return " ".join(fen.split()[:4])


def general_square(fen):
    """The square of the side to move's general, in UCI (the pass is that square twice)."""
    board, side = fen.split()[:2]
    want = "K" if side == "w" else "k"
    for row, text in enumerate(board.split("/")):
        file = 0
        for c in text:
            if c.isdigit():
                file += int(c)
                continue
            if c == want:
                return f"{'abcdefghi'[file]}{10 - row}"
            file += 1
    raise ValueError(f"no general of the side to move in '{fen}'")


def is_pass(move):
    return len(move) >= 4 and move[:len(move) // 2] == move[len(move) // 2:]


class Uci:
    """One UCI engine on pipes, spoken to one command at a time."""

    def __init__(self, cmd, options):
        try:
            self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, text=True, bufsize=1)
        except OSError as e:
            sys.exit(f"make-openings: cannot start {cmd[0]}: {e.strerror}")
        self.name = os.path.basename(cmd[0])
        self.send("uci")
        self.until(lambda l: l == "uciok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        errors = [l for l in self.sync() if "error" in l or "No such option" in l]
        if errors:
            sys.exit(f"make-openings: {self.name} refuses its options: {errors[0]}")

    def send(self, text):
        self.p.stdin.write(text + "\n")

    def until(self, done):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"make-openings: {self.name} stopped answering")
            line = line.strip()
            lines.append(line)
            if done(line):
                return lines

    def sync(self):
        """Everything the engine said until it is ready again."""
        self.send("isready")
        return self.until(lambda l: l == "readyok")[:-1]

    def search(self, fen, limit):
        """The info lines and the bestmove line of `go LIMIT` on fen, from a cleared table."""
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send(f"go {limit}")
        return self.until(lambda l: l.startswith("bestmove"))

    def cpu_seconds(self):
        with open(f"/proc/{self.p.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self):
        self.send("quit")
        self.p.stdin.close()
        self.p.wait()


def parse_score(words):
    """The centipawns after `score` in an info line; a mate as +-(MATE + 100 - moves)."""
    i = words.index("score")
    kind, value = words[i + 1], int(words[i + 2])
    if kind == "mate":
        return MATE + 100 - abs(value) if value > 0 else -(MATE + 100 - abs(value))
    return value


class Book:
    """The engines, the cache of everything they answered (one JSON line each, so that a
    killed run resumes where it stopped) and the walks of one janggi book."""

    def __init__(self, a):
        self.a = a
        self.hansu = Uci([a.hansu], [("Hash", 16)])
        self.fsf = None
        if a.candidates == "fsf":
            self.fsf = Uci([a.fsf], [("UCI_Variant", "janggicasual"), ("Threads", 1),
                                    ("Hash", 16), ("MultiPV", a.multipv)])
        self.cache = {}
        if a.cache and os.path.exists(a.cache):
            with open(a.cache) as f:
                for line in f:
                    try:
                        k, v = json.loads(line)
                    except ValueError:
                        continue  # a line cut short by a killed run
                    self.cache[k] = v
        self.cache_file = open(a.cache, "a") if a.cache else None
        self.searches = 0

    def cached(self, key, compute):
        if key not in self.cache:
            self.cache[key] = compute()
            if self.cache_file:
                self.cache_file.write(json.dumps([key, self.cache[key]]) + "\n")
                self.cache_file.flush()
        return self.cache[key]

    def play(self, fen, moves):
        """Hansu's FEN after moves from fen, or the error it answers."""
        def compute():
            self.hansu.send(f"position fen {fen}" + (f" moves {' '.join(moves)}" if moves else ""))
            self.hansu.send("d")
            out = self.hansu.sync()
            errors = [l for l in out if l.startswith("info string")]
            if errors:
                return {"error": errors[0]}
            return {"fen": [l[len("Fen: "):] for l in out if l.startswith("Fen: ")][-1]}
        return self.cached(f"play|{fen}|{' '.join(moves)}", compute)

    def in_check(self, fen):
        """Hansu's word: a side in check may not pass."""
        got = self.play(fen, [general_square(fen) * 2])
        return "error" in got and "in check" in got["error"]

    def legal_moves(self, fen):
        def compute():
            self.hansu.send(f"position fen {fen}")
            self.hansu.send("go perft 1")
            out = self.hansu.until(lambda l: l.startswith("Nodes searched"))
            return [l.split(":")[0] for l in out if l.endswith(": 1")]
        return self.cached(f"moves|{fen}", compute)

    def hansu_score(self, fen, depth):
        """Hansu's score (cp, side to move) at depth, None when the game is over."""
        def compute():
            self.searches += 1
            out = self.hansu.search(fen, f"depth {depth}")
            infos = [l.split() for l in out if l.startswith("info depth")]
            return parse_score(infos[-1]) if infos else None
        return self.cached(f"hansu|{depth}|{fen}", compute)

    def fsf_lines(self, fen):
        """Fairy-Stockfish's MultiPV at --fsf-depth: [move, cp] best first."""
        def compute():
            self.searches += 1
            out = self.fsf.search(fen, f"depth {self.a.fsf_depth}")
            best = {}
            for l in out:
                w = l.split()
                if l.startswith("info depth") and "multipv" in w and "pv" in w and \
                        int(w[2]) == self.a.fsf_depth:
                    best[int(w[w.index("multipv") + 1])] = [w[w.index("pv") + 1], parse_score(w)]
            return [best[k] for k in sorted(best)]
        return self.cached(f"fsf|{self.a.fsf_depth}|{self.a.multipv}|{fen}", compute)

    def candidates(self, fen):
        if self.fsf is None:
            return [m for m in self.legal_moves(fen) if not is_pass(m)]
        lines = self.fsf_lines(fen)
        if not lines:
            return []
        top = lines[0][1]
        return [m for m, s in lines if s >= top - self.a.fsf_margin and abs(s) < MATE
                and not is_pass(m)]

    def step(self, fen, rng):
        """A move within --margin of Hansu's best from fen, chosen at random among the
        candidates: (move, child FEN, its score for the mover) or None."""
        cands = self.candidates(fen)
        order = rng.sample(cands, len(cands))
        parent = self.hansu_score(fen, self.a.depth)
        if parent is None or abs(parent) >= MATE:
            return None
        for m in order:
            got = self.play(fen, [m])
            if "error" in got:
                sys.exit(f"make-openings: hansu refuses {m} in '{fen}': {got['error']}")
            child = self.hansu_score(got["fen"], self.a.depth)
            if child is not None and -child >= parent - self.a.margin and abs(child) < MATE:
                return m, got["fen"], -child
        return None

    def walk(self, root, rng):
        plies = rng.randint(self.a.min_plies, self.a.max_plies)
        fen, moves = root, []
        for _ in range(plies):
            got = self.step(fen, rng)
            if got is None:
                return None
            moves.append(got[0])
            fen = got[1]
        return moves, fen

    def judge(self, fen):
        """The end position's scores (Hansu at --check-depth, Fairy-Stockfish at --fsf-depth,
        cp from Cho's side) when it is balanced and not in check, else None."""
        if self.in_check(fen):
            return None
        sign = 1 if fen.split()[1] == "w" else -1
        deep = self.hansu_score(fen, self.a.check_depth)
        if deep is None or abs(deep) > self.a.balance:
            return None
        fsf = None
        if self.fsf is not None:
            lines = self.fsf_lines(fen)
            if not lines or abs(lines[0][1]) > self.a.fsf_balance:
                return None
            fsf = sign * lines[0][1]
        return sign * deep, fsf

    def cpu_seconds(self):
        engines = sum(e.cpu_seconds() for e in (self.hansu, self.fsf) if e)
        t = os.times()
        return engines + t.user + t.system

    def close(self):
        for e in (self.hansu, self.fsf):
            if e:
                e.close()
        if self.cache_file:
            self.cache_file.close()


def janggi_command(a):
    """The command that makes the book again (paths left at their defaults)."""
    cmd = (f"scripts/make-openings.py --variant janggi --seed {a.seed} "
           f"--per-pairing {a.per_pairing} --plies {a.min_plies}-{a.max_plies} "
           f"--depth {a.depth} --check-depth {a.check_depth} --margin {a.margin} "
           f"--balance {a.balance} --max-walks {a.max_walks} --candidates {a.candidates}")
    if a.candidates == "fsf":
        cmd += (f" --fsf-depth {a.fsf_depth} --multipv {a.multipv} "
                f"--fsf-margin {a.fsf_margin} --fsf-balance {a.fsf_balance}")
    return cmd


def janggi_header(a, per, total):
    cands = (f"among Fairy-Stockfish 11.1's (janggicasual) MultiPV {a.multipv} at depth "
             f"{a.fsf_depth} within {a.fsf_margin} cp of its best, " if a.candidates == "fsf"
             else "among all legal moves (no pass), ")
    fsf = (f" and |Fairy-Stockfish depth {a.fsf_depth}| <= {a.fsf_balance} cp"
           if a.candidates == "fsf" else "")
    text = (f"Balanced janggi openings: {per} lines of {a.min_plies}-{a.max_plies} plies from each "
            f"of the 16 formation pairings, {total} in all, written by scripts/make-openings.py "
            f"(docs/openings.md; do not edit by hand). Random walks from each pairing's start "
            f"(seed {a.seed}); each move chosen at random {cands}and kept only within {a.margin} cp "
            f"of Hansu's best at depth {a.depth} (the child searched at depth {a.depth}, "
            f"negated); each end position new (FEN without move counters), not in check, "
            f"|Hansu depth {a.check_depth}| <= {a.balance} cp{fsf}. Every FEN is Hansu's own, each "
            f"line replayed from its pairing's start through Hansu's rules core. FEN i belongs "
            f"to pairing i mod 16 (Cho's formation vs Han's, as hansu-match numbers them); its "
            f"comment names the pairing, the moves and the end scores (cp, from Cho's side).")
    out, line = [], ""
    for word in text.split():
        if len(line) + len(word) + 1 > 96:
            out.append("# " + line)
            line = word
        else:
            line = f"{line} {word}".strip()
    out.append("# " + line)
    return ["# variant: janggi"] + out + [f"# Made by: {janggi_command(a)}"]


def make_janggi(a):
    book = Book(a)
    started = time.time()
    roots = []
    for p in range(PAIRINGS):
        got = book.play(pairing_fen(p), [])
        if "error" in got:
            sys.exit(f"make-openings: hansu refuses the start of {pairing_name(p)}: {got['error']}")
        roots.append(got["fen"])
    seen, kept = set(), []
    for p in range(PAIRINGS):
        rng = random.Random(f"{a.seed}/{p}")
        lines, walks = [], 0
        while len(lines) < a.per_pairing and walks < a.max_walks:
            walks += 1
            got = book.walk(roots[p], rng)
            if got is None or fen_key(got[1]) in seen:
                continue
            scores = book.judge(got[1])
            if scores is None:
                continue
            seen.add(fen_key(got[1]))
            lines.append((got[0], got[1], scores))
        kept.append(lines)
        print(f"make-openings: {pairing_name(p)}: {len(lines)} lines from {walks} walks; "
              f"{book.cpu_seconds():.0f} CPU s, {time.time() - started:.0f} s, "
              f"{book.searches} new searches", file=sys.stderr, flush=True)
    per = min(len(lines) for lines in kept)
    if per == 0:
        sys.exit("make-openings: a pairing has no line that passes; raise --max-walks or "
                 "the margins")
    out = janggi_header(a, per, per * PAIRINGS)
    for i in range(per):
        for p in range(PAIRINGS):
            moves, fen, (deep, fsf) = kept[p][i]
            replay = book.play(roots[p], moves)
            if replay.get("fen") != fen:
                sys.exit(f"make-openings: the line {' '.join(moves)} of {pairing_name(p)} "
                         f"does not replay: {replay}")
            score = f"hansu d{a.check_depth} {deep:+d}"
            if fsf is not None:
                score += f", fsf d{a.fsf_depth} {fsf:+d}"
            out.append(f"# {pairing_name(p)}: {' '.join(moves)} ({score})")
            out.append(fen)
    cpu = book.cpu_seconds()
    book.close()
    with open(a.out, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"{a.out}: {per * PAIRINGS} openings, {per} per pairing; {cpu:.0f} CPU s in this run")


def positive(text):
    v = int(text)
    if v <= 0:
        raise argparse.ArgumentTypeError(f"'{text}' is not a positive number")
    return v


def plies_range(text):
    lo, _, hi = text.partition("-")
    if not lo.isdigit() or not (hi or lo).isdigit() or not 1 <= int(lo) <= int(hi or lo) <= 40:
        raise argparse.ArgumentTypeError(f"'{text}' is not a range like 2-8 within 1-40")
    return int(lo), int(hi or lo)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", choices=["xiangqi", "janggi"], default="xiangqi")
    ap.add_argument("--hansu", default="build/engine/hansu")
    ap.add_argument("-o", "--out", help="default data/openings-VARIANT.fen")
    j = ap.add_argument_group("janggi")
    j.add_argument("--seed", type=int, default=2025)
    j.add_argument("--per-pairing", type=positive, default=32, help="lines wanted per pairing")
    j.add_argument("--plies", type=plies_range, default=(2, 8), help="line lengths, e.g. 2-8")
    j.add_argument("--depth", type=positive, default=10, help="Hansu's depth for each move")
    j.add_argument("--check-depth", type=positive, default=12, help="its depth for the end")
    j.add_argument("--margin", type=positive, default=35, help="cp a move may lose to the best")
    j.add_argument("--balance", type=positive, default=60, help="|cp| allowed at the end")
    j.add_argument("--max-walks", type=positive, default=120, help="walks tried per pairing")
    j.add_argument("--candidates", choices=["fsf", "hansu"], default="fsf")
    j.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    j.add_argument("--fsf-depth", type=positive, default=8)
    j.add_argument("--multipv", type=positive, default=5)
    j.add_argument("--fsf-margin", type=positive, default=40)
    j.add_argument("--fsf-balance", type=positive, default=150)
    j.add_argument("--cache", help="JSON lines of every engine answer, read back to resume "
                   "(default build/make-openings-janggi.cache; 'none' for none)")
    a = ap.parse_args()
    a.min_plies, a.max_plies = a.plies
    if a.variant == "xiangqi":
        a.out = a.out or "data/openings-xiangqi.fen"
        make_xiangqi(a)
        return
    a.out = a.out or "data/openings-janggi.fen"
    a.cache = None if a.cache == "none" else a.cache or "build/make-openings-janggi.cache"
    if not os.access(a.hansu, os.X_OK):
        sys.exit(f"make-openings: no hansu at {a.hansu} (build it, or give --hansu)")
    if a.candidates == "fsf" and not os.access(a.fsf, os.X_OK):
        sys.exit(f"make-openings: no Fairy-Stockfish at {a.fsf} (give --fsf, or "
                 "--candidates hansu)")
    make_janggi(a)


if __name__ == "__main__":
    main()
