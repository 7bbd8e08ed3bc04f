/* test_web.c: the web app in a real browser. A headless Chromium (the
 * Debian package) loads the app from `denham serve` and, in every variant,
 * makes moves by clicking the page's cells with real mouse events; after
 * each move the board the page shows must be the engine's own position
 * (the moves replayed by the engine library here, and every piece drawn
 * where that position has it). Then whole games against Denham in Bolix
 * and Brandubh, a Jinxx game with the die rolled on screen, and the replay
 * of a denham-match games file. Screenshots of every board go to
 * build/screenshots/. Without Chromium the suite says so and checks
 * nothing (make deps installs it; CI always has it). */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../engine/core/record.h"
#include "../engine/core/rng.h"
#include "../engine/games/variants.h"
#include "../engine/core/timeman.h"
#include "../bench/tools/cdp.h"
#include "helpers.h"
#include "../bench/tools/http_client.h"
#include "../bench/tools/json_check.h"
#include "web_layout.h"
#include "web_page.h"
#include "web_host.h"

#define WAIT_MS 60000

static served_t server;
static cdp_t browser;
static bool have_browser;
static char base_url[64];

static bool at_each_size;

static void web_setup(void)
{
    at_each_size = false;
    have_browser = web_fixture_start(&server, &browser, base_url, sizeof base_url, "--max-sessions 4", false);
}

static void web_teardown(void)
{
    if (have_browser)
        web_fixture_stop(&server, &browser, true);
}

/* A string the page evaluates to (static; "" when none). */
static const char *page_string(const char *expression)
{
    return cdp_text(&browser, expression);
}

static void open_variant(const char *variant)
{
    char url[128];
    snprintf(url, sizeof url, "%s#%s", base_url, variant);
    ck_assert(cdp_navigate(&browser, "about:blank")); /* a new page, not a new #fragment */
    ck_assert(cdp_navigate(&browser, url));
    ck_assert_msg(cdp_wait(&browser, "document.body.dataset.ready === 'true'", WAIT_MS), "%s: the app did not start: %s",
                  variant, page_string("document.getElementById('error').textContent"));
    ck_assert_str_eq(page_string("denham.layout.variant"), variant);
}

/* The element matching selector is drawn and wholly inside the visible
 * window (not scrolled out of it, not hidden): what a person sees without
 * scrolling. */
static bool in_view(const char *selector)
{
    char expr[1024];
    snprintf(expr, sizeof expr,
             "(() => { const e = document.querySelector(`%s`); if (!e || !e.checkVisibility()) return false; "
             "const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 "
             "&& r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5; })()",
             selector);
    char *v = cdp_eval(&browser, expr, 10000);
    bool yes = v && strcmp(v, "true") == 0;
    free(v);
    return yes;
}

static void assert_in_view(const char *selector)
{
    ck_assert_msg(in_view(selector), "%s is not inside the visible window: %s", selector,
                  page_string("(() => { const e = document.querySelector(`" /* for the message */
                              "#message`); return e ? JSON.stringify(e.getBoundingClientRect()) + ' ' + "
                              "innerWidth + 'x' + innerHeight : 'none'; })()"));
}

/* Waits until selector is in view and its text holds `text`. */
static void assert_message(const char *selector, const char *text)
{
    char expr[512];
    snprintf(expr, sizeof expr, "(() => { const e = document.querySelector(`%s`); return !!e && e.checkVisibility() && "
             "e.textContent.includes(`%s`); })()", selector, text);
    ck_assert_msg(cdp_wait(&browser, expr, WAIT_MS), "%s never said '%s' (it says '%s')", selector, text,
                  page_string("document.getElementById('message') ? document.getElementById('message').textContent : ''"));
    assert_in_view(selector);
}

/* Clicks the centre of the element matching selector. */
static void click(const char *selector)
{
    ck_assert_msg(cdp_click_on(&browser, selector), "nothing matches %s", selector);
}

/* The window's size, as a desktop (1280x800) or a phone (390x844). */
static void window_size(int width, int height)
{
    cdp_window(&browser, width, height);
}

/* Types text into the element matching selector as a person does (a click
 * into it, the characters, then Enter). */
static void type_into(const char *selector, const char *text)
{
    web_type(&browser, selector, text);
}

/* Sets a form control's value as a person would, firing its change. */
static void set_control(const char *id, const char *value)
{
    web_set_control(&browser, id, value);
}

/* The page is idle: nothing queued, no search, a person to move (or the
 * game over). */
static bool page_waits_for_a_person(void)
{
    return web_waits_for_a_person(&browser);
}

/* The moves the page has played (static record, set up by the engine
 * library from them): the engine's own position. */
static record_t *page_record(const game_t *g)
{
    static record_t r;
    char text[65536];
    snprintf(text, sizeof text, "%s", page_string("denham.game.start + (denham.game.moves.length ? ' moves ' + "
                                                   "denham.game.moves.join(' ') : '')"));
    char err[256];
    ck_assert_msg(record_setup(&r, g, text, err, sizeof err), "%s: %s", text, err);
    return &r;
}

/* The page's board is the engine's position: the same position string, and
 * every piece drawn where the position has it. */
static void assert_board_matches(const game_t *g, const record_t *r)
{
    char fen[GAME_FEN_MAX];
    g->write_fen(&r->pos, fen, sizeof fen);
    ck_assert_str_eq(page_string("document.getElementById('fen-shown').textContent"), fen);
    json_t j;
    json_init(&j);
    json_object(&j);
    g->view_position(g, &r->pos, &j);
    json_end(&j);
    const char *pieces = json_member(j.buf, "pieces");
    int n = json_length(pieces);
    ck_assert_int_eq(atoi(page_string("String(document.querySelectorAll('[data-piece]').length)")), n);
    for (int i = 0; i < n; i++) {
        const char *p = json_element(pieces, i);
        char cell[16], want[256] = "", expr[128];
        json_string_at(json_member(p, "cell"), cell, sizeof cell);
        const char *stack = json_member(p, "stack");
        for (int k = 0; k < json_length(stack); k++) {
            const char *q = json_element(stack, k);
            char kind[16], label[8] = "";
            json_string_at(json_member(q, "kind"), kind, sizeof kind);
            json_string_at(json_member(q, "label"), label, sizeof label);
            size_t len = strlen(want);
            snprintf(want + len, sizeof want - len, "%s%d:%s:%s", k ? "," : "", atoi(json_member(q, "owner")), kind,
                     label);
        }
        snprintf(expr, sizeof expr, "document.querySelector('[data-piece=\"%s\"]').dataset.stack", cell);
        ck_assert_msg(strcmp(page_string(expr), want) == 0, "%s %s: page %s, engine %s", g->name, cell,
                      page_string(expr), want);
    }
    json_free(&j);
}

/* In a replay: the page's board is the engine's position at the move shown. */
static void assert_replay_board(const game_t *g)
{
    static record_t r;
    char text[8192], err[256];
    snprintf(text, sizeof text, "%s", page_string("denham.game.start + (denham.view ? ' moves ' + "
                                                   "denham.game.moves.slice(0, denham.view).join(' ') : '')"));
    ck_assert_msg(record_setup(&r, g, text, err, sizeof err), "%s", err);
    assert_board_matches(g, &r);
}

/* Plays move m of r's position through the page: its cells clicked in
 * order, then the chooser's button or the button of a move without cells. */
