/* test_web_learn.c: issue 54's parts of the web app in a real browser (a
 * headless Chromium, as in test_web.c): the game clocks (a person's flag
 * falls and the game ends; Denham plays on a clock and its `go` carries
 * every player's time; a roll of the die earns no increment), "How to play"
 * (the rules pages built into the binary, opened at the variant's section,
 * closed with Esc and with its button; Markdown shown safely), and the
 * accessible name of every control (through the DevTools accessibility
 * tree), in each family of game at a desktop's and a phone's size. Every
 * test fails on an error in the page (an uncaught exception, an unhandled
 * rejection, console.error, a failed load). Screenshots go to
 * build/screenshots/learn-*.png.
 * It drives the page as a person would (clicks, keys, form controls) and
 * reads window.denham only to know what the app holds; it reaches into no
 * other test file (the few helpers it shares with test_web.c are copied). */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../bench/tools/cdp.h"
#include "../bench/tools/http_client.h"
#include "../bench/tools/json_check.h"
#include "helpers.h"
#include "web_layout.h"
#include "web_page.h"
#include "web_host.h"

#define WAIT_MS 60000

static served_t server;
static cdp_t browser;
static bool have_browser;
static char base_url[64];

static void learn_setup(void)
{
    have_browser = web_fixture_start(&server, &browser, base_url, sizeof base_url, "--max-sessions 4", true);
}

static void learn_teardown(void)
{
    if (have_browser)
        web_fixture_stop(&server, &browser, false); /* each test asserts its page's errors itself */
}

/* A string the page evaluates to (static; "" when none). */
static const char *page_string(const char *expression)
{
    return cdp_text(&browser, expression);
}

static bool page_true(const char *expression)
{
    char *v = cdp_eval(&browser, expression, 20000);
    bool yes = v && strcmp(v, "true") == 0;
    free(v);
    return yes;
}

/* No error in the page so far (one round trip first reads pending events). */
static void assert_no_page_errors(void)
{
    free(cdp_eval(&browser, "1", 10000));
    const char *errors = cdp_errors(&browser);
    ck_assert_msg(errors[0] == 0, "errors in the page:\n%s", errors);
}

static void set_size(int width, int height)
{
    cdp_window(&browser, width, height);
}

static void open_variant(const char *variant)
{
    char url[128];
    snprintf(url, sizeof url, "%s#%s", base_url, variant);
    ck_assert(cdp_navigate(&browser, "about:blank"));
    ck_assert(cdp_navigate(&browser, url));
    ck_assert_msg(cdp_wait(&browser, "document.body.dataset.ready === 'true'", WAIT_MS), "%s: the app did not start: %s",
                  variant, page_string("document.getElementById('error').textContent"));
    ck_assert_str_eq(page_string("denham.layout.variant"), variant);
}

/* Sets a form control's value as a person would, firing its change. */
static void set_control(const char *id, const char *value)
{
    web_set_control(&browser, id, value);
}

static void click(const char *selector)
{
    ck_assert_msg(cdp_click_on(&browser, selector), "nothing matches %s", selector);
}

/* A key pressed and released, sent to whatever has the focus. */
static void press_key(const char *key, int code)
{
    char params[200];
    for (int k = 0; k < 2; k++) {
        snprintf(params, sizeof params, "{\"type\":\"%s\",\"key\":\"%s\",\"code\":\"%s\",\"windowsVirtualKeyCode\":%d}",
                 k ? "keyUp" : "keyDown", key, key, code);
        free(cdp_call(&browser, true, "Input.dispatchKeyEvent", params, 10000));
    }
}

/* What the app is doing, for a failure's message. */
static const char *page_state(void)
{
    return page_string("JSON.stringify({moves: denham.game.moves.join(' '), turn: denham.state && denham.state.turn, "
                       "chance: denham.state && denham.state.chance, result: denham.state && denham.state.result, "
                       "seats: denham.seats, searching: denham.searching && denham.searching.kind, go: "
                       "denham.clock.lastGo, error: document.getElementById('error').textContent, status: "
                       "document.getElementById('status').textContent, log: "
                       "document.getElementById('log').textContent.slice(-400)})");
}

static bool page_waits_for_a_person(void)
{
    return web_waits_for_a_person(&browser);
}

/* JavaScript: true when the element matching the selector (a string
 * literal) shows inside the window, at least `part` of its area. */
#define IN_VIEW(sel)                                                                                                  \
    "(() => { const e = document.querySelector(" sel "); if (!e) return false; const r = e.getBoundingClientRect(); " \
    "return r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && "                \
    "r.right <= innerWidth; })()"

/* ---- clocks ---- */

