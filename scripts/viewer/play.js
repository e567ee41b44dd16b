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
  error: null, notes: [], edit: null, pgnText: null, pgnGames: null, pgnLoaded: null,
  polls: 0, seq: 0, lastAction: 0};
// The set-up editor's pieces, in palette order (FEN letters; lower case for the second side).
const KINDS = ['K', 'A', 'R', 'C', 'N', 'B', 'P'];

// One call to the server: POST /api/NAME with the page's session id; the answer is the state.
// An action (a move, a load ...) makes the page busy; the heartbeat's `state` does not, so a
// click is never lost to it, and a heartbeat's answer sent before an action's is dropped.
function call(name, body) {
  const poll = name === 'state', seq = ++ui.seq;
  if (poll) ui.polls++;
  else { ui.busy++; ui.lastAction = seq; status(); }
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
      if (s.fen && !(poll && seq < ui.lastAction)) {
        ui.state = s;
        ui.received = performance.now();
      }
      return s;
    }, (e) => { ui.error = 'the server did not answer: ' + e; })
    .finally(() => { if (poll) ui.polls--; else ui.busy--; render(); });
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
  if (ui.edit) t = 'Setting up: click a point to place the chosen piece (again: remove it)';
  else if (!s) t = 'starting Hansu…';
  else if (ui.busy && !(s.analysis && s.analysis.running)) t = 'Hansu thinks…';
  else if (s.over) t = 'Game over: ' + s.over.text.replace(/^game over: /, '');
  else if (s.analysis && s.analysis.running) t = 'Hansu analyses…';
  else if (s.human === 'both') t = sideNames(s)[stm(s)] + ' to move (analysis)';
  else if (!myTurn(s)) t = 'Hansu to move';
  else t = s.moves.length ? 'Your move' : 'Your move: click a piece, then one of its dots';
  $('status').textContent = t;
}
function scoreText(l) {
  if (l.mate != null) return (l.mate > 0 ? '+M' : '-M') + Math.abs(l.mate);
  return (l.cp >= 0 ? '+' : '') + (l.cp / 100).toFixed(2);
}
// The board and the move list are drawn again only when what they show has changed: a heartbeat
// that redraws them between a click's press and release would lose the click.
function drawBoard(v, fen, opts) {
  const key = JSON.stringify([v.sides, fen, opts]);
  if (svg.dataset.key === key) return;
  B.draw(svg, v, fen, opts);
  svg.dataset.key = key;
}
function renderMoves(s, box, key) {
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
  box.dataset.key = key;
}
function render() {
  const s = ui.state;
  status();
  $('error').textContent = ui.error || '';
  $('notes').textContent = ui.notes.join(' · ');
  if (!s) return;
  const v = V[s.variant], a = s.analysis;
  const lines = a && a.ply === s.ply ? a.lines : [];
  renderSetup();
  renderPgnGames();
  if (ui.edit) {
    drawBoard(V[ui.edit.variant], editFen(), {flipped: ui.flipped, hanja: ui.hanja});
  } else {
    drawBoard(v, s.fen, {flipped: ui.flipped, hanja: ui.hanja,
      last: s.ply > 0 ? s.moves[s.ply - 1] : null, selected: ui.selected,
      targets: ui.selected ? targetsOf(ui.selected) : [],
      arrows: lines.length && lines[0].pv.length ? [lines[0].pv[0]] : []});
  }
  $('tomove').textContent = s.over ? '—' : v.sides[stm(s)];
  const o = s.over;
  const winner = o && v.sides.find((n) => n.toLowerCase() === o.winner);
  $('result').textContent = o ? o.result + ' (' + o.reason + ', ' +
    (winner ? winner + ' wins' : o.winner) + ')' : '';
  const pts = o && o.points ? o.points : B.points(v, s.fen);
  $('points').textContent = pts ? v.sides[0] + ' ' + pts[0] + ' : ' + v.sides[1] + ' ' + pts[1] +
    (o && o.points ? ' (the engine\'s count at the end)' : '') : '';
  $('points').hidden = $('points-label').hidden = !pts;
  $('fen').textContent = s.fen;
  if (ui.edit) {  // the position being set up (the engine has not seen it yet)
    const ev = V[ui.edit.variant], ep = B.points(ev, editFen());
    $('tomove').textContent = ev.sides[ui.edit.side === 'w' ? 0 : 1];
    $('result').textContent = '';
    $('points').textContent = ep ? ev.sides[0] + ' ' + ep[0] + ' : ' + ev.sides[1] + ' ' + ep[1]
      : '';
    $('points').hidden = $('points-label').hidden = !ep;
    $('fen').textContent = editFen();
  }
  showClocks();
  $('pass').disabled = !passMove();
  const box = $('moves'), movesKey = JSON.stringify([s.moves, s.ply, s.scores]);
  if (box.dataset.key !== movesKey) renderMoves(s, box, movesKey);
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
  if (ui.edit) { editClick(B.pointAt(svg, evt, ui.flipped)); return; }
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
// --- The set-up editor: pieces placed by clicks into a FEN that the server hands to the
// engine (the `fen` action); the engine accepts the position or refuses it with its reason,
// shown on the page while the editor stays open. No rule is checked here.
function editFen() {
  const e = ui.edit, rows = [];
  for (let r = 9; r >= 0; r--) {
    let row = '', empty = 0;
    for (let f = 0; f < 9; f++) {
      const c = e.board[B.squareName(f, r)];
      if (!c) { empty++; continue; }
      if (empty) { row += empty; empty = 0; }
      row += c;
    }
    rows.push(row + (empty ? empty : ''));
  }
  return rows.join('/') + ' ' + e.side + ' - - 0 1';
}
function editLoad(fen) {
  ui.edit.board = {};
  for (const p of B.parseBoard(fen)) ui.edit.board[B.squareName(p.f, p.r)] = p.c;
  ui.edit.side = fen.split(' ')[1] === 'b' ? 'b' : 'w';
}
function editClick(sq) {
  const e = ui.edit;
  if (!sq) return;
  if (e.tool === 'x' || e.board[sq] === e.tool) delete e.board[sq];
  else e.board[sq] = e.tool;
  render();
}
function editStart() {
  const v = $('setup-variant').value, starts = DATA.starts[v];
  return v === 'janggi' ? starts[$('setup-cho').value + '|' + $('setup-han').value] : starts;
}
function openSetup() {
  const s = ui.state;
  ui.selected = null;
  ui.edit = {variant: s ? s.variant : DATA.variant, board: {}, side: 'w', tool: 'K'};
  editLoad(s ? s.fen : editStart());
  $('setup-variant').value = ui.edit.variant;
  render();
}
function closeSetup() { ui.edit = null; render(); }
function setupDone() {
  const e = ui.edit;
  if (!e || ui.busy) return;
  call('fen', {fen: editFen(), variant: e.variant}).then((st) => {
    if (st && !st.error && ui.edit === e) { ui.edit = null; render(); }
  });
}
function renderSetup() {
  const e = ui.edit;
  $('setup-tools').hidden = !e;
  $('setup-open').hidden = !!e;
  if (!e) return;
  const v = V[e.variant];
  for (const el of document.querySelectorAll('.setup-janggi')) el.hidden = e.variant !== 'janggi';
  const opts = $('setup-side').options;
  opts[0].textContent = v.sides[0]; opts[1].textContent = v.sides[1];
  $('setup-side').value = e.side;
  $('setup-fen').textContent = editFen();
  const pal = $('palette');
  if (pal.dataset.variant !== e.variant || pal.dataset.hanja !== String(ui.hanja)) {
    pal.textContent = '';
    for (const side of [0, 1]) {
      for (const k of KINDS) {
        const c = side ? k.toLowerCase() : k, b = document.createElement('button');
        b.dataset.piece = c;
        b.textContent = ui.hanja ? v.hanja[side][k] : c;
        b.style.color = b.style.borderColor = v.colours[side];
        b.title = v.sides[side] + ' ' + c;
        pal.appendChild(b);
      }
    }
    const x = document.createElement('button');
    x.dataset.piece = 'x'; x.className = 'remove'; x.textContent = 'remove';
    x.title = 'click a piece to remove it';
    pal.appendChild(x);
    pal.dataset.variant = e.variant; pal.dataset.hanja = String(ui.hanja);
  }
  for (const b of pal.querySelectorAll('button')) {
    b.classList.toggle('chosen', b.dataset.piece === e.tool);
  }
}
// --- A PGN of several games: the server lists them; a click loads one.
function loadPgn(text, game) {
  ui.selected = ui.edit = null;
  if (game == null) { ui.pgnText = text; ui.pgnGames = null; ui.pgnLoaded = null; }
  return call('pgn', game == null ? {pgn: text} : {pgn: text, game: game}).then((st) => {
    if (st && st.pgn_games) ui.pgnGames = st.pgn_games;
    else if (st && !st.error && game != null) ui.pgnLoaded = game;
    render();
    return st;
  });
}
function renderPgnGames() {
  const box = $('pgn-games'), list = ui.pgnGames;
  box.hidden = !list;
  if (!list) return;
  const ol = box.querySelector('ol');
  if (ol.dataset.shown !== String(ui.pgnLoaded) + list.length + ui.pgnText.length) {
    ol.textContent = '';
    for (const g of list) {
      const t = g.tags, li = document.createElement('li'), b = document.createElement('button');
      li.value = g.number;
      li.dataset.game = g.number;
      if (g.number === ui.pgnLoaded) li.className = 'loaded';
      b.textContent = 'load';
      b.addEventListener('click', () => loadPgn(ui.pgnText, g.number));
      li.appendChild(b);
      const words = [(t.White || '?') + ' – ' + (t.Black || '?'), t.Result || '*',
        t.Variant || 'janggi', t.Event, t.Round ? 'round ' + t.Round : null, t.Date,
        t.Opening, g.plies + ' plies'];
      li.appendChild(document.createTextNode(' ' + words.filter((w) => w).join(', ')));
      ol.appendChild(li);
    }
    ol.dataset.shown = String(ui.pgnLoaded) + list.length + ui.pgnText.length;
  }
}
function newGame() {
  ui.selected = ui.edit = null;
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
    const janggi = $('variant').value === 'janggi', sides = V[$('variant').value].sides;
    for (const e of document.querySelectorAll('.janggi-only')) e.hidden = !janggi;
    // "you play": the sides by the chosen variant's names (Cho and Han, Red and Black).
    $('human').options[0].textContent = 'first (' + sides[0] + ')';
    $('human').options[1].textContent = 'second (' + sides[1] + ')';
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
    ui.selected = ui.edit = null;
    call('fen', {fen: $('fen-input').value, variant: $('variant').value});
  });
  $('copy-fen').addEventListener('click', () => {
    if (ui.edit) $('fen-input').value = editFen();
    else if (ui.state) $('fen-input').value = ui.state.fen;
  });
  $('load-pgn').addEventListener('click', () => loadPgn($('pgn-input').value));
  $('save-pgn').addEventListener('click', savePgn);
  $('pgn-file').addEventListener('change', (e) => {
    const f = e.target.files[0];
    // A .gib file may be CP949 (EUC-KR), as Korean programs write them: read as such when it
    // is not UTF-8.
    if (f) f.arrayBuffer().then((buf) => {
      let t;
      try { t = new TextDecoder('utf-8', {fatal: true}).decode(buf); }
      catch (err) { t = new TextDecoder('euc-kr').decode(buf); }
      $('pgn-input').value = t;
      loadPgn(t);
    });
  });
  for (const id of ['setup-cho', 'setup-han']) {
    for (const f of DATA.formations) {
      const o = document.createElement('option'); o.textContent = f; $(id).appendChild(o);
    }
  }
  $('setup-open').addEventListener('click', openSetup);
  $('setup-cancel').addEventListener('click', closeSetup);
  $('setup-done').addEventListener('click', setupDone);
  $('palette').addEventListener('click', (e) => {
    const b = e.target.closest('button');
    if (b && ui.edit) { ui.edit.tool = b.dataset.piece; render(); }
  });
  $('setup-variant').addEventListener('change', () => {
    ui.edit.variant = $('setup-variant').value;
    editLoad(editStart());
    render();
  });
  $('setup-side').addEventListener('change', () => {
    ui.edit.side = $('setup-side').value;
    render();
  });
  $('setup-start').addEventListener('click', () => { editLoad(editStart()); render(); });
  $('setup-clear').addEventListener('click', () => { ui.edit.board = {}; render(); });
  document.addEventListener('keydown', (e) => {
    if (['INPUT', 'TEXTAREA', 'SELECT'].includes(e.target.tagName) || !ui.state || ui.edit) return;
    const s = ui.state;
    const keys = {ArrowLeft: s.ply - 1, ArrowRight: s.ply + 1, Home: 0, End: s.moves.length};
    if (e.key in keys) { e.preventDefault(); call('goto', {ply: keys[e.key]}); }
    else if (e.key === 'f') $('flip').click();
  });
  // The heartbeat: the server ends the engine of a page that stops calling; it also brings
  // the analysis lines and the notes of an engine that was restarted.
  setInterval(() => { if (ui.id && !ui.busy && !ui.polls) call('state'); }, 1000);
  window.addEventListener('pagehide', () => {
    if (ui.id) navigator.sendBeacon('/api/close', JSON.stringify({id: ui.id}));
  });
  return call('open', {variant: DATA.variant});
}
// For programs (the browser test): the last state, whether a call is under way, a call.
window.hansuPlay = {ready: init(), state: () => ui.state, busy: () => ui.busy > 0,
  error: () => ui.error, notes: () => ui.notes.slice(), flipped: () => ui.flipped, id: () => ui.id,
  call: call,
  savePgn: savePgn, editing: () => ui.edit && editFen(), pgnGames: () => ui.pgnGames};
})();
