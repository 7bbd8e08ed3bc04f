/* test_web_board.c: what people still met on the board (issue 63), each
 * done in a real browser as the person did it and checked as a person sees
 * it, at a desktop's size (1280x800) and a phone's (390x844): a message
 * that leaves the board free, a reload in a replay, a Jinxx player knocked
 * out, the Brax call marked, clocks over a reload and a flag fall, text
 * never cut or covered, the words a person reads, Jinxx's roll again, the
 * four-player plot, the best-move arrow and Brax's targets, a position
 * string with moves. After each step the page's layout is checked
 * (web_layout.h); any error in the page fails the test. Screenshots
 * of the Brax call, a knocked-out Jinxx player and a flag fall after a
 * reload go to build/screenshots/board63-*.png. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../bench/tools/cdp.h"
#include "../bench/tools/http_client.h"
#include "../engine/core/record.h"
#include "../engine/core/rng.h"
#include "../engine/core/timeman.h"
#include "../engine/games/variants.h"
#include "helpers.h"
#include "web_layout.h"
#include "web_page.h"

static served_t server;
static cdp_t browser;
static bool have_browser;
static char base_url[64];
static const int sizes[2][2] = {{1280, 800}, {390, 844}};

static void board_setup(void)
{
    have_browser = web_fixture_start(&server, &browser, base_url, sizeof base_url, "--max-sessions 4", true);
}

static void board_teardown(void)
{
    if (have_browser)
        web_fixture_stop(&server, &browser, true);
}

/* The page at size k (0 desktop, 1 phone) on a variant, every seat a
 * person (people) or the first seat's side (the rest Denham's, 50 ms a
 * move). */
static void open_game(int k, const char *variant, bool people)
{
    cdp_window(&browser, sizes[k][0], sizes[k][1]);
    char url[160];
    snprintf(url, sizeof url, "%s#%s", base_url, variant);
    web_open(&browser, url);
    ck_assert_str_eq(web_text(&browser, "denham.layout.variant"), variant);
    web_set_control(&browser, "movetime", "50");
    web_set_control(&browser, "preset", people ? "people" : "first");
    ck_assert(web_waits_for_a_person(&browser));
}

/* The layout checked after a step (where: the step): at the size of the
 * window, each test doing its steps at both sizes. */
static void layout_ok(const char *where)
{
    web_layout_check(&browser, where, false);
}

static void shot(const char *name, int k)
{
    char path[160];
    snprintf(path, sizeof path, "build/screenshots/board63-%s-%d.png", name, sizes[k][0]);
    ck_assert(cdp_screenshot(&browser, path));
}

/* A position string typed into the Game panel's box, and the page there. */
static void set_start(const char *text, int plies)
{
    web_type(&browser, "#fen-input", text);
    char expr[160];
    snprintf(expr, sizeof expr, "(async () => { await denham.busy; return denham.game.moves.length === %d; })()", plies);
    ck_assert_msg(cdp_wait(&browser, expr, WEB_WAIT_MS), "'%.80s' set %s", text,
                  web_text(&browser, "JSON.stringify(denham.game)"));
    ck_assert(web_waits_for_a_person(&browser));
}

/* Waits until the game holds more than `plies` moves. */
static void wait_moves(int plies)
{
    char expr[96];
    snprintf(expr, sizeof expr, "denham.game.moves.length > %d", plies);
    ck_assert_msg(cdp_wait(&browser, expr, WEB_WAIT_MS), "no move after ply %d: %s", plies,
                  web_text(&browser, "JSON.stringify({moves: denham.game.moves, error: denham.messages.errorText})"));
}

static int plies(void) { return atoi(web_text(&browser, "String(denham.game.moves.length)")); }

/* Clicks a cell of the board. */
static void click_cell(const char *cell)
{
    char sel[64];
    snprintf(sel, sizeof sel, "[data-cell=\"%s\"]", cell);
    web_click(&browser, sel);
}

