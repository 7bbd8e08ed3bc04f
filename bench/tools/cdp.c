/* cdp.c: a headless Chromium over the DevTools pipe (see cdp.h), for the
 * tests and benchmarks only. Knows no page of ours: it sends what the
 * caller evaluates. */
#define _GNU_SOURCE /* pipe2, mkdtemp */
#include "cdp.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../engine/core/timeman.h"
#include "json_check.h"

const char *cdp_browser(void)
{
    const char *env = getenv("CHROMIUM");
    if (env && *env)
        return access(env, X_OK) == 0 ? env : NULL;
    static const char *const paths[] = {"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
        if (access(paths[i], X_OK) == 0)
            return paths[i];
    return NULL;
}

/* JSON string escaping of s (malloc'd, quotes included). */
static char *quote(const char *s)
{
    size_t n = strlen(s);
    char *out = malloc(6 * n + 3), *o = out;
    if (!out)
        return NULL;
    *o++ = '"';
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\')
            *o++ = '\\', *o++ = (char)*c;
        else if (*c == '\n')
            *o++ = '\\', *o++ = 'n';
        else if (*c < 0x20)
            o += sprintf(o, "\\u%04x", *c);
        else
            *o++ = (char)*c;
    }
    *o++ = '"';
    *o = 0;
    return out;
}

/* The next whole message (malloc'd), or NULL at the deadline. */
static char *read_message(cdp_t *c, int64_t deadline)
{
    for (;;) {
        char *nul = c->len ? memchr(c->buf, 0, c->len) : NULL;
        if (nul) {
            size_t n = (size_t)(nul - c->buf);
            char *msg = malloc(n + 1);
            memcpy(msg, c->buf, n + 1);
            memmove(c->buf, nul + 1, c->len - n - 1);
            c->len -= n + 1;
            return msg;
        }
        int64_t left = deadline - timeman_now_ms();
        if (left <= 0)
            return NULL;
        struct pollfd p = {c->from_fd, POLLIN, 0};
        if (poll(&p, 1, (int)left) <= 0)
            continue;
        if (c->len + 65536 > c->cap) {
            c->cap = (c->len + 65536) * 2;
            c->buf = realloc(c->buf, c->cap);
        }
        ssize_t got = read(c->from_fd, c->buf + c->len, 65536);
        if (got <= 0)
            return NULL;
        c->len += (size_t)got;
    }
}

/* Keeps the text of an event that reports an error in the page. */
static void note_event(cdp_t *c, const char *msg)
{
    char method[64], kind[32] = "", text[512] = "";
    if (!json_string_at(json_member(msg, "method"), method, sizeof method))
        return;
    const char *params = json_member(msg, "params");
    if (strcmp(method, "Runtime.exceptionThrown") == 0) {
        const char *d = json_member(params, "exceptionDetails");
        if (!json_string_at(json_member(json_member(d, "exception"), "description"), text, sizeof text))
            json_string_at(json_member(d, "text"), text, sizeof text);
    } else if (strcmp(method, "Runtime.consoleAPICalled") == 0) {
        json_string_at(json_member(params, "type"), kind, sizeof kind);
        if (strcmp(kind, "error") != 0 && strcmp(kind, "assert") != 0)
            return;
        const char *arg = json_element(json_member(params, "args"), 0);
        if (!json_string_at(json_member(arg, "value"), text, sizeof text))
            json_string_at(json_member(arg, "description"), text, sizeof text);
    } else if (strcmp(method, "Log.entryAdded") == 0) {
        const char *entry = json_member(params, "entry");
        json_string_at(json_member(entry, "level"), kind, sizeof kind);
        if (strcmp(kind, "error") != 0)
            return;
        char url[200] = "";
        json_string_at(json_member(entry, "text"), text, sizeof text - sizeof url);
        if (json_string_at(json_member(entry, "url"), url, sizeof url)) {
            size_t len = strlen(text);
            snprintf(text + len, sizeof text - len, " (%s)", url);
        }
    } else {
        return;
    }
    size_t len = strlen(c->errors);
    snprintf(c->errors + len, sizeof c->errors - len, "%s: %s\n", method, text[0] ? text : "(no text)");
}

const char *cdp_errors(cdp_t *c) { return c->errors; }

void cdp_clear_errors(cdp_t *c)
{
    c->errors[0] = 0;
}

