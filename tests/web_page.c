/* web_page.c: the board page driven as a person drives it (web_page.h). */
#define _DEFAULT_SOURCE
#include "web_page.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "helpers.h"
#include "web_host.h"

bool web_fixture_start(served_t *server, cdp_t *browser, char *base_url, size_t len, const char *serve_args,
                       bool log_errors)
{
    if (!cdp_browser()) {
        fprintf(stderr, "browser tests: no Chromium (make deps installs it): not run\n");
        return false;
    }
    ck_assert_msg(web_host_start(server, serve_args), "the board's server did not start");
    snprintf(base_url, len, "http://127.0.0.1:%d/", server->port);
    ck_assert_msg(cdp_start(browser, 1280, 800), "Chromium did not start");
    if (log_errors)
        free(cdp_call(browser, true, "Log.enable", NULL, 10000)); /* failed loads count as errors too */
    mkdir("build/screenshots", 0755);
    web_host_browser(browser);
    return true;
}

void web_fixture_stop(served_t *server, cdp_t *browser, bool errors_fail)
{
    /* No test may leave an error in the page's console: an uncaught
     * exception, an unhandled rejection, console.error, a failed request. */
    free(cdp_eval(browser, "true", 10000)); /* the events still in the pipe */
    char errors[sizeof browser->errors];
    snprintf(errors, sizeof errors, "%s", cdp_errors(browser));
    cdp_stop(browser);
    ck_assert_msg(!errors_fail || !errors[0], "the page reported errors:\n%.1500s", errors); /* check's messages are short */
    ck_assert_int_eq(web_host_stop(server), 0); /* it ended, and every engine went with it */
}

const char *web_text(cdp_t *c, const char *expression)
{
    return cdp_text(c, expression);
}

bool web_true(cdp_t *c, const char *expression)
{
    char *v = cdp_eval(c, expression, 20000);
    bool yes = v && strcmp(v, "true") == 0;
    free(v);
    return yes;
}

static void wait_ready(cdp_t *c, const char *what)
{
    ck_assert_msg(cdp_wait(c, "document.body.dataset.ready === 'true'", WEB_WAIT_MS), "%s: the app did not start: %s",
                  what, web_text(c, "document.getElementById('error').textContent"));
}

void web_open(cdp_t *c, const char *url)
{
    ck_assert(cdp_navigate(c, "about:blank"));
    ck_assert(cdp_navigate(c, url));
    wait_ready(c, url);
}

void web_reload(cdp_t *c)
{
    free(cdp_eval(c, "(delete document.body.dataset.ready, true)", 10000));
    free(cdp_call(c, true, "Page.reload", NULL, 10000));
    wait_ready(c, "the reload");
}

void web_click(cdp_t *c, const char *selector)
{
    ck_assert_msg(cdp_click_on(c, selector), "nothing matches %s", selector);
}

void web_type(cdp_t *c, const char *selector, const char *text)
{
    web_click(c, selector);
    char *q = malloc(strlen(selector) + 128);
    sprintf(q, "(document.querySelector(`%s`).select(), true)", selector); /* what was there goes */
    free(cdp_eval(c, q, 10000));
    free(q);
    /* The text as a JSON string: quotes and backslashes escaped. */
    size_t n = strlen(text);
    char *params = malloc(2 * n + 32), *o = params;
    o += sprintf(o, "{\"text\":\"");
    for (const char *t = text; *t; t++) {
        if (*t == '"' || *t == '\\')
            *o++ = '\\';
        *o++ = *t;
    }
    sprintf(o, "\"}");
    free(cdp_call(c, true, "Input.insertText", params, 10000));
    free(params);
    free(cdp_call(c, true, "Input.dispatchKeyEvent",
                  "{\"type\":\"keyDown\",\"key\":\"Enter\",\"code\":\"Enter\",\"windowsVirtualKeyCode\":13,"
                  "\"text\":\"\\r\"}",
                  10000));
    free(cdp_call(c, true, "Input.dispatchKeyEvent",
                  "{\"type\":\"keyUp\",\"key\":\"Enter\",\"code\":\"Enter\",\"windowsVirtualKeyCode\":13}", 10000));
}

void web_set_control(cdp_t *c, const char *id, const char *value)
{
    char expr[512];
    snprintf(expr, sizeof expr,
             "(() => { const e = document.getElementById('%s'); e.value = '%s'; "
             "e.dispatchEvent(new Event('change')); return true; })()",
             id, value);
    free(cdp_eval(c, expr, 10000));
}

bool web_waits_for_a_person(cdp_t *c)
{
    return cdp_wait(c,
                    "(async () => { await denham.busy; const s = denham.state; return !!s && (!!s.result || "
                    "(!s.chance && denham.seats[s.turn] === 'human' && (!denham.searching || "
                    "denham.searching.kind === 'analysis'))); })()",
                    WEB_WAIT_MS);
}

bool web_in_view(cdp_t *c, const char *selector)
{
    char expr[1024];
    snprintf(expr, sizeof expr,
             "(() => { const e = document.querySelector(`%s`); if (!e || !e.checkVisibility()) return false; "
             "const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && r.top >= -0.5 && r.left >= -0.5 "
             "&& r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5; })()",
             selector);
    return web_true(c, expr);
}

void web_says(cdp_t *c, const char *selector, const char *text)
{
    char expr[1024], now[1024];
    snprintf(expr, sizeof expr,
             "(() => { const e = document.querySelector(`%s`); return !!e && e.checkVisibility() && "
             "e.textContent.includes(`%s`); })()",
             selector, text);
    bool said = cdp_wait(c, expr, WEB_WAIT_MS);
    snprintf(expr, sizeof expr, "(() => { const e = document.querySelector(`%s`); return e ? e.textContent : 'none'; })()",
             selector);
    snprintf(now, sizeof now, "%s", web_text(c, expr));
    ck_assert_msg(said, "%s never said '%s' (it says '%s')", selector, text, now);
    if (!web_in_view(c, selector)) {
        snprintf(expr, sizeof expr,
                 "(() => { const r = document.querySelector(`%s`).getBoundingClientRect(); return `top ${r.top} bottom "
                 "${r.bottom} in ${innerWidth}x${innerHeight}, scrolled ${scrollY}`; })()",
                 selector);
        ck_abort_msg("%s says '%s' but is not inside the window: %s", selector, text, web_text(c, expr));
    }
}
