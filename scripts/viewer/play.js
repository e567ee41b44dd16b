// SPDX-License-Identifier: MIT
// The play page of scripts/play (docs/play.md): a game against Hansu and analysis with it. Every
// rule comes from the server, which asks the engine: the legal moves (`go perft 1`), the end
// and its points; this script only draws (board.js, the report viewer's drawing) and sends
// clicks. Checked by `node --check`.
(function () {
'use strict';
const B = window.HansuBoard;
const DATA = JSON.parse(document.getElementById('hansu-play').textContent);
const V = DATA.variants;
const svg = document.getElementById('board');
const $ = (id) => document.getElementById(id);
const ui = {id: null, state: null, selected: null, flipped: false, hanja: true, busy: 0,
  error: null, notes: []};

// One call to the server: POST /api/NAME with the page's session id; the answer is the state.
function call(name, body) {
  ui.busy++;
  if (name !== 'state') status();
  const req = JSON.stringify(Object.assign({id: ui.id}, body || {}));
  return fetch('/api/' + name, {method: 'POST', body: req})
    .then((r) => r.json())
    .then((s) => {
      // The server ended this page's session (it was silent too long): a new one, with the
      // game on the board restored.
      if (r404(s) && name !== 'open') return reopen();
      if (s.id) ui.id = s.id;
      // An action's refusal stays shown until the next action; the heartbeat keeps it.
      if (name !== 'state') ui.error = s.error || null;
      else if (s.error) ui.error = s.error;
      if (s.notes && s.notes.length) ui.notes = ui.notes.concat(s.notes).slice(-5);
      if (s.fen) { ui.state = s; ui.received = performance.now(); }
      return s;
    }, (e) => { ui.error = 'the server did not answer: ' + e; })
    .finally(() => { ui.busy--; render(); });
}
function r404(s) { return s.error && /no such page session/.test(s.error); }
function reopen() {
  const g = ui.state;
  ui.id = null;
  ui.busy++;
  return call('open', {variant: g ? g.variant : DATA.variant, restore: g ? {variant: g.variant,
    start_fen: g.start_fen, moves: g.moves, ply: g.ply, human: g.human, strength: g.strength,
    formations: g.formations} : null}).finally(() => { ui.busy--; });
}
// Both sides' clocks in a game on the clock, the running one counting down from the state.
function showClocks() {
  const s = ui.state, c = s && s.clock;
  $('clock').hidden = $('clock-label').hidden = !c;
  if (!c) return;
  const fmt = (ms) => {
    const t = Math.max(0, Math.ceil(ms / 1000));
    return Math.floor(t / 60) + ':' + String(t % 60).padStart(2, '0');
  };
  const now = (side) => c[side] - (c.running === side ? performance.now() - ui.received : 0);
  const v = V[s.variant];
  $('clock').textContent = v.sides[0] + ' ' + fmt(now('w')) + (c.running === 'w' ? ' ◀' : '') +
    ' · ' + v.sides[1] + ' ' + fmt(now('b')) + (c.running === 'b' ? ' ◀' : '');
  // The person's time ran out: the server, asked, declares the end.
  if (c.running === s.human && now(s.human) < 0 && !ui.busy && !ui.flagAsked) {
    ui.flagAsked = true;
    call('state').finally(() => { ui.flagAsked = false; });
  }
}
function sideNames(s) { return V[s.variant].sides; }
function stm(s) { return s.fen.split(' ')[1] === 'w' ? 0 : 1; }
function targetsOf(from) {
  return ui.state.legal.filter((m) => B.splitMove(m)[0] === from && B.splitMove(m)[1] !== from)
    .map((m) => B.splitMove(m)[1]);
}
function myTurn(s) {
  return !s.over && (s.human === 'both' || (s.human === 'w') === (stm(s) === 0));
}
function status() {
  const s = ui.state;
  let t = '';
  if (!s) t = 'starting Hansu…';
  else if (ui.busy && !(s.analysis && s.analysis.running)) t = 'Hansu thinks…';
  else if (s.over) t = 'Game over: ' + s.over.text.replace(/^game over: /, '');
  else if (s.analysis && s.analysis.running) t = 'Hansu analyses…';
  else if (s.human === 'both') t = sideNames(s)[stm(s)] + ' to move (analysis)';
  else t = myTurn(s) ? 'Your move' : 'Hansu to move';
  $('status').textContent = t;
}
function scoreText(l) {
  if (l.mate != null) return (l.mate > 0 ? '+M' : '-M') + Math.abs(l.mate);
  return (l.cp >= 0 ? '+' : '') + (l.cp / 100).toFixed(2);
}
function render() {
  const s = ui.state;
  status();
  $('error').textContent = ui.error || '';
  $('notes').textContent = ui.notes.join(' · ');
  if (!s) return;
  const v = V[s.variant], a = s.analysis;
  const lines = a && a.ply === s.ply ? a.lines : [];
  B.draw(svg, v, s.fen, {flipped: ui.flipped, hanja: ui.hanja,
    last: s.ply > 0 ? s.moves[s.ply - 1] : null, selected: ui.selected,
    targets: ui.selected ? targetsOf(ui.selected) : [],
    arrows: lines.length && lines[0].pv.length ? [lines[0].pv[0]] : []});
  $('tomove').textContent = s.over ? '—' : v.sides[stm(s)];
  const o = s.over;
  $('result').textContent = o ? o.result + ' (' + o.reason + ', ' +
    (o.winner === 'drawn' ? 'drawn' : o.winner + ' wins') + ')' : '';
  const pts = o && o.points ? o.points : B.points(v, s.fen);
  $('points').textContent = pts ? v.sides[0] + ' ' + pts[0] + ' : ' + v.sides[1] + ' ' + pts[1] +
    (o && o.points ? ' (the engine\'s count at the end)' : '') : '';
  $('points').hidden = $('points-label').hidden = !pts;
  $('fen').textContent = s.fen;
  showClocks();
  $('pass').disabled = !passMove();
  const box = $('moves');
  box.textContent = '';
  s.moves.forEach((m, i) => {
    if (i % 2 === 0) {
      const n = document.createElement('span');
      n.className = 'num'; n.textContent = (i / 2 + 1) + '.'; box.appendChild(n);
    }
    const e = document.createElement('span');
    e.className = 'mv' + (i + 1 === s.ply ? ' current' : ''); e.dataset.ply = i + 1;
    e.textContent = m;
    if (s.scores[i]) e.title = scoreText(s.scores[i]);
    e.addEventListener('click', () => call('goto', {ply: i + 1}));
    box.appendChild(e); box.appendChild(document.createTextNode(' '));
  });
  const ol = $('lines');
  ol.textContent = '';
  for (const l of lines) {
    const li = document.createElement('li');
    const sc = document.createElement('span');
    sc.className = 'score'; sc.textContent = scoreText(l);
    li.appendChild(sc);
    li.appendChild(document.createTextNode('d' + l.depth + ' ' + l.pv.slice(0, 10).join(' ')));
    ol.appendChild(li);
  }
  const w = lines.length && lines[0].wdl ? lines[0].wdl : null;
  for (const [k, i] of [['w', 0], ['d', 1], ['l', 2]]) {
    $('wdl').querySelector('.' + k).style.flex = w ? String(w[i]) : '0';
  }
  $('wdl').title = w ? 'win ' + w[0] / 10 + '%, draw ' + w[1] / 10 + '%, loss ' + w[2] / 10 +
    '% for the side to move' : '';
  $('analyse').disabled = !!(a && a.running) || !!s.over;
  $('stop').disabled = !(a && a.running);
}
// The pass of the position, where the engine lists one (janggi: the general's square twice).
function passMove() {
  const s = ui.state;
  if (!s || !myTurn(s)) return null;
  return s.legal.find((m) => { const q = B.splitMove(m); return q[0] === q[1]; }) || null;
}
function clickBoard(evt) {
  const s = ui.state;
  if (!s || ui.busy || !myTurn(s)) return;
  const sq = B.pointAt(svg, evt, ui.flipped);
  if (ui.selected && sq && targetsOf(ui.selected).includes(sq)) {
    const mv = ui.selected + sq;
    ui.selected = null;
    call('move', {move: mv});
    return;
  }
  ui.selected = sq && s.legal.some((m) => B.splitMove(m)[0] === sq && B.splitMove(m)[1] !== sq)
    ? sq : null;
  render();
}
function newGame() {
  ui.selected = null;
  ui.notes = [];
  const mode = $('mode').value, n = +$('strength').value;
  call('new', {variant: $('variant').value, cho: $('cho').value, han: $('han').value,
    human: $('human').value,
    strength: mode === 'elo' ? {mode: 'elo', elo: n}
      : mode === 'clock' ? {mode: 'clock', clock: n * 60, inc: +$('inc').value}
        : {mode: 'nodes', nodes: n}})
    .then(() => { if (ui.state) ui.flipped = ui.state.human === 'b'; render(); });
}
function download(name, text) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], {type: 'application/x-chess-pgn'}));
  a.download = name;
  document.body.appendChild(a); a.click(); a.remove();
}
function savePgn() {
  return fetch('/api/pgn?id=' + ui.id).then((r) => r.text()).then((t) => {
    $('pgn-input').value = t;
    download('hansu-game.pgn', t);
    return t;
  });
}
function init() {
  for (const id of ['cho', 'han']) {
    for (const f of DATA.formations) {
      const o = document.createElement('option'); o.textContent = f; $(id).appendChild(o);
    }
  }
  $('variant').value = DATA.variant;
  const showJanggi = () => {
    const janggi = $('variant').value === 'janggi';
    for (const e of document.querySelectorAll('.janggi-only')) e.hidden = !janggi;
  };
  $('variant').addEventListener('change', showJanggi); showJanggi();
  const showClock = () => {
    const clock = $('mode').value === 'clock';
    for (const e of document.querySelectorAll('.clock-only')) e.hidden = !clock;
  };
  $('mode').addEventListener('change', () => {
    $('strength').value = {elo: 1500, clock: 5, nodes: 20000}[$('mode').value];
    showClock();
  });
  showClock();
  setInterval(showClocks, 250);
  svg.addEventListener('click', clickBoard);
  $('new').addEventListener('click', newGame);
  $('pass').addEventListener('click', () => {
    const m = passMove();
    if (m && !ui.busy) call('move', {move: m});
  });
  $('takeback').addEventListener('click', () => { ui.selected = null; call('takeback'); });
  $('first').addEventListener('click', () => call('goto', {ply: 0}));
  $('back').addEventListener('click', () => call('goto', {ply: ui.state.ply - 1}));
  $('forward').addEventListener('click', () => call('goto', {ply: ui.state.ply + 1}));
  $('last').addEventListener('click', () => call('goto', {ply: ui.state.moves.length}));
  $('flip').addEventListener('click', () => { ui.flipped = !ui.flipped; render(); });
  $('hanja').addEventListener('change', (e) => { ui.hanja = e.target.checked; render(); });
  $('analyse').addEventListener('click', () => call('analyse', {multipv: +$('multipv').value}));
  $('stop').addEventListener('click', () => call('stop'));
  $('load-fen').addEventListener('click', () => {
    ui.selected = null;
    call('fen', {fen: $('fen-input').value, variant: $('variant').value});
  });
  $('copy-fen').addEventListener('click', () => {
    if (ui.state) $('fen-input').value = ui.state.fen;
  });
  $('load-pgn').addEventListener('click', () => {
    ui.selected = null;
    call('pgn', {pgn: $('pgn-input').value});
  });
  $('save-pgn').addEventListener('click', savePgn);
  $('pgn-file').addEventListener('change', (e) => {
    const f = e.target.files[0];
    if (f) f.text().then((t) => { $('pgn-input').value = t; call('pgn', {pgn: t}); });
  });
  document.addEventListener('keydown', (e) => {
    if (['INPUT', 'TEXTAREA', 'SELECT'].includes(e.target.tagName) || !ui.state) return;
    const s = ui.state;
    const keys = {ArrowLeft: s.ply - 1, ArrowRight: s.ply + 1, Home: 0, End: s.moves.length};
    if (e.key in keys) { e.preventDefault(); call('goto', {ply: keys[e.key]}); }
    else if (e.key === 'f') $('flip').click();
  });
  // The heartbeat: the server ends the engine of a page that stops calling; it also brings
  // the analysis lines and the notes of an engine that was restarted.
  setInterval(() => { if (ui.id && !ui.busy) call('state'); }, 1000);
  window.addEventListener('pagehide', () => {
    if (ui.id) navigator.sendBeacon('/api/close', JSON.stringify({id: ui.id}));
  });
  return call('open', {variant: DATA.variant});
}
// For programs (the browser test): the last state, whether a call is under way, a call.
window.hansuPlay = {ready: init(), state: () => ui.state, busy: () => ui.busy > 0,
  error: () => ui.error, notes: () => ui.notes.slice(), flipped: () => ui.flipped, id: () => ui.id,
  call: call,
  savePgn: savePgn};
})();
