// app.js: Denham's board in the browser: the game in progress, the turns
// (a person's clicks, Denham's searches, the die), the replay, the
// controls, and the order of the engine work (a person's first, then the
// background's). Every board, piece and legal move comes from the engine
// through PROTOCOL.md (`layout`, `state`, `legalmoves`, `go`, `info`):
// this file knows no game's rules, and leaves drawing to board.js, the
// engine's transport to session.js, the numbers' words and plot to
// analysis.js, the record and what survives a reload to record.js, the
// wording of messages to messages.js and the replay of a match to
// replay.js. A game added to the engine appears here unchanged.

import { Board } from './board.js';
import { EngineSession } from './session.js';
import { GameClock } from './clock.js'; // issue 54: clocks
import { Messages, capitalise, goneText, resultText, refusal, bringIntoView, setWords } from './messages.js';
import * as record from './record.js';
import * as preview from './preview.js'; // issue 58: the board before the engine is up
import { parseInfo, centipawns, renderLines, renderPlot as drawPlot } from './analysis.js';
import { createReplay } from './replay.js';

const $ = (id) => document.getElementById(id);

const app = {
  session: new EngineSession(),
  board: null,
  variants: [],
  layout: null,
  state: null,
  legal: [],
  game: { start: 'startpos', moves: [] }, // the moves played, in the game's notation
  view: null, // in replay: how many of the moves are shown
  seats: [], // 'human' or 'engine', per seat
  evals: [], // per ply: {cp (for the side to move), mover, own (Denham's search for its move)}
  lines: [], // the analysis lines (MultiPV)
  searching: null, // {kind: 'move'|'analysis', token}
  token: 0,
  lastError: null,
  busy: Promise.resolve(),
  replayGames: [],
  turns: [], // per ply: {seat, chance} of the position before it (the move list's movers)
  settings: { movetime: 1000, skill: 20, threads: 1, multipv: 1 },
  threadsMax: 64, // the engine's Threads maximum (1 in the static board's WebAssembly)
};
window.denham = app; // for tests and the curious
// issue 54: clocks. A flag fall ends the game; a new time control lifts a
// fallen flag (the position shown again as the engine has it).
app.clock = new GameClock(app, () => { interrupt(); render(); persist(); },
  () => exclusive(async () => { if (app.state && app.view === null) await sync(); persist(); }).then(() => exclusive(advance)));

// ---- helpers ----

let messages = null;
function showError(message, opts) { messages.error(capitalise(message), opts); }
function status(text) { messages.status(text); }

// Engine work runs one piece at a time: what a person asked for first, in
// the order asked, then background work (a replayed game's plot, the
// movers of an opened game), one short piece at a time, whose running
// search is stopped when a person asks for something. A failure is shown
// (never left unhandled): the promises returned always resolve. app.busy
// resolves when nothing is left to do.
const jobs = { fg: [], bg: [], running: false, current: null, stopBackground: null }; // current: the running job

function schedule(list, fn, step = false) {
  return new Promise((resolve) => {
    list.push({ fn, resolve, fg: list === jobs.fg, step });
    if (list === jobs.fg && jobs.stopBackground) jobs.stopBackground();
    if (jobs.running) return;
    jobs.running = true;
    app.busy = (async () => {
      while (jobs.fg.length || jobs.bg.length) {
        const job = jobs.fg.length ? jobs.fg.shift() : jobs.bg.shift();
        jobs.current = job;
        try { await job.fn(); } catch (err) { showError(err.message); }
        job.resolve();
      }
      jobs.current = null;
      jobs.running = false;
    })();
  });
}

app.jobs = jobs; // for tests
function exclusive(fn) { return schedule(jobs.fg, fn); }
// A replay step's engine work (a person's, of a kind that draws nothing
// over a step drawn at its click: see stepReplay).
function exclusiveStep(fn) { return schedule(jobs.fg, fn, true); }
function background(fn) { return schedule(jobs.bg, fn); }

// Calls fn(time, frameTime) once the frame holding what was just drawn is
// painted (frameTime: when that frame began):
// the figures of a drawn move measure what a person sees, not the script.
function afterPaint(fn) {
  requestAnimationFrame(() => {
    const frameAt = performance.now(); // the frame begins: style, layout and paint follow
    setTimeout(() => fn(performance.now(), frameAt), 0);
  });
}

// A figure of the page (bench_denham web-board): the time from t0 to the
// frame that shows what was just drawn, given to done; the laps of the
// work kept beside it (`lastLaps`), from the work that follows.
function measureDrawn(t0, done) {
  const laps = app.laps;
  afterPaint((at, frameAt) => {
    if (laps) laps.frame = frameAt - t0;
    app.lastLaps = laps;
    if (app.laps === laps) app.laps = null;
    done(at - t0);
  });
}

function shownMoves() { return app.view === null ? app.game.moves : app.game.moves.slice(0, app.view); }

function positionCommand(moves = shownMoves(), start = app.game.start) {
  return moves.length ? `position ${start} moves ${moves.join(' ')}` : `position ${start}`;
}