char *cdp_call(cdp_t *c, bool to_page, const char *method, const char *params, int timeout_ms)
{
    int id = ++c->next_id;
    size_t cap = strlen(method) + (params ? strlen(params) : 2) + 256;
    char *msg = malloc(cap);
    int n = snprintf(msg, cap, "{\"id\":%d,\"method\":\"%s\",\"params\":%s%s%s%s}", id, method, params ? params : "{}",
                     to_page ? ",\"sessionId\":\"" : "", to_page ? c->session : "", to_page ? "\"" : "");
    bool sent = write(c->to_fd, msg, (size_t)n) == n && write(c->to_fd, "", 1) == 1;
    free(msg);
    if (!sent)
        return NULL;
    int64_t deadline = timeman_now_ms() + timeout_ms;
    for (;;) {
        char *reply = read_message(c, deadline);
        if (!reply)
            return NULL;
        const char *rid = json_member(reply, "id");
        if (rid && atoi(rid) == id)
            return reply;
        if (!rid)
            note_event(c, reply);
        free(reply); /* an event, or another answer */
    }
}

static bool call_ok(cdp_t *c, bool to_page, const char *method, const char *params)
{
    char *r = cdp_call(c, to_page, method, params, 20000);
    bool ok = r && !json_member(r, "error");
    free(r);
    return ok;
}

bool cdp_start(cdp_t *c, int width, int height)
{
    *c = (cdp_t){0};
    const char *browser = cdp_browser();
    if (!browser)
        return false;
    snprintf(c->profile, sizeof c->profile, "/tmp/denham-chromium-XXXXXX");
    if (!mkdtemp(c->profile))
        return false;
    int down[2], up[2];
    if (pipe2(down, O_CLOEXEC) != 0 || pipe2(up, O_CLOEXEC) != 0)
        return false;
    char size[64], profile[300];
    snprintf(size, sizeof size, "--window-size=%d,%d", width, height);
    snprintf(profile, sizeof profile, "--user-data-dir=%s", c->profile);
    c->pid = fork();
    if (c->pid == 0) {
        /* The pipe ends may already be 3 or 4, with close-on-exec set:
         * move them out of the way first, then into place. */
        int r = fcntl(down[0], F_DUPFD, 10), w = fcntl(up[1], F_DUPFD, 10);
        dup2(r, 3);
        dup2(w, 4);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execl(browser, "chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
              "--hide-scrollbars", "--mute-audio", "--disable-background-networking", profile, size, "about:blank",
              (char *)NULL);
        _exit(127);
    }
    close(down[0]);
    close(up[1]);
    c->to_fd = down[1];
    c->from_fd = up[0];
    if (c->pid < 0)
        return false;
    /* The page the browser opened, attached to in flat mode. */
    char *targets = cdp_call(c, false, "Target.getTargets", NULL, 30000);
    const char *list = targets ? json_member(json_member(targets, "result"), "targetInfos") : NULL;
    char target[128] = "";
    for (int i = 0; list && i < json_length(list); i++) {
        char type[32];
        const char *t = json_element(list, i);
        if (json_string_at(json_member(t, "type"), type, sizeof type) && strcmp(type, "page") == 0 &&
            json_string_at(json_member(t, "targetId"), target, sizeof target))
            break;
    }
    free(targets);
    if (!target[0])
        return false;
    char params[256];
    snprintf(params, sizeof params, "{\"targetId\":\"%s\",\"flatten\":true}", target);
    char *attached = cdp_call(c, false, "Target.attachToTarget", params, 20000);
    bool ok = attached && json_string_at(json_member(json_member(attached, "result"), "sessionId"), c->session,
                                         sizeof c->session);
    free(attached);
    snprintf(params, sizeof params, "{\"width\":%d,\"height\":%d,\"deviceScaleFactor\":1,\"mobile\":false}", width,
             height);
    return ok && call_ok(c, true, "Page.enable", NULL) && call_ok(c, true, "Runtime.enable", NULL) &&
           call_ok(c, true, "Emulation.setDeviceMetricsOverride", params);
}

