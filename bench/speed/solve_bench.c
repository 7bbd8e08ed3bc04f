/*
 * solve_bench.c: the solver's figures (solve_bench.h).
 *
 * Speed: in each two-player game, the search on its `bench` positions two
 * plies deeper than `denham bench` (so that each takes long enough to
 * time), and df-pn on the same positions (both sides, a fixed budget
 * each), on one thread, each on a cleared table, the clearing untimed
 * (df-pn's table also brought into memory first); nodes per second of
 * processor time, and of wall time. A
 * search node is a position the search enters, a df-pn node a position it
 * makes while expanding a node (each time it expands it).
 *
 * Threads: positions that take one thread from milliseconds to tens of
 * seconds (the losing moves of bench/suites/brandubh-v2-defence.txt, a
 * suite line), solved with 1 and N threads, each on a fresh table, in
 * rounds by nodes as `denham solve` runs them: wall time, the busiest
 * thread's processor time (what the solve takes with a core per thread),
 * nodes; then the median of the speed-ups.
 * Reaches the solver through solve.h, the search through bench.h.
 */
#define _POSIX_C_SOURCE 200809L
#include "solve_bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../engine/core/record.h"
#include "../../engine/core/timeman.h"
#include "../../engine/games/variants.h"
#include "../../engine/search/search.h"
#include "../../engine/solve/solve.h"
#include "samples.h"

#define SPEED_NODES 2000000
#define TABLE_MB 512

static int64_t cpu_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (int64_t)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

int solve_bench_speed(void)
{
    static const char *const games[] = {"brandubh", "brandubh-v2", "bolix", "brax", "brax-easy"};
    searcher_t *search = searcher_new(64);
    solver_t *s = solver_new(TABLE_MB);
    if (!search || !s)
        return 1;
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        const game_t *g = variants_find(games[i]);
        /* The search: as `bench` searches (go's options), two plies deeper
         * than the game's bench depth, each position on a cleared table,
         * the clearing untimed. */
        uint64_t search_nodes = 0;
        int64_t search_cpu = 0, search_wall = 0;
        for (int k = 0; g->bench_fens[k]; k++) {
            search_request_t req = {.game = g, .multiplayer = SEARCH_MULTIPLAYER_DEFAULT,
                                    .chance_pruning = SEARCH_CHANCE_DEFAULT};
            char err[128];
            if (!g->parse_fen(&req.root, g->bench_fens[k], err, sizeof err))
                return 1;
            limits_init(&req.limits);
            req.limits.depth = g->bench_depth + 2;
            searcher_clear(search);
            search_reset_stop(search);
            int64_t c0 = cpu_us(), w0 = timeman_now_us();
            search_result_t r = search_run(search, &req);
            search_cpu += cpu_us() - c0;
            search_wall += timeman_now_us() - w0;
            search_nodes += r.nodes;
        }
        int64_t c0, w0;
        uint64_t nodes = 0;
        int64_t solve_cpu = 0, solve_wall = 0;
        for (int k = 0; g->bench_fens[k]; k++) {
            solve_request_t req = {.game = g, .nodes = SPEED_NODES};
            char err[128];
            if (!g->parse_fen(&req.root, g->bench_fens[k], err, sizeof err))
                return 1;
            solver_clear(s);
            solver_prefault(s);
            c0 = cpu_us();
            w0 = timeman_now_us();
            solve_both_t b = solve_both(s, &req);
            solve_cpu += cpu_us() - c0;
            solve_wall += timeman_now_us() - w0;
            nodes += b.nodes;
        }
        double sn = (double)search_nodes * 1e6 / (double)(search_cpu > 0 ? search_cpu : 1);
        double dn = (double)nodes * 1e6 / (double)(solve_cpu > 0 ? solve_cpu : 1);
        printf("%-12s search %10llu nodes %8.0f knps cpu (%8.0f wall) | df-pn %10llu nodes %8.0f knps cpu "
               "(%8.0f wall) | df-pn/search %.2f\n",
               g->name, (unsigned long long)search_nodes, sn / 1000,
               (double)search_nodes * 1e3 / (double)(search_wall > 0 ? search_wall : 1), (unsigned long long)nodes,
               dn / 1000, (double)nodes * 1e3 / (double)(solve_wall > 0 ? solve_wall : 1), dn / sn);
        fflush(stdout);
    }
    solver_free(s);
    searcher_free(search);
    return 0;
}

