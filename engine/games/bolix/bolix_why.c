/*
 * bolix_why.c: Bolix in words for people (game.h, explain_illegal and
 * explain_result): why a typed move is refused, named as
 * docs/rules/bolix.md words the rule, and where and why a game ended (the
 * five or more in a row). Asks the rules (the legal moves, the position's
 * fields) and decides no legality itself; may not reach into the
 * evaluation or the search.
 */
#include "bolix_why.h"

#include <stdio.h>
#include <string.h>

#include "bolix.h"
#include "bolix_rules.h"

#define SAY(...) snprintf(buf, len, __VA_ARGS__)

static const char *const colour_title[2] = {"Black", "White"};

static void cell_name(int c, char out[4])
{
    snprintf(out, 4, "%c%u", 'a' + (unsigned)bolix_cell_q[c] % 10u, (unsigned)bolix_cell_n[c] % 100u);
}

/* ---- refused moves ---- */

/* A cell as typed: a letter and a number, on the board or not. */
typedef struct typed_cell {
    char letter;
    int number;
    int cell; /* -1 off the board */
} typed_cell_t;

/* Reads a letter and one or two digits at *s; false if there are none. */
static bool read_cell(const char **s, typed_cell_t *c)
{
    const char *p = *s;
    if (p[0] < 'a' || p[0] > 'z' || p[1] < '0' || p[1] > '9')
        return false;
    c->letter = p[0];
    c->number = p[1] - '0';
    p += 2;
    if (*p >= '0' && *p <= '9')
        c->number = c->number * 10 + (*p++ - '0');
    c->cell = c->letter <= 'j' ? at(c->letter - 'a', c->number) : -1;
    *s = p;
    return true;
}

/* A typed cell off the board: which cells its column holds. */
static bool why_off_board(const typed_cell_t *c, char *buf, size_t len)
{
    if (c->cell >= 0)
        return false;
    int q = c->letter - 'a';
    if (q > 9)
        SAY("%c%d is off the board: the columns run from a to j", c->letter, c->number);
    else
        SAY("%c%d is off the board: column %c holds %c%d to %c%d", c->letter, c->number, c->letter, c->letter,
            col_lo[q], c->letter, col_hi[q]);
    return true;
}

/* The legal moves placing on cell c, and how many. */
static int moves_on(const position_t *pos, int c, move_t *out)
{
    move_t all[MAX_MOVES];
    int n = bolix_gen_moves(pos, all), k = 0;
    for (int i = 0; i < n; i++)
        if (all[i] != PASS && move_place(all[i]) == c)
            out[k++] = all[i];
    return k;
}

/* "e5xf6 or e5xg7": the legal moves on one cell, as text. */
static void list_moves(const move_t *moves, int n, char *out, size_t size)
{
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        char text[GAME_MOVE_TEXT_MAX];
        bolix.move_text(NULL, moves[i], text, sizeof text);
        snprintf(out + strlen(out), size - strlen(out), "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ", text);
    }
}

/* The cell itself: empty, and not barred by ko. */
static bool why_not_there(const bolix_t *b, int c, char *buf, size_t len)
{
    char name[4];
    cell_name(c, name);
    if (bb128_test(bb128_or(b->men[0], b->men[1]), c))
        SAY("%s is taken: a marble goes on an empty cell", name);
    else if (c == b->ko)
        SAY("ko: your marble was just taken from %s, and you may not place there again on this very turn", name);
    else
        return false;
    return true;
}