/* A custom time control chosen in the Clock panel, as a person would. */
static void choose_time_control(const char *base_s, const char *inc_s)
{
    set_control("time-control", "custom");
    ck_assert(page_true("!document.getElementById('time-custom').hidden"));
    set_control("time-base", base_s);
    set_control("time-inc", inc_s);
}

/* A person's flag falls: the other side wins on time, the result on
 * screen, the board and the move box refuse moves. */
START_TEST(a_persons_flag_falls)
{
    if (!have_browser)
        return;
    static const int sizes[][2] = {{1280, 800}, {390, 844}};
    const int w = sizes[_i][0], h = sizes[_i][1];
    set_size(w, h);
    open_variant("brax");
    set_control("preset", "people");
    ck_assert_msg(page_waits_for_a_person(), "the page is not waiting for a person: %s", page_state());
    ck_assert(page_true("document.getElementById('clocks').hidden")); /* no clock without a time control */
    choose_time_control("2", "0");
    /* The running clock shows near the board, inside the window. */
    ck_assert(cdp_wait(&browser, "document.querySelector('#clocks .clock.running') !== null", 5000));
    ck_assert_msg(page_true(IN_VIEW("'#clocks .clock.running'")), "%dx%d: the running clock is not in view", w, h);
    ck_assert_msg(page_true("(() => { const c = document.getElementById('clocks').getBoundingClientRect(), "
                            "b = document.querySelector('#board svg').getBoundingClientRect(); "
                            "return c.bottom <= b.top + 1 && b.top - c.bottom < 80; })()"),
                  "%dx%d: the clocks are not just above the board", w, h);
    char first[32], second[32], want[128];
    snprintf(first, sizeof first, "%s", page_string("denham.layout.seats[0].name"));
    snprintf(second, sizeof second, "%s", page_string("denham.layout.seats[1].name"));
    ck_assert_str_eq(page_string("document.querySelector('#clocks .clock.running .clock-name').textContent"), first);
    char path[96];
    snprintf(path, sizeof path, "build/screenshots/learn-clock-running-%d.png", w);
    ck_assert(cdp_screenshot(&browser, path));
    /* Two seconds later the first player's flag has fallen. */
    ck_assert_msg(cdp_wait(&browser, "!document.getElementById('banner').hidden", 10000), "no result shown");
    const char *banner = page_string("document.getElementById('banner').textContent");
    snprintf(want, sizeof want, "%c%s won: %s ran out of time.", second[0] - 'a' + 'A', second + 1, first);
    ck_assert_msg(strcmp(banner, want) == 0, "banner '%s', not '%s'", banner, want);
    ck_assert_msg(page_true(IN_VIEW("'#banner'")), "%dx%d: the result is not in view", w, h);
    ck_assert_str_eq(page_string("document.querySelector('#clocks .clock.flagged .clock-name').textContent"), first);
    ck_assert_str_eq(page_string("document.querySelector('#clocks .clock.flagged .clock-time').textContent"), "0.0");
    ck_assert(page_true("document.querySelector('#clocks .clock.running') === null")); /* every clock stopped */
    snprintf(path, sizeof path, "build/screenshots/learn-clock-flag-%d.png", w);
    ck_assert(cdp_screenshot(&browser, path));
    /* The board refuses a move: the cells of a legal one clicked, nothing
     * selected, nothing played. */
    char sel[64], cell[16];
    snprintf(cell, sizeof cell, "%s", page_string("denham.legal[0].clicks[0]"));
    snprintf(sel, sizeof sel, "[data-cell=\"%s\"]", cell);
    click(sel);
    snprintf(cell, sizeof cell, "%s", page_string("denham.legal[0].clicks[1]"));
    snprintf(sel, sizeof sel, "[data-cell=\"%s\"]", cell);
    click(sel);
    /* and so does the move box. */
    free(cdp_eval(&browser, "(() => { const i = document.getElementById('move-input'); i.value = denham.legal[0].move; "
                            "i.form.requestSubmit(); return true; })()",
                  10000));
    usleep(500 * 1000);
    ck_assert(page_true("(async () => { await denham.busy; return denham.game.moves.length === 0; })()"));
    ck_assert(page_true("denham.board.selection.length === 0 && !document.querySelector('#board .selected')"));
    ck_assert_str_eq(page_string("document.getElementById('banner').textContent"), banner);
    assert_no_page_errors();
}
END_TEST

/* Denham plays on a clock: its `go` carries both players' times and
 * increments (no movetime), its clock runs while it thinks and gets the
 * increment after its move. */
