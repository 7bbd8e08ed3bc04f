// record.js: the game as a record, and what survives a reload. A game is
// a variant, a start (`startpos` or `fen ...`) and moves in the game's own
// notation; here it becomes a line of denham-match's games file (Download)
// and is read back from one or from a whole file (Open, Replay), and it is
// kept in the page's address (a game is a link) and in localStorage with
// the seats and settings. Knows no game's rules and no engine: it may not
// reach into the board, the session or the page's elements.

const KEY = 'denham.v1';

// One line of a games file: index, variant, player 1, player 2, result,
// reason, opening, and the game as a position argument (README, "Matches").
export function parseGameLine(line) {
  const f = line.split('\t');
  if (f.length < 8) return null;
  const pos = parsePosition(f[7].trim());
  if (!pos) return null;
  return { index: f[0], variant: f[1], p1: f[2], p2: f[3], result: f[4], reason: f[5], ...pos };
}

// `startpos moves a b` or `fen <fen> moves a b` (with or without the word
// `position`): {start, moves}, or null.
export function parsePosition(text) {
  const m = /^(?:position\s+)?(startpos|fen .*?)(?: moves (.*))?$/.exec(text.trim());
  if (!m) return null;
  return { start: m[1], moves: m[2] ? m[2].trim().split(/\s+/) : [] };
}

// What a person types as a start: a position string (FEN), that string
// followed by `moves ...`, or a whole position argument or command
// (`startpos moves ...`, `fen ... moves ...`, `position ...`): {start, moves}.
// The moves are always moves: "FEN moves e1e2" is the FEN, then e1e2.
export function parseStart(text) {
  const t = text.trim().replace(/\s+/g, ' ');
  if (/^(position )?(startpos|fen )/.test(t) || t === 'startpos') return parsePosition(t);
  const m = /^(.*?)(?: moves(?: (.*))?)?$/.exec(t);
  return { start: `fen ${m[1]}`, moves: m[2] ? m[2].split(' ') : [] };
}

export function parseGames(text) {
  const games = text.split(/\r?\n/).map(parseGameLine).filter(Boolean);
  if (!games.length) throw new Error('no game found: a games file has tab-separated lines of eight fields');
  return games;
}

export function positionArgument(game) {
  return game.moves.length ? `${game.start} moves ${game.moves.join(' ')}` : game.start;
}

// The game as denham-match writes it. layout and state are the engine's
// descriptions; seats[i] is 'human' or 'engine'.
export function gameLine(layout, state, game, seats) {
  const who = (i) => (seats[i] === 'engine' ? 'denham' : 'person');
  const twoSides = layout.teams.length === 2;
  let p1, p2, result = '*';
  if (twoSides) {
    const first = layout.seats.findIndex((s) => s.team === layout.seats[0].team);
    const second = layout.seats.findIndex((s) => s.team !== layout.seats[0].team);
    p1 = who(first);
    p2 = who(second);
  } else {
    p1 = layout.seats.map((_, i) => who(i)).join(',');
    p2 = '-';
  }
  const r = state && state.result;
  if (r && r.kind === 'draw') result = twoSides ? '1/2-1/2' : 'draw';
  else if (r && twoSides) result = layout.seats[r.players[0]].team === layout.seats[0].team ? '1-0' : '0-1';
  else if (r) result = `p${r.players[0] + 1}win`;
  const reason = r ? r.reason : 'unfinished';
  return ['1', layout.variant, p1, p2, result, reason, game.start, positionArgument(game)].join('\t');
}

// ---- the address: #variant=<name>&position=<position argument> ----

export function readAddress(hash = location.hash) {
  const h = decodeURIComponent(hash.replace(/^#/, ''));
  if (!h) return {};
  if (!h.includes('=')) return { variant: h }; // the older #<variant>
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  const out = { variant: p.get('variant') || undefined };
  const pos = p.get('position') && parsePosition(p.get('position'));
  if (pos) out.game = pos;
  return out;
}

export function writeAddress(variant, game) {
  const p = new URLSearchParams({ variant });
  if (game && (game.moves.length || game.start !== 'startpos')) p.set('position', positionArgument(game));
  const hash = '#' + p.toString().replace(/\+/g, '%20');
  if (location.hash !== hash) history.replaceState(null, '', hash);
}

// ---- localStorage: the last game, seats and settings ----

// The game to show: the address's (a link), else the one of the last
// visit. variants: the engine's, or null before it is up (the variant
// named is taken as it is). same: the game is the one kept (not a link
// to another), so its clocks and a replay shown over it come back too.
export function chooseGame(address, saved, variants, dflt) {
  const known = (v) => v && (!variants || variants.includes(v));
  const variant = known(address.variant) ? address.variant : known(saved.variant) ? saved.variant : dflt;
  let game = { start: 'startpos', moves: [] };
  const savedGame = saved.game && Array.isArray(saved.game.moves) && typeof saved.game.start === 'string' ? saved.game : null;
  if (address.game) game = address.game;
  else if (!address.variant && saved.variant === variant && savedGame) game = savedGame;
  const same = saved.variant === variant && savedGame && positionArgument(savedGame) === positionArgument(game);
  return { variant, game, same };
}

export function loadSaved() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || 'null');
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

export function save(values) {
  try {
    localStorage.setItem(KEY, JSON.stringify({ ...loadSaved(), ...values }));
  } catch {
    // Storage full or refused (a private window): the address still holds the game.
  }
}

// Offers text as a file to save.
export function download(name, text) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}
