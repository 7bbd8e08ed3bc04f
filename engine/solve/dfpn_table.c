/* dfpn_table.c: the proof-number search's table; see dfpn_table.h. */
#include "dfpn_table.h"

#include <stdlib.h>
#include <string.h>
#include "../core/bigmem.h"

bool dfpn_table_init(dfpn_table_t *t, size_t mb)
{
    *t = (dfpn_table_t){0};
    size_t want = mb << 20, n = 1;
    while (n * 2 * sizeof(dfpn_bucket_t) <= want)
        n *= 2;
    size_t bytes = n * sizeof(dfpn_bucket_t);
    t->buckets = bigmem_alloc(bytes);
    t->locks = calloc(n, sizeof *t->locks);
    if (!t->buckets || !t->locks) {
        bigmem_free(t->buckets, bytes);
        free(t->locks);
        *t = (dfpn_table_t){0};
        return false;
    }
    t->mask = n - 1;
    t->bytes = bytes;
    t->generation = 1;
    return true;
}

void dfpn_table_free(dfpn_table_t *t)
{
    bigmem_free(t->buckets, t->bytes);
    free(t->locks);
    *t = (dfpn_table_t){0};
}

void dfpn_table_clear(dfpn_table_t *t)
{
    if (!t->buckets || ++t->generation != 0)
        return;
    t->generation = 1;
    /* A fresh block is zero without touching every page; if the system
     * refuses one, the old block is cleared by hand. */
    void *p = bigmem_alloc(t->bytes);
    if (!p) {
        memset(t->buckets, 0, t->bytes);
        return;
    }
    bigmem_free(t->buckets, t->bytes);
    t->buckets = p;
}

static void lock(dfpn_table_t *t, uint64_t b)
{
    if (!t->shared)
        return;
    while (atomic_exchange_explicit(&t->locks[b], 1, memory_order_acquire))
        while (atomic_load_explicit(&t->locks[b], memory_order_relaxed))
            ;
}

static void unlock(dfpn_table_t *t, uint64_t b)
{
    if (t->shared)
        atomic_store_explicit(&t->locks[b], 0, memory_order_release);
}

bool dfpn_table_probe(dfpn_table_t *t, uint64_t key, dfpn_hit_t *hit)
{
    uint64_t b = key & t->mask;
    dfpn_entry_t *e = t->buckets[b].e;
    bool found = false;
    lock(t, b);
    for (int i = 0; i < DFPN_BUCKET_WAYS; i++)
        if (e[i].key == key && e[i].generation == t->generation) {
            *hit = (dfpn_hit_t){e[i].pn, e[i].dn, e[i].dist, e[i].flags, 0, {0, 0}};
            if (e[i].flags & DFPN_ON_LINE) {
                hit->dep[0] = e[i].dep;
                hit->dep[1] = (uint64_t)e[i].pn << 32 | e[i].dn;
                hit->deps = hit->dep[1] ? 2 : 1;
                hit->pn = UINT32_MAX;
                hit->dn = 0;
            }
            found = true;
            break;
        }
    unlock(t, b);
    return found;
}

static void store(dfpn_table_t *t, uint64_t key, uint32_t pn, uint32_t dn, uint16_t dist, uint64_t work,
                  uint16_t flags, uint64_t dep)
{
    uint64_t b = key & t->mask;
    dfpn_entry_t *e = t->buckets[b].e, *victim = &e[0];
    lock(t, b);
    uint64_t least = UINT64_MAX;
    for (int i = 0; i < DFPN_BUCKET_WAYS; i++) {
        bool current = e[i].generation == t->generation;
        if (current && e[i].key == key) {
            victim = &e[i];
            work += e[i].work;
            break;
        }
        uint64_t w = current ? e[i].work : 0; /* an older entry is an empty one */
        if (w < least) {
            least = w;
            victim = &e[i];
        }
    }
    *victim = (dfpn_entry_t){.key = key, .pn = pn, .dn = dn, .dist = dist, .flags = flags, .dep = dep,
                             .generation = t->generation,
                             .work = work > UINT32_MAX - 1 ? UINT32_MAX - 1 : (uint32_t)work + (work == 0)};
    unlock(t, b);
}

void dfpn_table_store(dfpn_table_t *t, uint64_t key, uint32_t pn, uint32_t dn, uint16_t dist, uint64_t work)
{
    store(t, key, pn, dn, dist, work, 0, 0);
}

void dfpn_table_store_on_line(dfpn_table_t *t, uint64_t key, const uint64_t *deps, int n, uint64_t work)
{
    uint64_t second = n > 1 ? deps[1] : 0;
    store(t, key, (uint32_t)(second >> 32), (uint32_t)second, 0, work, DFPN_ON_LINE, deps[0]);
}

int dfpn_table_permille(const dfpn_table_t *t)
{
    uint64_t n = t->mask + 1, sample = n < 250 ? n : 250, used = 0;
    for (uint64_t i = 0; i < sample; i++)
        for (int k = 0; k < DFPN_BUCKET_WAYS; k++)
            used += t->buckets[i].e[k].generation == t->generation;
    return (int)(used * 1000 / (sample * DFPN_BUCKET_WAYS));
}
