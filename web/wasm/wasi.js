// wasi.js: the WASI calls (preview 1) that denham.wasm makes, in plain
// JavaScript, for the board's Web Worker (engine-worker.js) and for the
// Node launcher (node.mjs, built into build/wasm/denham.mjs): the
// arguments, the clocks, standard output and error handed to the host,
// standard input from the host, poll on it, sched_yield and exit. No file
// system: the browser build reads and writes no file.
//
// Standard input comes one of two ways, and with it the way a search gives
// the page its turn (thread.h: every 10 ms the engine calls sched_yield,
// then reads what has come without waiting):
// - SharedInput: bytes in a SharedArrayBuffer ring that the host fills
//   (Node's main thread, or a cross-origin isolated page): a read with
//   nothing there waits on Atomics.wait; nothing ever unwinds.
// - QueueInput: bytes posted to the worker, queued here (a page that is
//   not cross-origin isolated has no shared memory): the worker must get
//   back to its event loop to receive them, so a read with nothing there
//   and every sched_yield unwind the module's stack (binaryen's asyncify,
//   `make wasm`) to the event loop, and run() rewinds it after.
// Knows no protocol and no game: it moves bytes.

const ERRNO = { SUCCESS: 0, AGAIN: 6, BADF: 8, INVAL: 28, NOENT: 44, NOSYS: 52, SPIPE: 70, NOTCAPABLE: 76 };
const FILETYPE_UNKNOWN = 0, FILETYPE_CHARACTER_DEVICE = 2;
const EVENTTYPE_CLOCK = 0, EVENTTYPE_FD_READ = 1;
const EVENTRWFLAGS_HANGUP = 1;
const ASYNCIFY_NORMAL = 0, ASYNCIFY_UNWINDING = 1, ASYNCIFY_REWINDING = 2;
// The module's saved stack while unwound: deep searches (up to 128 plies,
// a few calls each) fit with room to spare.
const ASYNCIFY_BYTES = 1 << 20;

// What proc_exit throws, to end _start with the status.
export class WasiExit extends Error {
  constructor(code) { super(`exit ${code}`); this.code = code; }
}

// Input in a SharedArrayBuffer ring: header [written, read, closed] as
// wrapping 32-bit byte counts, then the bytes. One writer (the host), one
// reader (the module).
export class SharedInput {
  static create(bytes = 1 << 20) {
    return { header: new SharedArrayBuffer(16), data: new SharedArrayBuffer(bytes) };
  }

  constructor(buffers) {
    this.header = new Int32Array(buffers.header);
    this.data = new Uint8Array(buffers.data);
    this.pending = []; // (writer side) what did not fit yet
  }

  // ---- the host's side ----

  // Appends bytes (a Uint8Array); what does not fit now is written as the
  // module reads. Never blocks.
  write(bytes) {
    this.pending.push(bytes);
    this.flush();
  }

  // No more input after what is written: the module reads the end.
  close() {
    this.closing = true;
    this.flush();
  }

  flush() {
    const cap = this.data.length;
    while (this.pending.length) {
      const w = Atomics.load(this.header, 0), r = Atomics.load(this.header, 1);
      const free = cap - ((w - r) >>> 0);
      if (free === 0) break;
      const chunk = this.pending[0];
      const n = Math.min(free, chunk.length);
      for (let i = 0; i < n; i++) this.data[(w + i) & (cap - 1)] = chunk[i];
      Atomics.store(this.header, 0, (w + n) | 0);
      Atomics.notify(this.header, 0);
      if (n === chunk.length) this.pending.shift();
      else this.pending[0] = chunk.subarray(n);
    }
    if (this.pending.length) {
      if (!this.retry) this.retry = setTimeout(() => { this.retry = null; this.flush(); }, 5);
      return;
    }
    if (this.closing && !Atomics.load(this.header, 2)) {
      Atomics.store(this.header, 2, 1);
      Atomics.notify(this.header, 0);
    }
  }

  // ---- the module's side ----

  // Bytes there to read now; -1 at the end of input.
  available() {
    const n = (Atomics.load(this.header, 0) - Atomics.load(this.header, 1)) >>> 0;
    return n > 0 ? n : Atomics.load(this.header, 2) ? -1 : 0;
  }

  // Up to buf.length bytes that are there (0: none yet).
  read(buf) {
    const cap = this.data.length;
    const w = Atomics.load(this.header, 0), r = Atomics.load(this.header, 1);
    const n = Math.min(buf.length, (w - r) >>> 0);
    for (let i = 0; i < n; i++) buf[i] = this.data[(r + i) & (cap - 1)];
    Atomics.store(this.header, 1, (r + n) | 0);
    return n;
  }

