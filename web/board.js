// board.js: draws what the engine describes (`layout` and `state`) as SVG
// and turns clicks and keys into moves from `legalmoves`. It knows no game:
// cells, lines, pieces and the clicks of every move all come from the
// engine. It may not reach into the session, the record or the page
// outside its container: what it learns goes out through its callbacks.

const SVG = 'http://www.w3.org/2000/svg';
const PAD = 0.9; // room for the labels around the board

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function hexPoints(x, y, r) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 3) * i;
    pts.push(`${(x + r * Math.cos(a)).toFixed(3)},${(y + r * Math.sin(a)).toFixed(3)}`);
  }
  return pts.join(' ');
}

// The colour to write on a piece of this colour.
function inkOn(color) {
  const m = /^#([0-9a-f]{6})$/i.exec(color || '');
  if (!m) return '#000';
  const n = parseInt(m[1], 16);
  const lum = 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255);
  return lum > 140 ? '#111' : '#fff';
}

// Row numbers for a board whose labels give none (Bolix: columns only):
// from cell ids of a letter and a number, a label one step before the
// first cell of each row, along that row. Nothing when the layout has
// numbers among its labels, or its cells are named otherwise.
function rowLabels(layout) {
  if ((layout.labels || []).some((l) => /^\d+$/.test(l.text))) return [];
  const rows = new Map();
  for (const c of layout.cells) {
    const m = /^([a-z])(\d+)$/.exec(c.id);
    if (!m || c.shape === 'slot') continue;
    const n = Number(m[2]);
    if (!rows.has(n)) rows.set(n, []);
    rows.get(n).push({ col: m[1], c });
  }
  const out = [];
  for (const [n, cells] of rows) {
    if (cells.length < 2) continue;
    cells.sort((a, b) => a.col.localeCompare(b.col));
    const [a, b] = [cells[0].c, cells[1].c];
    out.push({ text: String(n), x: a.x - (b.x - a.x) * 0.8, y: a.y - (b.y - a.y) * 0.8 });
  }
  return out;
}

// The drawing's extent: every cell, label and the marks round them, with a
// margin (the layout's own width and height leave room that is not needed).
function extent(layout, extraLabels) {
  const reach = { square: 0.5, hex: 0.97, slot: 0.45, point: 0.45 };
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  const grow = (x, y, r) => { x0 = Math.min(x0, x - r); y0 = Math.min(y0, y - r); x1 = Math.max(x1, x + r); y1 = Math.max(y1, y + r); };
  for (const c of layout.cells) grow(c.x, c.y, (reach[c.shape] || 0.5) + 0.2);
  for (const l of [...(layout.labels || []), ...extraLabels]) grow(l.x, l.y, 0.45);
  if (!Number.isFinite(x0)) return { x0: -PAD, y0: -PAD, x1: layout.width + PAD, y1: layout.height + PAD };
  return { x0, y0, x1, y1 };
}

export class Board {
  constructor(container, onMove, onChoose, onSelect = () => {}, onIdleClick = () => {}, onDeadClick = () => {}) {
    this.onIdleClick = onIdleClick; // () => void: a click when the board takes none
    this.onDeadClick = onDeadClick; // (cell) => void: a click on a cell where no move starts
    this.container = container;
    this.onMove = onMove; // (moveText, clickedAt) => void
    this.onChoose = onChoose; // (moves, cancel) => void: several moves share the clicks
    this.onSelect = onSelect; // (selection, what the next click does) => void
    this.layout = null;
    this.state = null;
    this.moves = [];
    this.flipped = false;
    this.selection = [];
    this.enabled = false;
    this.lastMove = null; // the legal-move entry of the move before this position
    this.bestLine = null; // clicks of the engine's best move
    this.cursor = null; // the cell the keyboard is on
    this.cells = new Map();
    // The keyboard: the arrows move a cursor from cell to cell (the nearest
    // in that direction, on any geometry), Enter or Space picks the cell as
    // a click does, Escape lets a half-made move go.
    container.tabIndex = 0;
    container.addEventListener('keydown', (e) => this.key(e));
    // The cursor is drawn while the keyboard has the board: focus and blur
    // redraw only when that changes (a click's focus draws no cursor, and a
    // redraw then would cost the click's move a frame).
    this.cursorDrawn = false;
    container.addEventListener('focus', () => {
      if (!this.cursor) this.placeCursor(this.firstCell());
      if (this.cursorWanted() !== this.cursorDrawn) this.render();
    });
    container.addEventListener('blur', () => { if (this.cursorDrawn) this.render(); });
  }