/* bench/suites/brandubh-v2-defence.txt's second game before ply 19. */
#define PLY19                                                                                                  \
    "startpos moves a4a5 c4c1 d6b6 d5b5 b4b3 b5g5 b6g6 e4e1 d2d1 d3f3 g4g3 d4d5 g3g5 d5c5 b3b2 e1e2 g6c6 "    \
    "c5c3"

int solve_bench_smp(int threads)
{
    static const struct {
        const char *variant, *position;
    } cases[] = {
        {"brandubh-v2", "startpos moves f4f3 d5b5 f3f7 d3a3 d6b6"},
        {"brandubh-v2", "startpos moves f4f3 d5b5 f3f7 d3a3 g4g3"},
        {"brandubh-v2", "startpos moves f4f3 d5b5 f3f7 d3a3 g4g5"},
        {"brandubh-v2", "startpos moves f4f3 d5b5 f3f7 d3a3 g4g6"},
        {"brandubh-v2", "startpos moves f4f3 d5b5 f3f7 d3a3 d6b6 e4e7 d7d5"},
        {"brandubh", "fen 3aa2/6a/1a3a1/1a3d1/d6/d3d2/1a1ka2 d"},
        {"brandubh-v2", PLY19 " c6d6"},
        {"brandubh-v2", PLY19 " c6g6"},
        {"brandubh-v2", PLY19 " b2d2"},
        {"brandubh-v2", PLY19 " a5a3 f3f2 d7d3"},
        {"brandubh-v2", PLY19 " a5a3 f3f2 d1d3"},
    };
    solver_t *s = solver_new(TABLE_MB);
    static record_t r;
    enum { N_CASES = sizeof cases / sizeof cases[0] };
    double wall_up[N_CASES], busy_up[N_CASES];
    if (!s)
        return 1;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const game_t *g = variants_find(cases[i].variant);
        char err[256];
        if (!record_setup(&r, g, cases[i].position, err, sizeof err))
            return 1;
        static uint64_t hist[SOLVE_HISTORY_MAX];
        /* Rounds by nodes, as `denham solve` runs without --seconds: one
         * thread's search is the same each run. */
        solve_request_t req = {.game = g, .root = r.pos, .history = hist, .nodes = 2000000000};
        req.history_len = record_recent_keys(&r, hist, SOLVE_HISTORY_MAX);
        req.side = 1; /* the defenders win every case */
        req.one_side = true;
        int64_t wall[2], cpu_max[2];
        uint64_t nodes[2];
        int verdict[2];
        for (int k = 0; k < 2; k++) {
            solver_set_threads(s, k ? threads : 1);
            solver_clear(s);
            solver_prefault(s);
            int64_t w0 = timeman_now_ms();
            solve_both_t b = solve_both(s, &req);
            wall[k] = timeman_now_ms() - w0;
            cpu_max[k] = b.cpu_us_max / 1000;
            nodes[k] = b.nodes;
            verdict[k] = b.verdict;
        }
        wall_up[i] = (double)wall[0] / (double)(wall[1] ? wall[1] : 1);
        busy_up[i] = (double)cpu_max[0] / (double)(cpu_max[1] ? cpu_max[1] : 1);
        printf("%s %s: 1 thread %lld ms (busiest %lld ms, %llu nodes), %d threads %lld ms (busiest %lld ms, %llu "
               "nodes): %.2fx wall, %.2fx busiest%s\n",
               cases[i].variant, cases[i].position, (long long)wall[0], (long long)cpu_max[0],
               (unsigned long long)nodes[0], threads, (long long)wall[1], (long long)cpu_max[1],
               (unsigned long long)nodes[1], wall_up[i], busy_up[i],
               verdict[0] == VERDICT_WIN && verdict[1] == VERDICT_WIN ? "" : " (not both solved)");
        fflush(stdout);
    }
    printf("median of %d positions: %.2fx wall, %.2fx busiest\n", (int)N_CASES, samples_median(wall_up, N_CASES),
           samples_median(busy_up, N_CASES));
    record_free(&r);
    solver_free(s);
    return 0;
}
