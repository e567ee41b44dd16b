#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""hansu-selfplay label (issue 55, item 3): games of PGN files stored as a run folder of the
HDF5 store, each selected position scored by Hansu's search at fixed nodes. Three games of the
committed Hansu-vs-Fairy-Stockfish match (docs/scaling-profile/tc-40+0.4.pgn.gz, read as .gz and
as plain text) are labelled at --nodes 1000: the files pass `verify`, open with
scripts/hansu_shard.py, train one epoch of `hansu-nnue`; the moves and results are the PGN's;
--threads 1 and 2 give the same data; a run killed after its first shard and resumed equals an
unbroken one; a resume with other settings or inputs is refused naming the difference; each
searched position's score is what `hansu` answers to `go nodes 1000` after `ucinewgame` and the
game's earlier searched positions (the TT policy), and with --blend 50 what it answers with
eval_blend 50 (a resume without it refused); --skip-plies, --every and --to-move select
positions; xiangqi games from openings keep their FENs. Refused with named errors before any search: a missing file, a folder, binary data,
an illegal move (file and line), a game of another variant, an existing run without --resume,
nothing to resume; a game without a result is left out and named. --pv-ends: each search's PV
end stored as a standalone position (files n + k) whose board is where `hansu`'s own PV of that
search leads and whose score is hansu's `go nodes` there (a second engine, ucinewgame once, the
game's PV ends in order); the line shards unchanged; --threads 2 and a resumed run give the same
files; the PV-end files merge (not with the games); verify and export count them apart from
games, export writes them as unfinished games (Result "*", SourceResult, SourceGame, Round the id
+ 1, a first Han move numbered "1... "), and resuming with or without --pv-ends names pv_ends on
both sides; verify refuses PV ends with a general off its palace, changed points, the
search flag cleared, the side not to move in check, an id below 2^31, a ply not past the
searched one, a schedule not naming its shard, an openings attribute; verify of the folder
refuses a missing line shard or PV-end file, swapped PV-end files and a PV end from another
shard's game; scripts/selfplay_stats.py counts the PV ends apart; hansu-nnue trains on the folder.

Usage: test_label.py HANSU_SELFPLAY HANSU HANSU_NNUE WORK_DIR"""
import gzip
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import zlib

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "scripts"))
import hansu_shard  # noqa: E402

MATCH = os.path.join(REPO, "docs", "scaling-profile", "tc-40+0.4.pgn.gz")
NODES = "1000"
FEN_START = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"
VOLATILE = {"host", "start_time", "end_time"}  # attributes that say when and where, not what


def check(cond, msg):
    if not cond:
        sys.exit("FAIL: " + msg)


def label(*args, timeout=300):
    p = subprocess.run([SELFPLAY, "label", "--no-bench", *args], capture_output=True, text=True,
                       timeout=timeout)
    return p.returncode, p.stdout + p.stderr


def first_games(n):
    """The first n games of the match PGN, as text."""
    with gzip.open(MATCH, "rt") as f:
        games = f.read().split("\n\n[Event ")
    return games[0] + "".join("\n\n[Event " + g for g in games[1:n]) + "\n"


def read_run(folder):
    """Every dataset and attribute of a run folder's shards (volatile attributes left out)."""
    out = {}
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".h5"):
            continue
        with hansu_shard.open_shard(os.path.join(folder, name)) as f:
            attrs = {k: v for k, v in hansu_shard.attrs(f).items() if k not in VOLATILE}
            data = {f"{g}/{k}": f[g][k][:].tobytes() for g in ("games", "positions")
                    for k in f[g]}
            out[name] = (attrs, data)
    return out


def games_of(folder):
    """(game_id, moves, winner, reason, score, flags, stm) per game, in file order."""
    rows = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".h5"):
            with hansu_shard.open_shard(os.path.join(folder, name)) as f:
                g, p = f["games"], f["positions"]
                for i in range(len(g["game_id"])):
                    a, b = int(g["pos_start"][i]), int(g["pos_end"][i])
                    rows.append((int(g["game_id"][i]), p["move"][a:b].tolist(), int(g["winner"][i]),
                                 int(g["reason"][i]), p["score"][a:b].tolist(),
                                 p["flags"][a:b].tolist(), p["stm"][a:b].tolist()))
    return rows


def pgn_moves(text):
    """The UCI moves of one game's PGN text (comments dropped)."""
    body = re.sub(r"\{[^}]*\}", " ", text.split("\n\n", 1)[1])
    return [w for w in body.split() if re.fullmatch(r"[a-i]\d+[a-i]\d+", w)]