  cursorWanted() {
    return !!this.cursor && this.container.matches(':focus-visible') && this.cells.has(this.cursor);
  }

  firstCell() {
    const st = this.state;
    const mine = this.enabled && this.moves.length && this.moves.find((m) => m.clicks.length) ;
    if (mine) return mine.clicks[0];
    if (st && st.pieces && st.pieces.length) return st.pieces[0].cell;
    return this.layout && this.layout.cells[0] ? this.layout.cells[0].id : null;
  }

  moveCursorTo(id) {
    this.placeCursor(id);
    this.render();
  }

  // The cursor on cell id, and the board's name saying what is there.
  placeCursor(id) {
    this.cursor = id;
    const c = id && this.cells && this.cells.get(id);
    if (!c) return;
    const p = this.state && (this.state.pieces || []).find((q) => q.cell === id);
    const names = (this.layout.seats || []).map((s) => s.name);
    const what = p ? p.stack.map((q) => `${q.label || q.kind} of ${names[q.owner] || q.owner + 1}`).join(', ') : 'empty';
    this.container.setAttribute('aria-label', `Board: ${c.name || id}, ${what}. Arrows move, Enter picks, Escape lets go.`);
  }

  // The nearest cell from the cursor in a direction (dx, dy on the drawing).
  step(dx, dy) {
    const from = this.cells.get(this.cursor);
    if (!from) return this.firstCell();
    const [x, y] = this.at(from);
    let best = null, bestCost = Infinity;
    for (const c of this.layout.cells) {
      if (c.id === from.id) continue;
      const [cx, cy] = this.at(c);
      const along = (cx - x) * dx + (cy - y) * dy;
      const across = Math.abs((cx - x) * dy - (cy - y) * dx);
      if (along <= 0.05 || across > along * 1.8) continue;
      const cost = Math.hypot(along, across) * (1 + across / along); // near, and near the direction
      if (cost < bestCost) { bestCost = cost; best = c.id; }
    }
    return best || from.id;
  }

  key(e) {
    if (!this.layout) return;
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (dirs[e.key] && this.enabled) {
      this.moveCursorTo(this.cursor ? this.step(...dirs[e.key]) : this.firstCell());
    } else if ((e.key === 'Enter' || e.key === ' ') && this.cursor) {
      this.click(this.cursor);
    } else {
      return; // not the board's key (the page's: Escape, u, n, f, a replay's arrows)
    }
    e.preventDefault();
    e.stopPropagation();
  }

  setLayout(layout) {
    this.layout = layout;
    this.cells = new Map(layout.cells.map((c) => [c.id, c]));
    this.rowLabels = rowLabels(layout);
    this.box = extent(layout, this.rowLabels);
    this.selection = [];
    this.render();
  }

  setPosition(state, moves, enabled) {
    this.state = state;
    this.moves = moves || [];
    this.enabled = enabled;
    this.selection = [];
    this.render();
  }

  // No board at all (a game asked for whose board is not known yet).
  clear() {
    this.layout = null;
    this.state = null;
    this.container.replaceChildren();
  }

  setFlipped(f) { this.flipped = f; this.render(); }
  // Width over height of the drawing (for the box that holds it).
  aspect() { return this.box ? (this.box.x1 - this.box.x0) / (this.box.y1 - this.box.y0) : 1; }
  // The engine's best move as an arrow; draw false when a drawing follows
  // anyway (the board is not drawn twice for one position).
  setBestLine(clicks, draw = true) {
    if (String(clicks) === String(this.bestLine)) return; // the same arrow: no redraw
    this.bestLine = clicks;
    if (draw) this.render();
  }
  setLastMove(entry) { this.lastMove = entry; }

  // Drawing coordinates of a cell, turned round when flipped.
  at(c) {
    if (!this.flipped) return [c.x, c.y];
    return [this.layout.width - c.x, this.layout.height - c.y];
  }

  // Screen pixels per drawing unit (1 when the board is not laid out).
  unitPx() {
    const w = this.container.clientWidth, h = this.container.clientHeight;
    if (!this.box || !w) return 1;
    return Math.min(w / (this.box.x1 - this.box.x0), (h || Infinity) / (this.box.y1 - this.box.y0));
  }

  cellSize() {
    const g = this.layout.geometry;
    return g === 'hex' ? 0.86 : g === 'lines' ? 0.42 : 0.5;
  }

