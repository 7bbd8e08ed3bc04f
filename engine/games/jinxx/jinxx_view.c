/*
 * jinxx_view.c: Jinxx as a GUI draws it (game.h, view_board and the rest):
 * the 3x3 grid, each seat's three trees as places beside its edge, stacks
 * read back from the game's own position string, the die, and moves as
 * two clicks (a tree, then the cell it enters) with the size as a choice.
 *
 * Reaches the game only through its game_t and position strings.
 */
#include "jinxx_view.h"

#include <stdio.h>
#include <string.h>

#include "../../core/view.h"
#include "jinxx.h"

#define MARGIN 1.5 /* room for the trees beside the grid */

static const char *const seat_colors[4] = {"#d64545", "#2f6fd6", "#2e9e5b", "#d6a12f"};

/* Where player p sits: 0 South, 1 West, 2 North, 3 East (from its name). */
static int side_of(const game_t *g, int p)
{
    switch (g->player_names[p][0]) {
    case 'W': return 1;
    case 'N': return 2;
    case 'E': return 3;
    default: return 0;
    }
}

/* The edge cell in front of tree k of a player sitting at side, and the
 * tree's drawing centre. */
static void tree_place(int side, int k, int *file, int *rank, double *x, double *y)
{
    static const int files[4][3] = {{0, 1, 2}, {0, 0, 0}, {0, 1, 2}, {2, 2, 2}};
    static const int ranks[4][3] = {{0, 0, 0}, {0, 1, 2}, {2, 2, 2}, {0, 1, 2}};
    *file = files[side][k];
    *rank = ranks[side][k];
    /* Beside the edge cell, just off the grid on the player's side. */
    double cx = MARGIN + *file + 0.5, cy = MARGIN + (2 - *rank) + 0.5;
    *x = side == 1 ? MARGIN - 0.6 : side == 3 ? MARGIN + 3.6 : cx;
    *y = side == 0 ? MARGIN + 3.6 : side == 2 ? MARGIN - 0.6 : cy;
}

static void tree_name(int player, int file, int rank, char out[16])
{
    snprintf(out, 16, "tree-%d-%c%d", player % 10, 'a' + file % 3, rank % 3 + 1);
}

static double size_of(char s) { return s == 'L' ? 1.0 : s == 'M' ? 0.74 : 0.5; }

void jinxx_view_board(const game_t *g, json_t *j)
{
    json_kstring(j, "geometry", "square");
    json_knumber(j, "width", 3 + 2 * MARGIN);
    json_knumber(j, "height", 3 + 2 * MARGIN);
    view_colors(j, seat_colors, g->players);
    json_key(j, "cells");
    json_array(j);
    for (int rank = 0; rank < 3; rank++)
        for (int file = 0; file < 3; file++) {
            char id[4];
            view_square_name(file, rank, id);
            bool centre = file == 1 && rank == 1;
            view_cell(j, id, MARGIN + file + 0.5, MARGIN + (2 - rank) + 0.5, "square",
                      centre ? "#e9dcc0" : "#f4ecd8", centre ? "centre" : NULL);
        }
    for (int p = 0; p < g->players; p++)
        for (int k = 0; k < 3; k++) {
            int file, rank;
            double x, y;
            char id[16];
            tree_place(side_of(g, p), k, &file, &rank, &x, &y);
            tree_name(p, file, rank, id);
            view_cell(j, id, x, y, "slot", seat_colors[p], "tree");
        }
    json_end(j);
    view_no_links(j);
    json_key(j, "labels");
    json_array(j);
    for (int i = 0; i < 3; i++) {
        char file[2] = {(char)('a' + i), 0}, rank[2] = {(char)('1' + i), 0};
        view_label(j, file, MARGIN + i + 0.5, 3 + 2 * MARGIN - 0.15);
        view_label(j, rank, 0.2, MARGIN + (2 - i) + 0.5);
    }
    json_end(j);
}

/* One stack, bottom first, from a cell's text ("L1M2", "." empty). */
static void stack_of(json_t *j, const char *text, size_t n)
{
    json_key(j, "stack");
    json_array(j);
    for (size_t i = 0; i + 1 < n; i += 2) {
        char size[2] = {text[i], 0};
        view_piece(j, text[i + 1] - '1', "pyramid", size, size_of(text[i]));
    }
    json_end(j);
}