function seatName(i) {
  const s = app.layout && app.layout.seats[i];
  return s ? s.name : `p${i + 1}`;
}

function twoSides() { return app.layout && app.layout.teams.length === 2; }

// ---- engine lines ----

function onEngineLine(line) {
  const log = $('log');
  log.textContent = (log.textContent + line + '\n').slice(-20000);
  if (line.startsWith('info string error:')) {
    app.lastError = line.slice('info string error:'.length).trim();
  }
  if (line.startsWith('info ') && / pv /.test(line) && app.searching) readInfo(line);
}

function readInfo(line) {
  const info = parseInfo(line);
  if (!info || info.bound) return;
  if (app.searching.token !== app.token) return; // a search whose position the page has left (a step drawn at its click)
  app.lines[info.multipv - 1] = info;
  app.lines.length = Math.max(app.lines.length, info.multipv);
  if (info.multipv === 1) {
    app.bestInfo = { info, token: app.token, ply: shownMoves().length, own: !!(app.searching && app.searching.kind === 'move') };
  }
  // Drawn once a frame: a search's first depths come in a burst, and a
  // drawing for each would hold up the frame that shows the move.
  if (app.infoFrame) return;
  app.infoFrame = requestAnimationFrame(drawInfo);
}

function drawInfo() {
  app.infoFrame = null;
  renderAnalysis();
  const best = app.bestInfo;
  app.bestInfo = null;
  if (!best || best.token !== app.token) return; // a search since stopped: its position may be left
  const first = app.legal.find((m) => m.move === best.info.pv[0]);
  app.board.setBestLine(first && first.clicks.length >= 2 ? first.clicks : null);
  recordEval(best.ply, centipawns(best.info), best.own);
}

// An evaluation of the position at ply (for its side to move); own: from
// Denham's search for its move, not the analysis.
function recordEval(ply, cp, own = false) {
  if (!app.state || !app.layout) return;
  app.evals[ply] = { cp, mover: app.state.turn, own };
  renderPlot();
}

function renderAnalysis() {
  const kind = app.searching ? app.searching.kind : app.linesKind;
  if (app.searching) app.linesKind = app.searching.kind;
  renderLines($('analysis'), app.lines, kind, app.layout, app.state ? app.state.turn : 0);
}

function renderPlot() {
  drawPlot($('plot'), app.evals, Math.max(app.game.moves.length, 1), shownMoves().length, app.layout);
}

// ---- searches ----

// Ends the running search, if any: its bestmove goes to the waiter that
// search registered, which now knows it is stale. Safe to call at any time
// (a person's click need not wait for Denham's move to finish).
function interrupt() {
  const s = app.searching;
  if (!s) return;
  app.searching = null;
  app.token++;
  app.stopping = s.answer.catch(() => {});
  app.session.send('stop').catch(() => {});
}

// Ends any search and waits for its bestmove, so that the next command
// (a `go` above all) finds the engine idle.
async function stopSearch() {
  interrupt();
  if (!app.stopping) return;
  const late = new Promise((resolve) => setTimeout(resolve, 10000));
  await Promise.race([app.stopping, late]);
  app.stopping = null;
}

async function applySettings() {
  const s = app.settings;
  await app.session.send(`setoption name Threads value ${s.threads}`);
  await app.session.send(`setoption name MultiPV value ${s.multipv}`);
  await app.session.send(`setoption name Skill Level value ${s.skill}`);
}

async function engineMove() {
  const token = ++app.token;
  const clocked = app.clock.goLimits(); // issue 54: every player's time, or null
  const answer = app.session.expect('bestmove', (clocked ? clocked.waitMs : app.settings.movetime) + 30000);
  app.searching = { kind: 'move', token, answer };
  app.lines = [];
  status(`${capitalise(seatName(app.state.turn))} (Denham) is thinking…`);
  await app.session.send(positionCommand()); // background work may have moved the engine elsewhere
  await app.session.send(`go ${clocked ? clocked.words : `movetime ${app.settings.movetime}`}`); // issue 54
  let line;
  try {
    line = await answer;
  } catch (err) {
    if (token !== app.token) return null;
    // No answer in time: the engine hangs. Start another and go on.
    app.searching = null;
    showError(`${err.message}: the engine was restarted`);
    await restartEngine();
    return null;
  }
  if (token !== app.token) return null; // stopped for a newer position
  app.searching = null;
  const move = line.split(' ')[1];
  return move && move !== '(none)' ? move : null;
}

async function startAnalysis() {
  if (!$('analyse').checked || app.searching || !app.state || app.state.result || app.state.chance) return;
  if (app.view === null && app.seats[app.state.turn] !== 'human') return;
  const token = ++app.token;
  app.lines = [];
  await app.session.send(positionCommand()); // background work may have moved the engine elsewhere
  app.searching = { kind: 'analysis', token, answer: app.session.expect('bestmove', 24 * 3600 * 1000) };
  app.searching.answer.catch(() => {});
  renderAnalysis();
  await app.session.send('go infinite');
}

// ---- the game ----

