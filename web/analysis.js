// analysis.js: the engine's numbers in words and pictures: `info` lines
// read, a score said for a side ("red +1.20", "blue wins in 3", "South
// wins"), the lines of a search listed (Denham's own search for its move
// told apart from the analysis), and the evaluation over the game plotted
// with its zero line, axis and legend. Knows no game: sides and colours
// come from `layout`. May not reach into the session, the board or the
// game record: app.js gives it what to show.

const NS = 'http://www.w3.org/2000/svg';

// One `info ... pv ...` line: {depth, multipv, kind ('cp'|'mate'), value,
// bound, nodes, pv, ...}, or null for other info lines.
export function parseInfo(line) {
  const w = line.split(' ');
  const info = { multipv: 1, pv: [] };
  for (let i = 1; i < w.length; i++) {
    const k = w[i];
    if (k === 'pv') { info.pv = w.slice(i + 1); break; }
    if (k === 'score') {
      info.kind = w[i + 1];
      info.value = parseInt(w[i + 2], 10);
      i += 2;
      if (w[i + 1] === 'lowerbound' || w[i + 1] === 'upperbound') info.bound = w[++i];
    } else if (['depth', 'seldepth', 'multipv', 'nodes', 'nps', 'time', 'hashfull', 'tbhits'].includes(k)) {
      info[k] = parseInt(w[++i], 10);
    } else if (k === 'currmove' || k === 'currmovenumber' || k === 'string') {
      return null;
    }
  }
  return info.depth ? info : null;
}

// The score for the side to move, in centipawns, for the plot: a mate as
// 10000 less its distance. In games with a die a won game is exactly 10000
// (the engine's CHANCE_WIN), whatever its distance.
export function centipawns(info) {
  if (info.kind === 'mate') return info.value > 0 ? 10000 - info.value : -10000 - info.value;
  return info.value;
}

function clean(name) { return name ? name[0].toUpperCase() + name.slice(1) : name; }

// The score in words, for a side: in a game of two sides the side ahead
// ("red +1.20", "Blue wins in 3"); with more sides the player to move's
// view ("South -0.40"). mover: the seat to move.
export function scoreWords(info, layout, mover) {
  const teams = layout.teams || [];
  const moverTeam = layout.seats[mover].team;
  const two = teams.length === 2;
  const other = two ? teams[1 - moverTeam] : null;
  const mine = two ? teams[moverTeam] : layout.seats[mover].name;
  // With more than two sides a lost score names no winner: the mover loses.
  if (info.kind === 'mate') {
    const n = Math.abs(info.value);
    const text = info.value > 0 || other ? `${clean(info.value > 0 ? mine : other)} wins in ${n}` : `${clean(mine)} loses in ${n}`;
    return { text, lead: info.value > 0 ? 1 : -1, win: true };
  }
  const v = info.value;
  if (layout.dice && Math.abs(v) >= 10000) {
    const text = v > 0 || other ? `${clean(v > 0 ? mine : other)} wins` : `${clean(mine)} loses`;
    return { text, lead: Math.sign(v), win: true };
  }
  if (two) {
    const ahead = v >= 0 ? mine : other;
    return { text: `${clean(ahead)} +${(Math.abs(v) / 100).toFixed(2)}`, lead: Math.sign(v) };
  }
  return { text: `${clean(mine)} ${v >= 0 ? '+' : '−'}${(Math.abs(v) / 100).toFixed(2)}`, lead: Math.sign(v) };
}

// The lines of a search. kind: 'analysis' or 'move' (Denham's own search
// for the move it is about to play).
export function renderLines(box, lines, kind, layout, mover) {
  box.replaceChildren();
  box.dataset.kind = kind || '';
  const shown = lines.filter(Boolean);
  if (!shown.length || !layout) return;
  const head = document.createElement('div');
  head.className = 'lines-head';
  head.textContent = kind === 'move'
    ? `Denham's own search, for ${clean(layout.seats[mover].name)}'s move`
    : 'Analysis (MultiPV lines, best first)';
  box.append(head);
  for (const info of shown) {
    const div = document.createElement('div');
    div.className = 'line';
    const score = document.createElement('span');
    score.className = 'score';
    const w = scoreWords(info, layout, mover);
    score.textContent = w.text;
    if (w.win) score.classList.add('win');
    const moves = document.createElement('span');
    moves.className = 'pv';
    moves.textContent = info.pv.slice(0, 12).join(' ');
    const depth = document.createElement('span');
    depth.className = 'depth';
    depth.textContent = `depth ${info.depth}${info.nodes !== undefined ? `, ${info.nodes} nodes` : ''}`;
    div.append(score, ' ', moves, ' ', depth);
    div.dataset.multipv = info.multipv;
    box.append(div);
  }
}

function svg(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.append(e);
  return e;
}