  // Waits (Atomics.wait) until something is there or the input ends.
  waitSync() {
    for (;;) {
      const w = Atomics.load(this.header, 0);
      if (this.available() !== 0) return;
      Atomics.wait(this.header, 0, w, 1000);
    }
  }
}

// Input queued in this worker from its messages (no shared memory).
export class QueueInput {
  constructor() {
    this.chunks = [];
    this.ended = false;
    this.waiter = null;
  }

  write(bytes) {
    this.chunks.push(bytes);
    this.wake();
  }

  close() {
    this.ended = true;
    this.wake();
  }

  wake() {
    const w = this.waiter;
    this.waiter = null;
    if (w) w();
  }

  available() {
    const n = this.chunks.reduce((s, c) => s + c.length, 0);
    return n > 0 ? n : this.ended ? -1 : 0;
  }

  read(buf) {
    let n = 0;
    while (n < buf.length && this.chunks.length) {
      const c = this.chunks[0];
      const k = Math.min(buf.length - n, c.length);
      buf.set(c.subarray(0, k), n);
      n += k;
      if (k === c.length) this.chunks.shift();
      else this.chunks[0] = c.subarray(k);
    }
    return n;
  }

  // A promise of input (or its end).
  whenAvailable() {
    if (this.available() !== 0) return Promise.resolve();
    return new Promise((resolve) => { this.waiter = resolve; });
  }
}

// Back to the event loop and straight on: a message channel's task, not a
// timer's (browsers hold nested timers back by 4 ms).
function nextTask() {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => { ch.port1.close(); resolve(); };
    ch.port2.postMessage(0);
  });
}

export class Wasi {
  // args: the program's arguments (args[0] its name); input: a
  // SharedInput or QueueInput; write(fd, bytes): standard output (1) and
  // error (2); isTerminal(fd): whether a person reads that descriptor.
  constructor({ args = ['denham'], env = [], input, write, isTerminal = () => false }) {
    this.args = args;
    this.env = env;
    this.input = input;
    this.write = write;
    this.isTerminal = isTerminal;
    this.instance = null;
    this.waiting = null; // what the module was unwound for
    this.decoder = new TextDecoder();
    this.encoder = new TextEncoder();
  }

  get memory() { return this.instance.exports.memory; }
  view() { return new DataView(this.memory.buffer); }
  bytes(ptr, len) { return new Uint8Array(this.memory.buffer, ptr, len); }

  // Whether the module was built to unwind (make wasm runs asyncify).
  get unwinds() { return !!(this.instance && this.instance.exports.asyncify_start_unwind); }

  // The imports of a module built for wasm32-wasi.
  imports() {
    const fns = {};
    for (const name of Object.getOwnPropertyNames(Wasi.prototype)) {
      if (name.startsWith('wasi_')) fns[name.slice(5)] = this[name].bind(this);
    }
    return { wasi_snapshot_preview1: fns };
  }

  // Runs the module's _start to its end; the exit status. A module that
  // unwinds (QueueInput) is rewound each time what it waited for comes.
  async run(instance) {
    this.instance = instance;
    const ex = instance.exports;
    if (this.input instanceof QueueInput) {
      if (!this.unwinds) throw new Error('this module cannot wait without shared memory (it was built without asyncify)');
      // Room for the saved stack, past everything the module's own heap
      // will use (memory.grow gives it pages after these).
      const page = this.memory.grow(ASYNCIFY_BYTES / 65536 + 1);
      this.asyncData = page * 65536;
    }
    for (;;) {
      try {
        ex._start();
      } catch (err) {
        if (err instanceof WasiExit) return err.code;
        throw err;
      }
      if (!this.unwinds || ex.asyncify_get_state() !== ASYNCIFY_UNWINDING) return 0;
      ex.asyncify_stop_unwind();
      const waiting = this.waiting;
      this.waiting = null;
      await waiting;
      ex.asyncify_start_rewind(this.asyncData);
    }
  }

  // Unwinds the module until promise settles (then run() rewinds it).
  unwindFor(promise) {
    const v = this.view();
    v.setInt32(this.asyncData, this.asyncData + 8, true);
    v.setInt32(this.asyncData + 4, this.asyncData + ASYNCIFY_BYTES, true);
    this.waiting = promise;
    this.instance.exports.asyncify_start_unwind(this.asyncData);
  }

