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

/* The tree's name for people: "South's tree by a1". */
static void tree_title(const game_t *g, int player, int file, int rank, char out[48])
{
    snprintf(out, 48, "%s's tree by %c%d", g->player_names[player], 'a' + file % 3, rank % 3 + 1);
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
            char id[16], name[48];
            tree_place(side_of(g, p), k, &file, &rank, &x, &y);
            tree_name(p, file, rank, id);
            tree_title(g, p, file, rank, name);
            view_cell_named(j, id, name, x, y, "slot", seat_colors[p], "tree");
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

/* The players out ("gone", from the trees field's 'x'), with why. */
static void gone_players(const game_t *g, const char *trees, json_t *j)
{
    json_key(j, "gone");
    json_array(j);
    int p = 0;
    for (const char *t = trees; *t && p < g->players; t++) {
        if (*t == 'x') {
            char text[128];
            snprintf(text, sizeof text,
                     "%s was vaporized: left with two pyramids, which can make no line, and both were removed.",
                     g->player_names[p]);
            view_gone(j, p, text);
        }
        p += *t == '/';
    }
    json_end(j);
}

/* The face the die shows in pos ("-" before the roll). */
static void die_face(const game_t *g, const position_t *pos, char die[8])
{
    char fen[GAME_FEN_MAX];
    g->write_fen(pos, fen, sizeof fen);
    const char *c = fen; /* board, trees, player, die, counter */
    for (int field = 0; field < 3 && c; field++)
        c = strchr(c, ' ') ? strchr(c, ' ') + 1 : NULL;
    snprintf(die, 8, "%.*s", c ? (int)strcspn(c, " ") : 1, c ? c : "-");
}

/* Does one of the moves move a pyramid of the mover's own? A move "Mb1b2"
 * moves the medium pyramid on b1, whose owner the position string gives;
 * a move from a tree ("M@b1") is always the mover's. */
static bool own_move_among(const game_t *g, const position_t *pos, const move_t *moves, int n)
{
    char fen[GAME_FEN_MAX];
    g->write_fen(pos, fen, sizeof fen);
    char mover = (char)('1' + g->to_move(pos));
    for (int i = 0; i < n; i++) {
        char text[GAME_MOVE_TEXT_MAX];
        g->move_text(pos, moves[i], text, sizeof text);
        if (strlen(text) < 4 || !strchr("LMS", text[0]))
            continue;
        if (text[1] == '@')
            return true;
        int file = text[1] - 'a', rank = text[2] - '1';
        const char *c = fen; /* ranks 3 to 1, cells by ',' and '/' */
        for (int k = 0; k < (2 - rank) * 3 + file && *c && *c != ' '; k++)
            c += strcspn(c, ",/ ") + 1;
        for (size_t len = strcspn(c, ",/ "), h = 0; h + 1 < len; h += 2)
            if (c[h] == text[0] && c[h + 1] == mover)
                return true;
    }
    return false;
}

/* The turn in words ("notes") when the die gives the mover no move of
 * their own: what they may do instead (settled points 1, 2 and 4), read
 * from the legal moves. */
static void turn_notes(const game_t *g, const position_t *pos, json_t *j)
{
    json_key(j, "notes");
    json_array(j);
    move_t moves[MAX_MOVES];
    int n = game_at_chance(g, pos) ? 0 : g->gen_moves(pos, moves);
    bool reroll = false, pass = false;
    int others = 0;
    for (int i = 0; i < n; i++) {
        char text[GAME_MOVE_TEXT_MAX];
        g->move_text(pos, moves[i], text, sizeof text);
        if (strcmp(text, "reroll") == 0)
            reroll = true;
        else if (strcmp(text, "pass") == 0)
            pass = true;
        else
            others++;
    }
    const char *who = g->player_names[g->to_move(pos)];
    char note[200], die[8];
    die_face(g, pos, die);
    if (reroll) {
        snprintf(note, sizeof note, "no pyramid of %s's can move with %s: %s may roll again%s", who, die, who,
                 others ? " or move another player's pyramid on the board" : "");
        json_string(j, note);
    } else if (pass) {
        snprintf(note, sizeof note, "%s can make no move with any face: %s passes", who, who);
        json_string(j, note);
    } else if (n > 0 && !own_move_among(g, pos, moves, n)) {
        snprintf(note, sizeof note, "no pyramid of %s's can move with %s: %s must move another player's pyramid", who,
                 die, who);
        json_string(j, note);
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
        gone_players(g, trees, j);
    }
    turn_notes(g, pos, j);
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
        const char *who = g->player_names[g->to_move(pos)];
        char note[160], die[8];
        die_face(g, pos, die);
        if (strcmp(text, "reroll") == 0) {
            view_move_members(j, NULL, 0, NULL, 0, false, "Roll again");
            snprintf(note, sizeof note, "No pyramid of %s's can move with %s: roll the die again", who, die);
            view_move_note(j, note);
        } else if (strcmp(text, "pass") == 0) {
            view_move_members(j, NULL, 0, NULL, 0, false, "Pass");
            snprintf(note, sizeof note, "%s can make no move with any face: the turn passes", who);
            view_move_note(j, note);
        } else {
            view_move_members(j, NULL, 0, NULL, 0, false, text);
        }
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
