// engine-worker.js: denham.wasm in a Web Worker (worker-transport.js is
// the page's side): the protocol's lines in on its standard input, its
// lines out as messages, as `denham serve` would pass them. The input is
// the page's SharedArrayBuffer when it has one (cross-origin isolated),
// else the lines the page posts, queued until the engine reads them
// (wasi.js). Knows no game.
import { Wasi, SharedInput, QueueInput } from './wasi.js';

let input = null;

async function run(module, shared) {
  input = shared ? new SharedInput(shared) : new QueueInput();
  const decoder = new TextDecoder();
  let partial = '';
  const write = (fd, bytes) => {
    if (fd !== 1) { // the engine writes nothing there but a command line's errors
      console.warn(`denham: ${decoder.decode(bytes)}`);
      return;
    }
    const text = partial + decoder.decode(bytes, { stream: true });
    const lines = text.split('\n');
    partial = lines.pop();
    if (lines.length) postMessage({ type: 'lines', lines });
  };
  const wasi = new Wasi({ args: ['denham'], input, write });
  const instance = await WebAssembly.instantiate(module, wasi.imports());
  postMessage({ type: 'ready' });
  postMessage({ type: 'exit', code: await wasi.run(instance) });
}

self.onmessage = (e) => {
  const m = e.data;
  if (m.type === 'start') {
    run(m.module, m.shared).catch((err) => postMessage({ type: 'crashed', detail: String((err && err.message) || err) }));
  } else if (m.type === 'input' && input) {
    input.write(m.bytes);
  }
};
