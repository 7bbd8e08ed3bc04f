/* test_web_static.c: the board with no server of Denham's (make
 * web-static) in a real browser (a headless Chromium, as in test_web.c),
 * served by `python3 -m http.server`: the engine is WebAssembly in the
 * page's Web Worker. Every variant plays against Denham, with the
 * analysis and How to play; `stop` ends a search and a search never holds
 * up the page, both without shared memory (a host that sends no headers:
 * the engine unwinds to its worker's event loop between slices) and with
 * it (a host that sends those of cross-origin isolation,
 * bench/tools/isolating_server.py), before and after the service worker
 * serves the page; the page is an
 * installable app; after one visit, with the server killed, a reload opens
 * the board and Denham plays; before the engine is up the board is drawn
 * as the engine last described it (a reload) or, on a first visit, as the
 * engine described the default variant's start when the folder was built
 * (written on the page), and takes no move until it is up; a New game or
 * a variant chosen meanwhile is carried out once it is. Screenshots of each family at a desktop's
 * and a phone's size go to build/screenshots/static/. Runs only with
 * DENHAM_WEB_TRANSPORT=static (make test-web-static); the suites of
 * test_web.c and test_web_learn.c run against the same folder then too.
 * Every test fails on an error in the page. Its page and helpers are
 * web_host.c's (web_page_t); it reaches into no other test file. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../engine/core/record.h"
#include "../engine/core/timeman.h"
#include "../engine/games/variants.h"
#include "helpers.h"
#include "web_host.h"

#define WAIT_MS 60000

static web_page_t page;
static cdp_t *const browser = &page.browser;

static void static_setup(void) { web_page_setup(&page, ""); }
static void static_teardown(void) { web_page_teardown(&page); }
static const char *page_string(const char *expression) { return web_page_string(&page, expression); }
static bool page_true(const char *expression) { return web_page_true(&page, expression); }
static void open_variant(const char *variant) { wpage_open_variant(&page, variant); }
static void set_control(const char *id, const char *value) { wpage_set_control(&page, id, value); }
static void click(const char *selector) { wpage_click(&page, selector); }
static bool page_waits_for_a_person(void) { return wpage_waits_for_a_person(&page); }

/* What the app is doing, for a failure's message. */
static const char *page_state(void)
{
    return page_string("JSON.stringify({moves: denham.game.moves.join(' '), state: denham.state && denham.state.fen, "
                       "seats: denham.seats, searching: denham.searching && denham.searching.kind, error: "
                       "document.getElementById('error').textContent, status: "
                       "document.getElementById('status').textContent, log: "
                       "document.getElementById('log').textContent.slice(-300)})");
}

/* The page's position is the engine library's after the page's moves:
 * the same position string. */
static void assert_board_is_the_engines(const game_t *g)
{
    static record_t r;
    char text[65536], err[256], fen[GAME_FEN_MAX];
    snprintf(text, sizeof text, "%s", page_string("denham.game.start + (denham.game.moves.length ? ' moves ' + "
                                                   "denham.game.moves.join(' ') : '')"));
    ck_assert_msg(record_setup(&r, g, text, err, sizeof err), "%s: %s", text, err);
    g->write_fen(&r.pos, fen, sizeof fen);
    ck_assert_str_eq(page_string("document.getElementById('fen-shown').textContent"), fen);
}

/* A person's move by clicks (one of the page's legal moves, picked by
 * seed), then Denham's answer and the die's rolls: the page waits for a
 * person again, and its board is the engine library's position. */
