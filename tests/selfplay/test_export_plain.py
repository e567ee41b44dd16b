#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""hansu-selfplay export --plain (issue 27, section 4): Fairy-Stockfish's `.plain` training
records, one per stored position. Three tiny runs (janggi from its formations; janggi from an
opening whose only legal move is a pass, so both sides pass; xiangqi, one game drawn) are
exported and every record is checked against the store, rebuilt here from the stored columns
alone: the FEN is the stored board with its side to move, a halfmove clock counted here and the
move number of the ply; the move is the stored move (a pass as the general's square twice);
score and ply are as stored; the result is the game's winner seen from the side to move. With
Fairy-Stockfish installed, every record is also fed to it as its converter reads one (`position
fen FEN moves MOVE`): it must take the move and reach the next record's FEN (janggi's halfmove
clock aside: see fen_fields). Then --games, both outputs in one pass, standard output, and
refusals (same file twice, a folder, a corrupt or foreign input, a sealed file whose stored
board is not the replay of its moves), none of which leaves a file or touches an existing one.

Usage: test_export_plain.py HANSU_SELFPLAY WORK_DIR [FAIRY_STOCKFISH]"""
import glob
import os
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "scripts"))
import board_decode  # noqa: E402
import hansu_shard  # noqa: E402

# Cho's general on e2 may go nowhere (chariots on d and f, a horse on g2 covering e1 and e3)
# and is not in check: its one legal move is the pass, and Han's best answer is a pass too.
PASS_FEN = "3r1r3/4k4/9/9/9/4p4/9/9/4K1n2/9 w - - 0 1"
START_FEN = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"
# Black's general in check may only take the soldier, which leaves no attacker: a draw
# (insufficient material) in one ply.
XIANGQI_DRAW_FEN = "3k5/3P5/9/9/9/9/9/9/9/4K4 b - - 0 1"
XIANGQI_START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
KEYS = ["fen", "move", "score", "ply", "result", "e"]


def check(cond, msg):
    if not cond:
        print("FAIL: " + msg, file=sys.stderr)
        sys.exit(1)


def run(argv, **kw):
    return subprocess.run(argv, capture_output=True, text=True, **kw)


def parse(text):
    """The records of a .plain text: dicts of the five fields, each record exactly the six
    lines fen, move, score, ply, result, e in that order."""
    lines = text.split("\n")
    check(lines[-1] == "", "the file does not end with a newline")
    lines = lines[:-1]
    check(len(lines) % 6 == 0, f"{len(lines)} lines, not records of 6")
    records = []
    for i in range(0, len(lines), 6):
        rec = {}
        for key, line in zip(KEYS, lines[i:i + 6]):
            check(line == "e" if key == "e" else line.startswith(key + " "),
                  f"line {i + KEYS.index(key) + 1}: {line!r}, want the {key!r} line")
            rec[key] = line[len(key) + 1:]
        records.append(rec)
    return records


def halfmove_clocks(boards, moves, variant, start):
    """The FEN halfmove clock of each position of a game, counted here: janggi restarts it at a
    capture or a soldier move, xiangqi (Fairy-Stockfish's convention) at a capture only."""
    clocks = [start]
    for i in range(len(boards) - 1):
        pieces = [sum(b != 255 for b in boards[k]) for k in (i, i + 1)]
        squares = board_decode.decode(boards[i])
        soldier = squares[int(moves[i]) & 127] & 7 == board_decode.SOLDIER
        reset = pieces[1] < pieces[0] or (variant == "janggi" and soldier)
        clocks.append(0 if reset else clocks[-1] + 1)
    return clocks


def expected(folder, ids=None):
    """The records the store holds for a run folder: files in name order, games by id within
    a file, positions in order; a dict per record as parse() gives, plus the game's id."""
    out = []
    for path in sorted(glob.glob(os.path.join(folder, "shard-*.h5"))):
        with hansu_shard.open_shard(path) as f:
            g = {k: v[:] for k, v in f["games"].items()}
            p = {k: v[:] for k, v in f["positions"].items()}
            a = hansu_shard.attrs(f)
        variant = a.get("variant", "janggi")
        openings = a.get("openings", "").split("\n") if a.get("openings") else []
        for n in sorted(range(len(g["game_id"])), key=lambda n: int(g["game_id"][n])):
            gid = int(g["game_id"][n])
            if ids is not None and gid not in ids:
                continue
            s, e = int(g["pos_start"][n]), int(g["pos_end"][n])
            start = int(openings[gid % len(openings)].split()[4]) if openings else 0
            clocks = halfmove_clocks(p["board"][s:e], p["move"][s:e], variant, start)
            winner = int(g["winner"][n])
            for i in range(s, e):
                stm = int(p["stm"][i])
                fen = board_decode.to_fen(p["board"][i], stm, int(p["ply"][i])).split()
                fen[4] = str(clocks[i - s])
                out.append({"fen": " ".join(fen),
                            "move": board_decode.move_to_uci(int(p["move"][i])),
                            "score": str(int(p["score"][i])),
                            "ply": str(int(p["ply"][i])),
                            "result": str(0 if winner == 2 else 1 if winner == stm else -1),
                            "e": "", "game": gid, "variant": variant})
    return out


def compare(got, want, what):
    check(len(got) == len(want), f"{what}: {len(got)} records, the store holds {len(want)}")
    for i, (r, w) in enumerate(zip(got, want)):
        for key in KEYS:
            check(r[key] == w[key], f"{what}: record {i} (game {w['game']}): {key} {r[key]!r}, "
                  f"the store says {w[key]!r}")


def general_square(fen):
    """The square (UCI text) of the general of the side to move of a FEN."""
    placement, side = fen.split()[:2]
    letter = "K" if side == "w" else "k"
    for row, text in enumerate(placement.split("/")):
        file = 0
        for c in text:
            if c.isdigit():
                file += int(c)
                continue
            if c == letter:
                return "abcdefghi"[file] + str(10 - row)
            file += 1
    return None


def fen_fields(fen, variant):
    """The fields of a FEN that Hansu and Fairy-Stockfish 11.1 write alike: all of them in
    xiangqi; in janggi all but the halfmove clock (Hansu restarts it at a soldier move too,
    Fairy-Stockfish only at a capture; no trainer reads it)."""
    fields = fen.split()
    return fields if variant == "xiangqi" else fields[:4] + fields[5:]


def fsf_check(fsf, records, what):
    """Every record through Fairy-Stockfish as its converter reads one: its FEN set up, its
    move parsed (UCI::to_move, the learner's parser too) and made; the FEN reached must be the
    next record's of the same game (fen_fields), or, after a game's last record, the other
    side's turn."""
    lines = ["uci"]
    for r in records:
        lines += [f"setoption name UCI_Variant value {r['variant']}",
                  f"position fen {r['fen']} moves {r['move']}", "d"]
    lines.append("quit")
    out = run([fsf], input="\n".join(lines) + "\n", timeout=120).stdout
    fens = [line[5:].strip() for line in out.splitlines() if line.startswith("Fen: ")]
    check(len(fens) == len(records), f"{what}: Fairy-Stockfish gave {len(fens)} FENs")
    for i, (r, reached) in enumerate(zip(records, fens)):
        nxt = records[i + 1] if i + 1 < len(records) else None
        if nxt and nxt["game"] == r["game"] and nxt["variant"] == r["variant"]:
            check(fen_fields(reached, r["variant"]) == fen_fields(nxt["fen"], r["variant"]),
                  f"{what}: record {i}: Fairy-Stockfish made {r['move']} from {r['fen']} to "
                  f"{reached}, the next record is {nxt['fen']}")
        else:
            check(reached.split()[1] != r["fen"].split()[1],
                  f"{what}: record {i}: Fairy-Stockfish did not take {r['move']} in {r['fen']}")


def tamper(src, dst):
    """A copy of shard src with one piece of game 1's ply 2 moved, its digest header made
    anew: a sound file by every check but the replay."""
    import h5py
    shutil.copy(src, dst)
    with h5py.File(dst, "r+") as f:
        ids = [int(i) for i in f["games/game_id"][:]]
        row = int(f["games/pos_start"][ids.index(1)]) + 2
        board = f["positions/board"][row]
        board[0] = board[0] + 1 if board[0] % 9 < 5 else board[0] - 1  # Cho's general
        f["positions/board"][row] = board
    data = open(dst, "rb").read()
    body = data[hansu_shard.USERBLOCK:]
    open(dst, "wb").write(hansu_shard.header(body) + body)
    return dst


def selfplay(sp, folder, *args):
    r = run([sp, "--nodes", "60", "--threads", "1", "--hash", "1", "--no-bench", "--progress",
             "1000", "--out", folder] + list(args))
    check(r.returncode == 0, f"self-play {args} failed: {r.stderr}")


def export(sp, *args):
    return run([sp, "export"] + list(args))


def main(argv):
    sp, work = argv[1], argv[2]
    fsf = argv[3] if len(argv) > 3 else "/usr/games/fairy-stockfish"
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    runs = {name: os.path.join(work, name) for name in ("janggi", "passes", "xiangqi")}
    openings = [os.path.join(work, n) for n in ("janggi.fen", "xiangqi.fen")]
    with open(openings[0], "w") as f:
        f.write(PASS_FEN + "\n" + START_FEN + "\n")
    with open(openings[1], "w") as f:
        f.write(XIANGQI_DRAW_FEN + "\n" + XIANGQI_START_FEN + "\n")
    selfplay(sp, runs["janggi"], "--games", "4", "--random-plies", "2")
    selfplay(sp, runs["passes"], "--games", "4", "--random-plies", "0", "--openings", openings[0])
    selfplay(sp, runs["xiangqi"], "--games", "2", "--random-plies", "2", "--variant", "xiangqi",
             "--openings", openings[1])

    # Every record of every run against the store, and through Fairy-Stockfish.
    got_all = []
    for name, folder in runs.items():
        out = os.path.join(work, name + ".plain")
        r = export(sp, "--plain", out, folder)
        check(r.returncode == 0, f"export --plain {name} failed: {r.stderr}")
        got, want = parse(open(out).read()), expected(folder)
        compare(got, want, name)
        got_all += [dict(r, game=w["game"], variant=w["variant"]) for r, w in zip(got, want)]
        passes = [r for r in got if r["move"][:len(r["move"]) // 2] * 2 == r["move"]]
        for r in passes:
            check(r["move"] == general_square(r["fen"]) * 2,
                  f"{name}: pass {r['move']} is not the general's square twice in {r['fen']}")
        if name == "passes":
            sides = {r["fen"].split()[1] for r in passes}
            check(sides == {"w", "b"}, f"passes: passes by {sides}, want both sides")
            check(any(abs(int(r["score"])) >= 30000 for r in got),
                  "passes: no decided-game score was written")
        if name == "xiangqi":
            check(not passes, f"xiangqi: a pass was written: {passes[:1]}")
            check(any(r["result"] == "0" for r in got), "xiangqi: no drawn game's record")
    if os.access(fsf, os.X_OK):
        fsf_check(fsf, got_all, "Fairy-Stockfish")
    else:
        print(f"(no Fairy-Stockfish at {fsf}: its check skipped)")

    # Several inputs: files in the order given; --games picks exactly the ids named.
    both = os.path.join(work, "both.plain")
    r = export(sp, "--plain", both, runs["passes"], runs["janggi"])
    check(r.returncode == 0, f"export of two folders failed: {r.stderr}")
    compare(parse(open(both).read()), expected(runs["passes"]) + expected(runs["janggi"]),
            "two folders")
    sel = os.path.join(work, "sel.plain")
    r = export(sp, "--plain", sel, runs["janggi"], "--games", "3,1")
    check(r.returncode == 0, f"export --games failed: {r.stderr}")
    compare(parse(open(sel).read()), expected(runs["janggi"], {1, 3}), "--games 3,1")

    # Both outputs in one pass are the files each writes alone; "-" is standard output.
    pgn_alone, pgn, plain = (os.path.join(work, n) for n in ("alone.pgn", "pair.pgn", "pair.plain"))
    r = export(sp, "--pgn", pgn_alone, runs["janggi"])
    check(r.returncode == 0, f"export --pgn failed: {r.stderr}")
    r = export(sp, "--pgn", pgn, "--plain", plain, runs["janggi"])
    check(r.returncode == 0 and "to " + pgn + " and " + plain in r.stderr,
          f"export --pgn --plain failed: {r.stderr}")
    check(open(pgn).read() == open(pgn_alone).read(), "--pgn beside --plain differs from alone")
    check(open(plain).read() == open(os.path.join(work, "janggi.plain")).read(),
          "--plain beside --pgn differs from alone")
    r = export(sp, "--plain", "-", runs["janggi"])
    check(r.returncode == 0 and r.stdout == open(plain).read(), "--plain - differs from a file")

    # Refusals, before any input is read; a failed export leaves no file and an existing
    # output as it was.
    kept = os.path.join(work, "kept.plain")
    with open(kept, "w") as f:
        f.write("old\n")
    corrupt = os.path.join(work, "corrupt.h5")
    data = bytearray(open(glob.glob(os.path.join(runs["janggi"], "shard-*.h5"))[0], "rb").read())
    data[len(data) // 2] ^= 0x10
    open(corrupt, "wb").write(data)
    foreign = os.path.join(work, "foreign.h5")
    open(foreign, "w").write("not a shard\n")
    tampered = tamper(glob.glob(os.path.join(runs["janggi"], "shard-*.h5"))[0],
                      os.path.join(work, "tampered.h5"))
    cases = [
        (["--pgn", kept, "--plain", kept, runs["janggi"]], 2,
         f"--pgn and --plain name the same file '{kept}'"),
        (["--pgn", "-", "--plain", "-", runs["janggi"]], 2,
         "--pgn and --plain name the same file '-'"),
        (["--plain", work, runs["janggi"]], 2, f"--plain {work}: a folder, not a file"),
        (["--plain", os.path.join(work, "no", "x.plain"), runs["janggi"]], 2,
         "cannot write into its folder"),
        (["--plain", kept, corrupt], 1, f"{corrupt}: corrupt"),
        (["--plain", kept, runs["janggi"], foreign], 1, foreign),
        (["--plain", kept, tampered], 1,
         f"{tampered}: game 1 ply 2: the stored position is not the replay"),
        (["--plain", kept, runs["janggi"], "--games", "2-9"], 1, "game 4 is not in the input"),
        ([runs["janggi"]], 2, "--pgn OUT or --plain OUT is required"),
    ]
    for args, rc, msg in cases:
        r = export(sp, *args)
        check(r.returncode == rc and msg in r.stderr,
              f"{args}: rc {r.returncode}, stderr {r.stderr!r}, want {rc} and {msg!r}")
        check(open(kept).read() == "old\n" and not os.path.exists(kept + ".tmp"),
              f"{args}: the existing output was touched or a temporary left")
    check(not os.path.exists(os.path.join(work, "no")), "a refused output made a folder")
    r = export(sp, "--plain", kept, runs["xiangqi"])
    check(r.returncode == 0 and open(kept).read() == open(os.path.join(work, "xiangqi.plain"))
          .read(), "an existing output is not replaced as --pgn replaces one")
    shutil.rmtree(work)
    print(f"export --plain: {len(got_all)} records of 3 runs match the store; passes, "
          "selection, both outputs and refusals checked")


if __name__ == "__main__":
    main(sys.argv)