static void click_move(const game_t *g, const record_t *r, move_t m)
{
    json_t j;
    json_init(&j);
    json_object(&j);
    g->view_move(g, &r->pos, m, &j);
    json_end(&j);
    char text[GAME_MOVE_TEXT_MAX], sel[128];
    g->move_text(&r->pos, m, text, sizeof text);
    const char *clicks = json_member(j.buf, "clicks");
    int n = json_length(clicks);
    for (int k = 0; k < n; k++) {
        char cell[16];
        json_string_at(json_element(clicks, k), cell, sizeof cell);
        snprintf(sel, sizeof sel, "[data-cell=\"%s\"]", cell);
        click(sel);
    }
    if (n == 0) {
        snprintf(sel, sizeof sel, "#specials button[data-move=\"%s\"]", text);
        click(sel);
    } else {
        /* Several moves end on these clicks: the chooser asks which. */
        snprintf(sel, sizeof sel, "#chooser:not([hidden]) button[data-move=\"%s\"]", text);
        char expr[200];
        snprintf(expr, sizeof expr, "!!document.querySelector('%s') || denham.game.moves.length > %d",
                 "#chooser:not([hidden]) button", r->plies);
        if (cdp_wait(&browser, expr, 5000) && atoi(page_string("String(denham.game.moves.length)")) <= r->plies)
            click(sel);
    }
    json_free(&j);
}

/* at_each_size: set by a test that plays at both sizes in turn, whose
 * layout after each step is checked at the size of the window only (the
 * other size has its own turn). */

/* A person's move by clicks, checked: the page then holds exactly that
 * move (and what the die and Denham did after it), its board the engine's;
 * the page's layout checked (nothing covered, nothing cut). */
static void person_moves(const game_t *g, rng_t *rng)
{
    record_t *r = page_record(g);
    move_t moves[MAX_MOVES];
    int n = record_legal_moves(r, moves);
    ck_assert_int_gt(n, 0);
    move_t m = moves[rng_below(rng, (uint32_t)n)];
    char text[GAME_MOVE_TEXT_MAX], expr[160];
    g->move_text(&r->pos, m, text, sizeof text);
    int before = r->plies;
    click_move(g, r, m);
    snprintf(expr, sizeof expr, "denham.game.moves.length > %d", before);
    ck_assert_msg(cdp_wait(&browser, expr, WAIT_MS), "%s: clicking '%s' played nothing", g->name, text);
    snprintf(expr, sizeof expr, "denham.game.moves[%d]", before);
    ck_assert_str_eq(page_string(expr), text);
    ck_assert(page_waits_for_a_person());
    assert_board_matches(g, page_record(g));
    snprintf(expr, sizeof expr, "%s, after '%s'", g->name, text);
    web_layout_check(&browser, expr, !at_each_size); /* nothing covered, nothing cut, at both sizes */
}

START_TEST(every_variant_played_by_clicks)
{
    if (!have_browser)
        return;
    const game_t *g = variants_at(_i);
    open_variant(g->name);
    set_control("preset", "people");
    ck_assert(page_waits_for_a_person());
    rng_t rng = {77 + (uint64_t)_i};
    assert_board_matches(g, page_record(g));
    for (int i = 0; i < 8; i++) {
        record_t *r = page_record(g);
        move_t moves[MAX_MOVES];
        if (record_legal_moves(r, moves) == 0)
            break;
        person_moves(g, &rng);
    }
    char path[128];
    snprintf(path, sizeof path, "build/screenshots/%s.png", g->name);
    ck_assert(cdp_screenshot(&browser, path));
    /* Undo takes the last move back on the page and in the engine. */
    int plies = atoi(page_string("String(denham.game.moves.length)"));
    click("#undo");
    char expr[96];
    snprintf(expr, sizeof expr, "denham.game.moves.length < %d", plies);
    ck_assert(cdp_wait(&browser, expr, WAIT_MS));
    ck_assert(page_waits_for_a_person());
    assert_board_matches(g, page_record(g));
}
END_TEST

/* A whole game against Denham (50 ms a move): the person's moves clicked,
 * Denham's played by the engine; the end shown with its reason. */
static void game_against_denham(const char *variant, int max_plies)
{
    const game_t *g = variants_find(variant);
    open_variant(variant);
    set_control("movetime", "50");
    set_control("preset", "first");
    ck_assert(page_waits_for_a_person());
    rng_t rng = {2026};
    for (int i = 0; i < max_plies; i++) {
        record_t *r = page_record(g);
        move_t moves[MAX_MOVES];
        if (record_legal_moves(r, moves) == 0)
            break;
        person_moves(g, &rng);
    }
    record_t *r = page_record(g);
    ck_assert_msg(record_outcome(r).kind != OUTCOME_NONE, "%s: no end after %d plies", variant, r->plies);
    char banner[512], said[512];
    snprintf(banner, sizeof banner, "%s", page_string("document.getElementById('banner').hidden ? '' : "
                                                      "document.getElementById('banner').textContent"));
    snprintf(said, sizeof said, "%s", page_string("denham.state.result.text || ''"));
    /* The engine's own sentence (who won, how and where), capital first. */
    ck_assert_msg(said[0] && strcmp(banner, said) == 0, "%s: banner '%s', the engine said '%s'", variant, banner, said);
    ck_assert_msg(banner[0] >= 'A' && banner[0] <= 'Z', "%s: banner '%s' in lower case", variant, banner);
    assert_in_view("#banner");
    /* Every cell the engine names as decisive is drawn as such. */
    ck_assert_str_eq(page_string("String(denham.state.result.decisive.every((c) => "
                                 "!!document.querySelector(`[data-decisive=\"${c}\"]`)))"),
                     "true");
    char path[128];
    snprintf(path, sizeof path, "build/screenshots/%s-end.png", variant);
    ck_assert(cdp_screenshot(&browser, path));
}

START_TEST(bolix_and_brandubh_against_denham_to_the_end)
{
    if (!have_browser)
        return;
    game_against_denham("bolix", 200);
    game_against_denham("brandubh", 300);
}
END_TEST

START_TEST(jinxx_with_dice_against_denham)
{
    if (!have_browser)
        return;
    game_against_denham("jinxx", 400);
    /* The die was rolled on screen: faces among the moves. */
    const char *faces = page_string("String(denham.game.moves.filter((m) => /^(S|M|L|SM|SL|ML)$/.test(m)).length)");
    ck_assert_int_gt(atoi(faces), 2);
}
END_TEST

/* A denham-match games file loaded from disk and replayed move by move,
 * each position the engine's; the evaluation plot filled. */