static void person_then_denham(const game_t *g, int seed)
{
    int before = atoi(page_string("String(denham.game.moves.length)"));
    char expr[320], sel[160];
    snprintf(expr, sizeof expr, "(() => { const m = denham.legal.filter((x) => x.clicks.length); "
             "return m.length ? m[%d %% m.length].move : denham.legal[0].move; })()", seed);
    char move[64];
    snprintf(move, sizeof move, "%s", page_string(expr));
    snprintf(expr, sizeof expr, "String(denham.legal.find((x) => x.move === '%s').clicks.length)", move);
    int n = atoi(page_string(expr));
    for (int k = 0; k < n; k++) {
        snprintf(expr, sizeof expr, "denham.legal.find((x) => x.move === '%s').clicks[%d]", move, k);
        snprintf(sel, sizeof sel, "[data-cell=\"%s\"]", page_string(expr));
        click(sel);
    }
    if (n == 0) {
        snprintf(sel, sizeof sel, "#specials button[data-move=\"%s\"]", move);
        click(sel);
    } else {
        snprintf(sel, sizeof sel, "#chooser:not([hidden]) button[data-move=\"%s\"]", move);
        snprintf(expr, sizeof expr, "!!document.querySelector('#chooser:not([hidden])') || denham.game.moves.length > %d",
                 before);
        if (cdp_wait(browser, expr, 5000) && atoi(page_string("String(denham.game.moves.length)")) <= before)
            click(sel);
    }
    snprintf(expr, sizeof expr, "denham.game.moves.length > %d", before);
    ck_assert_msg(cdp_wait(browser, expr, WAIT_MS), "%s: clicking '%s' played nothing: %s", g->name, move, page_state());
    snprintf(expr, sizeof expr, "denham.game.moves[%d]", before);
    ck_assert_str_eq(page_string(expr), move);
    ck_assert_msg(page_waits_for_a_person(), "%s: Denham did not answer: %s", g->name, page_state());
    assert_board_is_the_engines(g);
}

/* Denham's own moves among the page's, counted by the seats. */
static int denham_moves(void)
{
    return atoi(page_string("String(denham.turns.filter((t, i) => t && !t.chance && denham.seats[t.seat] === "
                            "'engine' && i < denham.game.moves.length).length)"));
}

/* ---- every variant against Denham ---- */

static const char *const families[] = {"brax", "brax-4p", "brandubh", "bolix", "jinxx", "jinxx-4p"};
enum { FAMILIES = sizeof families / sizeof families[0] };

/* Denham plays (100 ms a move), the analysis shows its lines, How to play
 * opens at the variant's rules and closes: in every variant at a
 * desktop's size (loop 0) and in each family at a phone's (loop 1), each
 * family's board photographed. */
START_TEST(every_variant_against_denham)
{
    if (!page.have_browser)
        return;
    static const int sizes[2][2] = {{1280, 800}, {390, 844}};
    cdp_window(browser, sizes[_i][0], sizes[_i][1]);
    int n = 0;
    while (variants_at(n))
        n++;
    for (int v = 0; v < (_i ? FAMILIES : n); v++) {
        const game_t *g = _i ? variants_find(families[v]) : variants_at(v);
        open_variant(g->name);
        ck_assert_str_eq(page_string("denham.session.kind"), "worker");
        set_control("movetime", "100");
        set_control("preset", "first");
        ck_assert_msg(page_waits_for_a_person(), "%s: %s", g->name, page_state());
        for (int k = 0; k < 2 && !page_true("!!denham.state.result"); k++)
            person_then_denham(g, 3 * v + k);
        ck_assert_msg(denham_moves() >= 1 || page_true("!!denham.state.result"), "%s: Denham never moved: %s", g->name,
                      page_state());
        if (!page_true("!!denham.state.result")) {
            click("#analyse");
            ck_assert_msg(cdp_wait(browser, "!!document.querySelector('#analysis .line')", WAIT_MS), "%s: no analysis: %s",
                          g->name, page_state());
            click("#analyse");
            ck_assert(cdp_wait(browser, "(async () => { await denham.busy; return !denham.searching; })()", WAIT_MS));
        }
        click("#how-to-play");
        ck_assert_msg(cdp_wait(browser, "(() => { const p = document.getElementById('rules-panel'); return !!p && "
                                         "!p.hidden && p.textContent.length > 200; })()",
                               WAIT_MS),
                      "%s: How to play showed nothing", g->name);
        for (int k = 0; k < 2; k++) /* Esc closes it, as a person would on a phone, where it covers its button */
            free(cdp_call(browser, true, "Input.dispatchKeyEvent",
                          k ? "{\"type\":\"keyUp\",\"key\":\"Escape\",\"code\":\"Escape\",\"windowsVirtualKeyCode\":27}"
                            : "{\"type\":\"rawKeyDown\",\"key\":\"Escape\",\"code\":\"Escape\",\"windowsVirtualKeyCode\":27}",
                          10000));
        ck_assert(cdp_wait(browser, "document.getElementById('rules-panel').hidden", WAIT_MS));
        for (int f = 0; f < FAMILIES; f++)
            if (strcmp(families[f], g->name) == 0) {
                char path[128];
                snprintf(path, sizeof path, "build/screenshots/play-%s%s.png", g->name, _i ? "-phone" : "");
                free(cdp_eval(browser, "(window.scrollTo(0, 0), true)", 10000));
                ck_assert(cdp_screenshot(browser, path));
            }
    }
}
END_TEST