// The evaluation over the game. evals[ply]: {cp, mover} (cp for the side
// to move at that ply) or undefined; n: the plies of the game; at: the ply
// shown. In a game of two sides the curve is the first side's (up: it is
// ahead); with more, each point is its mover's view, in its colour.
// The plot's drawing box (in its viewBox's units): plies run from L to R.
const PLOT = { H: 110, L: 4, R: 296, T: 14, B: 94 };

// The ply under a point of the plot (client coordinates) when it shows n
// plies, or null.
export function plotPly(plot, clientX, clientY, n) {
  const m = plot.getScreenCTM();
  if (!m) return null;
  const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
  return Math.max(0, Math.min(n, Math.round(((p.x - PLOT.L) / (PLOT.R - PLOT.L)) * n)));
}

// A dot in a colour: filled, or hollow and ringed (own). Properties of
// its style (the page's policy refuses a style attribute).
function paint(dot, own, color) {
  dot.style.fill = own ? '#fff' : color;
  if (own) dot.style.stroke = color;
}

export function renderPlot(plot, evals, n, at, layout) {
  plot.replaceChildren();
  if (!layout) return;
  const { H, L, R, T, B } = PLOT;
  const two = (layout.teams || []).length === 2;
  const x = (ply) => L + (ply / Math.max(n, 1)) * (R - L);
  const mid = (T + B) / 2;
  const y = (cp) => mid - Math.tanh(cp / 400) * ((B - T) / 2);
  svg('rect', { x: L, y: T, width: R - L, height: B - T, class: 'plot-bg' }, plot);
  svg('line', { x1: L, y1: mid, x2: R, y2: mid, class: 'plot-zero' }, plot);
  svg('text', { x: R - 1, y: mid - 1.5, class: 'plot-text', 'text-anchor': 'end' }, plot).textContent = '0';
  // The legend: who is ahead above and below the zero line.
  const up = two ? `${clean(layout.teams[0])} ahead ↑` : 'the mover ahead ↑ (its colour)';
  svg('text', { x: L + 1, y: T - 3, class: 'plot-text' }, plot).textContent = up;
  // (the other side's inside the plot's foot: the axis's numbers run below)
  if (two) svg('text', { x: L + 1.5, y: B - 2, class: 'plot-text' }, plot).textContent = `${clean(layout.teams[1])} ahead ↓`;
  // Which points are whose: the analysis filled, Denham's own search hollow
  // (with more sides, each in its mover's colour: the legend's in ink).
  const legend = (cx, own) => {
    const d = svg('circle', { cx, cy: T - 5.5, r: 1.6, class: own ? 'plot-dot own' : 'plot-dot' }, plot);
    if (!two) paint(d, own, 'var(--ink)');
  };
  legend(170, false);
  svg('text', { x: 173, y: T - 3, class: 'plot-text' }, plot).textContent = 'analysis';
  legend(212, true);
  svg('text', { x: 215, y: T - 3, class: 'plot-text' }, plot).textContent = "Denham's moves";
  // The axis: move numbers (plies) along the bottom; none where its number
  // would run into the last one's "ply n" (about 4.5 units a character).
  const last = `ply ${n}`, lastLeft = R - last.length * 4.5 - 3;
  const step = Math.max(1, Math.ceil(n / 6 / 5) * 5);
  for (let p = step; p < n; p += step) {
    svg('line', { x1: x(p), y1: B, x2: x(p), y2: B + 2, class: 'plot-tick' }, plot);
    if (x(p) + String(p).length * 2.25 > lastLeft) continue;
    svg('text', { x: x(p), y: H - 2, class: 'plot-text', 'text-anchor': 'middle' }, plot).textContent = String(p);
  }
  svg('text', { x: R, y: H - 2, class: 'plot-text', 'text-anchor': 'end' }, plot).textContent = last;
  const pts = [];
  evals.forEach((e, ply) => {
    if (!e) return;
    const team = layout.seats[e.mover].team;
    const cp = Math.max(-1000, Math.min(1000, two && team !== layout.seats[0].team ? -e.cp : e.cp));
    pts.push([x(ply), y(cp), e]);
  });
  if (two && pts.length > 1) {
    svg('polyline', { points: pts.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(' '), class: 'plot-line' }, plot);
  }
  for (const [a, b, e] of pts) {
    const dot = svg('circle', { cx: a, cy: b, r: 1.6, class: e.own ? 'plot-dot own' : 'plot-dot' }, plot);
    dot.dataset.mover = e.mover;
    // The mover's colour, as the legend says: filled, or hollow and ringed
    // for Denham's own moves (a style: the class's fill would win over an
    // attribute).
    if (!two) paint(dot, e.own, layout.colors[e.mover]);
  }
  svg('line', { x1: x(at), y1: T, x2: x(at), y2: B, class: 'plot-cursor' }, plot);
  plot.dataset.points = String(pts.length);
}
