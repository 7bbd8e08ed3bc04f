/* web_layout.c: the board page's layout checked from the page (see
 * web_layout.h). The check itself is tests/web_layout.js, read once from
 * the source tree (the suites run from the repository's top, as the
 * Makefile runs them). */
#define _DEFAULT_SOURCE
#include "web_layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench/tools/json_check.h"
#include "helpers.h"

static const char *check_script(void)
{
    static char js[16384];
    if (!js[0]) {
        FILE *f = fopen("tests/web_layout.js", "r");
        ck_assert_msg(f, "tests/web_layout.js: not found (run the suites from the repository's top)");
        size_t n = fread(js, 1, sizeof js - 1, f);
        fclose(f);
        ck_assert(n > 0 && n < sizeof js - 1);
        js[n] = 0;
    }
    return js;
}

const char *web_layout_problems(cdp_t *c)
{
    static char out[4096];
    char *v = cdp_eval(c, check_script(), 20000);
    /* A check that threw (or a page gone) is a problem, never "none". */
    if (!v || !json_string_at(v, out, sizeof out))
        snprintf(out, sizeof out, "the layout check did not run (%s)", v ? v : "it threw or timed out");
    free(v);
    return out;
}

void web_layout_check(cdp_t *c, const char *where_now, bool both)
{
    char where[256]; /* a copy: the caller's text may be cdp_text's buffer */
    snprintf(where, sizeof where, "%s", where_now);
    int width = 0, height = 0;
    sscanf(cdp_text(c, "innerWidth + ' ' + innerHeight"), "%d %d", &width, &height);
    ck_assert_msg(width > 0, "%s: no window size", where);
    static char found[2][4096];
    snprintf(found[0], sizeof found[0], "%s", web_layout_problems(c));
    /* The other size: a phone's from a desktop's, a desktop's from a phone's. */
    bool phone = width < 600;
    found[1][0] = 0;
    if (both) {
        cdp_window(c, phone ? 1280 : 390, phone ? 800 : 844);
        snprintf(found[1], sizeof found[1], "%s", web_layout_problems(c));
        cdp_window(c, width, height);
    }
    ck_assert_msg(!found[0][0] && !found[1][0], "%s: at %dx%d:\n%s\nat %s:\n%s", where, width, height, found[0],
                  phone ? "1280x800" : "390x844", found[1]);
}
