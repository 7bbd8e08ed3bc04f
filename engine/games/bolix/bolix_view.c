/*
 * bolix_view.c: Bolix as a GUI draws it (game.h, view_board and the rest):
 * the 80 hexagonal cells, the marbles and the hands read back from the
 * game's own position string, a placement as one click and its removal as
 * a second.
 *
 * Reaches the game only through its game_t and position strings.
 */
#include "bolix_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/view.h"
#include "bolix.h"

#define COLUMNS 10
#define HEX_H 0.8660254037844386 /* half the height of a flat-topped hexagon of side 1 */

static const int first[COLUMNS] = {1, 1, 1, 1, 1, 1, 2, 3, 4, 5}; /* each column's lowest number */
static const int last[COLUMNS] = {6, 7, 8, 9, 10, 10, 10, 10, 10, 10};
static const char *const seat_colors[2] = {"#1d1d1f", "#f5f5f2"}; /* black, white */

/* The drawing centre of cell (column q, number n): neighbours along a
 * column, along a number and along the diagonal are all sqrt(3) apart. */
static void centre(int q, int n, double *x, double *y)
{
    *x = 1.0 + 1.5 * q;
    *y = HEX_H * (2 * (10 - n) + q - 4) + 1.0; /* e10 at the top, f1 at the bottom */
}

static void cell_name(int q, int n, char out[4]) { view_square_name(q, n - 1, out); }

/* The marbles of pos: cells[q][n] is 'b', 'w' or 0; the rest of the
 * position string (side, hands, ko, passes) in *tail. */
static void read_cells(const game_t *g, const position_t *pos, char cells[COLUMNS][11], char *fen, size_t len,
                       const char **tail)
{
    g->write_fen(pos, fen, len);
    memset(cells, 0, COLUMNS * 11);
    const char *c = fen;
    for (int q = 0; q < COLUMNS && *c && *c != ' '; q++, c += *c == '/') {
        int n = first[q];
        while (*c && *c != '/' && *c != ' ') {
            if (*c >= '0' && *c <= '9') {
                n += (int)strtol(c, (char **)&c, 10);
            } else {
                if (n <= last[q])
                    cells[q][n] = *c;
                n++;
                c++;
            }
        }
    }
    *tail = *c == ' ' ? c + 1 : c;
}

void bolix_view_board(const game_t *g, json_t *j)
{
    (void)g; /* one board for every variant of the game */
    double right, top, left, bottom;
    centre(COLUMNS - 1, 10, &right, &top);
    centre(5, 1, &left, &bottom);
    json_kstring(j, "geometry", "hex");
    json_knumber(j, "width", right + 1.0);
    json_knumber(j, "height", bottom + 2.0);
    view_colors(j, seat_colors, 2);
    json_key(j, "cells");
    json_array(j);
    for (int q = 0; q < COLUMNS; q++)
        for (int n = first[q]; n <= last[q]; n++) {
            char id[4];
            double x, y;
            cell_name(q, n, id);
            centre(q, n, &x, &y);
            view_cell(j, id, x, y, "hex", "#d9c7a4", NULL);
        }
    json_end(j);
    view_no_links(j);
    json_key(j, "labels");
    json_array(j);
    for (int q = 0; q < COLUMNS; q++) {
        char text[2] = {(char)('a' + q), 0};
        double x, y;
        centre(q, first[q], &x, &y);
        view_label(j, text, x, y + 1.6);
    }
    json_end(j);
}

void bolix_view_position(const game_t *g, const position_t *pos, json_t *j)
{
    char cells[COLUMNS][11], fen[GAME_FEN_MAX];
    const char *tail;
    read_cells(g, pos, cells, fen, sizeof fen, &tail);
    json_key(j, "pieces");
    json_array(j);
    for (int q = 0; q < COLUMNS; q++)
        for (int n = first[q]; n <= last[q]; n++) {
            if (!cells[q][n])
                continue;
            char id[4];
            cell_name(q, n, id);
            json_object(j);
            json_kstring(j, "cell", id);
            json_key(j, "stack");
            json_array(j);
            view_piece(j, cells[q][n] == 'b' ? 0 : 1, "marble", NULL, 0.8);
            json_end(j);
            json_end(j);
        }
    json_end(j);
    /* The side to move, the hands and the cell barred by ko. */
    char side = 0, ko[8] = "-";
    int hand[2] = {0, 0};
    if (sscanf(tail, "%c %d %d %7s", &side, &hand[0], &hand[1], ko) == 4) {
        json_key(j, "hand");
        json_array(j);
        json_int(j, hand[0]);
        json_int(j, hand[1]);
        json_end(j);
        json_key(j, "barred");
        json_array(j);
        if (strcmp(ko, "-") != 0)
            json_string(j, ko);
        json_end(j);
    }
}

void bolix_view_move(const game_t *g, const position_t *pos, move_t m, json_t *j)
{
    char text[GAME_MOVE_TEXT_MAX];
    g->move_text(pos, m, text, sizeof text);
    if (strcmp(text, "pass") == 0) {
        view_move_members(j, NULL, 0, NULL, 0, false, "pass");
        return;
    }
    char placed[8] = "", removed[8] = "";
    const char *x = strchr(text, 'x');
    snprintf(placed, sizeof placed, "%.*s", x ? (int)(x - text) : (int)strlen(text), text);
    if (x)
        snprintf(removed, sizeof removed, "%s", x + 1);
    const char *clicks[2] = {placed, removed}, *removes[1] = {removed};
    view_move_members(j, clicks, x ? 2 : 1, removes, x ? 1 : 0, false, text);
}
