/*
 * web_board_bench.c: the board's own figures (./build/bench_denham
 * web-board [MOVES]), in headless Chromium against a `denham serve` on
 * loopback, with real mouse clicks on the real page. Each figure runs from
 * the click (the press on a move's last cell, the release on a replay
 * button) to the frame that shows its result painted, as the page times it
 * (`denham.lastMoveMs`, `denham.lastStepMs`):
 *   - a person's move, MOVES moves in Brax and in Bolix: the analysis off;
 *     on (the click must first stop the running `go infinite`); Denham at
 *     the other seat (its search starts in the same frame);
 *   - a replay step, one click at a time: at once after the game is
 *     opened, the plot's work queued behind; then with the plot done;
 * each as best, median and slowest, with the median of the page's laps
 * (`denham.lastLaps`: the search stopped, the engine's answers in, drawn,
 * saved, the frame begun; -1 when a figure had no such lap, as a step
 * drawn from what the engine said before), so that a slow figure says
 * where it went. Knows no game: the moves are the page's own legal moves.
 */
#define _GNU_SOURCE
#include "web_board_bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tools/cdp.h"
#include "../tools/http_client.h"
#include "samples.h"

enum { SAMPLES_MAX = 200, LAPS = 5 };

static const char *const lap_names[LAPS] = {"stopped", "answered", "rendered", "persisted", "frame"};

typedef struct figure {
    double total[SAMPLES_MAX];
    double laps[LAPS][SAMPLES_MAX];
    int n;
    int stopping; /* samples whose click had a search to stop or the plot's work queued */
} figure_t;

/* Reads the page's last figure (expression names it) and its laps. */
static void take(cdp_t *c, figure_t *f, const char *expression)
{
    if (f->n >= SAMPLES_MAX)
        return;
    f->total[f->n] = atof(cdp_text(c, expression));
    for (int k = 0; k < LAPS; k++) {
        char expr[128];
        snprintf(expr, sizeof expr, "String(denham.lastLaps && denham.lastLaps.%s !== undefined ? denham.lastLaps.%s : -1)",
                 lap_names[k], lap_names[k]);
        f->laps[k][f->n] = atof(cdp_text(c, expr));
    }
    f->stopping += strcmp(cdp_text(c, "String(!!(denham.lastLaps && (denham.lastLaps.stopping || denham.lastLaps.queued)))"), "true") == 0;
    f->n++;
}

static void report(const char *what, figure_t *f)
{
    if (f->n == 0) {
        printf("web-board: %s: not measured\n", what);
        return;
    }
    double sorted[SAMPLES_MAX];
    memcpy(sorted, f->total, sizeof sorted);
    double mid = samples_median(sorted, (size_t)f->n);
    printf("web-board: %s, %d (%d with a search to stop or the plot's work queued): best %.1f ms, median %.1f ms, slowest %.1f ms (target "
           "under 50 ms); laps (median, from the click):",
           what, f->n, f->stopping, sorted[0], mid, sorted[f->n - 1]);
    for (int k = 0; k < LAPS; k++)
        printf(" %s %.1f", lap_names[k], samples_median(f->laps[k], (size_t)f->n));
    printf("\n");
}

/* The page at variant, with preset's seats ("people", "first": Denham has
 * the other seat, moving in 200 ms) and the analysis on or off. */
static bool open_board(cdp_t *c, int port, const char *variant, const char *preset, bool analyse)
{
    char url[128], expr[600];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/#%s", port, variant);
    if (!cdp_navigate(c, "about:blank") || !cdp_navigate(c, url) ||
        !cdp_wait(c, "document.body.dataset.ready === 'true'", 30000))
        return false;
    snprintf(expr, sizeof expr,
             "(async () => { const set = (id, v) => { const e = document.getElementById(id); e.value = v; "
             "e.dispatchEvent(new Event('change')); }; set('movetime', '200'); set('preset', '%s'); await denham.busy; "
             "if (document.getElementById('analyse').checked !== %s) document.getElementById('analyse').click(); "
             "await denham.busy; return true; })()",
             preset, analyse ? "true" : "false");
    char *done = cdp_eval(c, expr, 30000);
    bool ok = done && strcmp(done, "true") == 0;
    free(done);
    if (!ok)
        printf("web-board: %s: the seats or the analysis could not be set\n", variant);
    return ok;
}

/* The cells of a legal move no other move begins with (so that its last
 * click plays it: no chooser), separated by spaces; "" when the game is
 * over. */
static const char *a_move(cdp_t *c, int pick)
{
    char expr[600];
    snprintf(expr, sizeof expr,
             "(() => { const key = (m) => m.clicks.join(' '); const ms = denham.legal.filter((m) => m.clicks.length "
             "&& !denham.legal.some((o) => o !== m && (key(o) + ' ').startsWith(key(m) + ' '))); "
             "if (!ms.length || (denham.state && denham.state.result)) return ''; "
             "return key(ms[%d %% ms.length]); })()",
             pick);
    return cdp_text(c, expr);
}

/* Clicks the centre of the element matching selector as a person does:
 * scrolled into view first, the click once the scroll is painted (a click
 * in the frame of a scroll would time the scroll's drawing too). */
static bool click_on(cdp_t *c, const char *selector)
{
    double x, y;
    if (!cdp_centre(c, selector, &x, &y))
        return false;
    free(cdp_eval(c, "new Promise((r) => requestAnimationFrame(() => setTimeout(() => r(true), 0)))", 5000));
    return cdp_click(c, x, y);
}