START_TEST(denham_plays_on_a_clock)
{
    if (!have_browser)
        return;
    open_variant("brandubh");
    set_control("movetime", "60000"); /* ignored while a clock is on */
    set_control("preset", "first");
    ck_assert_msg(page_waits_for_a_person(), "the page is not waiting for a person: %s", page_state());
    choose_time_control("5", "0.25");
    ck_assert(cdp_wait(&browser, "document.querySelector('#clocks .clock.running') !== null", 5000));
    /* The person's move, typed. */
    free(cdp_eval(&browser, "(() => { const i = document.getElementById('move-input'); i.value = 'd2c2'; "
                            "i.form.requestSubmit(); return true; })()",
                  10000));
    ck_assert(cdp_wait(&browser, "denham.game.moves.length >= 2", 20000));
    ck_assert_msg(page_waits_for_a_person(), "the page is not waiting for a person: %s", page_state());
    const char *go = page_string("denham.clock.lastGo");
    int wtime = -1, btime = -1, winc = -1, binc = -1;
    ck_assert_msg(sscanf(go, "go wtime %d btime %d winc %d binc %d", &wtime, &btime, &winc, &binc) == 4, "go: '%s'",
                  go);
    ck_assert_msg(!strstr(go, "movetime"), "%s", go);
    ck_assert_int_eq(winc, 250);
    ck_assert_int_eq(binc, 250);
    /* The person's clock had run for their move and got the increment;
     * Denham's was full when it was asked. */
    ck_assert_msg(wtime > 3000 && wtime <= 5250, "%s", go);
    ck_assert_msg(btime > 4500 && btime <= 5000, "%s", go);
    /* After Denham's move its clock shows less than it had, plus the
     * increment, and the person's clock runs. */
    int left = atoi(page_string("String(Math.round(denham.clock.left[1]))"));
    ck_assert_msg(left < btime + 250 && left > 0, "Denham's clock %d after go %s", left, go);
    ck_assert_str_eq(page_string("String(denham.clock.incs)"), "1,1");
    ck_assert_str_eq(page_string("document.querySelector('#clocks .clock.running').dataset.seat"), "0");
    ck_assert(cdp_screenshot(&browser, "build/screenshots/learn-clock-denham.png"));
    assert_no_page_errors();
}
END_TEST

/* The person's move: the first legal one, typed into the move box. */
static void person_types_a_move(void)
{
    ck_assert_msg(page_waits_for_a_person(), "the page is not waiting for a person: %s", page_state());
    web_layout_check(&browser, page_string("denham.layout.variant + ' at ply ' + denham.game.moves.length"), true);
    free(cdp_eval(&browser, "(() => { const i = document.getElementById('move-input'); i.value = denham.legal[0].move; "
                            "i.form.requestSubmit(); return true; })()",
                  10000));
}

/* Four players on a clock (a person for the red team, Denham for the
 * blue): `go` in the N-player form. In Jinxx against Denham the die's
 * rolls (and rolling again) earn no increment: each player's increments
 * are the moves they made. */
START_TEST(four_players_and_the_die_on_a_clock)
{
    if (!have_browser)
        return;
    open_variant("brax-4p");
    choose_time_control("20", "0.1");
    set_control("preset", "first"); /* South and North a person, West and East Denham */
    person_types_a_move();
    ck_assert_msg(cdp_wait(&browser, "denham.game.moves.length >= 2 && /^go p1time/.test(denham.clock.lastGo)", WAIT_MS),
                  "%s", page_state());
    ck_assert_msg(page_waits_for_a_person(), "the page is not waiting for a person: %s", page_state());
    const char *go = page_string("denham.clock.lastGo");
    int t[4], inc[4];
    ck_assert_msg(sscanf(go, "go p1time %d p2time %d p3time %d p4time %d p1inc %d p2inc %d p3inc %d p4inc %d", &t[0],
                         &t[1], &t[2], &t[3], &inc[0], &inc[1], &inc[2], &inc[3]) == 8,
                  "go: '%s'", go);
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(inc[i], 100);
        ck_assert_msg(t[i] > 0 && t[i] <= 20100, "%s", go);
    }
    /* South had moved (its time less its thinking, plus the increment);
     * West's clock ran only since then; North's and East's had not run. */
    ck_assert_msg(t[0] < 20100 && t[1] > 15000 && t[1] <= 20000 && t[2] == 20000 && t[3] == 20000, "%s", go);
    ck_assert_str_eq(page_string("String(document.querySelectorAll('#clocks .clock').length)"), "4");
    ck_assert(cdp_screenshot(&browser, "build/screenshots/learn-clock-4p.png"));

    open_variant("jinxx");
    choose_time_control("60", "0.5");
    set_control("preset", "first");
    for (int i = 0; i < 8 && !page_true("!!denham.state.result"); i++) {
        char expr[96];
        int before = atoi(page_string("String(denham.game.moves.length)"));
        person_types_a_move();
        snprintf(expr, sizeof expr, "denham.game.moves.length > %d || !!denham.state.result", before);
        ck_assert_msg(cdp_wait(&browser, expr, WAIT_MS), "%s", page_state());
    }
    ck_assert_msg(page_waits_for_a_person(), "the page is not waiting for a person: %s", page_state());
    /* The moves of each player: every move but a face of the die and
     * `reroll` (after which the same player rolls again), South first;
     * a player's turn ends with such a move. */
    ck_assert_msg(page_true("(() => { const own = denham.game.moves.filter((m) => !/^(S|M|L|SM|SL|ML)$/.test(m) && "
                            "m !== 'reroll'); const want = [Math.ceil(own.length / 2), Math.floor(own.length / 2)]; "
                            "return own.length >= 4 && String(denham.clock.incs) === String(want); })()"),
                  "increments and moves: %s", page_string("String(denham.clock.incs) + ' for ' + denham.game.moves.join(' ')"));
    ck_assert(page_true("/^go wtime \\d+ btime \\d+ winc 500 binc 500$/.test(denham.clock.lastGo)"));
    assert_no_page_errors();
}
END_TEST

