// app.js: Denham's board in the browser: the game in progress, the turns
// (a person's clicks, Denham's searches, the die), the replay, the
// controls, and the order of the engine work (a person's first, then the
// background's). Every board, piece and legal move comes from the engine
// through PROTOCOL.md (`layout`, `state`, `legalmoves`, `go`, `info`):
// this file knows no game's rules, and leaves drawing to board.js, the
// engine's transport to session.js, the numbers' words and plot to
// analysis.js, the record and what survives a reload to record.js and the
// wording of messages to messages.js. A game added to the engine appears
// here unchanged.

import { Board } from './board.js';
import { EngineSession } from './session.js';
import { GameClock } from './clock.js'; // issue 54: clocks
import { Messages, capitalise } from './messages.js';
import * as record from './record.js';
import { parseInfo, centipawns, renderLines, renderPlot as drawPlot, plotPly } from './analysis.js';

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
app.clock = new GameClock(app, () => { interrupt(); render(); }); // issue 54: clocks (a flag fall ends the game)

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

function positionCommand(moves = shownMoves()) {
  return moves.length ? `position ${app.game.start} moves ${moves.join(' ')}` : `position ${app.game.start}`;
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
  if (!app.firstShown) { // the first board painted (bench_denham web)
    app.firstShown = true;
    afterPaint((at) => { document.body.dataset.drawnMs = String(at); });
  }
  app.state = state;
  app.legal = legal;
  app.turns[shownMoves().length] = { seat: state.turn, chance: state.chance };
  messages.at(positionCommand());
  app.clock.onState(state); // issue 54: clocks
  render();
  if (app.laps) app.laps.rendered = performance.now() - app.laps.t0;
  persist();
  if (app.laps) app.laps.persisted = performance.now() - app.laps.t0;
}

