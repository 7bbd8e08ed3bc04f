// replay.js: the replay of a match (a denham-match games file, or one line
// of it) beside the game in progress, never instead of it: the games
// listed, a game shown move by move (each step drawn at its click when the
// position is known), its evaluation plotted in the background, "Back to
// my game" and "Play from here", and the replay shown again after a
// reload. Knows no game: positions come from the engine through the app.
// It reaches the app only through what createReplay is given (the engine
// work queue, the drawing of a position, a new game, the record of what
// survives a reload); its own controls are the replay bar, the Replay
// panel and the plot's clicks.

import * as record from './record.js';
import { parseInfo, centipawns, plotPly } from './analysis.js';

const $ = (id) => document.getElementById(id);

// w: the app's state and work (see app.js, where the replay is made):
// app, jobs, exclusive, exclusiveStep, background, stopSearch, interrupt,
// sync, show, describePosition, describeNeighbours, known(command),
// positionCommand, measureDrawn, startAnalysis, newGame, renderSeats,
// render, persist, advance, renderPlot, status.
export function createReplay(w) {
  const { app, jobs } = w;

  function loadGames(text) {
    return listGames(record.parseGames(text));
  }

  // The board brought into view after what the panel did to it (a phone's
  // page is scrolled down to the panel): its status first.
  function showBoard() {
    const r = $('status-line').getBoundingClientRect();
    if (r.top < 0 || r.bottom > innerHeight) window.scrollBy(0, Math.floor($('board-area').getBoundingClientRect().top));
  }

  // Games to replay, listed; the first one shown.
  function listGames(games) {
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
    return replayGame(0).then(showBoard);
  }

  // A replayed game is shown beside the game in progress, never instead
  // of it: "Back to my game" returns to it (with its clocks, stopped
  // meanwhile), "Play from here" plays on from the position shown.
  async function replayGame(i) {
    const g = app.replayGames[i];
    if (!g) return;
    if (app.view === null && app.layout && app.game.moves.length) {
      app.myGame = {
        variant: app.layout.variant, game: app.game, seats: app.seats, turns: app.turns, evals: app.evals,
        clock: app.clock.snapshot({ paused: true }),
      };
    }
    await w.newGame(g.variant, g.start);
    await w.exclusive(async () => {
      await w.stopSearch();
      app.game = { start: g.start, moves: g.moves };
      app.replaying = g;
      app.turns = [];
      app.evals = [];
      app.view = 0;
      app.viewWanted = 0;
      await w.sync();
      updateReplayWhere();
    });
    evaluateReplay(g);
  }

  // The evaluation plot of a replayed game: a short search of every
  // position, in the background (a step is never kept waiting by it).
  function evaluateReplay(g) {
    const moves = g.moves;
    const one = (ply) => w.background(async () => {
      if (app.game.moves !== moves) return; // another game meanwhile
      await w.stopSearch();
      const command = w.positionCommand(moves.slice(0, ply));
      const known = w.known(command);
      if (known) await app.session.send(command);
      const st = known ? known.state : (await w.describePosition(command)).state;
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
      await app.session.send(w.positionCommand()); // the engine back at the page's position
      if (last && app.game.moves === moves) {
        app.evals[ply] = { cp: centipawns(last), mover: st.turn, own: false };
        w.renderPlot();
      }
    });
    // First every position described, a few at a piece (a step to any is
    // then drawn at its click, however quick the clicks), then the searches.
    const DESCRIBED_A_PIECE = 8;
    for (let from = 0; from <= moves.length; from += DESCRIBED_A_PIECE) {
      w.background(async () => {
        if (app.game.moves !== moves) return;
        await w.stopSearch();
        for (let ply = from; ply <= Math.min(moves.length, from + DESCRIBED_A_PIECE - 1); ply++) {
          const command = w.positionCommand(moves.slice(0, ply));
          if (!w.known(command)) await w.describePosition(command);
        }
        await app.session.send(w.positionCommand()); // the engine back at the page's position
      });
    }
    for (let ply = 0; ply <= moves.length; ply++) one(ply);
    w.background(w.startAnalysis);
  }

  // A step of the replay: where to go is decided at the click (three
  // quick clicks are three steps). A position the page knows is drawn at
  // the click, unless a person's earlier work is still to finish (it would
  // draw over it); the engine follows (the position, the neighbours, the
  // analysis) when it is free. Steps still queued are drawn once, at the
  // last.
  function stepReplay(to) {
    if (app.view === null) return Promise.resolve();
    const t0 = performance.now();
    app.viewWanted = Math.max(0, Math.min(app.game.moves.length, to));
    w.persist(); // kept at the click: a reload before the step is drawn comes back to it
    const stopping = app.searching ? app.searching.kind : jobs.stopBackground ? 'background' : null;
    const queued = jobs.bg.length; // the plot's work still to do at the click
    const measure = () => w.measureDrawn(t0, (ms) => { app.lastStepMs = ms; }); // the click to its frame (bench_denham web-board)
    const known = w.known(w.positionCommand(app.game.moves.slice(0, app.viewWanted)));
    // Only replay steps ahead, none drawing: nothing would draw over this.
    const onlySteps = jobs.fg.every((j) => j.step) && !(jobs.current && jobs.current.fg && !jobs.current.step);
    if (known && app.viewWanted !== app.view && onlySteps && !app.stepDrawing) {
      app.laps = { t0, stopping, queued, atOnce: true };
      w.interrupt(); // the analysis of the last step: its lines are not this one's
      app.token++; // nor those of one about to start there
      app.view = app.viewWanted;
      app.lastLegalEntry = null;
      w.show({ ...known.state }, known.legal);
      updateReplayWhere();
      measure();
      app.stepPending = true; // the engine is yet to follow
    }
    return w.exclusiveStep(async () => {
      if (app.view === null || app.viewWanted === null) return;
      if (app.viewWanted === app.view && !app.stepPending) return; // drawn and followed by an earlier click's work
      const atOnce = app.stepPending;
      app.stepPending = false;
      if (!atOnce) app.laps = { t0, stopping, queued };
      await w.stopSearch();
      if (app.laps && !atOnce) app.laps.stopped = performance.now() - t0;
      if (app.viewWanted !== app.view) {
        app.view = app.viewWanted;
        app.lastLegalEntry = null;
        app.stepDrawing = true;
        try {
          await w.sync(() => { app.stepDrawing = false; updateReplayWhere(); measure(); });
        } finally {
          app.stepDrawing = false;
        }
      } else {
        await app.session.send(w.positionCommand());
      }
      await w.describeNeighbours();
      await w.startAnalysis();
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
    app.clock.restore(mine.clock); // its clocks as they were (the replay stopped them)
    return w.newGame(mine.variant, mine.game.start, mine.game.moves).then(() => w.exclusive(async () => {
      app.seats = mine.seats.length === app.layout.players ? mine.seats : app.seats;
      w.renderSeats();
      w.render();
      w.persist();
    })).then(() => w.exclusive(w.advance));
  }

  // Plays on from the replayed position: it becomes the game (the one in
  // progress before stays for "Back to my game" no more: it was asked for).
  function playFromHere() {
    return w.exclusive(async () => {
      await w.stopSearch();
      if (app.view === null) return;
      app.game = { start: app.game.start, moves: app.game.moves.slice(0, app.view) };
      app.view = null;
      app.viewWanted = null;
      app.replaying = null;
      app.myGame = null;
      app.evals.length = app.game.moves.length + 1;
      await w.sync();
      updateReplayWhere();
      w.status(`${app.baseStatus} (played on from the replay)`);
    }).then(() => w.exclusive(w.advance));
  }

  // The replay shown at the last visit, at the move it showed, over the
  // game in progress (which "Back to my game" returns to).
  async function reopenReplay({ game, view }) {
    if (!app.variants.includes(game.variant)) return;
    $('replay-panel').open = true;
    await listGames([game]);
    if (Number.isInteger(view) && view > 0) await stepReplay(view);
  }

  // The replay's controls: the panel, the bar, the plot, the arrow keys.
  function wire(showError) {
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
    $('replay-end').addEventListener('click', () => stepReplay(app.game.moves.length));
    // In a replay the plot is a way through the game: a click goes to the
    // move under it.
    $('plot').addEventListener('click', (e) => {
      if (app.view === null) return;
      const ply = plotPly($('plot'), e.clientX, e.clientY, Math.max(app.game.moves.length, 1));
      if (ply !== null) stepReplay(ply);
    });
    $('replay-play-here').addEventListener('click', playFromHere);
    $('replay-back-to-game').addEventListener('click', backToMyGame);
    document.addEventListener('keydown', (e) => {
      if (app.view === null || e.target.closest('input, textarea, select')) return;
      const to = { ArrowLeft: viewWanted() - 1, ArrowRight: viewWanted() + 1, Home: 0, End: app.game.moves.length }[e.key];
      if (to === undefined) return;
      stepReplay(to);
      e.preventDefault();
    });
  }

  return { loadGames, listGames, stepReplay, viewWanted, updateReplayWhere, showBoard, reopenReplay, wire };
}
