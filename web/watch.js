// watch.js: the page that watches a running match (`denham serve --watch`).
// The server reads denham-match's live files and sends a snapshot (JSON)
// on an event stream whenever they change: the games in progress with the
// `state` of each position and both engines' last scores, the results
// (W/D/L, Elo with its interval, LOS, the SPRT) and the finished games,
// each of which it replays on request. This file knows no rules: boards
// come from `layout` and `state` as the engine library describes them, and
// board.js draws them.

import { Board } from './board.js';

const $ = (id) => document.getElementById(id);

const watch = {
  snapshot: null,
  updates: 0, // snapshots drawn
  layouts: new Map(), // variant -> promise of its layout
  cards: new Map(), // "file:index" -> {el, board, plies}
  replay: null, // {game, ply, board}
};
window.watch = watch; // for tests and the curious

function showError(message) {
  const e = $('error');
  e.textContent = message || '';
  e.hidden = !message;
}

function node(tag, attrs = {}, text = null) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== null) e.textContent = text;
  return e;
}

function layoutOf(variant) {
  if (!watch.layouts.has(variant)) {
    const p = fetch(`/api/watch/layout/${encodeURIComponent(variant)}`).then((r) => {
      if (!r.ok) throw new Error(`no board for ${variant}`);
      return r.json();
    });
    p.catch(() => watch.layouts.delete(variant)); // asked again next time
    watch.layouts.set(variant, p);
  }
  return watch.layouts.get(variant);
}

// "cp 35" -> +0.35, "mate -3" -> #-3, from the side that moved.
function scoreText(score) {
  const m = /^(cp|mate) (-?\d+)$/.exec(score || '');
  if (!m) return '–';
  const v = parseInt(m[2], 10);
  if (m[1] === 'mate') return `#${v}`;
  const t = (v / 100).toFixed(2);
  return v > 0 ? `+${t}` : t;
}

// ---- games in progress ----

function newCard(g, layout) {
  const el = node('article', { class: 'game' });
  const title = node('h3');
  const boardDiv = node('div', { class: 'board' });
  const meta = node('p', { class: 'meta' });
  const evals = node('ul', { class: 'evals', 'aria-label': 'Last evaluations' });
  el.append(title, boardDiv, meta, evals);
  const board = new Board(boardDiv, () => {}, () => {});
  board.setLayout(layout);
  return { el, board, title, meta, evals, layout, plies: -1 };
}

function fillCard(card, g) {
  const L = card.layout;
  card.el.dataset.file = g.file;
  card.el.dataset.index = g.index;
  card.el.dataset.plies = g.plies;
  card.title.textContent = g.p2 === '-' ? `Game ${g.index}: ${g.p1.split(',').join(', ')}` : `Game ${g.index}: ${g.p1} – ${g.p2}`;
  if (card.plies !== g.plies && g.state) {
    card.board.setLastMove(g.lastMove);
    card.board.setPosition(g.state, [], false);
    card.plies = g.plies;
  }
  const turn = g.state && L.seats[g.state.turn] ? `, ${L.seats[g.state.turn].name} to move` : '';
  card.meta.textContent = `ply ${g.plies}${g.last ? `, last ${g.last}` : ''}${turn}${g.stuck ? ' (the file lost track of this game)' : ''}`;
  card.evals.replaceChildren();
  for (const e of g.evals) {
    const li = node('li', { 'data-seat': e.seat });
    const sw = node('span', { class: 'swatch' });
    sw.style.background = (L.colors || [])[e.seat] || '#999';
    li.append(sw, node('span', { class: 'who' }, `${e.seatName} (${e.engine})`),
      node('span', { class: 'score', title: 'the engine\'s score for its own side, at its last move' }, scoreText(e.score)),
      node('span', { class: 'muted depth' }, e.depth ? `d${e.depth}` : ''));
    card.evals.append(li);
  }
}

