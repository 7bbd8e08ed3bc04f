/*
 * jinxx_why.c: Jinxx in words for people (game.h, explain_illegal and
 * explain_result): why a typed move is refused, named as
 * docs/rules/jinxx.md words the rule, and where and why a game ended (the
 * line held). Asks the rules (the legal moves, the position's fields) and
 * decides no legality itself; may not reach into the evaluation or the
 * search.
 */
#include "jinxx_why.h"

#include <stdio.h>
#include <string.h>

#include "jinxx_rules.h"
#include "jinxx_text.h"

#define SAY(...) snprintf(buf, len, __VA_ARGS__)

static const char *const seat_title[4] = {"South", "West", "North", "East"};
static const char *const size_word[3] = {"small", "medium", "large"};

static const char *player_title(const jinxx_t *b, int p) { return seat_title[seat_of(b, p)]; }

static void cell_name(int c, char out[3])
{
    out[0] = (char)('a' + c % 3);
    out[1] = (char)('1' + c / 3);
    out[2] = 0;
}

static int read_cell(const char *s)
{
    if (s[0] < 'a' || s[0] > 'c' || s[1] < '1' || s[1] > '3')
        return -1;
    return (s[1] - '1') * 3 + (s[0] - 'a');
}

static int read_size(char c) { return c == 'S' ? SZ_S : c == 'M' ? SZ_M : c == 'L' ? SZ_L : -1; }

/* ---- refused moves ---- */

/* A board or tree move as typed: its size and cells (from -1 for a tree). */
typedef struct typed {
    int size, from, to;
} typed_t;

static bool read_typed(const char *t, typed_t *m)
{
    m->size = read_size(t[0]);
    if (m->size < 0)
        return false;
    if (t[1] == '@') {
        m->from = -1;
        m->to = read_cell(t + 2);
        return m->to >= 0 && t[4] == 0;
    }
    m->from = read_cell(t + 1);
    m->to = m->from >= 0 ? read_cell(t + 3) : -1;
    return m->to >= 0 && t[5] == 0;
}

/* A size and cells in form (letter, digit), one of them off the 3x3 grid. */
static bool why_off_board(const char *t, char *buf, size_t len)
{
    if (read_size(t[0]) < 0 || !t[1])
        return false;
    const char *c = t[1] == '@' ? t + 2 : t + 1;
    size_t n = strlen(c);
    bool form = t[1] == '@' ? n == 2 : n == 4;
    for (size_t i = 0; i < n && form; i += 2)
        form = c[i] >= 'a' && c[i] <= 'z' && c[i + 1] >= '0' && c[i + 1] <= '9';
    for (size_t i = 0; form && i < n; i += 2)
        if (read_cell(c + i) < 0) {
            SAY("%c%c is off the board: the cells run from a1 to c3", c[i], c[i + 1]);
            return true;
        }
    return false;
}

/* Does the roll give the player to move a move of their own? Then every
 * legal move is one (settled point 1). */
static bool has_own_move(const position_t *pos)
{
    const jinxx_t *b = CP(pos);
    move_t moves[MAX_MOVES];
    int n = jinxx_gen_moves(pos, moves);
    for (int i = 0; i < n; i++)
        if (m_kind(moves[i]) == K_TREE ||
            (m_kind(moves[i]) == K_BOARD && jinxx_owner_of(b, m_size(moves[i]), m_from(moves[i])) == b->stm))
            return true;
    return false;
}

static bool is_face(const char *t)
{
    for (int f = 0; f < 6; f++)
        if (strcmp(t, face_name[f]) == 0)
            return true;
    return false;
}

/* The words: a face, reroll, pass. */
static bool why_word(const position_t *pos, const char *t, char *buf, size_t len)
{
    const jinxx_t *b = CP(pos);
    if (is_face(t))
        SAY("the die is already rolled (%s): now move a pyramid of a size it shows, such as Mb1b2 or M@b1",
            face_name[b->die - 1]);
    else if (strcmp(t, "reroll") == 0 && has_own_move(pos))
        SAY("the roll gives you a move with your own pyramids, so you must make one: no reroll");
    else if (strcmp(t, "reroll") == 0)
        SAY("you may roll again only when some face of the die would give you a move of your own, and none would");
    else if (strcmp(t, "pass") == 0)
        SAY("a pass is allowed only when no other move is");
    else
        return false;
    return true;
}

/* The size against the face rolled. */
static bool why_size(const jinxx_t *b, int size, char *buf, size_t len)
{
    int face = b->die - 1;
    if (face_sizes[face] & (1u << size))
        return false;
    int a = __builtin_ctz(face_sizes[face]), z = 31 - __builtin_clz(face_sizes[face]);
    if (a == z)
        SAY("the die shows %s, which allows only a %s pyramid, not a %s one", face_name[face], size_word[a],
            size_word[size]);
    else
        SAY("the die shows %s, which allows a %s or a %s pyramid, not a %s one", face_name[face], size_word[a],
            size_word[z], size_word[size]);
    return true;
}

