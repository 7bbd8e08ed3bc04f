/*
 * bench_main.c: `make bench`. Checks the perft suite in bench/speed/perft.txt,
 * then measures, on one thread:
 *   - perft speed: start positions, perft 5, best of three runs;
 *   - search speed: the `bench` positions of each variant measured.
 *   - stop latency: search_stop() to the search's return, 100 deep searches
 *     per game (p50, p99, max);
 *   - a long game: a position command of 100,000 Brax moves, the time to
 *     apply it (record alone, and the whole protocol command) and the
 *     record's memory.
 * `bench_denham smp [THREADS [HASH_MB [POSITIONS [REPEATS [FAMILY]]]]]`
 * (not part of make bench: it needs idle cores, and about eight minutes):
 * time to depth with 1 and THREADS (default 2) threads on the first
 * POSITIONS (10) positions of each family's book (or FAMILY's alone), on a
 * HASH_MB (64) table, each the median of REPEATS (3) runs, and the median
 * speed-up (smp_bench.h); then the stop latency with THREADS threads.
 * `bench_denham brax-endings [VARIANT]` (about 2 s): two men against one
 * solved (brax_endings.h).
 * `bench_denham stop`: the stop latency alone, every game, and the worst.
 * `bench_denham hash`: the background fill of a 16 MiB, 1 GiB and 4 GiB
 * table, and ucinewgame's clear of the 4 GiB one once used.
 * `bench_denham first-stop [N]` (about N / 5 s): `stop` to `bestmove` in
 * the first search of a fresh ./denham, N engines, a Brax ending of two
 * men against one: without isready (the endings still being built) and
 * after it; and the time isready takes to build them.
 * `bench_denham wasm [ROUNDS]`: the WebAssembly build's speed in Node and
 * Chromium against native, its size, the static board's first board
 * (wasm_bench.h; after make wasm web-static).
 * `bench_denham solve-speed` and `bench_denham solve-smp [THREADS]`: the
 * solver's nodes per second beside the search's, and its threads
 * (solve_bench.h; minutes each, idle cores wanted).
 * Figures, not tests: nothing here fails on speed, only on wrong counts.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../engine/core/perft.h"
#include "../../engine/core/record.h"
#include "../../engine/core/timeman.h"
#include "../../engine/core/tt.h"
#include "../../engine/games/variants.h"
#include "../../engine/search/bench.h"
#include "../../protocol/common/engine_proc.h"
#include "../../protocol/ugi/protocol.h"
#include "brax_endings.h"
#include "smp_bench.h"
#include "solve_bench.h"
#include "../tools/long_game.h"
#include "web_bench.h"
#include "wasm_bench.h"
#include "web_board_bench.h"

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
        *--e = 0;
    return s;
}

/* Checks every line of the suite; returns the number of wrong counts. */
static int perft_suite(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "bench: cannot open %s\n", path);
        return 1;
    }
    char line[1024];
    int wrong = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *name = strtok(line, "|"), *fen = strtok(NULL, "|"), *counts = strtok(NULL, "|");
        if (!name || !fen || !counts) {
            fprintf(stderr, "bench: malformed suite line\n");
            wrong++;
            continue;
        }
        const game_t *g = variants_find(trim(name));
        position_t pos;
        char err[160];
        if (!g || !g->parse_fen(&pos, trim(fen), err, sizeof err)) {
            fprintf(stderr, "bench: bad variant or FEN in suite: %s\n", fen);
            wrong++;
            continue;
        }
        int depth = 1;
        for (char *c = strtok(counts, " \t\n"); c; c = strtok(NULL, " \t\n"), depth++) {
            unsigned long long want = strtoull(c, NULL, 10), got = perft(g, &pos, depth);
            printf("perft %-12s depth %d: %12llu %s\n", g->name, depth, got, got == want ? "ok" : "WRONG");
            if (got != want) {
                printf("  expected %llu for %s\n", want, fen);
                wrong++;
            }
        }
    }
    fclose(f);
    return wrong;
}

/* Perft that makes and unmakes every move, leaves included: the speed of
 * make/unmake itself, which bulk counting at the last ply skips. */
