/* web_host.h: where the browser suites find the board. By default
 * `denham serve` (its engine a native process per tab); with
 * DENHAM_WEB_TRANSPORT=static the static folder (make web-static) served
 * by `python3 -m http.server`, which knows nothing of Denham: the engine
 * is WebAssembly in the page's Web Worker. The suites take the transport
 * from here and register the tests that suit it (web_wants). */
#ifndef DENHAM_WEB_HOST_H
#define DENHAM_WEB_HOST_H

#include <stdbool.h>

#include "../bench/tools/cdp.h"
#include "../bench/tools/http_client.h"

/* The static folder the static runs serve. */
#define WEB_STATIC_DIR "build/web-static"

/* Which runs a test suits: WEB_SERVER, `denham serve`'s only (its
 * sessions, another engine behind it); WEB_BOTH, either transport;
 * WEB_CI, either, and chosen for CI's static run (make test-web-static,
 * DENHAM_WEB_SUBSET=ci: its time is counted). */
enum { WEB_SERVER = 0, WEB_BOTH = 1, WEB_CI = 3 };

/* This run's transport is the static folder. */
bool web_static(void);
/* Whether a test of that kind runs in this run. */
bool web_wants(int kind);
/* Starts the board's server: `denham serve` with serve_args, or the
 * static server (serve_args then unused); false if it did not start. */
bool web_host_start(served_t *s, const char *serve_args);
/* Stops it; 0 when it ended as it should and left no process behind. */
int web_host_stop(served_t *s);
/* Points a browser's screenshots of a static run to
 * build/screenshots/static/ (the server's stay where they were). */
void web_host_browser(cdp_t *c);

/* ---- a test's page: what a browser test holds and does (check's
 * assertions inside; test_web_static.c's, ready for the others) ---- */

typedef struct web_page {
    served_t server;
    cdp_t browser;
    bool have_browser; /* false: no Chromium, the test checks nothing (said once) */
    char base_url[64];
} web_page_t;

/* The fixture: the board's server (serve_args for `denham serve`), a
 * browser of 1280x800 with failed loads counted as errors; and its end,
 * which fails on any error the page reported and on a server that did
 * not end as it should. */
void web_page_setup(web_page_t *p, const char *serve_args);
void web_page_teardown(web_page_t *p);
/* What expression evaluates to in the page, as cdp_text; whether true. */
const char *web_page_string(web_page_t *p, const char *expression);
bool web_page_true(web_page_t *p, const char *expression);
/* The board at url (a new page, not a new #fragment), up; showing
 * variant when not NULL. web_open_variant: the board's address#variant. */
void wpage_open(web_page_t *p, const char *url, const char *variant);
void wpage_open_variant(web_page_t *p, const char *variant);
/* A form control set as a person would, firing its change. */
void wpage_set_control(web_page_t *p, const char *id, const char *value);
/* A click on the centre of the element matching selector. */
void wpage_click(web_page_t *p, const char *selector);
/* Nothing queued, no search but the analysis, a person to move (or the
 * game over); false at the deadline. */
bool wpage_waits_for_a_person(web_page_t *p);

#endif
