// session.js: one engine of this tab, the one seam between the board and
// its engine. Two transports, the only difference between the two ways the
// app runs (README, "Play without installing"):
// - `denham serve`: the server starts the engine, streams its lines here
//   (Server-Sent Events) and passes each command on as one protocol line;
// - the static folder (`make web-static`, whose page says
//   data-transport="worker"): Denham in WebAssembly, in a Web Worker of
//   this tab (wasm/worker-transport.js), no server at all.
// Either way the app sees the engine's lines (PROTOCOL.md), its events
// (crashed, restarted, closed...) and the methods below. Knows no game.

// The server's transport: a session of `denham serve` over HTTP.
class ServerTransport {
  constructor(onLine, onEvent) {
    this.onLine = onLine;
    this.onEvent = onEvent;
    this.id = null;
    this.source = null;
    this.closed = false;
  }

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
      if (info.state === 'closed') this.closed = true;
      this.onEvent(info);
    });
    this.source.onerror = () => {
      if (this.closed) this.source.close();
    };
  }

  get ready() { return !!this.id && !this.closed; }

  async send(line) {
    const r = await fetch(`api/sessions/${this.id}/commands`, {
      method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: line,
    });
    if (!r.ok) {
      const body = await r.json().catch(() => ({}));
      throw new Error(body.error || `the server answered ${r.status}`);
    }
  }

  async restart() {
    await fetch(`api/sessions/${this.id}/restart`, { method: 'POST' });
  }

  close() {
    if (!this.id || this.closed) return;
    this.closed = true;
    navigator.sendBeacon(`api/sessions/${this.id}/close`, '');
    if (this.source) this.source.close();
  }
}

// Which transport this page uses: the static folder's page says so.
export function transportKind() {
  return document.documentElement.dataset.transport === 'worker' ? 'worker' : 'server';
}

export class EngineSession {
  constructor() {
    this.transport = null;
    this.kind = transportKind();
    this.lineHandlers = []; // (line) => void, for every engine line
    this.stateHandlers = []; // ({state, detail}) => void, for the engine's events
    this.waiters = []; // {prefix, resolve, reject, timer}
    this.closed = false;
  }

  // Opens the session: the engine is running when this resolves.
  async open() {
    const onLine = (line) => this.onLine(line);
    const onEvent = (info) => this.onEvent(info);
    if (this.kind === 'worker') {
      const { WorkerTransport } = await import('./wasm/worker-transport.js');
      this.transport = new WorkerTransport(onLine, onEvent);
    } else {
      this.transport = new ServerTransport(onLine, onEvent);
    }
    await this.transport.open();
    window.addEventListener('pagehide', () => this.close());
  }

  onEvent(info) {
    if (info.state === 'crashed' || info.state === 'down' || info.state === 'closed' || info.state === 'stopped') {
      this.failWaiters(`the engine ${info.state}: ${info.detail}`);
    }
    if (info.state === 'closed') this.closed = true;
    for (const h of this.stateHandlers) h(info);
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
    if (!this.transport || !this.transport.ready || this.closed) throw new Error('no engine: reload the page to start one');
    await this.transport.send(line);
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
    await this.transport.restart();
  }

  close() {
    if (!this.transport || this.closed) return;
    this.closed = true;
    this.transport.close();
  }
}
