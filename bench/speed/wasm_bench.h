/* wasm_bench.h: the WebAssembly build's figures (bench_denham wasm). */
#ifndef DENHAM_WASM_BENCH_H
#define DENHAM_WASM_BENCH_H

/* Search speed against native in Node and Chromium (rounds of each, in
 * alternation), the module's size, the static board's first board;
 * 0, or 2 without make wasm web-static, Chromium or python3. */
int wasm_bench(int rounds);

#endif
