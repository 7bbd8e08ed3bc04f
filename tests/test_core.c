/* test_core.c: the number reader, the transposition table, time
 * management and scores. */
#define _DEFAULT_SOURCE /* mincore, MAP_ANONYMOUS */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "../engine/core/number.h"
#include "../engine/core/timeman.h"
#include "../engine/core/tt.h"
#include "../engine/search/search.h"
#include "helpers.h"

/* The strict number reader: full range, no wrap, no cut, no sign or
 * blank it was not asked for. */
START_TEST(numbers_are_read_strictly)
{
    long long v = 7;
    ck_assert(number_parse("0", 0, 10, &v) && v == 0);
    ck_assert(number_parse("00012", 0, 100, &v) && v == 12);
    ck_assert(number_parse("-5", -10, 10, &v) && v == -5);
    ck_assert(number_parse("9223372036854775807", 0, INT64_MAX, &v) && v == INT64_MAX);
    ck_assert(number_parse("-9223372036854775808", INT64_MIN, 0, &v) && v == INT64_MIN);
    v = 7;
    static const char *const bad[] = {"", "-5", "+5", " 5", "5x", "4294967296", "11", "99999999999999999999999"};
    for (int i = 0; i < 8; i++)
        ck_assert_msg(!number_parse(bad[i], 0, 10, &v) && v == 7, "'%s' accepted", bad[i]);
    ck_assert(!number_parse("9223372036854775808", 0, INT64_MAX, &v));
    const char *s = "10b";
    ck_assert(number_read(&s, 1, 10, &v) && v == 10 && *s == 'b');
    s = "11b";
    ck_assert(!number_read(&s, 1, 10, &v) && *s == '1');
}
END_TEST

/* Issue 14, defect 7: clearing never writes over memory the table has not
 * used (an unused table keeps its pages), and a used one comes back empty. */
START_TEST(tt_clear_touches_only_what_was_used)
{
    tt_t tt = {0};
    ck_assert(tt_resize(&tt, 1));
    tt_bucket_t *before = tt.buckets;
    tt_clear(&tt);
    ck_assert_ptr_eq(tt.buckets, before); /* nothing to clear: not even reallocated */
    tt_store(&tt, 0x123456789abcdef0ull, 0, 77, 50, 3, TT_EXACT);
    tt_hit_t hit;
    ck_assert(tt_probe(&tt, 0x123456789abcdef0ull, 0, &hit));
    tt_clear(&tt);
    ck_assert(!tt_probe(&tt, 0x123456789abcdef0ull, 0, &hit));
    tt_free(&tt);
}
END_TEST

/* Whether every page of [p, p + bytes) is in memory. */
static bool resident(const void *p, size_t bytes)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), pages = (bytes + page - 1) / page;
    unsigned char *vec = malloc(pages);
    bool all = vec && mincore((void *)p, bytes, vec) == 0;
    for (size_t i = 0; all && i < pages; i++)
        all = vec[i] & 1;
    free(vec);
    return all;
}

/* Whether this kernel can fault pages in on request (Linux 5.14 on). */
static bool kernel_populates(void)
{
#ifdef MADV_POPULATE_WRITE
    void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    bool ok = p != MAP_FAILED && madvise(p, 4096, MADV_POPULATE_WRITE) == 0;
    if (p != MAP_FAILED)
        munmap(p, 4096);
    return ok;
#else
    return false;
#endif
}

/* Waits up to 2 s for the table's filler to bring all of it in. */
static bool filled(const tt_t *tt)
{
    struct timespec nap = {0, 10 * 1000 * 1000};
    for (int i = 0; i < 200 && !atomic_load(&tt->resident); i++)
        nanosleep(&nap, NULL);
    return atomic_load(&tt->resident);
}

/* A fresh table's pages are brought into memory by its filler thread,
 * where the kernel can, and a resident table is then cleared in place.
 * (Before, the first searches faulted them in under their clock: 512
 * nodes in 452 ms with 1 GiB.) */
START_TEST(tt_pages_are_in_memory_before_the_search)
{
    bool populates = kernel_populates();
    static const size_t sizes[2] = {8, 128}; /* cleared in place anyway; only once resident */
    for (int k = 0; k < 2; k++) {
        tt_t tt = {0};
        ck_assert(tt_resize(&tt, sizes[k]));
        size_t bytes = tt.count * sizeof *tt.buckets;
        ck_assert_int_eq(filled(&tt), populates);
        ck_assert_int_eq(resident(tt.buckets, bytes), populates);
        tt_store(&tt, 0x123456789abcdef0ull, 0, 77, 50, 3, TT_EXACT);
        tt_bucket_t *before = tt.buckets;
        tt_clear(&tt);
        ck_assert_int_eq(tt.buckets == before, k == 0 || populates); /* in place; else fresh pages */
        tt_hit_t hit;
        ck_assert(!tt_probe(&tt, 0x123456789abcdef0ull, 0, &hit));
        tt_free(&tt);
    }
}
END_TEST