/* ---- 1. a message never covers the board ---- */

/* Brax, both seats a person: e1e3, then b9b7 typed: the refusal says why,
 * above the board, no cell under it; a man on row 9 is clicked and picked
 * while it shows. */
START_TEST(a_message_leaves_the_board_free)
{
    if (!have_browser)
        return;
    for (int k = 0; k < 2; k++) {
        open_game(k, "brax", true);
        web_type(&browser, "#move-input", "e1e3");
        wait_moves(0);
        ck_assert(web_waits_for_a_person(&browser));
        web_type(&browser, "#move-input", "b9b7");
        web_says(&browser, "#error", "Illegal move 'b9b7'");
        layout_ok("a refused move's message");
        /* No cell's rectangle meets the message's, and where a cell is in
         * the window the point at its centre is that cell. */
        ck_assert_msg(web_true(&browser,
                               "(() => { const m = document.getElementById('error').getBoundingClientRect(); "
                               "return [...document.querySelectorAll('[data-cell]')].every((c) => { "
                               "const r = c.getBoundingClientRect(), x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2; "
                               "const apart = r.bottom <= m.top || r.top >= m.bottom || r.right <= m.left || r.left >= m.right; "
                               "const inside = y > 0 && y < innerHeight && x > 0 && x < innerWidth; "
                               "return apart && (!inside || document.elementFromPoint(x, y) === c); }); })()"),
                      "%dx%d: the message covers a cell", sizes[k][0], sizes[k][1]);
        click_cell("b9");
        ck_assert_msg(web_true(&browser, "String(denham.board.selection) === 'b9' && "
                                         "document.querySelectorAll('#board [data-target]').length > 0"),
                      "b9 was not picked: %s", web_text(&browser, "document.getElementById('status').textContent"));
        ck_assert(web_true(&browser, "!document.getElementById('error').hidden")); /* still said, about this position */
        layout_ok("a man picked under the message");
        shot("message", k);
    }
}
END_TEST

/* ---- 2. a reload in a replay ---- */

/* Brax against Denham, e1e3 and its answer; a games file opened under
 * "Replay a match", two steps, a reload: the replay comes back at its move
 * with "Back to my game", and that is the Brax game, kept in the address
 * and in storage. */