/* ---- stop, and a page that never waits for a search ---- */

/* While the analysis searches (go infinite) for two seconds, the page's
 * own timer of 20 ms keeps beating (the beats are counted into *beats,
 * the longest gap returned, in ms); then the analysis is switched off,
 * and its bestmove must come. */
static double analysis_gap_then_stop(const char *what, int *beats, double *stop_ms)
{
    free(cdp_eval(browser, "(() => { window.gap = 0; window.beats = 0; let last = performance.now(); "
                            "clearInterval(window.beat); window.beat = setInterval(() => { const t = performance.now(); "
                            "window.gap = Math.max(window.gap, t - last); window.beats++; last = t; }, 20); return true; })()",
                  10000));
    click("#analyse");
    ck_assert_msg(cdp_wait(browser, "!!document.querySelector('#analysis .line')", WAIT_MS), "%s: no analysis: %s", what,
                  page_state());
    free(cdp_eval(browser, "(window.beats = 0, window.gap = 0, true)", 10000));
    usleep(2000 * 1000);
    double gap = atof(page_string("String(window.gap)"));
    *beats = atoi(page_string("String(window.beats)"));
    int64_t t0 = timeman_now_ms();
    click("#analyse");
    ck_assert_msg(cdp_wait(browser, "(async () => { await denham.busy; return !denham.searching && !denham.stopping; })()",
                           WAIT_MS),
                  "%s: the analysis did not stop: %s", what, page_state());
    *stop_ms = (double)(timeman_now_ms() - t0);
    free(cdp_eval(browser, "(clearInterval(window.beat), true)", 10000));
    return gap;
}

/* The page's mode: "false false" without shared memory, "true true" with. */
static const char page_mode[] = "String(crossOriginIsolated) + ' ' + denham.session.transport.shared";

/* Analysis on, two seconds, off (analysis_gap_then_stop): `stop` ends it
 * (the switch off waits for its bestmove) and the page's timer kept
 * beating through the search. The bounds are loose (the machine is
 * shared): a page frozen by the search would not beat at all in those two
 * seconds, a search that never reads `stop` would never answer. */
static void stop_ends_analysis(const char *what)
{
    int beats;
    double stop_ms, gap = analysis_gap_then_stop(what, &beats, &stop_ms);
    printf("static board, %s: during 2 s of search the page's 20 ms timer beat %d times (longest gap %.0f ms); "
           "stop %.0f ms\n", what, beats, gap, stop_ms);
    ck_assert_msg(beats >= 10, "%s: the page's timer beat %d times in 2 s of search", what, beats);
    ck_assert_msg(stop_ms < 5000, "%s: stop took %.0f ms", what, stop_ms);
}

/* Bolix opened at base (a server's address) for people only; the page's
 * mode is want, and it is served by the folder's service worker when
 * controlled says so. */
static void open_bolix_at(const char *base, const char *want, bool controlled)
{
    char url[160];
    snprintf(url, sizeof url, "%s#bolix", base);
    wpage_open(&page, url, "bolix");
    set_control("preset", "people");
    ck_assert(page_waits_for_a_person());
    const char *mode = page_string(page_mode);
    ck_assert_msg(strcmp(mode, want) == 0, "%s, %s: the page's mode (crossOriginIsolated, shared) is '%s', not '%s'", base,
                  controlled ? "served by the service worker" : "a first visit", mode, want);
    if (controlled)
        ck_assert_msg(page_true("navigator.serviceWorker.controller !== null"), "not served by the service worker");
}

/* A host that sends no headers of its own (python3 -m http.server): no
 * shared memory, on a first visit and as well once the service worker
 * serves the page (it adds no headers: a page it serves opens in no
 * process of its own); the engine's searches unwind to the worker's event
 * loop. A host that sends the two headers of cross-origin isolation
 * (isolating_server.py; README's nginx): shared memory from the first
 * visit, and still once the service worker serves the page from its cache
 * (the host's headers are kept with its answers); the commands go through
 * shared memory. Either way `stop` ends the analysis and the page keeps
 * beating through the search. */
