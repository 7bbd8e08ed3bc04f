/*
 * brandubh_view.c: Brandubh as a GUI draws it (game.h, view_board and the
 * rest): a 7x7 board with its throne and corners, the pieces read back
 * from the game's own position string, moves as two clicks.
 *
 * Reaches the game only through its game_t and position strings.
 */
#include "brandubh_view.h"

#include "../../core/view.h"
#include "brandubh.h"

#define SIZE 7

static const char *const seat_colors[2] = {"#2f2a26", "#f3ede0"}; /* attackers dark, defenders light */

/* The board of pos as letters: cells[rank][file], 0 for empty. */
static void read_cells(const game_t *g, const position_t *pos, char cells[SIZE][SIZE])
{
    char fen[GAME_FEN_MAX];
    g->write_fen(pos, fen, sizeof fen);
    view_read_square_board(fen, SIZE, &cells[0][0]);
}

void bdb_view_board(const game_t *g, json_t *j)
{
    (void)g; /* one board for every variant of the game */
    json_kstring(j, "geometry", "square");
    json_knumber(j, "width", SIZE);
    json_knumber(j, "height", SIZE);
    view_colors(j, seat_colors, 2);
    json_key(j, "cells");
    json_array(j);
    for (int rank = 0; rank < SIZE; rank++)
        for (int file = 0; file < SIZE; file++) {
            char id[4];
            view_square_name(file, rank, id);
            bool corner = (file == 0 || file == SIZE - 1) && (rank == 0 || rank == SIZE - 1);
            bool throne = file == SIZE / 2 && rank == SIZE / 2;
            view_cell(j, id, file + 0.5, SIZE - rank - 0.5, "square",
                      corner ? "#9c6b3f" : throne ? "#c9a46a" : (file + rank) % 2 ? "#e8dcc2" : "#dccdae",
                      corner ? "corner" : throne ? "throne" : NULL);
        }
    json_end(j);
    view_no_links(j);
    json_key(j, "labels");
    json_array(j);
    for (int i = 0; i < SIZE; i++) {
        char file[2] = {(char)('a' + i), 0}, rank[3] = {(char)('1' + i), 0};
        view_label(j, file, i + 0.5, SIZE + 0.35);
        view_label(j, rank, -0.35, SIZE - i - 0.5);
    }
    json_end(j);
}

void bdb_view_position(const game_t *g, const position_t *pos, json_t *j)
{
    char cells[SIZE][SIZE];
    read_cells(g, pos, cells);
    json_key(j, "pieces");
    json_array(j);
    for (int rank = 0; rank < SIZE; rank++)
        for (int file = 0; file < SIZE; file++) {
            char c = cells[rank][file], id[4];
            if (!c)
                continue;
            view_square_name(file, rank, id);
            json_object(j);
            json_kstring(j, "cell", id);
            json_key(j, "stack");
            json_array(j);
            view_piece(j, c == 'a' ? 0 : 1, c == 'k' ? "king" : "man", c == 'k' ? "K" : NULL, c == 'k' ? 1.0 : 0.85);
            json_end(j);
            json_end(j);
        }
    json_end(j);
}

void bdb_view_move(const game_t *g, const position_t *pos, move_t m, json_t *j)
{
    char text[GAME_MOVE_TEXT_MAX];
    g->move_text(pos, m, text, sizeof text);
    char from[3] = {text[0], text[1], 0}, to[3] = {text[2], text[3], 0};
    const char *clicks[2] = {from, to};
    /* What the move takes: the cells that held a piece before and not after. */
    char before[SIZE][SIZE], after[SIZE][SIZE];
    read_cells(g, pos, before);
    position_t next = *pos;
    undo_t u;
    g->make(&next, m, &u); /* the version is in the position itself */
    read_cells(g, &next, after);
    static char taken[3][4];
    const char *removes[3];
    int n = 0;
    for (int rank = 0; rank < SIZE; rank++)
        for (int file = 0; file < SIZE; file++)
            if (before[rank][file] && !after[rank][file] && n < 3 &&
                !(file == from[0] - 'a' && rank == from[1] - '1')) {
                view_square_name(file, rank, taken[n]);
                removes[n] = taken[n];
                n++;
            }
    view_move_members(j, clicks, 2, removes, n, false, text);
}