// What the engine said of a position (`state` and `legalmoves`), by
// variant and position command: a replay step or an Undo to a position
// seen before is drawn at once, while the engine is told the position
// (the answer depends on nothing else). Bounded: forgotten when full.
const described = new Map();
const DESCRIBED_MAX = 4096;

function describedKey(command) { return `${app.layout ? app.layout.variant : ''}|${command}`; }

function remember(command, state, legal) {
  if (described.size >= DESCRIBED_MAX) described.clear();
  described.set(describedKey(command), { state: { ...state }, legal }); // a copy: a flag fall writes the shown one's result
}

// The engine at a position, and its `state` and `legalmoves` there
// (remembered); throws the engine's error when it refuses the position.
async function describePosition(command) {
  app.lastError = null;
  await app.session.send(command);
  // Both asked at once: they only read the position, and their answers
  // are told apart by their first word.
  const [state, legal] = await Promise.all([app.session.describe('state'), app.session.describe('legalmoves')]);
  if (app.lastError) {
    const why = app.lastError;
    app.lastError = null;
    throw new Error(why);
  }
  remember(command, state, legal.moves);
  return { state, legal: legal.moves };
}

// The positions a replay step away, described while the person looks at
// this one (a step there is then drawn at once); the engine left at the
// shown position.
async function describeNeighbours() {
  for (const ply of [app.view + 1, app.view - 1]) {
    if (ply < 0 || ply > app.game.moves.length) continue;
    const command = positionCommand(app.game.moves.slice(0, ply));
    if (!described.has(describedKey(command))) await describePosition(command);
  }
  await app.session.send(positionCommand());
}

// The engine at the shown position, and the page drawing it; drawn() is
// called as soon as the page is drawn (before the engine has the position
// when the page knew it already).
async function sync(drawn = () => {}) {
  app.lastError = null;
  const command = positionCommand();
  const known = described.get(describedKey(command));
  if (known) {
    show({ ...known.state }, known.legal);
    drawn();
    await app.session.send(command);
    return;
  }
  const { state, legal } = await describePosition(command);
  if (app.laps) app.laps.answered = performance.now() - app.laps.t0;
  show(state, legal);
  drawn();
}

function show(state, legal) {
  firstShown();
  if (app.starting) app.starting = preview.replaced($('board-wrap')); // the engine's own board from here
  app.state = state;
  app.legal = legal;
  app.turns[shownMoves().length] = { seat: state.turn, chance: state.chance };
  messages.at(positionCommand());
  app.clock.onState(state); // issue 54: clocks
  render();
  if (app.laps) app.laps.rendered = performance.now() - app.laps.t0;
  persist();
  if (app.view === null) preview.keep(app.layout.variant, positionCommand(), app.layout, state);
  if (app.laps) app.laps.persisted = performance.now() - app.laps.t0;
}

// What survives a reload: the game in progress in the address (a link)
// and, with the seats, the settings and its clocks, in localStorage; a
// replay shown over it (the replayed game and the move shown) in
// localStorage only: the address stays the person's game.
function persist() {
  if (!app.layout) return;
  const home = app.view === null ? { variant: app.layout.variant, game: app.game, seats: app.seats } : app.myGame;
  record.writeAddress(home ? home.variant : app.layout.variant, home ? home.game : null);
  record.save({
    variant: home ? home.variant : app.layout.variant, game: home ? home.game : { start: 'startpos', moves: [] },
    seats: home ? home.seats : app.seats, settings: app.settings,
    analyse: $('analyse').checked, flipped: app.board.flipped,
    clock: app.view === null ? app.clock.snapshot() : (app.myGame && app.myGame.clock) || null,
    replay: app.view === null ? null : { game: app.replaying, view: replay.viewWanted() },
  });
}

function humanToMove() {
  return app.view === null && app.state && !app.state.result && !app.state.chance && app.seats[app.state.turn] === 'human';
}

