// clock.js: the game clocks. A time control (a base and an increment per
// move, the same for every seat) gives each seat a clock, shown beside the
// board; the clock of the seat to move runs, Denham's `go` gets every
// player's time and increment (PROTOCOL.md, "Searching": `wtime`/`btime`/
// `winc`/`binc` with two players, `p1time`..`p4time`, `p1inc`..`p4inc` with
// more), and a clock at zero ends the game: the other side wins on time.
// Knows no game: seats, teams and names come from the layout, whose turn it
// is and whether the die is to be rolled from the state.
// A roll of the die is not a move of a player: no clock runs while the die
// is to be rolled, and a roll earns no increment (nor does rolling again:
// a move after which the same seat rolls again). Clocks stop in replay and
// while the Analyse box is ticked.
// The clocks survive a reload: snapshot() is what the app keeps (the
// control, each seat's time, a fallen flag, the running seat and when), and
// restore() takes it back for the same game, the time since the snapshot
// counted to the seat whose clock was running (a flag may fall then).
// It reads the app's state (app.game, app.view, app.state, app.layout) and
// its own controls (#time-control, #time-base, #time-inc, #clocks); it may
// write only app.state.result, when a flag falls, and then calls the
// onFlag the app gave it (which stops Denham and draws the end), and
// onControl when the person changes the time control. Nothing else of
// app.js, board.js or session.js.

const now = () => performance.now();
const $ = (id) => document.getElementById(id);

