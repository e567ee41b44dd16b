#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Hansu in a real GUI: Debian's XBoard 4.9.1 under Xvfb plays one xiangqi game (Fairy-Stockfish
# Red against Hansu) and one janggi game (Hansu Cho against Fairy-Stockfish, janggi defined for
# XBoard by Hansu's `setup` and `piece` commands, the first engine's), both engines over CECP, to
# the game's end. Checks: the saved PGN has a result and the variant's tags (janggi's VariantMen
# is the pieces Hansu defined), every move the engines sent (from XBoard's debug
# log, passes included) is legal when replayed through Hansu's UCI front end, and the PGN holds
# as many moves. Then XBoard in analysis mode with Hansu, each variant and a xiangqi position
# XBoard loads (and sends in its FEN letters): thinking lines arrive, their PV is legal, no error. Skipped (77) without xboard, Xvfb or fairy-stockfish. No time is asserted: the
# games run at 10 s + 0.1 s a side; a guard only ends a hung XBoard.
# Usage: test_xboard_gui.py HANSU WORKDIR [--screenshots DIR]  (DIR gets xboard-<variant>.png)
import os
import re
import shutil
import subprocess
import sys
import time

XBOARD = "/usr/games/xboard"
FSF = "/usr/games/fairy-stockfish"
# ImageMagick's own convert (another earlier on PATH may be no ImageMagick).
CONVERT = "/usr/bin/convert" if os.path.exists("/usr/bin/convert") else "convert"
GUARD_S = 600  # a game; analysis shows its first lines within seconds: ANALYSIS_GUARD_S
ANALYSIS_GUARD_S = 120
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def start_xvfb():
    """An Xvfb on a free display; returns (process, ':N')."""
    r, w = os.pipe()
    p = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", "1024x768x24", "-nolisten",
                          "tcp"], pass_fds=[w], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(w)
    with os.fdopen(r) as f:
        display = f.readline().strip()
    return p, ":" + display


def screenshot(display, path):
    """The screen as a small PNG (xwd piped to ImageMagick's convert): cropped to the window,
    scaled to 60 %, 32 colours."""
    xwd = subprocess.run(["xwd", "-root", "-silent", "-display", display], capture_output=True)
    if xwd.returncode != 0 or not xwd.stdout:
        return False
    png = subprocess.run([CONVERT, "xwd:-", "-trim", "+repage", "-resize", "60%", "-colors", "32",
                          "-strip", "png:" + path],
                         input=xwd.stdout, capture_output=True)
    return png.returncode == 0


def play(variant, first, second, work, display, shot):
    """Runs one XBoard game; returns (pgn text, engine moves in order)."""
    d = os.path.join(work, variant)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    pgn, debug = os.path.join(d, "game.pgn"), os.path.join(d, "debug.txt")
    args = [XBOARD, "-variant", variant, "-fcp", first, "-scp", second, "-fd", d, "-sd", d,
            "-mg", "1", "-tc", "0:10", "-inc", "0.1", "-saveGameFile", pgn, "-debug",
            "-nameOfDebugFile", debug, "-popupExitMessage", "false", "-autoCallFlag", "true",
            "-size", "medium"]
    if variant == "janggi":
        # XBoard 4.9.1 cannot judge janggi's ends (bikjang, points, the pass), and its idea of the
        # moves is a superset: the engines' claims stand and they judge the moves (docs/xboard.md).
        args += ["-testClaims", "false", "-testLegality", "false"]
    env = dict(os.environ, DISPLAY=display)
    xb = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    start, last_shot, saved = time.monotonic(), 0.0, None
    while xb.poll() is None:
        # The game is saved at its end; an XBoard that then lingers is ended.
        if saved is None and os.path.exists(pgn) and os.path.getsize(pgn) > 0:
            saved = time.monotonic()
        if saved is not None and time.monotonic() - saved > 30:
            stop(xb)
            break
        if time.monotonic() - start > GUARD_S:
            stop(xb)
            check(False, "%s: XBoard still running after %d s" % (variant, GUARD_S))
            break
        # The latest screen while the game runs: the last one shows the game near its end.
        if shot and time.monotonic() - last_shot > 2 and os.path.exists(debug):
            if screenshot(display, shot + ".tmp"):
                os.replace(shot + ".tmp", shot)
            last_shot = time.monotonic()
        time.sleep(0.2)
    text = open(pgn).read() if os.path.exists(pgn) else ""
    moves = []
    for line in open(debug, errors="replace") if os.path.exists(debug) else []:
        m = re.match(r"^\d+ <(first|second)\s*: move (\S+)$", line.strip())
        if m:
            moves.append(m.group(2))
    return text, moves


