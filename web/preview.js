// preview.js: the board drawn before the engine is up (issue 58: the first
// board from the offline cache, and of a first visit). The static page's
// engine takes hundreds of milliseconds to compile and start; the last
// board it described (its own `layout` and `state`, word for word) is kept
// in localStorage, keyed by the variant and the engine's build (the
// module's hash, which `make web-static` writes on the page as
// data-engine-build), and drawn from there at once on the next visit when
// it is the position that visit shows. A first visit has nothing kept:
// `make web-static` also writes on the page (JSON, id engine-first) what
// the engine itself (the native build, at build time) describes for the
// default variant's start, and its list of variants; drawn the same way.
// It takes no move: the engine's own description replaces it once the
// engine is up. Pages without a build (the served board) keep nothing.
// Knows no game; reaches into no other module but record.js's choice of
// the game to show.

const PREFIX = 'denham.board.';

function engineBuild() { return document.documentElement.dataset.engineBuild || ''; }

// The description written on the page at build time, or null.
let built;
function buildTime() {
  if (built !== undefined) return built;
  built = null;
  const el = document.getElementById('engine-first');
  if (!el || !enabled()) return built;
  try {
    const v = JSON.parse(el.textContent);
    if (v && typeof v.uci === 'string' && typeof v.command === 'string' && v.layout && Array.isArray(v.layout.cells) && v.state) built = v;
  } catch {
    // A page without it waits for the engine.
  }
  return built;
}

// The engine's default variant as written on the page, or null.
export function defaultVariant() {
  const b = buildTime();
  const m = b && /\bdefault (\S+)/.exec(b.uci);
  return m ? m[1] : null;
}

// Whether this page keeps boards at all.
export function enabled() { return !!engineBuild(); }

// Keeps what the engine described at this position (command: the
// `position` line) of this variant.
export function keep(variant, command, layout, state) {
  if (!enabled() || !layout || !state) return;
  try {
    localStorage.setItem(PREFIX + variant, JSON.stringify({ build: engineBuild(), command, layout, state }));
  } catch {
    // Storage full or refused: the next visit waits for the engine instead.
  }
}

// What the engine of this build described at this position of this
// variant, or null.
export function find(variant, command) {
  if (!enabled() || !variant) return null;
  let v = null;
  try {
    v = JSON.parse(localStorage.getItem(PREFIX + variant) || 'null');
  } catch {
    v = null;
  }
  if (!v || v.build !== engineBuild() || v.command !== command || !v.layout || !Array.isArray(v.layout.cells) || !v.state) {
    const b = buildTime(); // a first visit: what the page was built with
    v = b && b.layout.variant === variant && b.command === command ? b : null;
  }
  return v ? { layout: v.layout, state: v.state } : null;
}

// Keeps the engine's list of variants (its `uci` answer's), for the
// variant box of the next visit before the engine is up.
export function keepVariants(variants) {
  if (!enabled() || !variants.length) return;
  try {
    localStorage.setItem(`${PREFIX}variants`, JSON.stringify({ build: engineBuild(), variants }));
  } catch {
    // As keep().
  }
}

// The variants this build's engine named (on the last visit, else as
// written on the page), or [].
export function keptVariants() {
  try {
    const v = JSON.parse(localStorage.getItem(`${PREFIX}variants`) || 'null');
    if (v && v.build === engineBuild() && Array.isArray(v.variants)) return v.variants.filter((x) => typeof x === 'string');
  } catch {
    // As below.
  }
  const b = buildTime();
  return b ? b.uci.split(' var ').slice(1).map((x) => x.trim()) : [];
}

// The variant box before the engine is up: the variants the engine named
// on the last visit or on the page (at least variant), variant chosen.
export function offerVariants(select, variant) {
  if (!enabled()) return;
  const names = keptVariants();
  if (variant && !names.includes(variant)) names.unshift(variant);
  if (select.options.length !== names.length || names.some((v, i) => select.options[i].value !== v)) {
    select.replaceChildren(...names.map((v) => new Option(v, v)));
  }
  if (variant) select.value = variant;
}

// Marks the page as waiting for its engine (for the eye, style.css, and
// the tests): the board, if any, dimmed.
export function starting(wrap) {
  document.body.dataset.engine = 'starting';
  wrap.classList.add('starting');
}

// Draws the kept board of this variant at this position, if any, on
// board (board.js: it takes no move), in wrap, the variant named in
// select; marks the page as waiting for its engine. Whether it drew.
export function draw(board, wrap, select, variant, command) {
  const kept = find(variant, command);
  if (!kept) return false;
  starting(wrap);
  offerVariants(select, variant);
  board.setLayout(kept.layout);
  wrap.style.aspectRatio = String(board.aspect());
  board.setPosition(kept.state, [], false);
  return true;
}

// A new game of variant asked for before the engine is up: its start as
// the engine described it, if kept, else an empty board (never another
// game's position under this variant's name). Whether it drew.
export function drawStart(board, wrap, select, variant) {
  starting(wrap);
  offerVariants(select, variant);
  if (draw(board, wrap, select, variant, 'position startpos')) return true;
  board.clear();
  return false;
}

// The engine's own board is drawn: the page no longer waits (false).
export function replaced(wrap) {
  document.body.dataset.engine = 'up';
  wrap.classList.remove('starting');
  return false;
}