START_TEST(match_games_replayed)
{
    if (!have_browser)
        return;
    const char *out = shell("./denham-match --variant brandubh --engine name=a cmd=./denham depth=2 --engine name=b "
                            "cmd=./denham depth=1 --games 2 --openings random:2 --seed 5 --quiet "
                            "--games-file build/web_replay_games.txt 2>&1; echo status $?");
    ck_assert_msg(strstr(out, "status 0"), "%s", out);
    open_variant("brax");
    char path[512];
    ck_assert(getcwd(path, sizeof path - 64));
    strcat(path, "/build/web_replay_games.txt");
    ck_assert(cdp_set_file(&browser, "#games-file", path));
    ck_assert(cdp_wait(&browser, "document.querySelectorAll('#games-list option').length === 2", WAIT_MS));
    /* Loaded, evaluated and drawn: the page's layout settled before any click
     * (the moves list grows when the game is shown). */
    ck_assert(cdp_wait(&browser,
                       "(async () => { await denham.busy; return denham.view === 0 && denham.layout.variant === "
                       "'brandubh' && document.querySelectorAll('#moves .ply').length === denham.game.moves.length; })()",
                       WAIT_MS));
    const game_t *g = variants_find("brandubh");
    /* A tall window, so that the panel's buttons need no scrolling: a
     * click computed before the page scrolled back (a re-render of the
     * board) would land elsewhere. */
    free(cdp_call(&browser, true, "Emulation.setDeviceMetricsOverride",
                  "{\"width\":1280,\"height\":1800,\"deviceScaleFactor\":1,\"mobile\":false}", 10000));
    assert_in_view("#replay-bar");
    int total = atoi(page_string("String(denham.game.moves.length)"));
    ck_assert_int_gt(total, 4);
    for (int k = 1; k <= total; k++) {
        free(cdp_eval(&browser, "(denham.lastStepMs = undefined, true)", 10000));
        click("#replay-next");
        char expr[96];
        snprintf(expr, sizeof expr, "(async () => { await denham.busy; return denham.view === %d; })()", k);
        ck_assert_msg(cdp_wait(&browser, expr, WAIT_MS), "replay step %d: %s", k,
                      page_string("JSON.stringify({view: denham.view, error: document.getElementById('error').textContent})"));
        assert_replay_board(g);
        /* Every position is known by now (described before the plot's
         * searches): each step is drawn at its click, the engine after. */
        ck_assert(cdp_wait(&browser, "denham.lastStepMs !== undefined", WAIT_MS));
        ck_assert_msg(strcmp(page_string("String(!!denham.lastLaps.atOnce)"), "true") == 0,
                      "step %d waited for the engine: %s", k, page_string("JSON.stringify(denham.lastLaps)"));
    }
    ck_assert(cdp_wait(&browser, "Number(document.getElementById('plot').dataset.points) > 2", WAIT_MS));
    /* The plot is a way through the game: a click above its first ply mark
     * (the axis's number) goes to that move. */
    double px, py;
    ck_assert(cdp_centre(&browser, "#plot", &px, &py));
    char mark[64];
    snprintf(mark, sizeof mark, "%s", page_string("(() => { const t = [...document.querySelectorAll('#plot text')]"
                                                  ".find((e) => /^[1-9][0-9]*$/.test(e.textContent)); if (!t) return ''; "
                                                  "const r = t.getBoundingClientRect(); return `${t.textContent} "
                                                  "${r.left + r.width / 2}`; })()"));
    int ply = 0;
    double mx = 0;
    ck_assert_msg(sscanf(mark, "%d %lf", &ply, &mx) == 2 && ply > 0 && ply < total, "no ply mark on the plot: '%s'", mark);
    ck_assert(cdp_click(&browser, mx, py));
    char expr[96];
    snprintf(expr, sizeof expr, "(async () => { await denham.busy; return denham.view === %d; })()", ply);
    ck_assert_msg(cdp_wait(&browser, expr, WAIT_MS), "a click on the plot at ply %d: view %s", ply,
                  page_string("String(denham.view)"));
    assert_replay_board(g);
    ck_assert(cdp_screenshot(&browser, "build/screenshots/replay.png"));
}
END_TEST

/* Analysis: every MultiPV line live, the best move drawn on the board, the
 * evaluation plotted; a new move starts it again on the new position. */
START_TEST(analysis_lines_best_move_and_plot)
{
    if (!have_browser)
        return;
    open_variant("brandubh");
    set_control("preset", "people");
    set_control("multipv", "2");
    ck_assert(page_waits_for_a_person());
    click("#analyse");
    ck_assert(cdp_wait(&browser, "document.querySelectorAll('#analysis .line').length === 2", WAIT_MS));
    ck_assert(cdp_wait(&browser, "!!document.querySelector('#board .bestline')", WAIT_MS));
    ck_assert(cdp_wait(&browser, "Number(document.getElementById('plot').dataset.points) >= 1", WAIT_MS));
    /* The lines are the engine's: each begins with a legal move here. */
    const game_t *g = variants_find("brandubh");
    record_t *r = page_record(g);
    const char *first = page_string("document.querySelector('#analysis .line .pv').textContent");
    char move[16] = "";
    sscanf(first, "%15s", move);
    ck_assert_msg(g->parse_move(&r->pos, move) != MOVE_NONE, "analysis line '%s'", first);
    /* A press, the board drawn anew (as each line of the analysis may do),
     * then the release: the press counts. */
    char cell[16], sel[64];
    snprintf(cell, sizeof cell, "%s", page_string("denham.legal[0].clicks[0]"));
    snprintf(sel, sizeof sel, "[data-cell=\"%s\"]", cell);
    double x, y;
    ck_assert(cdp_centre(&browser, sel, &x, &y));
    ck_assert(cdp_mouse(&browser, "mouseMoved", x, y) && cdp_mouse(&browser, "mousePressed", x, y));
    free(cdp_eval(&browser, "(denham.board.render(), true)", 10000));
    ck_assert(cdp_mouse(&browser, "mouseReleased", x, y));
    ck_assert_str_eq(page_string("String(denham.board.selection)"), cell);
    free(cdp_eval(&browser, "(denham.board.clearSelection(), true)", 10000));
    rng_t rng = {9};
    person_moves(g, &rng);
    ck_assert(cdp_wait(&browser, "denham.searching && denham.searching.kind === 'analysis'", WAIT_MS));
    click("#analyse");
    ck_assert(cdp_wait(&browser, "(async () => { await denham.busy; return !denham.searching; })()", WAIT_MS));
    ck_assert(cdp_screenshot(&browser, "build/screenshots/analysis.png"));
}
END_TEST

/* A position string set from the Game panel, the board flipped, the game
 * copied as a position command, one pasted line of a games file. */
START_TEST(position_string_flip_copy_and_a_pasted_line)
{
    if (!have_browser)
        return;
    open_variant("brax");
    set_control("preset", "people");
    ck_assert(page_waits_for_a_person());
    const char *fen = "1bbb1bbb1/9/4b4/9/9/9/4r4/9/1rrr1rrr1 r - 2";
    char expr[512];
    snprintf(expr, sizeof expr,
             "(() => { const i = document.getElementById('fen-input'); i.value = '%s'; i.form.requestSubmit(); "
             "return true; })()",
             fen);
    free(cdp_eval(&browser, expr, 10000));
    snprintf(expr, sizeof expr, "document.getElementById('fen-shown').textContent === '%s'", fen);
    ck_assert(cdp_wait(&browser, expr, WAIT_MS));
    ck_assert(page_waits_for_a_person());
    const game_t *g = variants_find("brax");
    assert_board_matches(g, page_record(g));
    /* A bad string changes nothing and says why. */
    free(cdp_eval(&browser, "(() => { const i = document.getElementById('fen-input'); i.value = 'nonsense'; "
                            "i.form.requestSubmit(); return true; })()",
                  10000));
    ck_assert(cdp_wait(&browser, "document.getElementById('error').textContent.includes('FEN')", WAIT_MS));
    ck_assert(page_waits_for_a_person());
    ck_assert_str_eq(page_string("document.getElementById('fen-shown').textContent"), fen);
    /* Flip: e3 is drawn on the other side of the board. */
    double x1, y1, x2, y2;
    ck_assert(cdp_centre(&browser, "[data-cell=\"e3\"]", &x1, &y1));
    click("#flip");
    ck_assert(cdp_centre(&browser, "[data-cell=\"e3\"]", &x2, &y2));
    ck_assert_msg(y2 < y1 - 100, "flipped: e3 at %.0f, was %.0f", y2, y1);
    rng_t rng = {3};
    person_moves(g, &rng); /* clicks still find the cells */
    click("#copy-position");
    snprintf(expr, sizeof expr, "document.getElementById('status').textContent.includes('position fen %s moves ')", fen);
    ck_assert(cdp_wait(&browser, expr, WAIT_MS));
    /* One line of a games file, pasted. */
    const char *line = "1\\tbrandubh\\ta\\tb\\t0-1\\tking captured\\trandom\\tstartpos moves d2c2 d3d2 f4f6";
    snprintf(expr, sizeof expr,
             "(() => { document.getElementById('games-paste').value = '%s'; "
             "document.querySelector('details:has(#games-load)').open = true; return true; })()",
             line);
    free(cdp_eval(&browser, expr, 10000));
    click("#games-load");
    ck_assert(cdp_wait(&browser,
                       "(async () => { await denham.busy; return denham.layout.variant === 'brandubh' && "
                       "denham.game.moves.length === 3 && denham.view === 0; })()",
                       WAIT_MS));
}
END_TEST