  render() {
    const L = this.layout;
    if (!L) return;
    this.container.replaceChildren();
    const b = this.box;
    const [x0, y0] = this.flipped ? [L.width - b.x1, L.height - b.y1] : [b.x0, b.y0];
    const w = b.x1 - b.x0, h = b.y1 - b.y0;
    const svg = el('svg', {
      viewBox: `${x0} ${y0} ${w} ${h}`, preserveAspectRatio: 'xMidYMin meet',
      role: 'img', 'aria-label': `${L.variant} board`,
    }, this.container);
    this.svg = svg;
    el('rect', { class: 'board-bg', x: x0, y: y0, width: w, height: h, rx: 0.25 }, svg);
    const g = el('g', {}, svg);
    for (const link of L.links || []) {
      const a = this.cells.get(link.a), b = this.cells.get(link.b);
      const [x1, y1] = this.at(a), [x2, y2] = this.at(b);
      el('line', { x1, y1, x2, y2, stroke: link.color, 'stroke-width': 0.07, 'stroke-linecap': 'round' }, g);
    }
    const last = this.lastMove ? new Set(this.lastMove.clicks) : new Set();
    for (const c of L.cells) this.drawCell(g, c, last.has(c.id));
    for (const lab of [...(L.labels || []), ...this.rowLabels]) {
      const [x, y] = this.flipped ? [L.width - lab.x, L.height - lab.y] : [lab.x, lab.y];
      const t = el('text', { x, y, class: 'label', 'font-size': (this.cellSize() * 0.75).toFixed(2) }, g);
      t.textContent = lab.text;
    }
    if (this.state) for (const p of this.state.pieces || []) this.drawStack(g, p);
    this.drawMarks(g);
    this.drawDecisive(g);
    this.drawHints(g);
    // The cursor while the keyboard has the board (not after a click).
    this.cursorDrawn = this.cursorWanted();
    if (this.cursorDrawn) {
      const [x, y] = this.at(this.cells.get(this.cursor));
      const r = this.cellSize() * 1.05;
      el('rect', { x: x - r, y: y - r, width: 2 * r, height: 2 * r, rx: r * 0.2, class: 'cursor', 'data-cursor': this.cursor }, g);
    }
  }

  // The cells that decided a finished game (`state` `decisive`, when the
  // engine names them): a thick ring and a diamond, not colour alone.
  drawDecisive(g) {
    const st = this.state;
    if (!st || !st.result || !Array.isArray(st.result.decisive)) return;
    const size = this.cellSize();
    for (const id of st.result.decisive) {
      const c = this.cells.get(id);
      if (!c) continue;
      const [x, y] = this.at(c);
      const d = size * 0.28;
      el('circle', { cx: x, cy: y, r: size * 1.02, class: 'decisive', 'data-decisive': id }, g);
      el('polygon', { points: `${x},${y - size * 1.02 - d} ${x + d},${y - size * 1.02} ${x},${y - size * 1.02 + d} ${x - d},${y - size * 1.02}`, class: 'decisive-mark' }, g);
    }
  }

  // The cells the engine marks in a game going on (`state` `marks`: the
  // men that must answer a Brax call): a thick ring and a "!" beside it,
  // with the engine's sentence as its title.
  drawMarks(g) {
    const st = this.state;
    if (!st || st.result || !Array.isArray(st.marks)) return;
    const size = this.cellSize();
    for (const m of st.marks) {
      const c = this.cells.get(m.cell);
      if (!c) continue;
      const [x, y] = this.at(c);
      const mark = el('g', { class: 'mark', 'data-mark': m.cell, 'aria-label': m.text, role: 'img' }, g);
      el('title', {}, mark).textContent = m.text;
      el('circle', { cx: x, cy: y, r: size * 1.2, class: 'mark-ring' }, mark);
      const bx = x + size * 0.95, by = y - size * 0.95, br = size * 0.42;
      el('circle', { cx: bx, cy: by, r: br, class: 'mark-badge' }, mark);
      el('text', { x: bx, y: by, class: 'mark-text', 'font-size': (br * 1.5).toFixed(3) }, mark).textContent = '!';
    }
  }