START_TEST(a_reload_in_a_replay_keeps_my_game)
{
    if (!have_browser)
        return;
    /* A games file of denham-match's (two games: the list, as a match's). */
    char path[512];
    ck_assert(getcwd(path, sizeof path - 64));
    strcat(path, "/build/web_board_replay.txt");
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("1\tbrandubh\ta\tb\t0-1\tking captured\trandom\tstartpos moves d2c2 d3d2 f4f6 c2c3 e5e6\n"
          "2\tbrandubh\tb\ta\t1-0\tking escaped\trandom\tstartpos moves d6e6 d5c5\n", f);
    ck_assert_int_eq(fclose(f), 0);
    for (int k = 0; k < 2; k++) {
        open_game(k, "brax", false);
        web_type(&browser, "#move-input", "e1e3");
        wait_moves(1); /* Denham answered */
        ck_assert(web_waits_for_a_person(&browser));
        char mine[256];
        snprintf(mine, sizeof mine, "%s", web_text(&browser, "denham.game.moves.join(' ')"));
        ck_assert(cdp_set_file(&browser, "#games-file", path));
        ck_assert(cdp_wait(&browser, "denham.view === 0 && !document.getElementById('replay-bar').hidden", WEB_WAIT_MS));
        web_click(&browser, "#replay-next");
        web_click(&browser, "#replay-next");
        ck_assert(cdp_wait(&browser, "denham.view === 2", WEB_WAIT_MS));
        web_reload(&browser);
        ck_assert_msg(cdp_wait(&browser, "denham.view === 2 && !document.getElementById('replay-bar').hidden", WEB_WAIT_MS),
                      "after the reload: %s", web_text(&browser, "JSON.stringify({view: denham.view, variant: "
                                                                 "denham.layout.variant, moves: denham.game.moves})"));
        web_says(&browser, "#replay-where", "move 2 of");
        ck_assert_msg(web_in_view(&browser, "#replay-back-to-game"), "no \"Back to my game\" after the reload");
        ck_assert_str_eq(web_text(&browser, "denham.layout.variant"), "brandubh");
        /* The game in progress is kept: in the address and in storage. */
        ck_assert_msg(web_true(&browser, "(() => { const p = new URLSearchParams(location.hash.slice(1)); "
                                         "return p.get('variant') === 'brax' && p.get('position').endsWith(denham.myGame.game.moves.join(' ')); })()"),
                      "the address: %s", web_text(&browser, "decodeURIComponent(location.hash)"));
        char expr[512];
        snprintf(expr, sizeof expr,
                 "(() => { const s = JSON.parse(localStorage.getItem('denham.v1')); return s.variant === 'brax' && "
                 "s.game.moves.join(' ') === '%s'; })()",
                 mine);
        ck_assert_msg(web_true(&browser, expr), "storage: %s", web_text(&browser, "localStorage.getItem('denham.v1')"));
        layout_ok("a replay after a reload");
        ck_assert(cdp_wait(&browser, "denham.busy.then(() => true)", WEB_WAIT_MS)); /* the replay's plot done */
        web_click(&browser, "#replay-back-to-game");
        ck_assert_msg(cdp_wait(&browser, "denham.view === null && denham.layout.variant === 'brax'", WEB_WAIT_MS),
                      "back to my game: %s",
                      web_text(&browser, "JSON.stringify({view: denham.view, variant: denham.layout.variant, fg: "
                                         "denham.jobs.fg.length, bg: denham.jobs.bg.length, error: "
                                         "denham.messages.errorText, status: document.getElementById('status').textContent, "
                                         "back: document.getElementById('replay-back-to-game').getBoundingClientRect().top})"));
        ck_assert(web_waits_for_a_person(&browser));
        ck_assert_str_eq(web_text(&browser, "denham.game.moves.join(' ')"), mine);
        ck_assert_str_eq(web_text(&browser, "denham.seats.join(',')"), "human,engine");
        free(cdp_eval(&browser, "(localStorage.clear(), true)", 10000)); /* the next size starts afresh */
    }
}
END_TEST

/* ---- 3. a player knocked out of Jinxx ---- */

/* Jinxx for four, South a person with three pyramids left: South's medium
 * onto its own medium destroys one, and South is vaporized. The page says
 * so and who plays on, and keeps saying it while the others play. */
START_TEST(a_knocked_out_player_is_told)
{
    if (!have_browser)
        return;
    for (int k = 0; k < 2; k++) {
        open_game(k, "jinxx-4p", false);
        set_start(".,.,S1/M1,L2,./M1,L3,. 000/033/033/333 p1 M 0", 0);
        ck_assert(web_true(&browser, "denham.seats[0] === 'human' && denham.seats.slice(1).every((s) => s === 'engine')"));
        click_cell("a1");
        click_cell("a2");
        wait_moves(0);
        ck_assert_str_eq(web_text(&browser, "denham.game.moves[0]"), "Ma1a2");
        web_says(&browser, "#banner", "South was vaporized: left with two pyramids");
        web_says(&browser, "#banner", "West, North and East play on.");
        /* Still said while the others play on. */
        wait_moves(4);
        web_says(&browser, "#banner", "South was vaporized");
        ck_assert(web_true(&browser, "!denham.state.in.includes(0)"));
        layout_ok("a knocked-out player");
        shot("jinxx-out", k);
    }
}
END_TEST

/* ---- 4. the Brax call ---- */

/* The positions before a call (both seats people): blue's c8c7+ in Brax,
 * Blue's a8a7+ in brax-3p (its second ply). */