  // True when this call is the module's rewinding into the import that
  // unwound it: the import now does what it could not then.
  rewound() {
    const ex = this.instance.exports;
    if (this.unwinds && ex.asyncify_get_state() === ASYNCIFY_REWINDING) {
      ex.asyncify_stop_rewind();
      return true;
    }
    return false;
  }

  // ---- arguments and environment ----

  strings(list, ptrs, buf) {
    const v = this.view();
    let at = buf;
    list.forEach((s, i) => {
      const b = this.encoder.encode(`${s}\0`);
      this.bytes(at, b.length).set(b);
      v.setUint32(ptrs + 4 * i, at, true);
      at += b.length;
    });
    return ERRNO.SUCCESS;
  }

  sizes(list, countPtr, sizePtr) {
    const v = this.view();
    v.setUint32(countPtr, list.length, true);
    v.setUint32(sizePtr, list.reduce((n, s) => n + this.encoder.encode(s).length + 1, 0), true);
    return ERRNO.SUCCESS;
  }

  wasi_args_sizes_get(countPtr, sizePtr) { return this.sizes(this.args, countPtr, sizePtr); }
  wasi_args_get(ptrs, buf) { return this.strings(this.args, ptrs, buf); }
  wasi_environ_sizes_get(countPtr, sizePtr) { return this.sizes(this.env, countPtr, sizePtr); }
  wasi_environ_get(ptrs, buf) { return this.strings(this.env, ptrs, buf); }

  // ---- clocks ----

  now(id) {
    // 0: realtime; the others (monotonic, process and thread time) from
    // the monotonic clock.
    const ms = id === 0 ? Date.now() : performance.timeOrigin + performance.now();
    return BigInt(Math.round(ms * 1000)) * 1000n;
  }

  wasi_clock_time_get(id, precision, ptr) {
    this.view().setBigUint64(ptr, this.now(id), true);
    return ERRNO.SUCCESS;
  }

  wasi_clock_res_get(id, ptr) {
    this.view().setBigUint64(ptr, 1000n, true);
    return ERRNO.SUCCESS;
  }

  wasi_random_get(ptr, len) {
    for (let at = 0; at < len; at += 65536) crypto.getRandomValues(this.bytes(ptr + at, Math.min(65536, len - at)));
    return ERRNO.SUCCESS;
  }

  // ---- descriptors: 0 in, 1 out, 2 errors ----

  wasi_fd_write(fd, iovs, count, writtenPtr) {
    if (fd !== 1 && fd !== 2) return ERRNO.BADF;
    const v = this.view();
    let total = 0;
    const parts = [];
    for (let i = 0; i < count; i++) {
      const ptr = v.getUint32(iovs + 8 * i, true), len = v.getUint32(iovs + 8 * i + 4, true);
      if (len) parts.push(this.bytes(ptr, len).slice());
      total += len;
    }
    if (parts.length) {
      const all = parts.length === 1 ? parts[0] : new Uint8Array(total);
      if (parts.length > 1) parts.reduce((at, p) => (all.set(p, at), at + p.length), 0);
      this.write(fd, all);
    }
    v.setUint32(writtenPtr, total, true);
    return ERRNO.SUCCESS;
  }

  wasi_fd_read(fd, iovs, count, readPtr) {
    if (fd !== 0) return ERRNO.BADF;
    const rewinding = this.rewound();
    const input = this.input;
    if (input.available() === 0) {
      if (input instanceof SharedInput) {
        input.waitSync();
      } else {
        if (rewinding) throw new Error('rewound into a read with nothing to read');
        this.unwindFor(input.whenAvailable());
        return ERRNO.SUCCESS;
      }
    }
    const v = this.view();
    let total = 0;
    for (let i = 0; i < count; i++) {
      const ptr = v.getUint32(iovs + 8 * i, true), len = v.getUint32(iovs + 8 * i + 4, true);
      const n = input.read(this.bytes(ptr, len));
      total += n;
      if (n < len) break;
    }
    v.setUint32(readPtr, total, true);
    return ERRNO.SUCCESS;
  }

  wasi_fd_fdstat_get(fd, ptr) {
    if (fd > 2) return ERRNO.BADF;
    const v = this.view();
    // A terminal is a character device without seek (wasi-libc's isatty).
    v.setUint8(ptr, this.isTerminal(fd) ? FILETYPE_CHARACTER_DEVICE : FILETYPE_UNKNOWN);
    v.setUint16(ptr + 2, 0, true);
    v.setBigUint64(ptr + 8, fd === 0 ? 2n /* fd_read */ : 64n /* fd_write */, true);
    v.setBigUint64(ptr + 16, 0n, true);
    return ERRNO.SUCCESS;
  }

