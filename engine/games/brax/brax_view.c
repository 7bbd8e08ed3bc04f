/*
 * brax_view.c: Brax as a GUI draws it (game.h, view_board and the rest):
 * the 81 points and the red and blue segments between them, the men read
 * back from the game's own position string, moves as clicks on their
 * points (a double capture's middle point too), a call as a choice.
 *
 * Reaches the game through its game_t, its position strings, the board's
 * colouring (brax_segment_colour) and, for who must answer a call, the
 * rules' own answer (brax_forced_men, brax_plain_moves).
 */
#include "brax_view.h"

#include <stdio.h>
#include <string.h>

#include "../../core/view.h"
#include "brax_geometry.h"
#include "brax_rules.h"

#define SIZE 9
#define RED "#c0392b"
#define BLUE "#2563eb"

/* Seat colours: partners share their team's colour, a shade apart. */
static const char *const colors_2p[2] = {RED, BLUE};
static const char *const colors_3p[3] = {RED, BLUE, "#8e1b10"};
static const char *const colors_4p[4] = {RED, BLUE, "#8e1b10", "#123f9c"};
static const char *const labels_3p[3] = {"R1", "B", "R2"};
static const char *const labels_4p[4] = {"S", "W", "N", "E"};

static const char *const *seat_colors(const game_t *g)
{
    return g->players == 4 ? colors_4p : g->players == 3 ? colors_3p : colors_2p;
}

static void point_name(int p, char out[4]) { view_square_name(p % SIZE, p / SIZE, out); }

/* The seat owning a man written as letter c: r and b the two sides (or
 * South/R1 and West/Blue), R and B the team games' North/R2 and East. */
static int owner_of(char c) { return c == 'r' ? 0 : c == 'b' ? 1 : c == 'R' ? 2 : c == 'B' ? 3 : -1; }

/* The men of pos: cells[point] a letter or 0; the fields after the board
 * in *tail. */
static void read_cells(const game_t *g, const position_t *pos, char cells[SIZE * SIZE], char *fen, size_t len,
                       const char **tail)
{
    g->write_fen(pos, fen, len);
    *tail = view_read_square_board(fen, SIZE, cells);
}

void brax_view_board(const game_t *g, json_t *j)
{
    json_kstring(j, "geometry", "lines");
    json_knumber(j, "width", SIZE + 1);
    json_knumber(j, "height", SIZE + 1);
    view_colors(j, seat_colors(g), g->players);
    json_key(j, "cells");
    json_array(j);
    for (int p = 0; p < SIZE * SIZE; p++) {
        char id[4];
        point_name(p, id);
        view_cell(j, id, p % SIZE + 1, SIZE - p / SIZE, "point", NULL, NULL);
    }
    json_end(j);
    json_key(j, "links");
    json_array(j);
    for (int p = 0; p < SIZE * SIZE; p++) {
        int right = p % SIZE < SIZE - 1 ? p + 1 : -1, up = p / SIZE < SIZE - 1 ? p + SIZE : -1;
        for (int k = 0; k < 2; k++) {
            int q = k ? up : right;
            if (q < 0)
                continue;
            char a[4], b[4];
            point_name(p, a);
            point_name(q, b);
            view_link(j, a, b, brax_segment_colour(p, q) == 0 ? RED : BLUE);
        }
    }
    json_end(j);
    json_key(j, "labels");
    json_array(j);
    for (int i = 0; i < SIZE; i++) {
        char file[2] = {(char)('a' + i), 0}, rank[2] = {(char)('1' + i), 0};
        view_label(j, file, i + 1, SIZE + 0.7);
        view_label(j, rank, 0.3, SIZE - i);
    }
    json_end(j);
}

/* Who must answer a call, in words ("notes"), and the men that may answer
 * it drawn as such ("marks"): the mover's men the caller threatens that
 * can move (settled point 14); when none can, the call binds nothing. */