static bool click_cell(cdp_t *c, const char *cell)
{
    char sel[96];
    snprintf(sel, sizeof sel, "[data-cell=\"%s\"]", cell);
    return click_on(c, sel);
}

/* MOVES person's moves by clicks; each one's figure into f. */
static void person_moves(cdp_t *c, int port, const char *variant, const char *preset, bool analyse, int moves,
                         figure_t *f)
{
    if (!open_board(c, port, variant, preset, analyse))
        return;
    for (int i = 0; i < moves; i++) {
        char clicks[256];
        snprintf(clicks, sizeof clicks, "%s", a_move(c, i * 7));
        if (!clicks[0] && !open_board(c, port, variant, preset, analyse))
            return;
        if (!clicks[0])
            snprintf(clicks, sizeof clicks, "%s", a_move(c, i * 7));
        int before = atoi(cdp_text(c, "String(denham.game.moves.length)"));
        free(cdp_eval(c, "(denham.lastMoveMs = undefined, true)", 5000));
        char *save = NULL;
        for (char *cell = strtok_r(clicks, " ", &save); cell; cell = strtok_r(NULL, " ", &save))
            click_cell(c, cell);
        char expr[160];
        snprintf(expr, sizeof expr, "denham.game.moves.length > %d && denham.lastMoveMs !== undefined", before);
        if (!cdp_wait(c, expr, 10000))
            continue;
        take(c, f, "String(denham.lastMoveMs)");
        /* A person takes a while to move: the analysis runs meanwhile. */
        cdp_wait(c, "(async () => { await denham.busy; return true; })()", 10000);
        usleep(analyse ? 300 * 1000 : 50 * 1000);
    }
}

/* Steps through a played game one click at a time: the first steps at
 * once after it is opened, while the plot's searches run (each click then
 * stops one first), into filling; the rest once the plot is done. */
static void replay_steps(cdp_t *c, int port, int steps, figure_t *filling, figure_t *done)
{
    const char *games = "build/bench_web_replay.txt";
    char cmd[512], path[600], cwd[512];
    snprintf(cmd, sizeof cmd,
             "./denham-match --variant brandubh --engine name=a cmd=./denham depth=4 --engine name=b cmd=./denham "
             "depth=2 --games 1 --openings random:2 --seed 9 --quiet --games-file %s >/dev/null 2>&1",
             games);
    unlink(games);
    if (system(cmd) != 0 || !getcwd(cwd, sizeof cwd) || !open_board(c, port, "brandubh", "people", false))
        return;
    snprintf(path, sizeof path, "%s/%s", cwd, games);
    if (!cdp_set_file(c, "#games-file", path) ||
        !cdp_wait(c, "denham.view === 0 && !document.getElementById('replay-bar').hidden", 30000))
        return;
    for (int i = 0; i < 2 * steps; i++) {
        if (i == steps) /* the plot done: steps with nothing to stop */
            cdp_wait(c, "(async () => { await denham.busy; return true; })()", 120000);
        if (atoi(cdp_text(c, "String(denham.game.moves.length - denham.view)")) <= 0)
            break;
        free(cdp_eval(c, "(denham.lastStepMs = undefined, true)", 5000));
        if (!click_on(c, "#replay-next") || !cdp_wait(c, "denham.lastStepMs !== undefined", 10000))
            continue;
        take(c, i < steps ? filling : done, "String(denham.lastStepMs)");
        usleep(i < steps ? 100 * 1000 : 300 * 1000); /* a person looks at the step */
    }
}

int web_board_bench(int moves)
{
    if (moves < 1 || moves > SAMPLES_MAX)
        moves = 20;
    if (!cdp_browser()) {
        printf("web-board: no Chromium, not measured\n");
        return 0;
    }
    served_t s;
    if (!served_start(&s, "")) {
        printf("web-board: denham serve did not start (build ./denham first)\n");
        return 1;
    }
    cdp_t c;
    if (!cdp_start(&c, 1280, 800)) {
        printf("web-board: Chromium did not start\n");
        served_stop(&s);
        return 1;
    }
    static figure_t f[8];
    memset(f, 0, sizeof f);
    person_moves(&c, s.port, "brax", "people", false, moves, &f[0]);
    person_moves(&c, s.port, "brax", "people", true, moves, &f[1]);
    person_moves(&c, s.port, "brax", "first", false, moves, &f[2]);
    person_moves(&c, s.port, "bolix", "people", false, moves, &f[3]);
    person_moves(&c, s.port, "bolix", "people", true, moves, &f[4]);
    person_moves(&c, s.port, "bolix", "first", false, moves, &f[5]);
    replay_steps(&c, s.port, moves, &f[6], &f[7]);
    report("a person's move in Brax, analysis off", &f[0]);
    report("a person's move in Brax, analysis on", &f[1]);
    report("a person's move in Brax, Denham to answer", &f[2]);
    report("a person's move in Bolix, analysis off", &f[3]);
    report("a person's move in Bolix, analysis on", &f[4]);
    report("a person's move in Bolix, Denham to answer", &f[5]);
    report("a replay step in Brandubh, the plot filling", &f[6]);
    report("a replay step in Brandubh, the plot done", &f[7]);
    const char *errors = cdp_errors(&c);
    if (errors[0])
        printf("web-board: the page's errors: %s\n", errors);
    cdp_stop(&c);
    served_stop(&s);
    return 0;
}
