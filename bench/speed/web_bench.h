/* web_bench.h: the figures of denham serve (web_bench.c). */
#ifndef DENHAM_WEB_BENCH_H
#define DENHAM_WEB_BENCH_H

/* Runs every measurement; 0 unless the server did not start. */
int web_bench(int seconds, int clients);

#endif
