/*
 * wasm_bench.c: the WebAssembly build's figures (./build/bench_denham wasm
 * [ROUNDS]; README, "Play without installing"), after make wasm
 * web-static (ROUNDS 0: the module's size and the first board only):
 *   - search speed: the nodes per second of `bench` (after a warm-up search
 *     of 500 ms in the same engine, so that the compilers have tiered up)
 *     in Brax, Brandubh, Bolix and Jinxx (each at a depth taking a second
 *     or two natively), of the native ./denham, of
 *     `node build/wasm/denham.mjs`, and of the static board's worker in
 *     headless Chromium without shared memory (served by python3 -m
 *     http.server, which sends no headers: the search unwinds between
 *     slices) and with it (served by bench/tools/isolating_server.py, which
 *     sends those of cross-origin isolation, as a host set up for it does);
 *     the four measured in turn, game by game,
 *     ROUNDS times (default 3), the best of each, with its ratio to
 *     native: on a shared machine the ratios of one alternating run hold
 *     where the speeds do not;
 *   - the module's size, and gzipped (gzip -9);
 *   - the first board after opening the static page (the page's own
 *     figure, document.body.dataset.drawnMs: navigation to the first frame
 *     that shows a board), over loopback on a first visit (a new browser
 *     profile each time) and from the service worker's cache with the
 *     server stopped: median of five, and the slowest; then from the cache
 *     of a host that sends the isolation headers (the page kept isolated:
 *     shared memory offline too).
 * The load average is printed before and after. Figures, not tests.
 */
#define _GNU_SOURCE
#include "wasm_bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../engine/core/timeman.h"
#include "../../protocol/common/engine_proc.h"
#include "../tools/cdp.h"
#include "../tools/http_client.h"
#include "samples.h"

#define WAIT_MS 120000
#define STATIC_DIR "build/web-static"

/* Each game's bench at a depth that takes a second or two natively (its
 * own bench depth is over in 20-300 ms: too short for a timer on a
 * shared machine). */
static const char *const games[] = {"brax", "brandubh", "bolix", "jinxx"};
static const int depths[] = {11, 11, 10, 7};
enum { GAMES = sizeof games / sizeof games[0], RUNNERS = 4, SAMPLES = 5 };
static const char *const runner_names[RUNNERS] = {"native", "node", "chromium, no shared memory",
                                                   "chromium, shared memory"};

static void print_load(const char *when)
{
    char load[128] = "?";
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fgets(load, sizeof load, f))
            load[strcspn(load, "\n")] = 0;
        fclose(f);
    }
    printf("wasm: load average %s: %s\n", when, load);
}

/* The number after "Nodes/second    : " in line, or 0. */
static double nps_of(const char *line)
{
    const char *at = line ? strstr(line, "Nodes/second") : NULL;
    at = at ? strchr(at, ':') : NULL;
    return at ? atof(at + 1) : 0;
}

/* bench in game at depth, after a warm-up search, in an engine process
 * (cmd). */
static double process_nps(const char *cmd, const char *game, int depth)
{
    eproc_t e;
    if (!eproc_start(&e, cmd, NULL))
        return 0;
    char line[EPROC_LINE_MAX], set[128], bench[32];
    snprintf(set, sizeof set, "setoption name UCI_Variant value %s", game);
    snprintf(bench, sizeof bench, "bench %d", depth);
    double nps = 0;
    int64_t deadline = timeman_now_ms() + WAIT_MS;
    if (eproc_send(&e, set) && eproc_send(&e, "go movetime 500") &&
        eproc_wait_for(&e, "bestmove", line, sizeof line, deadline) == EPROC_LINE && eproc_send(&e, bench) &&
        eproc_wait_for(&e, "Nodes/second", line, sizeof line, deadline) == EPROC_LINE)
        nps = nps_of(line);
    eproc_stop(&e, 2000);
    eproc_destroy(&e);
    return nps;
}

/* The same through the page's engine session (its worker). */
static double page_nps(cdp_t *c, const char *game, int depth)
{
    char expr[600];
    snprintf(expr, sizeof expr,
             "(async () => { await denham.busy; const s = denham.session; "
             "await s.send('setoption name UCI_Variant value %s'); await s.ask('go movetime 500', 'bestmove', %d); "
             "return s.ask('bench %d', 'Nodes/second', %d); })()",
             game, WAIT_MS, depth, WAIT_MS);
    char *v = cdp_eval(c, expr, WAIT_MS + 10000);
    double nps = nps_of(v);
    free(v);
    return nps;
}