/* The cell reached: empty, or a top pyramid at least as large. */
static bool why_landing(const jinxx_t *b, const typed_t *m, char *buf, size_t len)
{
    if ((landable(b, m->size) >> m->to) & 1)
        return false;
    int top = SZ_S;
    while (!((b->sizes[top] >> m->to) & 1))
        top++;
    char to[3];
    cell_name(m->to, to);
    SAY("a pyramid lands only on an empty cell or on a pyramid at least its size, and the top of %s is %s", to,
        size_word[top]);
    return true;
}

/* A move from the mover's tree: which tree faces the cell, and what it holds. */
static bool why_tree(const jinxx_t *b, const typed_t *m, char *buf, size_t len)
{
    int seat = seat_of(b, b->stm), k = 0;
    while (k < 3 && edge_cell[seat][k] != m->to)
        k++;
    char to[3], e[3][3];
    cell_name(m->to, to);
    for (int i = 0; i < 3; i++)
        cell_name(edge_cell[seat][i], e[i]);
    if (k == 3)
        SAY("none of your trees stands in front of %s: yours are in front of %s, %s and %s", to, e[0], e[1], e[2]);
    else if (!tree_has(b->tree[b->stm][k], m->size))
        SAY("your tree in front of %s has no %s pyramid left", to, size_word[m->size]);
    else
        return why_landing(b, m, buf, len);
    return true;
}

/* A move on the board: one step, a pyramid of that size there, whose. */
static bool why_board(const position_t *pos, const typed_t *m, char *buf, size_t len)
{
    const jinxx_t *b = CP(pos);
    char from[3], to[3];
    cell_name(m->from, from);
    cell_name(m->to, to);
    if (!((jinxx_adjacent[m->from] >> m->to) & 1))
        SAY("a pyramid moves exactly one cell along a rank or a file, and %s to %s is not one", from, to);
    else if (!((b->sizes[m->size] >> m->from) & 1))
        SAY("there is no %s pyramid on %s", size_word[m->size], from);
    else if (jinxx_owner_of(b, m->size, m->from) != b->stm && has_own_move(pos))
        SAY("the %s pyramid on %s is %s's: the roll gives you a move of your own, so you must move one of your own "
            "pyramids",
            size_word[m->size], from, player_title(b, jinxx_owner_of(b, m->size, m->from)));
    else
        return why_landing(b, m, buf, len);
    return true;
}

void jinxx_explain_illegal(const position_t *pos, const char *text, char *buf, size_t len)
{
    const jinxx_t *b = CP(pos);
    if (b->die == 0) {
        SAY("the die is still to be rolled: the moves here are its faces, S, M, L, SM, SL and ML");
        return;
    }
    char t[GAME_MOVE_TEXT_MAX];
    jinxx_normalize(text, t, sizeof t);
    typed_t m;
    if (why_word(pos, t, buf, len) || why_off_board(t, buf, len))
        return;
    if (!read_typed(t, &m)) {
        SAY("it is not a move in Jinxx notation: a move is a size and the cells it leaves and reaches, such as "
            "Mb1b2, or from your tree a size, @ and the cell it enters, such as M@b1; also reroll and pass");
        return;
    }
    if (why_size(b, m.size, buf, len))
        return;
    if (!(m.from < 0 ? why_tree(b, &m, buf, len) : why_board(pos, &m, buf, len)))
        SAY("it is not one of the legal moves here");
}

/* ---- the end of the game ---- */

void jinxx_explain_result(const game_t *g, const position_t *pos, const position_t *before, move_t last,
                          game_why_t *why)
{
    (void)g;
    const jinxx_t *b = CP(pos);
    outcome_t o;
    if (!jinxx_decided(pos, &o) || o.kind == OUTCOME_DRAW) {
        snprintf(why->text, sizeof why->text, "Sixty turns without a pyramid destroyed or entering the board: drawn.");
        return;
    }
    int w = player_first(o.players);
    if (holds_line(b, w)) {
        unsigned t = tops(b, w);
        for (int l = 0; l < 4; l++)
            for (unsigned c = lines[l]; (t & lines[l]) == lines[l] && c; c &= c - 1) {
                char name[3];
                cell_name(__builtin_ctz(c), name);
                game_why_add(why, name);
            }
        char cells[64] = "";
        for (int i = 0; i < why->cells; i++)
            snprintf(cells + strlen(cells), sizeof cells - strlen(cells), "%s%s", i ? " " : "", why->cell[i]);
        snprintf(why->text, sizeof why->text, "%s holds a line: %s.", player_title(b, w), cells);
        return;
    }
    /* Vaporized: the cell of the destruction that did it, when known. */
    if (before && (m_kind(last) == K_BOARD || m_kind(last) == K_TREE)) {
        char name[3];
        cell_name(m_to(last), name);
        game_why_add(why, name);
    }
    snprintf(why->text, sizeof why->text, "Only %s is left: the others were vaporized.", player_title(b, w));
}