async function renderLive(s) {
  const live = $('live');
  const seen = new Set();
  const order = [];
  for (const g of s.live) {
    const key = `${g.file}:${g.index}`;
    seen.add(key);
    let card = watch.cards.get(key);
    if (!card) {
      let layout;
      try { layout = await layoutOf(g.variant); } catch (err) { showError(err.message); continue; }
      card = newCard(g, layout);
      watch.cards.set(key, card);
    }
    fillCard(card, g);
    order.push(card.el);
  }
  for (const [key, card] of watch.cards) {
    if (!seen.has(key)) {
      card.el.remove();
      watch.cards.delete(key);
    }
  }
  order.forEach((el, i) => { if (live.children[i] !== el) live.insertBefore(el, live.children[i] || null); });
  $('live-count').textContent = s.live.length ? `(${s.live.length})` : '';
  $('live-none').hidden = s.live.length > 0;
}

// ---- results ----

function cell(tag, text, attrs = {}) { return node(tag, attrs, String(text)); }

// An interval on a bar: lo..hi with a mark at v, on [-range, range].
function bar(lo, hi, v, range, label) {
  const b = node('div', { class: 'bar', role: 'img', 'aria-label': label });
  const pos = (x) => `${(50 + 50 * Math.max(-1, Math.min(1, x / range))).toFixed(2)}%`;
  const span = node('div', { class: 'span' });
  span.style.left = pos(lo);
  span.style.width = `calc(${pos(hi)} - ${pos(lo)})`;
  const zero = node('div', { class: 'zero' });
  zero.style.left = '50%';
  const mark = node('div', { class: 'mark' });
  mark.style.left = `calc(${pos(v)} - 0.1rem)`;
  b.append(span, zero, mark);
  return b;
}

const num = (t) => (t === '+inf' || t === 'inf' ? Infinity : t === '-inf' ? -Infinity : parseFloat(t));

function renderPairs(r, box) {
  const [a, b] = r.engines;
  const table = node('table', { id: 'results-table' });
  const head = node('tr');
  for (const h of ['engine', 'W', 'D', 'L', 'score']) head.append(cell('th', h));
  const score = parseFloat(r.score);
  const rowA = node('tr');
  rowA.append(cell('td', a), cell('td', r.wins), cell('td', r.draws), cell('td', r.losses), cell('td', r.score));
  const rowB = node('tr');
  rowB.append(cell('td', b), cell('td', r.losses), cell('td', r.draws), cell('td', r.wins), cell('td', (1 - score).toFixed(3)));
  table.append(node('thead'), node('tbody'));
  table.tHead.append(head);
  table.tBodies[0].append(rowA, rowB);
  const dl = node('dl', { class: 'stats' });
  const add = (term, text, id) => dl.append(node('dt', {}, term), node('dd', id ? { id } : {}, text));
  add('Games', `${r.games}`, 'results-games');
  const lo = num(r.eloLow), hi = num(r.eloHigh), elo = num(r.elo);
  const half = Number.isFinite(lo) && Number.isFinite(hi) ? ` ± ${((hi - lo) / 2).toFixed(1)}` : '';
  add(`Elo (${a})`, r.games ? `${r.elo}${half}  [${r.eloLow}, ${r.eloHigh}] (95%)` : '–', 'elo');
  box.append(table, dl);
  if (r.games) {
    const range = Math.min(800, Math.max(50, ...[lo, hi, elo].filter(Number.isFinite).map(Math.abs)) * 1.1);
    box.append(bar(lo, hi, elo, range, `Elo ${r.elo}, interval ${r.eloLow} to ${r.eloHigh}`));
  }
  const dl2 = node('dl', { class: 'stats' });
  const add2 = (term, text, id) => dl2.append(node('dt', {}, term), node('dd', id ? { id } : {}, text));
  add2('LOS', r.games ? r.los : '–', 'los');
  add2('Draws', r.games ? r.drawRatio : '–');
  add2('Pairs', `${r.penta.join(' ')} (scoring 0, ½, 1, 1½, 2)`, 'penta');
  if (r.sprt) {
    const s = r.sprt;
    const cls = s.decision.startsWith('H1') ? 'decision-h1' : s.decision.startsWith('H0') ? 'decision-h0' : '';
    const dd = node('dd', { id: 'sprt' });
    dd.append(`LLR ${s.llr} in [${s.lower}, ${s.upper}]: `, node('span', { id: 'sprt-decision', class: cls }, s.decision),
      s.llrOfGames ? ' (of single games: the pairs are not whole)' : '',
      s.afterGames ? ` (${s.afterGames} game(s) in flight then finished after it, W-D-L ${s.afterWdl}: recorded apart, in no result here)` : '',
      node('span', { class: 'muted' }, ` (Elo ${s.elo0} against ${s.elo1}, α ${s.alpha}, β ${s.beta})`));
    dl2.append(node('dt', {}, 'SPRT'), dd);
  }
  box.append(dl2);
  if (r.sprt) {
    const s = r.sprt;
    const range = Math.max(Math.abs(num(s.lower)), Math.abs(num(s.upper)));
    box.append(bar(num(s.lower), num(s.upper), num(s.llr), range, `LLR ${s.llr} between ${s.lower} and ${s.upper}`));
  }
  const dl3 = node('dl', { class: 'stats' });
  if (r.endings.length) dl3.append(node('dt', {}, 'Endings'), node('dd', {}, r.endings.map((e) => `${e.reason} ${e.count}`).join(', ')));
  if (r.error) dl3.append(node('dt', {}, 'Refused'), node('dd', {}, `${r.refused} game(s): ${r.error}`));
  box.append(dl3);
}

