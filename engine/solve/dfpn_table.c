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
    if (!t->buckets) {
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

/* An entry's words as read; the key is their XOR with the first word,
 * so that a torn read shows as another key. */
typedef struct words {
    uint64_t key, pn_dn, meta, dep;
} words_t;

static words_t read_entry(dfpn_entry_t *e)
{
    words_t w;
    uint64_t x = atomic_load_explicit(&e->w[0], memory_order_relaxed);
    w.pn_dn = atomic_load_explicit(&e->w[1], memory_order_relaxed);
    w.meta = atomic_load_explicit(&e->w[2], memory_order_relaxed);
    w.dep = atomic_load_explicit(&e->w[3], memory_order_relaxed);
    w.key = x ^ w.pn_dn ^ w.meta ^ w.dep;
    return w;
}

/* An entry of this solve: false when empty or of another generation. */
static bool live(const dfpn_table_t *t, const words_t *w)
{
    return w->key != 0 && (uint8_t)(w->meta >> 56) == t->generation;
}

static void write_entry(dfpn_entry_t *e, const words_t *w)
{
    atomic_store_explicit(&e->w[0], w->key ^ w->pn_dn ^ w->meta ^ w->dep, memory_order_relaxed);
    atomic_store_explicit(&e->w[1], w->pn_dn, memory_order_relaxed);
    atomic_store_explicit(&e->w[2], w->meta, memory_order_relaxed);
    atomic_store_explicit(&e->w[3], w->dep, memory_order_relaxed);
}

bool dfpn_table_probe(dfpn_table_t *t, uint64_t key, dfpn_hit_t *hit)
{
    dfpn_entry_t *e = t->buckets[key & t->mask].e;
    for (int i = 0; i < DFPN_BUCKET_WAYS; i++) {
        words_t w = read_entry(&e[i]);
        if (w.key != key || !live(t, &w))
            continue;
        uint32_t pn = (uint32_t)w.pn_dn, dn = (uint32_t)(w.pn_dn >> 32);
        uint16_t flags = (uint16_t)(w.meta >> 48 & 0xFF);
        *hit = (dfpn_hit_t){pn, dn, (uint16_t)(w.meta >> 32), flags, 0, {0, 0}};
        if (flags & DFPN_ON_LINE) {
            hit->dep[0] = w.dep;
            hit->dep[1] = w.pn_dn;
            hit->deps = hit->dep[1] ? 2 : 1;
            hit->pn = UINT32_MAX;
            hit->dn = 0;
        }
        return true;
    }
    return false;
}

static void store(dfpn_table_t *t, uint64_t key, uint64_t pn_dn, uint16_t dist, uint64_t work, uint16_t flags,
                  uint64_t dep)
{
    dfpn_entry_t *e = t->buckets[key & t->mask].e, *victim = &e[0];
    uint64_t least = UINT64_MAX;
    for (int i = 0; i < DFPN_BUCKET_WAYS; i++) {
        words_t w = read_entry(&e[i]);
        bool in_use = live(t, &w);
        if (in_use && w.key == key) {
            victim = &e[i];
            work += (uint32_t)w.meta;
            break;
        }
        uint64_t have = in_use ? (uint32_t)w.meta : 0; /* an older or torn entry is an empty one */
        if (have < least) {
            least = have;
            victim = &e[i];
        }
    }
    uint64_t w32 = work > UINT32_MAX - 1 ? UINT32_MAX - 1 : work + (work == 0);
    words_t w = {key, pn_dn, w32 | (uint64_t)dist << 32 | (uint64_t)(flags & 0xFF) << 48 |
                                 (uint64_t)t->generation << 56, dep};
    write_entry(victim, &w);
}

void dfpn_table_store(dfpn_table_t *t, uint64_t key, uint32_t pn, uint32_t dn, uint16_t dist, uint64_t work)
{
    store(t, key, pn | (uint64_t)dn << 32, dist, work, 0, 0);
}

void dfpn_table_store_on_line(dfpn_table_t *t, uint64_t key, const uint64_t *deps, int n, uint64_t work)
{
    store(t, key, n > 1 ? deps[1] : 0, 0, work, DFPN_ON_LINE, deps[0]);
}

int dfpn_table_permille(const dfpn_table_t *t)
{
    uint64_t n = t->mask + 1, sample = n < 250 ? n : 250, used = 0;
    for (uint64_t i = 0; i < sample; i++)
        for (int k = 0; k < DFPN_BUCKET_WAYS; k++) {
            words_t w = read_entry(&t->buckets[i].e[k]);
            used += live(t, &w);
        }
    return (int)(used * 1000 / (sample * DFPN_BUCKET_WAYS));
}