static const char *const BEFORE_CALL_2P = "1bb1bb1b1/2b4b1/9/9/2r6/9/1r7/4r1r2/3r1r2r b - 25";
static const char *const BEFORE_CALL_3P = "9/b1b6/8b/4bb3/4r4/9/9/4r2R1/4rR2R b2 - - f6 41";

/* The call made by clicks and the chooser, as a person makes it; then it
 * binds the mover: the note beside the status, the man marked, through a
 * pick, the chooser and a click on another man. */
static void call_said(int k, const char *variant, const char *before, const char *from, const char *call,
                      const char *note, const char *man, const char *to)
{
    open_game(k, variant, true);
    set_start(before, 0);
    click_cell(from);
    click_cell(call);
    char sel[96], want[160], expr[200];
    snprintf(sel, sizeof sel, "#chooser:not([hidden]) button[data-move=\"%s%s+\"]", from, call);
    ck_assert(cdp_wait(&browser, "!document.getElementById('chooser').hidden", WEB_WAIT_MS));
    web_click(&browser, sel);
    wait_moves(0);
    ck_assert(web_waits_for_a_person(&browser));
    web_says(&browser, "#status-notes", note);
    snprintf(sel, sizeof sel, "#board [data-mark=\"%s\"]", man);
    ck_assert_msg(web_in_view(&browser, sel), "%s is not marked", man);
    ck_assert_int_eq(atoi(web_text(&browser, "String(document.querySelectorAll('#board [data-mark]').length)")), 1);
    layout_ok("a Brax call");
    shot(variant, k);
    char other[8]; /* another man of the mover's */
    snprintf(expr, sizeof expr,
             "denham.state.pieces.find((p) => p.stack[0].owner === denham.state.turn && p.cell !== '%s').cell", man);
    snprintf(other, sizeof other, "%s", web_text(&browser, expr));
    click_cell(man);
    snprintf(want, sizeof want, "%s picked", man);
    web_says(&browser, "#status", want);
    web_says(&browser, "#status-notes", note);
    click_cell(to);
    ck_assert(cdp_wait(&browser, "!document.getElementById('chooser').hidden", WEB_WAIT_MS));
    snprintf(want, sizeof want, "%s to %s: choose the move below", man, to);
    web_says(&browser, "#status", want);
    web_says(&browser, "#status-notes", note);
    layout_ok("the chooser of a move under a call");
    web_click(&browser, "#chooser button:last-child"); /* Cancel */
    click_cell(other);
    snprintf(want, sizeof want, "no move starts at %s", other);
    web_says(&browser, "#status", want);
    web_says(&browser, "#status-notes", note);
}

START_TEST(the_brax_call_is_marked_and_said)
{
    if (!have_browser)
        return;
    for (int k = 0; k < 2; k++) {
        call_said(k, "brax", BEFORE_CALL_2P, "c8", "c7", "blue called Brax: red must move a threatened man (c5, marked)",
                  "c5", "c6");
        call_said(k, "brax-3p", BEFORE_CALL_3P, "a8", "a7",
                  "Blue called Brax: R1 must move a threatened man (e5, marked)", "e5", "d5");
    }
}
END_TEST

/* ---- 5. clocks over a reload and a flag fall ---- */

