#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The --json results of hansu-match, hansu-selfplay and hansu-tune (docs/json-outputs.md) agree
with what the tools did, stay true across a resumed match, name an unwritable file, and are what
scripts/train reads.

Usage: test_json_outputs.py HANSU_MATCH FAKE_ENGINE HANSU_SELFPLAY WORK_DIR [HANSU_TUNE]"""
import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MATCH, FAKE, SELFPLAY, WORK = sys.argv[1:5]
TUNE = sys.argv[5] if len(sys.argv) > 5 else None
FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print(f"FAIL: {what}")


def run(argv):
    return subprocess.run(argv, capture_output=True, text=True, timeout=90)


def load(path):
    with open(path) as f:
        return json.load(f)


def engines(second="crash"):
    return ["--engine", f"cmd={FAKE}", "arg=good", "name=A",
            "--engine", f"cmd={FAKE}", f"arg={second}", "arg=2", 'name=B "quoted"']


def test_match():
    out = os.path.join(WORK, "m.json")
    r = run([MATCH] + engines() + ["--nodes", "1", "--games", "4", "--sprt", "elo0=0", "elo1=5",
                                   "--json", out])
    check(r.returncode == 0, f"match ran: {r.stderr}")
    j = load(out)
    check(j["engines"] == ["A", 'B "quoted"'], "engine names, quote escaped")
    check(j["games"] == 4 and j["wins"] == [4, 0] and j["pairs_done"] == 2, "games and wins")
    check(sum(j["pentanomial"]) == 2 and j["pentanomial"][4] == 2, "pentanomial")
    check(j["reasons"]["A"] == {"crash": 4} and j["reasons"]['B "quoted"'] == {}, "reasons")
    check(j["faults"]['B "quoted"']["crash"] == 4 and j["faults"]["A"]["crash"] == 0, "faults")
    check(j["faults"]['B "quoted"']["restarts"] == 4, "restarts of the crashing engine")
    check(j["elo"] is None and j["los"] == 1 and j["finished"] and not j["interrupted"],
          "an all-won match: Elo not finite (null), LOS 1")
    s = j["sprt"]
    check(s["result"] == "continue" and s["lower"] < s["llr"] < s["upper"], "sprt")
    check("Score 4 - 0" in r.stdout, "the summary for people says the same")
    # Without --sprt there is no SPRT.
    r = run([MATCH] + engines("good") + ["--nodes", "1", "--games", "2", "--json", out])
    check(r.returncode == 0 and load(out)["sprt"] is None, "no --sprt: sprt null")
    # A file that cannot be written is named, and the match fails.
    bad = os.path.join(WORK, "missing", "m.json")
    r = run([MATCH] + engines("good") + ["--nodes", "1", "--games", "2", "--json", bad])
    check(r.returncode != 0 and "missing/m.json" in r.stderr, f"unwritable --json: {r.stderr}")


def test_match_resume():
    pgn, out = os.path.join(WORK, "r.pgn"), os.path.join(WORK, "r.json")
    base = [MATCH] + engines("good") + ["--nodes", "1", "--games", "8", "--pgn", pgn,
                                        "--json", out]
    r = run(base + ["--stop-after-pairs", "1"])
    j = load(out)
    check(r.returncode == 2 and j["pairs_done"] == 1 and j["games"] == 2, "stopped after 1 pair")
    check(j["interrupted"] and not j["finished"], "an interrupted match says so")
    r = run(base + ["--resume"])
    j = load(out)
    check(r.returncode == 0 and j["games"] == 8 and j["pairs_resumed"] == 1, "resumed to 8 games")
    check(j["finished"] and not j["interrupted"] and sum(j["pentanomial"]) == 4, "resumed result")
    check(not os.path.exists(out + ".tmp"), "no temporary file left")
    # scripts/train's reading of it: the record state.json keeps.
    sys.path.insert(0, os.path.join(REPO, "scripts"))
    import train_loop
    rec = train_loop.parse_match_json(out)
    check(rec["score"] == f"{j['wins'][0]}-{j['wins'][1]}" and rec["pentanomial"] ==
          j["pentanomial"] and "sprt" not in rec, f"scripts/train record {rec}")


def pgn_games(path):
    """Each game's tags of a PGN as a dict."""
    games, tags = [], {}
    with open(path) as f:
        for line in f:
            if line.startswith("["):
                name, value = line[1:].split(" ", 1)
                tags[name] = value.strip().rstrip("]").strip('"')
            elif tags and line.strip() and not line.startswith("["):
                games.append(tags)
                tags = {}
    return games