function render() {
  const st = app.state;
  const human = humanToMove();
  const prev = shownMoves().length ? app.lastLegalEntry : null;
  app.board.setLastMove(prev || null);
  app.board.setBestLine(null, false);
  app.board.setPosition(st, app.legal, human);
  // Moves without a cell (pass, reroll, a pass with a call): buttons.
  const specials = $('specials');
  specials.replaceChildren();
  if (human) {
    for (const m of app.legal.filter((x) => x.clicks.length === 0)) {
      const b = document.createElement('button');
      b.textContent = m.label || m.move;
      b.dataset.move = m.move;
      if (m.note) { // what the move does, in the engine's words
        b.title = m.note;
        b.setAttribute('aria-description', m.note);
      }
      b.addEventListener('click', () => playMove(m.move));
      specials.append(b);
    }
  }
  $('chooser').hidden = true;
  // The banner: the result once the game is over (said there only), or
  // the seats out of a game that goes on (a Jinxx player vaporized).
  const banner = $('banner');
  const gone = st && !st.result ? goneText(st, seatName) : '';
  const said = st && st.result ? resultText(st, seatName) : gone;
  const news = said !== banner.textContent;
  banner.textContent = said;
  banner.hidden = !banner.textContent;
  banner.classList.toggle('gone', !!gone);
  if (news && !banner.hidden) bringIntoView(banner); // news: where the person looks (a phone may be scrolled to the board)
  app.baseStatus = '';
  if (st && !st.result) {
    const die = st.die ? ', the die shows' : '';
    app.baseStatus = capitalise(`${seatName(st.turn)} to move${die}${st.chance ? ', the die to roll' : ''}`);
  } else if (st) {
    app.baseStatus = app.clock.flag ? 'Game over on time: New game, or Clock "none" to play on.'
      : 'Game over: New game, Undo, or Open another.';
  }
  status(app.baseStatus);
  // What the engine says of the position (a Brax call, why Jinxx's mover
  // may roll again): beside the status, kept while a move is being made.
  $('status-notes').textContent = st && !st.result ? (st.notes || []).join('; ') : '';
  $('fen-shown').textContent = st ? st.fen : '';
  const die = $('die');
  die.hidden = !(st && st.die && !st.result);
  if (!die.hidden) {
    die.textContent = st.die;
    die.title = `The die shows ${st.die}`;
    die.setAttribute('aria-label', `The die shows ${st.die.split('').join(' and ')}`);
  }
  // The move box's example: a move legal here, one with cells if any.
  const example = app.legal.find((m) => m.clicks.length >= 2) || app.legal.find((m) => m.clicks.length) || app.legal[0];
  $('move-input').placeholder = human && example ? `a move, e.g. ${example.move}` : 'a move';
  renderMoveList();
  renderPlot();
}

// A cell as people call it: the layout's name where its id is no square
// of the board ("South's tree by a1"), else its id ("e4").
function cellName(id) {
  const c = app.board && app.board.cells.get(id);
  return c && c.name ? c.name : id;
}

// A half-made move on the board: the status says what the next click does
// (the engine's notes, a Brax call, stay beside it).
function onSelect(selection, next) {
  if (!selection.length || !app.state) { status(app.baseStatus || ''); return; }
  const who = capitalise(seatName(app.state.turn));
  const picked = selection.map(cellName).join(' to ');
  if (next === 'take') status(`${who}: choose the piece to take (ringed), or Esc`);
  else if (next === 'to') status(`${who}: ${picked} picked; now where it goes (marked), or Esc`);
  else if (next === 'to+') status(`${who}: ${picked} picked; now where it goes (marked; a ringed, crossed piece is taken), or Esc`);
  else status(`${who}: ${picked}: choose the move below, or Esc`);
}

// A click on a cell where no move of the mover's starts: said, not ignored.
function deadClick(id) {
  if (!app.state) return;
  status(`${capitalise(seatName(app.state.turn))}: no move starts at ${cellName(id)}`);
}

// The moves by turns: one row per turn (a seat's plies in a row: a Brax
// 3p Blue's two, a Jinxx roll, reroll and move), with its number and the
// mover; a roll of the die is no move.
function renderMoveList() {
  const ol = $('moves');
  ol.replaceChildren();
  let row = null, seat = -1, n = 0;
  const moves = app.game.moves;
  moves.forEach((m, i) => {
    const t = app.turns[i];
    const mover = t ? t.seat : null;
    if (!row || mover === null || mover !== seat) {
      row = document.createElement('li');
      row.value = ++n;
      const who = document.createElement('span');
      who.className = 'mover';
      if (mover !== null && app.layout) {
        const sw = document.createElement('span');
        sw.className = 'swatch';
        sw.style.background = app.layout.colors[mover];
        who.append(sw, ` ${seatName(mover)}`);
      }
      row.append(who);
      ol.append(row);
      seat = mover;
    }
    const span = document.createElement('span');
    span.className = t && t.chance ? 'ply roll' : 'ply';
    span.textContent = m;
    span.dataset.ply = i + 1;
    if (t && t.chance) span.title = `rolled ${m}`;
    if (app.view !== null && i === app.view - 1) span.classList.add('current');
    if (app.view !== null) {
      span.tabIndex = 0;
      span.setAttribute('role', 'button');
      span.addEventListener('click', () => replay.stepReplay(i + 1));
    }
    row.append(' ', span);
  });
  // The list scrolls, never the page (a click on its way would miss); in
  // the frame, whose layout its reading then is (read now, it would lay the
  // page out once more before the move is drawn).
  requestAnimationFrame(() => {
    const cur = ol.querySelector('.current');
    if (cur) {
      const row = cur.closest('li');
      if (row.offsetTop < ol.scrollTop || row.offsetTop + row.offsetHeight > ol.scrollTop + ol.clientHeight) {
        ol.scrollTop = row.offsetTop - ol.clientHeight / 2;
      }
    } else {
      ol.scrollTop = ol.scrollHeight;
    }
  });
  if (moves.length && moves.some((_, i) => !app.turns[i])) fillTurns();
}