START_TEST(clocks_survive_a_reload_and_a_flag_stays)
{
    if (!have_browser)
        return;
    for (int k = 0; k < 2; k++) {
        open_game(k, "brax", true);
        web_set_control(&browser, "time-control", "custom");
        web_set_control(&browser, "time-base", "6");
        web_set_control(&browser, "time-inc", "0");
        ck_assert(cdp_wait(&browser, "document.querySelector('#clocks .clock.running') !== null", 5000));
        web_type(&browser, "#move-input", "e1e3");
        wait_moves(0);
        ck_assert(cdp_wait(&browser, "document.querySelector('#clocks .clock.running').dataset.seat === '1'", 5000));
        usleep(700 * 1000);
        int red = atoi(web_text(&browser, "String(Math.round(denham.clock.left[0]))"));
        int blue = atoi(web_text(&browser, "String(Math.round(denham.clock.left[1]))"));
        int64_t t0 = timeman_now_ms();
        web_reload(&browser);
        /* The time control and both clocks came back, blue's still running,
         * the time the reload took counted to it. */
        ck_assert_str_eq(web_text(&browser, "document.getElementById('time-control').value"), "custom");
        ck_assert_str_eq(web_text(&browser, "document.getElementById('time-base').value"), "6");
        ck_assert(cdp_wait(&browser, "document.querySelector('#clocks .clock.running') !== null", 5000));
        ck_assert_str_eq(web_text(&browser, "document.querySelector('#clocks .clock.running').dataset.seat"), "1");
        int red_after = atoi(web_text(&browser, "String(Math.round(denham.clock.left[0]))"));
        int blue_after = atoi(web_text(&browser, "String(Math.round(denham.clock.left[1]))"));
        int reload_ms = (int)(timeman_now_ms() - t0);
        ck_assert_msg(abs(red_after - red) < 60, "red's clock %d before the reload, %d after", red, red_after);
        ck_assert_msg(blue_after > 0 && blue_after < blue - 50 && blue_after > blue - reload_ms - 300,
                      "blue's clock: %d ms before a reload of %d ms, %d after", blue, reload_ms, blue_after);
        /* Blue's flag falls; a reload keeps it fallen. */
        ck_assert(cdp_wait(&browser, "!!denham.state.result", 8000));
        web_says(&browser, "#banner", "Red won: blue ran out of time.");
        web_reload(&browser);
        web_says(&browser, "#banner", "Red won: blue ran out of time.");
        web_says(&browser, "#status", "Game over on time: New game, or Clock \"none\" to play on.");
        ck_assert(web_true(&browser, "document.querySelector('#clocks .clock.flagged').dataset.seat === '1'"));
        ck_assert_int_eq(plies(), 1);
        layout_ok("a flag fallen, after a reload");
        shot("flag-after-reload", k);
        /* Nothing plays on: the board, Undo and the move box say why. */
        click_cell("b9");
        web_says(&browser, "#status", "The game is over on time");
        web_click(&browser, "#undo");
        web_says(&browser, "#error", "The game ended on time, and Undo brings no time back");
        web_type(&browser, "#move-input", "b9b8");
        web_says(&browser, "#error", "The game is over on time: New game, or choose \"none\" under Clock to play on.");
        ck_assert_int_eq(plies(), 1);
        /* No clock: the game plays on from where it stood. */
        web_set_control(&browser, "time-control", "");
        ck_assert(cdp_wait(&browser, "document.getElementById('banner').hidden && !denham.state.result", 5000));
        ck_assert(web_waits_for_a_person(&browser));
        web_type(&browser, "#move-input", web_text(&browser, "denham.legal[0].move"));
        wait_moves(1);
        free(cdp_eval(&browser, "(localStorage.clear(), true)", 10000));
    }
}
END_TEST

/* ---- 6. text never cut or covered ---- */

/* A Brax game of n plies from the start, random but legal and not over
 * (static), as `startpos moves ...`. */
static const char *long_brax_game(int n)
{
    static char text[4096];
    const game_t *g = variants_find("brax");
    static record_t r;
    rng_t rng = {63};
    for (int attempt = 0; attempt < 20; attempt++) {
        position_t start;
        g->set_start(&start);
        ck_assert(record_init(&r, g, &start));
        size_t len = (size_t)snprintf(text, sizeof text, "startpos moves");
        int ply = 0;
        for (; ply < n; ply++) {
            move_t moves[MAX_MOVES];
            int k = record_legal_moves(&r, moves);
            if (k == 0 || record_outcome(&r).kind != OUTCOME_NONE)
                break;
            move_t m = moves[rng_below(&rng, (uint32_t)k)];
            char mt[GAME_MOVE_TEXT_MAX];
            g->move_text(&r.pos, m, mt, sizeof mt);
            ck_assert(record_play(&r, m));
            len += (size_t)snprintf(text + len, sizeof text - len, " %s", mt);
        }
        bool whole = ply == n && record_outcome(&r).kind == OUTCOME_NONE;
        record_free(&r);
        if (whole)
            return text;
    }
    ck_abort_msg("no Brax game of %d plies", n);
    return NULL;
}