START_TEST(stop_with_and_without_shared_memory)
{
    if (!page.have_browser)
        return;
    open_bolix_at(page.base_url, "false false", false);
    stop_ends_analysis("without shared memory, a first visit");
    ck_assert_msg(cdp_wait(browser, "navigator.serviceWorker.ready.then(() => true)", WAIT_MS), "no service worker");
    open_bolix_at(page.base_url, "false false", true);
    stop_ends_analysis("without shared memory, from the service worker");
    served_t isolating;
    ck_assert_msg(static_start(&isolating, WEB_STATIC_DIR, true), "isolating_server.py did not start");
    char url[96];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/", isolating.port);
    open_bolix_at(url, "true true", false);
    stop_ends_analysis("with shared memory, a first visit to a host sending the headers");
    ck_assert_msg(cdp_wait(browser, "navigator.serviceWorker.ready.then(() => true)", WAIT_MS), "no service worker");
    open_bolix_at(url, "true true", true);
    stop_ends_analysis("with shared memory, from the service worker");
    served_stop(&isolating);
}
END_TEST

/* ---- an app that works offline ---- */

/* A game of Brandubh against Denham, a move each played. */
static const game_t *brandubh_under_way(void)
{
    const game_t *g = variants_find("brandubh");
    open_variant("brandubh");
    set_control("movetime", "100");
    set_control("preset", "first");
    ck_assert(page_waits_for_a_person());
    person_then_denham(g, 1);
    return g;
}

/* Chromium's own verdict: the page can be installed (a manifest with a
 * name, a start and an icon; a service worker that serves it). */
static void assert_installable(void)
{
    char *r = cdp_call(browser, true, "Page.getInstallabilityErrors", NULL, 20000);
    ck_assert_ptr_nonnull(r);
    ck_assert_msg(strstr(r, "\"installabilityErrors\":[]"), "not installable: %s", r);
    free(r);
}

/* One visit, a game against Denham under way; the server killed; a reload
 * opens the board from the service worker's cache, the game as it was,
 * and Denham answers; so does a new visit to the folder's address. The
 * page is installable. Screenshots of the board with the server stopped,
 * at a desktop's size and a phone's. */
START_TEST(offline_after_one_visit)
{
    if (!page.have_browser)
        return;
    const game_t *g = brandubh_under_way();
    ck_assert_msg(cdp_wait(browser, "navigator.serviceWorker.controller !== null", WAIT_MS), "no service worker");
    ck_assert_msg(cdp_wait(browser, "navigator.serviceWorker.ready.then(() => true)", WAIT_MS), "no service worker");
    assert_installable();
    char moves[4096], url[4096];
    snprintf(moves, sizeof moves, "%s", page_string("denham.game.moves.join(' ')"));
    snprintf(url, sizeof url, "%s", page_string("location.href"));
    ck_assert_int_eq(web_host_stop(&page.server), 0);
    /* No server: every request fails but the service worker's. */
    reply_t r;
    ck_assert(!http_request(page.server.port, "GET", "/", NULL, NULL, &r) || r.status == 0);
    free(cdp_call(browser, true, "Page.reload", NULL, 10000));
    ck_assert_msg(cdp_wait(browser, "document.body.dataset.ready === 'true'", WAIT_MS), "offline: no board: %s",
                  page_string("document.getElementById('error').textContent"));
    printf("static board from the offline cache: first board drawn %.0f ms after the reload\n",
           atof(page_string("document.body.dataset.drawnMs")));
    ck_assert(page_waits_for_a_person());
    ck_assert_str_eq(page_string("denham.game.moves.join(' ')"), moves);
    int before = denham_moves();
    person_then_denham(g, 2);
    ck_assert_int_gt(denham_moves(), before);
    ck_assert(cdp_screenshot(browser, "build/screenshots/offline-brandubh.png"));
    /* A new visit to the address, offline, at a phone's size. */
    cdp_window(browser, 390, 844);
    wpage_open(&page, url, "brandubh");
    ck_assert(page_waits_for_a_person());
    person_then_denham(g, 3);
    ck_assert(cdp_screenshot(browser, "build/screenshots/offline-brandubh-phone.png"));
    assert_installable();
}
END_TEST

/* ---- the board before the engine is up ---- */

/* Run before the page's own scripts on every load: the engine's worker
 * gets its module only when the test says (releaseEngine()), so that the
 * page is seen as it is while its engine starts, for as long as needed. */