/* A phone's width: the board and the panel stacked, the board fully in
 * view and usable. */
START_TEST(phone_width_and_keyboard)
{
    if (!have_browser)
        return;
    char *r = cdp_call(&browser, true, "Emulation.setDeviceMetricsOverride",
                       "{\"width\":390,\"height\":844,\"deviceScaleFactor\":1,\"mobile\":true}", 10000);
    ck_assert_ptr_nonnull(r);
    free(r);
    open_variant("brandubh");
    set_control("preset", "people");
    ck_assert(page_waits_for_a_person());
    const char *w = page_string("String(Math.round(document.querySelector('#board svg').getBoundingClientRect().right))");
    ck_assert_int_le(atoi(w), 390);
    ck_assert(cdp_screenshot(&browser, "build/screenshots/phone.png"));
    /* The keyboard: a move typed into the move box. */
    free(cdp_eval(&browser, "(() => { const i = document.getElementById('move-input'); i.value = 'd2c2'; "
                            "i.form.requestSubmit(); return true; })()",
                  10000));
    ck_assert(cdp_wait(&browser, "denham.game.moves[0] === 'd2c2'", WAIT_MS));
    ck_assert(page_waits_for_a_person());
    assert_board_matches(variants_find("brandubh"), page_record(variants_find("brandubh")));
    free(cdp_call(&browser, true, "Emulation.setDeviceMetricsOverride",
                  "{\"width\":1280,\"height\":800,\"deviceScaleFactor\":1,\"mobile\":false}", 10000));
}
END_TEST

/* Issue 54, 1.1 and 1.4: every message inside the window, at a desktop's
 * size and a phone's: a typed move refused says so over the board, with the
 * engine's reason and the move once; the message goes with the position it
 * is about (a move, Undo); a typed move in capitals is played; the Brax
 * chooser and the status of a call stay in view. */
static const int sizes[2][2] = {{1280, 800}, {390, 844}};

START_TEST(messages_inside_the_window)
{
    if (!have_browser)
        return;
    at_each_size = true;
    window_size(sizes[_i][0], sizes[_i][1]);
    served_t reasons;
    ck_assert(served_start(&reasons, "--engine tests/engines/reasons.sh"));
    char saved[64];
    snprintf(saved, sizeof saved, "%s", base_url);
    snprintf(base_url, sizeof base_url, "http://127.0.0.1:%d/", reasons.port);
    open_variant("brandubh");
    set_control("preset", "people");
    ck_assert(page_waits_for_a_person());
    type_into("#move-input", "a1a2");
    assert_message("#error", "Illegal move 'a1a2'");
    /* The engine's reason, as its line gives it, and the move only once. */
    const char *said = page_string("document.getElementById('error-text').textContent");
    ck_assert_msg(!strstr(said, "'a1a2': illegal"), "'%s'", said);
    char reason[512];
    snprintf(reason, sizeof reason, "%s", page_string("(() => { const m = /illegal move 'a1a2': (.*)/.exec("
                                                       "document.getElementById('log').textContent); "
                                                       "return m ? m[1] : 'none'; })()"));
    ck_assert_msg(strstr(said, reason), "'%s' lacks the engine's reason '%s'", said, reason);
    ck_assert(page_waits_for_a_person());
    ck_assert_int_eq(atoi(page_string("String(denham.game.moves.length)")), 0);
    /* A move in capitals is the same move. */
    type_into("#move-input", "D2C2");
    ck_assert(cdp_wait(&browser, "denham.game.moves[0] === 'd2c2'", WAIT_MS));
    ck_assert(cdp_wait(&browser, "document.getElementById('error').hidden", WAIT_MS)); /* another position */
    ck_assert(page_waits_for_a_person());
    type_into("#move-input", "zzz");
    assert_message("#error", "Illegal move 'zzz'");
    click("#undo");
    ck_assert(cdp_wait(&browser, "denham.game.moves.length === 0 && document.getElementById('error').hidden", WAIT_MS));
    assert_in_view("#status");
    ck_assert(page_waits_for_a_person());
    /* Brax: the chooser of a move with or without a call, and the call's
     * status, in view. */
    open_variant("brax");
    set_control("preset", "people");
    ck_assert(page_waits_for_a_person());
    const game_t *g = variants_find("brax");
    rng_t rng = {11};
    for (int i = 0; i < 40 && strcmp(page_string("String(denham.legal.some((m) => m.call))"), "true") != 0; i++)
        person_moves(g, &rng);
    ck_assert_str_eq(page_string("String(denham.legal.some((m) => m.call))"), "true");
    char sel[64];
    for (int k = 0; k < 2; k++) {
        char expr[160];
        snprintf(expr, sizeof expr, "denham.legal.find((m) => m.call).clicks[%d]", k);
        snprintf(sel, sizeof sel, "[data-cell=\"%s\"]", page_string(expr));
        click(sel);
    }
    ck_assert(cdp_wait(&browser, "!document.getElementById('chooser').hidden", WAIT_MS));
    assert_in_view("#chooser");
    assert_in_view("#status");
    ck_assert(cdp_screenshot(&browser, _i ? "build/screenshots/chooser-phone.png" : "build/screenshots/chooser.png"));
    snprintf(sel, sizeof sel, "#chooser button[data-move=\"%s\"]", page_string("denham.legal.find((m) => m.call).move"));
    click(sel);
    assert_message("#status-line", "called Brax");
    snprintf(base_url, sizeof base_url, "%s", saved);
    free(cdp_eval(&browser, "true", 10000));
    ck_assert(cdp_navigate(&browser, "about:blank"));
    ck_assert_int_eq(served_stop(&reasons), 0);
}
END_TEST

/* Chromium creates a download's file before it has written it (and
 * under the sanitizers, seconds before): wait for a whole line, not for
 * the file to exist. */
static bool downloaded_line(const char *path, char *line, size_t size)
{
    for (int i = 0; i < 300; i++) {
        FILE *f = fopen(path, "r");
        if (f) {
            bool whole = fgets(line, (int)size, f) && strchr(line, '\n');
            fclose(f);
            if (whole)
                return true;
        }
        usleep(100 * 1000);
    }
    return false;
}

/* Issue 54, 1.2 and "the game survives": a reload gives back the game,
 * the seats, the settings, the analysis and the flipped board; the address
 * alone is the game (a link); Download writes the game as a line of a
 * games file and Open reads it back. */