function renderFreeForAll(r, box) {
  const table = node('table', { id: 'results-table' });
  const head = node('tr');
  head.append(cell('th', 'engine'), cell('th', 'wins'), cell('th', 'share'));
  table.append(node('thead'), node('tbody'));
  table.tHead.append(head);
  for (const e of r.engines) {
    const row = node('tr');
    row.append(cell('td', e.name), cell('td', e.wins), cell('td', r.games ? (e.wins / r.games).toFixed(3) : '–'));
    table.tBodies[0].append(row);
  }
  const dl = node('dl', { class: 'stats' });
  dl.append(node('dt', {}, 'Games'), node('dd', { id: 'results-games' }, `${r.games}`),
    node('dt', {}, 'Draws'), node('dd', {}, `${r.draws}`),
    node('dt', {}, 'Elo'), node('dd', {}, 'none with more than two sides'));
  box.append(table, dl);
}

function renderResults(s) {
  const box = $('results');
  box.replaceChildren();
  if (s.results.kind === 'pairs') renderPairs(s.results, box);
  else renderFreeForAll(s.results, box);
}

// ---- finished games and files ----

let finishedKey = '';

function renderFinished(s) {
  // Drawn again only when it changed: a click in progress is not lost.
  const key = `${s.finishedTotal}:${s.finished.map((d) => `${d.file}/${d.index}`).join(',')}`;
  if (key === finishedKey) return;
  finishedKey = key;
  const list = $('finished');
  list.replaceChildren();
  for (const d of s.finished) {
    const li = node('li');
    const who = d.p2 === '-' ? d.p1.split(',').join(', ') : `${d.p1} – ${d.p2}`;
    const b = node('button', { 'data-file': d.file, 'data-index': d.index, title: 'Replay this game' },
      `Game ${d.index}: ${who}  ${d.result} (${d.reason}, ${d.plies} plies)`);
    b.addEventListener('click', () => openReplay(d.file, d.index).catch((err) => showError(err.message)));
    li.append(b);
    list.append(li);
  }
  $('finished-count').textContent = s.finishedTotal ? `(${s.finishedTotal}${s.finishedTotal > s.finished.length ? `, the last ${s.finished.length} listed` : ''})` : '';
}

function renderFiles(s) {
  const list = $('files');
  list.replaceChildren();
  let games = 0, finished = 0;
  for (const f of s.files) {
    games += f.shardGames;
    finished += f.finished;
    const parts = [f.path];
    if (f.status === 'waiting') parts.push('not there yet');
    else if (f.status === 'error') parts.push(`cannot be read: ${f.error}`);
    else if (f.variant) parts.push(`${f.variant}, shard ${f.shard}, ${f.finished} of ${f.shardGames} games${f.over ? ', over' : ''}`);
    if (f.badLines) parts.push(`${f.badLines} line(s) passed over: ${f.lastBad}`);
    list.append(node('li', { class: f.status }, parts.join(': ')));
  }
  const first = s.files.find((f) => f.variant);
  const title = first ? `${first.variant}: ${first.engines.join(' vs ')}, ${finished} of ${games} games${s.over ? ', match over' : ''}` : 'Watching a match (waiting for its live file)';
  $('title').textContent = title;
}

