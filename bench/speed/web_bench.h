/* web_bench.h: the figures of denham serve (web_bench.c). */
#ifndef DENHAM_WEB_BENCH_H
#define DENHAM_WEB_BENCH_H

#include <stdint.h>

/* The p-th fraction of the n values at v (sorted in place), -1 when none. */
int64_t web_percentile(int64_t *v, int n, double p);
/* Runs every measurement; 0 unless the server did not start. */
int web_bench(int seconds, int clients);
/* The hostile patterns (web_hostile.c), SECONDS each, beside a prompt
 * client, one table; only the pattern named `only` when not NULL. */
int web_hostile(int seconds, const char *only);

#endif
