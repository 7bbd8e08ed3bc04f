/* web_host.c: the board's server for the browser suites (web_host.h). */
#define _DEFAULT_SOURCE
#include "web_host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
    return static_start(s, WEB_STATIC_DIR);
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