  wasi_fd_fdstat_set_flags(fd) { return fd <= 2 ? ERRNO.SUCCESS : ERRNO.BADF; }
  wasi_fd_close(fd) { return fd <= 2 ? ERRNO.SUCCESS : ERRNO.BADF; }
  wasi_fd_seek(fd) { return fd <= 2 ? ERRNO.SPIPE : ERRNO.BADF; }
  wasi_fd_prestat_get() { return ERRNO.BADF; } // no directory is open to the module
  wasi_fd_prestat_dir_name() { return ERRNO.BADF; }
  wasi_path_open() { return ERRNO.NOTCAPABLE; }

  // Subscriptions (48 bytes): userdata u64 @0, tag u8 @8, then a clock
  // (id u32 @16, timeout u64 @24, flags u16 @40) or a descriptor (u32 @16).
  // Events (32 bytes): userdata @0, error u16 @8, type u8 @10, bytes
  // u64 @16, flags u16 @24. Standard input is the only descriptor that
  // waits; a clock of 0 is "without waiting"; a longer clock alone sleeps.
  wasi_poll_oneoff(inPtr, outPtr, count, eventsPtr) {
    const rewinding = this.rewound();
    const v = this.view();
    const subs = [];
    for (let i = 0; i < count; i++) {
      const at = inPtr + 48 * i;
      const tag = v.getUint8(at + 8);
      subs.push({
        userdata: v.getBigUint64(at, true), tag, fd: v.getUint32(at + 16, true),
        timeout: tag === EVENTTYPE_CLOCK ? v.getBigUint64(at + 24, true) : 0n,
        absolute: tag === EVENTTYPE_CLOCK && (v.getUint16(at + 40, true) & 1) === 1,
      });
    }
    const reads = subs.filter((s) => s.tag === EVENTTYPE_FD_READ);
    const clocks = subs.filter((s) => s.tag === EVENTTYPE_CLOCK);
    const input = this.input;
    const ready = () => reads.filter((s) => s.fd !== 0 || input.available() !== 0);
    let fired = ready();
    if (!fired.length) {
      // The soonest clock's wait in ms (Infinity: none).
      const waitMs = clocks.reduce((m, s) => {
        const ns = s.absolute ? Number(s.timeout - this.now(1)) : Number(s.timeout);
        return Math.min(m, Math.max(0, ns / 1e6));
      }, Infinity);
      if (waitMs > 0 && !rewinding) {
        if (input instanceof SharedInput) {
          const until = performance.now() + waitMs;
          while (!ready().length && performance.now() < until) {
            const w = Atomics.load(input.header, 0);
            if (input.available() !== 0) break;
            Atomics.wait(input.header, 0, w, reads.length ? Math.min(1000, until - performance.now()) : until - performance.now());
          }
        } else {
          const waits = [];
          if (reads.some((s) => s.fd === 0)) waits.push(input.whenAvailable());
          if (waitMs < Infinity) waits.push(new Promise((r) => setTimeout(r, waitMs)));
          this.unwindFor(Promise.race(waits));
          return ERRNO.SUCCESS;
        }
      }
      fired = ready();
    }
    const events = fired.length ? fired : clocks.slice(0, 1);
    events.forEach((s, k) => {
      const at = outPtr + 32 * k;
      v.setBigUint64(at, s.userdata, true);
      v.setUint16(at + 8, ERRNO.SUCCESS, true);
      v.setUint8(at + 10, s.tag);
      const n = s.tag === EVENTTYPE_FD_READ ? input.available() : 0;
      v.setBigUint64(at + 16, BigInt(Math.max(n, 0)), true);
      v.setUint16(at + 24, n < 0 ? EVENTRWFLAGS_HANGUP : 0, true);
    });
    v.setUint32(eventsPtr, events.length, true);
    return ERRNO.SUCCESS;
  }

  // The engine's turn between slices of a search (thread.h): without
  // shared memory, back to the event loop for the messages that came.
  wasi_sched_yield() {
    if (this.rewound() || !(this.input instanceof QueueInput)) return ERRNO.SUCCESS;
    this.unwindFor(nextTask());
    return ERRNO.SUCCESS;
  }

  wasi_proc_exit(code) {
    throw new WasiExit(code);
  }
}