static bool page_up(cdp_t *c, const char *url)
{
    return cdp_navigate(c, "about:blank") && cdp_navigate(c, url) &&
           cdp_wait(c, "document.body.dataset.ready === 'true'", WAIT_MS);
}

/* The page's mode: "false false" without shared memory, "true true" with. */
static bool page_mode(cdp_t *c, const char *want)
{
    return strcmp(cdp_text(c, "String(crossOriginIsolated) + ' ' + denham.session.transport.shared"), want) == 0;
}

/* url: the folder served with no headers; isolated_url: with those of
 * cross-origin isolation. */
static void speed(int rounds, const char *url, const char *isolated_url)
{
    double best[GAMES][RUNNERS] = {{0}};
    cdp_t plain, shared;
    /* Two browsers, one for each server. */
    if (!cdp_start(&plain, 1280, 800) || !cdp_start(&shared, 1280, 800)) {
        printf("wasm: Chromium did not start\n");
        return;
    }
    bool ok = page_up(&shared, isolated_url) && page_mode(&shared, "true true") && page_up(&plain, url) &&
              page_mode(&plain, "false false");
    if (!ok) {
        printf("wasm: the static page did not come up in both modes\n");
        cdp_stop(&plain);
        cdp_stop(&shared);
        return;
    }
    for (int round = 0; round < rounds; round++)
        for (int g = 0; g < GAMES; g++) {
            double got[RUNNERS];
            got[0] = process_nps("./denham", games[g], depths[g]);
            got[1] = process_nps("node build/wasm/denham.mjs", games[g], depths[g]);
            got[2] = page_up(&plain, url) && page_mode(&plain, "false false") ? page_nps(&plain, games[g], depths[g]) : 0;
            got[3] = page_up(&shared, isolated_url) && page_mode(&shared, "true true")
                         ? page_nps(&shared, games[g], depths[g])
                         : 0;
            for (int r = 0; r < RUNNERS; r++)
                if (got[r] > best[g][r])
                    best[g][r] = got[r];
        }
    cdp_stop(&plain);
    cdp_stop(&shared);
    for (int g = 0; g < GAMES; g++) {
        printf("wasm bench %-8s %2d:", games[g], depths[g]);
        for (int r = 0; r < RUNNERS; r++) {
            printf("%s %s %.2f M nps", r ? "," : "", runner_names[r], best[g][r] / 1e6);
            if (r)
                printf(" (%.0f%%)", best[g][0] > 0 ? 100.0 * best[g][r] / best[g][0] : 0.0);
        }
        printf("\n");
    }
    printf("wasm bench: the best of %d rounds, the four measured in turn; %% of native\n", rounds);
}

static void module_size(void)
{
    struct stat st;
    if (stat("build/wasm/denham.wasm", &st) != 0) {
        printf("wasm: no build/wasm/denham.wasm (make wasm)\n");
        return;
    }
    FILE *p = popen("gzip -9c build/wasm/denham.wasm | wc -c", "r");
    long gz = 0;
    if (p) {
        if (fscanf(p, "%ld", &gz) != 1)
            gz = 0;
        pclose(p);
    }
    printf("wasm module: build/wasm/denham.wasm %lld bytes, %ld gzipped (gzip -9)\n", (long long)st.st_size, gz);
}

static void print_samples(const char *what, double *v, int n, char laps[][64])
{
    printf("wasm first board %s, each visit as drawn (page received/its scripts run/module compiled/engine up/board takes moves) ms:", what);
    for (int i = 0; i < n; i++)
        printf(" %.0f (%s)", v[i], laps[i]);
    double mid = samples_median(v, (size_t)n);
    printf("; median %.0f ms, slowest %.0f ms\n", mid, n ? v[n - 1] : -1.0);
}

/* The page's figure for the visit just made (ms), or -1; where the time
 * went in *laps (the module compiled, the engine up: the transport's
 * performance marks). */