function clockText(ms) {
  const t = Math.max(0, ms);
  if (t < 10000) return `${Math.floor(t / 1000)}.${Math.floor((t % 1000) / 100)}`;
  const s = Math.ceil(t / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const mm = h ? String(m).padStart(2, '0') : String(m);
  return `${h ? `${h}:` : ''}${mm}:${String(sec).padStart(2, '0')}`;
}

// "180+2" (seconds), "custom" (the two inputs) or "" (no clock).
function readControl() {
  const v = $('time-control').value;
  if (!v) return null;
  let base, inc;
  if (v === 'custom') {
    base = parseFloat($('time-base').value);
    inc = parseFloat($('time-inc').value);
  } else {
    [base, inc] = v.split('+').map(Number);
  }
  if (!Number.isFinite(base) || base <= 0) return null;
  if (!Number.isFinite(inc) || inc < 0) inc = 0;
  return { base: Math.round(Math.min(base, 36000) * 1000), inc: Math.round(Math.min(inc, 600) * 1000) };
}

export class GameClock {
  constructor(app, onFlag, onControl = () => {}) {
    this.app = app;
    this.onFlag = onFlag; // () => void: stop Denham, draw the end
    this.onControl = onControl; // () => void: the time control was changed (a flag lifted with it)
    this.pending = null; // a snapshot to take back when its game is shown (restore)
    this.control = null; // {base, inc} in ms, or null: no clock
    this.left = []; // ms per seat
    this.incs = []; // increments given, per seat
    this.running = null; // the seat whose clock runs
    this.since = 0; // when its time was last counted
    this.flag = null; // {seat, result}: the game ended on time
    this.game = null; // the app.game these clocks belong to
    this.ply = 0;
    this.prev = null; // the live state last seen
    this.lastGo = null; // the last `go` words given to Denham
    this.box = $('clocks');
    if (!this.box || !$('time-control')) return;
    const change = () => {
      $('time-custom').hidden = $('time-control').value !== 'custom';
      this.control = readControl();
      this.pending = null;
      this.reset();
      this.update();
      this.onControl();
    };
    for (const id of ['time-control', 'time-base', 'time-inc']) $(id).addEventListener('change', change);
    $('time-custom').hidden = $('time-control').value !== 'custom';
    setInterval(() => this.tick(), 100);
  }

  paused() {
    const analyse = $('analyse');
    return this.app.view !== null || !!(analyse && analyse.checked);
  }

  // The seat whose clock should run now, or null.
  due(state = this.app.state) {
    if (!this.control || this.flag || !state || state.result || state.chance || this.paused()) return null;
    return state.turn;
  }

  settle() {
    if (this.running === null) return;
    const t = now();
    this.left[this.running] -= t - this.since;
    this.since = t;
  }

  reset() {
    const a = this.app;
    const n = a.layout ? a.layout.players : 0;
    this.left = Array.from({ length: n }, () => (this.control ? this.control.base : 0));
    this.incs = Array(n).fill(0);
    this.flag = null;
    this.running = null;
    this.game = a.game;
    this.ply = a.game ? a.game.moves.length : 0;
    this.prev = a.view === null ? a.state : null;
  }

  update(state = this.app.state) {
    this.settle();
    this.running = this.due(state);
    this.since = now();
    this.render();
  }

  // The game these clocks belong to, as text (a snapshot names it).
  gameKey(game = this.app.game) {
    return game ? `${game.start}|${game.moves.join(' ')}` : '';
  }

  // What survives a reload: null without a time control. paused: no
  // clock runs from now on (a replay shown over the game stops them).
  snapshot({ paused = false } = {}) {
    if (!this.control) return null;
    this.settle();
    return {
      value: $('time-control').value, base: $('time-base').value, inc: $('time-inc').value,
      left: [...this.left], incs: [...this.incs], flag: this.flag, running: paused ? null : this.running,
      at: Date.now(), game: this.gameKey(this.game),
    };
  }

  // Takes a snapshot back: its time control at once, its times when the
  // app shows its game (onState).
  restore(snap) {
    if (!snap || !$('time-control')) return;
    $('time-base').value = snap.base;
    $('time-inc').value = snap.inc;
    $('time-control').value = snap.value;
    $('time-custom').hidden = snap.value !== 'custom';
    this.control = readControl();
    this.pending = this.control ? snap : null;
  }

  // A pending snapshot for the game shown now: its times, less what ran
  // since it was taken; false when it is for another game.
  takePending() {
    const snap = this.pending, a = this.app;
    if (!snap || snap.game !== this.gameKey() || !a.layout || snap.left.length !== a.layout.players) return false;
    this.pending = null;
    this.reset();
    this.left = [...snap.left];
    this.incs = [...snap.incs];
    this.flag = snap.flag;
    if (snap.running !== null && snap.running !== undefined && !snap.flag) {
      this.left[snap.running] -= Math.max(0, Date.now() - snap.at);
    }
    return true;
  }

  // After every position the app reads from the engine (app.js's sync):
  // the mover's time counted, the increment given, the next clock started;
  // after a flag fall the game stays over.
  onState(state) {
    const a = this.app;
    if (!this.control || !a.layout) { this.render(); return; }
    if (a.game !== this.game || this.left.length !== a.layout.players) {
      if (a.view !== null || !this.takePending()) this.reset();
    } else if (a.view === null) {
      this.settle();
      const n = a.game.moves.length;
      const p = this.prev;
      if (n === this.ply + 1 && p && !p.chance && !p.result && !this.flag) {
        const mover = p.turn;
        if (this.left[mover] <= 0) this.fall(mover, state);
        else if (!(state.chance && state.turn === mover)) {
          this.left[mover] += this.control.inc;
          this.incs[mover]++;
        }
      }
      this.ply = n;
      this.prev = state;
    }
    if (this.flag && a.view === null) state.result = this.flag.result;
    this.update(state);
  }

  // The `go` words for Denham's move with every clock, or null (no clock:
  // the app's own limit). waitMs: how long the move may take at most.
  goLimits() {
    if (this.due() === null) return null;
    this.settle();
    const ms = (i) => Math.max(1, Math.floor(this.left[i]));
    const inc = this.control.inc;
    let words;
    if (this.left.length === 2) {
      words = `wtime ${ms(0)} btime ${ms(1)} winc ${inc} binc ${inc}`;
    } else {
      words = [...this.left.map((_, i) => `p${i + 1}time ${ms(i)}`), ...this.left.map((_, i) => `p${i + 1}inc ${inc}`)].join(' ');
    }
    this.lastGo = `go ${words}`;
    return { words, waitMs: ms(this.app.state.turn) + inc };
  }

  tick() {
    if (!this.control) return;
    const due = this.due();
    if (due !== this.running) this.update();
    else this.settle();
    if (this.running !== null && this.left[this.running] <= 0) this.fall(this.running, this.app.state);
    this.render();
  }

  // A flag falls: the seat's side loses, the game is over.
  fall(seat, state) {
    this.settle();
    this.left[seat] = 0;
    this.running = null;
    const L = this.app.layout;
    const inGame = state && state.in ? state.in : L.seats.map((_, i) => i);
    const name = L.seats[seat].name;
    const winners = inGame.filter((i) => L.seats[i].team !== L.seats[seat].team);
    const reason = `${name} ran out of time`;
    const result = winners.length ? { kind: 'win', players: winners, reason }
      : { kind: 'draw', players: inGame.filter((i) => i !== seat), reason };
    this.flag = { seat, result };
    if (state) state.result = result;
    this.render();
    this.onFlag();
  }

  render() {
    const box = this.box;
    if (!box) return;
    const L = this.app.layout;
    if (!this.control || !L || this.left.length !== L.players) {
      box.hidden = true;
      box.replaceChildren();
      this.drawnFor = null;
      return;
    }
    box.hidden = false;
    if (this.drawnFor !== L) {
      this.drawnFor = L;
      box.replaceChildren();
      L.seats.forEach((s, i) => {
        const c = document.createElement('div');
        c.className = 'clock';
        c.dataset.seat = i;
        const sw = document.createElement('span');
        sw.className = 'clock-swatch';
        sw.style.background = L.colors[i];
        const name = document.createElement('span');
        name.className = 'clock-name';
        name.textContent = s.name;
        const time = document.createElement('span');
        time.className = 'clock-time';
        c.append(sw, name, time);
        box.append(c);
      });
    }
    [...box.children].forEach((c, i) => {
      const text = clockText(this.left[i]);
      c.querySelector('.clock-time').textContent = text;
      c.classList.toggle('running', this.running === i);
      c.classList.toggle('flagged', !!this.flag && this.flag.seat === i);
      c.classList.toggle('low', this.left[i] < 10000);
      c.title = `${L.seats[i].name}: ${text}${this.flag && this.flag.seat === i ? ', out of time' : ''}`;
    });
    box.dataset.state = this.flag ? 'flag' : this.running !== null ? 'running' : 'stopped';
  }
}