START_TEST(text_is_never_cut_or_covered)
{
    if (!have_browser)
        return;
    for (int k = 0; k < 2; k++) {
        /* Brandubh to its end, then a click on the board: the end said
         * once, the status whole. */
        open_game(k, "brandubh", true);
        static const char *const moves[] = {"d6e6", "d5c5", "e6e7", "d4d6", "b4b5", "d6a6", "a4a5"};
        for (int i = 0; i < 7; i++) {
            web_type(&browser, "#move-input", moves[i]);
            wait_moves(i);
            ck_assert(web_waits_for_a_person(&browser));
        }
        web_says(&browser, "#banner", "The attackers captured the king on a6");
        click_cell("d4");
        web_says(&browser, "#status", "The game is over: New game, Undo, or Open another.");
        ck_assert_msg(web_true(&browser, "document.getElementById('board-area').innerText.split('captured the king').length === 2"),
                      "the end is said more than once: %s", web_text(&browser, "document.getElementById('board-area').innerText"));
        layout_ok("the end of Brandubh, the board clicked");
        /* A replay: the reason a click does nothing, whole, above the bar. */
        free(cdp_eval(&browser, "(() => { document.getElementById('games-paste').value = '1\\tbrandubh\\ta\\tb\\t0-1\\t"
                                "x\\trandom\\tstartpos moves d2c2 d3d2 f4f6'; document.getElementById('replay-panel').open "
                                "= true; return true; })()",
                      10000));
        web_click(&browser, "#games-load");
        ck_assert(cdp_wait(&browser, "denham.view === 0 && !document.getElementById('replay-bar').hidden", WEB_WAIT_MS));
        click_cell("d4");
        web_says(&browser, "#status", "This is a replay");
        layout_ok("a click on a replay's board");
        /* The chooser above the Move row; a plot of 81 plies. */
        open_game(k, "brax", true);
        set_start("1bb1bb1b1/7b1/2b6/9/2r6/9/1r7/4r1r2/3r1r2r r b 26", 0); /* after blue's c8c7+ */
        click_cell("c5");
        click_cell("c6");
        ck_assert(cdp_wait(&browser, "!document.getElementById('chooser').hidden", WEB_WAIT_MS));
        layout_ok("the chooser");
        web_click(&browser, "#chooser button:last-child");
        set_start(long_brax_game(81), 81);
        ck_assert_str_eq(web_text(&browser, "[...document.querySelectorAll('#plot text')].pop().textContent"), "ply 81");
        layout_ok("a plot of 81 plies");
    }
}
END_TEST

/* ---- 7. the words a person reads ---- */

