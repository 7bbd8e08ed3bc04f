// messages.js: what the app tells a person, in one place inside the board
// area and so always inside the window: the status line (whose turn, what
// is asked, what just happened) and one error, tied to the position it is
// about: it goes when the page shows another position (a move, Undo, a new
// game, a replay step) or the person dismisses it. Knows no game and no
// engine: app.js says what to show and where the page is. May not reach
// into the board or the session.

export class Messages {
  constructor(statusEl, errorEl, errorTextEl, closeEl) {
    this.statusEl = statusEl;
    this.errorEl = errorEl;
    this.errorTextEl = errorTextEl;
    this.where = null; // the position the page shows (a position command)
    this.errorWhere = null; // the position the error is about; null: any
    closeEl.addEventListener('click', () => this.clearError());
  }

  status(text) { this.statusEl.textContent = text; }

  // An error about the position shown now (or, with anywhere, about none:
  // it stays until the next error, a dismissal or clearError).
  error(text, { anywhere = false } = {}) {
    if (!text) { this.clearError(); return; }
    this.errorTextEl.textContent = text;
    this.errorEl.hidden = false;
    this.errorWhere = anywhere ? null : this.where;
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

// The first letter in upper case: "defenders won" -> "Defenders won".
export function capitalise(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}