// What survives a reload: the game in the address (a link) and, with the
// seats and settings, in localStorage.
function persist() {
  if (!app.layout) return;
  record.writeAddress(app.layout.variant, app.game);
  record.save({
    variant: app.layout.variant, game: app.game, seats: app.seats, settings: app.settings,
    analyse: $('analyse').checked, flipped: app.board.flipped,
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
      b.addEventListener('click', () => playMove(m.move));
      specials.append(b);
    }
  }
  $('chooser').hidden = true;
  const banner = $('banner');
  if (st && st.result) {
    banner.textContent = resultText(st);
    banner.hidden = false;
  } else {
    banner.hidden = true;
  }
  app.baseStatus = '';
  if (st && !st.result) {
    const die = st.die ? ', the die shows' : '';
    const notes = (st.notes || []).join('; ');
    app.baseStatus = capitalise(`${seatName(st.turn)} to move${die}${st.chance ? ', the die to roll' : ''}${notes ? ' — ' + notes : ''}`);
  } else if (st) {
    app.baseStatus = `Game over. ${resultText(st)}`;
  }
  status(app.baseStatus);
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

// The result as the engine says it (`result.text`: who won, how and
// where; the cells it names in `result.decisive` are drawn by the board).
// A result the app made itself (a flag fall) has no text: who won and why.
function resultText(st) {
  const r = st.result;
  if (r.text) return r.text;
  const who = r.kind === 'win' ? `${r.players.map(seatName).join(' and ')} won` : 'Drawn';
  return capitalise(`${who}: ${r.reason}`);
}

// A half-made move on the board: the status says what the next click does.
function onSelect(selection, next) {
  if (!selection.length || !app.state) { status(app.baseStatus || ''); return; }
  const who = capitalise(seatName(app.state.turn));
  if (next === 'take') status(`${who}: choose the piece to take (ringed), or Esc`);
  else if (next === 'to') status(`${who}: ${selection.join('-')} picked; now where it goes (marked), or Esc`);
  else if (next === 'to+') status(`${who}: ${selection.join('-')} picked; now where it goes (marked; a ringed, crossed piece is taken), or Esc`);
  else status(`${who}: ${selection.join('-')}`);
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
      span.addEventListener('click', () => stepReplay(i + 1));
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

// The engine's refusal in words: "illegal move 'X': <the rule>" (the rule
// when the engine gives one), never the move twice.
function refusal(move, why) {
  const m = /^illegal move '([^']*)'(?::\s*(.*))?$/.exec(why);
  if (!m) return `'${move}': ${why}`;
  return m[2] ? `Illegal move '${m[1]}': ${m[2]}` : `Illegal move '${m[1]}'.`;
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
    updateReplayWhere();
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

// ---- replay of a match ----

function loadGames(text) {
  const games = record.parseGames(text);
  app.replayGames = games;
  const list = $('games-list');
  list.replaceChildren();
  games.forEach((g, i) => {
    const o = document.createElement('option');
    o.value = i;
    o.textContent = `#${g.index} ${g.variant}: ${g.p1} vs ${g.p2}, ${g.result} (${g.reason})`;
    list.append(o);
  });
  list.value = '0';
  return replayGame(0);
}

// A replayed game is shown beside the game in progress, never instead of
// it: "Back to my game" returns to it, "Play from here" plays on from the
// position shown (the game in progress then kept for Back).
async function replayGame(i) {
  const g = app.replayGames[i];
  if (!g) return;
  if (app.view === null && app.layout && app.game.moves.length) {
    app.myGame = { variant: app.layout.variant, game: app.game, seats: app.seats, turns: app.turns, evals: app.evals };
  }
  await newGame(g.variant, g.start);
  await exclusive(async () => {
    await stopSearch();
    app.game = { start: g.start, moves: g.moves };
    app.replaying = g;
    app.turns = [];
    app.evals = [];
    app.view = 0;
    app.viewWanted = 0;
    await sync();
    updateReplayWhere();
  });
  evaluateReplay(g);
}

// The evaluation plot of a replayed game: a short search of every
// position, in the background (a step is never kept waiting by it).
function evaluateReplay(g) {
  const moves = g.moves;
  const one = (ply) => background(async () => {
    if (app.game.moves !== moves) return; // another game meanwhile
    await stopSearch();
    const command = positionCommand(moves.slice(0, ply));
    const known = described.get(describedKey(command));
    if (known) await app.session.send(command);
    const st = known ? known.state : (await describePosition(command)).state;
    if (st.result || st.chance) return;
    let last = null, stopped = false;
    const seen = (line) => { if (line.startsWith('info depth')) last = parseInfo(line) || last; };
    app.session.lineHandlers.push(seen);
    jobs.stopBackground = () => { stopped = true; jobs.stopBackground = null; app.session.send('stop').catch(() => {}); };
    try {
      await app.session.ask('go depth 5', 'bestmove', 60000);
    } finally {
      jobs.stopBackground = null;
      app.session.lineHandlers.splice(app.session.lineHandlers.indexOf(seen), 1);
    }
    if (stopped) { one(ply); return; } // cut short for a person (whose work sends its position): again, later
    await app.session.send(positionCommand()); // the engine back at the page's position
    if (last && app.game.moves === moves) {
      app.evals[ply] = { cp: centipawns(last), mover: st.turn, own: false };
      renderPlot();
    }
  });
  // First every position described, a few at a piece (a step to any is
  // then drawn at its click, however quick the clicks), then the searches.
  const DESCRIBED_A_PIECE = 8;
  for (let from = 0; from <= moves.length; from += DESCRIBED_A_PIECE) {
    background(async () => {
      if (app.game.moves !== moves) return;
      await stopSearch();
      for (let ply = from; ply <= Math.min(moves.length, from + DESCRIBED_A_PIECE - 1); ply++) {
        const command = positionCommand(moves.slice(0, ply));
        if (!described.has(describedKey(command))) await describePosition(command);
      }
      await app.session.send(positionCommand()); // the engine back at the page's position
    });
  }
  for (let ply = 0; ply <= moves.length; ply++) one(ply);
  background(startAnalysis);
}

// A step of the replay: where to go is decided at the click (three quick
// clicks are three steps). A position the page knows is drawn at the
// click, unless a person's earlier work is still to finish (it would draw
// over it); the engine follows (the position, the neighbours, the
// analysis) when it is free. Steps still queued are drawn once, at the last.
function stepReplay(to) {
  if (app.view === null) return Promise.resolve();
  app.viewWanted = Math.max(0, Math.min(app.game.moves.length, to));
  const t0 = performance.now();
  const stopping = app.searching ? app.searching.kind : jobs.stopBackground ? 'background' : null;
  const queued = jobs.bg.length; // the plot's work still to do at the click
  const measure = () => measureDrawn(t0, (ms) => { app.lastStepMs = ms; }); // the click to its frame (bench_denham web-board)
  const known = described.get(describedKey(positionCommand(app.game.moves.slice(0, app.viewWanted))));
  // Only replay steps ahead, none drawing: nothing would draw over this.
  const onlySteps = jobs.fg.every((j) => j.step) && !(jobs.current && jobs.current.fg && !jobs.current.step);
  if (known && app.viewWanted !== app.view && onlySteps && !app.stepDrawing) {
    app.laps = { t0, stopping, queued, atOnce: true };
    interrupt(); // the analysis of the last step: its lines are not this one's
    app.token++; // nor those of one about to start there
    app.view = app.viewWanted;
    app.lastLegalEntry = null;
    show({ ...known.state }, known.legal);
    updateReplayWhere();
    measure();
    app.stepPending = true; // the engine is yet to follow
  }
  return exclusiveStep(async () => {
    if (app.view === null || app.viewWanted === null) return;
    if (app.viewWanted === app.view && !app.stepPending) return; // drawn and followed by an earlier click's work
    const atOnce = app.stepPending;
    app.stepPending = false;
    if (!atOnce) app.laps = { t0, stopping, queued };
    await stopSearch();
    if (app.laps && !atOnce) app.laps.stopped = performance.now() - t0;
    if (app.viewWanted !== app.view) {
      app.view = app.viewWanted;
      app.lastLegalEntry = null;
      app.stepDrawing = true;
      try {
        await sync(() => { app.stepDrawing = false; updateReplayWhere(); measure(); });
      } finally {
        app.stepDrawing = false;
      }
    } else {
      await app.session.send(positionCommand());
    }
    await describeNeighbours();
    await startAnalysis();
  });
}

// The replay's position as the person last asked for it.
function viewWanted() { return app.viewWanted ?? app.view; }

function updateReplayWhere() {
  const bar = $('replay-bar');
  bar.hidden = app.view === null;
  const plot = $('plot');
  plot.classList.toggle('steps', app.view !== null);
  plot.setAttribute('aria-label', app.view === null ? 'Evaluation over the game'
    : 'Evaluation over the game: click a point to go to that move');
  if (app.view === null) return;
  const g = app.replaying;
  $('replay-where').textContent = `Replay${g ? ` of #${g.index} ${g.p1} vs ${g.p2}` : ''}: move ${app.view} of ${app.game.moves.length}`;
  $('replay-back-to-game').hidden = !app.myGame;
}

// Leaves a replay: back to the game in progress when there was one.
function backToMyGame() {
  const mine = app.myGame;
  app.myGame = null;
  app.replaying = null;
  if (!mine) { playFromHere(); return Promise.resolve(); }
  return newGame(mine.variant, mine.game.start, mine.game.moves).then(() => exclusive(async () => {
    app.seats = mine.seats.length === app.layout.players ? mine.seats : app.seats;
    renderSeats();
    render();
    persist();
  })).then(() => exclusive(advance));
}

// Plays on from the replayed position: it becomes the game (the one in
// progress before stays for "Back to my game" no more: it was asked for).
function playFromHere() {
  return exclusive(async () => {
    await stopSearch();
    if (app.view === null) return;
    app.game = { start: app.game.start, moves: app.game.moves.slice(0, app.view) };
    app.view = null;
    app.viewWanted = null;
    app.replaying = null;
    app.myGame = null;
    app.evals.length = app.game.moves.length + 1;
    await sync();
    updateReplayWhere();
    status(`${app.baseStatus} (played on from the replay)`);
  }).then(() => exclusive(advance));
}

// A click on the board when it takes none: why.
function idleClick() {
  const st = app.state;
  if (!st) return;
  if (app.view !== null) status(`This is a replay: the board shows move ${app.view} of ${app.game.moves.length}. "Play from here" to play on from it${app.myGame ? ', "Back to my game" to return' : ''}.`);
  else if (st.result) status(`The game is over (${resultText(st)}). New game, Undo, or Open another.`);
  else if (st.chance) status('The die is being rolled…');
  else if (app.seats[st.turn] === 'engine') status(`${capitalise(seatName(st.turn))} is Denham's to play: wait for its move, or make the seat "a person" under Players.`);
}

// ---- controls ----

function readSettings() {
  const num = (id, lo, hi, dflt) => {
    const v = parseInt($(id).value, 10);
    return Number.isFinite(v) ? Math.max(lo, Math.min(hi, v)) : dflt;
  };
  app.settings = {
    movetime: num('movetime', 10, 600000, 1000), skill: num('skill', 0, 20, 20),
    threads: num('threads', 1, app.threadsMax, 1), multipv: num('multipv', 1, 8, 1),
  };
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
  const num = (id, lo, hi, dflt) => {
    const v = parseInt($(id).value, 10);
    return Number.isFinite(v) ? Math.max(lo, Math.min(hi, v)) : dflt;
  };
  app.settings = {
    movetime: num('movetime', 10, 600000, 1000), skill: num('skill', 0, 20, 20),
    threads: num('threads', 1, app.threadsMax, 1), multipv: num('multipv', 1, 8, 1),
  };
}

// Open: a games file (or one line of one). One game is set up to play on
// from its end; several go to the replay list.
async function openGames(text) {
  const games = record.parseGames(text);
  if (games.length > 1) {
    $('replay-panel').open = true;
    return loadGames(text);
  }
  const g = games[0];
  if (!app.variants.includes(g.variant)) throw new Error(`no game '${g.variant}' here`);
  await newGame(g.variant, g.start, g.moves);
  status(`Opened: ${g.variant}, ${g.moves.length} moves${g.result && g.result !== '*' ? `, ${g.result} (${g.reason})` : ''}`);
}

function wire() {
  $('variant').addEventListener('change', (e) => newGame(e.target.value));
  $('new-game').addEventListener('click', () => newGame(app.layout.variant));
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
    if (!humanToMove()) { showError('It is not a person\'s turn: no move can be typed now.'); return; }
    $('move-input').value = '';
    playMove(typedMove(text));
  });
  $('fen-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const fen = $('fen-input').value.trim();
    if (!fen) return;
    exclusive(async () => {
      await stopSearch();
      const before = app.game;
      app.game = { start: `fen ${fen}`, moves: [] };
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
  $('games-file').addEventListener('change', async (e) => {
    const file = e.target.files[0];
    e.target.value = ''; // the same file chosen again is read again
    if (!file) return;
    if (file.size > 20 * 1024 * 1024) { showError('That file is larger than 20 MB.'); return; }
    try { await loadGames(await file.text()); } catch (err) { showError(err.message); }
  });
  $('games-load').addEventListener('click', async () => {
    try { await loadGames($('games-paste').value); } catch (err) { showError(err.message); }
  });
  $('games-list').addEventListener('change', (e) => replayGame(parseInt(e.target.value, 10)));
  $('replay-start').addEventListener('click', () => stepReplay(0));
  $('replay-back').addEventListener('click', () => stepReplay(viewWanted() - 1));
  $('replay-next').addEventListener('click', () => stepReplay(viewWanted() + 1));
  // In a replay the plot is a way through the game: a click goes to the
  // move under it.
  $('plot').addEventListener('click', (e) => {
    if (app.view === null) return;
    const ply = plotPly($('plot'), e.clientX, e.clientY, Math.max(app.game.moves.length, 1));
    if (ply !== null) stepReplay(ply);
  });
  $('replay-end').addEventListener('click', () => stepReplay(app.game.moves.length));
  $('replay-play-here').addEventListener('click', playFromHere);
  $('replay-back-to-game').addEventListener('click', backToMyGame);
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('input, textarea, select')) return;
    if (e.key === 'ArrowLeft' && app.view !== null) stepReplay(viewWanted() - 1);
    else if (e.key === 'ArrowRight' && app.view !== null) stepReplay(viewWanted() + 1);
    else if (e.key === 'Home' && app.view !== null) stepReplay(0);
    else if (e.key === 'End' && app.view !== null) stepReplay(app.game.moves.length);
    else if (e.key === 'Escape') { $('chooser').hidden = true; app.board.clearSelection(); }
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
  app.board = new Board($('board'), playMove, chooseBetween, onSelect, idleClick);
  wire();
  app.session.lineHandlers.push(onEngineLine);
  app.session.stateHandlers.push(onEngineState);
  // No engine to be had (every one taken, the server gone): said on the
  // board, with a button to try again, and tried again every 10 s.
  for (;;) {
    try {
      await app.session.open();
      break;
    } catch (err) {
      status('');
      $('no-engine-why').textContent = capitalise(`${err.message}.`);
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
  for (const v of app.variants) {
    const o = document.createElement('option');
    o.value = v;
    o.textContent = v;
    select.append(o);
  }
  // The game to show: the address's (a link), else the one of the last
  // visit; the seats, settings and analysis of the last visit.
  const address = record.readAddress();
  const saved = record.loadSaved();
  restoreSettings(saved);
  app.board.setFlipped(saved.flipped === true);
  const dflt = /default (\S+)/.exec(variantLine || '');
  const known = (v) => v && app.variants.includes(v);
  const variant = known(address.variant) ? address.variant : known(saved.variant) ? saved.variant
    : dflt ? dflt[1] : app.variants[0];
  let game = { start: 'startpos', moves: [] };
  if (address.game) game = address.game;
  else if (!address.variant && saved.variant === variant && saved.game && Array.isArray(saved.game.moves)) game = saved.game;
  if (saved.variant === variant && Array.isArray(saved.seats) && saved.seats.every((x) => x === 'human' || x === 'engine')) {
    app.seats = saved.seats;
  }
  await newGame(variant, game.start, game.moves);
  document.body.dataset.ready = 'true';
}

main().catch((err) => showError(err.message, { anywhere: true }));
