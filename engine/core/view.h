/*
 * view.h: helpers the games' GUI views share (game.h: view_board,
 * view_position, view_move). They write JSON in the shapes PROTOCOL.md
 * ("Describing the game") documents, so that every game's description
 * reads alike.
 *
 * May not reach into any game: the games call these.
 */
#ifndef DENHAM_VIEW_H
#define DENHAM_VIEW_H

#include "json.h"

/* One cell of "cells": its name (what moves and clicks use), its centre in
 * drawing units (x to the right, y downwards), its shape ("square" and
 * "hex" of side 1, "point" a crossing of lines, "slot" a place off the
 * board), a fill colour or NULL, a short kind ("throne") or NULL. */
void view_cell(json_t *j, const char *id, double x, double y, const char *shape, const char *fill,
               const char *kind);
/* The same with a name for people where the id is no square's name (a
 * Jinxx tree: "South's tree by a1"); view_cell is this with name NULL. */
void view_cell_named(json_t *j, const char *id, const char *name, double x, double y, const char *shape,
                     const char *fill, const char *kind);
/* One entry of "labels": coordinates drawn at (x, y). */
void view_label(json_t *j, const char *text, double x, double y);
/* One entry of "links": a line from cell a to cell b, in a colour. */
void view_link(json_t *j, const char *a, const char *b, const char *color);
/* "links" for a board that draws no line between its cells: [] (a GUI
 * reads the member in every game). */
void view_no_links(json_t *j);
/* "colors": each seat's colour, in seat order. */
void view_colors(json_t *j, const char *const *colors, int seats);
/* One piece of a stack: its owner (a seat), kind ("man", "king", "marble",
 * "pyramid"), a short label drawn on it (or NULL) and its size relative to
 * the largest piece (1). */
void view_piece(json_t *j, int owner, const char *kind, const char *label, double size);
/* The members of a move's view: clicks and removes (cell names), whether
 * it calls, and a label for choosing between moves with the same clicks. */
void view_move_members(json_t *j, const char *const *clicks, int n_clicks, const char *const *removes,
                       int n_removes, bool call, const char *label);
/* One entry of a state's "marks": a cell to draw attention to, with the
 * sentence that says why (a man that must answer a Brax call). */
void view_mark(json_t *j, const char *cell, const char *text);
/* One entry of a state's "gone": a seat no longer in the game while the
 * others play on, with the sentence that says why. */
void view_gone(json_t *j, int seat, const char *text);
/* A move's "note": a sentence saying what a move without cells does (a
 * button's description: why one may roll again). */
void view_move_note(json_t *j, const char *note);
/* Square boards: reads the board of a position string written rank by
 * rank from the top (letters for pieces, digits for empty cells, ranks
 * separated by '/') into cells[rank * size + file] (0 for empty); returns
 * the text after the board's space (its other fields). */
const char *view_read_square_board(const char *fen, int size, char *cells);
/* Square boards: the cell name of file f, rank r (0-based): "a1". */
void view_square_name(int file, int rank, char out[4]);

#endif
