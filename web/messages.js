// messages.js: what the app tells a person, in one place inside the board
// area and so always inside the window: the status line (whose turn, what
// is asked, what just happened) and one error, tied to the position it is
// about: it goes when the page shows another position (a move, Undo, a new
// game, a replay step) or the person dismisses it. Knows no game and no
// engine: app.js says what to show and where the page is. May not reach
// into the board or the session. The words of what the engine describes
// (a result, the seats out, a refusal) are made here too.

export class Messages {
  constructor(statusEl, errorEl, errorTextEl, closeEl) {
    this.statusEl = statusEl;
    this.errorEl = errorEl;
    this.errorTextEl = errorTextEl;
    this.where = null; // the position the page shows (a position command)
    this.errorWhere = null; // the position the error is about; null: any
    closeEl.addEventListener('click', () => this.clearError());
  }

  status(text) { setWords(this.statusEl, text); }

  // An error about the position shown now (or, with anywhere, about none:
  // it stays until the next error, a dismissal or clearError).
  error(text, { anywhere = false } = {}) {
    if (!text) { this.clearError(); return; }
    setWords(this.errorTextEl, text);
    this.errorEl.hidden = false;
    this.errorWhere = anywhere ? null : this.where;
    // In the page's flow above the board: on a phone scrolled down (the
    // Open button is far below), brought into view.
    bringIntoView(this.errorEl);
  }

  clearError() {
    this.errorTextEl.textContent = '';
    this.errorEl.hidden = true;
    this.errorWhere = null;
  }

  // The page now shows this position: an error about another one goes.
  at(where) {
    this.where = where;
    if (!this.errorEl.hidden && this.errorWhere !== null && this.errorWhere !== where) this.clearError();
  }

  get errorText() { return this.errorEl.hidden ? '' : this.errorTextEl.textContent; }
}

// The seats out of a game that goes on (`state` `gone`: each with the
// engine's sentence of why), and who plays on; '' when none is out.
// name(seat): a seat's name.
export function goneText(st, name) {
  const gone = (st.gone || []).filter((x) => !(st.in || []).includes(x.seat));
  if (!gone.length) return '';
  const on = (st.in || []).map((i) => capitalise(name(i)));
  const list = on.length > 1 ? `${on.slice(0, -1).join(', ')} and ${on[on.length - 1]}` : on.join('');
  return `${gone.map((x) => x.text).join(' ')} ${list} ${on.length > 1 ? 'play' : 'plays'} on.`;
}

// The result as the engine says it (`result.text`: who won, how and
// where; the cells it names in `result.decisive` are drawn by the board).
// A result the app made itself (a flag fall) has no text: who won and why.
export function resultText(st, name) {
  const r = st.result;
  if (r.text) return r.text;
  const who = r.kind === 'win' ? `${r.players.map(name).join(' and ')} won` : 'Drawn';
  return capitalise(`${who}: ${r.reason}.`);
}

// The engine's refusal in words: "illegal move 'X': <the rule>" (the rule
// when the engine gives one), never the move twice.
export function refusal(move, why) {
  const m = /^illegal move '([^']*)'(?::\s*(.*))?$/.exec(why);
  if (!m) return `'${move}': ${why}`;
  return m[2] ? `Illegal move '${m[1]}': ${m[2]}` : `Illegal move '${m[1]}'.`;
}

// The first letter in upper case: "defenders won" -> "Defenders won".
export function capitalise(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

// Scrolls the page the least that shows el whole (with a margin), when it
// is not; whole pixels, so that it is shown whole and not a fraction off.
export function bringIntoView(el) {
  const r = el.getBoundingClientRect();
  if (r.top < 0) window.scrollBy(0, Math.floor(r.top) - 8);
  else if (r.bottom > innerHeight) window.scrollBy(0, Math.ceil(Math.min(r.bottom - innerHeight + 8, r.top - 8)));
}

// Sets an element's text, with each word that holds an option name
// ("(--max-sessions)") kept whole: a browser may break a line after a
// hyphen, which would split "--" from "max-sessions".
export function setWords(el, text) {
  const parts = String(text).split(/(\S*--[\w-]+\S*)/);
  if (parts.length === 1) { el.textContent = text; return; }
  el.replaceChildren(...parts.map((p, i) => {
    if (i % 2 === 0) return document.createTextNode(p);
    const w = document.createElement('span');
    w.className = 'nowrap';
    w.textContent = p;
    return w;
  }));
}