static const char hold_engine[] =
    "{\"source\": \"(() => { const W = window.Worker; const held = []; let go = false; "
    "window.releaseEngine = () => { go = true; held.splice(0).forEach((f) => f()); }; "
    "window.Worker = class extends W { postMessage(m, t) { "
    "if (!go && m && m.type === 'start') { held.push(() => super.postMessage(m, t)); return; } "
    "super.postMessage(m, t); } }; })()\"}";

/* A game under way; a reload: the board of that position is drawn from
 * what the engine described on the last visit before the engine is up
 * (held back here), it says so and takes no move (clicks and a typed move
 * are refused, with why); once the engine is up, its own board replaces
 * it, the game as it was, and the game plays on. No page errors. */
START_TEST(board_drawn_before_the_engine_is_up)
{
    if (!page.have_browser)
        return;
    const game_t *g = brandubh_under_way();
    char moves[4096], fen[512], move[64], cell[64], expr[768];
    snprintf(moves, sizeof moves, "%s", page_string("denham.game.moves.join(' ')"));
    snprintf(fen, sizeof fen, "%s", page_string("denham.state.fen"));
    snprintf(move, sizeof move, "%s", page_string("denham.legal.find((x) => x.clicks.length >= 2).move"));
    snprintf(expr, sizeof expr, "denham.legal.find((x) => x.move === '%s').clicks", move);
    ck_assert_ptr_nonnull(strchr(page_string(expr), ','));
    snprintf(expr, sizeof expr, "denham.legal.find((x) => x.move === '%s').clicks[0]", move);
    snprintf(cell, sizeof cell, "%s", page_string(expr));
    free(cdp_call(browser, true, "Page.addScriptToEvaluateOnNewDocument", hold_engine, 10000));
    free(cdp_call(browser, true, "Page.reload", NULL, 10000));
    ck_assert_msg(cdp_wait(browser, "document.body.dataset.engine === 'starting' && !!document.body.dataset.drawnMs",
                           WAIT_MS), "no board before the engine: %s", page_state());
    ck_assert(page_true("typeof window.releaseEngine === 'function' && document.body.dataset.ready !== 'true'"));
    /* The kept board is the game's position, visible, and says why it waits. */
    snprintf(expr, sizeof expr, "denham.board.state.fen === '%s'", fen);
    ck_assert_msg(page_true(expr), "the kept board is not the game's: %s", page_string("denham.board.state.fen"));
    ck_assert(page_true("(() => { const r = document.getElementById('board').getBoundingClientRect(); "
                        "return r.width > 200 && r.height > 200 && r.bottom <= innerHeight + 1; })()"));
    ck_assert(page_true("document.getElementById('variant').value === 'brandubh'"));
    ck_assert_str_eq(page_string("document.getElementById('status').textContent"),
                     "Denham is starting: the board takes moves in a moment.");
    ck_assert(cdp_screenshot(browser, "build/screenshots/brandubh-engine-starting.png"));
    /* Clicks and a typed move are refused, and say why. */
    ck_assert(page_true("(document.getElementById('status').textContent = '', true)"));
    snprintf(expr, sizeof expr, "[data-cell=\"%s\"]", cell);
    click(expr);
    ck_assert_msg(cdp_wait(browser, "document.getElementById('status').textContent.startsWith('Denham is starting')",
                           5000), "a click said nothing: %s", page_state());
    set_control("move-input", move);
    ck_assert(page_true("(document.getElementById('move-form').requestSubmit(), true)"));
    ck_assert_msg(cdp_wait(browser, "document.getElementById('error-text').textContent.startsWith('Denham is starting')",
                           5000), "a typed move was not refused: %s", page_state());
    ck_assert(page_true("denham.state === null && denham.game.moves.length === 0 && !denham.jobs.running"));
    /* The engine comes up: its board replaces the kept one, the game as it was. */
    ck_assert(page_true("(releaseEngine(), true)"));
    ck_assert_msg(cdp_wait(browser, "document.body.dataset.ready === 'true'", WAIT_MS), "no engine: %s", page_state());
    ck_assert(page_true("document.body.dataset.engine === 'up' && "
                        "!document.getElementById('board-wrap').classList.contains('starting')"));
    ck_assert(page_waits_for_a_person());
    ck_assert_str_eq(page_string("denham.game.moves.join(' ')"), moves);
    ck_assert_str_eq(page_string("denham.state.fen"), fen);
    ck_assert(page_true("document.getElementById('variant').options.length > 1"));
    person_then_denham(g, 2);
}
END_TEST

