// SPDX-License-Identifier: MIT
// The board viewer of Hansu's games (docs/report-viewer.md): draws the FENs that
// scripts/game_viewer.py embeds as JSON (id hansu-games), steps through the games, filters them.
// Inlined into every page by scripts/game_viewer.py; checked by `node --check` (tests/viewer.cmake).
(function () {
'use strict';
// The games: the JSON as written, or on a large page gzip-compressed JSON in base64
// (data-encoding="gzip-base64", game_viewer.py's page()), unpacked by the browser's own
// DecompressionStream; the viewer starts once they are read.
const NODE = document.getElementById('hansu-games');
let games = [], V = {};
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
function unpack(node) {
  if (node.dataset.encoding !== 'gzip-base64') return Promise.resolve(node.textContent);
  const bin = atob(node.textContent.trim()), bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).text();
}
// For programs (the browser test): the shown game and ply, the pieces drawn, the games' records,
// and `ready`, a promise kept once the games are read and the first one shown.
const ready = unpack(NODE).then((text) => {
  const data = JSON.parse(text);
  games = data.games; V = data.variants;
  init();
}, (e) => { $('viewer').textContent = 'The games could not be read: ' + e; throw e; });
window.hansuViewer = {select: selectGame, go: go, games: () => games, ready: ready,
  state: () => ({game: st.game, ply: st.ply, pieces: st.shown.slice()})};
})();