START_TEST(words_a_person_reads)
{
    if (!have_browser)
        return;
    for (int k = 0; k < 2; k++) {
        /* Jinxx: a tree is South's tree by a cell, not an id. */
        open_game(k, "jinxx", true);
        set_start(".,.,./.,.,./.,.,. 333/333 p1 SM 0", 0);
        click_cell("tree-0-a1");
        web_says(&browser, "#status", "South's tree by a1 picked; now where it goes");
        click_cell("a1");
        ck_assert(cdp_wait(&browser, "!document.getElementById('chooser').hidden", WEB_WAIT_MS));
        web_says(&browser, "#status", "South: South's tree by a1 to a1: choose the move below");
        ck_assert_msg(!web_true(&browser, "/tree-\\d/.test(document.getElementById('board-area').innerText)"),
                      "a cell's id shows: %s", web_text(&browser, "document.getElementById('board-area').innerText"));
        layout_ok("Jinxx's chooser");
        /* More than two sides: a lost score says who loses. */
        ck_assert_str_eq(web_text(&browser, "import('./analysis.js').then((m) => m.scoreWords({ kind: 'mate', value: -3 }, "
                                            "{ teams: ['South', 'West', 'North'], seats: [{ name: 'South', team: 0 }, "
                                            "{ name: 'West', team: 1 }, { name: 'North', team: 2 }] }, 0).text)"),
                         "South loses in 3");
        /* The end, and a click after it: no result in brackets. */
        open_game(k, "brandubh", true);
        set_start("7/1a5/7/7/1k5/1a5/7 a moves b6b4", 1);
        click_cell("d4");
        web_says(&browser, "#status", "The game is over: New game, Undo, or Open another.");
        ck_assert(!web_true(&browser, "/\\(The|\\.\\)\\./.test(document.getElementById('board-area').innerText)"));
    }
}
END_TEST

/* ---- 8. Jinxx's roll again, the four-sided plot, the arrow, Brax's targets ---- */

START_TEST(roll_again_plot_arrow_and_targets)
{
    if (!have_browser)
        return;
    for (int k = 0; k < 2; k++) {
        /* No large pyramid of South's can move: roll again, explained. */
        open_game(k, "jinxx", true);
        set_start(".,.,./.,.,./M1,S1,S1 000/333 p1 L 0", 0);
        web_says(&browser, "#status-notes", "no pyramid of South's can move with L: South may roll again");
        web_says(&browser, "#specials button[data-move=\"reroll\"]", "Roll again");
        ck_assert_str_eq(web_text(&browser, "document.querySelector('#specials button[data-move=\"reroll\"]').title"),
                         "No pyramid of South's can move with L: roll the die again");
        ck_assert_str_eq(web_text(&browser, "document.querySelector('#specials button[data-move=\"reroll\"]')"
                                            ".getAttribute('aria-description')"),
                         "No pyramid of South's can move with L: roll the die again");
        layout_ok("Jinxx's roll again");
        web_click(&browser, "#specials button[data-move=\"reroll\"]");
        wait_moves(0);
        ck_assert_str_eq(web_text(&browser, "denham.game.moves[0]"), "reroll");
        /* Jinxx for four against Denham: every dot of the plot in its
         * mover's colour, Denham's hollow, as the legend says. */
        open_game(k, "jinxx-4p", false);
        for (int i = 0; i < 2; i++) {
            int before = plies();
            web_type(&browser, "#move-input", web_text(&browser, "denham.legal[0].move"));
            wait_moves(before);
            ck_assert(web_waits_for_a_person(&browser));
        }
        ck_assert(cdp_wait(&browser, "!!document.querySelector('#plot .plot-dot.own[data-mover]')", WEB_WAIT_MS));
        ck_assert_msg(web_true(&browser,
                               "(() => { const rgb = (c) => { const d = document.createElement('i'); d.style.color = c; "
                               "document.body.append(d); const v = getComputedStyle(d).color; d.remove(); return v; }; "
                               "return [...document.querySelectorAll('#plot .plot-dot[data-mover]')].every((d) => { "
                               "const s = getComputedStyle(d), want = rgb(denham.layout.colors[d.dataset.mover]); "
                               "return d.classList.contains('own') ? s.stroke === want && s.fill === 'rgb(255, 255, 255)' "
                               ": s.fill === want; }); })()"),
                      "a dot not in its mover's colour");
        /* Brax: the best move's arrow in a colour no line has, on a white edge. */
        open_game(k, "brax", true);
        web_click(&browser, "#analyse");
        ck_assert(cdp_wait(&browser, "!!document.querySelector('#board .bestline')", WEB_WAIT_MS));
        ck_assert_msg(web_true(&browser,
                               "(() => { const rgb = (s) => s.match(/\\d+/g).map(Number); "
                               "const arrow = rgb(getComputedStyle(document.querySelector('#board .bestline')).stroke); "
                               "const far = [...document.querySelectorAll('#board line')].every((l) => { "
                               "const c = rgb(getComputedStyle(l).stroke); return Math.hypot(c[0] - arrow[0], c[1] - "
                               "arrow[1], c[2] - arrow[2]) > 120; }); return far && !!document.querySelector('#board "
                               ".bestline-edge'); })()"),
                      "the arrow's colour is near a line's");
        web_click(&browser, "#analyse");
        ck_assert(cdp_wait(&browser, "(async () => { await denham.busy; return !denham.searching; })()", WEB_WAIT_MS));
        /* A man picked: its targets at least 16 px across. */
        click_cell(web_text(&browser, "denham.legal[0].clicks[0]"));
        ck_assert_msg(web_true(&browser, "[...document.querySelectorAll('#board .target:not(.target-ring)')].every((t) => "
                                         "t.getBoundingClientRect().width >= 16)"),
                      "%dx%d: a target %s px across", sizes[k][0], sizes[k][1],
                      web_text(&browser, "String(document.querySelector('#board .target').getBoundingClientRect().width)"));
        layout_ok("Brax's targets");
    }
}
END_TEST