def test_match_first_mover():
    """Issue 39: "the side moving first (Cho) won N" counted Cho's wins, but Han moves first in
    many suite lines. Cho's wins and the wins of the side to move in each game's start position
    are counted apart, as the PGN's tags (White is Cho, FEN's side field) say."""
    fens = [line.split(" #")[0].strip() for line in
            open(os.path.join(REPO, "data", "openings-janggi.fen"))
            if line.strip() and not line.startswith("#")]
    cho_first = next(f for f in fens if f.split()[1] == "w")
    han_first = next(f for f in fens if f.split()[1] == "b")
    openings = os.path.join(WORK, "first.fen")
    with open(openings, "w") as f:
        f.write(f"# variant: janggi\n{cho_first}\n{han_first}\n")
    pgn, out = os.path.join(WORK, "first.pgn"), os.path.join(WORK, "first.json")
    r = run([MATCH] + engines("good") + ["--nodes", "1", "--games", "8", "--openings", openings,
                                        "--pgn", pgn, "--json", out])
    check(r.returncode == 0, f"first-mover match ran: {r.stderr}")
    games = pgn_games(pgn)
    check(len(games) == 8, f"8 games in the PGN, not {len(games)}")
    cho = sum(g["Result"] == "1-0" for g in games)
    first = sum(g["Result"] == ("1-0" if g["FEN"].split()[1] == "w" else "0-1") for g in games)
    check(sum(g["FEN"].split()[1] == "b" for g in games) == 4, "half the games start Han first")
    check(cho != first, f"games where Cho's wins ({cho}) and the first mover's differ")
    j = load(out)
    check(j.get("cho_wins") == cho, f"cho_wins {j.get('cho_wins')}, the PGN says {cho}")
    check(j.get("first_mover_wins") == first,
          f"first_mover_wins {j.get('first_mover_wins')}, the PGN says {first}")
    want = f"Cho won {cho}, the side that moved first in the start position {first}"
    check(want in r.stdout, f"the summary says '{want}': {r.stdout[-400:]}")


def test_selfplay():
    run_dir, out = os.path.join(WORK, "sp"), os.path.join(WORK, "sp.json")
    base = [SELFPLAY, "--nodes", "30", "--threads", "2", "--hash", "1", "--no-bench",
            "--progress", "1000", "--out", run_dir, "--json", out]
    r = run(base + ["--games", "8"])
    check(r.returncode == 0, f"self-play ran: {r.stderr}")
    first = load(out)
    check(first["games_played"] == 8 and first["games_saved"] == 8, "first part: 8 games")
    # Resumed to 16: a second shard, games of this process apart from the run's.
    r = run(base + ["--games", "16", "--resume"])
    check(r.returncode == 0, f"self-play resumed: {r.stderr}")
    j = load(out)
    check(j["games_played"] == 8 and j["games_done"] == 16 and j["games_saved"] == 16 and
          not j["interrupted"], "resumed: 8 played here, 16 in the run")
    check(sum(j["reasons"].values()) == 8, "end reasons add up to the games of this process")
    check(j["wins"]["cho"] + j["wins"]["han"] <= 8, "wins")
    shards = j["shards"]
    check(len(shards) >= 2, "the resumed run's shards are all listed")
    check(sum(s["games"] for s in shards) == 16 and
          sum(s["positions"] for s in shards) == j["positions_saved"], "shard rows add up")
    for s in shards:
        with open(s["path"], "rb") as f:
            check(hashlib.sha256(f.read()).hexdigest() == s["sha256"], f"sha256 of {s['path']}")
    check(j["bytes_on_disk"] == sum(os.path.getsize(s["path"]) for s in shards), "bytes on disk")
    check(abs(j["bytes_per_position"] - j["bytes_on_disk"] / j["positions_saved"]) < 1e-6,
          "bytes per position")


def test_tune():
    """hansu-tune --json on the self-play folder of test_selfplay: counts agree with the data,
    the inputs' and the header's SHA-256 with the files; --dry-run has no output; an unwritable
    --json is refused before any data is read."""
    data, out = os.path.join(WORK, "sp"), os.path.join(WORK, "tune.json")
    header = os.path.join(WORK, "tuned.h")
    base = [TUNE, data, "--epochs", "2", "--threads", "1", "--valid", "0.25"]
    r = run(base + ["--out", header, "--json", out])
    check(r.returncode == 0, f"hansu-tune ran: {r.stderr}")
    j = load(out)
    shards = sorted(glob.glob(os.path.join(data, "shard-*.h5")))
    check([i["path"] for i in j["inputs"]] == shards, "tune: every input shard listed")
    for i in j["inputs"]:
        with open(i["path"], "rb") as f:
            check(hashlib.sha256(f.read()).hexdigest() == i["sha256"], f"tune: sha256 of {i['path']}")
    check(j["games"] == 16 and j["train_games"] + j["valid_games"] <= 16, "tune: 16 games read")
    check(0 < j["distinct_train_positions"] <= j["train_positions"] <= j["positions_read"],
          "tune: position counts ordered")
    check(j["epochs_run"] == 2 and j["k"] > 0 and j["k_fitted"], "tune: epochs and K")
    with open(header, "rb") as f:
        check(hashlib.sha256(f.read()).hexdigest() == j["out_sha256"], "tune: header sha256")
    check(j["out"] == header, "tune: output path")
    r = run(base + ["--dry-run", "--json", out])
    j = load(out)
    check(r.returncode == 0 and j["out"] is None and j["out_sha256"] is None, "tune: dry run")
    bad = os.path.join(WORK, "no-such-folder", "t.json")
    r = run(base + ["--dry-run", "--json", bad])
    check(r.returncode == 1 and bad in r.stderr and "loaded" not in r.stdout,
          f"tune: unwritable --json refused before loading: {r.stderr}")


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    test_match()
    test_match_resume()
    test_match_first_mover()
    test_selfplay()
    if TUNE:
        test_tune()
    if FAILURES:
        print(f"{len(FAILURES)} checks failed")
        return 1
    print("all JSON output checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