// ---- replay ----

function showReplayPly() {
  const r = watch.replay;
  const n = r.game.states.length - 1;
  r.board.setLastMove(r.ply > 0 ? r.game.moves[r.ply - 1] : null);
  r.board.setPosition(r.game.states[r.ply], [], false);
  const move = r.ply > 0 ? `, ${r.game.moves[r.ply - 1].move}` : '';
  $('replay-where').textContent = `ply ${r.ply} of ${n}${move}`;
  $('replay').dataset.ply = r.ply;
  $('replay-result').textContent = r.ply === n ? `${r.game.result}: ${r.game.reason}${r.game.truncated ? ' (only the first plies are shown)' : ''}` : '';
}

async function openReplay(file, index) {
  const reply = await fetch(`/api/watch/game/${file}/${index}`);
  const game = await reply.json();
  if (!reply.ok) throw new Error(game.error || `game ${index}: ${reply.status}`);
  const layout = await layoutOf(game.variant);
  if (!watch.replay) watch.replay = { board: new Board($('replay-board'), () => {}, () => {}) };
  watch.replay.game = game;
  watch.replay.board.setLayout(layout);
  watch.replay.ply = game.states.length - 1; // the end first: how it ended
  const who = game.p2 === '-' ? game.p1.split(',').join(', ') : `${game.p1} – ${game.p2}`;
  $('replay-title').textContent = `Game ${game.index}: ${who}`;
  $('replay').dataset.file = file;
  $('replay').dataset.index = index;
  $('replay').hidden = false;
  showReplayPly();
  $('replay').scrollIntoView({ block: 'nearest' });
}

function step(to) {
  const r = watch.replay;
  if (!r || !r.game || $('replay').hidden) return;
  r.ply = Math.max(0, Math.min(r.game.states.length - 1, to(r.ply, r.game.states.length - 1)));
  showReplayPly();
}

$('replay-start').addEventListener('click', () => step(() => 0));
$('replay-back').addEventListener('click', () => step((p) => p - 1));
$('replay-next').addEventListener('click', () => step((p) => p + 1));
$('replay-end').addEventListener('click', () => step((p, n) => n));
$('replay-close').addEventListener('click', () => { $('replay').hidden = true; });
document.addEventListener('keydown', (e) => {
  if (e.key === 'ArrowLeft') step((p) => p - 1);
  else if (e.key === 'ArrowRight') step((p) => p + 1);
  else if (e.key === 'Escape') $('replay').hidden = true;
});

// ---- the snapshots ----

let latest = null, drawing = false;

async function draw(s) {
  latest = s;
  if (drawing) return; // the newest is drawn when this one is done
  drawing = true;
  try {
    while (latest) {
      const snap = latest;
      latest = null;
      watch.snapshot = snap;
      renderFiles(snap);
      renderResults(snap);
      renderFinished(snap);
      await renderLive(snap);
      watch.updates++;
    }
    document.body.dataset.ready = 'true';
  } catch (err) {
    showError(err.message);
  } finally {
    drawing = false;
  }
}

function connection(state, text) {
  const c = $('connection');
  c.className = state;
  c.textContent = text;
}

// The event stream; were it refused (too many pages), the state is asked
// for every two seconds instead.
function listen() {
  const source = new EventSource('/api/watch/events');
  source.onopen = () => connection('live', 'live');
  source.onmessage = (e) => {
    let snap;
    try { snap = JSON.parse(e.data); } catch { showError('the server sent something that is not JSON'); return; }
    showError('');
    draw(snap);
  };
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED) {
      connection('down', 'polling');
      poll();
    } else {
      connection('down', 'reconnecting…');
    }
  };
}

async function poll() {
  try {
    const r = await fetch('/api/watch/state');
    if (r.ok) draw(await r.json());
  } catch (err) {
    connection('down', 'server unreachable');
  }
  setTimeout(poll, 2000);
}

listen();
