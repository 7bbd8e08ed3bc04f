// session.js: one engine of this tab, through `denham serve`: the server
// starts it, streams its lines here (Server-Sent Events) and passes each
// command on as one protocol line (PROTOCOL.md). Knows no game.

export class EngineSession {
  constructor() {
    this.id = null;
    this.source = null;
    this.lineHandlers = []; // (line) => void, for every engine line
    this.stateHandlers = []; // ({state, detail}) => void, for the server's engine events
    this.waiters = []; // {prefix, resolve, reject, timer}
    this.closed = false;
  }

  // Opens the session: the engine is running when this resolves.
  async open() {
    const r = await fetch('api/sessions', { method: 'POST' });
    const body = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(body.error || `the server answered ${r.status}`);
    this.id = body.id;
    this.source = new EventSource(`api/sessions/${this.id}/events`);
    this.source.onmessage = (e) => this.onLine(e.data);
    this.source.addEventListener('engine', (e) => {
      let info;
      try { info = JSON.parse(e.data); } catch { return; }
      if (info.state === 'crashed' || info.state === 'down' || info.state === 'closed' || info.state === 'stopped') {
        this.failWaiters(`the engine ${info.state}: ${info.detail}`);
      }
      if (info.state === 'closed') this.closed = true;
      for (const h of this.stateHandlers) h(info);
    });
    this.source.onerror = () => {
      if (this.closed) this.source.close();
    };
    window.addEventListener('pagehide', () => this.close());
  }

  onLine(line) {
    for (const h of this.lineHandlers) h(line);
    for (let i = 0; i < this.waiters.length; i++) {
      const w = this.waiters[i];
      if (line.startsWith(w.prefix)) {
        this.waiters.splice(i, 1);
        clearTimeout(w.timer);
        w.resolve(line);
        return;
      }
    }
  }

  failWaiters(why) {
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) {
      clearTimeout(w.timer);
      w.reject(new Error(why));
    }
  }

  // Sends one protocol line; refuses anything with a line break.
  async send(line) {
    if (/[\r\n]/.test(line)) throw new Error('a command is one line');
    if (!this.id || this.closed) throw new Error('no engine: reload the page to start one');
    const r = await fetch(`api/sessions/${this.id}/commands`, {
      method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: line,
    });
    if (!r.ok) {
      const body = await r.json().catch(() => ({}));
      throw new Error(body.error || `the server answered ${r.status}`);
    }
  }

  // The next line starting with prefix (registered before the command is
  // sent, so that a fast answer is not missed).
  expect(prefix, timeoutMs = 30000) {
    return new Promise((resolve, reject) => {
      const w = { prefix, resolve, reject };
      w.timer = setTimeout(() => {
        const i = this.waiters.indexOf(w);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(new Error(`the engine did not answer '${prefix.trim()}' within ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      this.waiters.push(w);
    });
  }

  async ask(command, prefix, timeoutMs) {
    const answer = this.expect(prefix, timeoutMs);
    await this.send(command);
    return answer;
  }

  // A JSON description: `layout`, `state` or `legalmoves`.
  async describe(what) {
    const line = await this.ask(what, `${what} `);
    return JSON.parse(line.slice(what.length + 1));
  }

  async restart() {
    this.failWaiters('the engine is being restarted');
    await fetch(`api/sessions/${this.id}/restart`, { method: 'POST' });
  }

  close() {
    if (!this.id || this.closed) return;
    this.closed = true;
    navigator.sendBeacon(`api/sessions/${this.id}/close`, '');
    if (this.source) this.source.close();
  }
}
