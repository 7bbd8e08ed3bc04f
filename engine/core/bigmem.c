/*
 * bigmem.c: large zeroed blocks (bigmem.h).
 * Core: includes nothing above engine/core/ and names no game.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "bigmem.h"

#include <stdint.h>

#ifdef __wasi__
#include <stdlib.h>

/* WebAssembly has no mmap: a fresh block of the heap, zeroed by calloc
 * (and no huge pages). */
void *bigmem_alloc(size_t bytes) { return calloc(1, bytes); }

void bigmem_free(void *p, size_t bytes)
{
    (void)bytes;
    free(p);
}

#else
#include <sys/mman.h>

void *bigmem_alloc(size_t bytes)
{
    if (bytes < BIGMEM_HUGE_PAGE) {
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        return p == MAP_FAILED ? NULL : p;
    }
    void *p = mmap(NULL, bytes + BIGMEM_HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    uintptr_t start = (uintptr_t)p, aligned = (start + BIGMEM_HUGE_PAGE - 1) & ~(uintptr_t)(BIGMEM_HUGE_PAGE - 1);
    /* Give back the slack on both sides, so that munmap of the block alone
     * frees everything. */
    if (aligned > start)
        munmap(p, aligned - start);
    if (start + BIGMEM_HUGE_PAGE > aligned)
        munmap((void *)(aligned + bytes), start + BIGMEM_HUGE_PAGE - aligned);
#ifdef MADV_HUGEPAGE
    madvise((void *)aligned, bytes, MADV_HUGEPAGE); /* a hint: refusal costs only speed */
#endif
    return (void *)aligned;
}

void bigmem_free(void *p, size_t bytes)
{
    if (p)
        munmap(p, bytes);
}
#endif