static uint64_t perft_made(const game_t *g, position_t *pos, int depth)
{
    if (depth == 0)
        return 1;
    move_t moves[MAX_MOVES];
    int weights[MAX_MOVES];
    /* A roll of the die is no ply (docs/rules/README.md). */
    int rolls = g->chance_outcomes ? g->chance_outcomes(pos, moves, weights) : 0;
    int n = rolls > 0 ? rolls : g->gen_moves(pos, moves);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        undo_t u;
        g->make(pos, moves[i], &u);
        total += perft_made(g, pos, rolls > 0 ? depth : depth - 1);
        g->unmake(pos, moves[i], &u);
    }
    return total;
}

static void perft_speed(const game_t *g, int depth, bool bulk)
{
    position_t pos;
    g->set_start(&pos);
    int64_t best = -1;
    uint64_t nodes = 0;
    for (int run = 0; run < 3; run++) {
        int64_t t0 = timeman_now_ms();
        nodes = bulk ? perft(g, &pos, depth) : perft_made(g, &pos, depth);
        int64_t t = timeman_now_ms() - t0;
        if (best < 0 || t < best)
            best = t;
    }
    printf("perft speed %s depth %d, %s: %llu leaves in %lld ms, %.1f M leaves/s (best of 3)\n", g->name,
           depth, bulk ? "bulk-counted last ply" : "every leaf made", (unsigned long long)nodes, (long long)best, (double)nodes / (double)(best > 0 ? best : 1) / 1000.0);
}

static void search_speed(const game_t *g, searcher_t *s)
{
    bench_result_t best = {0, 0, -1};
    for (int run = 0; run < 3; run++) {
        bench_result_t r;
        bench_options_t o = bench_options_default();
        if (!bench_run(g, s, 0, &o, NULL, NULL, &r))
            return;
        if (best.time_us < 0 || r.time_us < best.time_us)
            best = r;
    }
    int64_t t = best.time_us > 0 ? best.time_us : 1;
    printf("search bench %s depth %d: %llu nodes in %.1f ms, %.2f M nodes/s (best of 3)\n", g->name,
           g->bench_depth, (unsigned long long)best.nodes, (double)best.time_us / 1000.0,
           (double)best.nodes / (double)t);
}

/* ---- stop latency ---- */