// The movers of plies not seen by this page (a game opened, restored or
// replayed): asked of the engine in the background, one ply a piece (a
// person's step or move never waits for more than one). Every piece of
// work that searches sends its position first, so these may leave the
// engine elsewhere; the last puts it back all the same.
function fillTurns() {
  if (app.fillingTurns === app.game) return;
  const game = app.game;
  app.fillingTurns = game;
  const missing = game.moves.map((_, i) => i).filter((i) => !app.turns[i]);
  for (const ply of missing) {
    background(async () => {
      if (app.game !== game || app.turns[ply]) return;
      await stopSearch(); // the analysis, if on: a position is never sent during a search
      await app.session.send(positionCommand(game.moves.slice(0, ply)));
      const st = await app.session.describe('state');
      app.turns[ply] = { seat: st.turn, chance: st.chance };
    });
  }
  background(async () => {
    if (app.fillingTurns === game) app.fillingTurns = null;
    if (app.game !== game) return;
    await app.session.send(positionCommand()); // the engine back at the page's position
    renderMoveList();
    await startAnalysis();
  });
}

// After every change: roll the die, let Denham move, or wait for a person.
async function advance() {
  for (let guard = 0; guard < 2000; guard++) {
    const st = app.state;
    if (!st || st.result || app.view !== null) return;
    if (st.chance) {
      const face = rollDie(app.legal);
      status(`${seatName(st.turn)} rolls… ${face}`);
      await new Promise((r) => setTimeout(r, 350));
      app.lastLegalEntry = null;
      app.game.moves.push(face);
      await sync();
      continue;
    }
    if (app.seats[st.turn] !== 'engine') {
      await startAnalysis();
      return;
    }
    const move = await engineMove();
    if (!move) return;
    if (app.state !== st) return; // the game changed meanwhile
    app.lastLegalEntry = app.legal.find((m) => m.move === move) || null;
    app.game.moves.push(move);
    await sync();
  }
}

// A face of the die, each with its weight.
function rollDie(faces) {
  const total = faces.reduce((s, f) => s + (f.weight || 1), 0);
  const bytes = new Uint32Array(1);
  crypto.getRandomValues(bytes);
  let r = (bytes[0] / 2 ** 32) * total;
  for (const f of faces) {
    r -= f.weight || 1;
    if (r < 0) return f.move;
  }
  return faces[faces.length - 1].move;
}

// A move of a person's; clickedAt: when its last click was (for the
// page's figure, `lastMoveMs`, from that click to the frame showing it).
function playMove(move, clickedAt = performance.now()) {
  const t0 = clickedAt;
  const stopping = app.searching ? app.searching.kind : jobs.stopBackground ? 'background' : null;
  return exclusive(async () => {
    if (!humanToMove()) return;
    app.laps = { t0, stopping };
    await stopSearch();
    if (app.laps) app.laps.stopped = performance.now() - t0;
    app.lastLegalEntry = app.legal.find((m) => m.move === move) || null;
    app.game.moves.push(move);
    try {
      await sync(() => measureDrawn(t0, (ms) => { app.lastMoveMs = ms; })); // a person's move to the frame that shows it
    } catch (err) {
      app.game.moves.pop();
      app.lastLegalEntry = null;
      await sync();
      throw new Error(refusal(move, err.message));
    }
    await advance();
  });
}

// A typed move as the engine writes it: the legal move it names in any
// case, else in lower case when every legal move is (the notation does not
// care), else as typed.
function typedMove(text) {
  const same = app.legal.filter((m) => m.move.toLowerCase() === text.toLowerCase());
  if (same.length === 1) return same[0].move;
  if (app.legal.length && app.legal.every((m) => m.move === m.move.toLowerCase())) return text.toLowerCase();
  return text;
}

function chooseBetween(moves, canGoOn) {
  const box = $('chooser');
  box.replaceChildren();
  const title = document.createElement('span');
  title.textContent = canGoOn ? 'Play, or click on to go further:' : 'Which move?';
  box.append(title);
  for (const m of moves) {
    const b = document.createElement('button');
    b.textContent = m.label || m.move;
    b.dataset.move = m.move;
    b.addEventListener('click', () => { box.hidden = true; playMove(m.move); });
    box.append(b);
  }
  const cancel = document.createElement('button');
  cancel.textContent = 'Cancel';
  cancel.addEventListener('click', () => { box.hidden = true; app.board.clearSelection(); });
  box.append(cancel);
  box.hidden = false;
  box.querySelector('button').focus();
}