START_TEST(game_survives_a_reload_a_link_and_a_file)
{
    if (!have_browser)
        return;
    const game_t *g = variants_find("brandubh");
    open_variant("brandubh");
    set_control("preset", "people");
    set_control("movetime", "5000");
    set_control("skill", "0");
    ck_assert(page_waits_for_a_person());
    click("#analyse");
    click("#flip");
    rng_t rng = {54};
    for (int i = 0; i < 3; i++)
        person_moves(g, &rng);
    char moves[4096], url[4096];
    snprintf(moves, sizeof moves, "%s", page_string("denham.game.moves.join(' ')"));
    snprintf(url, sizeof url, "%s", page_string("location.href"));
    ck_assert_msg(strstr(url, "position="), "the address holds no game: %s", url);
    free(cdp_call(&browser, true, "Page.reload", NULL, 10000));
    ck_assert(cdp_wait(&browser, "document.body.dataset.ready === 'true'", WAIT_MS));
    ck_assert(page_waits_for_a_person());
    ck_assert_str_eq(page_string("denham.game.moves.join(' ')"), moves);
    ck_assert_str_eq(page_string("denham.layout.variant"), "brandubh");
    ck_assert_str_eq(page_string("denham.seats.join(',')"), "human,human");
    ck_assert_str_eq(page_string("document.getElementById('movetime').value"), "5000");
    ck_assert_str_eq(page_string("document.getElementById('skill').value"), "0");
    ck_assert_str_eq(page_string("String(document.getElementById('analyse').checked)"), "true");
    ck_assert_str_eq(page_string("String(denham.board.flipped)"), "true");
    ck_assert(cdp_wait(&browser, "denham.searching && denham.searching.kind === 'analysis'", WAIT_MS));
    assert_board_matches(g, page_record(g));
    /* The address alone: another browser's storage knows nothing. */
    free(cdp_eval(&browser, "(localStorage.clear(), true)", 10000));
    ck_assert(cdp_navigate(&browser, "about:blank"));
    ck_assert(cdp_navigate(&browser, url));
    ck_assert(cdp_wait(&browser, "document.body.dataset.ready === 'true'", WAIT_MS));
    /* (Denham has the second seat again, as in any new tab, and may answer.) */
    ck_assert_str_eq(page_string("denham.game.moves.slice(0, 3).join(' ')"), moves);
    set_control("preset", "people");
    ck_assert(page_waits_for_a_person());
    snprintf(moves, sizeof moves, "%s", page_string("denham.game.moves.join(' ')"));
    /* Download, a new game, Open. */
    char dir[512], params[700], path[600];
    ck_assert(getcwd(dir, sizeof dir - 64));
    strcat(dir, "/build/downloads");
    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/denham-brandubh.txt", dir);
    unlink(path);
    snprintf(params, sizeof params, "{\"behavior\":\"allow\",\"downloadPath\":\"%s\"}", dir);
    free(cdp_call(&browser, false, "Browser.setDownloadBehavior", params, 10000));
    click("#download");
    char line[4096] = "";
    ck_assert_msg(downloaded_line(path, line, sizeof line), "no whole line downloaded to %s: '%s'", path, line);
    char want[4200];
    snprintf(want, sizeof want, "\tbrandubh\tperson\tperson\t*\tunfinished\tstartpos\tstartpos moves %s\n", moves);
    ck_assert_msg(strstr(line, want), "downloaded '%s'", line);
    click("#new-game");
    ck_assert(cdp_wait(&browser, "(async () => { await denham.busy; return denham.game.moves.length === 0; })()", WAIT_MS));
    ck_assert(cdp_set_file(&browser, "#open-file", path));
    ck_assert_msg(cdp_wait(&browser, "(async () => { await denham.busy; return denham.game.moves.length > 0; })()", WAIT_MS),
                  "%s", page_string("JSON.stringify({moves: denham.game.moves, fg: denham.jobs.fg.length, bg: denham.jobs.bg.length, "
                                    "error: denham.messages.errorText, status: document.getElementById('status').textContent})"));
    ck_assert_str_eq(page_string("denham.game.moves.join(' ')"), moves);
    ck_assert(page_waits_for_a_person());
    assert_board_matches(g, page_record(g));
}
END_TEST

/* Issue 54, 1.3 and 1.5: the board says where and why. Bolix at a
 * desktop's size and a phone's: row numbers beside the board; a placement
 * that encloses a pair asks, in the status, for the marble to take; five in
 * a row ends the game, the result in capitals and in view, and the cells
 * the engine names as decisive drawn on the board. */
START_TEST(the_end_drawn_and_the_board_read)
{
    if (!have_browser)
        return;
    at_each_size = true;
    window_size(sizes[_i][0], sizes[_i][1]);
    open_variant("bolix");
    set_control("preset", "people");
    ck_assert(page_waits_for_a_person());
    ck_assert_str_eq(page_string("String([...document.querySelectorAll('#board text.label')].some((t) => t.textContent "
                                 "=== '10'))"),
                     "true");
    type_into("#fen-input", "6/7/8/9/4bww3/10/9/8/7/6 b 33 33 - 0");
    ck_assert(cdp_wait(&browser, "(async () => { await denham.busy; return denham.state.fen.startsWith('6/7/8/9/4bww3'); })()", WAIT_MS));
    click("[data-cell=\"e8\"]");
    assert_message("#status", "choose the piece to take");
    ck_assert_int_eq(atoi(page_string("String(document.querySelectorAll('#board .removes').length)")), 2);
    click("[data-cell=\"e7\"]");
    ck_assert(cdp_wait(&browser, "denham.game.moves[0] === 'e8xe7'", WAIT_MS));
    ck_assert(page_waits_for_a_person());
    type_into("#fen-input", "bbbb2/7/8/9/wwww6/10/9/8/7/6 w 31 31 - 0");
    ck_assert(cdp_wait(&browser, "(async () => { await denham.busy; return denham.state.fen.startsWith('bbbb2'); })()", WAIT_MS));
    click("[data-cell=\"e5\"]");
    /* The end said once, in the banner; the status says what now. */
    assert_message("#banner", "White has five in a row: e1 e2 e3 e4 e5.");
    assert_message("#status", "Game over: New game, Undo, or Open another.");
    /* The decisive cells the engine names, each drawn, and no other. */
    ck_assert_str_eq(page_string("[...denham.state.result.decisive].sort().join(' ')"), "e1 e2 e3 e4 e5");
    ck_assert_str_eq(page_string("String(denham.state.result.decisive.every((c) => "
                                 "!!document.querySelector(`[data-decisive=\"${c}\"]`)) && "
                                 "document.querySelectorAll('[data-decisive]').length === 5)"),
                     "true");
    ck_assert(cdp_screenshot(&browser, _i ? "build/screenshots/bolix-end-phone.png" : "build/screenshots/bolix-end.png"));
}
END_TEST

/* Issue 54, 1.5: reading the board. Brax's targets are discs well larger
 * than the line dots; a Jinxx stack shows its top piece's letter inside it
 * and every layer's owner in its title; the die is drawn beside the status,
 * in view; the move list goes by turns, each with its mover, the rolls in
 * the turn they start; the move box's example is a move of this game; the
 * replay buttons use no glyph Debian's fonts lack; the position string
 * breaks between its fields. */
START_TEST(reading_the_board)
{
    if (!have_browser)
        return;
    at_each_size = true;
    window_size(sizes[_i][0], sizes[_i][1]);
    open_variant("brax");
    set_control("preset", "people");
    ck_assert(page_waits_for_a_person());
    ck_assert(strstr(page_string("document.getElementById('move-input').placeholder"), "e.g. "));
    ck_assert_str_eq(page_string("String(denham.legal.some((m) => document.getElementById('move-input').placeholder"
                                 ".endsWith(' ' + m.move)))"),
                     "true");
    char sel[64];
    snprintf(sel, sizeof sel, "[data-cell=\"%s\"]", page_string("denham.legal[0].clicks[0]"));
    click(sel);
    ck_assert(cdp_wait(&browser, "document.querySelectorAll('#board [data-target]').length > 0", WAIT_MS));
    /* A target's disc: at least 1.5 times a line dot's radius. */
    ck_assert_str_eq(page_string("String([...document.querySelectorAll('#board .target:not(.target-ring)')].every((t) => "
                                 "t.getBoundingClientRect().width >= 1.5 * document.querySelector('#board .cell-point')"
                                 ".getBoundingClientRect().width))"),
                     "true");
    assert_in_view("#status");
    assert_message("#status", "now where it goes");
    free(cdp_eval(&browser, "(denham.board.clearSelection(), true)", 10000));
    /* The glyphs of the replay buttons: in the fonts every Debian has. */
    ck_assert_str_eq(page_string("String([...document.querySelectorAll('#replay-bar button')].every((b) => "
                                 "[...b.textContent].every((ch) => ch.codePointAt(0) < 0x2600)))"),
                     "true");
    ck_assert_str_eq(page_string("getComputedStyle(document.getElementById('fen-shown')).wordBreak"), "normal");
    /* Jinxx for four: stacks, the die, the moves by turns. */
    open_variant("jinxx-4p");
    set_control("preset", "people");
    ck_assert(page_waits_for_a_person());
    type_into("#fen-input", ".,.,S4/M1S3,.,L4M4S4/L2M2,.,. 133/033/233/302 p1 SM 0");
    ck_assert(cdp_wait(&browser, "(async () => { await denham.busy; return denham.state.die === 'SM'; })()", WAIT_MS));
    assert_message("#die", "SM");
    ck_assert_str_eq(page_string("document.querySelector('[data-piece=\"c2\"] text').textContent"), "S");
    ck_assert_str_eq(page_string("(() => { const g = document.querySelector('[data-piece=\"c2\"]'); "
                                 "const t = g.querySelector('text').getBBox(), r = [...g.querySelectorAll('rect')].pop().getBBox(); "
                                 "return String(t.x >= r.x && t.x + t.width <= r.x + r.width); })()"),
                     "true");
    ck_assert(strstr(page_string("document.querySelector('[data-piece=\"c2\"] title').textContent"), "L of East"));
    const game_t *g = variants_find("jinxx-4p");
    rng_t rng = {5};
    for (int i = 0; i < 4; i++)
        person_moves(g, &rng);
    int plies = atoi(page_string("String(denham.game.moves.length)"));
    int rows = atoi(page_string("String(document.querySelectorAll('#moves li').length)"));
    ck_assert_msg(rows < plies, "%d rows for %d plies: the rolls are numbered", rows, plies);
    ck_assert_str_eq(page_string("String([...document.querySelectorAll('#moves li')].every((li) => "
                                 "/South|West|North|East/.test(li.querySelector('.mover').textContent)))"),
                     "true");
    ck_assert(cdp_screenshot(&browser, _i ? "build/screenshots/jinxx-4p-phone.png" : "build/screenshots/jinxx-4p-read.png"));
}
END_TEST