void cdp_stop(cdp_t *c)
{
    if (c->pid > 0) {
        char *r = cdp_call(c, false, "Browser.close", NULL, 3000);
        free(r);
        for (int i = 0; i < 50; i++) {
            if (waitpid(c->pid, NULL, WNOHANG) == c->pid) {
                c->pid = 0;
                break;
            }
            usleep(100 * 1000);
        }
        if (c->pid > 0) {
            kill(c->pid, SIGKILL);
            waitpid(c->pid, NULL, 0);
        }
    }
    if (c->to_fd > 0)
        close(c->to_fd);
    if (c->from_fd > 0)
        close(c->from_fd);
    free(c->buf);
    if (c->profile[0]) {
        char cmd[400];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", c->profile);
        if (system(cmd) != 0)
            fprintf(stderr, "cdp: could not remove %s\n", c->profile);
    }
    *c = (cdp_t){0};
}

char *cdp_eval(cdp_t *c, const char *expression, int timeout_ms)
{
    char *q = quote(expression);
    size_t cap = strlen(q) + 128;
    char *params = malloc(cap);
    snprintf(params, cap, "{\"expression\":%s,\"awaitPromise\":true,\"returnByValue\":true}", q);
    free(q);
    char *r = cdp_call(c, true, "Runtime.evaluate", params, timeout_ms);
    free(params);
    if (!r)
        return NULL;
    const char *result = json_member(r, "result");
    const char *value = result ? json_member(json_member(result, "result"), "value") : NULL;
    if (!value || json_member(result, "exceptionDetails")) {
        free(r);
        return NULL;
    }
    const char *end = json_skip(value);
    char *out = strndup(value, (size_t)(end - value));
    free(r);
    return out;
}

bool cdp_wait(cdp_t *c, const char *expression, int timeout_ms)
{
    int64_t deadline = timeman_now_ms() + timeout_ms;
    while (timeman_now_ms() < deadline) {
        char *v = cdp_eval(c, expression, 10000);
        bool yes = v && strcmp(v, "true") == 0;
        free(v);
        if (yes)
            return true;
        usleep(50 * 1000);
    }
    return false;
}

bool cdp_navigate(cdp_t *c, const char *url)
{
    char *q = quote(url), params[1024];
    snprintf(params, sizeof params, "{\"url\":%s}", q);
    free(q);
    return call_ok(c, true, "Page.navigate", params) && cdp_wait(c, "document.readyState === 'complete'", 20000);
}

bool cdp_mouse(cdp_t *c, const char *type, double x, double y)
{
    char params[256];
    snprintf(params, sizeof params, "{\"type\":\"%s\",\"x\":%.1f,\"y\":%.1f,\"button\":\"left\",\"clickCount\":%d}",
             type, x, y, strcmp(type, "mouseMoved") != 0);
    return call_ok(c, true, "Input.dispatchMouseEvent", params);
}

bool cdp_click(cdp_t *c, double x, double y)
{
    return cdp_mouse(c, "mouseMoved", x, y) && cdp_mouse(c, "mousePressed", x, y) &&
           cdp_mouse(c, "mouseReleased", x, y);
}

bool cdp_centre(cdp_t *c, const char *selector, double *x, double *y)
{
    char *q = quote(selector), expr[1024];
    snprintf(expr, sizeof expr,
             "(() => { const e = document.querySelector(%s); if (!e) return null; e.scrollIntoView({block: 'nearest'}); "
             "let r = e.getBoundingClientRect(); const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2); "
             "if (top !== e && !e.contains(top)) { e.scrollIntoView({block: 'center'}); r = e.getBoundingClientRect(); } "
             "return [r.left + r.width / 2, r.top + r.height / 2]; })()",
             q);
    free(q);
    char *v = cdp_eval(c, expr, 10000);
    bool ok = v && sscanf(v, "[%lf,%lf]", x, y) == 2;
    free(v);
    return ok;
}

/* Watches the next press on the page: whether it lands in the element the
 * click is meant for, or in one the selector matches when the press comes
 * (the board draws its cells anew, as the same cells). */
static bool arm_press_check(cdp_t *c, const char *selector)
{
    char *q = quote(selector), expr[2048];
    snprintf(expr, sizeof expr,
             "(() => { const e = document.querySelector(%s); if (!e) return false; window.__cdpPress = null; "
             "document.addEventListener('pointerdown', (ev) => { const t = ev.target; window.__cdpPress = "
             "(e.contains(t) || t.closest(%s) ? 'hit ' : t.closest('button,input,select,textarea,a,label,[data-cell],[role=button]') "
             "? 'control ' : 'miss ') + (t.id ? '#' + t.id : t.tagName); }, {once: true, capture: true}); "
             "return true; })()",
             q, q);
    free(q);
    char *v = cdp_eval(c, expr, 10000);
    bool ok = v && strcmp(v, "true") == 0;
    free(v);
    return ok;
}

