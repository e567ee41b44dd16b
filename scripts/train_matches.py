# SPDX-License-Identifier: MIT
"""scripts/train's match steps, a part of the loop's Run (scripts/train_loop.py): the SPRTs and
their verdict, the external gate's matches against Fairy-Stockfish (scripts/external_gate.py
holds its pure rules), the fixed-length Elo matches against the first engine and the end-of-run
gauntlet, all played by hansu-match, and its --json result read into a record. It imports
train_config, never the loop."""
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import external_gate  # noqa: E402
from train_config import (  # noqa: E402
    ELO_SEED_BASE, GAUNTLET_SEED_BASE, REPO, TrainError, check_external_engine, elo_nodes,
    eval_of, openings_flags, variant_flags, variant_of)


class MatchSteps:
    """Run's SPRT, external gate, Elo and gauntlet matches (mixed into train_loop.Run)."""

    def play(self, folder, name, engines, limit, games, seed, event, kind, sprt=None,
             book=None):
        """Plays a match with hansu-match: engines are the two engines' --engine fields (the
        first is scored), limit the flags of the limit (e.g. ["--nodes", "800"]). Writes
        folder/name.{pgn,json,txt}, resumes a match stopped half-way, and returns the parsed
        result. book: (openings flags, random plies, extra flags) of a match not played with
        [match]'s (the external gate's); default match.openings, match.random_plies and the
        kind's extra flags."""
        c = self.config["match"]
        pgn = os.path.join(folder, f"{name}.pgn")
        argv = self.launcher + [self.match_tool]  # [cluster]: the pairs spread over the ranks
        for fields in engines:
            argv += ["--engine"] + fields
        if book is None:
            book = (openings_flags(self.config, "match"), c["random_plies"],
                    c["extra"] if kind != "gauntlet" else self.config["gauntlet"]["extra"])
        argv += limit + ["--games", str(games), "--concurrency", str(self.threads),
                         "--pgn", pgn, "--seed", str(seed),
                         "--random-plies", str(book[1]), "--event", event]
        argv += variant_flags(self.config) + book[0] + book[2]
        if sprt:
            argv += ["--sprt"] + sprt.split()
        result = os.path.join(folder, f"{name}.json")
        argv += ["--json", result]
        if os.path.exists(pgn + ".state"):
            argv.append("--resume")
        label = " vs ".join(f[1].removeprefix("name=") for f in engines)
        self.run_step(f"match {label}", argv, os.path.join(folder, f"{name}.txt"), kind=kind)
        return parse_match_json(result)

    def hansu(self, engine):
        """hansu-match's --engine fields of (build folder, name[, net]): with a net (a .nnue
        file) EvalFile, then Use NNUE (the engine refuses Use NNUE while no net is loaded);
        without, the classical evaluation, named even where a net is compiled in."""
        net = engine[2] if len(engine) > 2 else ""
        fields = [f"cmd={os.path.join(engine[0], 'engine', 'hansu')}", f"name={engine[1]}"]
        return fields + ([f"option.EvalFile={net}", "option.Use NNUE=true"] if net else
                         ["option.Use NNUE=false"])

    def match(self, k, name, engine, opponent, games, sprt, seed=None):
        """Plays engine (candidate side) against opponent at match.nodes with an SPRT; returns
        the parsed summary. The openings come from seed (default: the iteration's,
        run.seed * 1000 + k)."""
        seed = self.config["run"]["seed"] * 1000 + k if seed is None else seed
        return self.play(self.iter_dir(k), name, [self.hansu(engine), self.hansu(opponent)],
                         ["--nodes", str(self.config["match"]["nodes"])], games, seed,
                         f"train iteration {k}: {name}", "sprt", sprt)

    def elo_match(self, k, engine, first):
        """The fixed-length match of an accepted candidate against the first engine: all
        match.elo_games games (no SPRT), at elo_nodes(), openings from ELO_SEED_BASE +
        run.seed * 1000 (the same for every candidate, used by no decision)."""
        c = self.config["match"]
        nodes, seed = elo_nodes(self.config), ELO_SEED_BASE + self.config["run"]["seed"] * 1000
        result = self.play(self.iter_dir(k), "vs-first", [self.hansu(engine), self.hansu(first)],
                           ["--nodes", str(nodes)], c["elo_games"], seed,
                           f"train iteration {k}: {engine[1]} vs the first engine", "elo")
        result.update(nodes=nodes, seed=seed, fixed_length=True)
        return result


    def decide(self, k, record, candidate, current):
        """Plays candidate against current (engines as hansu() takes them) with an SPRT, kept in
        the record (not replayed on a resume), then the verdict (the SPRTs, then the external
        gate for a candidate that passed them); logs and returns it."""
        if "match" not in record:
            record["match"] = self.match(k, "match", candidate, current,
                                         self.config["match"]["games"],
                                         self.config["match"]["sprt"])
            self.save_state()
        result = record["match"]
        accepted = self.verdict(k, record, candidate, current)
        gate = accepted and self.external_gate(k, record, candidate, current)
        record["accepted"] = gate
        word = ("ACCEPTED" if gate else "rejected by the external gate" if accepted
                else "rejected")
        self.log(f"iteration {k}: candidate {candidate[1]} vs {current[1]}: score "
                 f"{result.get('score')}, nElo {result.get('nelo')}, SPRT {result.get('sprt')}"
                 f" -> {word}")
        return gate

    # --- the external gate (scripts/external_gate.py) ------------------------------------
    def external_games(self):
        """The game settings of today's external matches (external_gate.game_settings), or None
        when the gate is off (external.enabled = false, or a run from before the section)."""
        x = self.config.get("external")
        if not x or not x["enabled"]:
            return None
        engine = shutil.which(x["engine"])
        if engine is None:  # main() refuses this before any work; a run edited since
            check_external_engine(self.config)
        return external_gate.game_settings(x, engine, variant_of(self.config),
                                           self.config["run"]["seed"])

    def external_gate(self, k, record, candidate, current):
        """After the SPRTs: True when the candidate does not lose beyond chance against the
        external engine, compared with the current engine on the same openings and seed
        (external_gate.decide); True at once when the gate is off. The candidate's match is kept
        in the record (external), the current's once per engine in state.json (external_figure),
        the verdict as external_gate; on a resume a finished match is not played again and a
        half-played one resumes from its state file. With external.label_nodes both matches'
        games are labelled for later candidates (train_labelled.py)."""
        games = self.external_games()
        if games is None:
            return True
        x, tag = self.config["external"], external_gate.digest(games)
        base = self.external_figure(current, games, tag)
        if record.get("external", {}).get("digest") != tag:
            record["external"] = self.external_match(self.iter_dir(k), f"external-{tag}",
                                                     candidate, games, tag)
            self.save_state()
        self.external_audit(record["external"], candidate)
        self.label_match(base, current)  # external.label_nodes: both matches become data
        self.label_match(record["external"], candidate)
        verdict = external_gate.decide(record["external"]["pentanomial"], base["pentanomial"],
                                       x["confidence"], x["margin"])
        verdict.update(current=current[1], digest=tag)
        record["external_gate"] = verdict
        if verdict["passed"]:  # the next gate's figure of the current engine, not played again
            self.state["external"]["figures"][tag][candidate[1]] = record["external"]
        self.save_state()
        e = record["external"]
        self.log(f"iteration {k}: external gate: {candidate[1]} vs {x['name']} score "
                 f"{e['score']} ({verdict['candidate_score']:.3f} a game, nElo {e['nelo']} ± "
                 f"{e['nelo_error']}), {current[1]} {base['score']} "
                 f"({verdict['current_score']:.3f}); difference {verdict['difference']:+.3f}, "
                 f"bound -{verdict['margin'] + verdict['bound']:.3f} -> "
                 f"{'passed' if verdict['passed'] else 'REJECTED'}")
        return verdict["passed"]

    def external_figure(self, engine, games, tag):
        """The current engine's external match under game settings tag: kept in state.json
        (external.figures[tag][name]), else played once in RUN/external/NAME-TAG.*."""
        ext = self.state.setdefault("external", {})
        figures = ext.setdefault("figures", {}).setdefault(tag, {})
        if engine[1] not in figures:
            figures[engine[1]] = self.external_match(os.path.join(self.folder, "external"),
                                                     f"{engine[1]}-{tag}", engine, games, tag)
            self.save_state()
        self.external_audit(figures[engine[1]], engine)
        return figures[engine[1]]

    def external_match(self, folder, name, engine, games, tag):
        """engine (as hansu() takes them) at external.hansu_nodes against external.engine at
        external.engine_nodes, each a limit of its own (fixed nodes: the games do not depend on
        the machine's load), all external.games games, --move-info (each move's score and
        depth, for the audit and match-profile), files folder/name.{pgn,json,txt}."""
        x = self.config["external"]
        os.makedirs(folder, exist_ok=True)
        book = (external_gate.openings_flags(x["openings"], games["variant"], REPO),
                x["random_plies"], ["--move-info"] + x["extra"])
        r = self.play(folder, name, [
            self.hansu(engine) + [f"nodes={x['hansu_nodes']}"],
            [f"cmd={games['engine']}", f"name={x['name']}", f"nodes={x['engine_nodes']}"]
            + x["options"]], [], x["games"], games["seed"],
            f"train external gate: {engine[1]} vs {x['name']}", "external", book=book)
        r.update(engine=engine[1], digest=tag, settings=games,
                 pgn=os.path.join(folder, f"{name}.pgn"))
        return r

    def external_audit(self, figure, engine):
        """scripts/eval-audit on an external match's PGN (external.audit): NAME-audit.json and
        .md beside it, the summary in the figure (audit: the net the engine played with, or
        its classical evaluation, and Fairy-Stockfish's column when the engine is one); a failed
        audit is a warning kept as audit.error, never a verdict."""
        x = self.config["external"]
        if not x["audit"] or "audit" in figure:
            return
        net = engine[2] if len(engine) > 2 else ""
        column = os.path.splitext(os.path.basename(net))[0] if net else "classical"
        while net and column in ("net", "classical", "fsf"):
            column += "'"  # eval-audit's name for a file named like a column
        out = figure["pgn"][:-len(".pgn")] + "-audit"
        program = figure["settings"]["engine"]
        fsf = (["--fsf", program] if "fairy-stockfish" in os.path.basename(program).lower()
               else ["--no-fsf"])
        argv = [sys.executable, os.path.join(REPO, "scripts", "eval-audit"), figure["pgn"],
                "--hansu-name", engine[1], "--engine-cmd",
                os.path.join(engine[0], "engine", "hansu"), "--json", out + ".json",
                "--md", out + ".md"] + (["--evalfile", net] if net else []) + fsf + x[
                    "audit_flags"]
        try:
            self.run_step("audit", argv, out + ".log")
            figure["audit"] = external_gate.audit_summary(out + ".json", column)
        except (TrainError, OSError, ValueError, KeyError, TypeError) as e:
            figure["audit"] = {"error": str(e)}
            self.log(f"warning: the evaluation audit of {figure['pgn']} failed: {e}")
        self.save_state()

    def verdict(self, k, record, candidate, current):
        """True when the SPRT accepted H1 and, with match.confirm, a second SPRT against the
        same engine with openings from a seed of its own accepted H1 too: a candidate no
        better than elo0 passes both with probability at most alpha^2 (docs/tuning.md)."""
        c = self.config["match"]
        if record["match"].get("sprt") != "H1 accepted":
            return False
        if not c.get("confirm", False):
            return True
        if "confirm" not in record:
            seed = 1_000_000_000 + self.config["run"]["seed"] * 1000 + k
            record["confirm"] = self.match(k, "confirm", candidate, current, c["games"],
                                           c["sprt"], seed=seed)
            self.save_state()
        self.log(f"iteration {k}: confirming SPRT: score {record['confirm'].get('score')}, "
                 f"nElo {record['confirm'].get('nelo')}, SPRT {record['confirm'].get('sprt')}")
        return record["confirm"].get("sprt") == "H1 accepted"

    def measure_vs_first(self, k, candidate, first, record):
        """An accepted candidate's fixed-length match against the first engine (engines as
        hansu() takes them), once: kept in the record as elo_vs_first."""
        if "elo_vs_first" in record or not self.config["match"]["elo_games"]:
            return
        record["elo_vs_first"] = self.elo_match(k, candidate, first)
        e = record["elo_vs_first"]
        self.log(f"iteration {k}: {candidate[1]} vs {first[1]} (first engine), "
                 f"{e['games']} games at {e['nodes']} nodes: Elo {e['elo']} ± "
                 f"{e['elo_error']}, nElo {e['nelo']} ± {e['nelo_error']}")
        self.save_state()


    def gauntlet(self):
        """The end of the run: the final engine (the last accepted, or the first when none
        was) and, with gauntlet.first, the first engine play gauntlet.games each against
        gauntlet.engine (Fairy-Stockfish) at gauntlet.tc, openings from GAUNTLET_SEED_BASE +
        run.seed * 1000. Kept in state.json's gauntlet; a finished match is not played again,
        a half-played one resumes. A missing engine or a failed match is logged and recorded,
        and the run still ends normally."""
        g = self.config.get("gauntlet")
        if g is None or not g["enabled"]:
            why = ("gauntlet.enabled = false" if g is not None
                   else "the run's settings are from before the gauntlet")
            self.state["gauntlet"] = {"skipped": why}
            self.log(f"gauntlet skipped: {why}")
            return
        engine = shutil.which(g["engine"])
        if engine is None:
            why = (f"{g['engine']} (gauntlet.engine) not found or not executable; install "
                   "Fairy-Stockfish (Debian package fairy-stockfish) or set gauntlet.engine")
            self.state["gauntlet"] = {"skipped": why}
            self.log(f"gauntlet skipped: {why}")
            return
        done = self.state.get("gauntlet", {}).get("results", {})
        state = self.state["gauntlet"] = {"opponent": g["name"], "engine": engine,
                                          "tc": g["tc"], "games": g["games"], "results": done}
        final, first = self.state["current"], self.state["first"]
        players = [final] + ([first] if g["first"] and first["name"] != final["name"] else [])
        seed = GAUNTLET_SEED_BASE + self.config["run"]["seed"] * 1000
        folder = os.path.join(self.folder, "gauntlet")
        os.makedirs(folder, exist_ok=True)
        for player in players:
            if player["name"] in done:
                continue
            nnue = eval_of(self.config) == "nnue"
            build = self.engine_build() if nnue else self.build(player["header"])
            self.match_tool = os.path.join(build, "selfplay", "match", "hansu-match")
            try:
                r = self.play(folder, player["name"], [
                    self.hansu((build, player["name"], player.get("net", ""))),
                    [f"cmd={engine}", f"name={g['name']}"] + g["options"]],
                    ["--tc", g["tc"]], g["games"], seed,
                    f"train gauntlet: {player['name']} vs {g['name']}, {g['tc']}", "gauntlet")
            except TrainError as e:
                state["error"] = str(e)
                self.log(f"warning: gauntlet stopped: {e}")
                return
            r.update(tc=g["tc"], seed=seed, opponent=g["name"],
                     role="final" if player is final else "first")
            done[player["name"]] = r
            self.save_state()
            self.log(f"gauntlet: {player['name']} vs {g['name']} at {g['tc']}, {r['games']} "
                     f"games: score {r['score']}, Elo {r['elo']} ± {r['elo_error']}, "
                     f"nElo {r['nelo']} ± {r['nelo_error']}")