async function newGame(variant, start = 'startpos', moves = []) {
  if (!app.engineUp) return wantNewGame(variant);
  interrupt();
  await exclusive(async () => {
    await stopSearch();
    await app.session.send(`setoption name UCI_Variant value ${variant}`);
    await applySettings();
    app.layout = await app.session.describe('layout');
    app.board.setLayout(app.layout);
    $('board-wrap').style.aspectRatio = String(app.board.aspect());
    if (app.seats.length !== app.layout.players) {
      app.seats = app.layout.seats.map((_, i) => (i === 0 ? 'human' : 'engine'));
    }
    app.game = { start, moves: [...moves] };
    app.turns = [];
    app.view = null;
    app.viewWanted = null;
    app.replaying = null;
    replay.updateReplayWhere();
    app.evals = [];
    app.lines = [];
    app.lastLegalEntry = null;
    renderAnalysis();
    renderSeats();
    $('variant').value = variant;
    let refused = null;
    try {
      await sync();
    } catch (err) {
      if (start === 'startpos' && !moves.length) throw err;
      app.game = { start: 'startpos', moves: [] };
      await sync();
      refused = err;
    }
    // The board is drawn: now what a new game costs the engine (its tables
    // cleared, Brax's solved endings built: 50 ms), then the position again
    // (ucinewgame sets the start position).
    await app.session.send('ucinewgame');
    await app.session.ask('isready', 'readyok');
    await app.session.send(positionCommand());
    if (refused) throw new Error(`that game could not be set up (${refused.message}): a new game instead`);
  });
  return exclusive(advance);
}

// A new game asked for (a variant chosen, New game) before the engine is
// up: carried out as soon as it is (main()), instead of the game this
// visit would have restored; until then the board says so and shows that
// game's start if the engine described it before, and takes no move.
function wantNewGame(variant) {
  app.wanted = { variant: variant || null };
  app.starting = true;
  preview.drawStart(app.board, $('board-wrap'), $('variant'), variant);
  status(`Denham is starting: a new game${variant ? ` of ${variant}` : ''} begins as soon as it is up.`);
  firstShown();
}

function renderSeats() {
  const box = $('seats');
  box.replaceChildren();
  app.layout.seats.forEach((s, i) => {
    const row = document.createElement('div');
    row.className = 'seat';
    const sw = document.createElement('span');
    sw.className = 'swatch';
    sw.style.background = app.layout.colors[i];
    const label = document.createElement('label');
    label.textContent = `${s.name} `;
    const sel = document.createElement('select');
    sel.dataset.seat = i;
    for (const [v, t] of [['human', 'a person'], ['engine', 'Denham']]) {
      const o = document.createElement('option');
      o.value = v;
      o.textContent = t;
      sel.append(o);
    }
    sel.value = app.seats[i];
    sel.addEventListener('change', () => setSeats(app.seats.map((x, k) => (k === i ? sel.value : x))));
    label.append(sel);
    row.append(sw, label);
    box.append(row);
  });
}

function setSeats(seats) {
  interrupt();
  return exclusive(async () => {
    await stopSearch();
    app.seats = seats;
    renderSeats();
    render();
    persist();
  }).then(() => exclusive(advance));
}

function undo() {
  if (app.clock.flag && app.view === null) {
    // A clock at zero takes no time back: the game stays over, and says how
    // to play on.
    showError('The game ended on time, and Undo brings no time back: choose "none" under Clock to play on without clocks, or start a New game.');
    return Promise.resolve();
  }
  interrupt();
  return exclusive(async () => {
    await stopSearch();
    if (app.view !== null || app.game.moves.length === 0) return;
    // Back to the last position where a person chose a move.
    do {
      app.game.moves.pop();
      await sync();
    } while (app.game.moves.length > 0 && (app.state.chance || app.seats[app.state.turn] !== 'human'));
    app.evals.length = app.game.moves.length + 1;
    app.lastLegalEntry = null;
    render();
    await startAnalysis();
  });
}

// A new engine process knows nothing: the variant, the settings and the
// game are sent again.
async function reinitEngine() {
  await app.session.send('uci');
  await app.session.send(`setoption name UCI_Variant value ${app.layout.variant}`);
  await applySettings();
  await app.session.ask('isready', 'readyok');
  await sync();
}

async function restartEngine() {
  await app.session.restart();
  await new Promise((r) => setTimeout(r, 300));
  await reinitEngine();
}

// Why the board takes no move now, or '' when it takes one.
function whyNoMove() {
  const st = app.state;
  if (app.starting) return 'Denham is starting: the board takes moves in a moment.';
  if (!st) return 'The game is still being set up.';
  if (app.view !== null) return `This is a replay: the board shows move ${app.view} of ${app.game.moves.length}. "Play from here" to play on from it${app.myGame ? ', "Back to my game" to return' : ''}.`;
  if (st.result && app.clock.flag) return 'The game is over on time: New game, or choose "none" under Clock to play on.';
  if (st.result) return 'The game is over: New game, Undo, or Open another.';
  if (st.chance) return 'The die is being rolled…';
  if (app.seats[st.turn] === 'engine') return `${capitalise(seatName(st.turn))} is Denham's to play: wait for its move, or make the seat "a person" under Players.`;
  return '';
}

// A click on the board when it takes none: why.
function idleClick() {
  const why = whyNoMove();
  if (why) status(why);
}

// ---- controls ----

// The Engine panel's boxes, each within its bounds.
function settingsFromBoxes() {
  const num = (id, lo, hi, dflt) => {
    const v = parseInt($(id).value, 10);
    return Number.isFinite(v) ? Math.max(lo, Math.min(hi, v)) : dflt;
  };
  return {
    movetime: num('movetime', 10, 600000, 1000), skill: num('skill', 0, 20, 20),
    threads: num('threads', 1, app.threadsMax, 1), multipv: num('multipv', 1, 8, 1),
  };
}

