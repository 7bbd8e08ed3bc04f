/*
 * smp_bench.c: Lazy SMP's time to depth (smp_bench.h). Reads the games'
 * books and drives the searcher through search.h alone: knows no game's
 * rules, only each family's book and a depth that takes one thread about
 * a second a position.
 *
 * Why per position and medians: with threads the trees differ from run
 * to run, and one position where a helper happens on the refutation early
 * (or late) swings a sum of ten by half; and this machine's speed drifts
 * (below). The median of the ten speed-ups is the figure the issue asks
 * for; the summed times are printed beside it, as the mean would be.
 */
#include "smp_bench.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/core/record.h"
#include "../../engine/core/timeman.h"
#include "../../engine/games/variants.h"
#include "../../engine/search/search.h"
#include "samples.h"

#define SMP_MAX_POSITIONS 64
#define SMP_MAX_REPEATS 15

/* One family's positions and depth. At these depths one thread takes
 * about a second on the median of the book's first ten positions (0.1 to
 * 10 s between them, at 64 MiB): long enough that starting the helpers
 * costs nothing, short enough for a bench of minutes. */
static const struct smp_game {
    const char *variant, *book;
    int depth;
} smp_games[] = {
    {"brandubh", "bench/books/brandubh-results.txt", 14},
    {"brax", "bench/books/brax-small-leads.txt", 16},
    {"bolix", "bench/books/bolix-balanced.txt", 10},
    {"jinxx", "bench/books/jinxx-balanced.txt", 8},
};

/* The first n positions of a book as records; how many were read, or -1
 * when the file cannot be opened or a line is not a position. */
static int read_book(const game_t *g, const char *path, record_t *out, int n)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "bench_denham smp: cannot open %s (run from the top of the tree)\n", path);
        return -1;
    }
    char line[4096], err[160];
    int got = 0;
    bool ok = true;
    while (ok && got < n && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (line[0] == 0 || line[0] == '#')
            continue;
        out[got] = (record_t){0};
        ok = record_setup(&out[got], g, line, err, sizeof err);
        if (!ok)
            fprintf(stderr, "bench_denham smp: %s: '%.60s': %s\n", path, line, err);
        got++;
    }
    fclose(f);
    if (!ok) {
        for (int i = 0; i < got; i++)
            record_free(&out[i]);
        return -1;
    }
    return got;
}

/* a / b, a time's ratio, with b kept from 0. */
static double ratio(double a, double b) { return a / (b > 0.01 ? b : 0.01); }

/* One search of the record's position to depth on a cleared table, with
 * the game's history as a match would give it: its wall time in ms. */
static double time_to_depth(searcher_t *s, const game_t *g, const record_t *r, int depth, search_result_t *res)
{
    uint64_t keys[1024];
    search_request_t req = {0};
    req.game = g;
    req.root = r->pos;
    req.history = keys;
    req.history_len = record_recent_keys(r, keys, (int)(sizeof keys / sizeof keys[0]));
    limits_init(&req.limits);
    req.limits.depth = depth;
    searcher_clear(s);
    search_reset_stop(s);
    int64_t t0 = timeman_now_us();
    *res = search_run(s, &req);
    return (double)(timeman_now_us() - t0) / 1000.0;
}

/* Position i searched `repeats` times with 1 thread and with `threads`,
 * alternately, so that the machine's drift (one thread's time to the same
 * nodes varied by half between runs minutes apart here) falls on both:
 * the median time of each into ms[0], ms[1]; the last results into res. */
static void time_position(searcher_t *s, const game_t *g, int depth, const record_t *r, int threads, int repeats,
                          double ms[2], search_result_t res[2])
{
    double t[2][SMP_MAX_REPEATS];
    uint64_t one_thread_nodes = 0;
    for (int rep = 0; rep < repeats; rep++)
        for (int k = 0; k < 2; k++) {
            searcher_set_threads(s, k ? threads : 1);
            t[k][rep] = time_to_depth(s, g, r, depth, &res[k]);
            if (k == 0 && rep > 0 && res[0].nodes != one_thread_nodes)
                printf("  (one thread searched %llu nodes, before %llu: not repeatable)\n",
                       (unsigned long long)res[0].nodes, (unsigned long long)one_thread_nodes);
            if (k == 0)
                one_thread_nodes = res[0].nodes;
        }
    for (int k = 0; k < 2; k++)
        ms[k] = samples_median(t[k], (size_t)repeats);
}