/* The clocks stand still while Analyse is ticked (the time left unchanged)
 * and in the replay of a game. */
START_TEST(clocks_stop_in_replay_and_analysis)
{
    if (!have_browser)
        return;
    open_variant("brandubh");
    set_control("preset", "people");
    ck_assert_msg(page_waits_for_a_person(), "the page is not waiting for a person: %s", page_state());
    choose_time_control("60", "0");
    ck_assert(cdp_wait(&browser, "document.querySelector('#clocks .clock.running') !== null", 5000));
    /* Analysis: the clock stops while the box is ticked. */
    click("#analyse");
    ck_assert(cdp_wait(&browser, "document.getElementById('clocks').dataset.state === 'stopped'", 5000));
    const char *before = page_string("String(denham.clock.left)");
    char was[64];
    snprintf(was, sizeof was, "%s", before);
    usleep(600 * 1000);
    ck_assert_str_eq(page_string("String(denham.clock.left)"), was);
    click("#analyse");
    ck_assert(cdp_wait(&browser, "document.getElementById('clocks').dataset.state === 'running'", 5000));
    ck_assert_msg(page_waits_for_a_person(), "the page is not waiting for a person: %s", page_state());
    /* Replay of a pasted games line: no clock runs. */
    free(cdp_eval(&browser, "(() => { document.getElementById('games-paste').value = '1\\tbrandubh\\ta\\tb\\t0-1\\tx\\t"
                            "random\\tstartpos moves d2c2 d3d2'; document.querySelector('details:has(#games-load)')"
                            ".open = true; return true; })()",
                  10000));
    click("#games-load");
    ck_assert(cdp_wait(&browser, "(async () => { await denham.busy; return denham.view === 0; })()", WAIT_MS));
    ck_assert(cdp_wait(&browser, "document.getElementById('clocks').dataset.state === 'stopped'", 5000));
    assert_no_page_errors();
}
END_TEST

/* ---- how to play ---- */

static void open_rules(void)
{
    click("#how-to-play");
    ck_assert_msg(cdp_wait(&browser,
                           "(() => { const p = document.getElementById('rules-panel'); return !!p && !p.hidden && "
                           "document.querySelectorAll('#rules-body p').length > 3; })()",
                           10000),
                  "the rules did not show");
}

/* How to play, in Brax at both sizes: the rules beside the board, in view,
 * with the variant's own points; closed with Esc and with its button. */