static void call_notes(const game_t *g, const position_t *pos, json_t *j)
{
    const brax_t *b = CP(pos);
    move_t moves[MAX_MOVES];
    bool live = b->caller >= 0 && g->gen_moves(pos, moves) > 0; /* no call binds a finished game */
    bb128_t forced = live ? brax_forced_men(b) : bb128_zero();
    if (b->first >= 0) /* Blue's second ply moves another man */
        forced = bb128_andnot(forced, bb128_bit(b->first));
    char list[96] = "", note[192];
    int n = 0;
    for (bb128_t f = forced; !bb128_empty(f);) {
        int p = bb128_pop(&f);
        if (brax_plain_moves(b, b->stm, bb128_bit(p), moves) == 0) {
            forced = bb128_andnot(forced, bb128_bit(p));
            continue;
        }
        char name[4];
        point_name(p, name);
        size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, "%s%s", n ? ", " : "", name);
        n++;
    }
    json_key(j, "notes");
    json_array(j);
    if (live && n > 0) {
        snprintf(note, sizeof note, "%s called Brax: %s must move a threatened man (%s, marked)",
                 g->player_names[b->caller], g->player_names[b->stm], list);
        json_string(j, note);
    } else if (live && !bb128_empty(brax_forced_men(b))) {
        snprintf(note, sizeof note, "%s called Brax, but no threatened man of %s's can move: any move",
                 g->player_names[b->caller], g->player_names[b->stm]);
        json_string(j, note);
    }
    json_end(j);
    json_key(j, "marks");
    json_array(j);
    for (bb128_t f = forced; n > 0 && !bb128_empty(f);) {
        char name[4];
        point_name(bb128_pop(&f), name);
        snprintf(note, sizeof note, "%s is threatened: %s called Brax, so %s must move one of the marked men", name,
                 g->player_names[b->caller], g->player_names[b->stm]);
        view_mark(j, name, note);
    }
    json_end(j);
}

/* The team games: a player whose men are all taken is out while the team
 * plays on ("gone"). */
static void gone_players(const game_t *g, const position_t *pos, json_t *j)
{
    json_key(j, "gone");
    json_array(j);
    player_mask_t in = g->players_in(pos);
    for (int p = 0; g->players > 2 && p < g->players; p++)
        if (!(in & player_bit(p))) {
            char text[96];
            snprintf(text, sizeof text, "%s is out: every man of %s's was taken.", g->player_names[p],
                     g->player_names[p]);
            view_gone(j, p, text);
        }
    json_end(j);
}

void brax_view_position(const game_t *g, const position_t *pos, json_t *j)
{
    char cells[SIZE * SIZE], fen[GAME_FEN_MAX];
    const char *tail;
    read_cells(g, pos, cells, fen, sizeof fen, &tail);
    json_key(j, "pieces");
    json_array(j);
    for (int p = 0; p < SIZE * SIZE; p++) {
        int owner = owner_of(cells[p]);
        if (owner < 0 || owner >= g->players)
            continue;
        char id[4];
        point_name(p, id);
        json_object(j);
        json_kstring(j, "cell", id);
        json_key(j, "stack");
        json_array(j);
        const char *label = g->players == 4 ? labels_4p[owner] : g->players == 3 ? labels_3p[owner] : NULL;
        view_piece(j, owner, "man", label, 0.7);
        json_end(j);
        json_end(j);
    }
    json_end(j);
    call_notes(g, pos, j);
    gone_players(g, pos, j);
}

void brax_view_move(const game_t *g, const position_t *pos, move_t m, json_t *j)
{
    char text[GAME_MOVE_TEXT_MAX];
    g->move_text(pos, m, text, sizeof text);
    bool call = strchr(text, '+') != NULL;
    /* The points named, in order: from, (middle,) to. */
    static char named[3][4];
    const char *clicks[3];
    int n = 0;
    for (const char *c = text; c[0] && c[1] && n < 3;) {
        if (c[0] >= 'a' && c[0] <= 'i' && c[1] >= '1' && c[1] <= '9') {
            snprintf(named[n], sizeof named[n], "%.2s", c);
            clicks[n] = named[n];
            n++;
            c += 2;
        } else {
            c++;
        }
    }
    /* What it takes: points that held a man of another team before and
     * do not hold that man after. */
    char before[SIZE * SIZE], after[SIZE * SIZE], fen[GAME_FEN_MAX];
    const char *tail;
    read_cells(g, pos, before, fen, sizeof fen, &tail);
    position_t next = *pos;
    undo_t u;
    g->make(&next, m, &u);
    read_cells(g, &next, after, fen, sizeof fen, &tail);
    int team = g->team_of[g->to_move(pos)];
    static char taken_names[2][4];
    const char *taken[2];
    int k = 0;
    for (int p = 0; p < SIZE * SIZE && k < 2; p++) {
        int owner = owner_of(before[p]);
        if (owner >= 0 && owner < g->players && g->team_of[owner] != team && after[p] != before[p]) {
            point_name(p, taken_names[k]);
            taken[k] = taken_names[k];
            k++;
        }
    }
    char label[GAME_MOVE_TEXT_MAX + 16];
    if (n == 0)
        snprintf(label, sizeof label, "%s", call ? "pass, calling Brax" : "pass");
    else
        snprintf(label, sizeof label, "%s%s", text, call ? " (Brax!)" : "");
    view_move_members(j, clicks, n, taken, k, call, label);
}