  drawCell(g, c, isLast) {
    const [x, y] = this.at(c);
    // Named for assistive technology: a cell is a button called by its name
    // ("e3"); the pieces on it carry their own titles.
    // A cell is not focusable itself: a click leaves the focus on the board
    // (whose cursor the keyboard moves), not on a cell the next drawing drops.
    const attrs = { class: `cell cell-${c.shape}`, 'data-cell': c.id, role: 'button', 'aria-label': c.name || c.id };
    let shape;
    if (c.shape === 'square') {
      shape = el('rect', { ...attrs, x: x - 0.5, y: y - 0.5, width: 1, height: 1, fill: c.fill || '#eee', stroke: '#8a7f70', 'stroke-width': 0.02 }, g);
    } else if (c.shape === 'hex') {
      shape = el('polygon', { ...attrs, points: hexPoints(x, y, 0.97), fill: c.fill || '#ddd', stroke: '#8a7f70', 'stroke-width': 0.04 }, g);
    } else if (c.shape === 'slot') {
      shape = el('rect', { ...attrs, x: x - 0.42, y: y - 0.42, width: 0.84, height: 0.84, rx: 0.12, fill: c.fill || '#ccc', stroke: c.fill || '#888' }, g);
    } else {
      // A point: a small dot, and a larger transparent target to click.
      el('circle', { cx: x, cy: y, r: 0.09, class: 'cell-point', 'pointer-events': 'none' }, g);
      shape = el('circle', { ...attrs, class: 'cell cell-hit', cx: x, cy: y, r: 0.45, fill: 'transparent' }, g);
    }
    // On the press, not on a click: a click needs press and release on one
    // element, and the board is drawn anew whenever the analysis sends a line.
    shape.addEventListener('pointerdown', (e) => { if (e.button === 0) this.click(c.id); });
    if (isLast) el('circle', { cx: x, cy: y, r: this.cellSize() * 0.95, class: 'last' }, g);
  }

  drawStack(g, p) {
    const c = this.cells.get(p.cell);
    if (!c) return;
    const [x, y] = this.at(c);
    const base = this.cellSize() * 0.92;
    const colors = this.layout.colors || [];
    const names = (this.layout.seats || []).map((s) => s.name);
    // Pieces also say what they are, for tests, screen readers and a
    // pointer resting on them (bottom first).
    const words = p.stack.map((q) => `${q.label || q.kind} of ${names[q.owner] || `seat ${q.owner + 1}`}`);
    const mark = el('g', { 'data-piece': p.cell, 'data-stack': p.stack.map((q) => `${q.owner}:${q.kind}:${q.label || ''}`).join(',') }, g);
    mark.setAttribute('aria-label', `${p.cell}: ${words.join(', ')}`);
    el('title', {}, mark).textContent = `${p.cell}: ${words.join(', ')}${p.stack.length > 1 ? ' (bottom first)' : ''}`;
    let top = null, topR = base;
    for (const piece of p.stack) {
      const r = base * (piece.size || 1);
      const fill = colors[piece.owner] || '#999';
      if (piece.kind === 'pyramid') {
        el('rect', { x: x - r, y: y - r, width: 2 * r, height: 2 * r, rx: r * 0.25, fill, class: 'piece' }, mark);
      } else {
        el('circle', { cx: x, cy: y, r, fill, class: 'piece' }, mark);
        if (piece.kind === 'king') el('circle', { cx: x, cy: y, r: r * 0.55, fill: 'none', stroke: inkOn(fill), 'stroke-width': 0.05 }, mark);
      }
      top = piece;
      topR = r;
    }
    if (top && top.label) {
      // The top piece's label, inside it: in a stack each layer shows its
      // owner's colour round it, and the title lists them all.
      const t = el('text', { x, y, class: 'piece-label', fill: inkOn(colors[top.owner]) }, mark);
      t.textContent = top.label;
      const fit = (1.5 * topR) / Math.max(1, top.label.length * 0.62);
      t.setAttribute('font-size', Math.min(0.42 * (base / 0.46), fit, 1.1 * topR).toFixed(3));
    }
  }

  // The moves whose clicks begin with the selection.
  matching(prefix = this.selection) {
    return this.moves.filter((m) => m.clicks.length >= prefix.length && prefix.every((c, i) => m.clicks[i] === c));
  }