/* ---- 9. a position string with moves ---- */

START_TEST(a_position_string_with_moves)
{
    if (!have_browser)
        return;
    static const char *const fen = "1bbbbbbb1/9/9/9/9/9/9/9/1rrrrrrr1 r - 0";
    for (int k = 0; k < 2; k++) {
        open_game(k, "brax", true);
        char text[160];
        snprintf(text, sizeof text, "%s moves e1e2", fen);
        set_start(text, 1);
        snprintf(text, sizeof text, "fen %s", fen);
        ck_assert_str_eq(web_text(&browser, "denham.game.start"), text);
        ck_assert_str_eq(web_text(&browser, "denham.game.moves.join(' ')"), "e1e2");
        ck_assert(web_true(&browser, "[...document.querySelectorAll('#moves .ply')].map((p) => p.textContent).join(' ') === 'e1e2'"));
        web_type(&browser, "#move-input", web_text(&browser, "denham.legal[0].move"));
        wait_moves(1);
        ck_assert(web_waits_for_a_person(&browser));
        char moves[64];
        snprintf(moves, sizeof moves, "%s", web_text(&browser, "denham.game.moves.join(' ')"));
        web_reload(&browser);
        ck_assert(web_waits_for_a_person(&browser));
        ck_assert_str_eq(web_text(&browser, "denham.game.moves.join(' ')"), moves);
        ck_assert(!web_true(&browser, "denham.game.moves.includes('moves')"));
        ck_assert_str_eq(web_text(&browser, "denham.game.start"), text);
        layout_ok("a position with moves, reloaded");
        free(cdp_eval(&browser, "(localStorage.clear(), true)", 10000));
    }
}
END_TEST

Suite *suite_web_board(void)
{
    Suite *s = suite_create("web_board");
    TCase *tc = tcase_create("board");
    tcase_set_timeout(tc, 900);
    tcase_add_checked_fixture(tc, board_setup, board_teardown);
    tcase_add_test(tc, a_message_leaves_the_board_free);
    tcase_add_test(tc, a_reload_in_a_replay_keeps_my_game);
    tcase_add_test(tc, a_knocked_out_player_is_told);
    tcase_add_test(tc, the_brax_call_is_marked_and_said);
    tcase_add_test(tc, clocks_survive_a_reload_and_a_flag_stays);
    tcase_add_test(tc, text_is_never_cut_or_covered);
    tcase_add_test(tc, words_a_person_reads);
    tcase_add_test(tc, roll_again_plot_arrow_and_targets);
    tcase_add_test(tc, a_position_string_with_moves);
    suite_add_tcase(s, tc);
    return s;
}
