/*
 * solve_bench.h: the solver's figures (`bench_denham solve-speed`,
 * `bench_denham solve-smp [THREADS]`), not part of make bench: each takes
 * minutes and wants idle cores.
 */
#ifndef DENHAM_SOLVE_BENCH_H
#define DENHAM_SOLVE_BENCH_H

/* df-pn's positions per second beside the search's, per game. */
int solve_bench_speed(void);
/* Solves with 1 and `threads` threads: wall time, the busiest thread's
 * processor time, nodes. */
int solve_bench_smp(int threads);

#endif