/* A game under way; a reload with the engine held back; before it is up
 * the person asks for a New game, then chooses another variant: each is
 * taken (no error, nothing refused), the board says Denham is starting and
 * which game begins, and shows no other game's position under the chosen
 * variant's name; once the engine is up that new game (the variant
 * chosen last, from its start) is what the board shows, and it plays. */
START_TEST(new_game_asked_before_the_engine_is_up)
{
    if (!page.have_browser)
        return;
    brandubh_under_way();
    free(cdp_call(browser, true, "Page.addScriptToEvaluateOnNewDocument", hold_engine, 10000));
    free(cdp_call(browser, true, "Page.reload", NULL, 10000));
    ck_assert_msg(cdp_wait(browser, "document.body.dataset.engine === 'starting' && !!document.body.dataset.drawnMs",
                           WAIT_MS), "no board before the engine: %s", page_state());
    /* Every variant the engine named on the last visit is offered already. */
    ck_assert_msg(page_true("[...document.getElementById('variant').options].some((o) => o.value === 'bolix')"),
                  "the variant box before the engine: %s",
                  page_string("[...document.getElementById('variant').options].map((o) => o.value).join(' ')"));
    static const char no_error[] = "document.getElementById('error').hidden && "
                                   "document.getElementById('error-text').textContent === ''";
    click("#new-game");
    ck_assert_msg(cdp_wait(browser, "document.getElementById('status').textContent === "
                                    "'Denham is starting: a new game of brandubh begins as soon as it is up.'", 5000),
                  "New game before the engine: %s", page_state());
    ck_assert_msg(page_true(no_error), "New game before the engine: %s", page_state());
    /* The kept board was the game's position, not the start: no board now. */
    ck_assert(page_true("denham.board.state === null && !document.querySelector('#board svg')"));
    set_control("variant", "bolix");
    ck_assert_msg(cdp_wait(browser, "document.getElementById('status').textContent === "
                                    "'Denham is starting: a new game of bolix begins as soon as it is up.'", 5000),
                  "a variant chosen before the engine: %s", page_state());
    ck_assert_msg(page_true(no_error), "a variant chosen before the engine: %s", page_state());
    ck_assert(page_true("document.body.dataset.engine === 'starting' && document.getElementById('variant').value === 'bolix'"));
    ck_assert(page_true("denham.state === null && document.body.dataset.ready !== 'true'"));
    ck_assert(cdp_screenshot(browser, "build/screenshots/bolix-asked-while-starting.png"));
    ck_assert(page_true("(releaseEngine(), true)"));
    ck_assert_msg(cdp_wait(browser, "document.body.dataset.ready === 'true'", WAIT_MS), "no engine: %s", page_state());
    ck_assert_msg(page_true(no_error), "once the engine is up: %s", page_state());
    ck_assert_str_eq(page_string("denham.layout.variant"), "bolix");
    ck_assert_str_eq(page_string("document.getElementById('variant').value"), "bolix");
    ck_assert_str_eq(page_string("denham.game.start + '|' + denham.game.moves.join(' ')"), "startpos|");
    ck_assert(page_true("document.body.dataset.engine === 'up'"));
    set_control("movetime", "100");
    set_control("preset", "first");
    ck_assert(page_waits_for_a_person());
    person_then_denham(variants_find("bolix"), 1);
}
END_TEST

/* A first visit (a new profile: nothing kept), the engine held back: the
 * default variant's start is drawn at once from what `make web-static`
 * wrote on the page (the native engine's own description), dimmed, saying
 * Denham is starting, every variant offered, and it takes no move; once
 * the module's engine is up, what it describes is that description word
 * for word, and the game plays. */