/* While the filler brings in a table over 64 MiB, the searches use only
 * the part already in: a probe beyond misses and a store there is dropped,
 * so no search waits for a page (before: 512 nodes in 123 ms of a
 * `movetime 80` with 1 GiB). A smaller table is usable at once, so that a
 * search never depends on the filler's progress. */
START_TEST(tt_uses_only_what_is_in_memory)
{
    tt_t small = {0};
    ck_assert(tt_resize(&small, 8));
    ck_assert_uint_eq(atomic_load(&small.usable), small.count);
    tt_free(&small);

    tt_t tt = {0};
    ck_assert(tt_resize(&tt, 128));
    struct timespec nap = {0, 10 * 1000 * 1000};
    for (int i = 0; i < 200 && atomic_load(&tt.usable) < tt.count; i++) /* where the kernel cannot fill */
        nanosleep(&nap, NULL);
    ck_assert_uint_eq(atomic_load(&tt.usable), tt.count);
    /* The filler half way. */
    size_t half = tt.count / 2;
    atomic_store(&tt.usable, half);
    uint64_t in = 0xabc0000000000000ull | 5, out = 0xabc0000000000000ull | (half + 5);
    tt_store(&tt, in, 0, 77, 50, 3, TT_EXACT);
    tt_store(&tt, out, 0, 78, 60, 4, TT_EXACT);
    tt_hit_t hit;
    ck_assert(tt_probe(&tt, in, 0, &hit) && hit.move == 77);
    ck_assert(!tt_probe(&tt, out, 0, &hit));
    const unsigned char *bytes = (const unsigned char *)&tt.buckets[half + 5];
    for (size_t i = 0; i < sizeof(tt_bucket_t); i++)
        ck_assert_uint_eq(bytes[i], 0); /* not written */
    atomic_store(&tt.usable, tt.count);
    tt_store(&tt, out, 0, 78, 60, 4, TT_EXACT);
    ck_assert(tt_probe(&tt, out, 0, &hit) && hit.move == 78);
    tt_free(&tt);
}
END_TEST

START_TEST(tt_stores_and_probes)
{
    tt_t tt = {0};
    ck_assert(tt_resize(&tt, 1));
    tt_hit_t hit;
    uint64_t key = 0x123456789ABCDEF0ull;
    ck_assert(!tt_probe(&tt, key, 0, &hit));
    tt_store(&tt, key, 0, 77, 42, 5, TT_EXACT);
    ck_assert(tt_probe(&tt, key, 0, &hit));
    ck_assert_uint_eq(hit.move, 77);
    ck_assert_int_eq(hit.score, 42);
    ck_assert_int_eq(hit.depth, 5);
    ck_assert_int_eq(hit.bound, TT_EXACT);
    /* Another key in the same bucket does not answer for this one. */
    ck_assert(!tt_probe(&tt, key ^ (1ull << 40), 0, &hit));
    ck_assert_int_gt(tt_hashfull(&tt), -1);
    tt_clear(&tt);
    ck_assert(!tt_probe(&tt, key, 0, &hit));
    tt_free(&tt);
}
END_TEST

/* Issue 11: a shallow store of the same position must not replace a deep
 * result of the same search; exact results, nearly as deep ones and any
 * store over an older search's entry do. */
START_TEST(tt_keeps_the_deeper_entry_of_a_position)
{
    tt_t tt = {0};
    ck_assert(tt_resize(&tt, 1));
    tt_hit_t hit;
    uint64_t key = 0x0123456789ABCDEFull;
    tt_store(&tt, key, 0, 77, 42, 12, TT_EXACT);
    tt_store(&tt, key, 0, 88, -500, 0, TT_UPPER);
    ck_assert(tt_probe(&tt, key, 0, &hit));
    ck_assert_int_eq(hit.depth, 12);
    ck_assert_int_eq(hit.bound, TT_EXACT);
    ck_assert_int_eq(hit.score, 42);
    ck_assert_uint_eq(hit.move, 77);
    tt_store(&tt, key, 0, MOVE_NONE, 60, 9, TT_LOWER); /* within 3 plies: replaces, keeps the move */
    ck_assert(tt_probe(&tt, key, 0, &hit));
    ck_assert_int_eq(hit.depth, 9);
    ck_assert_int_eq(hit.score, 60);
    ck_assert_uint_eq(hit.move, 77);
    tt_store(&tt, key, 0, 99, 5, 1, TT_EXACT); /* exact: replaces */
    ck_assert(tt_probe(&tt, key, 0, &hit) && hit.depth == 1 && hit.move == 99);
    tt_store(&tt, key, 0, 77, 42, 12, TT_EXACT);
    tt_new_search(&tt);
    tt_store(&tt, key, 0, 88, -500, 0, TT_UPPER); /* an older search's entry yields */
    ck_assert(tt_probe(&tt, key, 0, &hit) && hit.depth == 0 && hit.bound == TT_UPPER);
    tt_free(&tt);
}
END_TEST