function readSettings() {
  app.settings = settingsFromBoxes();
  persist();
  return exclusive(async () => {
    await stopSearch();
    await applySettings();
    await startAnalysis();
  });
}

// Settings saved by an earlier visit, into the Engine panel's boxes.
function restoreSettings(saved) {
  const s = saved.settings || {};
  for (const id of ['movetime', 'skill', 'threads', 'multipv']) {
    if (Number.isFinite(s[id])) $(id).value = String(s[id]);
  }
  $('analyse').checked = saved.analyse === true;
  app.settings = settingsFromBoxes();
}

// Open: a games file (or one line of one). One game is set up to play on
// from its end; several go to the replay list.
async function openGames(text) {
  const games = record.parseGames(text);
  if (games.length > 1) {
    $('replay-panel').open = true;
    return replay.loadGames(text);
  }
  const g = games[0];
  if (!app.variants.includes(g.variant)) throw new Error(`no game '${g.variant}' here`);
  await newGame(g.variant, g.start, g.moves);
  status(`Opened: ${g.variant}, ${g.moves.length} moves${g.result && g.result !== '*' ? `, ${g.result} (${g.reason})` : ''}`);
  replay.showBoard();
}

function wire() {
  $('variant').addEventListener('change', (e) => newGame(e.target.value));
  $('new-game').addEventListener('click', () => newGame(app.layout ? app.layout.variant : $('variant').value));
  $('undo').addEventListener('click', undo);
  $('flip').addEventListener('click', () => { app.board.setFlipped(!app.board.flipped); persist(); });
  $('preset').addEventListener('change', (e) => {
    const n = app.layout.players, v = e.target.value;
    e.target.value = '';
    const seats = Array.from({ length: n }, (_, i) => {
      if (v === 'people') return 'human';
      if (v === 'watch') return 'engine';
      const mine = v === 'first' ? 0 : 1;
      return app.layout.seats[i].team === app.layout.seats[mine].team ? 'human' : 'engine';
    });
    setSeats(seats);
  });
  $('move-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = $('move-input').value.trim();
    if (!text) return;
    if (!humanToMove()) { showError(whyNoMove() || 'No move can be typed now.'); return; }
    $('move-input').value = '';
    playMove(typedMove(text));
  });
  $('fen-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = $('fen-input').value.trim();
    if (!text) return;
    const set = record.parseStart(text); // a FEN, or a position with its moves
    exclusive(async () => {
      await stopSearch();
      const before = app.game;
      app.game = set;
      app.turns = [];
      app.view = null;
      app.viewWanted = null;
      app.evals = [];
      try {
        await sync();
      } catch (err) {
        app.game = before;
        app.turns = [];
        await sync();
        throw err;
      }
      replay.showBoard();
    }).then(() => exclusive(advance));
  });
  $('download').addEventListener('click', () => {
    const line = record.gameLine(app.layout, app.state, app.game, app.seats);
    record.download(`denham-${app.layout.variant}.txt`, line + '\n');
    status('The game was downloaded as a line of a denham-match games file.');
  });
  $('open-file').addEventListener('change', async (e) => {
    const file = e.target.files[0];
    e.target.value = '';
    if (!file) return;
    if (file.size > 20 * 1024 * 1024) { showError('That file is larger than 20 MB.'); return; }
    try { await openGames(await file.text()); } catch (err) { showError(err.message); }
  });
  $('copy-position').addEventListener('click', async () => {
    const text = positionCommand(app.game.moves);
    try {
      await navigator.clipboard.writeText(text);
      status('Copied: ' + text);
    } catch {
      status(text);
    }
  });
  for (const id of ['movetime', 'skill', 'threads', 'multipv']) $(id).addEventListener('change', readSettings);
  $('analyse').addEventListener('change', () => exclusive(async () => {
    persist();
    await stopSearch();
    app.lines = [];
    renderAnalysis();
    app.board.setBestLine(null);
    await startAnalysis();
  }));
  $('restart-engine').addEventListener('click', () => exclusive(async () => {
    app.searching = null;
    app.token++;
    await restartEngine();
  }).then(() => exclusive(advance)));
  replay.wire(showError);
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('input, textarea, select')) return;
    if (e.key === 'Escape') { $('chooser').hidden = true; app.board.clearSelection(); }
    else if (e.key === 'f') $('flip').click();
    else if (e.key === 'u') $('undo').click();
    else if (e.key === 'n') $('new-game').click();
    else return;
    e.preventDefault();
  });
}

function onEngineState(info) {
  if (info.state === 'crashed' || info.state === 'down') {
    showError(`The engine stopped (${info.detail}). ${info.state === 'down' ? 'Reload the page.' : 'A new one is starting; the game is sent again.'}`, { anywhere: true });
    app.searching = null;
    app.token++;
  } else if (info.state === 'restarted') {
    exclusive(async () => {
      await reinitEngine();
      messages.clearError(); // recovered: the message is about a state gone
      status(`${messages.statusEl.textContent} (the engine was started again)`);
    }).then(() => exclusive(advance));
  } else if (info.state === 'closed') {
    showError(`The engine's session ended (${info.detail}). Reload the page for a new one.`, { anywhere: true });
  }
}