START_TEST(first_visit_draws_the_board_before_the_engine_is_up)
{
    if (!page.have_browser)
        return;
    free(cdp_call(browser, true, "Page.addScriptToEvaluateOnNewDocument", hold_engine, 10000));
    ck_assert(cdp_navigate(browser, page.base_url));
    ck_assert_msg(cdp_wait(browser, "document.body.dataset.engine === 'starting' && !!document.body.dataset.drawnMs",
                           WAIT_MS), "no board before the engine on a first visit: %s", page_state());
    ck_assert(page_true("typeof window.releaseEngine === 'function' && document.body.dataset.ready !== 'true'"));
    ck_assert_str_eq(page_string("Object.keys(localStorage).filter((k) => k.startsWith('denham.board.')).join(' ')"), "");
    const game_t *g = variants_at(0); /* the engine's default */
    char expr[512];
    snprintf(expr, sizeof expr, "denham.board.layout.variant === '%s' && document.getElementById('variant').value === '%s'",
             g->name, g->name);
    ck_assert_msg(page_true(expr), "%s", page_string("denham.board.layout && denham.board.layout.variant"));
    static const char built[] = "JSON.parse(document.getElementById('engine-first').textContent)";
    snprintf(expr, sizeof expr, "JSON.stringify(denham.board.state) === JSON.stringify(%s.state)", built);
    ck_assert(page_true(expr));
    int n = 0;
    while (variants_at(n))
        n++;
    snprintf(expr, sizeof expr, "document.getElementById('variant').options.length === %d", n);
    ck_assert_msg(page_true(expr), "variants offered: %s", page_string("String(document.getElementById('variant').options.length)"));
    ck_assert(page_true("(() => { const r = document.getElementById('board').getBoundingClientRect(); "
                        "return r.width > 200 && r.height > 200 && r.bottom <= innerHeight + 1; })()"));
    ck_assert(page_true("document.getElementById('board-wrap').classList.contains('starting') && "
                        "getComputedStyle(document.getElementById('board')).opacity < 1"));
    ck_assert_str_eq(page_string("document.getElementById('status').textContent"),
                     "Denham is starting: the board takes moves in a moment.");
    ck_assert(cdp_screenshot(browser, "build/screenshots/first-visit-engine-starting.png"));
    ck_assert(page_true("(document.getElementById('status').textContent = '', true)"));
    click("#board [data-cell]");
    ck_assert_msg(cdp_wait(browser, "document.getElementById('status').textContent.startsWith('Denham is starting')",
                           5000), "a click said nothing: %s", page_state());
    ck_assert(page_true("denham.state === null && denham.game.moves.length === 0"));
    ck_assert(page_true("(releaseEngine(), true)"));
    ck_assert_msg(cdp_wait(browser, "document.body.dataset.ready === 'true'", WAIT_MS), "no engine: %s", page_state());
    /* The module's engine describes exactly what was drawn before it. */
    snprintf(expr, sizeof expr, "JSON.stringify(denham.layout) === JSON.stringify(%s.layout)", built);
    ck_assert_msg(page_true(expr), "the page's layout is not the engine's");
    snprintf(expr, sizeof expr, "JSON.stringify(denham.board.state) === JSON.stringify(%s.state)", built);
    ck_assert_msg(page_true(expr), "the page's start is not the engine's: %s", page_string("JSON.stringify(denham.board.state).slice(0, 300)"));
    ck_assert(page_true("document.body.dataset.engine === 'up'"));
    set_control("movetime", "100");
    set_control("preset", "first");
    ck_assert(page_waits_for_a_person());
    person_then_denham(g, 1);
}
END_TEST

Suite *suite_web_static(void)
{
    Suite *s = suite_create("web_static");
    TCase *tc = tcase_create("static");
    tcase_set_timeout(tc, 900);
    tcase_add_checked_fixture(tc, static_setup, static_teardown); /* a browser and a static server per test */
    if (web_static()) {
        tcase_add_loop_test(tc, every_variant_against_denham, 0, 2);
        tcase_add_test(tc, stop_with_and_without_shared_memory);
        tcase_add_test(tc, offline_after_one_visit);
    }
    suite_add_tcase(s, tc);
    TCase *starting = tcase_create("starting"); /* CK_RUN_CASE=starting: this one alone */
    tcase_set_timeout(starting, 300);
    tcase_add_checked_fixture(starting, static_setup, static_teardown);
    if (web_static())
        tcase_add_test(starting, board_drawn_before_the_engine_is_up);
    if (web_static())
        tcase_add_test(starting, new_game_asked_before_the_engine_is_up);
    if (web_static())
        tcase_add_test(starting, first_visit_draws_the_board_before_the_engine_is_up);
    suite_add_tcase(s, starting);
    return s;
}
