/*
 * view.c: see view.h.
 * Core: includes nothing above engine/core/ and names no game.
 */
#include "view.h"

#include <string.h>


void view_cell(json_t *j, const char *id, double x, double y, const char *shape, const char *fill,
               const char *kind)
{
    view_cell_named(j, id, NULL, x, y, shape, fill, kind);
}

void view_cell_named(json_t *j, const char *id, const char *name, double x, double y, const char *shape,
                     const char *fill, const char *kind)
{
    json_object(j);
    json_kstring(j, "id", id);
    if (name)
        json_kstring(j, "name", name);
    json_knumber(j, "x", x);
    json_knumber(j, "y", y);
    json_kstring(j, "shape", shape);
    if (fill)
        json_kstring(j, "fill", fill);
    if (kind)
        json_kstring(j, "kind", kind);
    json_end(j);
}

void view_label(json_t *j, const char *text, double x, double y)
{
    json_object(j);
    json_kstring(j, "text", text);
    json_knumber(j, "x", x);
    json_knumber(j, "y", y);
    json_end(j);
}

void view_no_links(json_t *j)
{
    json_key(j, "links");
    json_array(j);
    json_end(j);
}

void view_link(json_t *j, const char *a, const char *b, const char *color)
{
    json_object(j);
    json_kstring(j, "a", a);
    json_kstring(j, "b", b);
    json_kstring(j, "color", color);
    json_end(j);
}

void view_colors(json_t *j, const char *const *colors, int seats)
{
    json_key(j, "colors");
    json_array(j);
    for (int i = 0; i < seats; i++)
        json_string(j, colors[i]);
    json_end(j);
}

void view_piece(json_t *j, int owner, const char *kind, const char *label, double size)
{
    json_object(j);
    json_kint(j, "owner", owner);
    json_kstring(j, "kind", kind);
    if (label)
        json_kstring(j, "label", label);
    json_knumber(j, "size", size);
    json_end(j);
}

void view_move_members(json_t *j, const char *const *clicks, int n_clicks, const char *const *removes,
                       int n_removes, bool call, const char *label)
{
    json_key(j, "clicks");
    json_array(j);
    for (int i = 0; i < n_clicks; i++)
        json_string(j, clicks[i]);
    json_end(j);
    json_key(j, "removes");
    json_array(j);
    for (int i = 0; i < n_removes; i++)
        json_string(j, removes[i]);
    json_end(j);
    json_kbool(j, "call", call);
    if (label)
        json_kstring(j, "label", label);
}

void view_mark(json_t *j, const char *cell, const char *text)
{
    json_object(j);
    json_kstring(j, "cell", cell);
    json_kstring(j, "text", text);
    json_end(j);
}

void view_gone(json_t *j, int seat, const char *text)
{
    json_object(j);
    json_kint(j, "seat", seat);
    json_kstring(j, "text", text);
    json_end(j);
}

void view_move_note(json_t *j, const char *note)
{
    if (note)
        json_kstring(j, "note", note);
}

const char *view_read_square_board(const char *fen, int size, char *cells)
{
    memset(cells, 0, (size_t)(size * size));
    const char *c = fen;
    for (int rank = size - 1; rank >= 0 && *c && *c != ' '; rank--, c += *c == '/')
        for (int file = 0; *c && *c != '/' && *c != ' '; c++) {
            if (*c >= '1' && *c <= '9')
                file += *c - '0';
            else if (file < size)
                cells[rank * size + file++] = *c;
        }
    return *c == ' ' ? c + 1 : c;
}

void view_square_name(int file, int rank, char out[4])
{
    /* Boards have at most 26 files and 99 ranks. */
    out[0] = (char)('a' + file % 26);
    int r = (rank % 99) + 1;
    if (r < 10) {
        out[1] = (char)('0' + r);
        out[2] = 0;
    } else {
        out[1] = (char)('0' + r / 10);
        out[2] = (char)('0' + r % 10);
        out[3] = 0;
    }
}
