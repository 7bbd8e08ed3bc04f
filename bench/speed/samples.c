/*
 * samples.c: order statistics of repeated measurements (samples.h).
 */
#include "samples.h"

#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

void samples_sort(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
}

double samples_median(double *v, size_t n)
{
    if (n == 0)
        return -1;
    samples_sort(v, n);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