/* Issue 54, 1.6: a score says whose side it is for, a won Jinxx position
 * reads as a win, Denham's own search is told apart from the analysis, and
 * the plot has its zero line, axis and legend. */
START_TEST(scores_and_plot)
{
    if (!have_browser)
        return;
    const game_t *g = variants_find("bolix");
    open_variant("bolix");
    set_control("movetime", "300");
    set_control("preset", "first");
    ck_assert(page_waits_for_a_person());
    rng_t rng = {6};
    person_moves(g, &rng); /* Denham answers */
    ck_assert(cdp_wait(&browser, "document.getElementById('analysis').dataset.kind === 'move'", WAIT_MS));
    ck_assert(strstr(page_string("document.querySelector('#analysis .lines-head').textContent"), "Denham's own search"));
    const char *score = page_string("document.querySelector('#analysis .score').textContent");
    ck_assert_msg(strncmp(score, "Black ", 6) == 0 || strncmp(score, "White ", 6) == 0, "score '%s' names no side", score);
    click("#analyse");
    ck_assert(cdp_wait(&browser, "document.getElementById('analysis').dataset.kind === 'analysis' && "
                                 "!!document.querySelector('#analysis .line')", WAIT_MS));
    ck_assert(strstr(page_string("document.querySelector('#analysis .lines-head').textContent"), "Analysis"));
    score = page_string("document.querySelector('#analysis .score').textContent");
    ck_assert_msg(strncmp(score, "Black ", 6) == 0 || strncmp(score, "White ", 6) == 0, "score '%s' names no side", score);
    ck_assert(cdp_wait(&browser, "Number(document.getElementById('plot').dataset.points) >= 2", WAIT_MS));
    ck_assert_str_eq(page_string("String(!!document.querySelector('#plot .plot-zero') && "
                                 "[...document.querySelectorAll('#plot text')].some((t) => t.textContent.includes('Black ahead')) && "
                                 "[...document.querySelectorAll('#plot text')].some((t) => t.textContent.includes('White ahead')) && "
                                 "!!document.querySelector('#plot .plot-dot.own') && !!document.querySelector('#plot .plot-dot:not(.own)'))"),
                     "true");
    click("#analyse");
    ck_assert(cdp_wait(&browser, "(async () => { await denham.busy; return !denham.searching; })()", WAIT_MS));
    ck_assert(cdp_screenshot(&browser, "build/screenshots/scores.png"));
    /* A certain win in a game with a die: a win, not +100.00. */
    open_variant("jinxx");
    ck_assert_str_eq(page_string("import('./analysis.js').then((m) => m.scoreWords({ kind: 'cp', value: 10000 }, "
                                 "denham.layout, 1).text)"),
                     "North wins");
    ck_assert_str_eq(page_string("import('./analysis.js').then((m) => m.scoreWords({ kind: 'cp', value: -250 }, "
                                 "denham.layout, 1).text)"),
                     "South +2.50");
}
END_TEST

/* Issue 54, 1.7: a replay. Three quick clicks on ▶ are three steps, drawn
 * while the plot's searches still wait behind them; a click on the board
 * says why it takes no move; the seats stay as they were; the game in
 * progress is kept ("Back to my game"), and "Play from here" plays on. */
START_TEST(replay_fast_and_not_silent)
{
    if (!have_browser)
        return;
    const char *out = shell("./denham-match --variant brandubh --engine name=a cmd=./denham depth=3 --engine name=b "
                            "cmd=./denham depth=1 --games 1 --openings random:2 --seed 9 --quiet "
                            "--games-file build/web_replay_fast.txt 2>&1; echo status $?");
    ck_assert_msg(strstr(out, "status 0"), "%s", out);
    const game_t *g = variants_find("brandubh");
    open_variant("brandubh");
    set_control("preset", "people");
    ck_assert(page_waits_for_a_person());
    rng_t rng = {7};
    person_moves(g, &rng);
    person_moves(g, &rng);
    set_control("preset", "first");
    ck_assert(page_waits_for_a_person());
    char mine[1024], seats[64];
    snprintf(mine, sizeof mine, "%s", page_string("denham.game.moves.join(' ')"));
    snprintf(seats, sizeof seats, "%s", page_string("denham.seats.join(',')"));
    char path[512];
    ck_assert(getcwd(path, sizeof path - 64));
    strcat(path, "/build/web_replay_fast.txt");
    ck_assert(cdp_set_file(&browser, "#games-file", path));
    ck_assert(cdp_wait(&browser, "denham.view === 0 && !document.getElementById('replay-bar').hidden", WAIT_MS));
    assert_message("#replay-where", "Replay");
    ck_assert_int_gt(atoi(page_string("String(denham.game.moves.length)")), 6);
    /* Three quick clicks: three steps, the plot's searches still behind. */
    for (int k = 0; k < 3; k++)
        click("#replay-next");
    ck_assert_msg(cdp_wait(&browser, "denham.view === 3", WAIT_MS), "%s",
                  page_string("JSON.stringify({view: denham.view, fg: denham.jobs.fg.length, bg: denham.jobs.bg.length, "
                              "running: denham.jobs.running, error: denham.messages.errorText, status: "
                              "document.getElementById('status').textContent})"));
    ck_assert_msg(atoi(page_string("String(denham.jobs.bg.length)")) > 0, "the steps waited for the whole plot");
    /* The step's frame painted (its time is bench_denham web-board's figure, not a test's). */
    ck_assert(cdp_wait(&browser, "denham.lastStepMs !== undefined", WAIT_MS));
    assert_message("#replay-where", "move 3 of");
    assert_replay_board(g);
    /* Two quick steps back, and on again: each board the engine's. */
    click("#replay-back");
    click("#replay-back");
    ck_assert(cdp_wait(&browser, "(async () => { await denham.busy; return denham.view === 1; })()", WAIT_MS));
    assert_replay_board(g);
    click("#replay-next");
    click("#replay-next");
    ck_assert(cdp_wait(&browser, "(async () => { await denham.busy; return denham.view === 3; })()", WAIT_MS));
    assert_replay_board(g);
    /* The board in a replay takes no move, and says so. */
    char sel[64];
    snprintf(sel, sizeof sel, "[data-cell=\"%s\"]", page_string("denham.state.pieces[0].cell"));
    click(sel);
    assert_message("#status", "This is a replay");
    ck_assert_int_eq(atoi(page_string("String(denham.view)")), 3);
    ck_assert_str_eq(page_string("denham.seats.join(',')"), seats);
    /* Back to the game in progress, as it was. */
    click("#replay-back-to-game");
    ck_assert(cdp_wait(&browser, "denham.view === null && document.getElementById('replay-bar').hidden", WAIT_MS));
    ck_assert(page_waits_for_a_person());
    ck_assert_str_eq(page_string("denham.game.moves.join(' ')"), mine);
    ck_assert_str_eq(page_string("denham.seats.join(',')"), seats);
    assert_board_matches(g, page_record(g));
    /* Play on from a replayed position. */
    ck_assert(cdp_set_file(&browser, "#games-file", path));
    ck_assert(cdp_wait(&browser, "denham.view === 0 && !document.getElementById('replay-bar').hidden", WAIT_MS));
    click("#replay-next");
    click("#replay-next");
    ck_assert(cdp_wait(&browser, "denham.view === 2", WAIT_MS));
    char first[256];
    snprintf(first, sizeof first, "%s", page_string("denham.game.moves.slice(0, 2).join(' ')"));
    click("#replay-play-here");
    ck_assert(cdp_wait(&browser, "denham.view === null", WAIT_MS));
    ck_assert(page_waits_for_a_person());
    ck_assert_str_eq(page_string("denham.game.moves.slice(0, 2).join(' ')"), first);
    assert_board_matches(g, page_record(g));
}
END_TEST