typedef struct stop_run {
    searcher_t *s;
    search_request_t req;
    int64_t returned_us;
} stop_run_t;

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void *stop_search(void *arg)
{
    stop_run_t *r = arg;
    search_run(r->s, &r->req);
    r->returned_us = now_us();
    return NULL;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The worst p99 and the worst stop of the games measured so far. */
static double worst_p99_ms, worst_ms;
static const char *worst_p99_game, *worst_game;

/* The time from search_stop() to the search's return, over 100 deep
 * searches of the game's bench positions, each stopped after 5-35 ms. */
static void stop_latency(const game_t *g, searcher_t *s)
{
    enum { STOPS = 100 };
    int64_t lat[STOPS];
    int n_fens = 0;
    while (g->bench_fens[n_fens])
        n_fens++;
    for (int i = 0; i < STOPS; i++) {
        stop_run_t r = {s, {0}, 0};
        char err[160];
        if (!g->parse_fen(&r.req.root, g->bench_fens[i % n_fens], err, sizeof err))
            return;
        r.req.game = g;
        limits_init(&r.req.limits); /* no limit: only the stop ends it */
        search_reset_stop(s);
        pthread_t t;
        if (pthread_create(&t, NULL, stop_search, &r) != 0)
            return;
        struct timespec wait = {0, (5 + (i * 7) % 31) * 1000000L};
        nanosleep(&wait, NULL);
        int64_t asked = now_us();
        search_stop(s);
        pthread_join(t, NULL);
        lat[i] = r.returned_us - asked;
    }
    qsort(lat, STOPS, sizeof lat[0], cmp_i64);
    /* Nearest rank: p99 of 100 is the 99th smallest. */
    printf("stop latency %s: p50 %.2f ms, p99 %.2f ms, max %.2f ms (%d stops)\n", g->name, lat[STOPS / 2 - 1] / 1000.0,
           lat[STOPS * 99 / 100 - 1] / 1000.0, lat[STOPS - 1] / 1000.0, STOPS);
    double p99 = lat[STOPS * 99 / 100 - 1] / 1000.0, max = lat[STOPS - 1] / 1000.0;
    if (!worst_p99_game || p99 > worst_p99_ms) {
        worst_p99_ms = p99;
        worst_p99_game = g->name;
    }
    if (!worst_game || max > worst_ms) {
        worst_ms = max;
        worst_game = g->name;
    }
}

static void stop_summary(void)
{
    printf("stop latency, every game: p99 at most %.2f ms (%s), worst %.2f ms (%s)\n", worst_p99_ms, worst_p99_game,
           worst_ms, worst_game);
}

/* The filler of a fresh table: the time until every page is in memory;
 * then ucinewgame's clear of the largest, once written. */
static void hash_fill(void)
{
    static const size_t sizes[] = {16, 1024, 4096};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        tt_t tt;
        memset(&tt, 0, sizeof tt);
        int64_t t0 = now_us();
        if (!tt_resize(&tt, sizes[i])) {
            printf("hash %zu MiB: cannot be had\n", sizes[i]);
            continue;
        }
        while (!atomic_load(&tt.resident) && now_us() - t0 < 60 * 1000000LL) {
            struct timespec ms = {0, 1000 * 1000};
            nanosleep(&ms, NULL);
        }
        int64_t filled = now_us() - t0;
        printf("hash %zu MiB: in memory after %.1f ms%s\n", sizes[i], filled / 1000.0,
               atomic_load(&tt.resident) ? "" : " (not all: over half the machine's memory?)");
        if (i + 1 == sizeof sizes / sizeof sizes[0]) {
            tt_store(&tt, 1, 0, MOVE_NONE, 0, 1, 0);
            t0 = now_us();
            tt_clear(&tt);
            printf("hash %zu MiB: cleared (ucinewgame) in %.1f ms\n", sizes[i], (now_us() - t0) / 1000.0);
        }
        tt_free(&tt);
    }
}

/* ---- the first search of a fresh engine (issue 62) ---- */

/* One fresh ./denham: `go infinite` on two men against one, `stop` 5 ms
 * later; the time from `stop` to `bestmove` (us), whether the answer said
 * it was unsearched, and (with isready first) isready's time. */
static bool first_stop(bool isready, int64_t *latency, bool *unsearched, int64_t *ready_us)
{
    eproc_t e;
    char line[EPROC_LINE_MAX];
    if (!eproc_start(&e, "./denham", NULL))
        return false;
    int64_t deadline = timeman_now_ms() + 30000;
    bool ok = eproc_send(&e, "position fen 9/9/9/9/9/9/9/9/b1r4r1 r - 0");
    if (ok && isready) {
        int64_t t0 = now_us();
        ok = eproc_send(&e, "isready") && eproc_wait_for(&e, "readyok", line, sizeof line, deadline) == EPROC_LINE;
        *ready_us = now_us() - t0;
    }
    ok = ok && eproc_send(&e, "go infinite");
    struct timespec wait = {0, 5 * 1000000L};
    nanosleep(&wait, NULL);
    int64_t asked = now_us();
    ok = ok && eproc_send(&e, "stop");
    *unsearched = false;
    while (ok && eproc_read_line(&e, line, sizeof line, deadline) == EPROC_LINE) {
        if (strncmp(line, "info string the solved endings were still being built", 53) == 0)
            *unsearched = true;
        if (strncmp(line, "bestmove ", 9) == 0)
            break;
    }
    *latency = now_us() - asked;
    eproc_stop(&e, 2000);
    eproc_destroy(&e);
    return ok;
}