void jinxx_view_position(const game_t *g, const position_t *pos, json_t *j)
{
    char fen[GAME_FEN_MAX];
    g->write_fen(pos, fen, sizeof fen);
    json_key(j, "pieces");
    json_array(j);
    const char *c = fen;
    for (int rank = 2; rank >= 0; rank--)
        for (int file = 0; file < 3; file++) {
            size_t n = strcspn(c, ",/ ");
            if (!(n == 1 && c[0] == '.')) {
                char id[4];
                view_square_name(file, rank, id);
                json_object(j);
                json_kstring(j, "cell", id);
                stack_of(j, c, n);
                json_end(j);
            }
            c += n + (c[n] != 0);
        }
    /* The trees: per player three digits (the tree's height) or 'x'. */
    for (int p = 0; p < g->players && *c; p++) {
        for (int k = 0; k < 3 && *c != 'x'; k++) {
            int height = c[k] - '0', file, rank;
            double x, y;
            tree_place(side_of(g, p), k, &file, &rank, &x, &y);
            if (height <= 0)
                continue;
            char id[16];
            tree_name(p, file, rank, id);
            json_object(j);
            json_kstring(j, "cell", id);
            json_key(j, "stack");
            json_array(j);
            static const char sizes[3] = {'L', 'M', 'S'};
            for (int h = 0; h < height && h < 3; h++) {
                char label[2] = {sizes[h], 0};
                view_piece(j, p, "pyramid", label, size_of(sizes[h]));
            }
            json_end(j);
            json_end(j);
        }
        c += strcspn(c, "/ ");
        c += *c == '/';
    }
    json_end(j);
    /* The players out, the die and the turns without destruction or entry. */
    char trees[64] = "", turn[8] = "", die[8] = "-";
    int counter = 0;
    const char *fields = strchr(fen, ' ');
    if (fields && sscanf(fields, " %63s %7s %7s %d", trees, turn, die, &counter) == 4) {
        json_key(j, "out");
        json_array(j);
        int p = 0;
        for (const char *t = trees; *t; t++) {
            if (*t == 'x')
                json_int(j, p);
            if (*t == '/')
                p++;
        }
        json_end(j);
        json_key(j, "die");
        if (strcmp(die, "-") == 0)
            json_null(j);
        else
            json_string(j, die);
        json_kint(j, "counter", counter);
    }
}

/* The pyramids on the board and in the trees of pos (a vaporized
 * player's are gone), read from its position string. */
static int pyramids_in_play(const game_t *g, const position_t *pos)
{
    char fen[GAME_FEN_MAX];
    g->write_fen(pos, fen, sizeof fen);
    int n = 0;
    const char *c = fen;
    for (; *c && *c != ' '; c++)
        n += *c == 'L' || *c == 'M' || *c == 'S';
    for (c += *c == ' '; *c && *c != ' '; c++) /* each tree's height, 0 to 3 */
        n += *c >= '0' && *c <= '3' ? *c - '0' : 0;
    return n;
}

void jinxx_view_move(const game_t *g, const position_t *pos, move_t m, json_t *j)
{
    char text[GAME_MOVE_TEXT_MAX];
    g->move_text(pos, m, text, sizeof text);
    size_t n = strlen(text);
    if (n < 4 || !strchr("LMS", text[0])) { /* a face of the die, reroll or pass */
        view_move_members(j, NULL, 0, NULL, 0, false, text);
        return;
    }
    static char from[16], to[4];
    if (text[1] == '@') {
        int player = g->to_move(pos);
        tree_name(player, text[2] - 'a', text[3] - '1', from);
        snprintf(to, sizeof to, "%.2s", text + 2);
    } else {
        snprintf(from, sizeof from, "%.2s", text + 1);
        snprintf(to, sizeof to, "%.2s", text + 3);
    }
    const char *clicks[2] = {from, to};
    /* A pyramid of the same size where it lands is destroyed: fewer
     * pyramids in play after the move. */
    position_t next = *pos;
    undo_t u;
    g->make(&next, m, &u);
    bool destroyed = pyramids_in_play(g, &next) < pyramids_in_play(g, pos);
    const char *removes[1] = {to};
    char label[8];
    snprintf(label, sizeof label, "%c", text[0]);
    view_move_members(j, clicks, 2, removes, destroyed ? 1 : 0, false, label);
}