static double drawn_ms(cdp_t *c, char *laps, size_t cap)
{
    if (!cdp_wait(c, "document.body.dataset.ready === 'true' && !!document.body.dataset.drawnMs", WAIT_MS))
        return -1;
    snprintf(laps, cap, "%s", cdp_text(c, "[Math.round(performance.getEntriesByType('navigation')[0].responseEnd), "
                                          "Math.round(performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd), "
                                          "...['denham-module', 'denham-engine', 'denham-ready'].map((m) => { const e = "
                                          "performance.getEntriesByName(m)[0]; return e ? Math.round(e.startTime) : "
                                          "'-'; })].join('/')"));
    return atof(cdp_text(c, "document.body.dataset.drawnMs"));
}

/* The first board of first visits (when first_visits) and from the cache
 * once the server (at url, its page's mode want) is stopped; host names
 * the server in what is printed. */
static void first_board(served_t *server, const char *url, const char *want, const char *host, bool first_visits)
{
    double loopback[SAMPLES], cached[SAMPLES], cold[SAMPLES];
    char laps[SAMPLES][64], cached_laps[SAMPLES][64], cold_laps[SAMPLES][64], what[160];
    int n = 0, m = 0, k = 0;
    cdp_t c;
    for (int i = 0; first_visits && i < SAMPLES; i++) { /* a new profile: nothing kept from before */
        if (!cdp_start(&c, 1280, 800))
            break;
        if (cdp_navigate(&c, url) && (loopback[n] = drawn_ms(&c, laps[n], sizeof laps[n])) >= 0)
            n++;
        cdp_stop(&c);
    }
    if (first_visits)
        print_samples("over loopback, a first visit", loopback, n, laps);
    if (!cdp_start(&c, 1280, 800))
        return;
    if (page_up(&c, url) && cdp_wait(&c, "navigator.serviceWorker.ready.then(() => true)", WAIT_MS) &&
        page_up(&c, url) && page_mode(&c, want)) {
        served_stop(server);
        for (int i = 0; i < SAMPLES; i++)
            if (cdp_navigate(&c, "about:blank") && cdp_navigate(&c, url) && (cached[m] = drawn_ms(&c, cached_laps[m], sizeof cached_laps[m])) >= 0)
                m++;
        /* As a person opens the app after a while: the service worker
         * stopped (Chromium stops one idle for 30 s), so it starts first. */
        free(cdp_call(&c, true, "ServiceWorker.enable", NULL, 10000));
        for (int i = 0; i < SAMPLES; i++) {
            if (!cdp_navigate(&c, "about:blank"))
                break;
            free(cdp_call(&c, true, "ServiceWorker.stopAllWorkers", NULL, 10000));
            if (cdp_navigate(&c, url) && (cold[k] = drawn_ms(&c, cold_laps[k], sizeof cold_laps[k])) >= 0)
                k++;
        }
    }
    cdp_stop(&c);
    snprintf(what, sizeof what, "from the offline cache, the server stopped (%s)", host);
    print_samples(what, cached, m, cached_laps);
    snprintf(what, sizeof what, "from the offline cache, the service worker stopped first (%s)", host);
    print_samples(what, cold, k, cold_laps);
}

int wasm_bench(int rounds)
{
    struct stat st;
    if (stat(STATIC_DIR "/index.html", &st) != 0 || stat("build/wasm/denham.mjs", &st) != 0 || !cdp_browser()) {
        fprintf(stderr, "bench_denham wasm: needs make wasm web-static, Chromium and python3\n");
        return 2;
    }
    print_load("before");
    module_size();
    served_t server = {0}, isolating = {0};
    if (!static_start(&server, STATIC_DIR, false) || !static_start(&isolating, STATIC_DIR, true)) {
        fprintf(stderr, "bench_denham wasm: python3's static servers did not start\n");
        served_stop(&server);
        served_stop(&isolating);
        return 1;
    }
    char url[96], isolated_url[96];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/", server.port);
    snprintf(isolated_url, sizeof isolated_url, "http://127.0.0.1:%d/", isolating.port);
    if (rounds > 0) /* 0: the module and the first board only */
        speed(rounds, url, isolated_url);
    first_board(&server, url, "false false", "a host sending no headers: no shared memory", true);
    first_board(&isolating, isolated_url, "true true", "a host sending the isolation headers: shared memory", false);
    served_stop(&server);
    served_stop(&isolating);
    print_load("after");
    return 0;
}
