/* web_page.h: the board page driven as a person drives it, for the browser
 * suites: a page opened on a game, the page's answers read, clicks, typing
 * and form controls, and the wait for the page to want a person's move.
 * Every helper takes the browser (cdp.h) and knows nothing of how the
 * page reaches its engine: the same helpers serve any transport. The page
 * is Denham's web app (web/), read through window.denham only to know
 * what it holds. */
#ifndef DENHAM_WEB_PAGE_H
#define DENHAM_WEB_PAGE_H

#include <stdbool.h>

#include <stddef.h>

#include "../bench/tools/cdp.h"
#include "../bench/tools/http_client.h"

#define WEB_WAIT_MS 60000

/* A browser suite's fixture: the board's server (web_host.h: `denham serve`
 * with serve_args added, such as
 * "--max-sessions 4") on a free port,
 * its address in base_url, and a headless Chromium at 1280x800 (with
 * log_errors, the browser's own error entries, a failed load, count as
 * the page's errors too). False, and said once, where there is no
 * Chromium: the suite then checks nothing. */
bool web_fixture_start(served_t *server, cdp_t *browser, char *base_url, size_t len, const char *serve_args,
                       bool log_errors);
/* Stops the browser and the server; fails the test on an engine left
 * behind and, with errors_fail, on any error the page reported. */
void web_fixture_stop(served_t *server, cdp_t *browser, bool errors_fail);

/* What an expression evaluates to, as text (static, overwritten by the
 * next call; "" when none). */
const char *web_text(cdp_t *c, const char *expression);
/* True when the expression evaluates to true. */
bool web_true(cdp_t *c, const char *expression);
/* Opens url (a new page, not a new #fragment) and waits for the app to be
 * ready; fails the test when it does not start. */
void web_open(cdp_t *c, const char *url);
/* Reloads the page as a person does, and waits for the app. */
void web_reload(cdp_t *c);
/* Clicks the centre of the element matching selector (failing the test
 * when none does). */
void web_click(cdp_t *c, const char *selector);
/* Types text into the element matching selector (a click into it, what
 * was there replaced, the characters, Enter). */
void web_type(cdp_t *c, const char *selector, const char *text);
/* Sets a form control's value, firing its change as a person's choice does. */
void web_set_control(cdp_t *c, const char *id, const char *value);
/* Waits until the page waits for a person: nothing queued, no search of
 * Denham's, a person to move (or the game over). */
bool web_waits_for_a_person(cdp_t *c);
/* The element matching selector is shown and wholly inside the window. */
bool web_in_view(cdp_t *c, const char *selector);
/* Waits until the element matching selector is shown, inside the window,
 * and its text holds text; fails the test with what it says otherwise. */
void web_says(cdp_t *c, const char *selector, const char *text);

#endif