/* Issue 54, 1.8: a tab over --max-sessions says so on the board, in view
 * at both sizes, with a button to try again that works once a place is
 * free. (The browser logs the refused request, 503: the only error the
 * page may show here.) */
START_TEST(over_max_sessions)
{
    if (!have_browser)
        return;
    reply_t r;
    char ids[4][33];
    for (int i = 0; i < 4; i++) {
        ck_assert(http_request(server.port, "POST", "/api/sessions", NULL, NULL, &r));
        ck_assert_int_eq(r.status, 201);
        ck_assert(json_string_at(json_member(r.body, "id"), ids[i], sizeof ids[i]));
    }
    for (int k = 0; k < 2; k++) {
        window_size(sizes[k][0], sizes[k][1]);
        ck_assert(cdp_navigate(&browser, "about:blank"));
        ck_assert(cdp_navigate(&browser, base_url));
        assert_message("#no-engine", "Every engine is taken");
        assert_in_view("#no-engine-retry");
        /* The option's name on one line: never "(--" and "max-sessions)". */
        ck_assert_msg(strcmp(page_string("String([...document.querySelectorAll('#no-engine-why .nowrap')].some((w) => "
                                         "w.textContent.includes('--max-sessions') && w.getClientRects().length === 1))"),
                             "true") == 0,
                      "%dx%d: --max-sessions is not kept whole", sizes[k][0], sizes[k][1]);
        web_layout_check(&browser, "the tab over --max-sessions", false);
    }
    char path[128];
    snprintf(path, sizeof path, "/api/sessions/%s", ids[0]);
    ck_assert(http_request(server.port, "DELETE", path, NULL, NULL, &r) && r.status == 200);
    int64_t deadline = timeman_now_ms() + 10000;
    while (timeman_now_ms() < deadline && children_of(server.pid) > 3)
        usleep(50 * 1000);
    click("#no-engine-retry");
    ck_assert(cdp_wait(&browser, "document.body.dataset.ready === 'true'", WAIT_MS));
    ck_assert(cdp_wait(&browser, "document.getElementById('no-engine').hidden", WAIT_MS));
    ck_assert_int_gt(atoi(page_string("String(document.querySelectorAll('#variant option').length)")), 4);
    free(cdp_eval(&browser, "true", 10000));
    char errors[sizeof browser.errors];
    snprintf(errors, sizeof errors, "%s", cdp_errors(&browser));
    for (char *line = strtok(errors, "\n"); line; line = strtok(NULL, "\n"))
        ck_assert_msg(strstr(line, "503"), "an error other than the refusal: %s", line);
    cdp_clear_errors(&browser);
    for (int i = 1; i < 4; i++) {
        snprintf(path, sizeof path, "/api/sessions/%s", ids[i]);
        http_request(server.port, "DELETE", path, NULL, NULL, &r);
    }
    window_size(1280, 800);
}
END_TEST

/* Issue 54, 1.9: the Engine panel's four boxes, each under its label, in
 * two even columns. */
START_TEST(engine_panel_layout)
{
    if (!have_browser)
        return;
    open_variant("brax");
    ck_assert_str_eq(page_string("(() => { const r = ['movetime', 'skill', 'threads', 'multipv'].map((id) => "
                                 "document.getElementById(id).getBoundingClientRect()); "
                                 "const labels = ['movetime', 'skill', 'threads', 'multipv'].map((id) => "
                                 "document.getElementById(id).closest('label').getBoundingClientRect()); "
                                 "const near = (a, b) => Math.abs(a - b) < 1.5; "
                                 "return String(near(r[0].left, r[2].left) && near(r[1].left, r[3].left) && near(r[0].top, r[1].top) "
                                 "&& near(r[2].top, r[3].top) && r.every((x, i) => x.top > labels[i].top + 8) && "
                                 "near(r[0].width, r[1].width)); })()"),
                     "true");
}
END_TEST

/* Presses a key (keyDown and keyUp) on whatever has the focus. */
static void press(const char *key, int code)
{
    char params[256];
    snprintf(params, sizeof params, "{\"type\":\"rawKeyDown\",\"key\":\"%s\",\"code\":\"%s\",\"windowsVirtualKeyCode\":%d}",
             key, key, code);
    free(cdp_call(&browser, true, "Input.dispatchKeyEvent", params, 10000));
    snprintf(params, sizeof params, "{\"type\":\"keyUp\",\"key\":\"%s\",\"code\":\"%s\",\"windowsVirtualKeyCode\":%d}",
             key, key, code);
    free(cdp_call(&browser, true, "Input.dispatchKeyEvent", params, 10000));
}

/* The board's cursor moved by the arrow keys to a cell, then Enter: the
 * arrow of the larger distance first, the other when that one is stuck. */
static void keyboard_pick(const char *cell)
{
    char expr[600], before[16] = "";
    bool other = false;
    for (int i = 0; i < 60; i++) {
        char now[16];
        snprintf(now, sizeof now, "%s", page_string("String(denham.board.cursor)"));
        if (strcmp(now, cell) == 0)
            break;
        other = strcmp(now, before) == 0 ? !other : false;
        snprintf(before, sizeof before, "%s", now);
        snprintf(expr, sizeof expr,
                 "(() => { const b = denham.board, [x, y] = b.at(b.cells.get(b.cursor)), [tx, ty] = "
                 "b.at(b.cells.get('%s')); const dx = tx - x, dy = ty - y; const h = dx > 0 ? 'ArrowRight' : "
                 "'ArrowLeft', v = dy > 0 ? 'ArrowDown' : 'ArrowUp'; "
                 "return (Math.abs(dx) > Math.abs(dy)) !== %s ? h : v; })()",
                 cell, other ? "true" : "false");
        char key[16];
        snprintf(key, sizeof key, "%s", page_string(expr));
        press(key, strcmp(key, "ArrowLeft") == 0 ? 37 : strcmp(key, "ArrowUp") == 0 ? 38 : strcmp(key, "ArrowRight") == 0 ? 39 : 40);
    }
    ck_assert_msg(strcmp(page_string("String(denham.board.cursor)"), cell) == 0, "the cursor did not reach %s: %s", cell,
                  page_string("JSON.stringify({variant: denham.layout.variant, cursor: denham.board.cursor, focus: "
                              "document.activeElement.id, enabled: denham.board.enabled})"));
    press("Enter", 13);
}