START_TEST(how_to_play_brax)
{
    if (!have_browser)
        return;
    static const int sizes[][2] = {{1280, 800}, {390, 844}};
    const int w = sizes[_i][0], h = sizes[_i][1];
    set_size(w, h);
    open_variant("brax");
    ck_assert_msg(page_true(IN_VIEW("'#how-to-play'")), "%dx%d: How to play is not in view", w, h);
    open_rules();
    ck_assert(page_true(IN_VIEW("'#rules-panel'")));
    ck_assert_str_eq(page_string("document.getElementById('rules-panel').dataset.page"), "brax.md");
    ck_assert_str_eq(page_string("document.getElementById('rules-for').textContent"),
                     "You are playing brax: Brax as Denham published it in 1889.");
    /* The text a newcomer reads first is on screen: the page's title and
     * how the board is made. */
    ck_assert(page_true(IN_VIEW("'#rules-body h2'")));
    ck_assert_str_eq(page_string("document.querySelector('#rules-body h2').textContent"), "Brax");
    ck_assert(page_true(IN_VIEW("'#rules-body h2 + p'")));
    ck_assert(page_true("document.querySelector('#rules-body h2 + p').textContent.startsWith('Brax was published')"));
    /* The points that settle the 1889 game's questions: calls limited, and
     * capturing optional. */
    ck_assert(page_true("[...document.querySelectorAll('#rules-body li')].some((li) => li.textContent.startsWith("
                        "'brax and brax-hunt: no call on the turn right after one\\'s own call'))"));
    ck_assert(page_true("document.getElementById('rules-body').textContent.includes('Capturing is optional.')"));
    /* Markdown shown as such: tables, code blocks, strong text. */
    ck_assert(page_true("!!document.querySelector('#rules-body pre code') && !!document.querySelector('#rules-body "
                        "strong') && !document.getElementById('rules-body').textContent.includes('**')"));
    char path[96];
    snprintf(path, sizeof path, "build/screenshots/learn-rules-brax-%d.png", w);
    ck_assert(cdp_screenshot(&browser, path));
    /* Esc closes it; the focus goes back to the button. */
    press_key("Escape", 27);
    ck_assert(cdp_wait(&browser, "document.getElementById('rules-panel').hidden", 5000));
    ck_assert(page_true("document.activeElement === document.getElementById('how-to-play')"));
    /* So does the close button; keys typed in the panel are its own (n
     * there starts no new game). */
    ck_assert_msg(page_waits_for_a_person(), "the page is not waiting for a person: %s", page_state());
    open_rules();
    press_key("n", 78);
    ck_assert(page_true("!document.getElementById('rules-panel').hidden"));
    ck_assert(page_true(IN_VIEW("'#rules-close'")));
    click("#rules-close");
    ck_assert(cdp_wait(&browser, "document.getElementById('rules-panel').hidden", 5000));
    ck_assert(page_true("denham.game.moves.length === 0 || denham.seats[0] === 'human'"));
    assert_no_page_errors();
}
END_TEST

/* The team games open at their own section, with its settled points; a
 * link within the rules (the README's table) opens the page it names. */
START_TEST(how_to_play_opens_at_the_variant)
{
    if (!have_browser)
        return;
    open_variant("brax-4p");
    open_rules();
    ck_assert(page_true("document.activeElement === document.getElementById('rules-body')"));
    ck_assert_msg(page_true(IN_VIEW("'#rules-the-team-games-brax-4p-and-brax-3p'")), "the team games' heading is not in view");
    ck_assert(page_true("document.querySelector('#rules-toc a[aria-current]').textContent.includes('brax-4p')"));
    ck_assert(page_true("(() => { const h = document.getElementById('rules-settled-points-of-the-team-games'); "
                        "const l = h && h.nextElementSibling; return !!l && l.tagName === 'OL' && "
                        "l.children.length === 14 && l.children[0].textContent.startsWith('Threats are a player\\'s "
                        "own.'); })()"));
    ck_assert(cdp_screenshot(&browser, "build/screenshots/learn-rules-brax-4p.png"));
    /* A section from the list at the top. */
    click("#rules-toc a[data-target=\"#the-end\"]");
    ck_assert(cdp_wait(&browser, IN_VIEW("'#rules-the-end'"), 5000));
    press_key("Escape", 27);
    ck_assert(cdp_wait(&browser, "document.getElementById('rules-panel').hidden", 5000));

    open_variant("jinxx-3p");
    open_rules();
    ck_assert_str_eq(page_string("document.getElementById('rules-panel').dataset.page"), "jinxx.md");
    ck_assert(page_true("(() => { const h = document.getElementById('rules-settled-points'); return !!h && "
                        "h.nextElementSibling.children[0].textContent.startsWith('Must-move goes by the face.'); })()"));
    click("#rules-close");
    assert_no_page_errors();
}
END_TEST

/* The rules pages are served from the binary (docs/rules/ at build time),
 * nothing else under /rules/; the renderer shows a page's HTML as text and
 * makes no link out of the rules: nothing in a page can run or load. */
