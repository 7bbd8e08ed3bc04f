/* web_bench.h: the figures of denham serve (web_bench.c). */
#ifndef DENHAM_WEB_BENCH_H
#define DENHAM_WEB_BENCH_H

/* Runs every measurement; 0 unless the server did not start. */
int web_bench(int seconds, int clients);
/* The hostile mix alone (issue 53): slow connections, a stopped engine,
 * greedy options, beside a prompt client, for SECONDS. */
int web_hostile(int seconds, int slow);

#endif
