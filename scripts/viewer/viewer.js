// SPDX-License-Identifier: MIT
// The board viewer of Hansu's games (docs/report-viewer.md): draws the FENs that
// scripts/game_viewer.py embeds as JSON (id hansu-games), steps through the games, filters them.
// Inlined into every page by scripts/game_viewer.py after board.js, its drawing; checked by `node --check` (tests/viewer.cmake).
(function () {
'use strict';
// The games: the JSON as written, or on a large page gzip-compressed JSON in base64
// (data-encoding="gzip-base64", game_viewer.py's page()), unpacked by the browser's own
// DecompressionStream; the viewer starts once they are read.
const NODE = document.getElementById('hansu-games');
let games = [], V = {};
const B = window.HansuBoard;  // the drawing, shared with the play page (board.js)
const svg = document.getElementById('board');
const $ = (id) => document.getElementById(id);
const st = {game: -1, ply: 0, flipped: false, hanja: true, timer: null, shown: []};

function drawBoard(g) {
  st.shown = B.draw(svg, V[g.variant], g.fens[st.ply], {flipped: st.flipped, hanja: st.hanja,
    last: st.ply > 0 ? g.moves[st.ply - 1] : null});
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
  drawBoard(g);
  const fen = g.fens[st.ply];
  $('ply').textContent = st.ply + ' / ' + g.moves.length;
  $('fen').textContent = fen;
  const stm = fen.split(' ')[1] === 'w' ? 0 : 1;
  $('tomove').textContent = st.ply === g.moves.length ? '—' : v.sides[stm];
  // Points only where the variant counts them (janggi); the row is hidden for xiangqi.
  const pts = B.points(v, fen);
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
