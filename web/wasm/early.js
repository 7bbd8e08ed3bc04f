// early.js: the first thing the static page runs (a classic script at
// the top of its head, before the app's modules are even fetched): starts
// fetching and compiling the engine, so that compiling it (the most of a
// first visit's wait) overlaps the loading of the page and of the app.
// worker-transport.js takes the module from here (self.denhamEngine), and
// fetches it itself if this failed. Knows nothing but the module's name.
(function () {
  if (!self.WebAssembly) return;
  const r = fetch('wasm/denham.wasm');
  self.denhamEngine = r.then((res) => {
    if (!res.ok) throw new Error(`the engine (denham.wasm) could not be loaded: the server answered ${res.status}`);
    // Streaming needs the server to say application/wasm (an old nginx may not).
    if ((res.headers.get('Content-Type') || '').startsWith('application/wasm')) return WebAssembly.compileStreaming(res);
    return res.arrayBuffer().then((bytes) => WebAssembly.compile(bytes));
  });
  self.denhamEngine.catch(() => {}); // worker-transport.js fetches it again and says why
})();
