/*
 * smp_bench.h: Lazy SMP's time to depth (`bench_denham smp [THREADS
 * [HASH_MB [POSITIONS [REPEATS]]]]`), not part of make bench: it wants two
 * idle cores and about seven minutes.
 */
#ifndef DENHAM_SMP_BENCH_H
#define DENHAM_SMP_BENCH_H

/* For each game family: the first `positions` positions of its book in
 * bench/books/ (run from the top of the tree), each searched to a fixed
 * depth on a cleared table of hash_mb MiB with 1 and with `threads`
 * threads, `repeats` times each (their median); per game the median of
 * the positions' speed-ups and the ratio of the summed times. Nonzero when
 * a book cannot be read or an argument is out of range. */
int smp_bench(int threads, int hash_mb, int positions, int repeats);

#endif
