#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""hansu-selfplay gib (issue 41, item 3): the sample records of tests/data/gib import to the
golden PGN tests/data/gib/samples.pgn (UTF-8 and CP949, Hangul and Hanja moves, two records in
one file, a pass, a result the file does not state); a folder with malformed files (a bad
header, a square off the board, an illegal move, a truncated file, binary garbage) imports its
good files, refuses each bad record naming its number, file and line (and binary garbage as a
file), and exits 1; --store writes the games with a winner as a store file that `verify`
replays; --openings writes the position after --opening-plies plies of each longer game (the FEN
`hansu` gives after the PGN's moves), a file self-play starts its games from; a command line
without an output is refused. A record that goes on after the rules end the game (the 200-ply
limit of tests/data/gib/long-game.gib, two passes in a row) gives the game up to that end in the
PGN and the store alike, with the rules' result and a warning naming the record, the ply and
the moves dropped, and `hansu` takes the PGN's moves; a file of many records over 4 MiB imports
whole; a malformed record among good ones refuses itself only (exit 1); a folder without a .gib
file is refused as a missing file is.

Usage: test_gib.py HANSU_SELFPLAY HANSU WORK_DIR"""
import os
import re
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(REPO, "tests", "data", "gib")
SAMPLES = ["short-game.gib", "two-records-cp949.gib"]


def check(cond, msg):
    if not cond:
        print("FAIL: " + msg, file=sys.stderr)
        sys.exit(1)


def run(args, cwd=None):
    p = subprocess.run([SELFPLAY, "gib"] + args, cwd=cwd, capture_output=True, text=True,
                       timeout=60)
    return p.returncode, p.stdout, p.stderr


def golden_samples(work):
    out = os.path.join(work, "samples.pgn")
    rc, _, err = run(["--pgn", out] + SAMPLES, cwd=DATA)
    check(rc == 0, f"samples: rc {rc}: {err}")
    check("imported 3 games (26 plies) from 2 files; 0 files refused" in err, err)
    with open(out, encoding="utf-8") as f, open(os.path.join(DATA, "samples.pgn"),
                                                encoding="utf-8") as g:
        got, want = f.read(), g.read()
    check(got == want, "samples: PGN differs from tests/data/gib/samples.pgn")
    return want


BAD = {
    # name: (bytes, the words its refusal names)
    "bad-header.gib": ('[초차림 "마마상상"]\n[한차림 "마상상마"]\n\n1. 79졸78\n'.encode(),
                       "bad-header.gib:1: unknown formation '마마상상'"),
    "off-board.gib": ('[초차림 "마상상마"]\n[한차림 "마상상마"]\n\n1. 79졸78 2. 40병42\n'.encode(),
                      "off-board.gib:4: move 2 '40병42': a square off the board"),
    "illegal.gib": ('[초차림 "마상상마"]\n[한차림 "마상상마"]\n\n1. 79졸78 2. 41병31\n'.encode(),
                    "illegal.gib:4: move 2 '41병31': move 'a7a8': not legal"),
    "truncated.gib": (None, "truncated.gib:10: [총수 \"18\"] but the record has 9 moves"),
    "garbage.gib": (bytes(range(256)) * 4, "garbage.gib:1: binary data (byte 0x00)"),
}


def folder(work, golden):
    d = os.path.join(work, "records")
    os.makedirs(d)
    for s in SAMPLES:
        shutil.copy(os.path.join(DATA, s), d)
    with open(os.path.join(DATA, "short-game.gib"), "rb") as f:
        whole = f.read()
    for name, (data, _) in BAD.items():
        if data is None:  # the short game cut after its 9th move
            data = whole[:whole.index("10. ".encode())]
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
    with open(os.path.join(d, "notes.txt"), "w") as f:
        f.write("not a record: a folder gives its *.gib files only\n")
    pgn, h5 = os.path.join(work, "folder.pgn"), os.path.join(work, "folder.h5")
    rc, _, err = run(["--pgn", pgn, "--store", h5, d])
    check(rc == 1, f"folder: rc {rc}, expected 1 for the refused files: {err}")
    for name, (_, words) in BAD.items():
        # A record refused names its number; a file that is no .gib text is refused whole.
        whole = "refused" if name == "garbage.gib" else "refused record 1 of"
        line = [l for l in err.splitlines() if f"{whole} {d}/{name}" in l]
        check(len(line) == 1 and words in line[0], f"folder: {name}: {words!r} not in {err}")
    check("imported 3 games (26 plies) from 6 files; 1 files refused, 4 records refused; 2 games "
          "stored, 1 not" in err, err)
    check(re.search(r"two-records-cp949.gib:12: not stored: no winner stated", err), err)
    # The good files' games are the golden ones, their source named by the folder's path.
    with open(pgn, encoding="utf-8") as f:
        text = f.read()
    check(text == golden.replace('[GibSource "', f'[GibSource "{d}/'),
          "folder: PGN differs from the samples' golden PGN")
    v = subprocess.run([SELFPLAY, "verify", h5], capture_output=True, text=True, timeout=60)
    check(v.returncode == 0 and "2 games, 22 positions, all replayed exactly" in v.stdout,
          f"verify of the store: {v.stdout} {v.stderr}")


def pgn_games(text):
    """(FEN, [UCI moves]) of each game of a PGN text Hansu wrote."""
    games = []
    for block in re.split(r"\n\n(?=\[)", text.strip()):
        head, _, body = block.partition("\n\n")
        fen = re.search(r'^\[FEN "([^"]*)"\]$', head, re.M).group(1)
        games.append((fen, re.findall(r"\b[a-i]\d+[a-i]\d+\b", body)))
    return games


def hansu_fen(fen, moves):
    """The FEN Hansu's own rules core gives after moves from fen (UCI `d`)."""
    cmds = f"position fen {fen} moves {' '.join(moves)}\nd\nquit\n"
    out = subprocess.run([HANSU], input=cmds, capture_output=True, text=True, timeout=30).stdout
    return re.search(r"^Fen: (.*)$", out, re.M).group(1)


def openings(work, golden):
    out = os.path.join(work, "openings.fen")
    rc, _, err = run(["--openings", out, "--opening-plies", "4"] + SAMPLES, cwd=DATA)
    # Of the three games only the 18-ply one goes on past ply 4 (the others have 4 plies).
    check(rc == 0 and "; 1 openings" in err, f"openings: rc {rc}: {err}")
    with open(out, encoding="utf-8") as f:
        lines = f.read().splitlines()
    check(lines[0] == "# variant: janggi", f"openings: first line {lines[0]!r}")
    fens = [l for l in lines if not l.startswith("#")]
    fen, moves = pgn_games(golden)[0]
    check(fens == [hansu_fen(fen, moves[:4])], f"openings: {fens} is not the 4-ply position")
    check("# short-game.gib:1" in lines, "openings: the record is not named")
    # Self-play starts its game from the file, as from any openings file.
    run_dir = os.path.join(work, "run")
    p = subprocess.run([SELFPLAY, "--openings", out, "--games", "1", "--nodes", "10", "--threads",
                        "1", "--hash", "1", "--no-bench", "--out", run_dir],
                       capture_output=True, text=True, timeout=60)
    check(p.returncode == 0, f"self-play from the openings: {p.stderr}")
    p = subprocess.run([SELFPLAY, "export", "--pgn", "-", run_dir], capture_output=True,
                       text=True, timeout=60)
    check(f'[FEN "{fens[0]}"]' in p.stdout, "self-play's game does not start from the opening")
    # The same position reached twice is written once, under its first record.
    rc, _, err = run(["--openings", out, "--opening-plies", "4", SAMPLES[0], SAMPLES[0]],
                     cwd=DATA)
    check(rc == 0 and "; 1 openings" in err, f"openings twice: {err}")


def uci(commands):
    """hansu's answer to UCI commands."""
    return subprocess.run([HANSU], input=commands + "quit\n", capture_output=True, text=True,
                          timeout=30).stdout


def exported(h5):
    """The PGN tags Result and Termination of each game of a store file (hansu-selfplay export)."""
    p = subprocess.run([SELFPLAY, "export", "--pgn", "-", h5], capture_output=True, text=True,
                       timeout=60)
    check(p.returncode == 0, f"export {h5}: {p.stderr}")
    return re.findall(r'^\[(Result|Termination|PlyCount) "([^"]*)"\]$', p.stdout, re.M)


def game_end(work):
    """The game ends where the rules end it, in the PGN and the store alike."""
    # The 200-ply limit: 206 moves in the record, the game is its first 200, Cho ahead on points.
    pgn, h5 = os.path.join(work, "long.pgn"), os.path.join(work, "long.h5")
    rc, _, err = run(["--pgn", pgn, "--store", h5, "long-game.gib"], cwd=DATA)
    check(rc == 0, f"long game: rc {rc}: {err}")
    check("warning: long-game.gib:1: record 1: the game ended at ply 200 (move-limit); the 6 "
          "moves after it are dropped" in err and "imported 1 games (200 plies)" in err and
          "1 games ended by the rules before their record (6 moves dropped); 1 games stored"
          in err, f"long game: {err}")
    with open(pgn, encoding="utf-8") as f:
        text = f.read()
    tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', text, re.M))
    check((tags["Result"], tags["Termination"], tags["PlyCount"]) == ("1-0", "move-limit", "200"),
          f"long game: the PGN's end: {tags}")
    fen, moves = pgn_games(text)[0]
    out = uci(f"position fen {fen} moves {' '.join(moves)}\nd\n")
    check(len(moves) == 200 and "error" not in out and "Fen: " in out,
          f"long game: hansu refuses the PGN's {len(moves)} moves: {out}")
    check(exported(h5) == [("Result", "1-0"), ("Termination", "move-limit"), ("PlyCount", "200")],
          f"long game: the store's end: {exported(h5)}")
    # Two passes in a row at ply 3, two moves after them; the record says Cho won, the rules
    # (points, Han's bonus) give it to Han: both outputs say so, and a warning names it.
    path = os.path.join(work, "passes.gib")
    with open(path, "w", encoding="utf-8") as f:
        f.write('[초차림 "마상상마"]\n[한차림 "마상상마"]\n[대국결과 "초 완승"]\n\n'
                "1. 79졸78 2. 한수쉼 3. 한수쉼 4. 41병42 5. 78졸68\n")
    pgn, h5 = os.path.join(work, "passes.pgn"), os.path.join(work, "passes.h5")
    rc, _, err = run(["--pgn", pgn, "--store", h5, path])
    check(rc == 0 and f"{path}:1: record 1: the game ended at ply 3 (double-pass); the 2 moves "
          "after it are dropped" in err and f"{path}:1: record 1: it states '초 완승', but the "
          "rules give the game to Han (double-pass, points 72.0 to 73.5)" in err,
          f"passes: rc {rc}: {err}")
    with open(pgn, encoding="utf-8") as f:
        text = f.read()
    tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', text, re.M))
    check((tags["Result"], tags["Termination"], tags["PlyCount"]) == ("0-1", "double-pass", "3"),
          f"passes: the PGN's end: {tags}")
    check(exported(h5) == [("Result", "0-1"), ("Termination", "double-pass"), ("PlyCount", "3")],
          f"passes: the store's end: {exported(h5)}")


def records(work):
    """Files of many records: one over 4 MiB imports whole; a bad record refuses itself only;
    a folder without a .gib file is refused."""
    with open(os.path.join(DATA, "short-game.gib"), encoding="utf-8") as f:
        one = f.read()
    n = (4 << 20) // len(one.encode()) + 100
    big = os.path.join(work, "many.gib")
    with open(big, "w", encoding="utf-8") as f:
        f.write(("\n" + one) * n)
    check(os.path.getsize(big) > 4 << 20, "many.gib is not over 4 MiB")
    rc, _, err = run(["--openings", os.path.join(work, "many.fen"), big])
    check(rc == 0 and f"imported {n} games ({18 * n} plies) from 1 files" in err,
          f"many records: rc {rc}: {err[-300:]}")
    # The second of three records plays an illegal move: the first and the third import.
    mixed = os.path.join(work, "mixed.gib")
    bad = '[초차림 "마상상마"]\n[한차림 "마상상마"]\n\n1. 79졸78 2. 41병31\n'
    with open(mixed, "w", encoding="utf-8") as f:
        f.write(one + "\n" + bad + "\n" + one)
    rc, _, err = run(["--pgn", os.path.join(work, "mixed.pgn"), mixed])
    line = one.count("\n") + 2
    check(rc == 1 and f"refused record 2 of {mixed}: {mixed}:{line + 3}: move 2 '41병31'" in err
          and "imported 2 games (36 plies) from 1 files; 0 files refused, 1 records refused"
          in err, f"mixed: rc {rc}: {err}")
    with open(os.path.join(work, "mixed.pgn"), encoding="utf-8") as f:
        check(f.read().count("[Event ") == 2, "mixed: not two games in the PGN")
    empty = os.path.join(work, "empty")
    os.makedirs(empty)
    rc, _, err = run(["--pgn", os.path.join(work, "empty.pgn"), empty])
    check(rc == 1 and f"refused {empty}: a folder without a .gib file" in err,
          f"a folder without a .gib file: rc {rc}: {err}")


def command_line(work):
    rc, out, _ = run(["--help"])
    check(rc == 0 and "docs/gib.md" in out and "--store" in out, "--help")
    rc, _, err = run([os.path.join(DATA, SAMPLES[0])])
    check(rc == 2 and "--pgn OUT, --store OUT or --openings OUT is required" in err,
          f"no output: {rc} {err}")
    rc, _, err = run(["--pgn", "-", "--openings", "-", os.path.join(DATA, SAMPLES[0])])
    check(rc == 2 and "name the same file '-'" in err, f"one output twice: {rc} {err}")
    h5 = os.path.join(work, "none.h5")
    rc, _, err = run(["--store", h5, os.path.join(DATA, "two-records-cp949.gib"),
                      os.path.join(work, "missing.gib")])
    check(rc == 1 and "refused " + os.path.join(work, "missing.gib") in err, err)


def crlf(work, golden):
    """The samples with CR LF line ends (as Windows programs write them) import to the same PGN."""
    names = []
    for name in SAMPLES:
        with open(os.path.join(DATA, name), "rb") as f:
            data = f.read().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
        names.append("crlf-" + name)
        with open(os.path.join(work, names[-1]), "wb") as f:
            f.write(data)
    out = os.path.join(work, "crlf.pgn")
    rc, _, err = run(["--pgn", out] + names, cwd=work)
    check(rc == 0, f"crlf: rc {rc}: {err}")
    with open(out, encoding="utf-8") as f:
        got = f.read()
    check(got.replace("crlf-", "") == golden, "crlf: PGN differs from the LF samples'")


def main():
    global SELFPLAY, HANSU
    SELFPLAY, HANSU, work = sys.argv[1], sys.argv[2], sys.argv[3]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    golden = golden_samples(work)
    folder(work, golden)
    openings(work, golden)
    game_end(work)
    records(work)
    crlf(work, golden)
    command_line(work)
    print("all checks passed")


if __name__ == "__main__":
    main()