START_TEST(markdown_is_shown_safely)
{
    if (!have_browser)
        return;
    reply_t r;
    ck_assert(http_request(server.port, "GET", "/rules/brax.md", NULL, NULL, &r) && r.status == 200);
    ck_assert(strncmp(r.body, "# Brax\n", 7) == 0);
    ck_assert(http_request(server.port, "GET", "/rules/README.md", NULL, NULL, &r) && r.status == 200);
    static const char *const missing[] = {"/rules/", "/rules/nope.md", "/rules/../README.md", "/brax.md",
                                          "/rules/brax.md/", "/docs/rules/brax.md"};
    for (size_t i = 0; i < sizeof missing / sizeof missing[0]; i++)
        ck_assert_msg(http_request(server.port, "GET", missing[i], NULL, NULL, &r) && r.status == 404, "%s: %d",
                      missing[i], r.status);
    open_variant("brandubh");
    ck_assert(page_true(
        "(async () => { const m = await import('./markdown.js'); const d = document.createElement('div'); "
        "d.append(m.renderMarkdown('# T <script>x</script>\\n\\n<img src=x onerror=alert(1)> **b** *e* `c<b>` "
        "[out](javascript:alert(1)) [web](https://example.com) [in](#t)\\n\\n| a | b |\\n|---|---|\\n| <i>1</i> | `x|y` "
        "|\\n\\n- one\\n  - two\\n1. first', { linkFor: (h) => h === '#t' ? { href: '#', data: '#t' } : null })); "
        "return d.querySelectorAll('script, img, i').length === 0 && d.textContent.includes('<img src=x') && "
        "d.querySelectorAll('a').length === 1 && d.querySelector('a').textContent === 'in' && "
        "d.querySelector('strong').textContent === 'b' && d.querySelector('em').textContent === 'e' && "
        "d.querySelector('p code').textContent === 'c<b>' && d.querySelectorAll('td').length === 2 && "
        "d.querySelectorAll('td')[1].textContent === 'x|y' && d.querySelector('ul ul li').textContent === 'two' && "
        "d.querySelector('ol li').textContent === 'first' && d.querySelector('h1').textContent === 'T <script>x</script>'; })()"));
    assert_no_page_errors();
}
END_TEST

/* ---- accessible names ---- */

/* The elements of a JSON array one after the other (json_element is
 * quadratic over a long array): first with the array, then with the last. */
static const char *next_in(const char *array, const char *last)
{
    const char *c = last ? json_skip(last) : array ? array + strspn(array, " \t\r\n") + 1 : NULL;
    if (!c)
        return NULL;
    c += strspn(c, " \t\r\n,");
    return *c == ']' || !*c ? NULL : c;
}

typedef struct ax_entry {
    int backend;
    const char *node; /* its accessibility node, in the tree's text */
} ax_entry_t;

typedef struct dom_ids {
    int node[4096], backend[4096];
    int n;
} dom_ids_t;

/* Every node of the document: its DOM id and its backend id. */
static void collect_ids(const char *node, dom_ids_t *ids)
{
    if (ids->n < 4096) {
        ids->node[ids->n] = atoi(json_member(node, "nodeId"));
        ids->backend[ids->n++] = atoi(json_member(node, "backendNodeId"));
    }
    const char *kids = json_member(node, "children");
    for (const char *k = next_in(kids, NULL); k; k = next_in(kids, k))
        collect_ids(k, ids);
}

/* An accessibility node's role, name and why it is ignored ("" when it is
 * not); false when it is ignored because it is not shown (hidden, in a
 * closed <details>): nothing to name. */
static bool ax_read(const char *ax, char *role, size_t role_len, char *name, size_t name_len, char *why, size_t why_len)
{
    role[0] = name[0] = why[0] = 0;
    json_string_at(json_member(json_member(ax, "role"), "value"), role, role_len);
    json_string_at(json_member(json_member(ax, "name"), "value"), name, name_len);
    const char *ignored = json_member(ax, "ignored");
    bool shown = true;
    if (ignored && strncmp(ignored, "true", 4) == 0) {
        const char *reasons = json_member(ax, "ignoredReasons");
        for (const char *r = next_in(reasons, NULL); r; r = next_in(reasons, r)) {
            char reason[64] = "";
            json_string_at(json_member(r, "name"), reason, sizeof reason);
            if (strcmp(reason, "notRendered") == 0 || strcmp(reason, "notVisible") == 0)
                shown = false;
            size_t len = strlen(why);
            snprintf(why + len, why_len - len, "%s%s", len ? "," : "ignored: ", reason);
        }
        if (!why[0])
            snprintf(why, why_len, "ignored");
    }
    return shown;
}

/* How a person would find the element: its HTML's start. */
static void describe(int node, char *out, size_t len)
{
    char params[64];
    snprintf(params, sizeof params, "{\"nodeId\":%d}", node);
    char *r = cdp_call(&browser, true, "DOM.getOuterHTML", params, 10000);
    const char *html = r ? json_member(json_member(r, "result"), "outerHTML") : NULL;
    snprintf(out, len, "%.160s", html ? html : "?");
    free(r);
}

/* The DOM ids of the elements matching a selector (malloc'd text of the
 * answer; *ids points into it). */
