/*
 * bigmem.h: large zeroed blocks straight from the system, for the tables
 * (the search's, tt.c, and the solver's, engine/solve/dfpn_table.c).
 * Core: includes nothing above engine/core/ and names no game.
 */
#ifndef DENHAM_BIGMEM_H
#define DENHAM_BIGMEM_H

#include <stddef.h>

/* A block of `bytes` zero bytes, or NULL when refused. It comes as zero
 * pages, which are not in memory until touched (bringing 4 GiB in took
 * 8 s), where malloc, once a large block has been freed, serves the next
 * from memory it must clear (a 16 MiB clear was a fifth of a short bench).
 * A block of 2 MiB or more is aligned to 2 MiB and offered to the kernel
 * for huge pages: a probe then seldom misses the TLB, and a fresh table
 * faults in 512 times less often. */
void *bigmem_alloc(size_t bytes);
/* Gives back a block from bigmem_alloc of that size (NULL: nothing). */
void bigmem_free(void *p, size_t bytes);

#define BIGMEM_HUGE_PAGE ((size_t)2 << 20)

#endif
