// SPDX-License-Identifier: MIT
// Hansu's board drawing, shared by the game viewer (viewer.js, inlined into every report page by
// scripts/game_viewer.py) and the play page (scripts/play, play.js): the 9x10 board as SVG with
// both palaces' diagonals and, for xiangqi, the river; janggi's octagonal pieces sized by rank or
// xiangqi's discs, in hanja or FEN letters. It draws FENs and marks; it applies no rule.
(function () {
'use strict';
const S = 50, M = 35, NS = 'http://www.w3.org/2000/svg';
const FILES = 'abcdefghi';
const SIZE = {K: 22, R: 19, C: 19, N: 19, B: 19, A: 15, P: 15};

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}
// Point (file 0..8, rank 0..9; rank 0 = rank 1, Cho's back rank) to SVG coordinates.
function xy(f, r, flipped) {
  if (flipped) { f = 8 - f; r = 9 - r; }
  return [M + f * S, M + (9 - r) * S];
}
function line(g, a, b, flipped, w) {
  const [x1, y1] = xy(a[0], a[1], flipped), [x2, y2] = xy(b[0], b[1], flipped);
  el('line', {x1: x1, y1: y1, x2: x2, y2: y2, stroke: '#5a4220', 'stroke-width': w || 1.2}, g);
}
function drawGrid(svg, v, flipped) {
  const g = el('g', {id: 'grid'}, svg);
  el('rect', {x: 0, y: 0, width: 2 * M + 8 * S, height: 2 * M + 9 * S, fill: '#e8c37e'}, g);
  for (let r = 0; r < 10; r++) line(g, [0, r], [8, r], flipped);
  for (let f = 0; f < 9; f++) {
    if (v.river && f > 0 && f < 8) {
      line(g, [f, 0], [f, 4], flipped); line(g, [f, 5], [f, 9], flipped);
    } else line(g, [f, 0], [f, 9], flipped);
  }
  // Both palaces' diagonals: d1-f3, f1-d3, d8-f10, f8-d10.
  line(g, [3, 0], [5, 2], flipped); line(g, [5, 0], [3, 2], flipped);
  line(g, [3, 7], [5, 9], flipped); line(g, [5, 7], [3, 9], flipped);
  if (v.river) {
    const [, y] = xy(0, 4.5, flipped);
    const t = el('text', {x: M + 4 * S, y: y + 7, 'text-anchor': 'middle', 'font-size': 22,
      fill: '#5a4220', id: 'river'}, g);
    t.textContent = '楚 河          漢 界';
  }
  const labels = el('g', {'font-size': 11, fill: '#5a4220'}, g);
  for (let f = 0; f < 9; f++) {
    const [x, y] = xy(f, flipped ? 9 : 0, flipped);
    el('text', {x: x, y: y + 29, 'text-anchor': 'middle'}, labels).textContent = FILES[f];
  }
  for (let r = 0; r < 10; r++) {
    const [x, y] = xy(flipped ? 8 : 0, r, flipped);
    el('text', {x: x - 27, y: y + 4, 'text-anchor': 'middle'}, labels).textContent = r + 1;
  }
}
// The pieces of a FEN's board field: [{f, r, c}] (c the FEN letter).
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
  const sq = /^([a-i][0-9]+)([a-i][0-9]+)$/.exec(m || '');
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
function frame(layer, s, flipped, attrs) {
  const [f, r] = parseSquare(s), [x, y] = xy(f, r, flipped);
  return el('rect', Object.assign({x: x - 23, y: y - 23, width: 46, height: 46, fill: 'none',
    'stroke-width': 3}, attrs), layer);
}
function arrow(layer, m, flipped, colour) {
  const sq = splitMove(m);
  if (!sq || sq[0] === sq[1]) return;
  const [f1, r1] = parseSquare(sq[0]), [f2, r2] = parseSquare(sq[1]);
  const [x1, y1] = xy(f1, r1, flipped), [x2, y2] = xy(f2, r2, flipped);
  const len = Math.hypot(x2 - x1, y2 - y1), ux = (x2 - x1) / len, uy = (y2 - y1) / len;
  const tx = x2 - ux * 14, ty = y2 - uy * 14;
  const g = el('g', {class: 'arrow', 'data-move': m, opacity: 0.75}, layer);
  el('line', {x1: x1, y1: y1, x2: tx, y2: ty, stroke: colour, 'stroke-width': 7,
    'stroke-linecap': 'round'}, g);
  el('polygon', {points: [x2, y2, tx - uy * 11, ty + ux * 11, tx + uy * 11, ty - ux * 11].join(','),
    fill: colour}, g);
}
// Draws the whole board into svg: variant v (game_viewer.py's VARIANTS entry), the FEN, and
// opts: flipped, hanja, last (the last move, framed; dashed where the piece came from),
// selected (a square framed), targets (squares marked as a piece's legal destinations),
// arrows (moves drawn as arrows). Returns the pieces drawn as ["e2=K", ...].
function draw(svg, v, fen, opts) {
  opts = opts || {};
  const flipped = !!opts.flipped, hanja = opts.hanja !== false;
  svg.textContent = '';
  drawGrid(svg, v, flipped);
  const layer = el('g', {id: 'pieces'}, svg);
  const sq = splitMove(opts.last);
  if (sq) for (const s of sq) {
    frame(layer, s, flipped, {stroke: '#2a9d3a', 'stroke-dasharray': s === sq[0] ? '5,4' : '',
      class: 'lastmove'});
  }
  if (opts.selected) frame(layer, opts.selected, flipped, {stroke: '#e07b00', class: 'selected'});
  const shown = [];
  for (const p of parseBoard(fen)) {
    const up = p.c.toUpperCase(), side = p.c === up ? 0 : 1, [x, y] = xy(p.f, p.r, flipped);
    const rad = v.round ? 20 : SIZE[up] || 17;
    const pg = el('g', {class: 'piece' + (hanja ? '' : ' letters'),
      'data-square': squareName(p.f, p.r), 'data-piece': p.c}, layer);
    const face = {fill: '#fdf6e3', stroke: v.colours[side], 'stroke-width': 2.2};
    if (v.round) el('circle', Object.assign({cx: x, cy: y, r: rad}, face), pg);
    else el('polygon', Object.assign({points: octagon(x, y, rad)}, face), pg);
    const t = el('text', {x: x, y: y + rad * 0.36, 'text-anchor': 'middle',
      'font-size': hanja ? rad * 1.05 : rad * 0.95, fill: v.colours[side]}, pg);
    t.textContent = hanja ? (v.hanja[side][up] || p.c) : p.c;
    shown.push(squareName(p.f, p.r) + '=' + p.c);
  }
  for (const s of opts.targets || []) {
    const [f, r] = parseSquare(s), [x, y] = xy(f, r, flipped);
    el('circle', {cx: x, cy: y, r: 8, fill: '#e07b00', opacity: 0.7, class: 'target',
      'data-square': s}, layer);
  }
  for (const m of opts.arrows || []) arrow(layer, m, flipped, '#1f7a3a');
  return shown;
}
// Each side's points where the variant counts them (janggi: the rules page's values, Han's
// bonus), a sum over the pieces of the FEN; null where it does not (xiangqi).
function points(v, fen) {
  if (!v.points) return null;
  const s = [0, v.bonus];
  for (const p of parseBoard(fen)) {
    const up = p.c.toUpperCase();
    s[p.c === up ? 0 : 1] += v.points[up] || 0;
  }
  return s;
}
// The point (square name) under a mouse event on svg, or null off the board.
function pointAt(svg, evt, flipped) {
  const pt = svg.createSVGPoint();
  pt.x = evt.clientX; pt.y = evt.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  let f = Math.round((p.x - M) / S), r = 9 - Math.round((p.y - M) / S);
  if (f < 0 || f > 8 || r < 0 || r > 9) return null;
  if (flipped) { f = 8 - f; r = 9 - r; }
  return squareName(f, r);
}
window.HansuBoard = {draw: draw, parseBoard: parseBoard, squareName: squareName,
  parseSquare: parseSquare, splitMove: splitMove, points: points, pointAt: pointAt, xy: xy};
})();