def parse_match_json(path):
    """Reads hansu-match's --json result (docs/json-outputs.md) into the record kept in
    state.json: the score, Elo, nElo and LOS as the summary prints them (one decimal; "inf" or
    "-inf" where not finite), the pentanomial counts, the SPRT verdict and wins by end reason."""
    try:
        with open(path) as f:
            r = json.load(f)
        wins = r["wins"]
        r["games"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise TrainError(f"no match result in {path} ({e})")
    draws = r.get("draws", 0)  # xiangqi; janggi has none (and results from before the field)
    lead = "inf" if wins[0] > wins[1] else "-inf" if wins[0] < wins[1] else "nan"

    def text(v, scale=1.0):
        return lead if v is None else f"{v * scale:.1f}"
    score = f"{wins[0]}-{wins[1]}" if not draws else f"{wins[0]}-{draws}-{wins[1]}"
    out = {"games": r["games"], "score": score, "wins": float(wins[0]), "losses": float(wins[1]),
           "elo": text(r["elo"]), "elo_error": text(r["elo_error"]), "nelo": text(r["nelo"]),
           "nelo_error": text(r["nelo_error"]), "los": text(r["los"], 100.0),
           "pentanomial": r["pentanomial"]}
    if r.get("sprt"):
        verdict = {"continue": "continue (no bound crossed)", "H0": "H0 accepted",
                   "H1": "H1 accepted"}
        out["sprt"] = verdict[r["sprt"]["result"]]
        llr = r["sprt"]["llr"]  # null when not finite (every pair scored alike)
        out["llr"] = (round(llr, 3) if llr is not None else
                      {"H1": "inf", "H0": "-inf"}.get(r["sprt"]["result"], "nan"))
    out["wins_by_reason"] = r["reasons"]
    return out
