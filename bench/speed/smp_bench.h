/*
 * smp_bench.h: Lazy SMP's time to depth (`bench_denham smp [THREADS
 * [HASH_MB [POSITIONS [REPEATS [FAMILY]]]]]`), not part of make bench: it
 * wants two idle cores and about eight minutes.
 */
#ifndef DENHAM_SMP_BENCH_H
#define DENHAM_SMP_BENCH_H

/* For each game family (or `family` alone when not NULL): the first
 * `positions` positions of its book in bench/books/ (run from the top of
 * the tree), each searched to a fixed depth on a cleared table of hash_mb
 * MiB with 1 and with `threads` threads, `repeats` times each (their
 * median); per game the median of the positions' speed-ups and the ratio
 * of the summed times. Nonzero when a book cannot be read, 2 when an
 * argument is out of range (or `family` is not a family's name). */
int smp_bench(int threads, int hash_mb, int positions, int repeats, const char *family);

#endif
