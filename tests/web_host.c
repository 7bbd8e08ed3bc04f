/* web_host.c: the board's server for the browser suites (web_host.h). */
#define _DEFAULT_SOURCE
#include "web_host.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define WAIT_MS 60000

bool web_static(void)
{
    const char *t = getenv("DENHAM_WEB_TRANSPORT");
    return t && strcmp(t, "static") == 0;
}

bool web_wants(int kind)
{
    if (!web_static())
        return true;
    const char *subset = getenv("DENHAM_WEB_SUBSET");
    if (subset && strcmp(subset, "ci") == 0)
        return kind == WEB_CI;
    return kind != WEB_SERVER;
}

bool web_host_start(served_t *s, const char *serve_args)
{
    if (!web_static())
        return served_start(s, serve_args);
    struct stat st;
    if (stat(WEB_STATIC_DIR "/index.html", &st) != 0) {
        fprintf(stderr, "browser tests: no %s (make web-static builds it)\n", WEB_STATIC_DIR);
        return false;
    }
    return static_start(s, WEB_STATIC_DIR, false);
}

int web_host_stop(served_t *s)
{
    pid_t pid = s->pid;
    int status = served_stop(s);
    /* Python's server ends by the signal (status -1); it starts nothing. */
    if (web_static())
        return s->pid == 0 ? 0 : -1;
    return status != 0 ? status : children_of(pid) != 0 ? -2 : 0;
}

void web_host_browser(cdp_t *c)
{
    if (!web_static())
        return;
    mkdir("build/screenshots", 0755);
    mkdir("build/screenshots/static", 0755);
    snprintf(c->shots, sizeof c->shots, "build/screenshots/static");
}

void web_page_setup(web_page_t *p, const char *serve_args)
{
    p->have_browser = cdp_browser() != NULL;
    if (!p->have_browser) {
        fprintf(stderr, "browser tests: no Chromium (make deps installs it): not run\n");
        return;
    }
    ck_assert_msg(web_host_start(&p->server, serve_args), "the board's server did not start");
    snprintf(p->base_url, sizeof p->base_url, "http://127.0.0.1:%d/", p->server.port);
    ck_assert_msg(cdp_start(&p->browser, 1280, 800), "Chromium did not start");
    web_host_browser(&p->browser);
    free(cdp_call(&p->browser, true, "Log.enable", NULL, 10000)); /* failed loads count as errors too */
}

void web_page_teardown(web_page_t *p)
{
    if (!p->have_browser)
        return;
    free(cdp_eval(&p->browser, "true", 10000)); /* the events still in the pipe */
    char errors[sizeof p->browser.errors];
    snprintf(errors, sizeof errors, "%s", cdp_errors(&p->browser));
    cdp_stop(&p->browser);
    ck_assert_msg(!errors[0], "the page reported errors:\n%.1500s", errors); /* check's messages are short */
    ck_assert_int_eq(web_host_stop(&p->server), 0);
}

const char *web_page_string(web_page_t *p, const char *expression) { return cdp_text(&p->browser, expression); }

bool web_page_true(web_page_t *p, const char *expression)
{
    char *v = cdp_eval(&p->browser, expression, 20000);
    bool yes = v && strcmp(v, "true") == 0;
    free(v);
    return yes;
}

void wpage_open(web_page_t *p, const char *url, const char *variant)
{
    ck_assert(cdp_navigate(&p->browser, "about:blank"));
    ck_assert(cdp_navigate(&p->browser, url));
    ck_assert_msg(cdp_wait(&p->browser, "document.body.dataset.ready === 'true'", WAIT_MS), "%s: the app did not start: %s",
                  url, web_page_string(p, "document.getElementById('error').textContent"));
    if (variant)
        ck_assert_str_eq(web_page_string(p, "denham.layout.variant"), variant);
}

void wpage_open_variant(web_page_t *p, const char *variant)
{
    char url[160];
    snprintf(url, sizeof url, "%s#%s", p->base_url, variant);
    wpage_open(p, url, variant);
}

void wpage_set_control(web_page_t *p, const char *id, const char *value)
{
    char expr[256];
    snprintf(expr, sizeof expr,
             "(() => { const e = document.getElementById('%s'); e.value = '%s'; "
             "e.dispatchEvent(new Event('change')); return true; })()",
             id, value);
    free(cdp_eval(&p->browser, expr, 10000));
}

void wpage_click(web_page_t *p, const char *selector)
{
    ck_assert_msg(cdp_click_on(&p->browser, selector), "nothing matches %s", selector);
}

bool wpage_waits_for_a_person(web_page_t *p)
{
    return cdp_wait(&p->browser,
                    "(async () => { await denham.busy; const s = denham.state; return !!s && (!!s.result || "
                    "(!s.chance && denham.seats[s.turn] === 'human' && (!denham.searching || "
                    "denham.searching.kind === 'analysis'))); })()",
                    WAIT_MS);
}