  drawHints(g) {
    const size = this.cellSize();
    for (const id of this.selection) {
      const [x, y] = this.at(this.cells.get(id));
      el('circle', { cx: x, cy: y, r: size * 0.98, class: 'selected' }, g);
    }
    if (this.enabled) {
      const next = new Set();
      for (const m of this.matching()) if (m.clicks.length > this.selection.length) next.add(m.clicks[this.selection.length]);
      if (this.selection.length > 0) {
        // Where the piece may go: a dot on an empty cell, a ring round a
        // piece (shapes, not only colours). A dot is never under 17 px
        // across on screen (a phone draws Brax's points 36 px apart).
        const discR = Math.max(size * 0.36, 8.5 / this.unitPx());
        const occupied = new Set((this.state && this.state.pieces || []).map((p) => p.cell));
        for (const id of next) {
          const [x, y] = this.at(this.cells.get(id));
          if (occupied.has(id)) el('circle', { cx: x, cy: y, r: size * 0.98, class: 'target target-ring', 'data-target': id }, g);
          else el('circle', { cx: x, cy: y, r: discR, class: 'target', 'data-target': id }, g);
        }
        // What the moves still possible would take: a ring and a cross.
        const taken = new Set();
        for (const m of this.matching()) for (const id of m.removes || []) taken.add(id);
        for (const id of taken) {
          const [x, y] = this.at(this.cells.get(id));
          const d = size * 0.5;
          el('circle', { cx: x, cy: y, r: size * 0.8, class: 'removes', 'data-removes': id }, g);
          el('path', { d: `M${x - d},${y - d}L${x + d},${y + d}M${x + d},${y - d}L${x - d},${y + d}`, class: 'removes-cross' }, g);
        }
      }
    }
    if (this.bestLine && this.bestLine.length >= 2) {
      // The engine's best move: a green arrow with a white edge, a colour
      // no board draws its lines in (lichess draws its arrows so).
      const pts = this.bestLine.map((id) => this.at(this.cells.get(id)));
      const line = pts.map(([x, y]) => `${x},${y}`).join(' ');
      const [x, y] = pts[pts.length - 1], [px, py] = pts[pts.length - 2];
      const len = Math.hypot(x - px, y - py) || 1, ux = (x - px) / len, uy = (y - py) / len, h = 0.3;
      const head = `${x},${y} ${x - ux * h - uy * h * 0.7},${y - uy * h + ux * h * 0.7} ${x - ux * h + uy * h * 0.7},${y - uy * h - ux * h * 0.7}`;
      const arrow = el('g', { class: 'bestmove', 'data-bestmove': this.bestLine.join(',') }, g);
      el('polyline', { points: line, class: 'bestline-edge' }, arrow);
      el('polygon', { points: head, class: 'bestline-edge' }, arrow);
      el('polyline', { points: line, class: 'bestline' }, arrow);
      el('polygon', { points: head, class: 'bestline-head' }, arrow);
    }
  }

  clearSelection() {
    this.selection = [];
    this.render();
    this.onSelect([], null);
  }

  // What the next click does, from the moves still possible: 'take' when a
  // placement (the first cell picked was empty) goes on with a cell whose
  // piece it takes (a Bolix capture to choose); 'to+' when a piece moves
  // and some of its targets take what stands there; else 'to'; null with
  // nothing selected.
  nextClick() {
    if (!this.selection.length) return null;
    const k = this.selection.length;
    const next = this.matching().filter((m) => m.clicks.length > k);
    if (!next.length) return null;
    const occupied = new Set((this.state && this.state.pieces || []).map((p) => p.cell));
    const takes = next.filter((m) => (m.removes || []).includes(m.clicks[k]));
    if (!occupied.has(this.selection[0]) && takes.length === next.length) return 'take';
    return takes.length ? 'to+' : 'to';
  }

  click(id) {
    const at = performance.now(); // the click, for the page's figure of a move drawn
    if (!this.enabled) { this.onIdleClick(id); return; }
    let prefix = [...this.selection, id];
    if (this.matching(prefix).length === 0) {
      // Not a continuation: start again from this cell, or let go and say
      // why (nothing happening after a click tells a person nothing).
      prefix = this.matching([id]).length ? [id] : [];
      if (!prefix.length) {
        this.selection = [];
        this.render();
        this.onDeadClick(id);
        return;
      }
    }
    const candidates = this.matching(prefix);
    const exact = candidates.filter((m) => m.clicks.length === prefix.length && prefix.length > 0);
    const longer = candidates.filter((m) => m.clicks.length > prefix.length);
    if (exact.length === 1 && longer.length === 0) {
      // The move is whole: straight to the engine. Drawing the selection
      // first would make the browser paint a frame before it reads the
      // engine's answer (up to 17 ms more for a drawn move).
      this.selection = [];
      this.onMove(exact[0].move, at);
      return;
    }
    this.selection = prefix;
    this.onSelect(prefix, this.nextClick());
    this.render();
    if (exact.length > 0) {
      // Several moves end here (a size, a call), or this move can go on (a
      // capture that may take a second man): the person chooses.
      this.onChoose(exact, longer.length > 0);
    }
  }
}