async function main() {
  messages = new Messages($('status'), $('error'), $('error-text'), $('error-close'));
  app.messages = messages;
  app.board = new Board($('board'), playMove, chooseBetween, onSelect, idleClick, deadClick);
  wire();
  app.session.lineHandlers.push(onEngineLine);
  app.session.stateHandlers.push(onEngineState);
  const address = record.readAddress();
  const saved = record.loadSaved();
  app.board.setFlipped(saved.flipped === true);
  showKept(address, saved);
  // No engine to be had (every one taken, the server gone): said on the
  // board, with a button to try again, and tried again every 10 s.
  for (;;) {
    try {
      await app.session.open();
      break;
    } catch (err) {
      status('');
      setWords($('no-engine-why'), capitalise(`${err.message}.`)); // '(--max-sessions)' kept whole
      $('no-engine').hidden = false;
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, 10000);
        $('no-engine-retry').onclick = () => { clearTimeout(timer); resolve(); };
      });
      $('no-engine-why').textContent = 'Trying again…';
    }
  }
  $('no-engine').hidden = true;
  const options = [];
  const collect = (line) => { if (line.startsWith('option ')) options.push(line); };
  app.session.lineHandlers.push(collect);
  await app.session.ask('uci', 'uciok');
  app.session.lineHandlers.splice(app.session.lineHandlers.indexOf(collect), 1);
  const variantLine = options.find((l) => l.startsWith('option name UCI_Variant '));
  const threads = /^option name Threads type spin .* max (\d+)/.exec(options.find((l) => l.startsWith('option name Threads ')) || '');
  if (threads) app.threadsMax = Math.min(64, Number(threads[1]));
  $('threads').max = String(app.threadsMax);
  app.variants = variantLine ? variantLine.split(' var ').slice(1).map((v) => v.trim()) : [];
  const select = $('variant');
  select.replaceChildren(); // the variant of a board drawn before the engine was up
  for (const v of app.variants) select.append(new Option(v, v));
  preview.keepVariants(app.variants);
  // The game to show (a new one if the person asked for it while the
  // engine started); the seats, settings and analysis of the last visit.
  restoreSettings(saved);
  const dflt = /default (\S+)/.exec(variantLine || '');
  app.engineUp = true; // newGame() from here on talks to the engine
  const wanted = app.wanted;
  app.wanted = null;
  const { variant, game, same } = wanted
    ? { variant: app.variants.includes(wanted.variant) ? wanted.variant : dflt ? dflt[1] : app.variants[0], game: { start: 'startpos', moves: [] }, same: false }
    : record.chooseGame(address, saved, app.variants, dflt ? dflt[1] : app.variants[0]);
  if (saved.variant === variant && Array.isArray(saved.seats) && saved.seats.every((x) => x === 'human' || x === 'engine')) {
    app.seats = saved.seats;
  }
  if (same) app.clock.restore(saved.clock);
  await newGame(variant, game.start, game.moves);
  if (same && saved.replay && saved.replay.game && Array.isArray(saved.replay.game.moves)) await replay.reopenReplay(saved.replay);
  document.body.dataset.ready = 'true';
  performance.mark('denham-ready'); // the board takes moves (bench_denham wasm)
}

// Before the engine is up (the static page): the board this visit shows,
// as the engine described it on the last visit or, on a first visit, as
// it described the default variant's start when the page was built
// (preview.js). It takes no move (app.state stays null; a click says why)
// until show() replaces it. The variant box offers the engine's variants
// already (a choice is carried out once it is up: wantNewGame()).
function showKept(address, saved) {
  const kept = preview.keptVariants();
  const { variant, game, same } = record.chooseGame(address, saved, kept.length ? kept : null, preview.defaultVariant());
  preview.offerVariants($('variant'), variant);
  if (same && saved.replay && saved.replay.game) return; // a replay is shown over it: wait for the engine
  if (!preview.draw(app.board, $('board-wrap'), $('variant'), variant, positionCommand(game.moves, game.start))) return;
  app.starting = true;
  status(whyNoMove());
  firstShown();
}

function firstShown() {
  if (app.firstShown) return;
  app.firstShown = true; // the first board painted (bench_denham web, wasm)
  afterPaint((at) => { document.body.dataset.drawnMs = String(at); });
}

// The replay of a match, given the app's state and work.
const replay = createReplay({
  app, jobs, exclusive, exclusiveStep, background, stopSearch, interrupt, sync, show, describePosition,
  describeNeighbours, known: (command) => described.get(describedKey(command)), positionCommand, measureDrawn,
  startAnalysis, newGame, renderSeats, render, persist, advance, renderPlot, status,
});

main().catch((err) => showError(err.message, { anywhere: true }));