/* One family: prints a line per position and the summary; false when its
 * book cannot be read. */
static bool smp_game(searcher_t *s, const struct smp_game *sg, int threads, int positions, int repeats)
{
    const game_t *g = variants_find(sg->variant);
    record_t *recs = calloc((size_t)positions, sizeof *recs);
    int n = recs && g ? read_book(g, sg->book, recs, positions) : -1;
    if (n <= 0) {
        free(recs);
        return false;
    }
    game_prepare(g);
    double speedup[SMP_MAX_POSITIONS], sum[2] = {0, 0};
    uint64_t nodes_sum[2] = {0, 0};
    int from_helper = 0, same_move = 0;
    for (int i = 0; i < n; i++) {
        double ms[2];
        search_result_t res[2];
        time_position(s, g, sg->depth, &recs[i], threads, repeats, ms, res);
        for (int k = 0; k < 2; k++) {
            sum[k] += ms[k];
            nodes_sum[k] += res[k].nodes;
        }
        from_helper += res[1].from_helper;
        same_move += res[1].best == res[0].best;
        speedup[i] = ratio(ms[0], ms[1]);
        printf("  %s #%d depth %d: 1 thread %.0f ms, %d threads %.0f ms: %.2fx%s%s\n", sg->variant, i + 1, sg->depth,
               ms[0], threads, ms[1], speedup[i], res[1].from_helper ? " (a helper's line)" : "",
               res[1].best == res[0].best ? "" : " (another move)");
        fflush(stdout);
    }
    printf("smp %s depth %d, %d positions: median speed-up %.2fx (summed times %.0f / %.0f ms: %.2fx; nodes "
           "%.2fx; in the last run a helper's line in %d, another move than one thread's in %d)\n",
           sg->variant, sg->depth, n, samples_median(speedup, (size_t)n), sum[0], sum[1],
           ratio(sum[0], sum[1]), (double)nodes_sum[1] / (double)(nodes_sum[0] ? nodes_sum[0] : 1),
           from_helper, n - same_move);
    fflush(stdout);
    for (int i = 0; i < n; i++)
        record_free(&recs[i]);
    free(recs);
    return true;
}

/* Whether `family` (NULL: every one) names one of smp_games. */
static bool known_family(const char *family)
{
    for (size_t i = 0; family && i < sizeof smp_games / sizeof smp_games[0]; i++)
        if (strcmp(family, smp_games[i].variant) == 0)
            return true;
    return family == NULL;
}

int smp_bench(int threads, int hash_mb, int positions, int repeats, const char *family)
{
    if (threads < 2 || hash_mb < 1 || positions < 1 || positions > SMP_MAX_POSITIONS || repeats < 1 ||
        repeats > SMP_MAX_REPEATS || !known_family(family)) {
        fprintf(stderr,
                "bench_denham smp: THREADS from 2, HASH_MB from 1, POSITIONS 1-%d, REPEATS 1-%d, FAMILY brandubh, "
                "brax, bolix or jinxx\n",
                SMP_MAX_POSITIONS, SMP_MAX_REPEATS);
        return 2;
    }
    searcher_t *s = searcher_new((size_t)hash_mb);
    if (!s || !searcher_set_threads(s, threads)) {
        fprintf(stderr, "bench_denham smp: no searcher of %d MiB and %d threads\n", hash_mb, threads);
        if (s)
            searcher_free(s);
        return 1;
    }
    printf("Lazy SMP, time to depth: %d threads against 1, %d MiB table cleared before each search, median of %d "
           "runs a position\n",
           threads, hash_mb, repeats);
    int failed = 0;
    for (size_t i = 0; i < sizeof smp_games / sizeof smp_games[0]; i++)
        if (!family || strcmp(family, smp_games[i].variant) == 0)
            failed += !smp_game(s, &smp_games[i], threads, positions, repeats);
    searcher_free(s);
    return failed ? 1 : 0;
}
