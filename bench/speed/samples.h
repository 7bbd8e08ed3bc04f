/*
 * samples.h: the order statistics the benches print of repeated
 * measurements (timings, speed-ups). Plain arithmetic on arrays: knows no
 * game, engine or page.
 */
#ifndef DENHAM_BENCH_SAMPLES_H
#define DENHAM_BENCH_SAMPLES_H

#include <stddef.h>

/* Sorts v[0..n) ascending. */
void samples_sort(double *v, size_t n);

/* The median of v[0..n) (the mean of the middle two where n is even), v
 * left sorted; -1 for no sample. */
double samples_median(double *v, size_t n);

#endif