static void first_stops(int n)
{
    int64_t *lat = calloc((size_t)n, sizeof *lat), ready_total = 0;
    if (!lat || n < 1)
        return;
    for (int isready = 0; isready < 2; isready++) {
        int unsearched = 0;
        for (int i = 0; i < n; i++) {
            bool u = false;
            int64_t ready = 0;
            if (!first_stop(isready, &lat[i], &u, &ready)) {
                printf("first-stop: ./denham did not answer\n");
                free(lat);
                return;
            }
            unsearched += u;
            ready_total += ready;
        }
        qsort(lat, (size_t)n, sizeof lat[0], cmp_i64);
        printf("first search of a fresh engine, %s: stop to bestmove p50 %.2f ms, max %.2f ms (%d engines, %d "
               "answered unsearched)\n",
               isready ? "after isready" : "no isready", lat[(n - 1) / 2] / 1000.0, lat[n - 1] / 1000.0, n,
               unsearched);
    }
    printf("isready building the endings: mean %.1f ms (%d engines)\n", (double)ready_total / n / 1000.0, n);
    free(lat);
}

/* Runs the protocol on input; the time in microseconds. */
static int64_t protocol_time(const char *input, bool *goes_on)
{
    char *output = NULL;
    size_t out_len = 0;
    FILE *in = fmemopen((void *)input, strlen(input), "r"), *out = open_memstream(&output, &out_len);
    int64_t t0 = now_us();
    protocol_run(in, out);
    int64_t t1 = now_us();
    fclose(in);
    fclose(out);
    *goes_on = strstr(output, "response false") && !strstr(output, "error");
    free(output);
    return t1 - t0;
}

static void long_game(void)
{
    enum { PLIES = 100000, NEXT = 100 };
    const game_t *g = variants_find("brax");
    char final_fen[GAME_FEN_MAX];
    char *text = long_game_text(g, "9/9/9/9/4b4/9/9/9/r7r r - 0", PLIES + NEXT, 1, final_fen, sizeof final_fen);
    if (!text) {
        printf("long game: no game of %d plies found\n", PLIES);
        return;
    }
    /* ends[k]: where the text of the first PLIES + k moves ends. */
    size_t full = strlen(text), ends[NEXT + 1];
    char *p = text + full;
    for (int k = NEXT; k >= 0; k--) {
        ends[k] = (size_t)(p - text);
        while (k > 0 && *--p != ' ')
            ;
    }
    text[ends[0]] = 0;
    static record_t r;
    char err[300];
    int64_t t0 = now_us();
    bool ok = record_setup(&r, g, text, err, sizeof err);
    int64_t t1 = now_us();
    size_t bytes = (size_t)r.capacity * (sizeof *r.moves + sizeof *r.hashes) + (size_t)r.rep_size * sizeof *r.rep;
    text[ends[0]] = ' ';
    /* A runner's next command repeats the game and adds a move: NEXT of them. */
    size_t len = (size_t)(NEXT + 1) * (full + 30) + 100, n = 0;
    char *input = malloc(len);
    n += (size_t)snprintf(input, len, "setoption name UCI_Variant value brax\n");
    bool first_ok, all_ok;
    for (int k = 0; k <= NEXT; k++) {
        n += (size_t)snprintf(input + n, len - n, "position %.*s\nquery gameover\n", (int)ends[k], text);
        if (k == 0) {
            int64_t one = protocol_time(input, &first_ok);
            printf("long game: %d plies (%zu characters): record set up in %.1f ms (%s), %.1f MiB; position "
                   "command %.1f ms",
                   PLIES, ends[0], (double)(t1 - t0) / 1e3, ok ? "ok" : err, (double)bytes / (1 << 20),
                   (double)one / 1e3);
        }
    }
    int64_t all = protocol_time(input, &all_ok);
    /* The first command again, to subtract it. */
    input[strlen("setoption name UCI_Variant value brax\n") + strlen("position \nquery gameover\n") + ends[0]] = 0;
    int64_t one = protocol_time(input, &first_ok);
    printf(", each next ply's command %.2f ms (%s)\n", (double)(all - one) / NEXT / 1e3,
           first_ok && all_ok ? "game goes on" : "WRONG ANSWER");
    record_free(&r);
    free(input);
    free(text);
}

/* Lazy SMP: time to depth with 1 and n threads (smp_bench.h), then the
 * stop latency with n threads. */
