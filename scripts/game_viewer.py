#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The board viewer of Hansu's games: one self-contained HTML page (CSS, script and games
inlined; nothing fetched from the network) that draws the 9x10 board as SVG and steps through
games (docs/report-viewer.md). Used by scripts/view-pgn (any PGN Hansu writes) and by
scripts/train_report.py (report.html of a training run).

The page never applies a rule: the position after every ply is computed here by Hansu's own
rules core (the `hansu` UCI engine: `position fen F moves M` then `d`, one ply at a time) and
embedded as a list of FENs beside the moves. A move the rules core refuses is an error naming
the file, the game and the ply.

    import game_viewer
    games = game_viewer.read_pgn("games.pgn", group="match")
    with game_viewer.FenEngine("build/engine/hansu") as eng:
        records = [game_viewer.record(g, eng) for g in games]
    html = game_viewer.page("Games", "<p>intro</p>", records)
"""
import html
import json
import os
import re
import subprocess

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_ENGINE = os.path.join(REPO, "build", "engine", "hansu")


class ViewerError(Exception):
    """A PGN that cannot be read or a move the rules core refuses; the message names it."""


# --- PGN ------------------------------------------------------------------------------------
TOKEN = re.compile(r"""\s*(?:
    (?P<tag>\[\s*(?P<name>\w+)\s+"(?P<value>(?:[^"\\]|\\.)*)"\s*\])
  | \{(?P<comment>[^}]*)\}
  | ;(?P<line>[^\n]*)
  | (?P<result>1-0|0-1|1/2-1/2|\*)
  | (?P<number>\d+\.+)
  | (?P<nag>\$\d+)
  | (?P<paren>[()])
  | (?P<move>[a-i](?:10|[1-9])[a-i](?:10|[1-9])|0000|@@@@)
  | (?P<other>\S+))""", re.X)


def unescape_tag(value):
    """A tag value as the PGN standard (8.1.1) escapes it, read back: \\" is a quote and \\\\ a
    backslash; any other backslash stays as written."""
    return re.sub(r'\\([\\"])', r"\1", value)


def parse_pgn(text, source="PGN"):
    """The games of a PGN text: dicts with tags, moves (UCI strings), comments (one per move,
    "" when none), closing (the comment that ends the game) and result. Moves must be in UCI
    form, as Hansu writes them; anything else is a ViewerError naming source and game.
    Comments after the last move: with two or more, the first is the move's and the rest the
    closing one (hansu-selfplay export); a single one is the closing comment unless the other
    moves carry comments too."""
    games, game, depth = [], None, 0

    def start():
        return {"tags": {}, "moves": [], "comments": [], "closing": "", "result": "*",
                "after": []}

    def finish(g):
        after = g.pop("after")
        if g["moves"] and after and (len(after) > 1 or any(g["comments"][:-1])):
            g["comments"][-1] = after.pop(0)
        g["closing"] = " ".join(after)
        games.append(g)
    pos = 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            break
        pos = m.end()
        kind = "tag" if m.group("tag") else m.lastgroup
        if kind == "tag":
            if game is not None and (game["moves"] or game["result"] != "*"):
                finish(game)
                game = None
            game = game or start()
            game["tags"][m.group("name")] = unescape_tag(m.group("value"))
            continue
        if game is None:
            game = start()
        if kind == "paren":
            depth += 1 if m.group("paren") == "(" else -1
        elif depth > 0 or kind in ("number", "nag", "line"):
            pass
        elif kind == "comment":
            text_c = " ".join(m.group("comment").split())
            if game["moves"]:
                game["after"].append(text_c)
        elif kind == "result":
            game["result"] = m.group("result")
            finish(game)
            game = None
        elif kind == "move":
            if game["moves"] and game["after"]:
                game["comments"][-1] = " ".join(game["after"])
            game["after"] = []
            game["moves"].append(m.group("move"))
            game["comments"].append("")
        else:
            raise ViewerError(f"{source}: game {len(games) + 1}: '{m.group('other')[:40]}' is not "
                              "a move in UCI form (Hansu writes moves as e.g. h3e3)")
    if game is not None and (game["moves"] or game["tags"]):
        finish(game)
    return games


def read_pgn(path):
    try:
        with open(path, encoding="utf-8") as f:
            return parse_pgn(f.read(), path)
    except OSError as e:
        raise ViewerError(f"{path}: {e.strerror}")
    except UnicodeDecodeError as e:
        raise ViewerError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})")


# --- positions from the rules core --------------------------------------------------------

class FenEngine:
    """Hansu's UCI engine as the viewer's rules core: the FEN after each ply of a game."""

    def __init__(self, path=None):
        self.path = path or DEFAULT_ENGINE
        try:
            self.proc = subprocess.Popen([self.path], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                         text=True, bufsize=1)
        except OSError as e:
            raise ViewerError(f"engine {self.path}: {e.strerror} (build it: ninja -C build "
                              "hansu, or name one with --engine)")
        self.variant = "janggi"
        self.send("uci")
        self.read_until("uciok")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()

    def send(self, line):
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except OSError:
            raise ViewerError(f"engine {self.path}: stopped (exit {self.proc.poll()})")

    def read_until(self, prefix):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise ViewerError(f"engine {self.path}: stopped (exit {self.proc.poll()})")
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines

    def set_variant(self, variant):
        if variant != self.variant:
            self.send(f"setoption name UCI_Variant value {variant}")
            self.variant = variant

    def position(self, fen, moves=()):
        """The FEN the rules core gives after moves from fen (None: the variant's start);
        ViewerError with its message when it refuses the position or a move."""
        self.send(f"position {'fen ' + fen if fen else 'startpos'}" +
                  (" moves " + " ".join(moves) if moves else ""))
        self.send("d")
        out = self.read_until("Key:")
        errors = [line[len("info string "):] for line in out if line.startswith("info string")]
        if errors:
            raise ViewerError(errors[0])
        return next(line[5:] for line in out if line.startswith("Fen: "))

    def fens(self, fen, moves):
        """The FEN before the first move and after each move (len(moves) + 1 of them); fen
        None is the variant's standard start."""
        out = [self.position(fen)]
        for i, mv in enumerate(moves):
            try:
                out.append(self.position(out[-1], [mv]))
            except ViewerError as e:
                raise ViewerError(f"ply {i + 1} ({mv}): {e}")
        return out


def record(game, engine, group="", iteration=None, source="PGN", index=0):
    """The page's record of one parsed game: its tags, moves, comments and the FEN list from
    the rules core. group names the set it belongs to (e.g. "self-play", "match")."""
    t = game["tags"]
    variant = t.get("Variant", "janggi").lower()
    if variant not in VARIANTS:
        raise ViewerError(f"{source}: game {index + 1}: variant '{variant}' is not one the viewer "
                          "draws (janggi, xiangqi)")
    engine.set_variant(variant)
    fen = t.get("FEN")  # None: the variant's standard start
    try:
        fens = engine.fens(fen, game["moves"])
    except ViewerError as e:
        raise ViewerError(f"{source}: game {index + 1} ({t.get('White', '?')} vs "
                          f"{t.get('Black', '?')}, round {t.get('Round', '?')}): {e}")
    keep = ("Event", "Round", "White", "Black", "Opening", "TimeControl", "GameId", "Date")
    return {"group": group, "iteration": iteration, "variant": variant,
            "tags": {k: t[k] for k in keep if k in t}, "result": game["result"],
            "reason": t.get("Termination", ""), "closing": game["closing"],
            "moves": game["moves"], "comments": game["comments"], "fens": fens}


# --- the page -----------------------------------------------------------------------------
# Per variant: side names, colours, the river, the pieces' shape (janggi: octagons sized by
# rank; xiangqi: discs of one size), hanja and the point values of the rules page (janggi:
# chariot 13, cannon 7, horse 5, elephant 3, guard 3, soldier 2, Han +1.5; xiangqi: none).
VARIANTS = {
    "janggi": {"sides": ["Cho", "Han"], "colours": ["#1b5fb0", "#c0182a"], "river": False,
               "round": False,
               "hanja": [{"K": "楚", "A": "士", "R": "車", "C": "包", "N": "馬", "B": "象",
                          "P": "卒"},
                         {"K": "漢", "A": "士", "R": "車", "C": "包", "N": "馬", "B": "象",
                          "P": "兵"}],
               "points": {"R": 13, "C": 7, "N": 5, "B": 3, "A": 3, "P": 2, "K": 0},
               "bonus": 1.5},
    "xiangqi": {"sides": ["Red", "Black"], "colours": ["#c0182a", "#222222"], "river": True,
                "round": True,
                "hanja": [{"K": "帥", "A": "仕", "R": "俥", "C": "炮", "N": "傌", "B": "相",
                           "P": "兵"},
                          {"K": "將", "A": "士", "R": "車", "C": "砲", "N": "馬", "B": "象",
                           "P": "卒"}],
                "points": None, "bonus": 0},
}

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1200px;
 padding:1em;color:#222;background:#fafafa}
h1,h2,h3{font-weight:600} table{border-collapse:collapse;font-size:.85em;margin:.5em 0}
td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left} th{background:#eee}
pre{background:#f0f0f0;padding:.6em;overflow:auto;font-size:.85em} img{max-width:100%}
code{background:#f0f0f0;padding:0 .2em}
#viewer{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start;border:1px solid #ddd;
 background:#fff;padding:1em;border-radius:6px}
#board-col{flex:0 0 auto} #side-col{flex:1 1 340px;min-width:300px}
#board{width:470px;max-width:100%;height:auto;display:block;user-select:none}
.filters label{display:inline-block;margin:0 .6em .4em 0;font-size:.9em}
.controls{margin:.5em 0} .controls button{min-width:2.6em;font-size:1em;margin-right:.2em}
#game-select{width:100%;margin:.3em 0}
#moves{max-height:300px;overflow:auto;font-family:ui-monospace,monospace;font-size:.9em;
 border:1px solid #ddd;padding:.4em;line-height:1.7}
#moves .num{color:#888;margin-left:.4em} #moves .mv{cursor:pointer;padding:0 .15em;border-radius:3px}
#moves .mv.current{background:#f4c430;font-weight:bold} #moves .cm{color:#777;font-size:.85em}
#fen{font-family:ui-monospace,monospace;font-size:.8em;word-break:break-all}
dl.info{display:grid;grid-template-columns:auto 1fr;gap:.15em .8em;margin:.5em 0;font-size:.9em}
dl.info dt{color:#666} dl.info dd{margin:0}
.piece text{font-family:"Noto Serif CJK KR","Noto Serif CJK SC","Noto Sans CJK KR",
 "Noto Sans CJK SC","WenQuanYi Zen Hei","Batang","SimSun",serif;font-weight:bold;pointer-events:none}
.piece.letters text{font-family:ui-monospace,monospace}
"""

JS = r"""
(function () {
'use strict';
const DATA = JSON.parse(document.getElementById('hansu-games').textContent);
const games = DATA.games, V = DATA.variants;
const S = 50, M = 35, NS = 'http://www.w3.org/2000/svg';
const svg = document.getElementById('board');
const $ = (id) => document.getElementById(id);
const st = {game: -1, ply: 0, flipped: false, hanja: true, timer: null, shown: []};
const FILES = 'abcdefghi';

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}
// Point (file 0..8, rank 0..9; rank 0 = rank 1, Cho's back rank) to SVG coordinates.
function xy(f, r) {
  if (st.flipped) { f = 8 - f; r = 9 - r; }
  return [M + f * S, M + (9 - r) * S];
}
function line(g, f1, r1, f2, r2, w) {
  const [x1, y1] = xy(f1, r1), [x2, y2] = xy(f2, r2);
  el('line', {x1: x1, y1: y1, x2: x2, y2: y2, stroke: '#5a4220', 'stroke-width': w || 1.2}, g);
}
function drawGrid(v) {
  const g = el('g', {id: 'grid'}, svg);
  el('rect', {x: 0, y: 0, width: 2 * M + 8 * S, height: 2 * M + 9 * S, fill: '#e8c37e'}, g);
  for (let r = 0; r < 10; r++) line(g, 0, r, 8, r);
  for (let f = 0; f < 9; f++) {
    if (v.river && f > 0 && f < 8) { line(g, f, 0, f, 4); line(g, f, 5, f, 9); }
    else line(g, f, 0, f, 9);
  }
  // Both palaces' diagonals: d1-f3, f1-d3, d8-f10, f8-d10.
  line(g, 3, 0, 5, 2); line(g, 5, 0, 3, 2); line(g, 3, 7, 5, 9); line(g, 5, 7, 3, 9);
  if (v.river) {
    const [, y] = xy(0, 4.5);
    const t = el('text', {x: M + 4 * S, y: y + 7, 'text-anchor': 'middle', 'font-size': 22,
      fill: '#5a4220', id: 'river'}, g);
    t.textContent = '楚 河          漢 界';
  }
  const labels = el('g', {'font-size': 11, fill: '#5a4220'}, g);
  for (let f = 0; f < 9; f++) {
    const [x, y] = xy(f, st.flipped ? 9 : 0);
    el('text', {x: x, y: y + 29, 'text-anchor': 'middle'}, labels).textContent = FILES[f];
  }
  for (let r = 0; r < 10; r++) {
    const [x, y] = xy(st.flipped ? 8 : 0, r);
    el('text', {x: x - 27, y: y + 4, 'text-anchor': 'middle'}, labels).textContent = r + 1;
  }
}
function parseBoard(fen) {
  const out = [];
  const ranks = fen.split(' ')[0].split('/');
  ranks.forEach((row, i) => {
    const r = 9 - i;
    let f = 0;
    for (let k = 0; k < row.length; k++) {
      const c = row[k];
      if (c >= '0' && c <= '9') {
        let n = c;
        if (row[k + 1] >= '0' && row[k + 1] <= '9') n += row[++k];
        f += parseInt(n, 10);
      } else { out.push({f: f, r: r, c: c}); f++; }
    }
  });
  return out;
}
function squareName(f, r) { return FILES[f] + (r + 1); }
function parseSquare(s) { return [FILES.indexOf(s[0]), parseInt(s.slice(1), 10) - 1]; }
function splitMove(m) {
  const sq = /^([a-i][0-9]+)([a-i][0-9]+)$/.exec(m);
  return sq ? [sq[1], sq[2]] : null;
}
function octagon(x, y, rad) {
  const p = [];
  for (let i = 0; i < 8; i++) {
    const a = Math.PI / 8 + i * Math.PI / 4;
    p.push((x + rad * Math.cos(a)).toFixed(1) + ',' + (y + rad * Math.sin(a)).toFixed(1));
  }
  return p.join(' ');
}
const SIZE = {K: 22, R: 19, C: 19, N: 19, B: 19, A: 15, P: 15};
function drawPieces(g) {
  const v = V[g.variant];
  const old = $('pieces'); if (old) old.remove();
  const layer = el('g', {id: 'pieces'}, svg);
  const fen = g.fens[st.ply];
  if (st.ply > 0) {
    const sq = splitMove(g.moves[st.ply - 1]);
    if (sq) for (const s of sq) {
      const [f, r] = parseSquare(s), [x, y] = xy(f, r);
      el('rect', {x: x - 23, y: y - 23, width: 46, height: 46, fill: 'none', stroke: '#2a9d3a',
        'stroke-width': 3, 'stroke-dasharray': s === sq[0] ? '5,4' : '', class: 'lastmove'}, layer);
    }
  }
  st.shown = [];
  for (const p of parseBoard(fen)) {
    const up = p.c.toUpperCase(), side = p.c === up ? 0 : 1, [x, y] = xy(p.f, p.r);
    const rad = v.round ? 20 : SIZE[up] || 17;
    const pg = el('g', {class: 'piece' + (st.hanja ? '' : ' letters'),
      'data-square': squareName(p.f, p.r), 'data-piece': p.c}, layer);
    const face = {fill: '#fdf6e3', stroke: v.colours[side], 'stroke-width': 2.2};
    if (v.round) el('circle', Object.assign({cx: x, cy: y, r: rad}, face), pg);
    else el('polygon', Object.assign({points: octagon(x, y, rad)}, face), pg);
    const t = el('text', {x: x, y: y + rad * 0.36, 'text-anchor': 'middle',
      'font-size': st.hanja ? rad * 1.05 : rad * 0.95, fill: v.colours[side]}, pg);
    t.textContent = st.hanja ? (v.hanja[side][up] || p.c) : p.c;
    st.shown.push(squareName(p.f, p.r) + '=' + p.c);
  }
}
function points(g, fen) {
  const v = V[g.variant];
  if (!v.points) return null;
  const s = [0, v.bonus];
  for (const p of parseBoard(fen)) {
    const up = p.c.toUpperCase();
    s[p.c === up ? 0 : 1] += v.points[up] || 0;
  }
  return s;
}
function resultText(g) {
  const v = V[g.variant];
  const w = g.result === '1-0' ? v.sides[0] : g.result === '0-1' ? v.sides[1] : null;
  let t = w ? w + ' wins (' + g.result + ')' : g.result === '1/2-1/2' ? 'drawn (1/2-1/2)'
                                                                  : g.result;
  if (g.reason) t += ' by ' + g.reason;
  if (g.closing) t += ': ' + g.closing;
  return t;
}
function buildMoves(g) {
  const box = $('moves');
  box.textContent = '';
  g.moves.forEach((m, i) => {
    if (i % 2 === 0) {
      const n = document.createElement('span');
      n.className = 'num'; n.textContent = (i / 2 + 1) + '.';
      box.appendChild(n);
    }
    const s = document.createElement('span');
    s.className = 'mv'; s.dataset.ply = i + 1; s.textContent = m;
    s.title = g.comments[i] || '';
    s.addEventListener('click', () => go(i + 1));
    box.appendChild(s);
    box.appendChild(document.createTextNode(' '));
  });
}
function render() {
  const g = games[st.game];
  if (!g) return;
  const v = V[g.variant];
  svg.textContent = '';
  drawGrid(v);
  drawPieces(g);
  const fen = g.fens[st.ply];
  $('ply').textContent = st.ply + ' / ' + g.moves.length;
  $('fen').textContent = fen;
  const stm = fen.split(' ')[1] === 'w' ? 0 : 1;
  $('tomove').textContent = st.ply === g.moves.length ? '—' : v.sides[stm];
  // Points only where the variant counts them (janggi); the row is hidden for xiangqi.
  const pts = points(g, fen);
  $('points').textContent = pts ? v.sides[0] + ' ' + pts[0] + ' : ' + v.sides[1] + ' ' + pts[1]
                                : '';
  $('points').hidden = $('points-label').hidden = !pts;
  $('comment').textContent = st.ply > 0 ? (g.comments[st.ply - 1] || '') : '';
  $('lastmove').textContent = st.ply > 0 ? g.moves[st.ply - 1] : '';
  for (const e of document.querySelectorAll('#moves .mv')) {
    const cur = +e.dataset.ply === st.ply;
    e.classList.toggle('current', cur);
    if (cur) { e.setAttribute('aria-current', 'step'); e.scrollIntoView({block: 'nearest'}); }
    else e.removeAttribute('aria-current');
  }
}
function selectGame(i) {
  stop();
  st.game = i; st.ply = 0;
  const g = games[i];
  if (!g) return;
  const v = V[g.variant], t = g.tags;
  $('players').textContent = v.sides[0] + ': ' + (t.White || '?') + ' · ' + v.sides[1] + ': ' +
    (t.Black || '?');
  $('event').textContent = (t.Event || '') + (t.Round ? ', round ' + t.Round : '') +
    (t.GameId ? ', game ' + t.GameId : '');
  $('opening').textContent = t.Opening || '';
  $('result').textContent = resultText(g);
  $('set').textContent = g.group + (g.iteration != null ? ' (iteration ' + g.iteration + ')' : '');
  buildMoves(g);
  $('game-select').value = String(i);
  render();
}
function go(ply) {
  const g = games[st.game];
  if (!g) return;
  st.ply = Math.max(0, Math.min(g.moves.length, ply));
  render();
}
function stop() {
  if (st.timer) { clearInterval(st.timer); st.timer = null; }
  $('play').textContent = 'play';
}
function play() {
  if (st.timer) { stop(); return; }
  const g = games[st.game];
  if (!g) return;
  if (st.ply === g.moves.length) go(0);
  $('play').textContent = 'pause';
  st.timer = setInterval(() => {
    if (st.ply >= games[st.game].moves.length) stop(); else go(st.ply + 1);
  }, +$('speed').value);
}
// Filters: iteration, set, pairing (formations), end reason.
function distinct(key) {
  const seen = [];
  for (const g of games) { const v = key(g); if (v != null && v !== '' && !seen.includes(v)) seen.push(v); }
  return seen;
}
const FILTERS = [
  ['f-iter', (g) => g.iteration == null ? null : String(g.iteration)],
  ['f-set', (g) => g.group],
  ['f-pairing', (g) => g.tags.Opening || null],
  ['f-reason', (g) => g.reason || null],
];
function fillFilters() {
  for (const [id, key] of FILTERS) {
    const sel = $(id), vals = distinct(key);
    if (id === 'f-iter') vals.sort((a, b) => a - b);
    for (const v of vals) {
      const o = document.createElement('option'); o.value = v; o.textContent = v; sel.appendChild(o);
    }
    sel.parentElement.style.display = vals.length > 0 ? '' : 'none';
    sel.addEventListener('change', applyFilters);
  }
}
function applyFilters() {
  const sel = $('game-select');
  sel.textContent = '';
  let first = -1;
  games.forEach((g, i) => {
    for (const [id, key] of FILTERS) if ($(id).value !== '' && key(g) !== $(id).value) return;
    const o = document.createElement('option');
    o.value = String(i);
    const t = g.tags;
    o.textContent = (g.iteration != null ? 'it ' + g.iteration + ' · ' : '') + g.group + ' · ' +
      (t.GameId ? 'game ' + t.GameId : 'round ' + (t.Round || '?')) + ' · ' + (t.White || '?') +
      ' vs ' + (t.Black || '?') + ' · ' + g.result + ' ' + g.reason + ' · ' + g.moves.length + ' plies';
    sel.appendChild(o);
    if (first < 0) first = i;
  });
  $('count').textContent = sel.options.length + ' of ' + games.length + ' games';
  if (first >= 0 && !Array.from(sel.options).some((o) => +o.value === st.game)) selectGame(first);
  else if (first >= 0) sel.value = String(st.game);
}
function init() {
  if (!games.length) { $('viewer').textContent = 'No games to show.'; return; }
  fillFilters();
  $('game-select').addEventListener('change', (e) => selectGame(+e.target.value));
  $('first').addEventListener('click', () => { stop(); go(0); });
  $('back').addEventListener('click', () => { stop(); go(st.ply - 1); });
  $('forward').addEventListener('click', () => { stop(); go(st.ply + 1); });
  $('last').addEventListener('click', () => { stop(); go(Infinity); });
  $('play').addEventListener('click', play);
  $('flip').addEventListener('click', () => { st.flipped = !st.flipped; render(); });
  $('hanja').addEventListener('change', (e) => { st.hanja = e.target.checked; render(); });
  document.addEventListener('keydown', (e) => {
    if (e.target.tagName === 'INPUT' || e.altKey || e.ctrlKey || e.metaKey) return;
    const keys = {ArrowLeft: () => go(st.ply - 1), ArrowRight: () => go(st.ply + 1),
      Home: () => go(0), End: () => go(Infinity), ' ': play, f: () => $('flip').click()};
    const k = keys[e.key];
    // In the game list and the filters, Up/Down and space keep their own meaning.
    if (!k || (e.target.tagName === 'SELECT' && e.key === ' ')) return;
    if (e.key !== ' ') stop();
    e.preventDefault(); k();
  });
  applyFilters();
  selectGame(+$('game-select').value);
}
// For programs (the browser test): the shown game and ply, and the pieces drawn.
window.hansuViewer = {select: selectGame, go: go,
  state: () => ({game: st.game, ply: st.ply, pieces: st.shown.slice()})};
init();
})();
"""

VIEWER_HTML = """<section id="viewer-section">
<div id="viewer">
 <div id="board-col">
  <svg id="board" viewBox="0 0 470 520" xmlns="http://www.w3.org/2000/svg" role="img"
   aria-label="board"></svg>
  <div class="controls">
   <button id="first" title="first (Home)">|◀</button><button id="back" title="back (←)">◀</button
   ><button id="forward" title="forward (→)">▶</button><button id="last" title="last (End)">▶|</button>
   <button id="play" title="auto-play (space)">play</button>
   <select id="speed" title="auto-play speed"><option value="1500">slow</option>
    <option value="700" selected>normal</option><option value="250">fast</option></select>
   <button id="flip" title="flip the board (f)">flip</button>
   <label><input type="checkbox" id="hanja" checked> hanja</label>
  </div>
 </div>
 <div id="side-col">
  <div class="filters">
   <label>iteration <select id="f-iter"><option value="">all</option></select></label>
   <label>set <select id="f-set"><option value="">all</option></select></label>
   <label>pairing <select id="f-pairing"><option value="">all</option></select></label>
   <label>end reason <select id="f-reason"><option value="">all</option></select></label>
   <span id="count"></span>
  </div>
  <select id="game-select" size="6"></select>
  <dl class="info">
   <dt>set</dt><dd id="set"></dd>
   <dt>players</dt><dd id="players"></dd>
   <dt>event</dt><dd id="event"></dd>
   <dt>opening</dt><dd id="opening"></dd>
   <dt>result</dt><dd id="result"></dd>
   <dt>ply</dt><dd id="ply"></dd>
   <dt>to move</dt><dd id="tomove"></dd>
   <dt>last move</dt><dd><span id="lastmove"></span> <span id="comment"></span></dd>
   <dt id="points-label">points</dt><dd id="points"></dd>
   <dt>FEN</dt><dd id="fen"></dd>
  </dl>
  <div id="moves"></div>
 </div>
</div>
</section>"""


def script_json(value):
    """value as JSON that is safe inside a <script> block of a page: <, > and & written as
    \\u003c, \\u003e, \\u0026, so that no text a name holds ("</script>", "<!--", "<script")
    can end the block or switch the HTML parser into a state where later scripts become data.
    JSON.parse reads it back unchanged. Every JSON a page embeds goes through here."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def page(title, body_html, records, viewer_intro=""):
    """The whole page: title, body_html (already HTML) and the viewer over records."""
    data = script_json({"variants": VARIANTS, "games": records})
    # The page fetches nothing: a policy that forbids any load keeps it so in the browser.
    csp = ("default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
           "script-src 'unsafe-inline'")
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{csp}">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html.escape(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
            f"{body_html}\n{viewer_intro}\n{VIEWER_HTML}\n"
            f'<script type="application/json" id="hansu-games">{data}</script>\n'
            f"<script>{JS}</script>\n</body>\n</html>\n")


def write_atomic(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


# --- a small Markdown subset, for report.md's content -------------------------------------
def inline(text):
    out = html.escape(text, quote=False)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", out)
    return re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", r'<a href="\2">\1</a>', out)


def markdown_html(lines, image):
    """HTML of the Markdown that scripts/train_report.py writes: headings, paragraphs, lists,
    tables, code blocks and image lines. image(name) gives an image's src (a data: URI)."""
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            out.append("<pre>" + html.escape("\n".join(lines[i + 1:j])) + "</pre>")
            i = j + 1
            continue
        m = re.match(r"(#{1,6}) (.*)", line)
        if m:
            n = len(m.group(1))
            out.append(f"<h{n}>{inline(m.group(2))}</h{n}>")
        elif line.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                rows.append([c.strip() for c in lines[i].strip().strip("|").split("|")])
                i += 1
            body = [r for r in rows[1:] if not all(re.fullmatch(r":?-+:?", c) for c in r)]
            out.append("<table><tr>" + "".join(f"<th>{inline(c)}</th>" for c in rows[0]) +
                       "</tr>" + "".join("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in r) +
                                         "</tr>" for r in body) + "</table>")
            continue
        elif re.fullmatch(r"!\[([^\]]*)\]\(([^)]+)\)", line.strip()):
            alt, name = re.fullmatch(r"!\[([^\]]*)\]\(([^)]+)\)", line.strip()).groups()
            src = image(name)
            out.append(f'<p><img alt="{html.escape(alt)}" src="{src}"></p>' if src else
                       f"<p>(plot {html.escape(name)} not drawn)</p>")
        elif line.startswith("- "):
            items = []
            while i < len(lines) and lines[i].startswith("- "):
                items.append(f"<li>{inline(lines[i][2:])}</li>")
                i += 1
            out.append("<ul>" + "".join(items) + "</ul>")
            continue
        elif line.strip():
            para = [line]
            while (i + 1 < len(lines) and lines[i + 1].strip() and
                   not re.match(r"(#|\||```|- |!\[)", lines[i + 1])):
                i += 1
                para.append(lines[i])
            out.append("<p>" + inline(" ".join(para)) + "</p>")
        i += 1
    return "\n".join(out)
