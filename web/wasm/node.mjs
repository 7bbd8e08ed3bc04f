// node.mjs: `node build/wasm/denham.mjs [arguments]`: denham.wasm under
// Node, as ./denham: the same arguments, the protocol on standard input
// and output, the same exit status. `make wasm` writes it after wasi.js
// into build/wasm/denham.mjs, beside denham.wasm (one file, no package).
// The module runs in a worker thread and reads standard input from a
// SharedArrayBuffer (wasi.js's SharedInput), which this thread fills as
// standard input comes: so a running search reads `stop` and `isready`
// between slices, as the page's worker does when cross-origin isolated.
// With DENHAM_WASM_UNWIND=1 it runs as a page without shared memory has
// it run: on this thread, its input queued from events (QueueInput), its
// stack unwound to the event loop to wait and between slices (make
// test-wasm runs the transcripts both ways).
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { readFileSync, writeSync } from 'node:fs';

// All of bytes to fd, waiting out a full pipe. A reader gone (EPIPE) ends
// the engine as SIGPIPE ends ./denham (status 141, no word).
function writeAll(fd, bytes) {
  for (let at = 0; at < bytes.length;) {
    try {
      at += writeSync(fd, bytes, at, bytes.length - at);
    } catch (err) {
      if (err.code === 'EPIPE') throw new WasiExit(141);
      if (err.code !== 'EAGAIN') throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }
}

function tty() {
  return [process.stdin, process.stdout, process.stderr].map((s) => s.isTTY === true);
}

function instance(wasi) {
  const module = new WebAssembly.Module(readFileSync(new URL('./denham.wasm', import.meta.url)));
  return new WebAssembly.Instance(module, wasi.imports());
}

if (isMainThread && process.env.DENHAM_WASM_UNWIND === '1') {
  const input = new QueueInput();
  process.stdin.on('data', (b) => input.write(new Uint8Array(b.buffer, b.byteOffset, b.length)));
  process.stdin.on('end', () => input.close());
  process.stdin.on('error', () => input.close());
  const terminal = tty();
  const wasi = new Wasi({ args: ['denham', ...process.argv.slice(2)], input, write: writeAll, isTerminal: (fd) => terminal[fd] });
  process.exitCode = await wasi.run(instance(wasi));
  process.stdin.destroy();
} else if (isMainThread) {
  const buffers = SharedInput.create();
  const input = new SharedInput(buffers);
  const worker = new Worker(new URL(import.meta.url), {
    workerData: { buffers, args: process.argv.slice(2), tty: tty() },
  });
  process.stdin.on('data', (b) => input.write(new Uint8Array(b.buffer, b.byteOffset, b.length)));
  process.stdin.on('end', () => input.close());
  process.stdin.on('error', () => input.close());
  worker.on('message', (m) => {
    process.exitCode = m.exit;
    process.stdin.destroy(); // the engine is done (quit): stop reading
  });
  worker.on('error', (err) => {
    process.stderr.write(`denham (WebAssembly): ${err.stack || err}\n`);
    process.exitCode = 70;
    process.stdin.destroy();
  });
} else {
  const input = new SharedInput(workerData.buffers);
  const wasi = new Wasi({
    args: ['denham', ...workerData.args], input, write: writeAll, isTerminal: (fd) => workerData.tty[fd],
  });
  parentPort.postMessage({ exit: await wasi.run(instance(wasi)) });
}