def hansu_pieces(hansu):
    """The pieces Hansu defines for janggi, as XBoard's VariantMen writes them: {'N:nN', ...}."""
    out = subprocess.run([hansu], input="xboard\nprotover 2\nvariant janggi\nquit\n",
                         capture_output=True, text=True, timeout=60).stdout
    return {"%s:%s" % (m.group(1), m.group(2))
            for m in re.finditer(r"^piece (\w)& (\S+)$", out, re.M)}


def stop(xb):
    """Ends XBoard: asked first (it then tells its engines to quit), killed if it lingers."""
    xb.terminate()
    try:
        xb.wait(timeout=20)
    except subprocess.TimeoutExpired:
        xb.kill()
        xb.wait()


def analyze(hansu, variant, work, display, fen=None):
    """XBoard started in analysis mode with Hansu, from the start or from fen (a position file
    XBoard loads and sends with setboard): the thinking lines Hansu sent (until it has sent a
    few, then XBoard is closed), the error lines it sent and the setboard lines it was sent."""
    d = os.path.join(work, "analyze-" + variant + ("-fen" if fen else ""))
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    debug = os.path.join(d, "debug.txt")
    args = [XBOARD, "-variant", variant, "-fcp", hansu, "-fd", d, "-initialMode", "Analysis",
            "-debug", "-nameOfDebugFile", debug, "-popupExitMessage", "false"]
    if fen:
        with open(os.path.join(d, "position.fen"), "w") as f:
            f.write(fen + "\n")
        args += ["-lpf", os.path.join(d, "position.fen"), "-lpi", "1"]
    xb = subprocess.Popen(args, env=dict(os.environ, DISPLAY=display), stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
    start, lines = time.monotonic(), []
    while xb.poll() is None and time.monotonic() - start < ANALYSIS_GUARD_S and len(lines) < 4:
        time.sleep(0.5)
        text = open(debug, errors="replace").read() if os.path.exists(debug) else ""
        lines = re.findall(r"^\d+ <first : (\d+ -?\d+ \d+ \d+ .*)$", text, re.M)
    stop(xb)
    text = open(debug, errors="replace").read() if os.path.exists(debug) else ""
    errors = re.findall(r"^\d+ <first : ((?:Error|Illegal move|tellusererror).*)$", text, re.M)
    setboards = re.findall(r"^\d+ >first : setboard (.*)$", text, re.M)
    return lines, errors, setboards


def to_uci(move):
    if move in ("@@@@", "pass", "0000"):
        return "0000"
    return "%s%d%s%d" % (move[0], int(move[1]) + 1, move[2], int(move[3]) + 1)


def replay_ok(hansu, variant, moves, fen=None):
    """Whether Hansu's UCI front end takes every move from the start (or fen) (no error)."""
    cmds = "setoption name UCI_Variant value %s\nposition %s moves %s\nisready\nquit\n" % (
        variant, "fen " + fen if fen else "startpos", " ".join(to_uci(m) for m in moves))
    out = subprocess.run([hansu], input=cmds, capture_output=True, text=True, timeout=60).stdout
    return "readyok" in out and "error" not in out, out


def pgn_plies(text):
    body = re.sub(r"\{[^}]*\}", " ", text.split("\n\n", 1)[-1])
    toks = [t for t in body.split() if not re.match(r"^\d+\.+$", t)]
    return [t for t in toks if t not in ("1-0", "0-1", "1/2-1/2", "*")]


def main():
    if len(sys.argv) not in (3, 5):
        print("usage: test_xboard_gui.py HANSU WORKDIR [--screenshots DIR]")
        return 2
    hansu, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    shots = os.path.abspath(sys.argv[4]) if len(sys.argv) == 5 else None
    for tool in (XBOARD, FSF, shutil.which("Xvfb")):
        if not tool or not os.path.exists(tool):
            print("skipped: needs xboard, Xvfb and fairy-stockfish (scripts/setup.sh)")
            return 77
    os.makedirs(work, exist_ok=True)
    xvfb, display = start_xvfb()
    try:
        games = [("xiangqi", FSF, hansu, "fairy-stockfish", "Hansu"),
                 ("janggi", hansu, FSF, "Hansu", "fairy-stockfish")]
        for variant, first, second, white, black in games:
            shot = os.path.join(shots, "xboard-%s.png" % variant) if shots else None
            text, moves = play(variant, first, second, work, display, shot)
            result = re.search(r'^\[Result "([^"]*)"\]', text, re.M)
            check(result is not None and result.group(1) in ("1-0", "0-1", "1/2-1/2"),
                  "%s: the PGN has a result, got %r" % (variant, result and result.group(1)))
            check(re.search(r'^\[Variant "%s"\]' % variant, text, re.M) is not None,
                  "%s: Variant tag" % variant)
            check(white in text and black in text, "%s: both engines named" % variant)
            if variant == "janggi":
                men = re.search(r'^\[VariantMen "([^"]*)"\]', text, re.M)
                want = hansu_pieces(hansu)
                check(men is not None and set(men.group(1).split(";")) == want,
                      "janggi: VariantMen %r is Hansu's pieces %r" % (men and men.group(1), want))
            ok, out = replay_ok(hansu, variant, moves)
            check(len(moves) >= 10 and ok, "%s: %d moves, all legal%s" % (
                variant, len(moves), "" if ok else ": " + out[-300:]))
            # All the moves, or all but a last one that came as the flag fell.
            plies, on_time = len(pgn_plies(text)), "on time}" in text
            check(plies == len(moves) or (on_time and plies == len(moves) - 1),
                  "%s: the PGN holds the %d moves, it has %d" % (variant, len(moves), plies))
            print("%s: %s, %d plies, %s" % (variant, result and result.group(1), len(moves),
                                           "screenshot " + shot if shot else "no screenshot"))
        # Analysis in the GUI: thinking lines whose PVs are legal, no error; also from a xiangqi
        # position XBoard loads and sends in its own FEN letters (H horse, E elephant, "b 0 1").
        fen = "rheakaehr/9/1c5c1/p1p1p1p1p/9/2P6/P3P1P1P/1C5C1/9/RHEAKAEHR b - - 0 1"
        for variant, start in (("xiangqi", None), ("janggi", None), ("xiangqi", fen)):
            lines, errors, setboards = analyze(hansu, variant, work, display, start)
            what = "%s analysis%s" % (variant, " from a loaded FEN" if start else "")
            check(len(lines) >= 4 and not errors,
                  "%s: %d thinking lines, errors %r" % (what, len(lines), errors))
            if start:
                check(len(setboards) == 1, "%s: XBoard sent setboard, got %r" % (what, setboards))
            if lines:
                ok, out = replay_ok(hansu, variant, lines[-1].split()[4:],
                                    setboards[-1] if start and setboards else None)
                check(ok, "%s: the PV %r is legal" % (what, lines[-1]))
            print("%s: %d lines, last %s; setboard %s" % (what, len(lines), lines and lines[-1],
                                                        setboards))
    finally:
        xvfb.terminate()
        xvfb.wait()
    if failures:
        print("%d failures" % len(failures))
        return 1
    print("XBoard played both games to their end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