def uci_scores(fen, moves, searched, options=()):
    """hansu's `go nodes` score at each searched ply, after one ucinewgame, in game order;
    options: (name, value) pairs set first."""
    p = subprocess.Popen([HANSU], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    p.stdin.write("uci\n" + "".join(f"setoption name {k} value {v}\n" for k, v in options) +
                  "ucinewgame\nisready\n")
    p.stdin.flush()
    while p.stdout.readline().strip() != "readyok":
        pass
    scores = {}
    for k in searched:
        p.stdin.write(f"position fen {fen} moves {' '.join(moves[:k])}\ngo nodes {NODES}\n")
        p.stdin.flush()
        last = None
        for line in p.stdout:
            w = line.split()
            if "score" in w:
                i = w.index("score")
                last = (w[i + 1], int(w[i + 2]))
            if w and w[0] == "bestmove":
                break
        scores[k] = last
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait(timeout=30)
    return scores


def same_as_uci(stored, uci):
    kind, v = uci
    if kind == "cp":
        return stored == max(-29999, min(29999, v))
    return stored * v > 0 and abs(stored) >= 30000 and (32000 - abs(stored) + 1) // 2 == abs(v)


def check_scores(work, folder, options=()):
    """Game 0's searched positions against hansu's UCI answers (with options set)."""
    start_fen = first_games(1).split('[FEN "')[1].split('"')[0]
    gid, moves, _, _, score, flags, _ = games_of(folder)[0]
    names = pgn_moves(first_games(1))
    check(len(names) == len(moves), f"game 0: {len(names)} PGN moves, {len(moves)} stored")
    searched = [k for k in range(len(moves)) if not flags[k] & 4]
    got = uci_scores(start_fen, names, searched, options)
    bad = [(k, score[k], got[k]) for k in searched if not same_as_uci(score[k], got[k])]
    check(not bad, f"scores differ from hansu's go nodes {NODES}: {bad[:5]} of {len(searched)}")
    return len(searched)


def check_kill_resume(work, pgn, whole, extra=(), name="killed"):
    out = os.path.join(work, name)
    p = subprocess.Popen([SELFPLAY, "label", "--no-bench", "--nodes", NODES, "--threads", "1",
                          "--shard-games", "1", *extra, "--out", out, pgn],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    first = os.path.join(out, "shard-000000.h5")
    for _ in range(3000):
        if os.path.exists(first) or p.poll() is not None:
            break
        time.sleep(0.01)
    p.send_signal(signal.SIGKILL)
    p.wait()
    check(os.path.exists(first), "killed run: no first shard")
    check(not os.path.exists(os.path.join(out, "shard-000002.h5")), "killed too late")
    rc, log = label("--nodes", NODES, "--threads", "1", "--shard-games", "1", *extra, "--out", out,
                    "--resume", pgn)
    check(rc == 0 and "resumed" in log, f"resume: rc {rc}: {log}")
    check(read_run(out) == whole, "resumed run differs from the unbroken one")
    if extra:
        return out
    rc, log = label("--nodes", "999", "--shard-games", "1", "--out", out, "--resume", pgn)
    check(rc == 1 and "nodes=1000" in log and "nodes=999" in log, f"other nodes: {log}")
    other = os.path.join(work, "other.pgn")
    with open(other, "w") as f:
        f.write(first_games(4))
    rc, log = label("--nodes", NODES, "--shard-games", "1", "--out", out, "--resume", other)
    check(rc == 1 and "inputs=" in log, f"other inputs: {log}")


def check_refusals(work, pgn):
    out = os.path.join(work, "refused")
    cases = []
    text = first_games(2)
    illegal = os.path.join(work, "illegal.pgn")
    with open(illegal, "w") as f:
        f.write(text.replace(" b1c3 ", " b1b5 ", 1))
    line = next(i for i, l in enumerate(text.splitlines(), 1) if " b1c3 " in f" {l} ")
    cases.append(([illegal], f"illegal.pgn:{line}: move \"b1b5\""))
    cases.append(([illegal], "(game 1 of the file)"))
    binary = os.path.join(work, "binary.pgn")
    with open(binary, "wb") as f:
        f.write(b"[Event \"x\"]\n\x00\x01\x02\n")
    cases.append(([binary], "binary.pgn:2: binary data"))
    cases.append(([os.path.join(work, "missing.pgn")], "missing.pgn: No such file"))
    cases.append(([work], "not a file"))
    xq = os.path.join(work, "xq.pgn")
    with open(xq, "w") as f:
        f.write('[Event "x"]\n[Variant "xiangqi"]\n[Result "1-0"]\n\n1. h3e3 1-0\n')
    cases.append(([pgn, xq], "xq.pgn:2: a game of xiangqi, not janggi"))
    # The result ending the movetext must be the Result tag's (PGN standard, 8.2.6).
    first = first_games(1)
    tag = re.search(r'\[Result "([^"]*)"\]', first).group(1)
    other = "1-0" if tag == "0-1" else "0-1"
    mixed = os.path.join(work, "mixed.pgn")
    with open(mixed, "w") as f:
        f.write(first.replace(f'[Result "{tag}"]', f'[Result "{other}"]', 1))
    cases.append(([mixed], f'the result {tag} disagrees with the Result tag "{other}"'))
    # A .gz cut short ends inside its stream: refused, not read as a shorter last game. The cut
    # falls where what was compressed ends at a line of moves after the tags (a Result among
    # them), which read as plain text is a whole game that the tag's result ends.
    second = "[Event " + first_games(2).split("\n\n[Event ")[1]
    head = second.split("\n\n")[0] + "\n\n1. " + " ".join(pgn_moves(second)[:6]) + "\n"
    z = zlib.compressobj(wbits=31)  # gzip
    cut = os.path.join(work, "cut.pgn.gz")
    with open(cut, "wb") as f:
        f.write(z.compress((first_games(1) + "\n" + head).encode()) + z.flush(zlib.Z_FULL_FLUSH))
    cases.append(([cut], "cut.pgn.gz:"))
    cases.append(([cut], "unexpected end of file"))
    for inputs, want in cases:
        rc, log = label("--nodes", "10", "--out", out, *inputs)
        check(rc == 1 and want in log and not os.path.exists(out), f"{want}: rc {rc}: {log}")
    nores = os.path.join(work, "nores.pgn")
    with open(nores, "w") as f:
        head = first_games(1).split("\n\n")[0].replace('[Result "0-1"]', '[Result "*"]')
        f.write(head + "\n\n1. " + " ".join(pgn_moves(first_games(1))[:6]) + " *\n")
    rc, log = label("--nodes", "10", "--out", out, nores, pgn)
    check(rc == 0 and "nores.pgn:1: game 1 not stored: no result" in log, f"no result: {log}")
    rc, log = label("--nodes", "10", "--out", out, pgn)
    check(rc == 1 and "already holds a run" in log, f"existing run: {log}")
    rc, log = label("--nodes", "10", "--out", os.path.join(work, "none"), "--resume", pgn)
    check(rc == 1 and "nothing to resume" in log, f"nothing to resume: {log}")
    # A --to-move name longer than a store records is refused before any work (its run_config
    # would be cut, and a resume compares it whole); the longest one passes the check (and
    # finds no game of that player).
    rc, log = label("--nodes", "10", "--out", os.path.join(work, "long"), "--to-move", "N" * 65,
                    pgn)
    check(rc == 2 and "--to-move: a name of 65 characters; a store records at most 64" in log
          and not os.path.exists(os.path.join(work, "long")), f"long --to-move: rc {rc}: {log}")
    rc, log = label("--nodes", "10", "--out", os.path.join(work, "long64"), "--to-move", "N" * 64,
                    pgn)
    check(rc == 1 and "without the player 'NNNN" in log, f"--to-move of 64: rc {rc}: {log}")


def check_blend(work, pgn, whole):
    """--blend P: the searches evaluate with the net blended with P % of the classical
    evaluation, as hansu's with eval_blend P; run_config names it, so a resume without it or
    with another P is refused, naming the blend; refused with --classical and out of 0..100."""
    out = os.path.join(work, "blend")
    rc, log = label("--nodes", NODES, "--threads", "1", "--shard-games", "1", "--blend", "50",
                    "--out", out, "--json", out + ".json", pgn)
    check(rc == 0, f"--blend 50: rc {rc}: {log}")
    attrs = read_run(out)["shard-000000.h5"][0]
    check("blend=50 " in attrs["run_config"], f"run_config: {attrs['run_config']}")
    check(attrs["formation_schedule"].endswith("(nnue blended with 50 % classical)"),
          f"schedule: {attrs['formation_schedule']}")
    check("blend=" not in whole["shard-000000.h5"][0]["run_config"], "blend= without --blend")
    with open(out + ".json") as f:
        check(json.load(f)["blend"] == 50, "--json: blend")
    n = check_scores(work, out, [("eval_blend", "50")])
    plain = games_of(os.path.join(work, "t1"))[0][4]
    check(games_of(out)[0][4] != plain, "--blend 50 scored as the net alone")
    rc, log = label("--nodes", NODES, "--shard-games", "1", "--out", out, "--resume", pgn)
    # The message names the blend, not the bench it changes.
    check(rc == 1 and "(blend=50, this run no blend)" in log,
          f"resume without --blend: rc {rc}: {log}")
    rc, log = label("--nodes", NODES, "--shard-games", "1", "--blend", "25", "--out", out,
                    "--resume", pgn)
    check(rc == 1 and "(blend=50, this run blend=25)" in log,
          f"resume with another --blend: rc {rc}: {log}")
    for bad, want in ((["--blend", "50", "--classical"], "not with --classical"),
                      (["--blend", "101"], "--blend"), (["--blend", "-1"], "--blend")):
        rc, log = label("--nodes", "10", "--out", os.path.join(work, "badblend"), *bad, pgn)
        check(rc == 2 and want in log and not os.path.exists(os.path.join(work, "badblend")),
              f"{bad}: rc {rc}: {log}")
    return n


def check_selection(work, pgn):
    out = os.path.join(work, "select")
    rc, log = label("--nodes", "10", "--skip-plies", "10", "--every", "3", "--to-move", "Hansu",
                    "--out", out, pgn)
    check(rc == 0, f"selection: {log}")
    white = [g.split('[White "')[1].split('"')[0] for g in first_games(3).split("[Event ")[1:]]
    for i, (_, moves, _, _, score, flags, stm) in enumerate(games_of(out)):
        hansu_side = 0 if white[i] == "Hansu" else 1
        eligible = [k for k in range(len(moves)) if k >= 10 and stm[k] == hansu_side]
        want = set(eligible[::3])
        got = {k for k in range(len(moves)) if not flags[k] & 4}
        check(got == want, f"selection game {i}: {sorted(got)[:8]} want {sorted(want)[:8]}")
    check("no position searched" not in log, f"selection: a note without cause: {log}")
    # --skip-plies past every game's end: the games stored, each counted and said unsearched.
    out, js = os.path.join(work, "select-none"), os.path.join(work, "select-none.json")
    rc, log = label("--nodes", "10", "--skip-plies", "600", "--json", js, "--out", out, pgn)
    with open(js) as f:
        res = json.load(f)
    check(rc == 0 and res["games_labelled"] == 3 and res["games_unsearched"] == 3 and
          res["searched"] == 0, f"skip past the end: {res}")
    check("3 of those games have no position searched" in log, f"skip past the end: {log}")
    # The same with --pv-ends: PV-end files of 0 rows; show refuses a row of one (no crash).
    out = os.path.join(work, "select-none-pv")
    rc, log = label("--nodes", "10", "--skip-plies", "600", "--pv-ends", "--shard-games", "1",
                    "--out", out, pgn)
    check(rc == 0, f"skip past the end, --pv-ends: {log}")
    p = subprocess.run([SELFPLAY, "show", os.path.join(out, "shard-000003.h5"), "0"],
                       capture_output=True, text=True)
    check(p.returncode == 2 and "no positions" in p.stderr, f"show of 0 rows: {p.returncode} "
          f"{p.stderr}")


def check_openings(work):
    """Xiangqi games from openings (their own FENs): stored with the openings attribute, game ids
    k * (openings) + j, replayed by verify."""
    sp, pgn, out = (os.path.join(work, n) for n in ("xq-sp", "xq.pgn", "xq-label"))
    subprocess.run([SELFPLAY, "--variant", "xiangqi", "--openings",
                    os.path.join(REPO, "data", "openings-xiangqi.fen"), "--games", "3",
                    "--random-plies", "0", "--nodes", "100", "--threads", "1", "--no-bench",
                    "--out", sp], capture_output=True, check=True, timeout=120)
    subprocess.run([SELFPLAY, "export", "--pgn", pgn, sp], capture_output=True, check=True)
    with open(pgn) as f:
        text = f.read()
    with open(pgn, "w") as f:
        f.write(text + text)
    rc, log = label("--nodes", "100", "--shard-games", "2", "--out", out, pgn)
    check(rc == 0, f"openings: {log}")
    p = subprocess.run([SELFPLAY, "verify", out], capture_output=True, text=True)
    check(p.returncode == 0, f"openings verify: {p.stdout} {p.stderr}")
    ids = [g[0] for g in games_of(out)]
    check(ids == [0, 1, 2, 3, 4, 5], f"openings: game ids {ids}")


PV_BASE = 0x80000000
PV_NODES = "700"


def uci_session():
    p = subprocess.Popen([HANSU], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    p.stdin.write("uci\nucinewgame\nisready\n")
    p.stdin.flush()
    while p.stdout.readline().strip() != "readyok":
        pass
    return p


def uci_go(p, position, nodes):
    """(score, pv) of `go nodes` at position: the last info line's, as hansu printed it."""
    p.stdin.write(f"position {position}\ngo nodes {nodes}\n")
    p.stdin.flush()
    score, pv = None, []
    for line in p.stdout:
        w = line.split()
        if "score" in w:
            i = w.index("score")
            score = (w[i + 1], int(w[i + 2]))
        if "pv" in w:
            pv = w[w.index("pv") + 1:]
        if w and w[0] == "bestmove":
            return score, pv


def uci_fen(p, position):
    """The FEN hansu's `d` prints for position (its board and side to move fields)."""
    p.stdin.write(f"position {position}\nd\n")
    p.stdin.flush()
    for line in p.stdout:
        if line.startswith("Fen: "):
            return " ".join(line.split()[1:3])


def pv_rows(folder):
    """The PV-end files of a run: {game_id: (seed, ply, score, flags, fen fields)}, from export."""
    rows, names = {}, sorted(n for n in os.listdir(folder) if n.endswith(".h5"))
    for name in names:
        with hansu_shard.open_shard(os.path.join(folder, name)) as f:
            if not hansu_shard.attrs(f)["formation_schedule"].startswith("labelled positions:"):
                continue
            g, p = f["games"], f["positions"]
            check(all(int(n) == 1 for n in g["plies"][:]), f"{name}: a PV end of several plies")
            for i in range(len(g["game_id"])):
                r = int(g["pos_start"][i])
                rows[int(g["game_id"][i])] = (int(g["seed"][i]), int(p["ply"][r]),
                                              int(p["score"][r]), int(p["flags"][r]), name)
    return rows


def check_pv_pgn(text, rows, folder):
    """The PV ends as PGN: no finished game (Result "*", no Termination, no end comment), the
    source game's result and id in SourceResult and SourceGame, Round the id + 1, and a first
    move numbered 1 from the FEN, "1... " with Han to move."""
    results = {g[0]: g[2] for g in games_of(folder)}
    rounds = set()
    hans = 0
    for block in text.split("[Event ")[1:]:
        tag = dict(re.findall(r'\[(\w+) "([^"]*)"\]', block))
        gid = int(tag["GameId"])
        seed = rows[gid][0]
        check(tag["Result"] == "*" and "Termination" not in tag and
              tag["SourceGame"] == str(seed) and
              tag["SourceResult"] == ("1-0", "0-1", "1/2-1/2")[results[seed]] and
              tag["Round"] == str(gid + 1), f"PV end {gid} tags: {tag}")
        rounds.add(tag["Round"])
        fen = tag["FEN"].split()
        body = block.split("\n\n", 1)[1].strip()
        want = "1... " if fen[1] == "b" else "1. "
        hans += fen[1] == "b"
        check(body.startswith(want) and "{" not in body.split("}", 1)[-1] and
              body.split()[-1] == "*", f"PV end {gid} moves: {fen} {body}")
    check(len(rounds) == len(text.split("[Event ")) - 1 and hans, f"rounds, Han to move: {hans}")


def check_pv_uci(work, folder):
    """Game 0's PV ends against hansu: the board its PV of each search reaches, the score there."""
    start_fen = first_games(1).split('[FEN "')[1].split('"')[0]
    names = pgn_moves(first_games(1))
    gid, moves, _, _, _, flags, _ = games_of(folder)[0]
    rows = pv_rows(folder)
    pgn = os.path.join(work, "pv-ends.pgn")
    files = sorted({r[4] for r in rows.values()})
    p = subprocess.run([SELFPLAY, "export", "--pgn", pgn, *[os.path.join(folder, n) for n in files]],
                       capture_output=True, check=True, text=True)
    check(re.search(r"exported 0 games and \d+ PV ends", p.stderr), f"export count: {p.stderr}")
    with open(pgn) as f:
        text = f.read()
    fens = {}
    for block in text.split("[Event ")[1:]:
        fens[int(re.search(r'\[GameId "(\d+)"\]', block).group(1))] = \
            re.search(r'\[FEN "([^"]*)"\]', block).group(1)
    check_pv_pgn(text, rows, folder)
    line, ends = uci_session(), uci_session()
    searched = [k for k in range(len(moves)) if not flags[k] & 4]
    stored = 0
    for k in searched:
        _, pv = uci_go(line, f"fen {start_fen} moves {' '.join(names[:k])}", NODES)
        pid = PV_BASE + k
        if pid not in rows:
            continue
        seed, ply, score, _, _ = rows[pid]
        d = ply - k  # game 0 starts at ply 0
        check(seed == gid and 1 <= d <= len(pv), f"ply {k}: PV end {d} plies on, PV {pv}")
        pos = f"fen {start_fen} moves {' '.join(names[:k] + pv[:d])}"
        want = uci_fen(ends, pos)
        check(" ".join(fens[pid].split()[:2]) == want,
              f"ply {k}: stored PV end {fens[pid]}, hansu's PV {pv[:d]} gives {want}")
        got, _ = uci_go(ends, pos, PV_NODES)
        check(same_as_uci(score, got), f"ply {k}: PV end score {score}, hansu says {got}")
        stored += 1
    for p in (line, ends):
        p.stdin.write("quit\n")
        p.stdin.flush()
        p.wait(timeout=30)
    check(stored >= len(searched) // 2, f"only {stored} PV ends of {len(searched)} searches")
    return stored


def tamper_pv(src, dst, how):
    """A copy of PV-end file src changed as `how` says, its digest header made anew."""
    import h5py
    shutil.copy(src, dst)
    with h5py.File(dst, "r+") as f:
        p, g = f["positions"], f["games"]
        if how == "general":  # Cho's general to an empty square outside its palace
            b = p["board"][0]
            b[0] = next(sq for sq in range(36, 54) if sq not in b)
            p["board"][0] = b
        elif how == "points":
            g["points_cho"][0] = g["points_cho"][0] - 2
        elif how == "searched":
            p["flags"][0] = p["flags"][0] | 4
        elif how == "duplicate":
            g["game_id"][1] = g["game_id"][0]
        elif how == "duplicate2":  # both columns
            g["game_id"][1] = p["game_id"][1] = g["game_id"][0]
        elif how == "ply599":
            p["ply"][0] = 599
        elif how == "winner":
            g["winner"][0] = 1 - g["winner"][0]
        elif how == "id_low":  # a game's id, below 2^31
            g["game_id"][0] = p["game_id"][0] = 7
        elif how == "ply_back":  # a ply not past the searched one its id names (parity kept)
            r = next(i for i in range(len(p["ply"])) if (int(g["game_id"][i]) - 2**31) % 600)
            searched = (int(g["game_id"][r]) - 2**31) % 600
            p["ply"][r] = searched - (searched - int(p["ply"][r])) % 2
        elif how == "seed":  # a source game not of the line shard
            g["seed"][0] = g["seed"][0] + 1
        elif how == "prefix":
            f.attrs["formation_schedule"] = "labelled positions:"
        elif how == "noshard":
            f.attrs["formation_schedule"] = "labelled positions: PV ends of the searches of one"
        elif how == "openings":
            f.attrs["openings"] = FEN_START
        elif how == "check":  # a position in check given to the other side: the side not to
            r = next(i for i in range(len(p["flags"])) if p["flags"][i] & 1)  # move in check
            p["stm"][r] = 1 - p["stm"][r]
            p["ply"][r] = p["ply"][r] + 1
            p["result_stm"][r] = -p["result_stm"][r]
    data = open(dst, "rb").read()
    body = data[hansu_shard.USERBLOCK:]
    open(dst, "wb").write(hansu_shard.header(body) + body)


def check_pv_folder(work, folder):
    """verify of a run folder pairs file n + k with line shard k: each missing, swapped, or a
    PV end whose source is not a game of its line shard, refused."""
    def swap(d):
        a, b = os.path.join(d, "shard-000003.h5"), os.path.join(d, "shard-000004.h5")
        os.rename(a, a + ".x")
        os.rename(b, a)
        os.rename(a + ".x", b)

    cases = (("line", lambda d: os.remove(os.path.join(d, "shard-000000.h5")),
              "shard-000003.h5: holds the PV ends of shard 0, whose file is missing"),
             ("pv", lambda d: os.remove(os.path.join(d, "shard-000003.h5")),
              "shard-000000.h5: a shard of a run with PV ends (pv_ends=1) whose PV-end file is"),
             ("swapped", swap, "files swapped?"),
             ("twice", lambda d: tamper_pv(os.path.join(folder, "shard-000003.h5"),
                                           os.path.join(d, "shard-000003.h5"), "duplicate2"),
              "is stored twice in " + os.path.join(work, "pv-folder-twice", "shard-000003.h5")),
             ("seed", lambda d: tamper_pv(os.path.join(folder, "shard-000003.h5"),
                                          os.path.join(d, "shard-000003.h5"), "seed"),
              "not a game of its line shard"))
    for name, change, want in cases:
        bad = os.path.join(work, f"pv-folder-{name}")
        shutil.copytree(folder, bad)
        change(bad)
        p = subprocess.run([SELFPLAY, "verify", bad], capture_output=True, text=True)
        check(p.returncode == 1 and want in p.stderr, f"pv folder {name}: {p.stdout} {p.stderr}")


def check_pv_ends(work, pgn, whole):
    runs = {}
    for name, threads in (("pv1", "1"), ("pv2", "2")):
        runs[name] = os.path.join(work, name)
        rc, log = label("--nodes", NODES, "--pv-ends", "--pv-nodes", PV_NODES, "--threads",
                        threads, "--shard-games", "1", "--out", runs[name], pgn)
        check(rc == 0 and "pv ends" in log, f"label {name}: rc {rc}: {log}")
        log0 = log
    pv = read_run(runs["pv1"])
    check(sorted(pv) == [f"shard-00000{k}.h5" for k in range(6)], f"pv files: {sorted(pv)}")
    check(read_run(runs["pv2"]) == pv, "--pv-ends: --threads 2 differs from --threads 1")
    for name in whole:  # the line shards are those of a run without PV ends
        check(pv[name][1] == whole[name][1], f"--pv-ends changed the line shard {name}")
    a = pv["shard-000003.h5"][0]
    check(a["formation_schedule"].startswith("labelled positions: PV ends of the searches of "
                                             "shard 0") and "pv_nodes=700" in a["run_config"],
          f"pv attributes: {a}")
    p = subprocess.run([SELFPLAY, "verify", runs["pv1"]], capture_output=True, text=True)
    check(p.returncode == 0 and re.search(r"verified 6 files: 3 games and \d+ PV ends", p.stdout),
          f"pv verify: {p.stdout} {p.stderr}")
    n = check_pv_uci(work, runs["pv1"])
    merged = os.path.join(work, "pv-merged.h5")
    p = subprocess.run([SELFPLAY, "merge", "-o", merged] +
                       [os.path.join(runs["pv1"], f"shard-00000{k}.h5") for k in (3, 4, 5)],
                       capture_output=True, text=True)
    q = subprocess.run([SELFPLAY, "verify", merged], capture_output=True, text=True)
    check(p.returncode == 0 and q.returncode == 0, f"pv merge: {p.stderr} {q.stdout} {q.stderr}")
    import h5py
    with h5py.File(merged, "r") as f:
        sched = f.attrs["formation_schedule"]
        sched = sched.decode() if isinstance(sched, bytes) else str(sched)
    check(sched == "labelled positions: PV ends of the searches of several shards (merged), each "
          "searched at 700 nodes (nnue)", f"merged schedule: {sched}")
    p = subprocess.run([SELFPLAY, "merge", "-o", os.path.join(work, "mixed.h5"), runs["pv1"]],
                       capture_output=True, text=True)
    check(p.returncode != 0 and "cannot be merged" in p.stderr, f"mixed merge: {p.stderr}")
    for how, want in (("general", "illegal position"), ("points", "points differ"),
                      ("searched", "not searched"), ("check", "side not to move"),
                      ("id_low", "not a PV end's"), ("ply_back", "not past the searched ply"),
                      ("prefix", "does not name the shard"), ("noshard", "does not name the shard"),
                      ("openings", "openings attribute")):
        bad = os.path.join(work, f"tampered-{how}.h5")
        try:
            tamper_pv(os.path.join(runs["pv1"], "shard-000003.h5"), bad, how)
        except StopIteration:
            continue  # no PV end in check to turn around
        p = subprocess.run([SELFPLAY, "verify", bad], capture_output=True, text=True)
        check(p.returncode != 0 and want in p.stdout + p.stderr,
              f"tampered {how}: rc {p.returncode}: {p.stdout} {p.stderr}")
    check_pv_folder(work, runs["pv1"])
    out = check_kill_resume(work, pgn, pv, ("--pv-ends", "--pv-nodes", PV_NODES), "pv-killed")
    # A resume refuses a PV-end file this run would not write (its digest made anew).
    for how in ("points", "searched", "general", "duplicate", "ply599", "winner"):
        bad = os.path.join(work, f"pv-resume-{how}")
        shutil.copytree(runs["pv1"], bad)
        tamper_pv(os.path.join(runs["pv1"], "shard-000003.h5"),
                  os.path.join(bad, "shard-000003.h5"), how)
        rc, log = label("--nodes", NODES, "--pv-ends", "--pv-nodes", PV_NODES, "--shard-games",
                        "1", "--out", bad, "--resume", pgn)
        check(rc == 1 and "shard-000003.h5" in log, f"resume over tampered {how}: rc {rc}: {log}")
    rc, log = label("--nodes", NODES, "--pv-ends", "--pv-nodes", "701", "--shard-games", "1",
                    "--out", out, "--resume", pgn)
    check(rc == 1 and "pv_nodes=700" in log and "pv_nodes=701" in log, f"other pv-nodes: {log}")
    rc, log = label("--nodes", NODES, "--shard-games", "1", "--out", out, "--resume", pgn)
    check(rc == 1 and "(pv_ends=1, this run no pv_ends)" in log, f"resume without --pv-ends: {log}")
    shutil.copytree(os.path.join(work, "t1"), os.path.join(work, "t1-pv"))
    rc, log = label("--nodes", NODES, "--pv-ends", "--shard-games", "1", "--out",
                    os.path.join(work, "t1-pv"), "--resume", pgn)
    check(rc == 1 and "(no pv_ends, this run pv_ends=1)" in log, f"resume with --pv-ends: {log}")
    check(re.search(r"\d+ positions and \d+ PV ends searched, [0-9.]+ searches/s", log0),
          f"pv progress: {log0}")
    for flag in ("--nodes", "--pv-nodes"):  # the nodes attribute is an int64: above it refused
        rc, log = label("--check-args", "--pv-ends", flag, str(2**63))
        check(rc == 2 and flag in log, f"{flag} 2^63: rc {rc}: {log}")
        rc, log = label("--check-args", "--pv-ends", flag, str(2**63 - 1))
        check(rc == 0, f"{flag} 2^63 - 1: rc {rc}: {log}")
    for args, want in ((("--pv-nodes", "5"), "--pv-nodes needs --pv-ends"),
                       (("--pv-ends", "--pv-nodes", "0"), "--pv-nodes must be at least 1")):
        rc, log = label("--nodes", "10", *args, "--out", os.path.join(work, "pv-bad"), pgn)
        check(rc == 2 and want in log and not os.path.exists(os.path.join(work, "pv-bad")),
              f"{args}: rc {rc}: {log}")
    js = os.path.join(work, "pv.json")
    rc, log = label("--nodes", "50", "--pv-ends", "--json", js, "--out",
                    os.path.join(work, "pv-json"), pgn)
    with open(js) as f:
        res = json.load(f)
    check(rc == 0 and res["pv_ends"] is True and res["pv_nodes"] == 50 and
          res["pv_ends_stored"] > 0, f"pv json: {res}")
    return runs["pv1"], n


def main():
    global SELFPLAY, HANSU
    SELFPLAY, HANSU, nnue, work = sys.argv[1:5]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    plain, packed = os.path.join(work, "three.pgn"), os.path.join(work, "three.pgn.gz")
    with open(plain, "w") as f:
        f.write(first_games(3))
    with gzip.open(packed, "wt") as f:
        f.write(first_games(3))
    runs = {}
    for name, threads, src in (("t1", "1", packed), ("t2", "2", packed), ("plain", "2", plain)):
        runs[name] = os.path.join(work, name)
        rc, log = label("--nodes", NODES, "--threads", threads, "--shard-games", "1",
                        "--out", runs[name], src)
        check(rc == 0, f"label {name}: rc {rc}: {log}")
    whole = read_run(runs["t1"])
    check(len(whole) == 3, f"shards: {sorted(whole)}")
    check(read_run(runs["t2"]) == whole, "--threads 2 differs from --threads 1")
    check({k: d for k, (_, d) in read_run(runs["plain"]).items()} ==
          {k: d for k, (_, d) in whole.items()}, "a plain PGN differs from its .gz")
    attrs = whole["shard-000000.h5"][0]
    check(attrs["formation_schedule"].startswith("labelled") and "nodes=1000" in attrs["run_config"],
          f"attributes: {attrs}")
    check("three.pgn.gz" in attrs["sources"], f"sources: {attrs['sources']}")
    p = subprocess.run([SELFPLAY, "verify", runs["t1"]], capture_output=True, text=True)
    check(p.returncode == 0, f"verify: {p.stdout} {p.stderr}")
    results = [g.split('[Result "')[1].split('"')[0] for g in first_games(3).split("[Event ")[1:]]
    for (gid, moves, winner, _, _, _, _), res in zip(games_of(runs["t1"]), results):
        check(winner == {"1-0": 0, "0-1": 1}[res], f"game {gid}: winner {winner}, Result {res}")
    n = check_scores(work, runs["t1"])
    check_kill_resume(work, packed, whole)
    check_refusals(work, packed)
    check_selection(work, packed)
    nb = check_blend(work, packed, whole)
    check_openings(work)
    pv_folder, npv = check_pv_ends(work, packed, whole)
    p = subprocess.run([nnue, "--out", os.path.join(work, "tiny.nnue"), "--epochs", "1",
                        "--threads", "1", "--l1", "32", "--skip-plies", "0", pv_folder],
                       capture_output=True, text=True, timeout=300)
    check(p.returncode == 0 and os.path.exists(os.path.join(work, "tiny.nnue")),
          f"hansu-nnue: {p.stdout[-500:]} {p.stderr[-500:]}")
    # scripts/selfplay_stats.py counts the PV ends apart, not as games.
    st = subprocess.run(["/usr/bin/python3", os.path.join(REPO, "scripts", "selfplay_stats.py"),
                         pv_folder], capture_output=True, text=True, timeout=120)
    nends = sum(len(d["positions/stm"]) for k, (a, d) in read_run(pv_folder).items()
                if a["formation_schedule"].startswith("labelled positions:"))
    check(st.returncode == 0 and "games 3, positions " in st.stdout and
          f"PV ends {nends} (" in st.stdout, f"selfplay_stats: {st.stdout[:400]} {st.stderr[-300:]}")
    nline = sum(len(d["positions/stm"]) for k, (_, d) in read_run(runs["t1"]).items())
    npos = sum(len(d["positions/stm"]) for k, (_, d) in read_run(pv_folder).items())
    check(f"6 files: {npos} positions read" in p.stdout + p.stderr and npos > nline,
          f"hansu-nnue read {npos} positions? {p.stdout[-300:]} {p.stderr[-300:]}")
    print(f"all checks passed ({n} scores as hansu's, {nb} with --blend 50, {npv} PV ends as "
          "hansu's)")


if __name__ == "__main__":
    main()