static char *query_all(int root, const char *selector, const char **ids)
{
    char params[512];
    snprintf(params, sizeof params, "{\"nodeId\":%d,\"selector\":\"%s\"}", root, selector);
    char *r = cdp_call(&browser, true, "DOM.querySelectorAll", params, 10000);
    ck_assert_ptr_nonnull(r);
    *ids = json_member(json_member(r, "result"), "nodeIds");
    return r;
}

/* Every shown control has a name in the accessibility tree: those the
 * selector finds in the page (counted in *found), then every node of a
 * control's role in the whole tree. Board elements (inside #board, drawn
 * by board.js) are counted apart, in *board_unnamed. */
static int unnamed_controls(const char *where, char *report, size_t report_len, int *board_unnamed, int *found)
{
    char *doc = cdp_call(&browser, true, "DOM.getDocument", "{\"depth\":-1}", 20000);
    ck_assert_ptr_nonnull(doc);
    const char *root = json_member(json_member(doc, "result"), "root");
    static dom_ids_t dom;
    dom.n = 0;
    collect_ids(root, &dom);
    int root_id = dom.node[0];
    char *tree = cdp_call(&browser, true, "Accessibility.getFullAXTree", NULL, 20000);
    ck_assert_ptr_nonnull(tree);
    const char *nodes = json_member(json_member(tree, "result"), "nodes");
    static ax_entry_t ax[8192];
    int n_ax = 0;
    for (const char *a = next_in(nodes, NULL); a && n_ax < 8192; a = next_in(nodes, a)) {
        const char *b = json_member(a, "backendDOMNodeId");
        ax[n_ax++] = (ax_entry_t){b ? atoi(b) : 0, a};
    }
    const char *ids, *board_ids;
    char *all = query_all(root_id, "button, input, select, textarea, a[href], summary, [role=button], [role=link], "
                                   "[role=checkbox], [tabindex]:not([tabindex^='-']), [data-cell], [data-move]", &ids);
    char *board = query_all(root_id, "#board *", &board_ids);
    int unnamed = 0;
    *found = 0;
    *board_unnamed = 0;
    report[0] = 0;
    for (const char *id = next_in(ids, NULL); id; id = next_in(ids, id)) {
        int node = atoi(id), backend = 0;
        for (int k = 0; k < dom.n && !backend; k++)
            if (dom.node[k] == node)
                backend = dom.backend[k];
        const char *mine = NULL;
        for (int k = 0; k < n_ax && !mine; k++)
            if (ax[k].backend == backend)
                mine = ax[k].node;
        char role[64] = "", name[512] = "", why[256] = "not in the tree", what[200];
        if (mine && !ax_read(mine, role, sizeof role, name, sizeof name, why, sizeof why))
            continue; /* not shown */
        if (!mine) {
            char params[64];
            snprintf(params, sizeof params, "{\"nodeId\":%d}", node);
            char *box = cdp_call(&browser, true, "DOM.getBoxModel", params, 10000);
            bool drawn = box && !json_member(box, "error");
            free(box);
            if (!drawn)
                continue; /* not shown: no box */
        }
        (*found)++;
        if (name[0] && !why[0])
            continue;
        bool on_board = false;
        for (const char *b = next_in(board_ids, NULL); b && !on_board; b = next_in(board_ids, b))
            on_board = atoi(b) == node;
        describe(node, what, sizeof what);
        if (on_board) {
            if ((*board_unnamed)++ == 0)
                fprintf(stderr, "%s: board.js element without an accessible name (%s), e.g. %s\n", where,
                        why[0] ? why : role, what);
            continue;
        }
        unnamed++;
        size_t len = strlen(report);
        snprintf(report + len, report_len - len, "  %s %s: %s\n", role, why, what);
    }
    free(board);
    free(all);
    /* And from the tree's side: every control's role with a name. */
    static const char *const controls[] = {"button", "link", "textbox", "spinbutton", "checkbox", "combobox",
                                           "listbox", "radio", "slider", "switch", "tab", "searchbox",
                                           "menuitem", "PopUpButton", "DisclosureTriangle"};
    for (int i = 0; i < n_ax; i++) {
        char role[64], name[512], why[256];
        if (!ax_read(ax[i].node, role, sizeof role, name, sizeof name, why, sizeof why) || why[0])
            continue;
        for (size_t k = 0; k < sizeof controls / sizeof controls[0]; k++)
            if (strcmp(role, controls[k]) == 0 && !name[0]) {
                unnamed++;
                size_t len = strlen(report);
                snprintf(report + len, report_len - len, "  %s without a name (tree)\n", role);
            }
    }
    free(tree);
    free(doc);
    return unnamed;
}