/* The removal part: what the placement on c captures, if anything. */
static void why_removal(const position_t *pos, int c, const typed_cell_t *removed, char *buf, size_t len)
{
    const bolix_t *b = CP(pos);
    move_t moves[MAX_MOVES];
    int n = moves_on(pos, c, moves);
    char name[4], choices[200];
    cell_name(c, name);
    list_moves(moves, n, choices, sizeof choices);
    bool captures = n > 0 && move_removed(moves[0]) >= 0;
    if (!removed && captures)
        SAY("placing on %s encloses two of the opponent's marbles, and you must choose which to remove: %s", name,
            choices);
    else if (removed && !captures && bb128_test(bolix_five_makers(b, b->stm), c))
        SAY("placing on %s makes five in a row and wins at once, so it captures nothing: write %s", name, name);
    else if (removed && !captures)
        SAY("placing on %s encloses no pair of the opponent's marbles (yours, theirs, theirs, yours in a line), so "
            "there is nothing to remove: write %s",
            name, name);
    else if (removed)
        SAY("%c%d is not one of the marbles that placing on %s encloses: %s", removed->letter, removed->number, name,
            choices);
    else
        SAY("it is not one of the legal moves here");
}

void bolix_explain_illegal(const position_t *pos, const char *text, char *buf, size_t len)
{
    const bolix_t *b = CP(pos);
    char lower[GAME_MOVE_TEXT_MAX];
    game_lower(text, lower, sizeof lower);
    if (strcmp(lower, "pass") == 0) {
        SAY("you may pass only when you have no marble left in hand (you have %d)", b->hand[b->stm]);
        return;
    }
    const char *s = lower;
    typed_cell_t place, removed;
    bool has_removal = false;
    bool ok = read_cell(&s, &place);
    if (ok && *s == 'x') {
        s++;
        ok = read_cell(&s, &removed);
        has_removal = true;
    }
    if (!ok || *s) {
        SAY("it is not a move in Bolix notation: a move is the cell you place on, such as e5, or the cell and the "
            "marble it removes, such as e5xf6; with no marble in hand, pass");
        return;
    }
    if (b->hand[b->stm] == 0)
        SAY("you have no marble left in hand, so you must pass");
    else if (!why_off_board(&place, buf, len) && !(has_removal && why_off_board(&removed, buf, len)) &&
             !why_not_there(b, place.cell, buf, len))
        why_removal(pos, place.cell, has_removal ? &removed : NULL, buf, len);
}

/* ---- the end of the game ---- */

/* The three line directions, as steps of (column, number). */
static const int line_dq[3] = {0, 1, 1}, line_dn[3] = {1, 0, 1};

/* Adds every run of five or more of colour s's marbles, cell by cell along
 * each run. */
static void add_fives(const bolix_t *b, int s, game_why_t *why)
{
    for (int c = 0; c < N_CELLS; c++)
        for (int d = 0; d < 3; d++) {
            int q = bolix_cell_q[c], n = bolix_cell_n[c], prev = at(q - line_dq[d], n - line_dn[d]);
            if (!bb128_test(b->men[s], c) || (prev >= 0 && bb128_test(b->men[s], prev)))
                continue; /* not the start of a run */
            int run = 0;
            while (at(q + run * line_dq[d], n + run * line_dn[d]) >= 0 &&
                   bb128_test(b->men[s], at(q + run * line_dq[d], n + run * line_dn[d])))
                run++;
            for (int k = 0; run >= 5 && k < run; k++) {
                char name[4];
                cell_name(at(q + k * line_dq[d], n + k * line_dn[d]), name);
                game_why_add(why, name);
            }
        }
}

void bolix_explain_result(const game_t *g, const position_t *pos, const position_t *before, move_t last,
                          game_why_t *why)
{
    (void)g, (void)before, (void)last;
    const bolix_t *b = CP(pos);
    if (!b->fives) {
        snprintf(why->text, sizeof why->text, "Both players passed, one after the other: drawn.");
        return;
    }
    int s = (b->fives & (1u << (b->stm ^ 1))) ? b->stm ^ 1 : b->stm;
    add_fives(b, s, why);
    char cells[160] = ""; /* 32 cells of 3 letters and a space at most */
    for (int i = 0; i < why->cells; i++)
        snprintf(cells + strlen(cells), sizeof cells - strlen(cells), "%s%s", i ? " " : "", why->cell[i]);
    snprintf(why->text, sizeof why->text, "%s has %s in a row: %s.", colour_title[s],
             why->cells > 5 ? "five or more" : "five", cells);
}