/* A win stored at ply 3 as "mate in 2 from here" reads back as the right
 * distance at ply 5. */
START_TEST(tt_win_scores_keep_their_distance)
{
    tt_t tt = {0};
    ck_assert(tt_resize(&tt, 1));
    tt_hit_t hit;
    tt_store(&tt, 99, 3, 1, SCORE_WIN - 5, 4, TT_LOWER);
    ck_assert(tt_probe(&tt, 99, 5, &hit));
    ck_assert_int_eq(hit.score, SCORE_WIN - 7);
    tt_store(&tt, 100, 3, 1, -(SCORE_WIN - 5), 4, TT_UPPER);
    ck_assert(tt_probe(&tt, 100, 1, &hit));
    ck_assert_int_eq(hit.score, -(SCORE_WIN - 3));
    tt_free(&tt);
}
END_TEST

START_TEST(mate_scores_in_moves)
{
    int m;
    ck_assert(search_score_is_mate(SCORE_WIN - 1, &m));
    ck_assert_int_eq(m, 1);
    ck_assert(search_score_is_mate(SCORE_WIN - 3, &m));
    ck_assert_int_eq(m, 2);
    ck_assert(search_score_is_mate(-(SCORE_WIN - 2), &m));
    ck_assert_int_eq(m, -1);
    ck_assert(!search_score_is_mate(250, &m));
}
END_TEST

START_TEST(time_budgets)
{
    search_limits_t l;
    limits_init(&l);
    time_budget_t b = timeman_budget(&l, 0, 30, 0);
    ck_assert_int_eq(b.soft_ms, -1); /* no clock: no limit */

    l.movetime = 1000;
    b = timeman_budget(&l, 0, 30, 0);
    ck_assert_int_eq(b.hard_ms, 970);
    ck_assert_int_eq(b.soft_ms, 970); /* a move time is used to the end (issue 11) */

    limits_init(&l);
    l.time[0] = 60000;
    l.time[1] = 5;
    b = timeman_budget(&l, 0, 30, 0);
    ck_assert_int_gt(b.soft_ms, 1000);
    ck_assert_int_le(b.soft_ms, b.hard_ms);
    ck_assert_int_le(b.hard_ms, 60000 / 5);
    /* The other player's clock is not ours. */
    b = timeman_budget(&l, 1, 30, 0);
    ck_assert_int_le(b.hard_ms, 5);

    /* Sudden death shares the clock over the game's number of moves, 30
     * by default: a 1+0.01 clock's first move gets 60% of
     * (1000 - 5 * 30) / moves + 7.5 ms. */
    limits_init(&l);
    l.time[0] = 1000;
    l.inc[0] = 10;
    b = timeman_budget(&l, 0, 30, 15);
    ck_assert_int_eq(b.soft_ms, (850 / 15 + 7) * 6 / 10);
    ck_assert_int_eq(b.hard_ms, 850 / 5 + 5);
    b = timeman_budget(&l, 0, 30, 0);
    ck_assert_int_eq(b.soft_ms, (850 / 30 + 7) * 6 / 10);
    ck_assert_int_eq(timeman_budget(&l, 0, 30, TIMEMAN_PLAN_MOVES).soft_ms, b.soft_ms);
    /* movestogo overrides the game's plan. */
    l.movestogo = 10;
    ck_assert_int_eq(timeman_budget(&l, 0, 30, 15).soft_ms, (850 / 10 + 7) * 6 / 10);

    limits_init(&l);
    l.time[0] = 10000;
    l.movestogo = 1;
    b = timeman_budget(&l, 0, 30, 0);
    ck_assert_int_lt(b.hard_ms, 10000);
    ck_assert_int_gt(b.hard_ms, 5000);

    l.infinite = true;
    ck_assert_int_eq(timeman_budget(&l, 0, 30, 0).hard_ms, -1);
}
END_TEST

Suite *suite_core(void)
{
    Suite *s = suite_create("core");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, numbers_are_read_strictly);
    tcase_add_test(tc, tt_stores_and_probes);
    tcase_add_test(tc, tt_keeps_the_deeper_entry_of_a_position);
    tcase_add_test(tc, tt_clear_touches_only_what_was_used);
    tcase_add_test(tc, tt_pages_are_in_memory_before_the_search);
    tcase_add_test(tc, tt_uses_only_what_is_in_memory);
    tcase_add_test(tc, tt_win_scores_keep_their_distance);
    tcase_add_test(tc, mate_scores_in_moves);
    tcase_add_test(tc, time_budgets);
    suite_add_tcase(s, tc);
    return s;
}