/* Every control of the page named, in each family of game at a desktop's
 * and a phone's size: the header's, the board's, the panel's (every
 * section opened), the clocks' and the rules panel's. */
START_TEST(every_control_has_an_accessible_name)
{
    if (!have_browser)
        return;
    static const char *const games[] = {"brax", "bolix", "jinxx", "brandubh"};
    static const int sizes[][2] = {{1280, 800}, {390, 844}};
    const char *game = games[_i / 2];
    const int w = sizes[_i % 2][0], h = sizes[_i % 2][1];
    set_size(w, h);
    free(cdp_call(&browser, true, "Accessibility.enable", NULL, 10000));
    open_variant(game);
    set_control("preset", "people");
    ck_assert_msg(page_waits_for_a_person(), "the page is not waiting for a person: %s", page_state());
    choose_time_control("600", "5");
    /* Everything shown: each section open, a choice of the board's made
     * (its chooser, when a move has several endings), the rules panel. */
    free(cdp_eval(&browser, "(() => { document.querySelectorAll('details').forEach((d) => { d.open = true; }); "
                            "return true; })()",
                  10000));
    char sel[64], cell[16];
    snprintf(cell, sizeof cell, "%s", page_string("(denham.legal.find((m) => m.clicks.length > 0) || {clicks: ['']}).clicks[0]"));
    if (cell[0]) {
        snprintf(sel, sizeof sel, "[data-cell=\"%s\"]", cell);
        click(sel); /* a cell selected: the targets drawn (or, in Bolix, a marble placed) */
        ck_assert_msg(page_waits_for_a_person(), "the page is not waiting for a person: %s", page_state());
    }
    char where[64], report[8192];
    int board_unnamed = 0, found = 0;
    snprintf(where, sizeof where, "%s %dx%d", game, w, h);
    int unnamed = unnamed_controls(where, report, sizeof report, &board_unnamed, &found);
    ck_assert_msg(unnamed == 0, "%s: %d controls without an accessible name:\n%s", where, unnamed, report);
    ck_assert_msg(found > 20, "%s: only %d controls found", where, found);
    open_rules();
    snprintf(where, sizeof where, "%s %dx%d, how to play", game, w, h);
    int rules_board = 0, rules_found = 0;
    unnamed = unnamed_controls(where, report, sizeof report, &rules_board, &rules_found);
    ck_assert_msg(unnamed == 0, "%s: %d controls without an accessible name:\n%s", where, unnamed, report);
    ck_assert(page_true("document.querySelectorAll('#rules-panel a, #rules-panel button').length > 3"));
    /* The board as a whole is named. */
    ck_assert(page_true("document.querySelector('#board svg').getAttribute('aria-label').length > 0"));
    ck_assert_msg(board_unnamed == 0 && rules_board == 0, "%s: %d board cells without an accessible name", where,
                  board_unnamed + rules_board);
    assert_no_page_errors();
}
END_TEST

/* Three cases, a browser and a server per test; CK_RUN_CASE=clock (or
 * rules, names) runs one. Every test runs against `denham serve` and
 * against the static folder (web_host.h); CI's static run takes those
 * marked WEB_CI. */
Suite *suite_web_learn(void)
{
    Suite *s = suite_create("web_learn");
    TCase *clock = tcase_create("clock"), *rules = tcase_create("rules"), *names = tcase_create("names");
    TCase *cases[] = {clock, rules, names};
    for (int i = 0; i < 3; i++) {
        tcase_set_timeout(cases[i], 900);
        tcase_add_checked_fixture(cases[i], learn_setup, learn_teardown);
        suite_add_tcase(s, cases[i]);
    }
    if (web_wants(WEB_BOTH))
        tcase_add_loop_test(clock, a_persons_flag_falls, 0, 2);
    if (web_wants(WEB_CI))
        tcase_add_test(clock, denham_plays_on_a_clock);
    if (web_wants(WEB_BOTH))
        tcase_add_test(clock, four_players_and_the_die_on_a_clock);
    if (web_wants(WEB_BOTH))
        tcase_add_test(clock, clocks_stop_in_replay_and_analysis);
    if (web_wants(WEB_CI))
        tcase_add_loop_test(rules, how_to_play_brax, 0, 2);
    if (web_wants(WEB_BOTH))
        tcase_add_test(rules, how_to_play_opens_at_the_variant);
    if (web_wants(WEB_SERVER)) /* the server's paths under /rules/ */
        tcase_add_test(rules, markdown_is_shown_safely);
    if (web_wants(WEB_BOTH))
        tcase_add_loop_test(names, every_control_has_an_accessible_name, 0, 8);
    return s;
}
