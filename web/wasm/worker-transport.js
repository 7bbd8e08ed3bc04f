// worker-transport.js: the static board's engine for session.js: Denham
// in WebAssembly in a Web Worker of this tab (engine-worker.js), no
// server. Commands go to the engine's standard input: through a
// SharedArrayBuffer when the page is cross-origin isolated (the search
// reads them between slices without leaving its loop), else as messages
// (the search unwinds to the worker's event loop between slices to receive
// them; wasi.js). Its lines come back as messages. A module that traps
// (memory refused, a fault) or ends is a crash: a new worker is started,
// as `denham serve` restarts a crashed engine, and the app is told
// (crashed, then restarted). Knows no game and no protocol but lines.
import { SharedInput } from './wasi.js';

let compiled = null; // the module, fetched and compiled once per page

function engineModule() {
  if (!compiled) {
    const early = self.denhamEngine; // started at the top of the page (early.js)
    self.denhamEngine = null;
    compiled = (async () => {
      if (early) {
        try { return await early; } catch { /* fetched again, and the failure said, below */ }
      }
      const r = await fetch(new URL('denham.wasm', import.meta.url));
      if (!r.ok) throw new Error(`the engine (denham.wasm) could not be loaded: the server answered ${r.status}`);
      // Streaming needs the server to say application/wasm (an old nginx may not).
      if ((r.headers.get('Content-Type') || '').startsWith('application/wasm')) return WebAssembly.compileStreaming(r);
      return WebAssembly.compile(await r.arrayBuffer());
    })();
    compiled.catch(() => { compiled = null; }); // tried again on the next open
  }
  return compiled;
}

const encoder = new TextEncoder();

export class WorkerTransport {
  constructor(onLine, onEvent) {
    this.onLine = onLine;
    this.onEvent = onEvent;
    this.worker = null;
    this.closed = false;
  }

  get ready() { return !!this.worker && !this.closed; }

  // Whether the engine reads its input from shared memory.
  get shared() { return !!this.input; }

  async open() {
    const module = engineModule();
    this.start(module); // the worker loads its scripts while the module compiles
    await module;
    performance.mark('denham-module'); // the module compiled (bench_denham wasm reads the marks)
    await this.started;
    performance.mark('denham-engine'); // the engine in its worker answers
  }

  // Starts a worker, and the engine in it once module (a compiled module,
  // or its promise) is there; a module that fails ends the worker (whoever
  // awaits the module sees why).
  start(module) {
    const buffers = self.crossOriginIsolated ? SharedInput.create() : null;
    this.input = buffers ? new SharedInput(buffers) : null;
    const worker = new Worker(new URL('engine-worker.js', import.meta.url), { type: 'module' });
    this.worker = worker;
    this.started = new Promise((resolve, reject) => { this.onStarted = { resolve, reject, done: false }; });
    this.started.catch(() => {}); // awaited by open() or restart(), who see the failure
    worker.onmessage = (e) => { if (this.worker === worker) this.onMessage(e.data); };
    worker.onerror = (e) => {
      e.preventDefault();
      if (this.worker === worker) this.crashed(e.message || 'the engine\'s worker failed');
    };
    Promise.resolve(module).then((m) => {
      if (this.worker === worker) worker.postMessage({ type: 'start', module: m, shared: buffers });
    }, () => { if (this.worker === worker) this.stopWorker(); });
  }

  onMessage(m) {
    if (m.type === 'lines') {
      for (const line of m.lines) this.onLine(line);
    } else if (m.type === 'ready') {
      this.onStarted.done = true;
      this.onStarted.resolve();
    } else if (m.type === 'exit') {
      this.crashed(`it ended (status ${m.code})`);
    } else if (m.type === 'crashed') {
      this.crashed(m.detail);
    }
  }

  async send(line) {
    const bytes = encoder.encode(`${line}\n`);
    if (this.input) this.input.write(bytes);
    else this.worker.postMessage({ type: 'input', bytes }, [bytes.buffer]);
  }

  async restart() {
    this.stopWorker();
    const module = engineModule();
    this.start(module);
    await module;
    await this.started;
  }

  crashed(detail) {
    if (this.closed) return;
    this.stopWorker();
    if (!this.onStarted.done) { // open() or restart() says so
      this.onStarted.reject(new Error(`the engine did not start: ${detail}`));
      return;
    }
    this.onEvent({ state: 'crashed', detail });
    this.restart().then(() => this.onEvent({ state: 'restarted', detail: 'a new engine' }),
      (err) => this.onEvent({ state: 'down', detail: err.message }));
  }

  stopWorker() {
    if (this.worker) this.worker.terminate();
    this.worker = null;
  }

  close() {
    this.closed = true;
    this.stopWorker();
  }
}
