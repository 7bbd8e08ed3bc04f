/*
 * cdp.h: a headless Chromium driven over the DevTools protocol on a pipe
 * (--remote-debugging-pipe: JSON messages ended by a NUL byte on file
 * descriptors 3 and 4), for the browser tests: open a page, evaluate
 * script in it, click at a point with real mouse events, take a
 * screenshot. No WebSocket, no library.
 */
#ifndef DENHAM_CDP_H
#define DENHAM_CDP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct cdp {
    pid_t pid;
    int to_fd, from_fd;
    int next_id;
    char session[128]; /* the page's session id */
    char *buf;         /* what has been read and not yet used */
    size_t len, cap;
    char profile[256];
    char errors[8192]; /* the page's errors seen so far (see cdp_errors) */
    /* When set, a screenshot asked for under build/screenshots/ goes to
     * this folder instead (the static board's runs of the same tests). */
    char shots[128];
} cdp_t;

/* The Chromium binary (CHROMIUM in the environment, else the Debian
 * package's), or NULL when there is none. */
const char *cdp_browser(void);
/* Starts the browser with a page of width x height; false if it cannot. */
bool cdp_start(cdp_t *c, int width, int height);
void cdp_stop(cdp_t *c);
/* Sends a method with params (a JSON object's text, or NULL) to the page
 * (or to the browser when to_page is false); returns the whole response
 * (malloc'd; free it) or NULL after timeout_ms. */
char *cdp_call(cdp_t *c, bool to_page, const char *method, const char *params, int timeout_ms);
/* Goes to url and waits for the load event. */
bool cdp_navigate(cdp_t *c, const char *url);
/* Evaluates a JavaScript expression (awaited when it is a promise); its
 * value as JSON text (malloc'd), or NULL when it threw or timed out. */
char *cdp_eval(cdp_t *c, const char *expression, int timeout_ms);
/* Waits until expression is true; false at timeout_ms. */
bool cdp_wait(cdp_t *c, const char *expression, int timeout_ms);
/* A real left click at the page's point (CSS pixels). */
bool cdp_click(cdp_t *c, double x, double y);
/* One mouse event of the left button at (x, y): mouseMoved, mousePressed
 * or mouseReleased. */
bool cdp_mouse(cdp_t *c, const char *type, double x, double y);
/* The centre of the first element matching a CSS selector, scrolled into
 * the window as a person would: just into view, or to the middle when
 * something (a sticky bar) covers it there; false if none. */
bool cdp_centre(cdp_t *c, const char *selector, double *x, double *y);
/* Clicks the centre of the first element matching selector (scrolled as
 * cdp_centre does), and checks that the press reached it: one that the
 * page moved away onto nothing usable is sent again (up to three times);
 * false if there is none, the click failed, or it reached another
 * control (said on stderr). */
bool cdp_click_on(cdp_t *c, const char *selector);
/* What expression evaluates to, as text: a JSON string's value, else the
 * JSON itself; "" when none. In a buffer the next call overwrites. */
const char *cdp_text(cdp_t *c, const char *expression);
/* The window's size, as a phone's when narrower than 600 px (mobile), else
 * a desktop's. */
bool cdp_window(cdp_t *c, int width, int height);
/* Writes a PNG of the page to path (under c->shots when set, above). */
bool cdp_screenshot(cdp_t *c, const char *path);
/* The page's errors seen so far, one a line: uncaught exceptions and
 * unhandled rejections (Runtime.exceptionThrown), console.error and
 * console.assert calls, and with Log.enable the browser's error entries
 * (a failed load). Events are read while a call waits for its answer, so
 * one more call first brings them up to date. "" when there are none;
 * cdp_clear_errors forgets them. */
const char *cdp_errors(cdp_t *c);
void cdp_clear_errors(cdp_t *c);
/* Sets the file of an <input type=file> matched by selector. */
bool cdp_set_file(cdp_t *c, const char *selector, const char *path);

#endif