/* Issue 54, accessibility: the board played with the keyboard alone (Tab
 * to the board, the arrows, Enter), the focus visible, the cursor drawn. */
START_TEST(keyboard_play_and_visible_focus)
{
    if (!have_browser)
        return;
    const game_t *gs[2] = {variants_find("brandubh"), variants_find("bolix")};
    for (int v = 0; v < 2; v++) {
        const game_t *g = gs[v];
        open_variant(g->name);
        set_control("preset", "people");
        ck_assert(page_waits_for_a_person());
        for (int i = 0; i < 30 && strcmp(page_string("document.activeElement && document.activeElement.id"), "board") != 0; i++)
            press("Tab", 9);
        ck_assert_str_eq(page_string("document.activeElement.id"), "board");
        ck_assert_str_ne(page_string("getComputedStyle(document.getElementById('board')).outlineStyle"), "none");
        ck_assert(cdp_wait(&browser, "!!document.querySelector('#board [data-cursor]')", WAIT_MS));
        for (int m = 0; m < 2; m++) {
            int before = atoi(page_string("String(denham.game.moves.length)"));
            char clicks[8][16];
            int n = atoi(page_string("String(denham.legal[denham.legal.length >> 1].clicks.length)"));
            char expected[32];
            snprintf(expected, sizeof expected, "%s", page_string("denham.legal[denham.legal.length >> 1].move"));
            for (int k = 0; k < n && k < 8; k++) {
                char expr[96];
                snprintf(expr, sizeof expr, "denham.legal[denham.legal.length >> 1].clicks[%d]", k);
                snprintf(clicks[k], sizeof clicks[k], "%s", page_string(expr));
            }
            for (int k = 0; k < n && k < 8; k++)
                keyboard_pick(clicks[k]);
            char expr[96];
            snprintf(expr, sizeof expr, "denham.game.moves.length > %d", before);
            ck_assert_msg(cdp_wait(&browser, expr, WAIT_MS), "%s: the keys played nothing", g->name);
            snprintf(expr, sizeof expr, "denham.game.moves[%d]", before);
            ck_assert_str_eq(page_string(expr), expected);
            ck_assert(page_waits_for_a_person());
            assert_board_matches(g, page_record(g));
        }
        ck_assert(cdp_screenshot(&browser, v ? "build/screenshots/keyboard-bolix.png" : "build/screenshots/keyboard.png"));
    }
}
END_TEST

/* Screenshots of every family at a desktop's size and a phone's, named as
 * docs/images/ names them (board-<variant>[-phone].png; copied there after
 * a person has looked at them): a game under way by clicks, the analysis
 * on, a piece picked with its targets shown. */
START_TEST(screenshots_of_every_family)
{
    if (!have_browser)
        return;
    at_each_size = true;
    static const char *const families[] = {"brax", "brax-4p", "brandubh", "bolix", "jinxx", "jinxx-4p"};
    for (int k = 0; k < 2; k++) {
        window_size(sizes[k][0], sizes[k][1]);
        for (size_t f = 0; f < sizeof families / sizeof families[0]; f++) {
            const game_t *g = variants_find(families[f]);
            open_variant(g->name);
            set_control("preset", "people");
            ck_assert(page_waits_for_a_person());
            rng_t rng = {100 + f};
            for (int i = 0; i < 10; i++) {
                record_t *r = page_record(g);
                move_t moves[MAX_MOVES];
                if (record_legal_moves(r, moves) == 0 || strcmp(page_string("String(!!denham.state.result)"), "true") == 0)
                    break;
                person_moves(g, &rng);
            }
            if (k == 0) {
                click("#analyse");
                ck_assert(cdp_wait(&browser, "!!document.querySelector('#analysis .line') || !!denham.state.result", WAIT_MS));
                usleep(1500 * 1000);
            }
            if (strcmp(page_string("String(denham.legal.some((m) => m.clicks.length >= 2))"), "true") == 0) {
                char sel[64];
                snprintf(sel, sizeof sel, "[data-cell=\"%s\"]",
                         page_string("denham.legal.filter((m) => m.clicks.length >= 2)[0].clicks[0]"));
                click(sel);
            }
            free(cdp_eval(&browser, "(window.scrollTo(0, 0), document.getElementById('panel').scrollTop = 0, true)", 10000));
            char path[128];
            snprintf(path, sizeof path, "build/screenshots/board-%s%s.png", g->name, k ? "-phone" : "");
            ck_assert(cdp_screenshot(&browser, path));
            if (k == 0) {
                click("#analyse");
                ck_assert(cdp_wait(&browser, "(async () => { await denham.busy; return !denham.searching; })()", WAIT_MS));
            }
        }
    }
    window_size(1280, 800);
}
END_TEST

/* Every test runs against `denham serve`; against the static folder
 * (DENHAM_WEB_TRANSPORT=static) those that need no server of Denham's
 * (web_host.h), and in CI's static run (make test-web-static) those
 * marked WEB_CI. */
Suite *suite_web(void)
{
    Suite *s = suite_create("web");
    TCase *tc = tcase_create("browser");
    tcase_set_timeout(tc, 900);
    tcase_add_checked_fixture(tc, web_setup, web_teardown); /* a browser and a server per test */
    int variants = 0;
    while (variants_at(variants))
        variants++;
    if (web_wants(WEB_BOTH))
        tcase_add_loop_test(tc, every_variant_played_by_clicks, 0, variants);
    if (web_wants(WEB_BOTH))
        tcase_add_test(tc, bolix_and_brandubh_against_denham_to_the_end);
    if (web_wants(WEB_BOTH))
        tcase_add_test(tc, jinxx_with_dice_against_denham);
    if (web_wants(WEB_CI))
        tcase_add_test(tc, match_games_replayed);
    if (web_wants(WEB_CI))
        tcase_add_test(tc, analysis_lines_best_move_and_plot);
    if (web_wants(WEB_BOTH))
        tcase_add_test(tc, position_string_flip_copy_and_a_pasted_line);
    if (web_wants(WEB_BOTH))
        tcase_add_test(tc, phone_width_and_keyboard);
    suite_add_tcase(s, tc);
    /* What issue 54 asked of the board (CK_RUN_CASE=board runs these only). */
    TCase *tc2 = tcase_create("board");
    tcase_set_timeout(tc2, 900);
    tcase_add_checked_fixture(tc2, web_setup, web_teardown);
    if (web_wants(WEB_SERVER))
        tcase_add_loop_test(tc2, messages_inside_the_window, 0, 2);
    if (web_wants(WEB_CI))
        tcase_add_test(tc2, game_survives_a_reload_a_link_and_a_file);
    if (web_wants(WEB_BOTH))
        tcase_add_loop_test(tc2, the_end_drawn_and_the_board_read, 0, 2);
    if (web_wants(WEB_BOTH))
        tcase_add_loop_test(tc2, reading_the_board, 0, 2);
    if (web_wants(WEB_BOTH))
        tcase_add_test(tc2, scores_and_plot);
    if (web_wants(WEB_BOTH))
        tcase_add_test(tc2, replay_fast_and_not_silent);
    if (web_wants(WEB_SERVER))
        tcase_add_test(tc2, over_max_sessions);
    if (web_wants(WEB_BOTH))
        tcase_add_test(tc2, engine_panel_layout);
    if (web_wants(WEB_BOTH))
        tcase_add_test(tc2, keyboard_play_and_visible_focus);
    suite_add_tcase(s, tc2);
    /* The pictures of docs/images/ (CK_RUN_CASE=screenshots). */
    TCase *tc3 = tcase_create("screenshots");
    tcase_set_timeout(tc3, 900);
    tcase_add_checked_fixture(tc3, web_setup, web_teardown);
    if (web_wants(WEB_BOTH))
        tcase_add_test(tc3, screenshots_of_every_family);
    suite_add_tcase(s, tc3);
    return s;
}