/* The press of a click is sent apart from the reading of the element's
 * place, and the page may move the element meanwhile (an engine's answer
 * redrawing what stands above it): a CI run's board test most likely lost
 * a step of a replay so, its two clicks on "next" giving one step. A press
 * that reached nothing a person could use is sent again where the element
 * is now; one that reached another control fails the click, said on
 * stderr. */
bool cdp_click_on(cdp_t *c, const char *selector)
{
    for (int attempt = 0; attempt < 3; attempt++) {
        double x, y;
        if (!cdp_centre(c, selector, &x, &y) || !arm_press_check(c, selector) || !cdp_click(c, x, y))
            return false;
        /* Not cdp_text: its buffer may hold the caller's text (web_type's). */
        char *press = cdp_eval(c, "window.__cdpPress", 10000);
        bool miss = press && strncmp(press, "\"miss ", 6) == 0, control = press && strncmp(press, "\"control ", 9) == 0;
        if (miss || control)
            fprintf(stderr, "cdp: the click on %s at (%.0f, %.0f) landed on %s instead: the page moved\n", selector, x,
                    y, press);
        free(press);
        if (!miss)
            return !control; /* it reached the element (or the page saw no press: nothing to go by) */
        usleep(100 * 1000);
    }
    return false;
}

const char *cdp_text(cdp_t *c, const char *expression)
{
    static char out[65536];
    char *v = cdp_eval(c, expression, 20000);
    out[0] = 0;
    if (v && !json_string_at(v, out, sizeof out))
        snprintf(out, sizeof out, "%s", v);
    free(v);
    return out;
}

bool cdp_window(cdp_t *c, int width, int height)
{
    char params[160];
    snprintf(params, sizeof params, "{\"width\":%d,\"height\":%d,\"deviceScaleFactor\":1,\"mobile\":%s}", width,
             height, width < 600 ? "true" : "false");
    return call_ok(c, true, "Emulation.setDeviceMetricsOverride", params);
}

static int b64(char ch)
{
    if (ch >= 'A' && ch <= 'Z') return ch - 'A';
    if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9') return ch - '0' + 52;
    return ch == '+' ? 62 : ch == '/' ? 63 : -1;
}

bool cdp_screenshot(cdp_t *c, const char *path)
{
    char *r = cdp_call(c, true, "Page.captureScreenshot", "{\"format\":\"png\"}", 30000);
    const char *data = r ? json_member(json_member(r, "result"), "data") : NULL;
    if (!data || *data != '"') {
        free(r);
        return false;
    }
    static const char shots[] = "build/screenshots/";
    char moved[512];
    if (c->shots[0] && strncmp(path, shots, sizeof shots - 1) == 0) {
        snprintf(moved, sizeof moved, "%s/%s", c->shots, path + sizeof shots - 1);
        path = moved;
    }
    FILE *f = fopen(path, "wb");
    int bits = 0, have = 0;
    for (const char *d = data + 1; f && *d && *d != '"'; d++) {
        int v = b64(*d);
        if (v < 0)
            continue;
        bits = (bits << 6 | v) & 0xffffff; /* at most 24 bits pending */
        have += 6;
        if (have >= 8) {
            have -= 8;
            fputc((bits >> have) & 0xff, f);
        }
    }
    bool ok = f && fclose(f) == 0;
    free(r);
    return ok;
}

bool cdp_set_file(cdp_t *c, const char *selector, const char *path)
{
    char *doc = cdp_call(c, true, "DOM.getDocument", NULL, 10000);
    const char *root = doc ? json_member(json_member(json_member(doc, "result"), "root"), "nodeId") : NULL;
    int root_id = root ? atoi(root) : 0;
    free(doc);
    char *q = quote(selector), params[1024];
    snprintf(params, sizeof params, "{\"nodeId\":%d,\"selector\":%s}", root_id, q);
    free(q);
    char *found = cdp_call(c, true, "DOM.querySelector", params, 10000);
    const char *node = found ? json_member(json_member(found, "result"), "nodeId") : NULL;
    int node_id = node ? atoi(node) : 0;
    free(found);
    if (!node_id)
        return false;
    q = quote(path);
    snprintf(params, sizeof params, "{\"files\":[%s],\"nodeId\":%d}", q, node_id);
    free(q);
    return call_ok(c, true, "DOM.setFileInputFiles", params);
}