static int smp(int n, int hash_mb, int positions, int repeats, const char *family)
{
    int status = smp_bench(n, hash_mb, positions, repeats, family);
    if (status == 2) /* an argument out of range */
        return status;
    searcher_t *s = searcher_new(64);
    if (!s || !searcher_set_threads(s, n))
        return 1;
    static const char *const games[] = {"brandubh", "brax", "bolix", "jinxx"};
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++)
        stop_latency(variants_find(games[i]), s);
    stop_summary();
    searcher_free(s);
    return status;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "smp") == 0) {
        return smp(argc > 2 ? atoi(argv[2]) : 2, argc > 3 ? atoi(argv[3]) : 64, argc > 4 ? atoi(argv[4]) : 10,
                   argc > 5 ? atoi(argv[5]) : 3, argc > 6 ? argv[6] : NULL);
    }
    if (argc > 1 && strcmp(argv[1], "solve-speed") == 0)
        return solve_bench_speed();
    if (argc > 1 && strcmp(argv[1], "solve-smp") == 0)
        return solve_bench_smp(argc > 2 ? atoi(argv[2]) : 2);
    if (argc > 1 && strcmp(argv[1], "brax-endings") == 0) {
        const char *name = argc > 2 ? argv[2] : "brax";
        const game_t *g = variants_find(name);
        if (!g || strncmp(name, "brax", 4) != 0 || g->players != 2) {
            fprintf(stderr, "bench_denham brax-endings: '%s' is not a two-player Brax variant\n", name);
            return 2;
        }
        return brax_endings(g, stdout);
    }
    if (argc > 1 && strcmp(argv[1], "web") == 0) /* denham serve's figures */
        return web_bench(argc > 2 ? atoi(argv[2]) : 60, argc > 3 ? atoi(argv[3]) : 200);
    if (argc > 1 && strcmp(argv[1], "web-board") == 0) /* the board's click-to-drawn figures */
        return web_board_bench(argc > 2 ? atoi(argv[2]) : 20);
    if (argc > 1 && strcmp(argv[1], "web-hostile") == 0) /* the hostile patterns, one table */
        return web_hostile(argc > 2 ? atoi(argv[2]) : 12, argc > 3 ? argv[3] : NULL);
    if (argc > 1 && strcmp(argv[1], "stop") == 0) {
        searcher_t *s = searcher_new(16);
        for (int i = 0; s && variants_at(i); i++)
            stop_latency(variants_at(i), s);
        stop_summary();
        searcher_free(s);
        return s ? 0 : 1;
    }
    if (argc > 1 && strcmp(argv[1], "hash") == 0) {
        hash_fill();
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "first-stop") == 0) {
        first_stops(argc > 2 ? atoi(argv[2]) : 20);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "wasm") == 0) /* the WebAssembly build's figures */
        return wasm_bench(argc > 2 ? atoi(argv[2]) : 3);
    if (argc > 1 && strcmp(argv[1], "long-game") == 0) { /* that figure alone */
        long_game();
        return 0;
    }
    int wrong = perft_suite(argc > 1 ? argv[1] : "bench/speed/perft.txt");
    if (wrong) {
        printf("%d perft counts are wrong\n", wrong);
        return 1;
    }
    searcher_t *s = searcher_new(16);
    if (!s)
        return 1;
    /* Depths at which each perft takes a second or more. */
    const char *games[] = {"brandubh", "brandubh-v2", "brax",  "brax-easy", "brax-3p",
                           "brax-4p",  "bolix",       "jinxx", "jinxx-3p",  "jinxx-4p"};
    const int depths[] = {5, 5, 6, 6, 6, 7, 4, 5, 5, 5};
    enum { GAMES = sizeof games / sizeof games[0] };
    for (int i = 0; i < GAMES; i++) {
        perft_speed(variants_find(games[i]), depths[i], true);
        perft_speed(variants_find(games[i]), depths[i], false);
    }
    for (int i = 0; i < GAMES; i++)
        search_speed(variants_find(games[i]), s);
    for (int i = 0; i < GAMES; i++)
        stop_latency(variants_find(games[i]), s);
    stop_summary();
    searcher_free(s);
    long_game();
    return 0;
}
